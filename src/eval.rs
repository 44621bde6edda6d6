//! Board evaluation: a linear cost over features of a board, lower is better.
//!
//! The beam ranks a state by `evaluation(board) - score * score_weight`: the evaluation is a cost
//! (a reward such as filled cells enters with a negative weight), and points scored so far pull
//! the key down. Weights are data: the defaults are compiled in from `weights/default.json` and
//! `--weights FILE` replaces them.

use crate::bitboard::{Board, COLS, ROWS, ROW_MASK};
use serde::{Deserialize, Serialize};

/// Defines [`Weights`] and everything that lists its fields (the file form without defaults,
/// names, vector conversions) from one list, so they cannot drift apart.
macro_rules! weights {
    ($($(#[doc = $doc:literal])* $name:ident,)*) => {
        /// Weights of the board features; every field defaults to the shipped value.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Weights {
            $($(#[doc = $doc])* pub $name: f32,)*
        }

        /// The on-disk form with no defaults of its own, used only to load the shipped file
        /// (the struct's own `Default` reads that file).
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct WeightsFile {
            $($name: f32,)*
        }

        impl From<WeightsFile> for Weights {
            fn from(w: WeightsFile) -> Self {
                Weights { $($name: w.$name,)* }
            }
        }

        impl Weights {
            /// Field names, in the order of [`Weights::to_vec`].
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The weights as a vector, in field order (for optimizers).
            pub fn to_vec(&self) -> Vec<f32> {
                vec![$(self.$name),*]
            }

            /// The inverse of [`Weights::to_vec`].
            pub fn from_slice(v: &[f32]) -> Weights {
                assert_eq!(v.len(), Weights::NAMES.len(), "one value per weight");
                let mut values = v.iter().copied();
                Weights {
                    $($name: values.next().expect("length checked"),)*
                }
            }
        }
    };
}

weights! {
    /// Per filled cell (negative: cells multiply the score of every clear).
    cells,
    /// Per horizontal change filled/empty between neighbouring cells, in the rows from the
    /// highest filled row down.
    row_transitions,
    /// Per empty cell next to a side wall, in the same rows (a change between wall and cell).
    wall_transitions,
    /// Per vertical change filled/empty between neighbouring cells or the floor.
    column_transitions,
    /// Per empty cell with a filled cell somewhere above it in its column.
    holes,
    /// Per row that holds at least one hole.
    hole_rows,
    /// Per hole at most `shallow_depth` rows under its column's top: a fresh hole near the
    /// surface, as opposed to one buried in rows that are kept for their cells.
    shallow_holes,
    /// How many rows under a column's top count for `shallow_holes` (a whole number).
    shallow_depth,
    /// Per open well, `depth * (depth + 1) / 2` (a well cell is empty with both sides filled).
    well_sums,
    /// Per unit of height difference between neighbouring columns.
    bumpiness,
    /// Per row of the tallest column.
    max_height,
    /// Per filled cell in the top `top_rows` rows, where the spawn and its moves need room.
    top_cells,
    /// How many rows from the top `top_cells` counts (a whole number, 0..=20).
    top_rows,
    /// Per row of the placed piece's center height (20 - y).
    landing_height,
    /// Reward (negative) per row of a clean well: a column whose cells are empty down to a stack
    /// of complete-but-one rows, ready for a 4-line clear.
    clean_well,
}

impl Default for Weights {
    fn default() -> Self {
        DEFAULT_WEIGHTS.clone()
    }
}

static DEFAULT_WEIGHTS_JSON: &str = include_str!("../weights/default.json");

static DEFAULT_WEIGHTS: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| {
    // The struct's own `Default` reads this file, so parse with every field zeroed first.
    serde_json::from_str::<WeightsFile>(DEFAULT_WEIGHTS_JSON)
        .expect("weights/default.json is valid")
        .into()
});

impl Weights {
    /// Reads weights from JSON; fields left out keep their defaults, unknown fields are errors.
    pub fn from_json(text: &str) -> Result<Weights, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// The cost of `board`, on which a piece just locked with its center at row `landing_y`.
#[inline]
pub fn evaluate(board: &Board, landing_y: u32, w: &Weights) -> f32 {
    let cols = &board.cols;
    let occupied = board.occupied_rows();
    // Rows from the highest filled row down: empty rows above the stack carry no transitions.
    let stack_rows = if occupied == 0 {
        0
    } else {
        ROW_MASK & !((occupied & occupied.wrapping_neg()) - 1)
    };

    let mut cells = 0u32;
    let mut column_transitions = 0u32;
    let mut holes = 0u32;
    let mut hole_rows = 0u32;
    let mut shallow_holes = 0u32;
    let shallow_depth = w.shallow_depth.clamp(0.0, ROWS as f32) as u32;
    let mut top_cells = 0u32;
    let mut heights = [0u32; COLS];
    let top_rows = (1u32 << (w.top_rows.clamp(0.0, ROWS as f32) as u32)) - 1;
    // Features whose weight is zero are skipped: the flags are loop-invariant, so the branches
    // cost nothing and the default weights save a fifth of the evaluation.
    let want_column_transitions = w.column_transitions != 0.0;
    let want_shallow_holes = w.shallow_holes != 0.0;
    for (x, &c) in cols.iter().enumerate() {
        cells += c.count_ones();
        if want_column_transitions {
            // Row y+1 sits under row y; the floor counts as filled.
            column_transitions += ((c ^ ((c >> 1) | (1 << (ROWS - 1)))) & ROW_MASK).count_ones();
        }
        top_cells += (c & top_rows).count_ones();
        if c != 0 {
            let top = c & c.wrapping_neg();
            let under = ROW_MASK & !(top - 1);
            let h = under & !c;
            holes += h.count_ones();
            hole_rows |= h;
            if want_shallow_holes {
                // Rows top .. top + depth - 1 (widened so the shift cannot overflow).
                let window = (((top as u64) << shallow_depth) - top as u64) as u32;
                shallow_holes += (h & window).count_ones();
            }
            heights[x] = ROWS - c.trailing_zeros();
        }
    }

    let wall_transitions =
        (!cols[0] & stack_rows).count_ones() + (!cols[COLS - 1] & stack_rows).count_ones();
    let mut row_transitions = 0;
    for pair in cols.windows(2) {
        row_transitions += ((pair[0] ^ pair[1]) & stack_rows).count_ones();
    }
    // The remaining shape features are off in many weight sets; skipping them when their weight
    // is zero is a well-predicted branch and saves most of the evaluation's time.
    let mut bumpiness = 0u32;
    let mut max_height = 0u32;
    if w.bumpiness != 0.0 || w.max_height != 0.0 {
        for x in 0..COLS - 1 {
            bumpiness += heights[x].abs_diff(heights[x + 1]);
        }
        max_height = heights.iter().copied().max().unwrap_or(0);
    }
    let mut well_sums = 0u32;
    if w.well_sums != 0.0 {
        for x in 0..COLS {
            let left = if x == 0 { ROW_MASK } else { cols[x - 1] };
            let right = if x + 1 == COLS { ROW_MASK } else { cols[x + 1] };
            let above_top = if cols[x] == 0 {
                ROW_MASK
            } else {
                (cols[x] & cols[x].wrapping_neg()) - 1
            };
            let d = (left & right & above_top).count_ones();
            well_sums += d * (d + 1) / 2;
        }
    }

    // A clean well: the rows directly above the well column's top, counted from there upward,
    // that are complete but for the well column.
    let mut clean_well = 0u32;
    if w.clean_well != 0.0 {
        let full_but = |x: usize| {
            cols.iter()
                .enumerate()
                .fold(ROW_MASK, |a, (i, &c)| if i == x { a & !c } else { a & c })
        };
        for (x, &col) in cols.iter().enumerate() {
            let ready = full_but(x);
            if ready == 0 {
                continue;
            }
            // Count the run of ready rows ending at the column's top (highest bit of the run
            // below the first filled cell).
            let above_top = if col == 0 {
                ROW_MASK
            } else {
                (col & col.wrapping_neg()) - 1
            };
            let run_end = 32 - above_top.leading_zeros(); // rows 0..run_end are above the top
            if run_end == 0 {
                continue;
            }
            let bottom = run_end - 1;
            if ready >> bottom & 1 == 0 {
                continue;
            }
            // Length of the run of ones in `ready` ending at `bottom`, going up.
            let shifted = !(ready << (31 - bottom));
            clean_well = clean_well.max(shifted.leading_zeros().min(4));
        }
    }

    w.cells * cells as f32
        + w.row_transitions * row_transitions as f32
        + w.wall_transitions * wall_transitions as f32
        + w.column_transitions * column_transitions as f32
        + w.holes * holes as f32
        + w.hole_rows * hole_rows.count_ones() as f32
        + w.shallow_holes * shallow_holes as f32
        + w.well_sums * well_sums as f32
        + w.bumpiness * bumpiness as f32
        + w.max_height * max_height as f32
        + w.top_cells * top_cells as f32
        + w.landing_height * (ROWS - landing_y) as f32
        + w.clean_well * clean_well as f32
}
