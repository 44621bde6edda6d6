//! Board evaluation: a linear cost over features of a board, lower is better.
//!
//! The beam ranks a state by `evaluation(board) - score * score_weight`: the evaluation is a cost
//! (a reward such as filled cells enters with a negative weight), and points scored so far pull
//! the key down. Weights are data: the defaults are compiled in from `weights/default.json` and
//! `--weights FILE` replaces them.

use crate::board::{hash_finish, hash_step, Board, COLS, HASH_SEED, ROWS, ROW_MASK};
pub use crate::weights::{Weights, WeightsError, MAX_NEAR_I_PIECES};

/// The column pieces enter at (the contest's `rules::SPAWN`, the others' too).
pub const SPAWN_X: usize = 4;

/// Defines [`Features`] (one board's counts) and [`Lanes`] (the same counts for a whole
/// [`Batch`], one array per feature) from one list, with the weighted sum over it.
macro_rules! features {
    ($(#[doc = $first_doc:literal])* $first:ident, $($(#[doc = $doc:literal])* $name:ident,)*) => {
        /// Counts of the board features, one per weight (except the three window sizes and
        /// `ready_rows_near_i`, which weighs `ready_rows` at some depths).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Features {
            $(#[doc = $first_doc])* pub $first: u32,
            $($(#[doc = $doc])* pub $name: u32,)*
        }

        /// Counts per [`Features`].
        pub const FEATURE_COUNT: usize = 1 $(+ { let _ = stringify!($name); 1 })*;

        impl Features {
            /// The counts as a vector, in field order (for fitting weights outside the solver).
            pub fn to_vec(&self) -> Vec<u32> {
                self.to_array().to_vec()
            }

            /// The counts in field order.
            #[inline]
            pub fn to_array(&self) -> [u32; FEATURE_COUNT] {
                [self.$first, $(self.$name),*]
            }
        }

        /// [`Features`] of every board of a batch, stored feature by feature, so that the
        /// weighted sum is one vector operation per feature for all boards.
        #[derive(Default)]
        struct Lanes {
            $first: [u32; BATCH],
            $($name: [u32; BATCH],)*
        }

        impl Lanes {
            fn lane(&self, l: usize) -> Features {
                Features {
                    $first: self.$first[l],
                    $($name: self.$name[l],)*
                }
            }

            /// The cost of every lane under `w`, summed in the order of the list.
            #[inline(always)]
            fn weighted(&self, w: &Weights) -> [f32; BATCH] {
                let mut out: [f32; BATCH] =
                    std::array::from_fn(|l| w.$first * self.$first[l] as f32);
                $(
                    for (o, &f) in out.iter_mut().zip(&self.$name) {
                        *o += w.$name * f as f32;
                    }
                )*
                out
            }
        }
    };
}

features! {
    cells,
    row_transitions,
    wall_transitions,
    column_transitions,
    holes,
    hole_rows,
    shallow_holes,
    well_sums,
    bumpiness,
    max_height,
    top_cells,
    /// 20 - y of the placed piece's center.
    landing_height,
    clean_well,
    spawn_column,
    ready_rows,
    ready_run,
    flat_pairs,
    step1_pairs,
    step3_pairs,
}

/// The features of `board`, on which a piece just locked with its center at row `landing_y`.
/// `shallow_depth` and `top_rows` are the window sizes of `shallow_holes` and `top_cells`.
/// (The search computes them [`BATCH`] boards at a time: [`features_batch`].)
pub fn features(board: &Board, landing_y: u32, shallow_depth: u32, top_rows: u32) -> Features {
    let mut batch = Batch::default();
    batch.push(board, landing_y);
    features_batch::<true, true, true>(&batch, shallow_depth, top_rows, true).lane(0)
}

/// The longest clean well (at most 4): the run of rows directly above a column's top, counted
/// from there upward, that are complete but for that column.
fn clean_well(cols: &[u32; COLS]) -> u32 {
    let full_but = |x: usize| {
        cols.iter()
            .enumerate()
            .fold(ROW_MASK, |a, (i, &c)| if i == x { a & !c } else { a & c })
    };
    (0..COLS)
        .map(|x| run_above_top(full_but(x), cols[x]).min(4))
        .max()
        .unwrap_or(0)
}

/// How many of the `ready` rows (rows where `col` is empty) run unbroken upward from the row
/// just above `col`'s top: the rows an I dropped into that column reaches.
#[inline(always)]
fn run_above_top(ready: u32, col: u32) -> u32 {
    let top = if col == 0 { ROWS } else { col.trailing_zeros() };
    // Rows 0..top are above the top; shifted so that row top - 1 is the highest bit, the run
    // is the leading ones (an empty range when top is 0: the shift by 32 wraps to 0 of 0).
    let above = ready & ((1u32 << top) - 1);
    (!above.wrapping_shl(32 - top)).leading_zeros()
}

/// The cost of `board`, on which a piece just locked with its center at row `landing_y`: the
/// weighted sum of its [`features`]. (The search evaluates [`BATCH`] boards at a time:
/// [`evaluate_batch`].)
pub fn evaluate(board: &Board, landing_y: u32, w: &Weights) -> f32 {
    let mut batch = Batch::default();
    batch.push(board, landing_y);
    evaluate_batch(&batch, w)[0]
}

/// Up to [`BATCH`] boards stored column by column, for [`evaluate_batch`]: with every board in
/// its own lane, each step of the evaluation is one vector operation for all of them, and the
/// neighbouring columns a feature needs are just the previous and next arrays.
#[derive(Clone)]
pub struct Batch {
    cols: [[u32; BATCH]; COLS],
    landing_y: [u32; BATCH],
    len: usize,
}

/// Boards per [`Batch`]: two vector registers of lanes with AVX-512, two with AVX2. With
/// AVX-512, 32 took 0.97x the CPU per state of 16 in the olympiad's search (width 50, five
/// interleaved pairs); the contest's did not tell them apart. Built for AVX2
/// (`target-cpu=x86-64-v3`), 16 took 0.91x the CPU of 32 in the contest's search (width
/// 20,000 over 300 pieces, ten interleaved pairs) and 0.97x in the olympiad's (0.96x in the
/// contest's built native with `-C target-feature=-avx512f`): at 32, a third of the
/// evaluation's time stalled on one reload of an accumulator spilled to the stack.
pub const BATCH: usize = if cfg!(target_feature = "avx512f") {
    32
} else {
    16
};

/// Lanes of `u32` in one vector register, the step of the evaluation's column loop: sixteen
/// with AVX-512, eight with AVX2.
const VECTOR: usize = if cfg!(target_feature = "avx512f") {
    16
} else {
    8
};

impl Default for Batch {
    fn default() -> Self {
        Batch {
            cols: [[0; BATCH]; COLS],
            landing_y: [0; BATCH],
            len: 0,
        }
    }
}

impl Batch {
    #[inline]
    pub fn is_full(&self) -> bool {
        self.len == BATCH
    }

    /// Adds a board on which a piece locked with its center at row `landing_y`.
    #[inline]
    pub fn push(&mut self, board: &Board, landing_y: u32) {
        // The length in a local: read back through `self` after every store of a column it
        // would be reloaded ten times.
        let n = self.len;
        assert!(n < BATCH, "batch is full");
        for (x, &c) in board.cols.iter().enumerate() {
            self.cols[x][n] = c;
        }
        self.landing_y[n] = landing_y;
        self.len = n + 1;
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// [`Board::hash64`] of every board (the first `len()` entries), computed for all lanes at
    /// once.
    pub fn hashes(&self) -> [u64; BATCH] {
        let mut h = [HASH_SEED; BATCH];
        for pair in self.cols.chunks_exact(2) {
            for l in 0..BATCH {
                h[l] = hash_step(h[l], pair[0][l], pair[1][l]);
            }
        }
        h.map(hash_finish)
    }
}

/// The cost of every board in `batch` (the first `batch.len()` entries): the weighted sum of
/// its features, as [`evaluate`] gives it for one board.
#[inline]
pub fn evaluate_batch(batch: &Batch, w: &Weights) -> [f32; BATCH] {
    evaluate_batch_with_cells(batch, w).0
}

/// [`evaluate_batch`], and the filled cells of every board, which the evaluation counts anyway.
#[inline]
pub(crate) fn evaluate_batch_with_cells(
    batch: &Batch,
    w: &Weights,
) -> ([f32; BATCH], [u32; BATCH]) {
    let (shallow_depth, top_rows) = w.row_windows();
    let clean_well = w.clean_well != 0.0;
    // Groups of features whose weights are all zero are not counted: with no window (the
    // shipped weights) `shallow_holes` is always 0, and the olympiad's weights leave out the
    // surface's pairs and the ready rows. Each group left out saves work in every column.
    let shallow = shallow_depth != 0;
    let pairs = w.flat_pairs != 0.0 || w.step1_pairs != 0.0 || w.step3_pairs != 0.0;
    let ready = w.ready_rows != 0.0 || w.ready_run != 0.0;
    macro_rules! with_groups {
        ($($s:literal $p:literal $r:literal),*) => {
            match (shallow, pairs, ready) {
                $(($s, $p, $r) => {
                    features_batch::<$s, $p, $r>(batch, shallow_depth, top_rows, clean_well)
                })*
            }
        };
    }
    let lanes = with_groups!(
        false false false, false false true, false true false, false true true,
        true false false, true false true, true true false, true true true
    );
    (lanes.weighted(w), lanes.cells)
}

/// [`features`] of every board in `batch` (the first `batch.len()` entries); `clean_well`
/// (the one slow feature) only when `with_clean_well`, `shallow_holes`, the surface's pairs and
/// the ready rows only when `SHALLOW`, `PAIRS` and `READY` (else they count 0).
///
/// One function over the library's usual length: split into a column pass and a board pass
/// that add into one [`Lanes`], the contest's search took 1.23x the CPU per state (width 1,000,
/// one thread, five interleaved pairs), its accumulators then fields of a struct, not locals.
#[inline(always)]
fn features_batch<const SHALLOW: bool, const PAIRS: bool, const READY: bool>(
    batch: &Batch,
    shallow_depth: u32,
    top_rows: u32,
    with_clean_well: bool,
) -> Lanes {
    let shallow_depth = shallow_depth.min(ROWS);
    let top_mask = (1u32 << top_rows.min(ROWS)) - 1;
    let cols = &batch.cols;

    let mut stack_rows = [0u32; BATCH];
    for l in 0..BATCH {
        let occupied = (0..COLS).fold(0, |a, x| a | cols[x][l]);
        // Rows from the highest filled row down (none for an empty board).
        stack_rows[l] = ROW_MASK & !(occupied & occupied.wrapping_neg()).wrapping_sub(1);
    }
    let mut cells = [0u32; BATCH];
    let mut column_transitions = [0u32; BATCH];
    let mut holes = [0u32; BATCH];
    let mut hole_rows = [0u32; BATCH];
    let mut shallow_holes = [0u32; BATCH];
    let mut top_cells = [0u32; BATCH];
    let mut row_transitions = [0u32; BATCH];
    let mut well_sums = [0u32; BATCH];
    let mut bumpiness = [0u32; BATCH];
    let mut previous_height = [0u32; BATCH];
    let mut flat_pairs = [0u32; BATCH];
    let mut step1_pairs = [0u32; BATCH];
    let mut step3_pairs = [0u32; BATCH];
    // Rows complete in every column but the spawn's.
    let mut others_full = [ROW_MASK; BATCH];
    // One vector of lanes through all ten columns, then the next, rather than all the lanes
    // per column: with AVX2, eight lanes at a time were 6% faster per expanded state than
    // sixteen in `cargo bench --bench movegen`; the accumulators stay in memory either way,
    // and why it helps was not found. With AVX-512, sixteen lanes at a time (one vector) took
    // 0.89x the CPU per state of eight in the olympiad's search, 0.93x in the contest's.
    for lanes in (0..BATCH).step_by(VECTOR) {
        for x in 0..COLS {
            // The column's conditions as masks, not branches inside the lane loop: a branch there
            // compiles to masked stores, which stall the next load of the same accumulator.
            // A pair (x - 1, x) of surface columns, neither of them the well.
            let surface_pair = u32::from(x > 0 && x != SPAWN_X && x - 1 != SPAWN_X);
            // All ones from the second column on (steps and row transitions need a left column).
            let has_left = 0u32.wrapping_sub(u32::from(x > 0));
            // All ones in the spawn's column, which `others_full` skips.
            let skip_full = 0u32.wrapping_sub(u32::from(x == SPAWN_X));
            let c = &cols[x];
            let left = if x == 0 {
                &[ROW_MASK; BATCH]
            } else {
                &cols[x - 1]
            };
            let right = if x + 1 == COLS {
                &[ROW_MASK; BATCH]
            } else {
                &cols[x + 1]
            };
            for l in lanes..lanes + VECTOR {
                let col = c[l];
                if READY {
                    others_full[l] &= col | skip_full;
                }
                // Row y+1 sits under row y; the floor counts as filled.
                column_transitions[l] +=
                    ((col ^ ((col >> 1) | (1 << (ROWS - 1)))) & ROW_MASK).count_ones();
                top_cells[l] += (col & top_mask).count_ones();
                let top = col & col.wrapping_neg();
                let above_top = top.wrapping_sub(1) & ROW_MASK;
                let h = ROW_MASK & !above_top & !col;
                let filled = col.count_ones();
                cells[l] += filled;
                let height = ROWS - above_top.count_ones();
                // The column's cells all lie at or under its top, so the holes are the rest of
                // its height: one count fewer than counting `h`.
                holes[l] += height - filled;
                hole_rows[l] |= h;
                // The `shallow_depth` rows from the top down: in u32 (wrapping, as only the low 20
                // bits are used) rather than u64, which the lane loop would have to widen to.
                if SHALLOW {
                    let window = (top << shallow_depth).wrapping_sub(top);
                    shallow_holes[l] += (h & window).count_ones();
                }
                let step = height.abs_diff(previous_height[l]) & has_left;
                bumpiness[l] += step;
                row_transitions[l] += ((col ^ left[l]) & stack_rows[l] & has_left).count_ones();
                if PAIRS {
                    flat_pairs[l] += u32::from(step == 0) & surface_pair;
                    step1_pairs[l] += u32::from(step == 1) & surface_pair;
                    step3_pairs[l] += u32::from(step >= 3) & surface_pair;
                }
                previous_height[l] = height;
                let d = (left[l] & right[l] & above_top).count_ones();
                well_sums[l] += d * (d + 1) / 2;
            }
        }
    }
    let mut wall_transitions = [0u32; BATCH];
    let mut hole_row_count = [0u32; BATCH];
    let mut max_height = [0u32; BATCH];
    let mut landing_height = [0u32; BATCH];
    let mut spawn_column = [0u32; BATCH];
    let mut ready_rows = [0u32; BATCH];
    let mut ready_run = [0u32; BATCH];
    for l in 0..BATCH {
        if READY {
            let well = cols[SPAWN_X][l];
            let ready = others_full[l] & !well;
            ready_rows[l] = ready.count_ones();
            ready_run[l] = run_above_top(ready, well);
        }
        wall_transitions[l] = (!cols[0][l] & stack_rows[l]).count_ones()
            + (!cols[COLS - 1][l] & stack_rows[l]).count_ones();
        hole_row_count[l] = hole_rows[l].count_ones();
        // The highest column reaches the highest filled row.
        max_height[l] = stack_rows[l].count_ones();
        landing_height[l] = ROWS - batch.landing_y[l].min(ROWS);
        spawn_column[l] = cols[SPAWN_X][l].count_ones();
    }
    let mut clean = [0u32; BATCH];
    if with_clean_well {
        for (l, c) in clean.iter_mut().enumerate().take(batch.len) {
            *c = clean_well(&std::array::from_fn(|x| cols[x][l]));
        }
    }
    Lanes {
        cells,
        row_transitions,
        wall_transitions,
        column_transitions,
        holes,
        hole_rows: hole_row_count,
        shallow_holes,
        well_sums,
        bumpiness,
        max_height,
        top_cells,
        landing_height,
        clean_well: clean,
        spawn_column,
        ready_rows,
        ready_run,
        flat_pairs,
        step1_pairs,
        step3_pairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        Weights::from_json(text).unwrap_err().to_string()
    }

    #[test]
    fn weights_are_an_object_of_finite_numbers() {
        let w = Weights::from_json(r#"{"holes": 4.5, "top_rows": 3}"#).unwrap();
        assert_eq!((w.holes, w.top_rows), (4.5, 3.0));
        assert_eq!(w.cells, Weights::default().cells);
        let all = serde_json::to_string(&Weights::default()).unwrap();
        assert_eq!(Weights::from_json(&all).unwrap(), Weights::default());

        assert!(refused("[1.0, 2.0]").contains("a JSON object of named fields"));
        assert!(refused("[1.0, 2.0]").ends_with("not an array"));
        assert!(refused("4").ends_with("not a number"));
        assert_eq!(
            refused(r#"{"holes": 1e39}"#),
            "holes is 1e39, out of range: a weight must be a number from -3.4e38 to 3.4e38"
        );
        assert_eq!(
            refused(r#"{"holes": -1.5E300}"#),
            "holes is -1.5e300, out of range: a weight must be a number from -3.4e38 to 3.4e38"
        );
        assert_eq!(
            refused("{\n  \"cells\": -1.0,\n  \"bumpiness\": -1e999\n}"),
            "bumpiness is out of range (line 3, column 21): a weight must be a number from \
             -3.4e38 to 3.4e38"
        );
        assert!(refused(r#"{"hole": 1}"#).contains("unknown field `hole`"));
    }

    #[test]
    fn window_sizes_are_whole_numbers_in_range() {
        for (text, message) in [
            (
                r#"{"top_rows": 3.5}"#,
                "top_rows is a window size: a whole number from 0 to 20, not 3.5",
            ),
            (
                r#"{"top_rows": 21}"#,
                "top_rows is a window size: a whole number from 0 to 20, not 21",
            ),
            (
                r#"{"shallow_depth": -1}"#,
                "shallow_depth is a window size: a whole number from 0 to 20, not -1",
            ),
            (
                r#"{"near_i_pieces": 10001}"#,
                "near_i_pieces is a window size: a whole number from 0 to 10000, not 10001",
            ),
        ] {
            assert_eq!(refused(text), message, "{text}");
        }
        let edge = r#"{"top_rows": 20, "shallow_depth": 0, "near_i_pieces": 10000}"#;
        assert!(Weights::from_json(edge).is_ok());
    }
}
