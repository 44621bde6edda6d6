//! The contest's moves and the end of a game held to `docs/RULES.md`: rotations into a wall or
//! the stack do nothing, moves above the top are allowed but cells there are lost at lock, and a
//! blocked spawn or a clearing piece in every row ends the game.

use crate::common::{judge, strict};
use tetris_opt::games::contest::record::Record;
use tetris_opt::games::contest::replay::{replay_observed, End, Report};
use tetris_opt::games::contest::rules::Rules;
use tetris_opt::games::contest::rules::{self, Field, GameOver, Kind, Move, Piece};

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
    let board = Field::new();
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
    let mut board = Field::new();
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
    let board = Field::new();
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
    let mut board = Field::new();
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
    let mut board = Field::new();
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
fn top_out_board(gap: Option<usize>) -> Field {
    let mut rows = vec!["..........", "#########."];
    for y in 2..20 {
        rows.push(if Some(y) == gap {
            ".........."
        } else {
            ".........#"
        });
    }
    Field::from_picture(&rows.join("\n"))
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
