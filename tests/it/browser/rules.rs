//! The browser game's plain engine (`games::browser::rules`): spawns, rotation in place, refused
//! moves, locking and the removal of full rows, points and level, and the end of a game.

use super::{field, game_on, sorted_cells};
use tetris_opt::games::browser::movegen::{board_of, MoveGen};
use tetris_opt::games::browser::rules::{level, Field, Kind, Lock, Move, Outcome, Piece, Round};

#[test]
fn pieces_spawn_at_the_documented_places() {
    let expected = [
        (Kind::I, -1, 3, vec![(0, 3), (0, 4), (0, 5), (0, 6)]),
        (Kind::J, -2, 3, vec![(-2, 3), (-1, 3), (-1, 4), (-1, 5)]),
        (Kind::L, -2, 3, vec![(-2, 5), (-1, 3), (-1, 4), (-1, 5)]),
        (Kind::O, -2, 4, vec![(-2, 4), (-2, 5), (-1, 4), (-1, 5)]),
        (Kind::S, -2, 3, vec![(-2, 4), (-2, 5), (-1, 3), (-1, 4)]),
        (Kind::Z, -2, 3, vec![(-2, 3), (-2, 4), (-1, 4), (-1, 5)]),
        (Kind::T, -2, 3, vec![(-2, 4), (-1, 3), (-1, 4), (-1, 5)]),
    ];
    for (kind, row, col, cells) in expected {
        let p = Piece::spawn(kind);
        assert_eq!((p.row, p.col, p.rotation), (row, col, 0), "{kind}");
        assert_eq!(sorted_cells(&p), cells, "{kind}");
    }
}

#[test]
fn rotation_turns_the_matrix_clockwise_in_place() {
    let game = Round::new();
    let mut i = Piece::spawn(Kind::I);
    assert_eq!(game.clone().rotate(&mut i), Outcome::Moved);
    // Column 2 of the 4x4 matrix, rows -1..=2.
    assert_eq!(sorted_cells(&i), [(-1, 5), (0, 5), (1, 5), (2, 5)]);
    let mut t = Piece::spawn(Kind::T);
    game.rotate(&mut t);
    assert_eq!(sorted_cells(&t), [(-2, 4), (-1, 4), (-1, 5), (0, 4)]);
}

#[test]
fn a_rotation_out_of_the_columns_or_into_the_stack_is_refused() {
    let mut game = Round::new();
    // A vertical I against the left wall: turning it would put cells in columns -2 and -1.
    let mut i = Piece::spawn(Kind::I);
    game.rotate(&mut i);
    while game.shift(&mut i, -1) == Outcome::Moved {}
    assert_eq!(i.col, -2);
    assert_eq!(sorted_cells(&i)[0].1, 0);
    let before = i;
    assert_eq!(game.rotate(&mut i), Outcome::Refused);
    assert_eq!(i, before);
    assert_eq!(game.shift(&mut i, -1), Outcome::Refused);
    // A J turned once (`[[0,1,1],[0,1,0],[0,1,0]]`) dropped to the floor at column 3, next
    // to settled cells at (18, 3) and (19, 3): its next turn
    // (`[[0,0,0],[1,1,1],[0,0,1]]`) would cover (18, 3).
    game = game_on(field(&["...#......", "...#......"]));
    let mut j = Piece::spawn(Kind::J);
    assert_eq!(game.rotate(&mut j), Outcome::Moved);
    while game.down(&mut j) == Outcome::Moved {
        assert!(j.row <= 17);
        if j.row == 17 {
            break;
        }
    }
    assert_eq!(sorted_cells(&j), [(17, 4), (17, 5), (18, 4), (19, 4)]);
    let before = j;
    assert_eq!(game.rotate(&mut j), Outcome::Refused);
    assert_eq!(j, before);
    assert_eq!(game.shift(&mut j, -1), Outcome::Refused);
    // One column to the right the same turn fits.
    assert_eq!(game.shift(&mut j, 1), Outcome::Moved);
    assert_eq!(game.rotate(&mut j), Outcome::Moved);
    assert_eq!(sorted_cells(&j), [(18, 4), (18, 5), (18, 6), (19, 6)]);
}

#[test]
fn a_refused_down_locks_and_full_rows_are_removed_even_apart() {
    // Rows 17 and 19 are full but for column 0; row 18 also misses column 5.
    let mut game = game_on(field(&[
        ".#........",
        ".#########",
        ".####.####",
        ".#########",
    ]));
    let mut i = Piece::spawn(Kind::I);
    game.rotate(&mut i);
    while game.shift(&mut i, -1) == Outcome::Moved {}
    let mut lock = None;
    while lock.is_none() {
        if let Outcome::Locked(l) = game.down(&mut i) {
            lock = Some(l);
        }
    }
    assert_eq!(
        lock,
        Some(Lock {
            lines: 2,
            game_over: false
        })
    );
    assert_eq!(
        game.field,
        field(&["##........", "#####.####"]),
        "rows 16 and 18 moved down, each by the cleared rows under it"
    );
    assert_eq!((game.lines, game.points, game.level()), (2, 20, 1));
}

#[test]
fn points_and_level() {
    assert_eq!((level(0), level(99), level(100), level(250)), (1, 1, 2, 3));
    // Four lines at once: 40 points, not a bonus.
    let mut game = game_on(field(&[".#########"; 4]));
    game.points = 70;
    let mut i = Piece::spawn(Kind::I);
    game.rotate(&mut i);
    while game.shift(&mut i, -1) == Outcome::Moved {}
    while !matches!(game.down(&mut i), Outcome::Locked(_)) {}
    assert_eq!((game.lines, game.points, game.level()), (4, 110, 2));
    assert_eq!(game.field, Field::new());
}

#[test]
fn a_lock_in_a_hidden_row_ends_the_game_and_places_nothing() {
    // Column 4 is settled from row 1 down: an O gets one row down, to rows -1 and 0.
    let full_column: Vec<&str> = vec!["....#....."; 19];
    let mut game = game_on(field(&full_column));
    let before = game.field.clone();
    let mut o = Piece::spawn(Kind::O);
    assert_eq!(game.down(&mut o), Outcome::Moved);
    assert_eq!(
        game.down(&mut o),
        Outcome::Locked(Lock {
            lines: 0,
            game_over: true
        })
    );
    assert!(game.over);
    assert_eq!(game.field, before);
}

#[test]
fn a_piece_spawned_into_the_stack_locks_there_ored_in() {
    // The I spawns on row 0 over settled cells; row 1 under it is settled too.
    let rows: Vec<&str> = vec!["...####..."; 20];
    let mut game = game_on(field(&rows));
    let mut i = Piece::spawn(Kind::I);
    assert!(!game.field.fits(&i));
    assert_eq!(game.shift(&mut i, -1), Outcome::Refused);
    assert_eq!(game.rotate(&mut i), Outcome::Refused);
    assert_eq!(
        game.down(&mut i),
        Outcome::Locked(Lock {
            lines: 0,
            game_over: false
        })
    );
    assert!(!game.over);
    assert_eq!(game.field, field(&rows));
    // The move generator finds that one lock and nothing else.
    let mut gen = MoveGen::new();
    let mut out = Vec::new();
    gen.placements(&board_of(&field(&rows)), Kind::I, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!((out[0].row, out[0].col, out[0].game_over), (-1, 3, false));
    let mut path = Vec::new();
    gen.path(&out[0], &mut path);
    assert_eq!(path, [Move::Down]);
}
