//! Move generation: every placement a piece can reach from its spawn and lock in, and the
//! shortest move list that gets it there.
//!
//! The search works on sets of positions, not on single positions. For each rotation state and
//! center column, `valid[state][x]` is a `u32` whose bit `y` says the piece fits with its center
//! at `(x, y)` (built once per board and piece from the columns with a few shifts). Reachability
//! from the spawn is a fixpoint over those masks: `D` fills down through runs of valid bits (one
//! add and one xor for a whole column), `L`/`R` copy bits between neighbouring columns, `C` copies
//! bits to the next state. Slides under overhangs, tucks and spins all fall out of the same
//! fixpoint; nothing is special-cased, so a high stack that blocks rotation at the spawn is as
//! exact as an empty board.

use crate::games::contest::bitboard::{
    self, canonical_state, Board, ContestBoard, Outcome, COLS, ROW_MASK,
};
use crate::games::contest::rules::{Kind, Rules, SPAWN};
use smallvec::SmallVec;

mod path;
mod reach;
pub use path::{path_to, PathError};
use reach::{connected_at_row, distinct_states, reachable, runs_below, runs_from_top};
pub use reach::{valid_map, ValidMap};

/// Where a piece locks: its (canonical) state and center.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub state: u8,
    pub x: u8,
    pub y: u8,
}

impl Placement {
    /// Packs into 16 bits for the beam's trail.
    #[inline]
    pub(crate) fn pack(self) -> u16 {
        (self.state as u16) << 10 | (self.x as u16) << 5 | self.y as u16
    }

    #[inline]
    pub(crate) fn unpack(v: u16) -> Placement {
        Placement {
            state: (v >> 10) as u8 & 3,
            x: (v >> 5) as u8 & 31,
            y: v as u8 & 31,
        }
    }

    /// Locks piece number `index` (of `kind`) here on `board`: [`bitboard::lock`].
    #[inline(always)]
    pub(crate) fn lock(self, board: &mut Board, kind: Kind, index: usize, rules: Rules) -> Outcome {
        let (state, x, y) = (self.state, self.x as usize, self.y as u32);
        bitboard::lock(board, kind, state, x, y, index, rules)
    }

    /// [`Placement::lock`] on a board whose occupied rows are known: [`bitboard::lock_over`].
    #[inline(always)]
    pub fn lock_over(
        self,
        board: &mut Board,
        occupied: u32,
        kind: Kind,
        index: usize,
        rules: Rules,
    ) -> Outcome {
        let at = (self.state, self.x as usize, self.y as u32);
        bitboard::lock_over(board, occupied, kind, at, index, rules)
    }
}

/// Placements of one piece; most boards give fewer than 48.
pub type Placements = SmallVec<[Placement; 48]>;

/// Every distinct placement of piece number `index` (of `kind`) that is reachable from its spawn
/// and at rest. Empty when the spawn position itself is blocked (the game is over).
pub fn placements(board: &Board, kind: Kind, index: usize, out: &mut Placements) {
    placements_with(board, kind, index, Rules::default(), out)
}

/// [`placements`], plus, where the rules lock pieces in mid-air, the reachable positions in
/// mid-air where locking completes at least one row: among mid-air locks only clearing ones can
/// beat the resting placements.
pub fn placements_with(
    board: &Board,
    kind: Kind,
    index: usize,
    rules: Rules,
    out: &mut Placements,
) {
    out.clear();
    let valid = valid_map(board, kind);
    let spawn_state = index % 4;
    let (sx, sy) = (SPAWN.0 as usize, SPAWN.1 as u32);
    if valid[spawn_state][sx] >> sy & 1 == 0 {
        return;
    }
    let distinct = distinct_states(kind);
    let start = canonical_state(kind, spawn_state as u8) as usize;
    let reach = if runs_from_top(&valid, distinct) {
        let connected = connected_at_row(&valid, distinct, start, sx, sy);
        // Each connected column rests at the end of its run: one placement each, in the order
        // `push_positions` gives.
        for (s, &columns) in connected.iter().enumerate() {
            let mut c = columns;
            while c != 0 {
                let x = c.trailing_zeros() as usize;
                c &= c - 1;
                out.push(Placement {
                    state: s as u8,
                    x: x as u8,
                    y: (31 - valid[s][x].leading_zeros()) as u8,
                });
            }
        }
        if !rules.locks_in_mid_air() {
            return;
        }
        runs_below(&valid, &connected, sy)
    } else {
        let reach = reachable(&valid, distinct, start, sx, 1 << sy);
        // Keep the positions that cannot move down (the states past `distinct` stay empty).
        let mut rest = [[0u32; COLS]; 4];
        for s in 0..distinct {
            for x in 0..COLS {
                rest[s][x] = reach[s][x] & !(valid[s][x] >> 1);
            }
        }
        push_positions(&rest, out);
        if !rules.locks_in_mid_air() {
            return;
        }
        reach
    };
    push_clearing_in_mid_air(board, kind, (&valid, &reach), distinct, out);
}

/// Pushes the positions of `reach` in mid-air (not at rest in `valid`) where locking `kind`
/// completes at least one row of `board`.
#[inline]
fn push_clearing_in_mid_air(
    board: &Board,
    kind: Kind,
    (valid, reach): (&ValidMap, &ValidMap),
    distinct: usize,
    out: &mut Placements,
) {
    // Only rows with at most four empty cells can be completed by one piece, and only a center
    // within two rows of such a row touches it.
    let near = rows_with_at_least(board, COLS as u32 - 4);
    if near == 0 {
        return;
    }
    let mut air = [[0u32; COLS]; 4];
    for s in 0..distinct {
        for x in 0..COLS {
            air[s][x] = reach[s][x] & (valid[s][x] >> 1);
        }
    }
    let centers = (near | near << 1 | near << 2 | near >> 1 | near >> 2) & ROW_MASK;
    for (s, cols) in air.iter_mut().enumerate() {
        for (x, bits) in cols.iter_mut().enumerate() {
            let mut b = *bits & centers;
            *bits = 0;
            while b != 0 {
                let y = b.trailing_zeros();
                b &= b - 1;
                let mut after = *board;
                after.write(kind, s as u8, x, y);
                if after.full_rows() != 0 {
                    *bits |= 1 << y;
                }
            }
        }
    }
    push_positions(&air, out);
}

fn push_positions(positions: &ValidMap, out: &mut Placements) {
    for (s, cols) in positions.iter().enumerate() {
        for (x, &bits) in cols.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                let y = b.trailing_zeros();
                b &= b - 1;
                out.push(Placement {
                    state: s as u8,
                    x: x as u8,
                    y: y as u8,
                });
            }
        }
    }
}

/// Rows holding at least `n` filled cells (n <= 10), by adding the ten columns as bit-sliced
/// four-bit counters, one counter per row.
fn rows_with_at_least(board: &Board, n: u32) -> u32 {
    let mut planes = [0u32; 4];
    for &c in &board.cols {
        let mut carry = c;
        for p in planes.iter_mut() {
            let next = *p & carry;
            *p ^= carry;
            carry = next;
        }
    }
    // Compare each row's counter with n, bit-sliced: a row's count is >= n unless it is less.
    let mut greater = 0u32;
    let mut equal = ROW_MASK;
    for bit in (0..4).rev() {
        let nb = if n >> bit & 1 == 1 { ROW_MASK } else { 0 };
        greater |= equal & planes[bit] & !nb;
        equal &= !(planes[bit] ^ nb);
    }
    (greater | equal) & ROW_MASK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_gives_every_drop() {
        let mut out = Placements::new();
        // Piece 0 of kind T spawns in state 0; every state and column is reachable.
        placements(&Board::default(), Kind::T, 0, &mut out);
        assert_eq!(out.len(), 8 + 9 + 8 + 9);
        assert!(out.iter().all(|p| p.y == 19 || p.y == 18));
        placements(&Board::default(), Kind::O, 1, &mut out);
        assert_eq!(out.len(), 9);
        placements(&Board::default(), Kind::I, 2, &mut out);
        assert_eq!(out.len(), 10 + 7);
    }

    #[test]
    fn counts_rows_by_filled_cells() {
        let mut b = Board::default();
        // Row 19: 10 cells, row 18: 6, row 17: 5, row 16: 0.
        for x in 0..COLS {
            b.cols[x] |= 1 << 19;
            if x < 6 {
                b.cols[x] |= 1 << 18;
            }
            if x < 5 {
                b.cols[x] |= 1 << 17;
            }
        }
        assert_eq!(rows_with_at_least(&b, 6), 1 << 19 | 1 << 18);
        assert_eq!(rows_with_at_least(&b, 10), 1 << 19);
        assert_eq!(rows_with_at_least(&b, 0), ROW_MASK);
        assert_eq!(rows_with_at_least(&b, 5), 0b111 << 17);
    }
}
