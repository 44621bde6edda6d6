//! `solve --game nes` run as a user runs it: records that check to the solver's score whatever the
//! thread count, start or stop, its summary, refused options and weights, and `merge`, `polish`
//! and `tune` refusing NES.

use super::{
    assert_usage_error, check, fixture, json_of, score_of, solve, HEADER, MERGE, POLISH, SOLVE,
    TUNE,
};
use crate::common::{manifest_dir, run, Scratch};
use serde_json::Value;

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

/// The pieces a game to a line count takes are an estimate: the progress says "about" and the
/// count never runs past the total (it is raised instead); a piece count is exact.
#[test]
fn progress_totals_say_about_where_they_are_estimates() {
    let counts = |args: &[&str]| -> Vec<(u64, String)> {
        let mut all = vec!["--beam-width", "8", "--progress-every", "0"];
        all.extend_from_slice(args);
        let r = solve(&all);
        assert_eq!(r.code, Some(0), "{r:#?}");
        (r.stderr.lines())
            .filter_map(|l| l.strip_prefix("piece ")?.split_once(" best "))
            .map(|(at, _)| {
                let (at, total) = at.split_once('/').expect("a total");
                (at.parse().expect("a count"), total.to_string())
            })
            .collect()
    };
    let lines = counts(&["--lines", "30"]);
    assert!(lines.len() > 3, "{lines:?}");
    for (at, total) in &lines {
        let total: u64 = (total.strip_prefix("about "))
            .unwrap_or_else(|| panic!("{total:?} is no estimate"))
            .parse()
            .expect("a number");
        assert!(*at <= total, "piece {at} of about {total}");
    }
    let pieces = counts(&["--pieces", "20"]);
    assert!(pieces.iter().all(|(_, total)| total == "20"), "{pieces:?}");
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

/// `--nes-weights` fields left out keep the shipped values, as for `--weights`: a file naming
/// one weight at its shipped value plays the shipped game (a file without every field was
/// refused), and a file cut short is named as such.
#[test]
fn nes_weights_fields_left_out_keep_the_shipped_values() {
    let scratch = Scratch::new("nes-weights-some");
    let args = ["--title-wait", "9", "--pieces", "8", "--beam-width", "20"];
    let shipped = solve(&args);
    assert_eq!(shipped.code, Some(0), "{shipped:#?}");
    let one = scratch.file("one.json", "{\"hole\": 4000.0}");
    let mut with_one = args.to_vec();
    with_one.extend(["--nes-weights", one.to_str().unwrap()]);
    let r = solve(&with_one);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(r.stdout, shipped.stdout);

    let cut = scratch.file("cut.json", "{\"hole\": 4000.0,");
    let mut with_cut = args.to_vec();
    with_cut.extend(["--nes-weights", cut.to_str().unwrap()]);
    let r = solve(&with_cut);
    assert_eq!(r.code, Some(2), "{r:#?}");
    let message = format!(
        "error: weights file {}: the file ends before its JSON does (line 1, column 16): is it \
         cut short?",
        cut.display()
    );
    assert_eq!(r.stderr.trim_end(), message);
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
