//! The browser game (`games::browser`): its plain engine (`rules`), its fast move generator
//! held to the plain engine (`fast_movegen`), records and replays (`records`), `gen`, `check`
//! and `solve` with `--game browser` (`cli`), and its playable page in headless Chromium
//! (`page`) and its replay viewer's next pieces (`viewer`). The helpers here build fields and play paths for the library-level tests.

mod cli;
mod fast_movegen;
mod page;
mod records;
mod rules;
mod viewer;

use tetris_opt::games::browser::rules::{Field, Kind, Lock, Move, Outcome, Piece, Round, HEIGHT};

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

fn game_on(f: Field) -> Round {
    Round {
        field: f,
        ..Round::new()
    }
}

fn sorted_cells(piece: &Piece) -> Vec<(i32, i32)> {
    let mut cells = piece.cells();
    cells.sort();
    cells
}

/// Plays `moves` on `game` from the spawn; the piece must lock at the last move exactly.
fn play_path(game: &mut Round, kind: Kind, moves: &[Move]) -> (Piece, Lock) {
    let mut piece = Piece::spawn(kind);
    for (i, &mv) in moves.iter().enumerate() {
        if let Outcome::Locked(lock) = game.play(&mut piece, mv) {
            assert_eq!(i + 1, moves.len(), "{kind} locked early on {moves:?}");
            return (piece, lock);
        }
    }
    panic!("{kind}: the path {moves:?} does not lock");
}
