//! `solve --game nes` run as a user runs it: records that check to the solver's score whatever the
//! thread count, start or stop, auto shift included, its progress, its summary and why its
//! search stopped.

use super::{assert_usage_error, check, json_of, score_of, solve, HEADER};
use crate::common::Scratch;
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
    assert_eq!(json["pieces_placed"], 40);
    assert_eq!(json["score"].as_u64(), Some(score));
    assert_eq!(json["end"]["reason"], "record_ended");
    // The solver's own summary agrees.
    let rom = format!("ROM score: {}", json["nes"]["rom_score"]);
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
        assert_eq!(json["score"].as_u64(), Some(r.solve_score()));
        if args.contains(&"--lines") {
            assert!(json["lines"].as_u64().unwrap() >= 8, "{json}");
        } else {
            assert_eq!(json["pieces_placed"], 25);
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
    let report = json_of(&check(&[&"--json", &path]));
    assert_eq!(report["score"].as_u64(), Some(score));
    assert_eq!(report["nes"]["level"], 29);
    // The record ends on the frame the level reaches 29.
    let transition = &report["nes"]["transition"];
    assert_eq!(
        transition["frame"].as_u64(),
        Some(report["nes"]["frames"].as_u64().unwrap() - 1)
    );
    assert_eq!(transition["score"].as_u64(), Some(score));
    let line = format!(
        "level 29 transition: score {score} after {} lines",
        transition["lines"]
    );
    assert!(r.stderr.lines().any(|l| l == line), "{line:?} in {r:#?}");
    if score > 999_999 {
        assert_eq!(report["nes"]["rom_score"], 999_999);
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
        let report = json_of(&check(&[&"--json", &path]));
        assert_eq!(
            report["pieces_placed"].as_u64().unwrap().to_string(),
            pieces
        );
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
    let end = human.stdout.lines().find(|l| l.starts_with("end: "));
    let end = end.expect("an end line");
    assert!(
        end.starts_with("end: game over at piece ")
            && end.ends_with(": topped out (it spawned into the stack)"),
        "{human:#?}"
    );
    let report = json_of(&check(&[&"--json", &path]));
    assert_eq!(report["end"]["reason"], "topped_out");
    let piece = report["end"]["piece"]
        .as_u64()
        .expect("the piece that topped out");
    assert_eq!(piece, report["pieces_placed"].as_u64().unwrap() + 1);
    assert_eq!(
        end,
        format!("end: {}", report["end"]["text"].as_str().unwrap())
    );
    let unplayed = report["nes"]["unplayed_frames"].as_u64().unwrap();
    assert_eq!(unplayed + report["nes"]["frames"].as_u64().unwrap(), 3000);
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
    // The estimate follows the game's own count of lines still to clear: within 5% of the
    // pieces the game ends with from its last quarter on.
    let lines = counts(&["--lines", "60"]);
    let last = lines.last().expect("a last line").0;
    for (at, total) in lines.iter().filter(|(at, _)| 4 * at >= 3 * last) {
        let total: u64 = total
            .trim_start_matches("about ")
            .parse()
            .expect("a number");
        assert!(
            total.abs_diff(last) * 20 <= last,
            "piece {at} of about {total}, the game ends at {last}: {lines:?}"
        );
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
    assert_eq!(json["nes"]["ending"], "topped_out", "{json}");
    let ended_at = json["nes"]["beam_ended_at_piece"]
        .as_u64()
        .expect("a piece");
    assert!(ended_at > 10 && ended_at < 1_000, "{json}");
    let line = format!(
        "the search stopped before the stop asked for: every line of the beam had ended by \
         piece {ended_at}; this record ends where its next piece tops out"
    );
    assert!(r.stderr.contains(&line), "{r:#?}");
    let r = solve(&["--pieces", "5", "--beam-width", "5", "--json", &summary_arg]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["nes"]["ending"], "reached", "{json}");
    assert!(json["nes"]["beam_ended_at_piece"].is_null(), "{json}");
    assert!(!r.stderr.contains("the search stopped"), "{r:#?}");
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

/// `--from-record R --from-piece K` goes on from the first K pieces of R: its record starts
/// with R's header and those pieces' lines, and checks to the score it claims. Kept to the last
/// piece of a record that ended at its stop, the search goes on past it.
#[test]
fn a_search_goes_on_from_a_records_first_pieces() {
    let base = [
        "--start-level",
        "19",
        "--title-wait",
        "9",
        "--beam-width",
        "50",
    ];
    let first = solve(&[&base[..], &["--pieces", "40"]].concat());
    assert_eq!(first.code, Some(0), "{first:#?}");
    let scratch = Scratch::new("nes-from-record");
    let path = scratch.file("first.txt", &first.stdout);
    let path = path.display().to_string();
    for (kept, pieces) in [(0, "40"), (1, "40"), (25, "40"), (39, "40"), (40, "60")] {
        let from = kept.to_string();
        let again = [
            "--pieces",
            pieces,
            "--from-record",
            &path,
            "--from-piece",
            &from,
        ];
        let resumed = solve(&[&base[..], &again[..]].concat());
        assert_eq!(resumed.code, Some(0), "{kept}: {resumed:#?}");
        // The header's 4 lines and a line per kept piece; the last of those runs to the next
        // piece's spawn where the record stopped before it.
        let whole = 4 + kept.min(39);
        let lines = |text: &str| text.lines().take(whole).collect::<Vec<_>>().join("\n");
        assert_eq!(lines(&resumed.stdout), lines(&first.stdout), "{kept}");
        if kept == 0 {
            assert_eq!(
                resumed.stdout, first.stdout,
                "nothing kept: the same search"
            );
        }
        let record = scratch.file(&format!("from-{kept}.txt"), &resumed.stdout);
        let checked = json_of(&check(&[&"--json", &record]));
        assert_eq!(checked["score"].as_u64(), Some(resumed.solve_score()));
        assert_eq!(checked["pieces_placed"], pieces.parse::<u64>().unwrap());
    }
}

/// A start that differs from the record's, more pieces than the record holds and a stop within
/// the kept pieces are the command line's errors, each said before any search.
#[test]
fn a_from_record_that_cannot_be_kept_is_refused() {
    let first = solve(&["--title-wait", "9", "--pieces", "10", "--beam-width", "20"]);
    assert_eq!(first.code, Some(0), "{first:#?}");
    let scratch = Scratch::new("nes-from-record-refused");
    let path = scratch.file("first.txt", &first.stdout);
    let path = path.display().to_string();
    let with = |extra: &[&str], from: &str| {
        let base = [
            "--beam-width",
            "20",
            "--from-record",
            &path,
            "--from-piece",
            from,
        ];
        solve(&[&base[..], extra].concat())
    };
    let r = with(&["--start-level", "18", "--pieces", "20"], "5");
    assert_usage_error(&r, &["--start-level 18", "--start-level 19"]);
    let r = with(&["--pieces", "30"], "11");
    assert_usage_error(&r, &["holds only 10 whole pieces", "11"]);
    let r = with(&["--pieces", "8"], "9");
    assert_usage_error(&r, &["reaches its stop within the first 9 pieces"]);
}
