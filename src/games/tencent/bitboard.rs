//! The fast board used by the search: ten `u32` columns, one bit per cell.
//!
//! # Why columns
//! Almost everything the search asks is a question about columns: where a piece lands when it
//! drops (a shift and an OR per covered column), which positions of a piece collide (the same
//! shifts, once per state and column), how tall a column is and what lies under its top (one
//! `trailing_zeros`). Full rows are the AND of the ten columns, filled cells a popcount.
//!
//! Bit `y` of a column is row `y` of the rules: bit 0 is the top row, bit 19 the floor row, so
//! "down" is towards higher bits. Bits 20..31 are always zero in a stored board.

use crate::games::tencent::rules::{self, Kind, Piece, Rules, CLEAR_MULTIPLIER};

/// Number of columns.
pub const COLS: usize = rules::WIDTH as usize;
/// Number of rows.
pub const ROWS: u32 = rules::HEIGHT as u32;
/// The bits that are board rows.
pub const ROW_MASK: u32 = (1 << ROWS) - 1;

const _: () = assert!(
    ROWS < 32,
    "a column must fit a u32 with room for the floor bits"
);

/// A board as ten columns.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    pub cols: [u32; COLS],
}

/// Ten columns of four bytes.
impl crate::search::Wire for Board {
    const BYTES: usize = 4 * COLS;
    #[inline]
    fn put(&self, out: &mut Vec<u8>) {
        self.cols.put(out);
    }
    #[inline]
    fn take(bytes: &[u8]) -> Board {
        Board {
            cols: <[u32; COLS]>::take(bytes),
        }
    }
}

impl Board {
    /// Rows (as a mask of bits) whose every cell is filled.
    #[inline]
    pub fn full_rows(&self) -> u32 {
        self.cols.iter().fold(ROW_MASK, |a, c| a & c)
    }

    /// Rows holding at least one filled cell.
    #[inline]
    pub fn occupied_rows(&self) -> u32 {
        self.cols.iter().fold(0, |a, c| a | c)
    }

    /// Number of filled cells.
    #[inline]
    pub fn filled_cells(&self) -> u32 {
        self.cols.iter().map(|c| c.count_ones()).sum()
    }

    /// Removes the rows in `full`: what was above each moves down, empty rows enter at the top.
    #[inline]
    pub fn remove_rows(&mut self, full: u32) {
        if full == 0 {
            return;
        }
        for c in &mut self.cols {
            *c = remove_rows_from_column(*c, full);
        }
    }

    /// A 64-bit fingerprint of the cells, for duplicate detection.
    #[inline]
    pub fn hash64(&self) -> u64 {
        let mut h = HASH_SEED;
        for pair in self.cols.chunks_exact(2) {
            h = hash_step(h, pair[0], pair[1]);
        }
        hash_finish(h)
    }

    /// Converts from the plain engine's board.
    pub fn from_rules(board: &rules::Board) -> Board {
        let mut b = Board::default();
        for x in 0..COLS {
            for y in 0..ROWS {
                if board.filled(x as i32, y as i32) {
                    b.cols[x] |= 1 << y;
                }
            }
        }
        b
    }

    /// Converts to the plain engine's board.
    pub fn to_rules(&self) -> rules::Board {
        let mut b = rules::Board::new();
        for x in 0..COLS {
            for y in 0..ROWS {
                if self.cols[x] >> y & 1 == 1 {
                    b.set(x as i32, y as i32, true);
                }
            }
        }
        b
    }

    /// Writes `kind` in `state` with its center at `(x, y)` (cells above the top are lost).
    ///
    /// All ten columns at once from a table, rather than one covered column at a time: the
    /// board is read back as a vector right after, and narrow stores followed by a wide load
    /// of the same memory stall the load until the stores retire.
    #[inline(always)]
    pub fn write(&mut self, kind: Kind, state: u8, x: usize, y: u32) {
        let masks = &PLACED[kind.index()][state as usize][x];
        // A mask uses bits 0..=4 and y <= 19, so the left shift stays inside the u32; the right
        // shift drops the cells above the top.
        for (c, &m) in self.cols.iter_mut().zip(masks) {
            *c |= (m << y) >> SHAPE_Y_OFFSET;
        }
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_rules())
    }
}

/// Removes the rows in `full` from one column.
#[inline]
pub fn remove_rows_from_column(col: u32, full: u32) -> u32 {
    #[cfg(target_feature = "bmi2")]
    {
        // SAFETY: this block is compiled only when the target has BMI2, so `pext` exists.
        // pext packs the kept rows to the low bits in order; shifting them up by the number of
        // removed rows bottom-aligns them again, leaving empty rows at the top.
        unsafe {
            let kept = core::arch::x86_64::_pext_u32(col, !full & ROW_MASK);
            kept << full.count_ones()
        }
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        remove_rows_portable(col, full)
    }
}

/// The portable row removal: one row at a time, top to bottom, so the rows still to remove keep
/// their bit positions (only rows above a removed row move).
#[inline]
pub fn remove_rows_portable(mut col: u32, mut full: u32) -> u32 {
    while full != 0 {
        let r = full.trailing_zeros();
        let above = (1u32 << r) - 1;
        col = (col & !(above | (1 << r))) | ((col & above) << 1);
        full &= full - 1;
    }
    col
}

/// Start value of [`Board::hash64`]. Its steps (this, [`hash_step`] per pair of columns,
/// [`hash_finish`]) are shared with `eval::Batch::hashes`, so both give the same value; the
/// multiply-xorshift rounds make collisions between distinct boards as rare as for any good
/// 64-bit hash.
pub const HASH_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// Mixes the columns `a` and `b` into the running hash `h`.
#[inline(always)]
pub fn hash_step(h: u64, a: u32, b: u32) -> u64 {
    let v = (a as u64) | ((b as u64) << 32);
    let h = (h ^ v).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 29)
}

/// The final mix of a running hash.
#[inline(always)]
pub fn hash_finish(h: u64) -> u64 {
    h.wrapping_mul(0x94D0_49BB_1331_11EB) ^ (h >> 32)
}

/// Row offset added to every cell's `dy` so that shape masks have no negative shifts.
pub const SHAPE_Y_OFFSET: u32 = 2;

/// One kind in one state, laid out for column arithmetic.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Per covered column: `(dx, mask)` where `mask` has bit `dy + SHAPE_Y_OFFSET` per cell.
    pub columns: [(i8, u32); 4],
    /// Number of used entries in `columns`.
    pub width: u8,
    /// The rows the piece covers: the union of the column masks.
    pub rows: u32,
    /// Smallest and largest `dx`: the center's x may range over `-min_dx ..= 9 - max_dx`.
    pub min_dx: i8,
    pub max_dx: i8,
}

const fn build_shape(offsets: [(i32, i32); 4]) -> Shape {
    let mut columns = [(0i8, 0u32); 4];
    let mut width = 0usize;
    let mut min_dx = 0i8;
    let mut max_dx = 0i8;
    let mut rows = 0u32;
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = offsets[i];
        let bit = 1u32 << (dy + SHAPE_Y_OFFSET as i32);
        rows |= bit;
        let mut j = 0;
        let mut found = false;
        while j < width {
            if columns[j].0 as i32 == dx {
                columns[j].1 |= bit;
                found = true;
            }
            j += 1;
        }
        if !found {
            columns[width] = (dx as i8, bit);
            width += 1;
        }
        if (dx as i8) < min_dx {
            min_dx = dx as i8;
        }
        if (dx as i8) > max_dx {
            max_dx = dx as i8;
        }
        i += 1;
    }
    Shape {
        columns,
        width: width as u8,
        rows,
        min_dx,
        max_dx,
    }
}

const fn build_shapes() -> [[Shape; 4]; 7] {
    let empty = Shape {
        columns: [(0, 0); 4],
        width: 0,
        rows: 0,
        min_dx: 0,
        max_dx: 0,
    };
    let mut out = [[empty; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 4 {
            out[k][s] = build_shape(rules::OFFSETS[k][s]);
            s += 1;
        }
        k += 1;
    }
    out
}

/// Every kind and state, derived at compile time from the rules' offset table.
pub static SHAPES: [[Shape; 4]; 7] = build_shapes();

/// Per kind, state and center column: the piece's cells in each board column, as bits at
/// `dy + SHAPE_Y_OFFSET` (center row 0); shifting by the center row places them. Columns a
/// center cannot take (the piece would leave the board) are never used.
static PLACED: [[[[u32; COLS]; COLS]; 4]; 7] = build_placed();

const fn build_placed() -> [[[[u32; COLS]; COLS]; 4]; 7] {
    let mut out = [[[[0u32; COLS]; COLS]; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 4 {
            let shape = &SHAPES[k][s];
            let mut x = 0;
            while x < COLS {
                let mut i = 0;
                while i < shape.width as usize {
                    let (dx, mask) = shape.columns[i];
                    let col = x as i32 + dx as i32;
                    if col >= 0 && col < COLS as i32 {
                        out[k][s][x][col as usize] = mask;
                    }
                    i += 1;
                }
                x += 1;
            }
            s += 1;
        }
        k += 1;
    }
    out
}

/// The shape of `kind` in `state`.
#[inline]
pub fn shape(kind: Kind, state: u8) -> &'static Shape {
    &SHAPES[kind.index()][state as usize]
}

/// The state whose cells equal those of `state` and that the search uses to name them: states
/// that look alike (I, S, Z: 0 and 2, 1 and 3; O: all four) give the same boards.
#[inline]
pub fn canonical_state(kind: Kind, state: u8) -> u8 {
    match kind {
        Kind::O => 0,
        Kind::I | Kind::S | Kind::Z => state & 1,
        _ => state,
    }
}

/// What locking a piece on a fast board did; mirrors [`rules::Turn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub lines: u32,
    pub score: u32,
    pub game_over: Option<rules::GameOver>,
}

/// Locks `kind` in `state` at center `(x, y)` as piece `index` with the rules' steps 3-7.
#[inline(always)]
pub fn lock(
    board: &mut Board,
    kind: Kind,
    state: u8,
    x: usize,
    y: u32,
    index: usize,
    rules: Rules,
) -> Outcome {
    let occupied = board.occupied_rows();
    lock_over(board, occupied, kind, (state, x, y), index, rules)
}

/// [`lock`] on a board whose [`Board::occupied_rows`] are `occupied` (the search locks every
/// placement of a state on the same board): the top-out check is then the piece's rows added
/// to them, not a reduction over the ten columns of the new board, which every placement would
/// wait for.
#[inline(always)]
pub fn lock_over(
    board: &mut Board,
    occupied: u32,
    kind: Kind,
    (state, x, y): (u8, usize, u32),
    index: usize,
    rules: Rules,
) -> Outcome {
    board.write(kind, state, x, y);
    // The same shifts as `write`'s, on the union of the piece's columns (a placement never
    // leaves the board sideways, so all of them are written).
    let rows = (shape(kind, state).rows << y) >> SHAPE_Y_OFFSET;
    if occupied | rows == ROW_MASK {
        return Outcome {
            lines: 0,
            score: 0,
            game_over: Some(rules::GameOver::TopOut),
        };
    }
    if rules.is_last_piece(index) {
        return Outcome {
            lines: 0,
            score: 0,
            game_over: Some(rules::GameOver::PieceLimit),
        };
    }
    let full = board.full_rows();
    let lines = full.count_ones();
    let score = if lines > 0 {
        board.filled_cells() * CLEAR_MULTIPLIER[lines as usize] as u32
    } else {
        0
    };
    board.remove_rows(full);
    Outcome {
        lines,
        score,
        game_over: None,
    }
}

/// The plain engine's piece for a fast-engine placement.
pub fn piece_at(kind: Kind, state: u8, x: usize, y: u32) -> Piece {
    Piece {
        kind,
        state,
        x: x as i32,
        y: y as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_removal_matches_portable_version() {
        let mut seed = 1u64;
        for _ in 0..10_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let col = (seed >> 20) as u32 & ROW_MASK;
            let full = (seed >> 40) as u32 & ROW_MASK & (seed >> 7) as u32;
            let expected = remove_rows_portable(col, full);
            assert_eq!(remove_rows_from_column(col, full), expected);
            // Reference: rebuild the column bit by bit.
            let mut slow = 0u32;
            let mut dst = ROWS as i32 - 1;
            for y in (0..ROWS as i32).rev() {
                if full >> y & 1 == 0 {
                    slow |= (col >> y & 1) << dst;
                    dst -= 1;
                }
            }
            assert_eq!(expected, slow, "col {col:b} full {full:b}");
        }
    }

    #[test]
    fn shapes_have_the_rules_cells() {
        for kind in Kind::ALL {
            for state in 0..4u8 {
                let s = shape(kind, state);
                let mut cells = Vec::new();
                for &(dx, mask) in &s.columns[..s.width as usize] {
                    for b in 0..32i32 {
                        if mask >> b & 1 == 1 {
                            cells.push((dx as i32, b - SHAPE_Y_OFFSET as i32));
                        }
                    }
                }
                cells.sort();
                let mut expected = kind.offsets(state).to_vec();
                expected.sort();
                assert_eq!(cells, expected, "{kind} {state}");
                let canon = canonical_state(kind, state);
                let mut canon_cells = kind.offsets(canon).to_vec();
                canon_cells.sort();
                assert_eq!(canon_cells, expected, "{kind} {state} ~ {canon}");
            }
        }
    }
}
