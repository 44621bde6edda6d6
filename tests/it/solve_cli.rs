//! `solve` run as a user runs it: its record is accepted by `check` with exactly the score it
//! reports, it depends neither on the thread count nor on `--distributed`, and bad input gets
//! a one-line error.

use crate::common::{run, tencent_input, Run, Scratch};
use std::ffi::OsStr;

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");
const GEN: &str = env!("CARGO_BIN_EXE_gen");

fn solve(args: &[&dyn AsRef<OsStr>]) -> Run {
    let r = run(SOLVE, args);
    r.assert_no_panic();
    r
}

fn check_score(input: &dyn AsRef<OsStr>, record: &dyn AsRef<OsStr>, extra: &[&str]) -> u64 {
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![input, record];
    for e in extra {
        args.push(e);
    }
    let r = run(CHECK, &args);
    assert_eq!(r.code, Some(0), "{r:#?}");
    r.last_line()
        .strip_prefix("Score = ")
        .and_then(|s| s.parse().ok())
        .expect("check prints a score")
}

#[test]
fn record_is_accepted_by_check_with_the_reported_score() {
    let scratch = Scratch::new("solve");
    let input = tencent_input();
    let r = solve(&[&input, &"--pieces", &"600", &"--beam-width", &"60"]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let record = scratch.file("moves.txt", &r.stdout);
    assert_eq!(r.stdout.lines().count(), 1, "one line of record");
    assert!(r.stdout.starts_with("N,"));
    let claimed = r.solve_score();
    assert!(claimed > 0);
    assert_eq!(check_score(&input, &record, &[]), claimed);
}

#[test]
fn same_record_for_one_and_two_threads() {
    let input = tencent_input();
    let base: [&dyn AsRef<OsStr>; 6] = [
        &input,
        &"--pieces",
        &"400",
        &"--beam-width",
        &"150",
        &"--quiet",
    ];
    let one = solve(&[&base[..], &[&"--threads", &"1"]].concat());
    let two = solve(&[&base[..], &[&"--threads", &"2"]].concat());
    assert_eq!(one.code, Some(0), "{one:#?}");
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
}

/// One order of states everywhere (`search::Order`): the one-process search and the
/// distributed one (here one process of the default build; `tests/it/mpi_cli.rs` holds 1-4 MPI
/// processes to the same record) give the same record, byte for byte, at a narrow beam, where
/// ties of key are common, and a wider one.
#[test]
fn solve_and_solve_distributed_give_one_record() {
    let input = tencent_input();
    for width in ["64", "3000"] {
        let base: [&dyn AsRef<OsStr>; 6] = [
            &input,
            &"--pieces",
            &"300",
            &"--beam-width",
            &width,
            &"--quiet",
        ];
        let one = solve(&base);
        let many = solve(&[&base[..], &[&"--distributed", &"--threads", &"1"]].concat());
        assert_eq!(one.code, Some(0), "{one:#?}");
        assert_eq!(many.code, Some(0), "{many:#?}");
        assert!(one.stdout.starts_with("N,"), "{one:#?}");
        assert!(
            one.stdout == many.stdout,
            "width {width}: solve and solve --distributed differ"
        );
    }
}

#[test]
fn long_generated_sequence_without_piece_limit() {
    let scratch = Scratch::new("long");
    let generated = run(GEN, &[&"--seed", &"99", &"--count", &"100000"]);
    assert_eq!(generated.code, Some(0));
    let input = scratch.file("long.txt", &generated.stdout);
    // A small beam survives 100,000 pieces only when it keeps the top of the board clear.
    // Every weight is given (an early hand-tuned set with a heavy top-rows cost), so that
    // retuning the shipped defaults cannot change what this test runs.
    let safe = crate::common::manifest_dir().join("tests/fixtures/long-survival-weights.json");
    let long_args: [&dyn AsRef<OsStr>; 8] = [
        &input,
        &"--beam-width",
        &"8",
        &"--weights",
        &safe,
        &"--piece-limit",
        &"0",
        &"--quiet",
    ];
    let r = solve(&long_args);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let record = scratch.file("moves.txt", &r.stdout);
    let pieces = r.stdout.matches('N').count();
    // The record stops at the best-scoring state, which may be a few pieces before the end
    // when the last pieces clear nothing; dying early would leave far fewer.
    assert!(
        pieces > 99_000,
        "the beam should survive the sequence: {pieces} pieces"
    );
    let strict = check_score(&input, &record, &["--piece-limit", "0"]);
    assert!(strict > 0);
    // With --json the solve summary states the same score.
    let json = scratch.dir.join("summary.json");
    let again = solve(&[&long_args[..], &[&"--json", &json]].concat());
    assert_eq!(again.stdout, r.stdout);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["score"].as_u64(), Some(strict));
    // Its breakdown of the points is the checker's (`check --stats`) for the same record.
    let checked = run(
        CHECK,
        &[
            &input,
            &record,
            &"--piece-limit",
            &"0",
            &"--stats",
            &"--json",
        ],
    );
    let checked: serde_json::Value = serde_json::from_str(checked.stdout.trim()).unwrap();
    assert!(summary["stats"]["clears"].is_array(), "{summary}");
    assert_eq!(summary["stats"], checked["stats"]);
    // The time per phase adds up to no more than the search's own time.
    let phases = &summary["phase_seconds"];
    let sum: f64 = ["expand", "select", "advance"]
        .iter()
        .map(|p| phases[p].as_f64().expect("a phase time"))
        .sum();
    assert!(sum > 0.0 && sum <= summary["search_seconds"].as_f64().unwrap() + 1e-6);
}

#[test]
fn judge_record_passes_judge_check() {
    let scratch = Scratch::new("judge");
    let input = tencent_input();
    let r = solve(&[
        &input,
        &"--pieces",
        &"500",
        &"--beam-width",
        &"60",
        &"--judge",
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let record = scratch.file("moves.txt", &r.stdout);
    assert_eq!(check_score(&input, &record, &["--judge"]), r.solve_score());
}

#[test]
fn bad_input_gives_one_line_error_and_nonzero_exit() {
    let scratch = Scratch::new("bad");
    let bad_letter = scratch.file("bad.txt", "IJLX\n");
    let input = tencent_input();
    let missing = scratch.dir.join("missing.txt");
    let bad_weights = scratch.file("w.json", "{\"cells\": \"many\"}");
    let cases: Vec<(Vec<&dyn AsRef<OsStr>>, &str)> = vec![
        (vec![&missing], "cannot read"),
        (vec![&bad_letter], "line 1, column 4"),
        (vec![&input, &"--beam-width", &"0"], "--beam-width"),
        (vec![&input, &"--weights", &bad_weights], "weights file"),
        (vec![&input, &"--threads", &"0"], "--threads"),
    ];
    for (args, needle) in cases {
        let r = solve(&args);
        assert_ne!(r.code, Some(0), "{r:#?}");
        assert!(r.stdout.is_empty(), "no record on failure: {r:#?}");
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line: {r:#?}");
        assert!(lines[0].contains(needle), "{needle}: {r:#?}");
    }
}

/// A budgeted solve prints the width changes it made; `--width-changes` with them replays the
/// same record, which `check` scores as claimed.
#[test]
fn a_time_budget_run_replays_from_its_printed_width_changes() {
    let scratch = Scratch::new("budget");
    let input = tencent_input();
    let json = scratch.dir.join("summary.json");
    let common: [&dyn AsRef<OsStr>; 5] = [&input, &"--pieces", &"400", &"--beam-width", &"30"];
    let budget: [&dyn AsRef<OsStr>; 6] = [
        &"--time-budget",
        &"3s",
        &"--max-beam-width",
        &"300",
        &"--json",
        &json,
    ];
    let r = solve(&[&common[..], &budget[..]].concat());
    assert_eq!(r.code, Some(0), "{r:#?}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let changes = summary["width_changes"]
        .as_str()
        .expect("changes in the summary");
    assert_eq!(summary["time_budget_seconds"], 3.0);
    // Which widths the budget chose depends on the machine's speed; that they replay does not.
    let replay: Vec<&dyn AsRef<OsStr>> = if changes.is_empty() {
        vec![&"--quiet"]
    } else {
        let printed = format!("--beam-width 30 --width-changes {changes}");
        assert!(r.stderr.contains(&printed), "{r:#?}");
        vec![&"--width-changes", &changes, &"--quiet"]
    };
    let again = solve(&[&common[..], &replay[..]].concat());
    assert_eq!(again.code, Some(0), "{again:#?}");
    assert_eq!(again.stdout, r.stdout);
    let record = scratch.file("moves.txt", &r.stdout);
    assert_eq!(check_score(&input, &record, &[]), r.solve_score());
}

/// With stderr in a pipe (a log, not a terminal) the progress bar does not draw; `solve` prints
/// plain lines of progress instead, as often as `--progress-every` asks, and none with --quiet.
#[test]
fn a_log_gets_lines_of_progress() {
    let input = tencent_input();
    let common: [&dyn AsRef<OsStr>; 5] = [&input, &"--pieces", &"100", &"--beam-width", &"20"];
    let every = solve(&[&common[..], &[&"--progress-every", &"0"]].concat());
    assert_eq!(every.code, Some(0), "{every:#?}");
    let lines: Vec<&str> = every
        .stderr
        .lines()
        .filter(|l| l.starts_with("piece "))
        .collect();
    // Every 16 pieces, and the last.
    let expected: Vec<String> = [16, 32, 48, 64, 80, 96, 100]
        .iter()
        .map(|n| format!("piece {n}/100 best "))
        .collect();
    assert_eq!(lines.len(), expected.len(), "{every:#?}");
    for (line, start) in lines.iter().zip(&expected) {
        assert!(line.starts_with(start.as_str()), "{line:?}: {every:#?}");
        assert!(line.contains(" beam 20 "), "{line:?}");
    }
    // A run far shorter than the default minute prints none; --quiet none at all.
    let default = solve(&common);
    assert!(!default.stderr.contains("piece 16/"), "{default:#?}");
    let quiet = solve(&[&common[..], &[&"--progress-every", &"0", &"--quiet"]].concat());
    assert!(quiet.stderr.is_empty(), "{quiet:#?}");
    let bad = solve(&[&common[..], &[&"--progress-every", &"soon"]].concat());
    assert_eq!(bad.code, Some(2), "{bad:#?}");
    assert!(bad.stderr.contains("not a non-negative time"), "{bad:#?}");
}

#[test]
fn bad_width_options_are_refused() {
    let input = tencent_input();
    let cases: [(&[&str], &str); 14] = [
        (&["--width-changes", ""], "no width change given"),
        (
            &["--pieces", "100", "--width-changes", "50:10,120:20"],
            "depth 120 is past the last of the 100 depths",
        ),
        (&["--beam-width", "100000001"], "above the widest beam"),
        (
            &["--beam-width", "18446744073709551615"],
            "above the widest beam",
        ),
        (
            &["--time-budget", "5m", "--max-beam-width", "1000000000000"],
            "--max-beam-width 1000000000000 is above",
        ),
        (&["--threads", "3000"], "--threads 3000 is more than"),
        (&["--piece-limit", "1"], "--piece-limit 1"),
        (&["--width-changes", "50:0"], "at least 1"),
        (&["--width-changes", "50:10,40:20"], "depths must increase"),
        (&["--width-changes", "50"], "DEPTH:WIDTH"),
        (&["--time-budget", "0"], "not a positive time"),
        (
            &["--time-budget", "5m", "--max-beam-width", "0"],
            "--max-beam-width",
        ),
        (
            &["--time-budget", "5", "--width-changes", "5:10"],
            "cannot be used",
        ),
        (
            &["--score-weight", "NaN"],
            "--score-weight must be a finite number",
        ),
    ];
    for (extra, needle) in cases {
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![&input];
        args.extend(extra.iter().map(|a| a as &dyn AsRef<OsStr>));
        let r = solve(&args);
        assert_eq!(r.code, Some(2), "{extra:?}: {r:#?}");
        assert!(r.stdout.is_empty(), "no record on failure: {r:#?}");
        assert!(r.stderr.contains(needle), "{needle}: {r:#?}");
    }
}

#[test]
fn check_reads_the_record_from_standard_input() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let input = tencent_input();
    let r = solve(&[
        &input,
        &"--pieces",
        &"200",
        &"--beam-width",
        &"20",
        &"--quiet",
    ]);
    let mut child = Command::new(CHECK)
        .args([input.as_os_str(), OsStr::new("-")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start check");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(r.stdout.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let scratch = Scratch::new("stdin");
    let record = scratch.file("moves.txt", &r.stdout);
    let expected = format!("Score = {}", check_score(&input, &record, &[]));
    assert_eq!(stdout.lines().last(), Some(expected.as_str()));
}

/// `--from-record R --from-piece N` keeps R's first N pieces token for token and searches only
/// the rest; the whole record is checked from the first piece. N is odd on purpose: the pieces
/// searched spawn in the state of their number in the game, not of their depth in the search.
#[test]
fn a_record_continued_from_a_piece_keeps_its_start_and_checks_whole() {
    let scratch = Scratch::new("from");
    let input = tencent_input();
    let first = solve(&[&input, &"--pieces", &"300", &"--beam-width", &"60"]);
    assert_eq!(first.code, Some(0), "{first:#?}");
    let record = scratch.file("first.txt", &first.stdout);
    let have = first.stdout.split(',').filter(|t| t.trim() == "N").count();
    assert!(have > 200, "{first:#?}");
    let json = scratch.dir.join("summary.json");
    let more: [&dyn AsRef<OsStr>; 11] = [
        &input,
        &"--pieces",
        &"300",
        &"--beam-width",
        &"200",
        &"--from-record",
        &record,
        &"--from-piece",
        &"151",
        &"--json",
        &json,
    ];
    let continued = solve(&more);
    assert_eq!(continued.code, Some(0), "{continued:#?}");
    // The first 151 pieces are the first record's, up to the N of piece 152.
    let kept = |text: &str| -> String {
        let tokens: Vec<&str> = text.trim().split(',').collect();
        let next_152 = tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| **t == "N")
            .nth(151)
            .map(|(i, _)| i)
            .expect("more than 151 pieces");
        tokens[..next_152].join(",")
    };
    assert_eq!(kept(&continued.stdout), kept(&first.stdout));
    assert_ne!(continued.stdout, first.stdout, "a wider beam played on");
    let out = scratch.file("continued.txt", &continued.stdout);
    assert_eq!(check_score(&input, &out, &[]), continued.solve_score());
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["from_piece"], 151);

    // What cannot be continued is refused with a one-line error naming why.
    let judge = solve(&[
        &input,
        &"--pieces",
        &"300",
        &"--beam-width",
        &"60",
        &"--judge",
    ]);
    let judged = scratch.file("judge.txt", &judge.stdout);
    let short = scratch.file("short.txt", "N,D18,N,D18");
    let too_many = (have + 1).to_string();
    let only = format!("only {have} pieces");
    let cases: Vec<([&dyn AsRef<OsStr>; 2], &str)> = vec![
        ([&record, &too_many], &only),
        ([&short, &"2"], "do not replay"),
        ([&judged, &"200"], "mid-air"),
    ];
    for ([path, n], needle) in cases {
        let r = solve(&[
            &input,
            &"--pieces",
            &"300",
            &"--from-record",
            path,
            &"--from-piece",
            n,
        ]);
        assert_eq!(r.code, Some(2), "{r:#?}");
        assert!(r.stdout.is_empty(), "{r:#?}");
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line: {r:#?}");
        assert!(lines[0].contains(needle), "{needle}: {r:#?}");
    }
    let alone = solve(&[&input, &"--from-piece", &"10"]);
    assert_eq!(
        alone.code,
        Some(2),
        "--from-piece needs --from-record: {alone:#?}"
    );
}

/// The memory check runs before any work, with the estimate and the memory it counted on; a
/// user who knows better forces the search. `TETRIS_OPT_MEMORY` stands in for the machine's
/// memory, so the test does not depend on the machine it runs on.
#[test]
fn a_beam_that_cannot_fit_in_memory_is_refused_before_the_search() {
    let input = tencent_input();
    let with_memory = |extra: &[&str]| {
        let output = std::process::Command::new(SOLVE)
            .arg(&input)
            .args(["--pieces", "2", "--beam-width", "1000000", "--quiet"])
            .args(extra)
            .env("TETRIS_OPT_MEMORY", "512M")
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stderr).unwrap(),
            output.stdout,
        )
    };
    let (code, stderr, stdout) = with_memory(&[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("a beam of 1000000 states needs about 0.9 GiB")
            && stderr.contains("more than this machine's 0.5 GiB")
            && stderr.contains("--force"),
        "{stderr}"
    );
    let (code, stderr, stdout) = with_memory(&["--force"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.is_empty());
}

/// Before searching, `solve` says how much memory it expects the beam to take, beside the
/// machine's, so that a user can pick a width by memory.
#[test]
fn solve_states_the_memory_it_expects_before_the_search() {
    let input = tencent_input();
    let output = std::process::Command::new(SOLVE)
        .arg(&input)
        .args(["--pieces", "2", "--beam-width", "100000"])
        .env("TETRIS_OPT_MEMORY", "24G")
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "expected peak memory: about 111 MiB for a beam of 100000 states of this machine's \
         24.0 GiB",
        "{stderr}"
    );
}

/// `--json` to a place that cannot be written fails at once, not after the search.
#[test]
fn an_unwritable_summary_path_fails_before_the_search() {
    let scratch = Scratch::new("json");
    let input = tencent_input();
    let path = scratch.dir.join("no-such-dir").join("run.json");
    let r = solve(&[&input, &"--json", &path]);
    assert_eq!(r.code, Some(2), "{r:#?}");
    assert!(r.stdout.is_empty(), "{r:#?}");
    assert!(
        r.stderr.contains("--json") && r.stderr.contains("cannot write"),
        "{r:#?}"
    );
    // Nothing was searched: no progress, no summary.
    assert_eq!(r.stderr.lines().count(), 1, "{r:#?}");
}

/// The search designs that lost at equal compute are gone: their options and policy fields
/// are refused, not ignored.
#[test]
fn options_of_removed_search_designs_are_refused() {
    let scratch = Scratch::new("removed-designs");
    let input = tencent_input();
    let policy = scratch.file("policy.json", "{\"fill_keep\": 3}");
    let cases: Vec<(Vec<&dyn AsRef<OsStr>>, &str)> = vec![
        (vec![&"--value-net", &"net.json"], "--value-net"),
        (vec![&"--fill-keep", &"3"], "--fill-keep"),
        (vec![&"--policy", &policy], "unknown field `fill_keep`"),
    ];
    for (extra, needle) in cases {
        let args = [&[&input as &dyn AsRef<OsStr>][..], &extra[..]].concat();
        let r = solve(&args);
        assert_eq!(r.code, Some(2), "{r:#?}");
        assert!(r.stdout.is_empty(), "no record on failure: {r:#?}");
        assert!(r.stderr.contains(needle), "{needle}: {r:#?}");
    }
}

/// `--pieces N` places N pieces (unless the game ends first), even where a shorter line of the
/// beam banked more: the answer is the best line of the last depth.
#[test]
fn pieces_n_places_n_pieces() {
    let scratch = Scratch::new("pieces-n");
    let input = tencent_input();
    for (pieces, width) in [("10", "200"), ("200", "2000")] {
        let r = solve(&[&input, &"--pieces", &pieces, &"--beam-width", &width]);
        assert_eq!(r.code, Some(0), "{r:#?}");
        assert!(
            r.stderr.contains(&format!("pieces locked: {pieces},")),
            "--pieces {pieces}: {}",
            r.stderr
        );
        let record = scratch.file("moves.txt", &r.stdout);
        assert_eq!(check_score(&input, &record, &[]), r.solve_score());
    }
}

/// The pieces a `solve --json` summary says its record places.
fn pieces_locked(json: &std::path::Path) -> u64 {
    let text = std::fs::read_to_string(json).expect("solve wrote its summary");
    let summary: serde_json::Value = serde_json::from_str(&text).expect("the summary is JSON");
    summary["pieces_locked"]
        .as_u64()
        .expect("the summary counts the pieces")
}

/// A beam of 3 under the points weights tops out within the first 60 pieces of seed 11. With
/// the ranking pinned, only the answer rule differs: surviving answers with a line that
/// placed at least as many pieces (here more: the richest line died first), for points with
/// one that scored at least as much; `check` agrees with each.
#[test]
fn survive_answers_with_the_line_that_went_furthest() {
    let scratch = Scratch::new("solve-survive");
    let generated = run(GEN, &[&"--seed", &"11", &"--count", &"60"]);
    assert_eq!(generated.code, Some(0), "{generated:#?}");
    let input = scratch.file("seq.txt", &generated.stdout);
    let answer = |objective: &str| {
        let json = scratch.dir.join(format!("{objective}.json"));
        let r = solve(&[
            &input,
            &"--beam-width",
            &"3",
            &"--objective",
            &objective,
            &"--weights",
            &"weights/default.json",
            &"--score-weight",
            &"0.024",
            &"--policy",
            &"policies/endgame-off.json",
            &"--threads",
            &"1",
            &"--json",
            &json,
        ]);
        assert_eq!(r.code, Some(0), "{r:#?}");
        let record = scratch.file(&format!("{objective}.txt"), &r.stdout);
        assert_eq!(check_score(&input, &record, &[]), r.solve_score());
        (pieces_locked(&json), r.solve_score())
    };
    let (score_pieces, score_points) = answer("score");
    let (survive_pieces, survive_points) = answer("survive");
    assert!(score_pieces < 60, "the beam tops out: {score_pieces}");
    assert!(survive_pieces >= score_pieces);
    assert!(score_points >= survive_points);
    assert_ne!(
        (survive_pieces, survive_points),
        (score_pieces, score_points),
        "the objective changes the answer here"
    );
}

/// Surviving, the contest's search takes the survival weights, no score weight and no endgame
/// unless told otherwise (the summary names them), and the record checks with the piece limit
/// lifted; an unknown objective is a usage error.
#[test]
fn survive_defaults_to_the_survival_ranking() {
    let scratch = Scratch::new("solve-survive-defaults");
    let generated = run(GEN, &[&"--seed", &"11", &"--count", &"300"]);
    let input = scratch.file("seq.txt", &generated.stdout);
    let json = scratch.dir.join("summary.json");
    let r = solve(&[
        &input,
        &"--beam-width",
        &"8",
        &"--objective",
        &"survive",
        &"--piece-limit",
        &"0",
        &"--json",
        &json,
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["objective"], "survive");
    assert_eq!(summary["score_weight"], 0.0);
    assert_eq!(
        summary["policy"]["endgame_score_weight"],
        serde_json::Value::Null
    );
    let weights = |text: &str| tetris_opt::games::tencent::eval::Weights::from_json(text).unwrap();
    assert_eq!(
        weights(&summary["weights"].to_string()),
        weights(include_str!("../../weights/contest-survive.json"))
    );
    assert_eq!(summary["pieces_locked"], 300);
    let record = scratch.file("moves.txt", &r.stdout);
    assert_eq!(
        check_score(&input, &record, &["--piece-limit", "0"]),
        r.solve_score()
    );

    let score_weight = scratch.dir.join("given.json");
    let given = solve(&[
        &input,
        &"--beam-width",
        &"8",
        &"--objective",
        &"survive",
        &"--score-weight",
        &"0.5",
        &"--json",
        &score_weight,
    ]);
    assert_eq!(given.code, Some(0), "{given:#?}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&score_weight).unwrap()).unwrap();
    assert_eq!(
        summary["score_weight"], 0.5,
        "an explicit score weight stands"
    );

    let bad = solve(&[&input, &"--objective", &"forever"]);
    assert_eq!(bad.code, Some(2), "{bad:#?}");
    assert!(bad.stderr.contains("survive"), "{}", bad.stderr);
}

/// A memory variable that is no amount is refused with one line naming it, even with
/// `--force`, before any work; an amount is taken.
#[test]
fn a_memory_variable_that_is_no_amount_is_refused() {
    let input = tencent_input();
    for (value, refused) in [
        ("abc", true),
        ("99999999999999999999T", true),
        ("16G", false),
        (" 512M ", false),
    ] {
        for force in [false, true] {
            let mut command = std::process::Command::new(SOLVE);
            command
                .arg(&input)
                .args(["--pieces", "3", "--beam-width", "3", "--quiet"])
                .env("TETRIS_OPT_MEMORY", value);
            if force {
                command.arg("--force");
            }
            let out = command.output().expect("solve runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let case = format!("TETRIS_OPT_MEMORY={value:?}, --force {force}");
            if refused {
                assert_eq!(out.status.code(), Some(2), "{case}: {stderr}");
                assert!(out.stdout.is_empty(), "{case}");
                assert_eq!(stderr.lines().count(), 1, "{case}: {stderr}");
                assert!(
                    stderr.starts_with("error: TETRIS_OPT_MEMORY=") && stderr.contains(value),
                    "{case}: {stderr}"
                );
            } else {
                assert_eq!(out.status.code(), Some(0), "{case}: {stderr}");
            }
        }
    }
}

/// Ctrl-C or SIGTERM during a solve writes out the record's whole pieces decided so far (each
/// checked; `check` accepts them) and says on one line how many and how to go on; the exit
/// code is the signal's. However far the search got, stdout is whole pieces and a newline.
#[test]
fn an_interrupted_solve_writes_the_pieces_decided_and_how_to_go_on() {
    use std::io::{BufRead, Read};
    use std::process::{Command, Stdio};
    let scratch = Scratch::new("interrupt");
    let input = tencent_input();
    let mut child = Command::new(SOLVE)
        .arg(&input)
        .args(["--beam-width", "200", "--progress-every", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("solve starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut lines = Vec::new();
    // Once the search is past piece 400 (its progress lines say where it is), some pieces are
    // decided.
    loop {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "{lines:?}");
        let piece = line
            .strip_prefix("piece ")
            .and_then(|rest| rest.split('/').next())
            .and_then(|n| n.parse::<usize>().ok());
        lines.push(line);
        if piece.is_some_and(|p| p >= 400) {
            break;
        }
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    let record = reader.join().unwrap().unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{rest}");
    let last = rest.lines().last().unwrap_or_default();
    let pieces: usize = last
        .strip_prefix("interrupted: the record's first ")
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of pieces: {rest}"));
    assert!(pieces > 0, "{rest}");
    assert!(
        last.contains(&format!("--from-record RECORD --from-piece {pieces}")),
        "{last}"
    );
    assert!(
        record.ends_with('\n') && record.lines().count() == 1,
        "{record}"
    );
    assert_eq!(
        record.matches('N').count(),
        pieces,
        "whole pieces: {record}"
    );
    let path = scratch.file("interrupted.txt", &record);
    let checked = run(CHECK, &[&input, &path]);
    assert_eq!(checked.code, Some(0), "{checked:#?}");
    assert!(
        checked.stdout.contains(&format!("pieces locked: {pieces}")),
        "{checked:#?}"
    );
    // And the search goes on from them.
    let on = solve(&[
        &input,
        &"--from-record",
        &path,
        &"--from-piece",
        &pieces.to_string(),
        &"--pieces",
        &(pieces + 20).to_string(),
        &"--beam-width",
        &"50",
        &"--quiet",
    ]);
    assert_eq!(on.code, Some(0), "{on:#?}");
    assert!(
        on.stdout.starts_with(record.trim_end()),
        "the kept pieces come first"
    );
}
