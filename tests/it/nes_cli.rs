//! `check --game nes` and `solve --game nes` run as a user runs them: the fixture's report in
//! both forms, malformed and unreadable records, solver records that check to the solver's own
//! score whatever the thread count, refused options, and the binaries that play only the
//! contest's game refusing NES.

use crate::common::{manifest_dir, run, Run, Scratch};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

const CHECK: &str = env!("CARGO_BIN_EXE_check");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const MERGE: &str = env!("CARGO_BIN_EXE_merge");
const POLISH: &str = env!("CARGO_BIN_EXE_polish");
const TUNE: &str = env!("CARGO_BIN_EXE_tune");

/// The header of a hand-made record (lines 1-4).
const HEADER: &str = "game nes\nstart-level 19\ntitle-wait 9\ninputs\n";

fn fixture() -> PathBuf {
    manifest_dir().join("tests/fixtures/nes/solver-level19-wait9.txt")
}

/// Runs `check --game nes` with `args`.
fn check(args: &[&dyn AsRef<OsStr>]) -> Run {
    let mut all: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &"nes"];
    all.extend_from_slice(args);
    run(CHECK, &all)
}

/// Runs `solve --game nes` with `args`.
fn solve(args: &[&str]) -> Run {
    let mut all: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &"nes"];
    all.extend(args.iter().map(|a| a as &dyn AsRef<OsStr>));
    run(SOLVE, &all)
}

/// The score of a `Score = N` line.
fn score_of(line: &str) -> u64 {
    line.strip_prefix("Score = ")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a score line: {line:?}"))
}

/// Asserts a usage error: exit 2, no panic, nothing on stdout, and an `error:` line on stderr
/// holding every one of `parts`.
fn assert_usage_error(run: &Run, parts: &[&str]) {
    run.assert_no_panic();
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert_eq!(run.stdout, "", "{run:#?}");
    let error = run
        .stderr
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| panic!("no error line: {run:#?}"));
    for part in parts {
        assert!(error.contains(part), "{part:?} not in {error:?}");
    }
}

/// The one JSON object a `--json` run printed.
fn json_of(run: &Run) -> Value {
    assert_eq!(run.stdout.lines().count(), 1, "one line of JSON: {run:#?}");
    serde_json::from_str(&run.stdout).expect("stdout is JSON")
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("a JSON object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[test]
fn the_fixture_checks_to_the_same_score_in_text_and_json() {
    let path = fixture();
    let human = check(&[&path]);
    human.assert_no_panic();
    assert_eq!(human.code, Some(0), "{human:#?}");
    assert_eq!(human.stderr, "");
    let score = score_of(human.last_line());
    assert!(score > 999_999, "{human:#?}");
    assert!(human
        .stdout
        .lines()
        .any(|l| l == "ROM score (capped at 999,999): 999999"));
    assert!(human
        .stdout
        .lines()
        .any(|l| l.starts_with("level 29 transition: score ")));

    let json = check(&[&"--json", &path]);
    assert_eq!(json.code, Some(0), "{json:#?}");
    assert_eq!(json.stderr, "");
    let value = json_of(&json);
    assert_eq!(keys(&value), ["report", "valid"]);
    assert_eq!(value["valid"], true);
    let report = &value["report"];
    assert_eq!(
        keys(report),
        [
            "clears",
            "end",
            "frames",
            "level",
            "level_count",
            "lines",
            "milestones",
            "pieces",
            "rom_score",
            "score",
            "transition",
            "unplayed_frames"
        ]
    );
    assert_eq!(report["score"].as_u64(), Some(score));
    assert_eq!(report["rom_score"], 999_999);
    assert_eq!(report["level"], 29);
    assert_eq!(report["end"], "record_ended");
    assert_eq!(report["unplayed_frames"], 0);
    let clears: Vec<u64> = report["clears"]
        .as_array()
        .expect("clears is an array")
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(clears.len(), 4);
    assert_eq!(
        clears[0] + 2 * clears[1] + 3 * clears[2] + 4 * clears[3],
        report["lines"].as_u64().unwrap()
    );
    assert_eq!(report["transition"]["score"].as_u64(), Some(score));
    // The human summary says the same.
    let lines = format!(
        "lines: {} (clears of 1: {}, 2: {}, 3: {}, 4: {}), level 29",
        report["lines"], clears[0], clears[1], clears[2], clears[3]
    );
    assert!(human.stdout.lines().any(|l| l == lines), "{lines:?}");
    assert!(human
        .stdout
        .lines()
        .any(|l| l == format!("pieces locked: {}", report["pieces"])));
}

#[test]
fn trace_prints_one_lock_per_piece_and_frames_one_json_line_per_frame() {
    let scratch = Scratch::new("nes-trace");
    // Two O pieces dropped where they spawn, then nothing: short enough to count by hand.
    let path = scratch.file("r.txt", format!("{HEADER}.*300\n"));
    let plain = check(&[&"--json", &path]);
    let report = json_of(&plain)["report"].clone();
    let pieces = report["pieces"].as_u64().unwrap();
    assert!(pieces >= 2, "{report}");

    let trace = check(&[&"--trace", &path]);
    assert_eq!(trace.code, Some(0), "{trace:#?}");
    let locks: Vec<&str> = trace
        .stdout
        .lines()
        .filter(|l| l.starts_with("piece "))
        .collect();
    assert_eq!(locks.len() as u64, pieces, "{}", trace.stdout);
    assert!(locks[0].starts_with("piece 1 O (orientation 10) locks at x=5 y=18"));
    // A board of 20 rows after each lock, the piece marked.
    let rows = trace
        .stdout
        .lines()
        .filter(|l| l.len() == 10 && l.chars().all(|c| "#.@".contains(c)))
        .count();
    assert_eq!(rows as u64, 20 * pieces);
    assert_eq!(trace.last_line(), plain_last_line(&path));

    let frames = check(&[&"--frames", &path]);
    assert_eq!(frames.code, Some(0), "{frames:#?}");
    let json: Vec<Value> = frames
        .stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("a JSON line per frame"))
        .collect();
    assert_eq!(report["end"], "record_ended");
    assert_eq!(json.len(), 300);
    for (i, frame) in json.iter().enumerate() {
        assert_eq!(frame["frame"].as_u64(), Some(i as u64));
    }
    // The first piece hangs: it stays at the top for the first 95 frames of the record.
    assert!(json[..95].iter().all(|f| f["y"] == 0 && f["x"] == 5));
    assert_eq!(json[95]["y"], 1);
}

fn plain_last_line(path: &Path) -> String {
    check(&[&path]).last_line().to_string()
}

#[test]
fn a_malformed_record_exits_1_naming_the_file_and_line() {
    let scratch = Scratch::new("nes-bad");
    for (name, text, parts) in [
        (
            "letter.txt",
            format!("{HEADER}.*5 R\n. RX .\n"),
            vec!["line 6", "token 'RX'", "'X' is not a button"],
        ),
        (
            "start.txt",
            format!("{HEADER}S\n"),
            vec!["line 5", "token 'S'", "Start"],
        ),
        (
            "count.txt",
            format!("{HEADER}R*0\n"),
            vec!["line 5", "token 'R*0'", "count"],
        ),
        (
            "game.txt",
            "game tencent\nstart-level 19\ntitle-wait 9\ninputs\n".to_string(),
            vec!["line 1", "token 'tencent'"],
        ),
        (
            "key.txt",
            "game nes\nspeed 19\ninputs\n".to_string(),
            vec!["line 2", "token 'speed'"],
        ),
        (
            "wait.txt",
            "game nes\nstart-level 19\ntitle-wait 99999\ninputs\n".to_string(),
            vec!["line ", "level 19", "title-wait 99999", "0..=255"],
        ),
        (
            "noinputs.txt",
            "game nes\nstart-level 19\ntitle-wait 9\n".to_string(),
            vec!["line 3", "no 'inputs' line"],
        ),
        ("contest.txt", "N,C1,L1,D18\n".to_string(), vec!["line 1"]),
    ] {
        let path = scratch.file(name, &text);
        let human = check(&[&path]);
        human.assert_no_panic();
        assert_eq!(human.code, Some(1), "{name}: {human:#?}");
        assert_eq!(human.stderr, "", "{name}");
        let lines: Vec<&str> = human.stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{name}: {human:#?}");
        assert_eq!(lines[1], "Score = 0");
        let error = lines[0]
            .strip_prefix(&format!("error: {}: ", path.display()))
            .unwrap_or_else(|| panic!("{name}: the error names the file: {:?}", lines[0]));
        for part in &parts {
            assert!(error.contains(part), "{name}: {part:?} not in {error:?}");
        }

        let json = check(&[&"--json", &path]);
        assert_eq!(json.code, Some(1), "{name}: {json:#?}");
        let value = json_of(&json);
        assert_eq!(keys(&value), ["error", "score", "valid"]);
        assert_eq!(value["valid"], false);
        assert_eq!(value["score"], 0);
        assert_eq!(
            value["error"].as_str(),
            lines[0].strip_prefix("error: "),
            "{name}"
        );
    }
}

#[test]
fn an_unreadable_record_exits_2() {
    let scratch = Scratch::new("nes-unreadable");
    let missing = scratch.dir.join("missing.txt");
    let binary = scratch.file("binary.txt", [b'g', 0xFF, 0xFE, b'\n']);
    for (path, part) in [
        (&missing, "cannot read record file"),
        (&scratch.dir, "cannot read record file"),
        (&binary, "is not text"),
    ] {
        let r = check(&[path]);
        r.assert_no_panic();
        assert_eq!(r.code, Some(2), "{r:#?}");
        assert!(
            r.stderr.starts_with("error: ") && r.stderr.contains(part),
            "{r:#?}"
        );
        assert!(r.stderr.contains(&path.display().to_string()), "{r:#?}");
        assert!(!r.stdout.contains("Score = 1"), "{r:#?}");
    }
}

#[test]
fn an_unreadable_record_still_ends_with_score_0() {
    let scratch = Scratch::new("nes-unreadable-score");
    let r = check(&[&scratch.dir.join("missing.txt")]);
    assert_eq!(r.code, Some(2), "{r:#?}");
    assert_eq!(r.last_line(), "Score = 0", "{r:#?}");
}

#[test]
fn check_takes_one_file_and_no_contest_options() {
    let path = fixture();
    let r = check(&[&path, &path]);
    assert_usage_error(&r, &["--game nes takes one file"]);
    let r = check(&[&"--stats", &path]);
    assert_usage_error(&r, &["--stats", "--game nes"]);
    let r = check(&[&"--trace", &"--at", &"1", &path]);
    assert_usage_error(&r, &["--at"]);
    // --frames is NES only.
    let r = run(
        CHECK,
        &[
            &"--frames",
            &manifest_dir().join("inputs/tencent.txt"),
            &manifest_dir().join("tests/fixtures/public-record-1395326.txt"),
        ],
    );
    assert_usage_error(&r, &["--frames is an option of NES Tetris (--game nes)"]);
}

#[test]
fn check_reads_the_record_from_standard_input() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let text = std::fs::read(fixture()).unwrap();
    let mut child = Command::new(CHECK)
        .args(["--game", "nes", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start check");
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().last(),
        Some(plain_last_line(&fixture()).as_str())
    );
}

#[test]
fn a_solved_record_checks_to_the_solvers_score() {
    let r = solve(&[
        "--start-level",
        "19",
        "--title-wait",
        "9",
        "--pieces",
        "40",
        "--beam-width",
        "50",
    ]);
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "{r:#?}");
    let score = r.solve_score();
    assert!(score > 0, "{r:#?}");
    assert!(r.stdout.starts_with(HEADER), "{}", r.stdout);
    let scratch = Scratch::new("nes-solve");
    let path = scratch.file("solved.txt", &r.stdout);
    let checked = check(&[&path]);
    assert_eq!(checked.code, Some(0), "{checked:#?}");
    assert_eq!(score_of(checked.last_line()), score);
    let json = json_of(&check(&[&"--json", &path]));
    assert_eq!(json["report"]["pieces"], 40);
    assert_eq!(json["report"]["score"].as_u64(), Some(score));
    assert_eq!(json["report"]["end"], "record_ended");
    // The solver's own summary agrees.
    let rom = format!("ROM score: {}", json["report"]["rom_score"]);
    assert!(r.stderr.lines().any(|l| l == rom), "{r:#?}");
    // A line of frames for each piece after the header.
    assert!(r.stdout.lines().count() >= 4 + 40, "{}", r.stdout);
}

#[test]
fn the_solved_record_does_not_depend_on_the_thread_count() {
    let args = |threads: &'static str| {
        vec![
            "--start-level",
            "19",
            "--title-wait",
            "9",
            "--pieces",
            "40",
            "--beam-width",
            "50",
            "--threads",
            threads,
        ]
    };
    let one = solve(&args("1"));
    let two = solve(&args("2"));
    assert_eq!(one.code, Some(0), "{one:#?}");
    assert_eq!(two.code, Some(0), "{two:#?}");
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.solve_score(), two.solve_score());
}

#[test]
fn other_starts_and_stops_give_records_that_check() {
    let scratch = Scratch::new("nes-starts");
    for (args, level_line) in [
        (
            vec![
                "--start-level",
                "18",
                "--title-wait",
                "255",
                "--pieces",
                "25",
                "--beam-width",
                "30",
                "--input-model",
                "tap:4",
            ],
            "start-level 18",
        ),
        (
            vec![
                "--start-level",
                "19",
                "--title-wait",
                "0",
                "--lines",
                "8",
                "--beam-width",
                "30",
            ],
            "start-level 19",
        ),
    ] {
        let r = solve(&args);
        assert_eq!(r.code, Some(0), "{args:?}: {r:#?}");
        assert!(r.stdout.lines().any(|l| l == level_line), "{}", r.stdout);
        let path = scratch.file("r.txt", &r.stdout);
        let json = json_of(&check(&[&"--json", &path]));
        assert_eq!(json["report"]["score"].as_u64(), Some(r.solve_score()));
        if args.contains(&"--lines") {
            assert!(json["report"]["lines"].as_u64().unwrap() >= 8, "{json}");
        } else {
            assert_eq!(json["report"]["pieces"], 25);
        }
    }
}

#[test]
fn solve_stops_at_the_level_29_transition_by_default() {
    let r = solve(&["--title-wait", "9", "--beam-width", "20"]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let score = r.solve_score();
    let scratch = Scratch::new("nes-transition");
    let path = scratch.file("r.txt", &r.stdout);
    let report = json_of(&check(&[&"--json", &path]))["report"].clone();
    assert_eq!(report["score"].as_u64(), Some(score));
    assert_eq!(report["level"], 29);
    // The record ends on the frame the level reaches 29.
    let transition = &report["transition"];
    assert_eq!(
        transition["frame"].as_u64(),
        Some(report["frames"].as_u64().unwrap() - 1)
    );
    assert_eq!(transition["score"].as_u64(), Some(score));
    let line = format!(
        "level 29 transition: score {score} after {} lines",
        transition["lines"]
    );
    assert!(r.stderr.lines().any(|l| l == line), "{line:?} in {r:#?}");
    if score > 999_999 {
        assert_eq!(report["rom_score"], 999_999);
        assert!(r.stderr.lines().any(|l| l == "ROM score: 999999"));
    }
}

#[test]
fn the_last_pieces_clear_counts_with_pieces() {
    let scratch = Scratch::new("nes-last-clear");
    for pieces in ["14", "42", "46"] {
        let r = solve(&[
            "--title-wait",
            "9",
            "--pieces",
            pieces,
            "--beam-width",
            "50",
        ]);
        assert_eq!(r.code, Some(0), "{r:#?}");
        // Idle frames after the record: too few for the next piece to lock, enough for the last
        // one's rows to be counted.
        let path = scratch.file("r.txt", format!("{}.*30\n", r.stdout));
        let report = json_of(&check(&[&"--json", &path]))["report"].clone();
        assert_eq!(report["pieces"].as_u64().unwrap().to_string(), pieces);
        assert_eq!(
            report["score"].as_u64(),
            Some(r.solve_score()),
            "--pieces {pieces}: the last piece's clear is left out"
        );
    }
}

#[test]
fn idle_frames_top_out_and_the_frames_after_are_noted() {
    let scratch = Scratch::new("nes-idle");
    let path = scratch.file("idle.txt", format!("{HEADER}.*3000\n"));
    let human = check(&[&path]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    assert!(human.stdout.lines().any(|l| l == "end: topped out"));
    let report = json_of(&check(&[&"--json", &path]))["report"].clone();
    assert_eq!(report["end"], "topped_out");
    let unplayed = report["unplayed_frames"].as_u64().unwrap();
    assert_eq!(unplayed + report["frames"].as_u64().unwrap(), 3000);
    let note = format!("note: the last {unplayed} frames of the record come after the game ended");
    assert!(human.stdout.lines().any(|l| l == note), "{human:#?}");
    assert_eq!(human.last_line(), "Score = 0");
}

#[test]
fn quiet_solve_prints_only_the_record() {
    let r = solve(&[
        "--title-wait",
        "9",
        "--pieces",
        "5",
        "--beam-width",
        "5",
        "--quiet",
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(r.stderr, "");
    assert!(r.stdout.starts_with(HEADER), "{}", r.stdout);
}

#[test]
fn an_unknown_start_is_refused_naming_the_level_and_the_range() {
    let r = solve(&["--start-level", "19", "--title-wait", "99999"]);
    assert_usage_error(&r, &["level 19", "title-wait 99999", "0..=255"]);
    let r = solve(&["--start-level", "5", "--title-wait", "32"]);
    assert_usage_error(&r, &["level 5", "0..=31"]);
    let r = solve(&["--start-level", "20", "--title-wait", "0"]);
    assert_usage_error(&r, &["level 20", "0..=19"]);
}

#[test]
fn bad_input_models_are_refused() {
    for model in ["tap:1", "tap:x", "tap:0", "tap:61", "2", "hold:2", "tap:"] {
        let r = solve(&["--input-model", model, "--pieces", "1", "--beam-width", "1"]);
        assert_usage_error(&r, &["--input-model", model]);
    }
    // What is wrong is said: not the number when the number is fine.
    for (model, what) in [
        ("tap:3,das,das", "`das` once, and nothing after it"),
        ("tap:2,", "nothing after the comma"),
        ("tap:2,dash", "\"dash\" is not `das`"),
        (
            "tap:1",
            "N (\"1\") must be a whole number of frames from 2 to 60",
        ),
    ] {
        let r = solve(&["--input-model", model, "--pieces", "1", "--beam-width", "1"]);
        assert_usage_error(&r, &["--input-model", model, what]);
    }
    let r = solve(&[
        "--title-wait",
        "9",
        "--input-model",
        "tap:60",
        "--pieces",
        "2",
        "--beam-width",
        "5",
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
}

#[test]
fn zero_widths_pieces_and_lines_are_refused() {
    for (option, value) in [("--beam-width", "0"), ("--pieces", "0"), ("--lines", "0")] {
        let r = solve(&["--title-wait", "9", option, value]);
        assert_usage_error(&r, &[option]);
    }
    // Too many lines and none say the same range, from 1.
    for value in ["0", "99999999999"] {
        let r = solve(&["--title-wait", "9", "--lines", value]);
        assert_usage_error(&r, &["--lines", "a number of lines from 1 to 4294967295"]);
    }
}

#[test]
fn nes_options_without_game_nes_are_refused() {
    let input = manifest_dir().join("inputs/tencent.txt");
    for (option, value) in [
        ("--start-level", "19"),
        ("--title-wait", "9"),
        ("--input-model", "tap:2"),
        ("--lines", "10"),
    ] {
        let r = run(SOLVE, &[&input, &option, &value, &"--pieces", &"1"]);
        assert_usage_error(&r, &[option, "is an option of NES Tetris"]);
    }
}

#[test]
fn solve_game_nes_writes_or_refuses_a_json_summary() {
    let scratch = Scratch::new("nes-json");
    let summary = scratch.dir.join("summary.json");
    let summary_arg = summary.display().to_string();
    let r = solve(&[
        "--title-wait",
        "9",
        "--pieces",
        "5",
        "--beam-width",
        "5",
        "--json",
        &summary_arg,
    ]);
    assert!(
        r.code == Some(2) || summary.exists(),
        "neither refused nor written: {r:#?}"
    );
}

/// Where the search stops before the stop asked for, the summary and the JSON say why: every
/// line of the beam ended by some piece, and the record's own next piece tops out (a beam of
/// one from level 19 tops out within a few dozen pieces); at the stop they say it was reached.
#[test]
fn solve_game_nes_says_why_the_search_stopped() {
    let scratch = Scratch::new("nes-ending");
    let summary = scratch.dir.join("summary.json");
    let summary_arg = summary.display().to_string();
    let r = solve(&[
        "--beam-width",
        "1",
        "--until-level",
        "end",
        "--json",
        &summary_arg,
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["ending"], "topped_out", "{json}");
    let ended_at = json["beam_ended_at_piece"].as_u64().expect("a piece");
    assert!(ended_at > 10 && ended_at < 1_000, "{json}");
    let line = format!(
        "the search stopped before the stop asked for: every line of the beam had ended by \
         piece {ended_at}; this record ends where its next piece tops out"
    );
    assert!(r.stderr.contains(&line), "{r:#?}");
    let r = solve(&["--pieces", "5", "--beam-width", "5", "--json", &summary_arg]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["ending"], "reached", "{json}");
    assert!(json["beam_ended_at_piece"].is_null(), "{json}");
    assert!(!r.stderr.contains("the search stopped"), "{r:#?}");
}

#[test]
fn solve_game_nes_refuses_the_contests_arguments() {
    let input = manifest_dir().join("inputs/tencent.txt");
    let input = input.display().to_string();
    for extra in [
        vec![input.as_str()],
        vec!["--judge"],
        vec!["--width-changes", "2:5"],
        vec!["--weights", "weights/default.json"],
        vec!["--threads", "0"],
        vec!["--beam-width", "100000001"],
    ] {
        let mut args = vec!["--title-wait", "9", "--pieces", "5", "--beam-width", "5"];
        args.extend(extra.iter().copied());
        let r = solve(&args);
        assert_eq!(r.code, Some(2), "{extra:?} is not refused: {r:#?}");
    }
}

/// The search options every game shares work for NES as for the contest: a time budget, the
/// thread count, a memory estimate printed before the search and a refusal past the machine's.
#[test]
fn solve_game_nes_takes_the_shared_search_options() {
    let r = solve(&[
        "--title-wait",
        "9",
        "--pieces",
        "5",
        "--beam-width",
        "5",
        "--time-budget",
        "60",
        "--max-beam-width",
        "50",
        "--threads",
        "2",
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(r.stderr.contains("expected peak memory"), "{r:#?}");
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_solve"))
        .args([
            "--game",
            "nes",
            "--title-wait",
            "9",
            "--pieces",
            "5",
            "--beam-width",
            "10000000",
        ])
        .env("TETRIS_OPT_MEMORY", "1G")
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2), "{r:#?}");
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("memory"),
        "{r:#?}"
    );
}

#[test]
fn merge_polish_and_tune_refuse_nes() {
    let input = manifest_dir().join("inputs/tencent.txt");
    let record = manifest_dir().join("tests/fixtures/public-record-1395326.txt");
    let r = run(MERGE, &[&"--game", &"nes", &input, &record]);
    assert_usage_error(&r, &["merge", "NES"]);
    let r = run(POLISH, &[&"--game", &"nes", &input, &record]);
    assert_usage_error(&r, &["polish", "NES"]);
    let scratch = Scratch::new("nes-tune");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let r = run(
        TUNE,
        &[&"--game", &"nes", &"--log", &log, &"--best-weights", &best],
    );
    assert_usage_error(&r, &["tune", "NES"]);
    assert!(
        !log.exists() && !best.exists(),
        "tune wrote before refusing"
    );
    // Merge refuses NES whatever the records are, even the NES fixture.
    let r = run(MERGE, &[&"--game", &"nes", &fixture(), &fixture()]);
    assert_usage_error(&r, &["NES"]);
}

/// The error line `check --game nes` prints for a record that does not parse (exit 1, then
/// `Score = 0`), without `error: FILE: `.
fn parse_error(scratch: &Scratch, name: &str, text: &str) -> String {
    let path = scratch.file(name, text);
    let r = check(&[&path]);
    r.assert_no_panic();
    assert_eq!(r.code, Some(1), "{name}: {r:#?}");
    assert_eq!(r.last_line(), "Score = 0", "{name}: {r:#?}");
    let first = r.stdout.lines().next().unwrap_or("");
    first
        .strip_prefix(&format!("error: {}: ", path.display()))
        .unwrap_or_else(|| panic!("{name}: the error names the file: {r:#?}"))
        .to_string()
}

#[test]
fn a_record_may_start_with_a_byte_order_mark() {
    let scratch = Scratch::new("nes-bom");
    let text = std::fs::read_to_string(fixture()).unwrap();
    let path = scratch.file("bom.txt", format!("\u{feff}{text}"));
    let r = check(&[&path]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(r.last_line(), plain_last_line(&fixture()));
}

/// A record without its `game nes` line was read, and a header key given twice took its last
/// value.
#[test]
fn the_header_starts_with_game_nes_and_names_each_key_once() {
    let scratch = Scratch::new("nes-header");
    let error = parse_error(
        &scratch,
        "nogame.txt",
        "start-level 19\ntitle-wait 9\ninputs\n.\n",
    );
    assert_eq!(
        error,
        "line 1 (token 'start-level'): an NES record starts with the line 'game nes'"
    );
    let error = parse_error(
        &scratch,
        "twice.txt",
        "game nes\nstart-level 19\ntitle-wait 9\n# again\nstart-level 18\ninputs\n.\n",
    );
    assert_eq!(
        error,
        "line 5 (token 'start-level'): given twice: the header has it on line 2 already"
    );
    let error = parse_error(&scratch, "game.txt", &format!("game nes\n{HEADER}"));
    assert_eq!(
        error,
        "line 2 (token 'game'): given twice: the header has it on line 1 already"
    );
}

/// `'​' is not a button` showed nothing where the character is, and `'.' is not a button
/// (..., or '.' for none)` contradicted itself.
#[test]
fn characters_that_are_not_buttons_are_named_truly() {
    let scratch = Scratch::new("nes-chars");
    let error = parse_error(&scratch, "zwsp.txt", &format!("{HEADER}R\u{200B}\n"));
    assert_eq!(
        error,
        "line 5 (token 'R<U+200B>'): U+200B is not a button (R, L, D, U, A, B, s, or '.' for none)"
    );
    let error = parse_error(&scratch, "cyrillic.txt", &format!("{HEADER}\u{41C}\n"));
    assert!(
        error.contains("'\u{41C}' (U+041C) is not a button"),
        "{error}"
    );
    let error = parse_error(&scratch, "dot.txt", &format!("{HEADER}R.\n"));
    assert_eq!(
        error,
        "line 5 (token 'R.'): '.' stands alone for a frame with no button; it does not go with buttons"
    );
}

/// A 100,000-digit count was echoed twice in a 200 KB message, and a contest record given to
/// `check --game nes` printed all of its 108 KB.
#[test]
fn long_tokens_are_quoted_cut_short() {
    let scratch = Scratch::new("nes-long");
    let digits = "7".repeat(100_000);
    let error = parse_error(&scratch, "count.txt", &format!("{HEADER}R*{digits}\n"));
    let cut = format!("{}...", "7".repeat(38));
    assert_eq!(
        error,
        format!(
            "line 5 (token 'R*{cut}'): '{}...' is not a count of frames (1 or more)",
            "7".repeat(40)
        )
    );
    let contest =
        std::fs::read_to_string(manifest_dir().join("tests/fixtures/public-record-1395326.txt"))
            .unwrap();
    let error = parse_error(&scratch, "contest.txt", &contest);
    assert!(error.len() < 300, "{error}");
    assert!(error.starts_with("line 1 (token '"), "{error}");
    assert!(
        error.contains(
            "...'): an NES record starts with the line 'game nes'; that is a record of the \
             contest's game"
        ),
        "{error}"
    );
}

/// A record that ended on a piece's lock frame: `--trace` showed the lock, while the summary,
/// `--json` and `--html` counted one piece fewer (the game writes a piece into the field a few
/// frames after it locks).
#[test]
fn a_record_ending_on_a_lock_frame_counts_that_piece_everywhere() {
    let scratch = Scratch::new("nes-lock-end");
    let long = scratch.file("long.txt", format!("{HEADER}.*300\n"));
    let trace = check(&[&"--trace", &long]);
    let second = trace
        .stdout
        .lines()
        .find(|l| l.starts_with("piece 2 "))
        .unwrap_or_else(|| panic!("a second lock: {trace:#?}"));
    let frame: usize = second
        .split(" on frame ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|f| f.parse().ok())
        .unwrap_or_else(|| panic!("a frame in {second:?}"));
    // Frames from 0: the record's last frame is the lock's.
    let path = scratch.file("r.txt", format!("{HEADER}.*{}\n", frame + 1));

    let trace = check(&[&"--trace", &path]);
    assert_eq!(trace.code, Some(0), "{trace:#?}");
    let locks = trace
        .stdout
        .lines()
        .filter(|l| l.starts_with("piece "))
        .count();
    assert_eq!(locks, 2, "{}", trace.stdout);
    assert!(
        trace.stdout.contains("pieces locked: 2\n"),
        "{}",
        trace.stdout
    );
    let plain = check(&[&path]);
    assert!(plain.stdout.contains("pieces locked: 2\n"), "{plain:#?}");
    let json = check(&[&"--json", &path]);
    assert_eq!(json_of(&json)["report"]["pieces"], 2, "{json:#?}");
    let page_of = |record: &Path| {
        let page = scratch.dir.join("r.html");
        let html = check(&[&"--html", &page, &record]);
        assert_eq!(html.code, Some(0), "{html:#?}");
        std::fs::read_to_string(&page).unwrap()
    };
    let page = page_of(&path);
    assert!(page.contains("NES Tetris: 2 pieces"), "the page's summary");
    // The film holds both pieces: one more than a record ending the frame before the lock.
    let before = scratch.file("before.txt", format!("{HEADER}.*{frame}\n"));
    let film_pieces = |page: &str| {
        let xs = page.split("\"x\":[").nth(1).expect("the film's x");
        xs[..xs.find(']').unwrap()].split(',').count()
    };
    assert_eq!(film_pieces(&page), film_pieces(&page_of(&before)) + 1);
}

/// `check rec.txt` on an NES record said only that an argument was missing.
#[test]
fn check_without_game_nes_names_the_game_of_the_record() {
    let path = fixture();
    let r = run(CHECK, &[&path]);
    let shown = path.display().to_string();
    assert_usage_error(
        &r,
        &[
            &format!("{shown} is an NES record (its first line is `game nes`)"),
            &format!("check it with `check --game nes {shown}`"),
        ],
    );
    let scratch = Scratch::new("browser-record-alone");
    let browser = scratch.file("b.txt", "# a comment\ngame browser\nD\n");
    let r = run(CHECK, &[&browser]);
    assert_usage_error(
        &r,
        &[
            "is a record of the browser game",
            &format!("`check --game browser SEQUENCE {}`", browser.display()),
        ],
    );
    let contest = scratch.file("c.txt", "N,D19\n");
    let r = run(CHECK, &[&contest]);
    assert_usage_error(&r, &["check needs a sequence file and a record file"]);
}

/// `--piece-limit` and `--judge` were silently ignored by `check --game nes`.
#[test]
fn check_game_nes_refuses_the_contests_options() {
    let path = fixture();
    let r = check(&[&"--judge", &path]);
    assert_usage_error(
        &r,
        &["--judge is an option of the contest's game, not of NES Tetris"],
    );
    let r = check(&[&"--piece-limit", &"10000", &path]);
    assert_usage_error(&r, &["--piece-limit is an option of the contest's game"]);
    let r = check(&[&"--stats", &path]);
    assert_usage_error(&r, &["--stats is an option of the contest's game"]);
}

/// `check --game nes --fm2 rec.txt rec.txt` overwrote the record it checked.
#[test]
fn check_game_nes_refuses_to_write_over_its_record() {
    let scratch = Scratch::new("nes-overwrite");
    let text = std::fs::read_to_string(fixture()).unwrap();
    let path = scratch.file("rec.txt", &text);
    let same = scratch.dir.join(".").join("rec.txt");
    for option in ["--fm2", "--html"] {
        let r = check(&[&option, &same, &path]);
        assert_usage_error(&r, &[option, "that is the record file this run reads"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{option}");
    }
}

/// `--nes-weights` takes an object of the known fields with numbers, and names what is wrong.
#[test]
fn nes_weights_files_are_validated_naming_the_field() {
    let scratch = Scratch::new("nes-weights");
    let shipped = std::fs::read_to_string(manifest_dir().join("weights/nes-tetris.json")).unwrap();
    let with_mark = scratch.file("bom.json", format!("\u{FEFF}{shipped}"));
    let r = solve(&[
        "--title-wait",
        "9",
        "--pieces",
        "2",
        "--beam-width",
        "5",
        "--nes-weights",
        with_mark.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "a byte-order mark is skipped: {r:#?}");
    let extra = shipped.trim_end().trim_end_matches('}').to_string() + ", \"holes\": 1}";
    let first_field = shipped.split('"').nth(1).unwrap().to_string();
    let wrong_type = shipped.replacen(
        &format!("\"{first_field}\":"),
        &format!("\"{first_field}\": \"x\", \"_\":"),
        1,
    );
    for (text, needle) in [
        ("[1, 2, 3]".to_string(), "array".to_string()),
        (extra, "holes".to_string()),
        (wrong_type, first_field.clone()),
    ] {
        let file = scratch.file("w.json", &text);
        let r = solve(&[
            "--title-wait",
            "9",
            "--pieces",
            "2",
            "--nes-weights",
            file.to_str().unwrap(),
        ]);
        assert_eq!(r.code, Some(2), "{text}: {r:#?}");
        assert!(r.stderr.contains(&needle), "{needle}: {}", r.stderr);
    }
}

/// Under auto shift a placement may need Left or Right held for many frames: such placements
/// are children like any other, and the game goes on (a code that held too few presses once
/// dropped them, and the beam topped out after 20 pieces).
#[test]
fn solve_with_auto_shift_places_every_piece_asked_whatever_the_thread_count() {
    let args = |threads: &'static str| {
        vec![
            "--title-wait",
            "0",
            "--input-model",
            "tap:10,das",
            "--beam-width",
            "50",
            "--pieces",
            "60",
            "--threads",
            threads,
        ]
    };
    let one = solve(&args("1"));
    let two = solve(&args("2"));
    assert_eq!(one.code, Some(0), "{one:#?}");
    assert_eq!(
        one.stdout, two.stdout,
        "the thread count changed the record"
    );
    assert!(one.stderr.contains(": 60 pieces,"), "{}", one.stderr);
    let scratch = Scratch::new("nes-das-solve");
    let record = scratch.file("das.txt", &one.stdout);
    let r = check(&[&record]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(r.stdout.contains("pieces locked: 60"), "{}", r.stdout);
    assert_eq!(score_of(r.last_line()), one.solve_score());
}
