//! The fast board the contest's, the olympiad's and the browser game's searches play on: ten
//! `u32` columns, one bit per cell.
//!
//! # Why columns
//! Almost everything the search asks is a question about columns: where a piece lands when it
//! drops (a shift and an OR per covered column), which positions of a piece collide (the same
//! shifts, once per state and column), how tall a column is and what lies under its top (one
//! `trailing_zeros`). Full rows are the AND of the ten columns, filled cells a popcount.
//!
//! Bit `y` of a column is row `y` of the rules: bit 0 is the top row, bit 19 the floor row, so
//! "down" is towards higher bits. Bits 20..31 are always zero in a stored board.

/// Number of columns.
pub const COLS: usize = 10;
/// Number of rows.
pub const ROWS: u32 = 20;
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
impl tetris_search::Wire for Board {
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
}

/// Rows top first, `#` for a filled cell, `.` for an empty one.
impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for y in 0..ROWS {
            let row: String = (0..COLS)
                .map(|x| if self.cols[x] >> y & 1 == 1 { '#' } else { '.' })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
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
