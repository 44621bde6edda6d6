//! The browser game's records and replays: a record of the move generator's paths replays to
//! the same lines, points and level, a game's end, every record error naming its line, piece
//! and token, and printing then parsing a record gives it back.

use super::field;
use proptest::prelude::*;
use tetris_opt::games::browser::movegen::{MoveGen, Placement};
use tetris_opt::games::browser::record::{Record, Token};
use tetris_opt::games::browser::replay::{check_text, replay, End};
use tetris_opt::games::browser::rules::{Kind, Move};
use tetris_opt::games::contest::bitboard::Board;

fn kinds(letters: &str) -> Vec<Kind> {
    letters
        .chars()
        .map(|c| Kind::from_letter(c).unwrap())
        .collect()
}

/// A well-known hand-tuned evaluation: lines, minus aggregate height, holes and bumpiness.
fn value(p: &Placement) -> f64 {
    let heights: Vec<u32> = (p.board.cols.iter())
        .map(|c| 20 - c.trailing_zeros().min(20))
        .collect();
    let holes: u32 = (p.board.cols.iter().zip(&heights))
        .map(|(c, h)| h - c.count_ones())
        .sum();
    let bumps: u32 = heights.windows(2).map(|w| w[0].abs_diff(w[1])).sum();
    let total: u32 = heights.iter().sum();
    0.76 * p.lines as f64 - 0.51 * total as f64 - 0.36 * holes as f64 - 0.18 * bumps as f64
}

/// Plays `count` pieces of `sequence` with the move generator, each time taking the
/// placement that clears the most lines and then lies lowest; returns the record and the
/// lines the generator counted.
fn greedy_record(sequence: &[Kind]) -> (Record, u64, usize) {
    let mut gen = MoveGen::new();
    let mut out = Vec::new();
    let mut board = Board::default();
    let mut paths = Vec::new();
    let mut lines = 0u64;
    for &kind in sequence {
        gen.placements(&board, kind, &mut out);
        let Some(best) =
            (out.iter().filter(|p| !p.game_over)).max_by(|a, b| value(a).total_cmp(&value(b)))
        else {
            break;
        };
        let mut path = Vec::new();
        gen.path(best, &mut path);
        paths.push(path);
        board = best.board;
        lines += best.lines as u64;
    }
    let placed = paths.len();
    (
        Record::from_moves(paths.iter().map(Vec::as_slice)),
        lines,
        placed,
    )
}

#[test]
fn a_record_of_move_generator_paths_replays_to_the_same_lines_points_and_level() {
    let sequence = tetris_opt::games::browser::sequence(3, 400);
    let (record, lines, placed) = greedy_record(&sequence);
    assert!(lines >= 20, "the greedy player clears lines: {lines}");
    let report = replay(&sequence, &record).unwrap();
    assert_eq!(report.pieces_placed, placed);
    assert_eq!(report.lines, lines);
    assert_eq!(report.points, 10 * lines);
    assert_eq!(report.level, 10 * lines / 100 + 1);
    let cleared: u64 = (report.clears.iter().enumerate())
        .map(|(i, c)| (i as u64 + 1) * c)
        .sum();
    assert_eq!(cleared, lines);
    // And through the text.
    let again = check_text(&sequence, &record.to_string()).unwrap();
    assert_eq!(again, report);
}

#[test]
fn a_stack_of_o_pieces_ends_the_game_at_the_eleventh() {
    let sequence = kinds("OOOOOOOOOOOOO");
    let mut text = String::from("game browser\n");
    for k in 0..10 {
        text += &format!("D{}\n", 21 - 2 * k);
    }
    text += "D1\n";
    let report = check_text(&sequence, &text).unwrap();
    assert_eq!(report.end, End::GameOver { piece: 11 });
    assert_eq!(report.pieces_placed, 10);
    assert_eq!(report.game.field, field(&["....##...."; 20]));
    assert_eq!(report.points, 0);
    let err = check_text(&sequence, &(text.clone() + "D1\n")).unwrap_err();
    assert_eq!(
        err.located("r.txt"),
        "r.txt:13: piece 12 (O): a line after the end of the game (piece 11 (O) locked in a hidden row)"
    );
    // Fewer lines than pieces: the game stops there.
    let short = check_text(&sequence, "game browser\nD21\n").unwrap();
    assert_eq!((short.end, short.pieces_placed), (End::RecordEnded, 1));
    let all = check_text(&kinds("O"), "game browser\nD21\n").unwrap();
    assert_eq!(all.end, End::SequenceEnded);
}

fn error(sequence: &str, text: &str) -> String {
    check_text(&kinds(sequence), text)
        .unwrap_err()
        .located("rec.txt")
}

#[test]
fn every_record_error_names_the_line_piece_and_token() {
    let cases: &[(&str, &str, &str)] = &[
        ("T", "", "rec.txt:1: the record has no `game browser` line (it is empty or all comments)"),
        ("T", "# only\n  # comments\n", "rec.txt:1: the record has no `game browser` line (it is empty or all comments)"),
        ("T", "# c\ngame tencent\n", "rec.txt:2: the first line must be `game browser`, found 'game tencent'"),
        ("T", "\ngame browser\n", "rec.txt:1: the first line must be `game browser`, found ''"),
        ("T", " game browser\n", "rec.txt:1: the first line must be `game browser`, found ' game browser'"),
        ("TS", "game browser\nD21\nR2 X3\n", "rec.txt:3: piece 2 (S), token 2 'X3': expected L, R, D or U, found 'X'"),
        ("T", "game browser\nd20\n", "rec.txt:2: piece 1 (T), token 1 'd20': expected L, R, D or U, found 'd'"),
        ("T", "game browser\nD2x\n", "rec.txt:2: piece 1 (T), token 1 'D2x': the count must be a decimal number, found 'x'"),
        ("T", "game browser\nD0\n", "rec.txt:2: piece 1 (T), token 1 'D0': a count is 1 to 999, written without leading zeros"),
        ("T", "game browser\nD018\n", "rec.txt:2: piece 1 (T), token 1 'D018': a count is 1 to 999, written without leading zeros"),
        ("T", "game browser\nD1000\n", "rec.txt:2: piece 1 (T), token 1 'D1000': a count is at most 999"),
        ("T", "game browser\nD1\u{200B}9\n", "rec.txt:2: piece 1 (T), token 1 'D1<U+200B>9': the count must be a decimal number, found U+200B"),
        ("T", "game browser\n\u{41E}\n", "rec.txt:2: piece 1 (T), token 1 '\u{41E}': expected L, R, D or U, found '\u{41E}' (U+041E)"),
        ("T", "game browser\nD1\u{A0}D19\n", "rec.txt:2: piece 1 (T), token 1 'D1<U+00A0>D19': the count must be a decimal number, found U+00A0"),
        ("T", &format!("game browser\n{}\n", "X".repeat(60)), &format!("rec.txt:2: piece 1 (T), token 1 '{}...': expected L, R, D or U, found 'X'", "X".repeat(40))),
        ("T", "game browser\nD21\nD21\n", "rec.txt:3: piece 2: a line past the sequence's last piece (it has 1)"),
        ("TTT", "game browser\nD21\n\nD21\n", "rec.txt:3: piece 2 (T) does not lock: its moves end with it at row -2, column 3"),
        ("T", "game browser\nR2 D5\n", "rec.txt:2: piece 1 (T) does not lock: its moves end with it at row 3, column 5"),
        ("T", "game browser\nD21 R\n", "rec.txt:2: piece 1 (T) locked at token 1 'D21'; the line goes on with 'R'"),
        ("T", "game browser\nD25\n", "rec.txt:2: piece 1 (T) locked at token 1 'D25' (its move 21 of 25); the line goes on with the rest of it"),
    ];
    for (sequence, text, expected) in cases {
        assert_eq!(&error(sequence, text), expected, "{text:?}");
    }
}

#[test]
fn byte_order_mark_comments_and_trailing_whitespace_are_skipped() {
    let text = "\u{feff}# by the page\ngame browser  \r\n# piece 1\nU R R D20\t\r\n  # between\nL3 D21\r\n";
    let record = Record::parse(text).unwrap();
    assert_eq!(record.to_string(), "game browser\nU R R D20\nL3 D21\n");
    assert_eq!(record.source_lines, [4, 6]);
    // The example of docs/BROWSER.md: a T turned to point right, moved to column 5 and
    // dropped; a J moved to the left wall and dropped.
    let report = check_text(&kinds("TJ"), text).unwrap();
    assert_eq!(report.pieces_placed, 2);
    assert_eq!(
        report.game.field,
        field(&["......#...", "#.....##..", "###...#..."])
    );
}

fn token_strategy() -> impl Strategy<Value = Token> {
    let mv = prop_oneof![
        Just(Move::Left),
        Just(Move::Right),
        Just(Move::Down),
        Just(Move::Rotate)
    ];
    (mv, 1u16..=999).prop_map(|(mv, count)| Token { mv, count })
}

proptest! {
    #[test]
    // A piece's line holds at least one move (no piece locks without one): a record's text
    // ending in a blank line is read without it.
    fn records_round_trip_through_their_text(
        pieces in prop::collection::vec(prop::collection::vec(token_strategy(), 1..8), 0..20)
    ) {
        let mut record = Record::default();
        for p in pieces {
            record.push(p);
        }
        let text = record.to_string();
        prop_assert_eq!(Record::parse(&text).unwrap(), record);
    }
}
