//! `check --game nes` run as a user runs it: the fixture's report in text and JSON, the trace and
//! frames, malformed and unreadable records, standard input, and the contest's options refused.

use super::{assert_usage_error, check, fixture, json_of, keys, score_of, CHECK, HEADER};
use crate::common::{manifest_dir, run, Scratch};
use serde_json::Value;
use std::path::Path;

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
    assert_eq!(
        keys(&value),
        [
            "end",
            "error",
            "format",
            "game",
            "lines",
            "nes",
            "pieces_placed",
            "score",
            "valid"
        ]
    );
    assert_eq!(value["valid"], true);
    assert_eq!(value["game"], "nes");
    let report = &value["nes"];
    assert_eq!(
        keys(report),
        [
            "clears",
            "frames",
            "level",
            "level_count",
            "margin",
            "milestones",
            "rom_score",
            "transition",
            "unplayed_frames"
        ]
    );
    assert_eq!(value["score"].as_u64(), Some(score));
    assert_eq!(report["rom_score"], 999_999);
    assert_eq!(report["level"], 29);
    assert_eq!(value["end"]["reason"], "record_ended");
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
        value["lines"].as_u64().unwrap()
    );
    assert_eq!(report["transition"]["score"].as_u64(), Some(score));
    // The human summary says the same.
    let lines = format!(
        "lines: {} (clears of 1: {}, 2: {}, 3: {}, 4: {}), level 29",
        value["lines"], clears[0], clears[1], clears[2], clears[3]
    );
    assert!(human.stdout.lines().any(|l| l == lines), "{lines:?}");
    assert!(human
        .stdout
        .lines()
        .any(|l| l == format!("pieces locked: {}", value["pieces_placed"])));
}

#[test]
fn trace_prints_one_lock_per_piece_and_frames_one_json_line_per_frame() {
    let scratch = Scratch::new("nes-trace");
    // Two O pieces dropped where they spawn, then nothing: short enough to count by hand.
    let path = scratch.file("r.txt", format!("{HEADER}.*300\n"));
    let plain = check(&[&"--json", &path]);
    let report = json_of(&plain);
    let pieces = report["pieces_placed"].as_u64().unwrap();
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
    assert_eq!(report["end"]["reason"], "record_ended");
    assert_eq!(json.len(), 300);
    for (i, frame) in json.iter().enumerate() {
        assert_eq!(frame["frame"].as_u64(), Some(i as u64));
    }
    // The first piece hangs: it stays at the top for the first 95 frames of the record.
    assert!(json[..95].iter().all(|f| f["y"] == 0 && f["x"] == 5));
    assert_eq!(json[95]["y"], 1);
}

pub(super) fn plain_last_line(path: &Path) -> String {
    check(&[&path]).last_line().to_string()
}

#[test]
fn a_malformed_record_exits_1_naming_the_file_and_line() {
    let scratch = Scratch::new("nes-bad");
    for (name, text, parts) in [
        (
            "letter.txt",
            format!("{HEADER}.*5 R\n. RX .\n"),
            vec!["6: ", "token 'RX'", "'X' is not a button"],
        ),
        (
            "start.txt",
            format!("{HEADER}S\n"),
            vec!["5: ", "token 'S'", "Start"],
        ),
        (
            "count.txt",
            format!("{HEADER}R*0\n"),
            vec!["5: ", "token 'R*0'", "count"],
        ),
        (
            "game.txt",
            "game tencent\nstart-level 19\ntitle-wait 9\ninputs\n".to_string(),
            vec!["1: ", "token 'tencent'"],
        ),
        (
            "key.txt",
            "game nes\nspeed 19\ninputs\n".to_string(),
            vec!["2: ", "token 'speed'"],
        ),
        (
            "wait.txt",
            "game nes\nstart-level 19\ntitle-wait 99999\ninputs\n".to_string(),
            vec!["3: ", "level 19", "title-wait 99999", "0..=255"],
        ),
        (
            "noinputs.txt",
            "game nes\nstart-level 19\ntitle-wait 9\n".to_string(),
            vec!["3: ", "no 'inputs' line"],
        ),
        ("contest.txt", "N,C1,L1,D18\n".to_string(), vec!["1: "]),
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
            .strip_prefix(&format!("error: {}:", path.display()))
            .unwrap_or_else(|| panic!("{name}: the error names the file: {:?}", lines[0]));
        // `FILE:LINE: ...`, as every game's checker names a place.
        assert!(error.starts_with(parts[0]), "{name}: {error:?}");
        for part in &parts {
            assert!(error.contains(part), "{name}: {part:?} not in {error:?}");
        }

        let json = check(&[&"--json", &path]);
        assert_eq!(json.code, Some(1), "{name}: {json:#?}");
        let value = json_of(&json);
        assert_eq!(value["valid"], false);
        assert_eq!(value["score"], 0);
        assert_eq!(value["end"]["reason"], "invalid");
        assert_eq!(value["nes"], serde_json::json!({}));
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

/// `check --game nes --html` wrote no page for a record that does not parse, and said
/// nothing: a line on stderr says the page was not written and why.
#[test]
fn check_game_nes_says_it_wrote_no_page_for_a_record_that_does_not_parse() {
    let scratch = Scratch::new("nes-html-error");
    let path = scratch.file("rec.txt", format!("{HEADER}RX\n"));
    let page = scratch.dir.join("page.html");
    let r = check(&[&"--html", &page, &path]);
    r.assert_no_panic();
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(r.last_line(), "Score = 0");
    assert_eq!(
        r.stderr,
        format!(
            "note: --html {}: not written, since the record does not parse\n",
            page.display()
        )
    );
    assert!(!page.exists());
}
