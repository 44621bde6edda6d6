//! The contest's pieces held to `docs/RULES.md`: every kind's four states drawn by hand and
//! checked against the rules engine's table and the one in RULES.md itself, the spawn, and what
//! each move changes.

use tetris_opt::games::contest::rules::{ContestKind, Field, Kind, Move, Piece};

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
            let mut board = Field::new();
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
