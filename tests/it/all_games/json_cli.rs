//! The one form of every game's `check --json` and `solve --json` (docs/JSON.md), held
//! through the binaries on each game: the fields every game has, with their types and the
//! same values in `check` and `solve` and in the summary's `end:` and `Score = N` lines; the
//! game's own fields under its name alone; and how the game ended, said alike in every game.

use crate::common::{exe, Run, Scratch};
use serde_json::Value;
use std::path::Path;

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");
const GEN: &str = env!("CARGO_BIN_EXE_gen");

const GAMES: [&str; 4] = ["contest", "nes", "browser", "olympiad"];

/// The fields every game's report has, in the order they are written.
const SHARED: [&str; 8] = [
    "format",
    "game",
    "valid",
    "error",
    "score",
    "pieces_placed",
    "lines",
    "end",
];

/// The fields `solve --json` adds for its run, the same in every game.
const RUN: [&str; 15] = [
    "beam_width",
    "objective",
    "width_changes",
    "time_budget_seconds",
    "from_record",
    "from_piece",
    "search_seconds",
    "wall_seconds",
    "expanded",
    "placements",
    "phase_seconds",
    "peak_memory_mib",
    "expected_peak_memory_mib",
    "distributed",
    "deadline",
];

/// The words `end.reason` takes.
const REASONS: [&str; 6] = [
    "sequence_ended",
    "record_ended",
    "topped_out",
    "piece_limit",
    "crashed",
    "invalid",
];

/// `check --game GAME` of `record`, on `sequence` for the games played on one, with `more`.
pub(super) fn check(game: &str, sequence: Option<&Path>, record: &Path, more: &[&str]) -> Run {
    let mut args = vec!["--game", game];
    args.extend(sequence.map(|s| s.to_str().unwrap()));
    args.push(record.to_str().unwrap());
    args.extend_from_slice(more);
    exe(CHECK, &args)
}

/// A short game of each kind: its sequence file (none for NES) and a record `solve` made of
/// it with a tiny beam, with `solve --json`'s object and the solve's run.
pub(super) fn solved(
    scratch: &Scratch,
    game: &str,
) -> (Option<std::path::PathBuf>, std::path::PathBuf, Value, Run) {
    let sequence = (game != "nes").then(|| {
        let text = exe(GEN, &["--game", game, "--seed", "3", "--count", "30"]).stdout;
        scratch.file(&format!("{game}-seq.txt"), text)
    });
    let json = scratch.dir.join(format!("{game}-solve.json"));
    let mut args = vec![
        "--game",
        game,
        "--beam-width",
        "4",
        "--json",
        json.to_str().unwrap(),
    ];
    match &sequence {
        Some(path) => args.push(path.to_str().unwrap()),
        None => args.extend(["--title-wait", "9", "--pieces", "8"]),
    }
    let solve = exe(SOLVE, &args);
    assert_eq!(solve.code, Some(0), "{game}: {solve:#?}");
    let record = scratch.file(&format!("{game}-record.txt"), &solve.stdout);
    let text = std::fs::read_to_string(&json).expect("solve wrote --json");
    let value = serde_json::from_str(&text).expect("solve's --json is JSON");
    (sequence, record, value, solve)
}

/// Asserts `report` is a report of `game` in the one form: the shared fields with their types
/// (`valid` as given), the game's own object under its name, and no field but those and
/// `more`.
fn assert_form(report: &Value, game: &str, valid: bool, more: &[&str]) {
    let object = report.as_object().expect("a JSON object");
    let keys: Vec<&str> = object.keys().map(String::as_str).collect();
    let mut expected: Vec<&str> = SHARED.iter().chain(more).copied().collect();
    expected.push(game);
    assert_eq!(keys.len(), expected.len(), "{game}: {keys:?}");
    for key in &expected {
        assert!(object.contains_key(*key), "{game}: no {key} in {keys:?}");
    }
    for other in GAMES.iter().filter(|g| **g != game) {
        assert!(
            !object.contains_key(*other),
            "{game}: {other}'s fields: {report}"
        );
    }
    assert_eq!(report["format"], 1, "{game}");
    assert_eq!(report["game"], game);
    assert_eq!(report["valid"], valid, "{game}: {report}");
    assert_eq!(report["error"].is_string(), !valid, "{game}: {report}");
    assert_eq!(report["error"].is_null(), valid, "{game}: {report}");
    for count in ["score", "pieces_placed", "lines"] {
        assert!(report[count].is_u64(), "{game}: {count} in {report}");
    }
    let end = report["end"].as_object().expect("end is an object");
    let mut end_keys: Vec<&str> = end.keys().map(String::as_str).collect();
    end_keys.sort_unstable();
    assert_eq!(end_keys, ["piece", "reason", "text"], "{game}");
    let reason = end["reason"].as_str().expect("end.reason is a string");
    assert!(REASONS.contains(&reason), "{game}: {reason}");
    assert!(end["piece"].is_null() || end["piece"].is_u64(), "{game}");
    assert!(end["text"].is_string(), "{game}");
    assert!(report[game].is_object(), "{game}: its own fields: {report}");
    if !valid {
        assert_eq!(reason, "invalid");
        assert_eq!(
            (report["score"].as_u64(), report["pieces_placed"].as_u64()),
            (Some(0), Some(0))
        );
        assert_eq!(report[game], serde_json::json!({}), "{game}");
    }
}

/// Every game's `solve --json` and `check --json` of the same record: the one form, the same
/// shared values, the same `end` as the summaries' `end:` lines and the same score as their
/// `Score = N`.
#[test]
fn every_games_check_and_solve_json_have_one_form() {
    let scratch = Scratch::new("json-form");
    for game in GAMES {
        let (sequence, record, solved, solve) = solved(&scratch, game);
        assert_form(&solved, game, true, &RUN);
        let checked = check(game, sequence.as_deref(), &record, &["--json"]);
        assert_eq!(checked.code, Some(0), "{game}: {checked:#?}");
        assert_eq!(checked.stdout.lines().count(), 1, "{game}: {checked:#?}");
        let report: Value = serde_json::from_str(&checked.stdout).expect("check's JSON");
        assert_form(&report, game, true, &[]);
        for field in SHARED {
            assert_eq!(report[field], solved[field], "{game}: {field}");
        }
        let end = format!("end: {}", report["end"]["text"].as_str().unwrap());
        let score = format!("Score = {}", report["score"]);
        let human = check(game, sequence.as_deref(), &record, &[]);
        assert!(
            human.stdout.lines().any(|l| l == end),
            "{game}: {end:?} in {human:#?}"
        );
        assert_eq!(human.last_line(), score, "{game}");
        assert!(
            solve.stderr.lines().any(|l| l == end),
            "{game}: {end:?} in {solve:#?}"
        );
        assert_eq!(solve.stderr.lines().last(), Some(score.as_str()), "{game}");
    }
}

/// An invalid record's `check --json` in every game: the one form, nothing scored, the error
/// given, and the game's own object empty.
#[test]
fn every_games_invalid_record_has_one_form() {
    let scratch = Scratch::new("json-invalid");
    let sequence = scratch.file("seq.txt", "TJOSZLI\n");
    for (game, text) in [
        ("contest", "N,C1,X1\n"),
        (
            "nes",
            "game nes\nstart-level 19\ntitle-wait 9\ninputs\nRX\n",
        ),
        ("browser", "game browser\nR2 X3\n"),
        ("olympiad", "game olympiad\n0 x\n"),
    ] {
        let record = scratch.file(&format!("{game}.txt"), text);
        let on = (game != "nes").then_some(sequence.as_path());
        let json = check(game, on, &record, &["--json"]);
        assert_eq!(json.code, Some(1), "{game}: {json:#?}");
        let report: Value = serde_json::from_str(&json.stdout).expect("check's JSON");
        assert_form(&report, game, false, &[]);
        let human = check(game, on, &record, &[]);
        let error = format!("error: {}", report["error"].as_str().unwrap());
        assert_eq!(human.stdout, format!("{error}\nScore = 0\n"), "{game}");
    }
}

/// A record whose game ends before the record does, and how.
struct Ended<'a> {
    game: &'a str,
    /// The sequence's letters (NES has none).
    letters: String,
    record: String,
    /// `check`'s options besides the files.
    more: &'a [&'a str],
    reason: &'a str,
    /// The piece that ends the game, where the case knows it.
    piece: Option<u64>,
}

/// A game that ends before its record in every game: the summary's `end:` line and the JSON's
/// `end` say the same, the reason in the one word every game uses and the piece that ended it.
#[test]
fn every_game_says_how_its_game_ended() {
    let scratch = Scratch::new("json-ends");
    let o_stack: String = (0..10).map(|k| format!("D{}\n", 21 - 2 * k)).collect();
    let cases = [
        // The second piece is the last a limit of 2 allows: it ends the game.
        Ended {
            game: "contest",
            letters: "TJO\n".into(),
            record: "N,C1,L1,D18,N,R1,D19,L1\n".into(),
            more: &["--piece-limit", "2"],
            reason: "piece_limit",
            piece: Some(2),
        },
        // Nothing pressed: the pieces stack up in the middle until one spawns into them.
        Ended {
            game: "nes",
            letters: String::new(),
            record: "game nes\nstart-level 19\ntitle-wait 9\ninputs\n.*3000\n".into(),
            more: &[],
            reason: "topped_out",
            piece: None,
        },
        // Os dropped where they spawn: the eleventh locks in a hidden row.
        Ended {
            game: "browser",
            letters: "O".repeat(12),
            record: format!("game browser\n{o_stack}D1\n"),
            more: &[],
            reason: "topped_out",
            piece: Some(11),
        },
        // Upright Is in the first column: the sixth comes to rest above the field.
        Ended {
            game: "olympiad",
            letters: "I".repeat(8),
            record: format!("game olympiad\n{}", "1 0\n".repeat(6)),
            more: &[],
            reason: "topped_out",
            piece: Some(6),
        },
    ];
    for case in cases {
        let game = case.game;
        let sequence = scratch.file(&format!("{game}-seq.txt"), &case.letters);
        let on = (game != "nes").then_some(sequence.as_path());
        let record = scratch.file(&format!("{game}.txt"), &case.record);
        let json = check(game, on, &record, &[case.more, &["--json"]].concat());
        assert_eq!(json.code, Some(0), "{game}: {json:#?}");
        let report: Value = serde_json::from_str(&json.stdout).expect("check's JSON");
        let end = &report["end"];
        assert_eq!(end["reason"], case.reason, "{game}: {report}");
        let text = end["text"].as_str().unwrap();
        let ended = end["piece"]
            .as_u64()
            .expect("the piece that ended the game");
        assert!(case.piece.is_none_or(|p| p == ended), "{game}: {report}");
        assert!(
            text.starts_with(&format!("game over at piece {ended}: ")),
            "{game}: {text}"
        );
        let human = check(game, on, &record, case.more);
        assert!(
            human.stdout.lines().any(|l| l == format!("end: {text}")),
            "{game}: {human:#?}"
        );
    }
}
