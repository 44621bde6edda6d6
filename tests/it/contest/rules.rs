//! The plain rules engine held to `docs/RULES.md`, one rule at a time.
//!
//! Every expected cell, score and board here is worked out by hand from the rules text (piece
//! shapes are drawn as pictures, not copied from `OFFSETS`), so a slip in the engine's tables or
//! in a step of a turn cannot hide behind the same slip in the test.

use crate::common::{judge, strict};
use tetris_opt::games::tencent::record::Record;
use tetris_opt::games::tencent::replay::{replay_observed, End, Report};
use tetris_opt::games::tencent::rules::Rules;
use tetris_opt::games::tencent::rules::{self, Board, GameOver, Kind, Move, Piece};

/// Each kind's states 0, 1, 2 and 3 side by side, each on a 5 x 5 grid whose middle cell is the
/// piece's center: row `r` is `dy = r - 2`, column `c` is `dx = c - 2`. Drawn from the RULES.md
/// table.
const SHAPES: [(Kind, &str); 7] = [
    (
        Kind::I,
        "
        ..#.. ..... ..#.. .....
        ..#.. ..... ..#.. .....
        ..#.. .#### ..#.. .####
        ..#.. ..... ..#.. .....
        ..... ..... ..... .....",
    ),
    (
        Kind::L,
        "
        ..#.. ..... ..... .....
        ..#.. ..... ..... ..#..
        ..##. ..### .##.. ###..
        ..... ..#.. ..#.. .....
        ..... ..... ..#.. .....",
    ),
    (
        Kind::J,
        "
        ..#.. ..... ..... .....
        ..#.. ..#.. ..... .....
        .##.. ..### ..##. ###..
        ..... ..... ..#.. ..#..
        ..... ..... ..#.. .....",
    ),
    (
        Kind::T,
        "
        ..... ..... ..... .....
        ..... ..#.. ..#.. ..#..
        .###. .##.. .###. ..##.
        ..#.. ..#.. ..... ..#..
        ..... ..... ..... .....",
    ),
    (
        Kind::O,
        "
        ..... ..... ..... .....
        ..##. ..##. ..##. ..##.
        ..##. ..##. ..##. ..##.
        ..... ..... ..... .....
        ..... ..... ..... .....",
    ),
    (
        Kind::S,
        "
        ..... ..... ..... .....
        ..##. .#... ..##. .#...
        .##.. .##.. .##.. .##..
        ..... ..#.. ..... ..#..
        ..... ..... ..... .....",
    ),
    (
        Kind::Z,
        "
        ..... ..... ..... .....
        .##.. ..#.. .##.. ..#..
        ..##. .##.. ..##. .##..
        ..... .#... ..... .#...
        ..... ..... ..... .....",
    ),
];

/// The offsets `(dx, dy)` drawn for `kind` in `state`, sorted.
fn drawn_offsets(kind: Kind, state: usize) -> Vec<(i32, i32)> {
    let (_, drawing) = SHAPES.iter().find(|(k, _)| *k == kind).unwrap();
    let rows: Vec<&str> = drawing
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 5, "{kind}: five rows per drawing");
    let mut offsets = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let grid = row.split_whitespace().nth(state).unwrap();
        for (c, ch) in grid.chars().enumerate() {
            if ch == '#' {
                offsets.push((c as i32 - 2, r as i32 - 2));
            }
        }
    }
    offsets.sort();
    offsets
}

fn sorted(mut cells: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    cells.sort();
    cells
}

#[test]
fn every_kind_and_state_covers_the_cells_of_the_rules_table() {
    for kind in Kind::ALL {
        for state in 0..4u8 {
            let expected = drawn_offsets(kind, state as usize);
            assert_eq!(expected.len(), 4, "{kind} state {state}: drawing");
            assert!(expected.contains(&(0, 0)), "{kind} {state}: center");
            let piece = Piece {
                kind,
                state,
                x: 5,
                y: 7,
            };
            let cells = sorted(piece.cells().to_vec());
            let shifted: Vec<(i32, i32)> =
                expected.iter().map(|&(dx, dy)| (5 + dx, 7 + dy)).collect();
            assert_eq!(cells, shifted, "{kind} state {state}");
            assert_eq!(sorted(kind.offsets(state).to_vec()), expected);

            // Written into an empty board, the piece fills exactly those cells.
            let mut board = Board::new();
            board.write(&piece);
            assert_eq!(board.filled_cells(), 4);
            for (x, y) in shifted {
                assert!(board.filled(x, y), "{kind} {state}: ({x}, {y})");
            }
        }
    }
}

/// Cross-checks the drawings above against the table in `docs/RULES.md` itself, so the test's
/// own transcription is checked too.
#[test]
fn drawings_match_the_table_in_rules_md() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/RULES.md");
    let text = std::fs::read_to_string(path).expect("docs/RULES.md");
    let mut rows_seen = 0;
    for line in text.lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        // "| I | state 0 | state 1 | state 2 | state 3 |" splits into 7 pieces.
        if cols.len() != 7 || cols[1].len() != 1 {
            continue;
        }
        let Some(kind) = cols[1].chars().next().and_then(Kind::from_letter) else {
            continue;
        };
        rows_seen += 1;
        let mut states: Vec<Vec<(i32, i32)>> = Vec::new();
        for cell in &cols[2..6] {
            let offsets = if let Some(n) = cell.strip_prefix("same as ") {
                states[n.parse::<usize>().unwrap()].clone()
            } else {
                cell.split(')')
                    .filter_map(|p| p.trim().strip_prefix('('))
                    .map(|p| {
                        let (dx, dy) = p.split_once(',').unwrap();
                        (dx.trim().parse().unwrap(), dy.trim().parse().unwrap())
                    })
                    .collect()
            };
            states.push(sorted(offsets));
        }
        for (state, offsets) in states.iter().enumerate() {
            assert_eq!(*offsets, drawn_offsets(kind, state), "{kind} state {state}");
        }
    }
    assert_eq!(rows_seen, 7, "the table has one row per kind");
}

#[test]
fn pieces_spawn_at_4_0_in_state_index_mod_4() {
    for index in [0, 1, 2, 3, 4, 7, 9_998, 9_999] {
        let p = Piece::spawn(Kind::T, index);
        assert_eq!(
            (p.kind, p.state, p.x, p.y),
            (Kind::T, (index % 4) as u8, 4, 0)
        );
    }
}

#[test]
fn each_move_changes_one_coordinate_and_rotation_cycles_through_four_states() {
    let p = Piece {
        kind: Kind::L,
        state: 3,
        x: 5,
        y: 7,
    };
    assert_eq!(p.moved(Move::Left), Piece { x: 4, ..p });
    assert_eq!(p.moved(Move::Right), Piece { x: 6, ..p });
    assert_eq!(p.moved(Move::Down), Piece { y: 8, ..p });
    assert_eq!(p.moved(Move::Rotate), Piece { state: 0, ..p });
    // O and the two-state kinds still count four states.
    let o = Piece::spawn(Kind::O, 1);
    assert_eq!(o.moved(Move::Rotate).state, 2);
    assert_eq!(o.moved(Move::Rotate).moved(Move::Rotate).state, 3);
}

/// Replays `record` on `sequence` and returns the report with the pieces as they locked.
fn play(sequence: &[Kind], record: &str, options: Rules) -> (Report, Vec<Piece>) {
    let record = Record::parse(record).unwrap();
    let mut locked = Vec::new();
    let report = replay_observed(sequence, &record, options, &mut |step| {
        locked.push(step.piece)
    });
    (report, locked)
}

#[test]
fn rotation_into_a_wall_does_nothing() {
    // Library level: a vertical I against the left wall cannot turn horizontal (cell x = -1).
    let board = Board::new();
    let at_wall = Piece {
        kind: Kind::I,
        state: 0,
        x: 0,
        y: 10,
    };
    assert!(board.is_valid(&at_wall));
    assert!(!board.is_valid(&at_wall.moved(Move::Rotate)));
    // Against the right wall: state 1 needs x + 2 <= 9.
    let right = Piece { x: 9, ..at_wall };
    assert!(!board.is_valid(&right.moved(Move::Rotate)));
    assert!(board.is_valid(&Piece { x: 7, ..right }.moved(Move::Rotate)));

    // In a replay: L4 brings the spawned vertical I to x = 0, C1 is refused, D18 lands it
    // standing. Had the rotation happened, the piece would lie flat in mid-air and fail.
    let (report, locked) = play(&[Kind::I], "N,L4,C1,D18", strict());
    assert_eq!(report.error, None);
    assert_eq!(
        locked,
        vec![Piece {
            kind: Kind::I,
            state: 0,
            x: 0,
            y: 18
        }]
    );
}

#[test]
fn rotation_into_a_filled_cell_does_nothing() {
    // Library level: a T in state 0 with a filled cell where state 1 puts its top cell.
    let mut board = Board::new();
    board.set(4, 9, true);
    let t = Piece {
        kind: Kind::T,
        state: 0,
        x: 4,
        y: 10,
    };
    assert!(board.is_valid(&t));
    assert!(!board.is_valid(&t.moved(Move::Rotate)));
    board.set(4, 9, false);
    assert!(board.is_valid(&t.moved(Move::Rotate)));

    // In a replay: an O on the floor at x = 5..6, then an I (spawned in state 1) turned upright
    // (state 2) and dropped at x = 4; turning it flat (state 3, cells x = 3..6 on row 18) would
    // overlap the O, so the last C1 does nothing and the I stays upright, resting on the floor.
    let (report, locked) = play(&[Kind::O, Kind::I], "N,R1,D19,N,C1,D18,C1", strict());
    assert_eq!(report.error, None);
    assert_eq!(
        locked,
        vec![
            Piece {
                kind: Kind::O,
                state: 0,
                x: 5,
                y: 19
            },
            Piece {
                kind: Kind::I,
                state: 2,
                x: 4,
                y: 18
            },
        ]
    );
}

#[test]
fn moves_above_the_top_are_allowed_but_the_walls_still_hold() {
    let board = Board::new();
    // The spawned vertical I has two cells above the board (y = -1, -2).
    let i = Piece::spawn(Kind::I, 0);
    assert!(board.is_valid(&i));
    assert!(
        board.is_valid(&Piece { y: -2, ..i }),
        "wholly above the board"
    );
    // Walls and floor apply above the top as well.
    assert!(!board.is_valid(&Piece { x: -1, y: -5, ..i }));
    assert!(!board.is_valid(&Piece { x: 10, y: -5, ..i }));
    assert!(!board.is_valid(&Piece { y: 19, ..i }), "below the floor");

    // A T spawned in state 0 rotates at once into state 1, putting a cell at y = -1.
    let (report, locked) = play(&[Kind::T], "N,C1,D18", strict());
    assert_eq!(report.error, None);
    assert_eq!(
        locked,
        vec![Piece {
            kind: Kind::T,
            state: 1,
            x: 4,
            y: 18
        }]
    );
    // Sideways moves with cells above the top: the I slides to the wall while still sticking out.
    let (report, locked) = play(&[Kind::I], "N,L9,D18", strict());
    assert_eq!(report.error, None);
    assert_eq!(locked[0], Piece { x: 0, y: 18, ..i });
}

#[test]
fn cells_above_the_top_are_lost_at_lock() {
    // One floating cell at (0, 2); a vertical I resting on it covers y = -2..1.
    let mut board = Board::new();
    board.set(0, 2, true);
    let i = Piece {
        kind: Kind::I,
        state: 0,
        x: 0,
        y: 0,
    };
    assert!(rules::is_resting(&board, &i));
    let turn = rules::lock(&mut board, &i, 0, Rules::default());
    assert_eq!((turn.lines, turn.score, turn.game_over), (0, 0, None));
    assert_eq!(board.filled_cells(), 3);
    assert!(board.filled(0, 0) && board.filled(0, 1) && board.filled(0, 2));
}

#[test]
fn a_blocked_spawn_ends_the_game_and_the_piece_is_not_placed() {
    let mut board = Board::new();
    board.set(3, 0, true);
    // Piece 1 is an I in state 1: cells x = 3..6 on row 0, and (3, 0) is taken.
    assert!(!board.is_valid(&Piece::spawn(Kind::I, 1)));
    assert!(board.is_valid(&Piece::spawn(Kind::I, 0)));

    // A record reaching a blocked spawn needs a lock in mid-air (strict play keeps the filled
    // rows one band from the floor, so a filled row 0 means every row is occupied), hence judge
    // mode. Piece 1 locks upright at x = 3 with cells on rows 0 and 1; piece 2 cannot appear.
    let (report, locked) = play(&[Kind::I, Kind::I, Kind::O], "N,L1,N,D1,N,D19", judge());
    assert_eq!(report.error, None);
    assert_eq!(report.pieces_locked, 1);
    assert_eq!(locked.len(), 1, "the blocked piece is never locked");
    assert_eq!(
        report.end,
        End::GameOver {
            piece: 2,
            reason: GameOver::SpawnBlocked
        }
    );
    assert_eq!(report.score, 0);
}

/// The board of the top-out scenario: row 1 full but for x = 9, column 9 filled on rows 2..19,
/// row 0 empty; `gap` (if any) is a row of 2..19 left empty.
fn top_out_board(gap: Option<usize>) -> Board {
    let mut rows = vec!["..........", "#########."];
    for y in 2..20 {
        rows.push(if Some(y) == gap {
            ".........."
        } else {
            ".........#"
        });
    }
    Board::from_picture(&rows.join("\n"))
}

#[test]
fn a_clearing_piece_that_occupies_every_row_scores_nothing_and_ends_the_game() {
    // An upright I centered at (9, 0) (cells y = -2..1) fills the hole of row 1 (a full row) and
    // puts a cell on row 0, so every row holds a cell: the game ends before scoring and nothing
    // is cleared.
    let i = Piece {
        kind: Kind::I,
        state: 0,
        x: 9,
        y: 0,
    };
    let mut board = top_out_board(None);
    assert!(board.is_valid(&i) && rules::is_resting(&board, &i));
    let turn = rules::lock(&mut board, &i, 0, Rules::default());
    assert_eq!(turn.game_over, Some(GameOver::TopOut));
    assert_eq!((turn.score, turn.lines), (0, 0));
    assert_eq!(board.full_rows(), vec![1], "the full row is not removed");

    // The same lock with one empty row lower down is an ordinary single clear:
    // 9 + 17 cells on the board + 2 written = 28 cells, k(1) = 1.
    let mut board = top_out_board(Some(10));
    let turn = rules::lock(&mut board, &i, 0, Rules::default());
    assert_eq!(turn.game_over, None);
    assert_eq!((turn.filled, turn.score, turn.lines), (28, 28, 1));
    let mut expected = top_out_board(Some(10));
    for x in 0..9 {
        expected.set(x, 1, false);
    }
    expected.set(9, 1, true); // the I's row-0 cell moved down into row 1
    assert_eq!(board, expected);

    // Top-out is checked before the piece limit.
    let mut board = top_out_board(None);
    let turn = rules::lock(&mut board, &i, 9_999, Rules::default());
    assert_eq!(turn.game_over, Some(GameOver::TopOut));
}

#[test]
fn stacking_to_the_top_in_a_replay_tops_out_on_the_piece_that_reaches_row_0() {
    // Ten O pieces dropped at x = 0..1 fill rows 19 up to 0 two at a time.
    let record = ["N,L4,D19"; 10].join(",");
    let (report, locked) = play(&[Kind::O; 10], &record, strict());
    assert_eq!(report.error, None);
    assert_eq!(locked.len(), 10);
    assert_eq!(
        locked[9].y, 1,
        "the tenth O stops on the ninth, covering rows 0 and 1"
    );
    assert_eq!(
        report.end,
        End::GameOver {
            piece: 10,
            reason: GameOver::TopOut
        }
    );
    assert_eq!((report.score, report.lines), (0, 0));
}

#[test]
fn the_score_counts_cells_after_writing_and_before_the_clear() {
    let mut board = Board::from_picture(
        "
        #.........
        ##......##
        ####.#####",
    );
    // An upright I dropped into the well at x = 4 completes row 19.
    let i = Piece {
        kind: Kind::I,
        state: 0,
        x: 4,
        y: 18,
    };
    assert!(rules::is_resting(&board, &i));
    let turn = rules::lock(&mut board, &i, 0, Rules::default());
    // 14 cells before, 18 after writing, 8 after the clear: the score uses 18, k(1) = 1.
    assert_eq!((turn.filled, turn.score, turn.lines), (18, 18, 1));
    assert_eq!(
        board,
        Board::from_picture(
            "
            ....#.....
            #...#.....
            ##..#...##"
        )
    );
}

/// Locks an upright I at x = 0 on `before` (whose column 0 is empty on rows 16..19) and checks
/// the turn and the board after it.
fn upright_i_clear(before: &str, filled: u32, lines: u32, after: &str) {
    let mut board = Board::from_picture(before);
    let i = Piece {
        kind: Kind::I,
        state: 0,
        x: 0,
        y: 18,
    };
    assert!(board.is_valid(&i) && rules::is_resting(&board, &i));
    let turn = rules::lock(&mut board, &i, 0, Rules::default());
    let k = [0, 1, 3, 6, 10][lines as usize];
    assert_eq!(
        (turn.filled, turn.lines, turn.score, turn.game_over),
        (filled, lines, filled as u64 * k, None)
    );
    assert_eq!(board, Board::from_picture(after));
}

#[test]
fn two_line_clear_of_rows_17_and_19_scores_3_per_cell() {
    // Rows 17 and 19 fill, row 18 keeps its hole at x = 3, and row 15 (above the I) stays one
    // cell short. 37 cells + 4 = 41, k(2) = 3. Rows 15..16 drop by two; the cell at x = 3 of
    // row 16 stays above the hole (no cascade).
    upright_i_clear(
        "
        .#########
        .#.#......
        .#########
        .##.######
        .#########",
        41,
        2,
        "
        .#########
        ##.#......
        ###.######",
    );
}

#[test]
fn three_line_clear_of_rows_16_17_and_19_scores_6_per_cell() {
    // Rows 16, 17 and 19 fill, row 18 keeps its hole at x = 5. 37 cells + 4 = 41, k(3) = 6.
    // Rows 14..15 drop by three, row 18 by one; the column at x = 5 hangs over the hole.
    upright_i_clear(
        "
        .....#....
        .....#....
        .#########
        .#########
        .####.####
        .#########",
        41,
        3,
        "
        .....#....
        .....#....
        #####.####",
    );
}

#[test]
fn four_line_clear_scores_10_per_cell_and_drops_the_rest_by_four() {
    // Only an upright I clears four rows, and they are adjacent. 36 + 2 cells + 4 = 42, k(4) = 10.
    // The cell at x = 3 drops by four and hangs over the empty (3, 19) (no cascade).
    upright_i_clear(
        "
        ..........
        ...#......
        ..#.......
        .#########
        .#########
        .#########
        .#########",
        42,
        4,
        "
        ...#......
        ..#.......",
    );
}

#[test]
fn clear_multipliers_are_the_rules_k() {
    assert_eq!(rules::CLEAR_MULTIPLIER, [0, 1, 3, 6, 10]);
}
