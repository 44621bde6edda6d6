//! The contest's fast engine (the bitboard board, move generation and evaluation the search
//! uses) held to its plain engine: `board`, `movegen` and `eval`.
//!
//! What those tests share: seeded random boards of the families the search meets, and plain
//! references computed with the rules engine alone (`Field::is_valid`, `Piece::moved`,
//! `rules::lock`, `rules::is_resting`). Boards are drawn from a seeded [`SplitMix64`], so every
//! run checks the same cases and a failure names a reproducible board. The board families
//! cover what the search meets in this game: high, nearly full stacks whose surface sits in
//! rows 0..5 (where rotating or shifting at the spawn is blocked), holes, overhangs that need
//! tucks and slides, sparse boards and boards grown by random play.

mod board;
mod eval;
mod movegen;

use std::collections::{HashMap, VecDeque};
use tetris_opt::games::contest::bitboard::canonical_state;
use tetris_opt::games::contest::movegen::Placement;
use tetris_opt::games::contest::rules::{
    self, ContestKind, Field, Kind, Move, Piece, Rules, HEIGHT, SPAWN, WIDTH,
};
use tetris_opt::kit::sequence::SplitMix64;

/// The four cells of a piece, sorted: the identity of a placement on the board.
pub type Cells = [(i32, i32); 4];

// ---------------------------------------------------------------------------------------------
// Random numbers and boards
// ---------------------------------------------------------------------------------------------

pub struct Rng(pub SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        assert!(lo <= hi);
        lo + self.0.below((hi - lo + 1) as u64) as i32
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.0.unit() < p
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.0.below(items.len() as u64) as usize]
    }

    pub fn kind(&mut self) -> Kind {
        self.pick(&Kind::ALL)
    }
}

/// Number of board families [`random_board`] knows.
pub const FAMILIES: usize = 8;

pub const FAMILY_NAMES: [&str; FAMILIES] = [
    "column heights with holes",
    "sparse",
    "nearly full, gaps near the top",
    "cells in rows 0..4",
    "overhangs and tunnels",
    "random play",
    "9-cell rows, surface in rows 0..5",
    "tall walls around the spawn",
];

/// A board of family `family % FAMILIES`.
pub fn random_board(rng: &mut Rng, family: usize) -> Field {
    match family % FAMILIES {
        0 => heights_board(rng, 0, 18),
        1 => {
            let mut b = Field::new();
            let top = rng.range(0, 19);
            let p = rng.pick(&[0.03, 0.08, 0.15, 0.25, 0.35]);
            for y in top..HEIGHT {
                for x in 0..WIDTH {
                    if rng.chance(p) {
                        b.set(x, y, true);
                    }
                }
            }
            b
        }
        2 => {
            // Every column filled up to a surface within a few rows of `top`, one gap per row so
            // no row is full, plus a few extra gaps in the top rows of the stack.
            let mut b = Field::new();
            let top = rng.range(0, 6);
            for x in 0..WIDTH {
                let surface = (top + rng.range(0, 2)).min(HEIGHT - 1);
                for y in surface..HEIGHT {
                    b.set(x, y, true);
                }
            }
            for y in 0..HEIGHT {
                if (0..WIDTH).all(|x| b.filled(x, y)) {
                    b.set(rng.range(0, WIDTH - 1), y, false);
                }
            }
            for _ in 0..rng.range(0, 5) {
                let y = (top + rng.range(0, 4)).min(HEIGHT - 1);
                b.set(rng.range(0, WIDTH - 1), y, false);
            }
            b
        }
        3 => {
            let mut b = heights_board(rng, 8, 18);
            let p = rng.pick(&[0.05, 0.1, 0.2, 0.3]);
            let keep_spawn_free = rng.chance(0.7);
            for y in 0..4 {
                for x in 0..WIDTH {
                    if keep_spawn_free && (3..=5).contains(&x) && y <= 1 {
                        continue;
                    }
                    if rng.chance(p) {
                        b.set(x, y, true);
                    }
                }
            }
            b
        }
        4 => {
            let mut b = heights_board(rng, 3, 16);
            for _ in 0..rng.range(1, 5) {
                let y = rng.range(2, HEIGHT - 1);
                let a = rng.range(0, WIDTH - 1);
                let len = rng.range(2, 6);
                let filled = rng.chance(0.5);
                let thick = rng.range(1, 2);
                for x in a..(a + len).min(WIDTH) {
                    for yy in y..(y + thick).min(HEIGHT) {
                        // A roof (filled) over whatever is below, or a tunnel (emptied) under the
                        // surface.
                        b.set(x, yy, filled);
                    }
                }
            }
            b
        }
        5 => random_play_board(rng),
        6 => {
            // The contest's style: rows of 9 cells under a ragged surface in rows 0..5, with
            // the gaps often lined up into a well.
            let mut b = Field::new();
            let top = rng.range(0, 5);
            // Half of them with the well under the spawn, where the shipped weights keep it.
            let well = if rng.chance(0.5) {
                SPAWN.0
            } else {
                rng.range(0, WIDTH - 1)
            };
            for x in 0..WIDTH {
                let surface = (top + rng.range(0, 3)).min(HEIGHT - 1);
                for y in surface..HEIGHT {
                    b.set(x, y, true);
                }
            }
            for y in 0..HEIGHT {
                let gap = if rng.chance(0.7) {
                    well
                } else {
                    rng.range(0, WIDTH - 1)
                };
                b.set(gap, y, false);
            }
            b
        }
        _ => {
            // Columns 3 and 5 (or 2..6) walled up high, so that at the spawn a piece can
            // neither shift nor drop far; what it can still do is rotate.
            let mut b = heights_board(rng, 2, 12);
            let reach = rng.range(0, 3);
            let (l, r) = if rng.chance(0.5) { (3, 5) } else { (2, 6) };
            for x in [l, r] {
                for y in rng.range(1, 3)..HEIGHT {
                    b.set(x, y, true);
                }
            }
            for x in (l + 1)..r {
                for y in 0..HEIGHT {
                    b.set(x, y, y >= 2 + reach);
                }
            }
            if rng.chance(0.5) {
                // Leave a pocket beside the well so spins at the bottom have somewhere to go.
                let y = rng.range(3, 8);
                let x = if rng.chance(0.5) { l } else { r };
                b.set(x, y, false);
            }
            b
        }
    }
}

/// Columns filled from the floor up to a random height in `lo..=hi` (around a common base), the
/// top cell of each column filled and the cells under it holes with a random probability.
pub fn heights_board(rng: &mut Rng, lo: i32, hi: i32) -> Field {
    let mut b = Field::new();
    let base = rng.range(lo, hi);
    let spread = rng.range(0, 5);
    let holes = rng.pick(&[0.0, 0.05, 0.15, 0.3]);
    for x in 0..WIDTH {
        let h = (base + rng.range(-spread, spread)).clamp(0, HEIGHT - 1);
        for y in (HEIGHT - h)..HEIGHT {
            let top = y == HEIGHT - h;
            if top || !rng.chance(holes) {
                b.set(x, y, true);
            }
        }
    }
    b
}

/// A board grown from empty by locking random pieces at random reachable resting positions with
/// the plain engine (clears included).
pub fn random_play_board(rng: &mut Rng) -> Field {
    let mut b = Field::new();
    let pieces = rng.range(1, 40) as usize;
    let start = rng.range(0, 3) as usize;
    for index in start..start + pieces {
        let kind = rng.kind();
        let resting: Vec<Piece> = plain_reachable(&b, kind, index)
            .into_iter()
            .map(|(p, _)| p)
            .filter(|p| rules::is_resting(&b, p))
            .collect();
        if resting.is_empty() {
            break;
        }
        let piece = rng.pick(&resting);
        let mut next = b.clone();
        if rules::lock(
            &mut next,
            &piece,
            index,
            Rules::default().with_piece_limit(0),
        )
        .game_over
        .is_some()
        {
            break;
        }
        b = next;
    }
    b
}

// ---------------------------------------------------------------------------------------------
// The plain references
// ---------------------------------------------------------------------------------------------

pub fn sorted_cells(mut cells: Cells) -> Cells {
    cells.sort_unstable();
    cells
}

pub fn piece_cells(p: &Piece) -> Cells {
    sorted_cells(p.cells())
}

pub fn placement_cells(kind: Kind, p: Placement) -> Cells {
    sorted_cells(
        kind.offsets(p.state)
            .map(|(dx, dy)| (p.x as i32 + dx, p.y as i32 + dy)),
    )
}

/// Breadth-first search over every position piece `index` can reach from its spawn, using only
/// `Field::is_valid` and `Piece::moved` (a move to an invalid position does nothing, so it never
/// leads anywhere new). Returns each reachable position with its distance in moves.
pub fn plain_reachable(board: &Field, kind: Kind, index: usize) -> Vec<(Piece, u32)> {
    let spawn = Piece::spawn(kind, index);
    let mut out = Vec::new();
    if !board.is_valid(&spawn) {
        return out;
    }
    // Every piece holds its center cell (offset (0, 0)), so a valid center is on the board's
    // columns and at most the floor row; no move goes up, so y never drops below the spawn's 0.
    let slot = |p: &Piece| {
        assert!(
            (0..WIDTH).contains(&p.x) && (0..HEIGHT).contains(&p.y),
            "valid position off the grid: {p:?}"
        );
        (p.state as usize, p.x as usize, p.y as usize)
    };
    let mut dist = [[[u32::MAX; HEIGHT as usize]; WIDTH as usize]; 4];
    let (s, x, y) = slot(&spawn);
    dist[s][x][y] = 0;
    let mut queue = VecDeque::from([spawn]);
    while let Some(p) = queue.pop_front() {
        let (s, x, y) = slot(&p);
        let d = dist[s][x][y];
        out.push((p, d));
        for m in Move::ALL {
            let n = p.moved(m);
            if board.is_valid(&n) {
                let (ns, nx, ny) = slot(&n);
                if dist[ns][nx][ny] == u32::MAX {
                    dist[ns][nx][ny] = d + 1;
                    queue.push_back(n);
                }
            }
        }
    }
    out
}

/// The reachable resting positions as cell sets, each with the fewest moves reaching it.
pub fn plain_placements(board: &Field, kind: Kind, index: usize) -> HashMap<Cells, u32> {
    let mut out: HashMap<Cells, u32> = HashMap::new();
    for (p, d) in plain_reachable(board, kind, index) {
        if rules::is_resting(board, &p) {
            let e = out.entry(piece_cells(&p)).or_insert(d);
            *e = (*e).min(d);
        }
    }
    out
}

/// Every valid resting position with its center on the board (reachable or not).
pub fn all_resting(board: &Field, kind: Kind) -> Vec<Piece> {
    let mut out = Vec::new();
    for state in 0..4u8 {
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                let p = Piece { kind, state, x, y };
                if board.is_valid(&p) && rules::is_resting(board, &p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Applies `moves` from the spawn with the plain engine; invalid moves do nothing.
pub fn play_moves(board: &Field, kind: Kind, index: usize, moves: &[Move]) -> Piece {
    let mut p = Piece::spawn(kind, index);
    for &m in moves {
        let n = p.moved(m);
        if board.is_valid(&n) {
            p = n;
        }
    }
    p
}

pub fn placement_of(p: &Piece) -> Placement {
    Placement {
        state: canonical_state(p.kind, p.state),
        x: p.x as u8,
        y: p.y as u8,
    }
}

/// Rows `mask` removed from a plain board, done plainly: the kept rows keep their order and sit
/// on the floor, empty rows enter at the top.
pub fn remove_rows_plain(board: &Field, mask: u32) -> Field {
    let kept: Vec<i32> = (0..HEIGHT).filter(|&y| mask >> y & 1 == 0).collect();
    let mut out = Field::new();
    let top = HEIGHT - kept.len() as i32;
    for (i, &y) in kept.iter().enumerate() {
        for x in 0..WIDTH {
            out.set(x, top + i as i32, board.filled(x, y));
        }
    }
    out
}

pub fn boards(seed: u64, count: usize) -> Vec<(usize, Field)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|i| (i % FAMILIES, random_board(&mut rng, i % FAMILIES)))
        .collect()
}
