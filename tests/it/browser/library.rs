//! The browser game: its rules on the plain engine, the fast move generator held to an
//! exhaustive search on the plain engine, records (round trip and every error), and replays.

use proptest::prelude::*;
use std::collections::{BTreeMap, HashSet, VecDeque};
use tetris_opt::games::browser::movegen::{board_of, field_of, MoveGen, Placement};
use tetris_opt::games::browser::record::{Record, Token};
use tetris_opt::games::browser::replay::{check_text, replay, End};
use tetris_opt::games::browser::rules::{
    level, BrowserGame, Field, Kind, Lock, Move, Outcome, Piece, HEIGHT, WIDTH,
};
use tetris_opt::games::tencent::bitboard::Board;
use tetris_opt::kit::sequence::SplitMix64;

/// A field from rows of text, bottom-aligned: `#` settled, anything else empty.
fn field(rows: &[&str]) -> Field {
    let mut f = Field::new();
    let top = HEIGHT as usize - rows.len();
    for (i, row) in rows.iter().enumerate() {
        for (col, c) in row.chars().enumerate() {
            f.cells[top + i][col] = c == '#';
        }
    }
    f
}

fn game_on(f: Field) -> BrowserGame {
    BrowserGame {
        field: f,
        ..BrowserGame::new()
    }
}

fn sorted_cells(piece: &Piece) -> Vec<(i32, i32)> {
    let mut cells = piece.cells();
    cells.sort();
    cells
}

/// Plays `moves` on `game` from the spawn; the piece must lock at the last move exactly.
fn play_path(game: &mut BrowserGame, kind: Kind, moves: &[Move]) -> (Piece, Lock) {
    let mut piece = Piece::spawn(kind);
    for (i, &mv) in moves.iter().enumerate() {
        if let Outcome::Locked(lock) = game.play(&mut piece, mv) {
            assert_eq!(i + 1, moves.len(), "{kind} locked early on {moves:?}");
            return (piece, lock);
        }
    }
    panic!("{kind}: the path {moves:?} does not lock");
}

// Rules.

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
    let game = BrowserGame::new();
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
    let mut game = BrowserGame::new();
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

// The move generator.

fn placement_cells(p: &Placement, kind: Kind) -> Vec<(i32, i32)> {
    let piece = Piece {
        kind,
        rotation: p.rotation,
        matrix: tetris_opt::games::browser::rules::rotated_matrix(kind, p.rotation),
        row: p.row as i32,
        col: p.col as i32,
    };
    sorted_cells(&piece)
}

#[test]
fn a_tuck_under_an_overhang_is_found() {
    // Column 0..2 roofed at row 17; the O can only get under it by sliding left at the floor.
    let f = field(&["###.......", "..........", ".........."]);
    let mut gen = MoveGen::new();
    let mut out = Vec::new();
    gen.placements(&board_of(&f), Kind::O, &mut out);
    let tuck = out
        .iter()
        .find(|p| placement_cells(p, Kind::O) == [(18, 0), (18, 1), (19, 0), (19, 1)])
        .expect("the tuck under the roof");
    let mut path = Vec::new();
    gen.path(tuck, &mut path);
    let mut game = game_on(f);
    play_path(&mut game, Kind::O, &path);
    assert_eq!(board_of(&game.field), tuck.board);
    // The last three lefts come at the floor, under the roof.
    assert!(
        path.ends_with(&[Move::Down, Move::Left, Move::Left, Move::Left, Move::Down]),
        "{path:?}"
    );
}

#[test]
fn a_t_spin_without_kicks_is_found() {
    // The slot at row 18, columns 3..5 and row 19 column 4 is roofed at (17, 3): a T pointing
    // down cannot drop in, but one pointing right drops to row 17 and turns there.
    let f = field(&["...#......", "###...####", "####.#####"]);
    let mut gen = MoveGen::new();
    let mut out = Vec::new();
    gen.placements(&board_of(&f), Kind::T, &mut out);
    let spin = out
        .iter()
        .find(|p| placement_cells(p, Kind::T) == [(18, 3), (18, 4), (18, 5), (19, 4)])
        .expect("the T-spin");
    assert_eq!(
        (spin.rotation, spin.row, spin.col, spin.lines),
        (2, 17, 3, 2)
    );
    assert_eq!(field_of(&spin.board), field(&["...#......"]));
    let mut path = Vec::new();
    gen.path(spin, &mut path);
    let last_down = path[..path.len() - 1]
        .iter()
        .rposition(|&m| m == Move::Down)
        .unwrap();
    assert!(
        path[last_down..].contains(&Move::Rotate),
        "the turn comes after the drop: {path:?}"
    );
    let mut game = game_on(f);
    let (_, lock) = play_path(&mut game, Kind::T, &path);
    assert_eq!(lock.lines, 2);
    assert_eq!(board_of(&game.field), spin.board);
}

/// What the plain engine says of one resting state: the shortest path to it and the lock.
struct Plain {
    moves: usize,
    field: Field,
    lock: Lock,
}

/// Every resting state of `kind` on `field` by breadth-first search on the plain engine,
/// keyed by the piece's cells.
fn plain_placements(field: &Field, kind: Kind) -> BTreeMap<Vec<(i32, i32)>, Plain> {
    let game = game_on(field.clone());
    let spawn = Piece::spawn(kind);
    let mut seen = HashSet::from([spawn]);
    let mut queue = VecDeque::from([(spawn, 0usize)]);
    let mut out = BTreeMap::new();
    while let Some((piece, dist)) = queue.pop_front() {
        for mv in Move::ALL {
            let mut next = piece;
            let mut g = game.clone();
            match g.play(&mut next, mv) {
                Outcome::Refused => {}
                Outcome::Moved => {
                    if seen.insert(next) {
                        queue.push_back((next, dist + 1));
                    }
                }
                Outcome::Locked(lock) => {
                    out.entry(sorted_cells(&piece)).or_insert(Plain {
                        moves: dist + 1,
                        field: g.field,
                        lock,
                    });
                }
            }
        }
    }
    out
}

/// A random field: columns of random heights with holes and overhangs, no full row.
fn random_field(rng: &mut SplitMix64) -> Field {
    let mut f = Field::new();
    let tall = rng.below(4) == 0;
    for col in 0..WIDTH as usize {
        let height = rng.below(if tall { 21 } else { 12 }) as usize;
        for row in HEIGHT as usize - height..HEIGHT as usize {
            f.cells[row][col] = rng.below(6) != 0;
        }
        // A few loose cells above the stack make overhangs.
        if rng.below(3) == 0 {
            let row = rng.below(HEIGHT as u64) as usize;
            f.cells[row][col] = true;
        }
    }
    for row in f.cells.iter_mut() {
        if row.iter().all(|&c| c) {
            row[rng.below(WIDTH as u64) as usize] = false;
        }
    }
    f
}

#[test]
fn the_move_generator_finds_exactly_the_plain_engines_resting_states() {
    let mut rng = SplitMix64::new(2024);
    let mut gen = MoveGen::new();
    let mut out = Vec::new();
    let mut path = Vec::new();
    let mut total = 0;
    for round in 0..300 {
        let f = if round == 0 {
            Field::new()
        } else {
            random_field(&mut rng)
        };
        let board = board_of(&f);
        assert_eq!(field_of(&board), f);
        for kind in Kind::ALL {
            let plain = plain_placements(&f, kind);
            gen.placements(&board, kind, &mut out);
            let mut found = BTreeMap::new();
            for p in &out {
                let cells = placement_cells(p, kind);
                let reference = plain
                    .get(&cells)
                    .unwrap_or_else(|| panic!("{kind} {p:?} is no resting state on {f:?}"));
                assert!(found.insert(cells, ()).is_none(), "{kind} {p:?} twice");
                assert_eq!(p.moves as usize, reference.moves, "{kind} {p:?} on {f:?}");
                assert_eq!(p.board, board_of(&reference.field), "{kind} {p:?}");
                assert_eq!(p.lines, reference.lock.lines);
                assert_eq!(p.game_over, reference.lock.game_over);
                gen.path(p, &mut path);
                assert_eq!(path.len(), p.moves as usize);
                let mut game = game_on(f.clone());
                let (piece, lock) = play_path(&mut game, kind, &path);
                assert_eq!(sorted_cells(&piece), placement_cells(p, kind));
                assert_eq!(lock, reference.lock);
                assert_eq!(board_of(&game.field), p.board);
            }
            assert_eq!(found.len(), plain.len(), "{kind} on {f:?}");
            total += out.len();
        }
    }
    assert!(total > 10_000, "{total} placements checked");
}

#[test]
fn placements_come_shortest_first_and_are_the_same_every_call() {
    let mut gen = MoveGen::new();
    let mut rng = SplitMix64::new(7);
    let f = random_field(&mut rng);
    let mut a = Vec::new();
    let mut b = Vec::new();
    gen.placements(&board_of(&f), Kind::T, &mut a);
    gen.placements(&board_of(&Field::new()), Kind::S, &mut b);
    gen.placements(&board_of(&f), Kind::T, &mut b);
    let strip = |v: &[Placement]| -> Vec<(u8, i8, i8, u16, Board)> {
        v.iter()
            .map(|p| (p.rotation, p.row, p.col, p.moves, p.board))
            .collect()
    };
    assert_eq!(strip(&a), strip(&b));
    assert!(a.windows(2).all(|w| w[0].moves <= w[1].moves));
    // On an empty field: 17 I, 9 O, 17 S and Z, 34 J, L and T placements.
    let counts: Vec<usize> = Kind::ALL
        .iter()
        .map(|&k| {
            gen.placements(&Board::default(), k, &mut a);
            a.len()
        })
        .collect();
    assert_eq!(counts, [17, 34, 34, 34, 9, 17, 17]);
}

// Records and replays.

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
