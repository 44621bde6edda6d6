//! The evaluation's weights: one per board feature of [`crate::eval`], plus the window sizes
//! some features take. Weights are data: the defaults are compiled in from
//! `weights/default.json` (tuned for points on the contest's rules; the browser game's weights
//! start from them, and every weights file's fields left out keep them), a game's own sets
//! are its own files, and `--weights FILE` replaces them.

use crate::board::ROWS;
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
    /// Per filled cell in the spawn's column (x = 4). An empty column there is a well an I
    /// piece drops into straight from its spawn and a chimney every spawn fits in, so the
    /// rest of the board can fill up to row 1.
    spawn_column,
    /// Per row complete but for the spawn's column (the stock an I piece in the well clears).
    /// With `ready_run`'s weight lower by as much, this is the cost of a ready row an I cannot
    /// reach (`ready_rows - ready_run`: under that column's top, or past a row that is not
    /// ready): a game whose well is plugged over its ready rows goes on clearing triples over
    /// them, and a narrow beam never digs them free (bench/RESULTS.md, "Flips").
    ready_rows,
    /// Per ready row in the run an I dropped into the spawn's column reaches: from the row just
    /// above that column's top, going up, the rows that are complete but for it.
    ready_run,
    /// Per pair of neighbouring columns of equal height (pairs beside the spawn's column left
    /// out: that column is the well, the rest is the surface pieces land on).
    flat_pairs,
    /// Per such pair whose heights differ by one.
    step1_pairs,
    /// Per such pair whose heights differ by three or more.
    step3_pairs,
    /// Added to `ready_rows` at the depths where an I piece is among the next `near_i_pieces`
    /// pieces to come ([`Weights::at_depth`]): ready rows are worth most when an I will clear
    /// them.
    ready_rows_near_i,
    /// How many of the coming pieces `ready_rows_near_i` and `cells_near_i` look at (a whole
    /// number).
    near_i_pieces,
    /// Added to `cells` at the same depths as `ready_rows_near_i`: a cell still on the board
    /// when an I clears four rows scores ten times, so holding cells back from other clears
    /// pays most just before an I. (Points, not survival: the survival fits could not see it.)
    cells_near_i,
}

/// The longest window `near_i_pieces` may name: the pieces of a contest game.
pub const MAX_NEAR_I_PIECES: u32 = 10_000;

/// Why a weights file was refused.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    #[error("{0}")]
    Json(crate::text::JsonError),
    #[error("{field} is {detail}: a weight must be a number from -3.4e38 to 3.4e38")]
    OutOfRange { field: String, detail: String },
    #[error(
        "the weights must be a JSON object of named fields, such as {{\"holes\": 4.0}}, not {0}"
    )]
    NotAnObject(&'static str),
    #[error("{field} must be a finite number, not {value}")]
    NotFinite { field: &'static str, value: f32 },
    #[error("{field} is a window size: a whole number from 0 to {max}, not {value}")]
    BadWindow {
        field: &'static str,
        value: f32,
        max: u32,
    },
}

/// A JSON error, worded for a weight when it is a number too large for any float (`1e999`).
fn json_error(e: crate::text::JsonError) -> WeightsError {
    let path_names_a_field = !e.path.is_empty() && e.path != ".";
    if path_names_a_field && e.inner.to_string().starts_with("number out of range") {
        return WeightsError::OutOfRange {
            detail: format!(
                "out of range (line {}, column {})",
                e.inner.line(),
                e.inner.column()
            ),
            field: e.path,
        };
    }
    WeightsError::Json(e)
}

/// A weight that reads as infinite though its file gives a finite number (`1e300`): too large
/// for the weights' 32-bit floats. Said so, quoting the number, where `inf` would name a
/// value the user never wrote.
fn too_large(e: WeightsError, text: &str) -> WeightsError {
    let WeightsError::NotFinite { field, .. } = &e else {
        return e;
    };
    let text = crate::text::strip_byte_order_mark(text);
    let value: Option<serde_json::Value> = serde_json::from_str(text).ok();
    match value.as_ref().and_then(|v| v.get(*field)?.as_f64()) {
        // In scientific notation, as such a number is written (`1e300`, not 301 digits).
        Some(number) => WeightsError::OutOfRange {
            field: field.to_string(),
            detail: format!("{number:e}, out of range"),
        },
        None => e,
    }
}

impl Default for Weights {
    fn default() -> Self {
        DEFAULT_WEIGHTS.clone()
    }
}

static DEFAULT_WEIGHTS_JSON: &str = include_str!("../../../weights/default.json");

static DEFAULT_WEIGHTS: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| {
    // The struct's own `Default` reads this file, so parse with every field zeroed first.
    serde_json::from_str::<WeightsFile>(DEFAULT_WEIGHTS_JSON)
        .expect("weights/default.json is valid")
        .into()
});

impl Weights {
    /// The fields that are window sizes (whole numbers of rows or pieces), not weights of a
    /// feature.
    pub const WINDOWS: &'static [&'static str] = &["shallow_depth", "top_rows", "near_i_pieces"];

    /// Reads weights from a JSON object of named fields; fields left out keep their defaults.
    /// Refused: anything but an object (an array would assign weights by position, silently
    /// shifted by any change to the list), unknown fields, a weight that is not finite, and a
    /// window size that is not a whole number in its range ([`Weights::window_max`]). A
    /// byte-order mark at the start is skipped; errors name the field.
    pub fn from_json(text: &str) -> Result<Weights, WeightsError> {
        // A text that is not JSON at all gets serde's error, with its line and column.
        if let Some(kind) = crate::text::not_an_object(text) {
            return Err(WeightsError::NotAnObject(kind));
        }
        let weights: Weights = crate::text::from_json(text).map_err(json_error)?;
        weights.validate().map_err(|e| too_large(e, text))?;
        Ok(weights)
    }

    /// The largest value a window size may take, `None` for a weight: a row window cannot
    /// reach past the board; a piece window longer than a contest game is surely a typo (any
    /// window of more than a few dozen pieces already holds an I almost always).
    pub(crate) fn window_max(field: &str) -> Option<u32> {
        match field {
            "shallow_depth" | "top_rows" => Some(ROWS),
            "near_i_pieces" => Some(MAX_NEAR_I_PIECES),
            _ => None,
        }
    }

    /// Checks every weight is finite and every window size a whole number in its range.
    pub(crate) fn validate(&self) -> Result<(), WeightsError> {
        for (&field, value) in Weights::NAMES.iter().zip(self.to_vec()) {
            if !value.is_finite() {
                return Err(WeightsError::NotFinite { field, value });
            }
            if let Some(max) = Weights::window_max(field) {
                if value < 0.0 || value.fract() != 0.0 || value > max as f32 {
                    return Err(WeightsError::BadWindow { field, value, max });
                }
            }
        }
        Ok(())
    }

    /// The window sizes `shallow_depth` and `top_rows` as row counts the features take.
    pub(crate) fn row_windows(&self) -> (u32, u32) {
        let rows = |v: f32| v.clamp(0.0, ROWS as f32) as u32;
        (rows(self.shallow_depth), rows(self.top_rows))
    }

    /// The weights the children of piece number `depth` of `sequence` are ranked with: the
    /// sequence is known, so every state of a depth faces the same coming pieces, and
    /// `ready_rows_near_i` and `cells_near_i` apply while an I piece is among the next
    /// `near_i_pieces` of them.
    pub fn at_depth(&self, sequence: &[crate::piece::Kind], depth: usize) -> Weights {
        let mut w = self.clone();
        let window = self.near_i_pieces.clamp(0.0, 1e6) as usize;
        let mut coming = sequence.iter().skip(depth + 1).take(window);
        if coming.any(|&k| k == crate::piece::Kind::I) {
            w.ready_rows += self.ready_rows_near_i;
            w.cells += self.cells_near_i;
        }
        w
    }
}
