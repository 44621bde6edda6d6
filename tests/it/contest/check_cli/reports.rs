//! What `check` reports besides the score: `--stats` (breakdowns that add up to the score, the
//! fluid bound of the pieces the record covers), `--trace --at N`, and the note on a record
//! checked against another sequence.

use super::{assert_invalid, check, json_report, CHECK, OPENING};
use crate::common::{public_record, public_record_path, run, tencent_input, Scratch};
use serde_json::Value;

/// `--stats` on the public record gives the figures an earlier, separate count of its replay
/// found (clears of 1-4 rows 18 / 233 / 464 / 528 at
/// 153.7 / 161.8 / 157.4 / 159.3 filled cells, 176 I pieces clearing nothing and 194 clearing
/// fewer than four rows), and every breakdown adds up to the score.
#[test]
fn stats_of_the_public_record_match_an_independent_count_and_add_up() {
    let record = public_record_path();
    let json = run(
        CHECK,
        &[&"--stats", &"--json", &"inputs/tencent.txt", &record],
    );
    assert_eq!(json.code, Some(0), "{json:#?}");
    let report: Value = serde_json::from_str(json.stdout.trim()).unwrap();
    let stats = &report["contest"]["stats"];
    let clears = stats["clears"].as_array().unwrap();
    let counts: Vec<u64> = clears
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [18, 233, 464, 528]);
    let means: Vec<String> = clears
        .iter()
        .map(|c| {
            let mean = c["filled_total"].as_f64().unwrap() / c["count"].as_f64().unwrap();
            format!("{mean:.1}")
        })
        .collect();
    assert_eq!(means, ["153.7", "161.8", "157.4", "159.3"]);
    let i = &stats["i_pieces"];
    assert_eq!(i["locked"], 722);
    assert_eq!(i["cleared_four"], 528);
    assert_eq!(i["cleared_nothing"], 176);
    assert_eq!(i["cleared_fewer"], 194 - 176);
    let sum = |v: &Value| -> u64 {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .sum()
    };
    let by_clear: u64 = clears.iter().map(|c| c["points"].as_u64().unwrap()).sum();
    assert_eq!(by_clear, 1_395_326);
    assert_eq!(sum(&stats["points_by_kind"]), 1_395_326);
    assert_eq!(stats["points_per_segment"].as_array().unwrap().len(), 10);
    assert_eq!(sum(&stats["points_per_segment"]), 1_395_326);
    assert_eq!(stats["mid_air_locks"], 0);
    // The record never holds more than 174 cells after a lock, and the fluid model of the
    // sequence allows at most 1,516,598 points at that fill (kit::fluid's tests recompute it).
    assert_eq!(stats["fullest"], 174);
    assert_eq!(stats["fluid_bound"], 1_516_598);
    // One play that scores the bound, clear by clear: its points are the bound's.
    let play = stats["bound_play"].as_array().expect("the bound's play");
    let points: u64 = play.iter().map(|c| c["points"].as_u64().unwrap()).sum();
    assert_eq!(points, 1_516_598);
    // Through a well one column wide (T, S and Z at two rows), at the same fill: less, and
    // one play that scores it.
    assert_eq!(stats["one_well_bound"], 1_483_386);
    let play = stats["one_well_play"]
        .as_array()
        .expect("the one well's play");
    let points: u64 = play.iter().map(|c| c["points"].as_u64().unwrap()).sum();
    assert_eq!(points, 1_483_386);

    let human = run(CHECK, &[&"--stats", &"inputs/tencent.txt", &record]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    assert!(
        human
            .stdout
            .contains("clears of 4: 528 for 841,280 points (60.3%), 159.3 filled cells"),
        "{human:#?}"
    );
    assert!(
        human.stdout.contains(
            "fluid bound over pieces 1-9,999 at the fullest board (174 cells after a lock): \
             1,516,598 (92.0% scored)"
        ),
        "{human:#?}"
    );
    assert!(
        human.stdout.contains(
            "the bound's play clears: 549 of 4 on 165.3 cells, 570 of 3 on 171.8 cells, 32 of 2 \
             on 173.8 cells, 27 of 1 on 172.5 cells"
        ),
        "{human:#?}"
    );
    assert!(
        human.stdout.contains(
            "fluid bound through a well one column wide (an I clears up to 4 rows, an L or a J \
             3, the others 2): 1,483,386 (94.1% scored)\nthat play clears: 569 of 4 on 164.8 \
             cells, 485 of 3 on 165.3 cells, 108 of 2 on 171.7 cells, 51 of 1 on 172.7 cells"
        ),
        "{human:#?}"
    );
    assert_eq!(human.last_line(), "Score = 1395326");
}

/// A lock in mid-air is counted under the judge's rules; a record the strict rules reject gets
/// no breakdown (it would describe pieces that score nothing), only the error.
#[test]
fn stats_count_mid_air_locks_and_are_left_out_for_an_invalid_record() {
    let judged = check("N,C1,L1,D17,N,D18", &["--judge", "--stats", "--json"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    let report = json_report(&judged);
    assert_eq!(report["contest"]["stats"]["mid_air_locks"], 1);
    assert_eq!(
        report["contest"]["stats"]["points_per_segment"],
        serde_json::json!([0])
    );

    let strict = check("N,C1,L1,D17", &["--stats", "--json"]);
    assert_eq!(strict.code, Some(1), "{strict:#?}");
    assert!(json_report(&strict)["contest"].get("stats").is_none());
    assert_invalid("N,C1,L1,D17", &["--stats"], &["piece 1", "mid-air"]);
}

#[test]
fn trace_at_0_is_refused() {
    let r = check(OPENING, &["--trace", "--at", "0"]);
    assert_eq!(r.code, Some(2), "{r:#?}");
    assert_eq!(
        r.stderr,
        "error: --at 0: pieces are numbered from 1 (the board after piece 1 is --at 1)\n"
    );
    assert_eq!(r.stdout, "");
}

/// `--at` past the pieces the record locked has no board to show; a note says why, and the
/// exit code stays the record's.
#[test]
fn trace_at_a_piece_the_record_never_locked_says_why() {
    let record = public_record_path();
    let r = run(
        CHECK,
        &[
            &"--trace",
            &"--at",
            &"12000",
            &"inputs/tencent.txt",
            &record,
        ],
    );
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(
        r.stderr,
        "note: --at 12000: the record locked only 9999 pieces\n"
    );
    assert!(r.stdout.starts_with("pieces locked: 9999\n"), "{r:#?}");
    assert_eq!(r.last_line(), "Score = 1395326");

    let r = check("N,C1,L1,D17", &["--trace", "--at", "2"]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(r.stderr, "note: --at 2: the record locked no piece\n");
    assert_eq!(r.last_line(), "Score = 0");

    // The last piece locked is still shown, with no note.
    let r = check(OPENING, &["--trace", "--at", "3"]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(r.stdout.starts_with("piece 3 O "), "{r:#?}");
    assert_eq!(r.stderr, "");
}

/// as always, and asks whether the sequence file is the record's; a record that fails later
/// gets no such note.
#[test]
fn a_record_of_another_sequence_is_suspected_at_its_first_pieces() {
    let scratch = Scratch::new("other-sequence");
    let other = scratch.file("other.txt", "IIIIOOOOIIIIOOOO\n");
    let r = run(CHECK, &[&other, &public_record_path()]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    let error = r.stdout.lines().next().unwrap();
    assert!(error.starts_with("error: piece "), "{error}");
    let note = format!(
        "(the record fails at its first pieces: is {} the sequence it was made for?)",
        other.display()
    );
    assert!(error.ends_with(&note), "{error}");
    // The public record cut to 40 pieces, then a 41st moved off the board.
    let text = public_record();
    let record = tetris_opt::games::contest::record::Record::parse(&text).unwrap();
    let spans = record.piece_tokens();
    let mut cut: Vec<String> = spans[..40]
        .iter()
        .flat_map(|span| record.tokens[span.clone()].iter().map(|t| t.to_string()))
        .collect();
    cut.extend(["N".to_string(), "L9".to_string()]);
    let late = scratch.file("late.txt", cut.join(","));
    let r = run(CHECK, &[&tencent_input(), &late]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(!r.stdout.contains("sequence it was made for"), "{r:#?}");
}

/// `check --stats` on the first 369 pieces of a record measured them against the bound of the
/// whole sequence (3.1% scored): the bound is that of the pieces the record covers.
#[test]
fn stats_of_a_partial_record_bound_only_its_pieces() {
    use tetris_opt::games::contest::fluid::contest_points;
    use tetris_opt::kit::fluid::{best_total, FluidModel};
    let scratch = Scratch::new("stats-partial");
    let text = public_record();
    let tokens: Vec<&str> = text.trim().split(',').collect();
    let cut = (tokens.iter().enumerate())
        .filter(|(_, t)| **t == "N")
        .nth(369)
        .map(|(i, _)| i)
        .unwrap();
    let record = scratch.file("369.txt", tokens[..cut].join(","));

    let json = run(
        CHECK,
        &[&"--stats", &"--json", &"inputs/tencent.txt", &record],
    );
    assert_eq!(json.code, Some(0), "{json:#?}");
    let report = json_report(&json);
    let stats = &report["contest"]["stats"];
    assert_eq!(report["pieces_placed"], 369);
    assert_eq!(stats["fluid_bound_pieces"], 369);
    let sequence = std::fs::read_to_string(tencent_input()).unwrap();
    let sequence = tetris_opt::kit::sequence::parse_sequence(&sequence).unwrap();
    let model = FluidModel::bound(stats["fullest"].as_u64().unwrap() as u32);
    let bound = best_total(&sequence[..369], model, contest_points(369)).unwrap();
    assert_eq!(stats["fluid_bound"], bound as u64);
    let scored = report["score"].as_f64().unwrap() / bound;
    assert!(scored > 0.5 && scored <= 1.0, "{scored}");

    let human = run(CHECK, &[&"--stats", &"inputs/tencent.txt", &record]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    let line = (human.stdout.lines())
        .find(|l| l.starts_with("fluid bound"))
        .unwrap_or_else(|| panic!("no bound: {human:#?}"));
    assert!(
        line.starts_with("fluid bound over pieces 1-369 at the fullest board"),
        "{line}"
    );
}

/// A game of 14 pieces built by hand for `--stats`' diagnosis: its second clear is made on a
/// board with two holes, where the bound's play holds more cells.
const HAND_SEQUENCE: &str = "IIOIOIOOIIIIII\n";
const HAND_RECORD: &str = concat!(
    // Two flat I's and an O fill row 19: a single on 12 cells (no play holds more: 8 cells
    // clear nothing).
    "N,C1,L3,D19,N,R1,D19,N,R4,D19,",
    // A flat I and an O fill row 19 but for columns 4 and 5, which a flat I in row 18 covers
    // (two holes); O's in columns 0-1 and 8-9 fill row 18: a single on 22 cells, the highest
    // in row 17, 17 empty rows above it.
    "N,L3,D19,N,R2,D19,N,L1,D18,N,L4,D18,N,R4,D18,",
    // Upright I's in columns 0, 1, 8 and 9, then 0 and 1 again: 36 cells, no clear.
    "N,L4,D16,N,C1,L3,D16,N,R4,D16,N,C1,R5,D16,N,L4,D12,N,C1,L3,D12",
);

/// `--stats --json` gives each clear against the bound's play at the same piece with its
/// board's measures, all counted by hand from the record above, and the cause of the one on
/// fewer cells: holes.
#[test]
fn the_diagnosis_measures_a_hand_built_game() {
    use tetris_opt::games::contest::fluid::contest_points;
    use tetris_opt::kit::fluid::{best_play, FluidModel};
    let scratch = Scratch::new("diagnosis");
    let sequence = scratch.file("sequence.txt", HAND_SEQUENCE);
    let record = scratch.file("record.txt", HAND_RECORD);
    let json = run(CHECK, &[&"--stats", &"--json", &sequence, &record]);
    let report = json_report(&json);
    assert_eq!(report["score"], 12 + 22, "{json:#?}");
    let stats = &report["contest"]["stats"];
    assert_eq!(stats["fullest"], 36);
    // The bound's play at 36 cells, as the fill chart's tests hold it: at the second clear
    // it has placed 32 cells and, where it cleared nothing yet, holds them all.
    let kinds = tetris_opt::kit::sequence::parse_sequence(HAND_SEQUENCE).unwrap();
    let model = FluidModel::bound(36);
    let play = best_play(&kinds, model, contest_points(14)).expect("a play within 36 cells");
    let optimum = play[7].filled;
    assert!(optimum > 22, "the play holds more at piece 8: {play:?}");
    let diagnosis = &stats["diagnosis"];
    let expected = serde_json::json!([
        {
            "piece": 3, "rows": 1, "filled": 12, "optimum_filled": 12,
            // Row 19 holds columns 0-7: heights 1 but for the two empty columns, no well.
            "holes": 0, "headroom": 19, "gaps": 1, "top_cells": [8, 0, 0, 0],
            "bumpiness": 1, "i_only_columns": 0, "well_depth": 0, "well_clears": 0,
            "cause": null
        },
        {
            "piece": 8, "rows": 1, "filled": 22, "optimum_filled": optimum,
            // Rows 17-19 hold 2, 8 and 8 cells; heights 3 3 2 2 2 2 2 2 1 1.
            "holes": 2, "headroom": 17, "gaps": 27 - 18, "top_cells": [2, 8, 8, 0],
            "bumpiness": 2, "i_only_columns": 0, "well_depth": 0, "well_clears": 0,
            "cause": "holes"
        }
    ]);
    assert_eq!(diagnosis["clears"], expected);
    assert_eq!(
        (
            diagnosis["low_above"].clone(),
            diagnosis["bumpy_above"].clone()
        ),
        (1.into(), 8.into())
    );
    let short = optimum - 22;
    assert_eq!(
        diagnosis["causes"]["holes"],
        serde_json::json!({ "count": 1, "cells_short_total": short })
    );
    for cause in ["low", "bumpy", "surface"] {
        assert_eq!(diagnosis["causes"][cause]["count"], 0, "{cause}");
    }
    assert_eq!(diagnosis["by_rows"][0]["count"], 2);
    assert_eq!(diagnosis["by_rows"][0]["fewer"], 1);
    assert_eq!(diagnosis["every_lock"]["count"], 14);
    let played: u32 = play.iter().map(|lock| lock.filled).sum();
    assert_eq!(diagnosis["every_lock"]["optimum_filled_total"], played);

    let human = run(CHECK, &[&"--stats", &sequence, &record]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    for said in [
        format!("clears of 1-3 rows on fewer cells than the play's: 1, {short}.0 cells short"),
        format!("holes 1 ({short}.0 short)"),
        "2 clears of 1 17.0 / ".to_string(),
        "2.00 holes, 17.00 empty rows on top, 9.0 cells short of nine a row".to_string(),
    ] {
        assert!(human.stdout.contains(&said), "{said:?} in {human:#?}");
    }
}
