//! The browser game's fast move generator (`games::browser::movegen`, on the bitboard) held to an
//! exhaustive search on the plain engine: tucks and spins found, exactly the plain engine's
//! resting states, shortest paths first and the same every call.

use super::{field, game_on, play_path, sorted_cells};
use std::collections::{BTreeMap, HashSet, VecDeque};
use tetris_opt::games::browser::movegen::{board_of, field_of, MoveGen, Placement};
use tetris_opt::games::browser::rules::{Field, Kind, Lock, Move, Outcome, Piece, HEIGHT, WIDTH};
use tetris_opt::games::contest::bitboard::Board;
use tetris_opt::kit::sequence::SplitMix64;

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
