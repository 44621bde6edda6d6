//! The page's chart of the fill at each lock, under the score's: lines of the cells on the
//! board when each piece locks, before its clear, with the clears marked by their rows, so
//! that a record's play can be read against a reference play's (the fluid model's best, say).
//!
//! A line is written as the runs of locks that add a piece's cells and clear nothing, each run
//! followed by the one lock that does otherwise, in the film's code: a few bytes a clear
//! rather than a number a lock, whatever the game's length. The page draws one point a lock.

use super::{push_unsigned, zigzag, W};
use crate::fluid::FluidLock;
use serde::Serialize;

/// Cells a piece adds to the board.
const PIECE_CELLS: i64 = 4;
/// A lock's code is its cells' difference from the expected count, zig-zagged, times this,
/// plus the rows it clears (0 to 4: no piece spans more).
const ROW_CODES: u64 = 5;

/// What the page's fill chart shows: its lines and a caption that says what they are.
#[derive(Clone, Debug, Serialize)]
pub struct FillChart {
    /// The one line under the chart saying what its lines are.
    pub caption: String,
    /// The most cells the reference play may hold after a lock, drawn as a dashed line.
    pub cap: Option<u32>,
    /// The record's line first, then the reference plays'.
    pub lines: Vec<FillLine>,
}

/// One line of a [`FillChart`]: a play's locks, each the cells on the board with the piece
/// written and the rows it clears.
#[derive(Clone, Debug, Serialize)]
pub struct FillLine {
    /// What the legend calls it.
    label: String,
    /// How many locks the line has (the runs' code leaves out its last run).
    locks: usize,
    code: String,
}

impl FillLine {
    /// The line of `locks`, in order from the first piece, named `label` in the legend.
    pub fn new(label: impl Into<String>, locks: &[FluidLock]) -> FillLine {
        let mut code = String::new();
        // The cells a lock has when it adds a piece's to those the lock before left.
        let mut expected = PIECE_CELLS;
        let mut run = 0;
        for lock in locks {
            debug_assert!(u64::from(lock.rows) < ROW_CODES, "a piece spans 4 rows");
            let filled = i64::from(lock.filled);
            let symbol = zigzag(filled - expected) * ROW_CODES + u64::from(lock.rows);
            if symbol == 0 {
                run += 1;
            } else {
                push_unsigned(&mut code, run);
                push_unsigned(&mut code, symbol);
                run = 0;
            }
            expected = filled - i64::from(lock.rows) * W as i64 + PIECE_CELLS;
        }
        FillLine {
            label: label.into(),
            locks: locks.len(),
            code,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock(filled: u32, rows: u32) -> FluidLock {
        FluidLock { filled, rows }
    }

    #[test]
    fn locks_that_only_add_a_piece_cost_nothing() {
        let stacked: Vec<FluidLock> = (1..=30).map(|n| lock(4 * n, 0)).collect();
        let line = FillLine::new("stacked", &stacked);
        assert_eq!((line.locks, line.code.as_str()), (30, ""));
        // Five pieces, a clear of 2 rows on 24 cells, a piece on the 4 cells left, then one
        // that lost 2 of its cells above the board (-2 off the expected, zig-zagged 3).
        let mut played = stacked[..5].to_vec();
        played.extend([lock(24, 2), lock(8, 0), lock(10, 0)]);
        let line = FillLine::new("played", &played);
        // Runs of 5 then 1 locks, the clear's code 2, the short lock's 3 * 5.
        assert_eq!(line.code, "521F");
    }
}
