//! The replay checker on hand-built records: move counts, locks in mid-air, the end of the game,
//! the piece limit, and the public record's figures.

use crate::common::{judge, strict};
use tetris_opt::games::contest::record::Record;
use tetris_opt::games::contest::replay::{replay, End, ReplayError, Report};
use tetris_opt::games::contest::rules::Rules;
use tetris_opt::games::contest::rules::{GameOver, Kind};
use tetris_opt::kit::sequence::parse_sequence;

fn with_limit(piece_limit: usize) -> Rules {
    Rules {
        piece_limit,
        ..Rules::default()
    }
}

fn play(sequence: &[Kind], record: &str, options: Rules) -> Report {
    replay(sequence, &Record::parse(record).unwrap(), options)
}

fn error(piece: usize, token: Option<(usize, &str)>, message: &str) -> Option<ReplayError> {
    Some(ReplayError {
        piece,
        token: token.map(|(n, t)| (n, t.to_string())),
        message: message.to_string(),
    })
}

/// Asserts `report` is a rejection with `expected` as its error, and that it scores nothing.
fn assert_rejected(report: &Report, expected: Option<ReplayError>) {
    assert_eq!(report.error, expected);
    assert_eq!(report.end, End::Invalid);
    assert!(!report.valid());
    assert_eq!(report.final_score(), 0);
    let card = report.scorecard(10_000, Rules::default());
    assert_eq!((card.score, card.pieces_placed), (0, 0));
}

#[test]
fn a_piece_may_carry_exactly_100_moves_but_not_101() {
    // D19 lands the O on the floor; the L moves past the wall still count.
    let ok = play(&[Kind::O], "N,D19,L81", strict());
    assert_eq!(ok.error, None);
    assert_eq!(ok.pieces_locked, 1);
    let ok = play(&[Kind::O], "N,D50,L25,R25", strict());
    assert_eq!(ok.error, None);

    let too_many = play(&[Kind::O], "N,D19,L82", strict());
    assert_rejected(
        &too_many,
        error(1, Some((1, "N")), "101 moves (each piece needs 1..=100)"),
    );
    assert_eq!(too_many.pieces_locked, 0);
    // The count is per piece and summed over its tokens; judge mode checks it too.
    let later = play(&[Kind::O, Kind::O], "N,D19,N,D50,L25,R26", judge());
    assert_rejected(
        &later,
        error(2, Some((3, "N")), "101 moves (each piece needs 1..=100)"),
    );
    assert_eq!(later.pieces_locked, 1);
}

#[test]
fn a_piece_with_no_moves_is_rejected() {
    let report = play(&[Kind::O, Kind::O], "N,N,D19", strict());
    assert_rejected(
        &report,
        error(
            1,
            Some((1, "N")),
            "a piece with no moves (each piece needs 1..=100)",
        ),
    );
    // Also at the end of the record.
    let report = play(&[Kind::O, Kind::O], "N,D19,N", judge());
    assert_eq!(report.error.unwrap().piece, 2);
}

#[test]
fn a_lock_in_mid_air_is_rejected_by_default_and_accepted_by_the_judge() {
    // The first Z spawns in state 0 (lowest cells on its center row): D19 lands it, D18 leaves
    // it one row above the floor.
    let landed = play(&[Kind::Z], "N,D19", strict());
    assert_eq!(landed.error, None);

    let strict_report = play(&[Kind::Z], "N,D18", strict());
    assert_rejected(
        &strict_report,
        error(
            1,
            Some((2, "D18")),
            "Z locked in mid-air at x=4 y=18 state 0",
        ),
    );
    assert_eq!(strict_report.pieces_locked, 0);

    let judged = play(&[Kind::Z], "N,D18", judge());
    assert_eq!(judged.error, None);
    assert_eq!(judged.pieces_locked, 1);
    assert_eq!((judged.score, judged.end), (0, End::RecordEnded));
}

/// `pieces` O pieces all dropped at x = 0..1: the tenth reaches row 0 and tops out.
fn o_tower(pieces: usize) -> String {
    vec!["N,L4,D19"; pieces].join(",")
}

#[test]
fn moves_after_the_game_ended_are_rejected_by_default_and_ignored_by_the_judge() {
    let sequence = [Kind::O; 12];
    let ended = play(&sequence, &o_tower(10), strict());
    assert_eq!(ended.error, None);
    let top_out = End::GameOver {
        piece: 10,
        reason: GameOver::TopOut,
    };
    assert_eq!((ended.end, ended.pieces_locked), (top_out, 10));

    let strict_report = play(&sequence, &o_tower(11), strict());
    assert_rejected(
        &strict_report,
        error(
            11,
            Some((31, "N")),
            "moves after the game ended (piece 10 ended it: top-out (every row occupied))",
        ),
    );
    assert_eq!(strict_report.pieces_locked, 10);

    // The judge stops at the end of the game, even before a malformed piece.
    for extra in ["N,L4,D19", "N,L4,D19,N,D101", "N,N"] {
        let judged = play(&sequence, &format!("{},{extra}", o_tower(10)), judge());
        assert_eq!(judged, ended, "{extra}");
    }
}

/// A record of O pieces dropped at x = 0, 2, 4, 6, 8 in turn: every fifth piece completes rows
/// 18 and 19 (20 cells, k(2) = 3: 60 points) and leaves the board empty again.
fn o_rows(pieces: usize) -> String {
    const PLACES: [&str; 5] = ["L4,D19", "L2,D19", "D19", "R2,D19", "R4,D19"];
    (0..pieces)
        .map(|i| format!("N,{}", PLACES[i % 5]))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn the_piece_reaching_a_small_limit_scores_nothing_and_ends_the_game() {
    let sequence = [Kind::O; 10];
    let limited = play(&sequence, &o_rows(5), with_limit(5));
    assert_eq!(limited.error, None);
    assert_eq!(
        (limited.score, limited.lines, limited.clears),
        (0, 0, [0; 4])
    );
    assert_eq!(limited.pieces_locked, 5);
    assert_eq!(
        limited.end,
        End::GameOver {
            piece: 5,
            reason: GameOver::PieceLimit
        }
    );
    // One piece more of allowance and the same clear scores.
    let scored = play(&sequence, &o_rows(5), with_limit(6));
    assert_eq!(
        (scored.score, scored.lines, scored.clears),
        (60, 2, [0, 1, 0, 0])
    );
    assert_eq!(scored.end, End::RecordEnded);
    // Piece 6 is past a limit of 5.
    let past = play(&sequence, &o_rows(6), with_limit(5));
    assert_eq!(past.error.unwrap().piece, 6);
}

#[test]
fn the_10000th_piece_scores_nothing_under_the_default_limit() {
    // Pieces 5, 10, ..., 10,000 each complete two rows; the last of them is the 10,000th.
    let sequence = vec![Kind::O; 10_001];
    let report = play(&sequence, &o_rows(10_000), strict());
    assert_eq!(report.error, None);
    assert_eq!(report.pieces_locked, 10_000);
    assert_eq!(report.score, 1_999 * 60);
    assert_eq!((report.lines, report.clears), (1_999 * 2, [0, 1_999, 0, 0]));
    assert_eq!(
        report.end,
        End::GameOver {
            piece: 10_000,
            reason: GameOver::PieceLimit
        }
    );
    // Without a limit the 10,000th clear counts and the game goes on.
    let unlimited = play(&sequence, &o_rows(10_001), with_limit(0));
    assert_eq!(
        (unlimited.score, unlimited.end),
        (2_000 * 60, End::RecordEnded)
    );
    assert_eq!(unlimited.pieces_locked, 10_001);
}

#[test]
fn a_record_must_start_with_n_and_hold_something() {
    let report = play(&[Kind::O], "D19,N,D19", strict());
    assert_rejected(
        &report,
        error(1, Some((1, "D19")), "the record must start with N"),
    );
    let report = replay(&[Kind::O], &Record::default(), judge());
    assert_rejected(&report, error(1, None, "the record is empty"));
}

#[test]
fn a_record_longer_than_the_sequence_is_rejected() {
    let report = play(&[Kind::O], "N,D19,N,D19", strict());
    assert_rejected(
        &report,
        error(2, Some((3, "N")), "the sequence has only 1 piece"),
    );
    assert_eq!(report.pieces_locked, 1);
}

fn contest_sequence_file() -> Vec<Kind> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/inputs/tencent.txt");
    parse_sequence(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_public_record_scores_1395326_and_the_10000th_piece_adds_nothing() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/public-record-1395326.txt"
    );
    let text = std::fs::read_to_string(path).expect("the public record fixture");
    let sequence = contest_sequence_file();
    assert_eq!(sequence.len(), 10_000);
    let record = Record::parse(&text).unwrap();
    assert_eq!(record.piece_count(), 9_999);
    for options in [strict(), judge()] {
        let report = replay(&sequence, &record, options);
        assert_eq!(report.error, None);
        assert_eq!(
            (report.score, report.pieces_locked, report.lines),
            (1_395_326, 9_999, 3_988)
        );
        assert_eq!(report.end, End::RecordEnded);
    }

    // The 10,000th piece (a Z in state 3) moved to x = 1 and dropped would complete two rows
    // worth 360 points; at the default limit it locks, ends the game and scores nothing.
    let full = format!("{},N,L3,D20", text.trim());
    let unlimited = play(&sequence, &full, with_limit(0));
    assert_eq!(unlimited.error, None);
    assert_eq!(
        (unlimited.score, unlimited.lines),
        (1_395_326 + 360, 3_988 + 2)
    );
    let report = play(&sequence, &full, strict());
    assert_eq!(report.error, None);
    assert_eq!(
        (report.score, report.lines, report.pieces_locked),
        (1_395_326, 3_988, 10_000)
    );
    assert_eq!(
        report.end,
        End::GameOver {
            piece: 10_000,
            reason: GameOver::PieceLimit
        }
    );
    // A 10,001st piece is after the end: rejected, or ignored by the judge.
    let over = format!("{full},N,D20");
    let report = play(&sequence, &over, strict());
    assert_eq!(report.error.as_ref().unwrap().piece, 10_001);
    assert_eq!(report.final_score(), 0);
    let report = play(&sequence, &over, judge());
    assert_eq!(report.error, None);
    assert_eq!((report.score, report.pieces_locked), (1_395_326, 10_000));
}
