//! `solve`'s records as `check` scores them: the score it reports, the same record for any thread
//! count and with `--distributed`, long and judged runs, width changes replayed, progress lines,
//! records read from standard input and records continued from a piece; and bad input's one-line
//! error.

use super::{check_score, solve, CHECK, GEN};
use crate::common::{run, tencent_input, Scratch};
use std::ffi::OsStr;

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
/// distributed one (here one process of the default build; `tests/it/all_games/mpi_cli.rs`
/// holds 1-4 MPI processes to the same record) give the same record, byte for byte, at a narrow
/// beam, where ties of key are common, and a wider one.
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
    assert!(
        summary["contest"]["stats"]["clears"].is_array(),
        "{summary}"
    );
    assert_eq!(summary["contest"]["stats"], checked["contest"]["stats"]);
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
    // How the deadline went, whichever way it went on this machine.
    let deadline = &summary["deadline"];
    assert_eq!(deadline["budget_seconds"], 3.0);
    assert!(deadline["search_seconds"].is_f64(), "{deadline}");
    assert!(deadline["wall_seconds"].is_f64(), "{deadline}");
    assert!(deadline["met"].is_boolean(), "{deadline}");
    assert!(r.stderr.contains("time budget 3.0 s: "), "{r:#?}");
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

/// A budget too short to measure the search's speed in is refused before any work, with the
/// way to the fastest search instead.
#[test]
fn an_absurdly_short_time_budget_is_refused() {
    let input = tencent_input();
    let r = solve(&[&input, &"--time-budget", &"0.0001", &"--beam-width", &"5"]);
    r.assert_no_panic();
    assert_eq!(r.code, Some(2), "{r:#?}");
    assert!(r.stdout.is_empty(), "{r:#?}");
    assert!(
        r.stderr.contains("--time-budget 0.0001s is too short")
            && r.stderr.contains("--beam-width 1"),
        "{r:#?}"
    );
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

/// The tokens of a record's first `pieces` pieces, up to the N of the next one.
fn first_pieces(text: &str, pieces: usize) -> String {
    let tokens: Vec<&str> = text.trim().split(',').collect();
    let next = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| **t == "N")
        .nth(pieces)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("more than {pieces} pieces"));
    tokens[..next].join(",")
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
    assert_eq!(
        first_pieces(&continued.stdout, 151),
        first_pieces(&first.stdout, 151)
    );
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
    // A record asked for more pieces than it has does not replay that far: invalid, as one
    // that does not replay.
    let cases: Vec<([&dyn AsRef<OsStr>; 2], &str, i32)> = vec![
        ([&record, &too_many], &only, 1),
        ([&short, &"2"], "does not replay up to piece 2", 1),
        ([&judged, &"200"], "mid-air", 1),
    ];
    for ([path, n], needle, code) in cases {
        let r = solve(&[
            &input,
            &"--pieces",
            &"300",
            &"--from-record",
            path,
            &"--from-piece",
            n,
        ]);
        assert_eq!(r.code, Some(code), "{r:#?}");
        assert!(r.stdout.is_empty(), "{r:#?}");
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line: {r:#?}");
        assert!(lines[0].contains(needle), "{needle}: {r:#?}");
    }
    // Past the pieces solved, as past the record's end: the record does not replay that far.
    let past = solve(&[
        &input,
        &"--pieces",
        &"50",
        &"--from-record",
        &record,
        &"--from-piece",
        &"100",
    ]);
    assert_eq!(past.code, Some(1), "{past:#?}");
    assert!(
        past.stderr.contains("does not replay up to piece 100"),
        "{past:#?}"
    );
    let alone = solve(&[&input, &"--from-piece", &"10"]);
    assert_eq!(
        alone.code,
        Some(2),
        "--from-piece needs --from-record: {alone:#?}"
    );
}
