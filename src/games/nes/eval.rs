//! The NES evaluation: a stack built for four-line clears into a well on the right.
//!
//! A four-line clear is worth 7.5 times more per line than a single, so the evaluation keeps
//! column 9 open, the other nine columns flat and free of holes, and the stack low enough for
//! an I piece to reach the well at the speeds of levels 18 to 28. It costs in points, so the
//! beam's key `cost - score` weighs a hole against the points it would take to clear it.

use serde::{Deserialize, Serialize};

/// The field as ten-bit rows, row 0 at the top (bit c: column c filled).
pub(crate) type Rows = [u16; 20];

/// A full row.
pub(crate) const FULL: u16 = 0x3FF;
/// The well column's bit.
const WELL: u16 = 1 << 9;

/// Defines [`Weights`] and what lists its fields (the shipped file's form, the names, the
/// values in order) from one list, so they cannot drift apart.
macro_rules! nes_weights {
    ($($(#[doc = $doc:literal])* $name:ident,)*) => {
        /// The evaluation's weights, in points (`weights/nes-tetris.json` holds the product's,
        /// the default of every field).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Weights {
            $($(#[doc = $doc])* pub $name: f64,)*
        }

        /// The shipped file's form, every field required: the struct's own `Default` reads
        /// that file, so it cannot be read with the struct's defaults.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct WeightsFile {
            $($name: f64,)*
        }

        impl From<WeightsFile> for Weights {
            fn from(w: WeightsFile) -> Self {
                Weights { $($name: w.$name,)* }
            }
        }

        impl Weights {
            /// Field names, in the order of the file the solver ships.
            pub(crate) const NAMES: &'static [&'static str] = &[$(stringify!($name),)*];

            /// The weights in the order of [`Weights::NAMES`].
            fn values(&self) -> Vec<f64> {
                vec![$(self.$name,)*]
            }
        }
    };
}

nes_weights! {
    /// Per empty cell with a filled cell above it in its column.
    hole,
    /// Per row that holds a hole.
    hole_row,
    /// Per unit of height difference between neighbouring columns 0..=8.
    bumpiness,
    /// Per filled cell in the well column.
    well_cell,
    /// Per row ready for a four-line clear (columns 0..=8 full, the well empty), up to four
    /// (a reward: negative).
    ready_row,
    /// Per square of height above `safe_height` of the tallest of columns 0..=8.
    height_squared,
    /// The height the stack may reach at no cost.
    safe_height,
    /// Per column of 0..=8 that only an I piece can fill (three or more below both
    /// neighbours).
    i_dependency,
    /// Per unit of summed height of columns 0..=8.
    height,
}

impl Weights {
    /// Reads weights from a JSON object of named fields; fields left out keep the shipped
    /// values (a byte-order mark at the start skipped). Refused, naming the field where there
    /// is one: anything but an object (an array would assign weights by position), unknown
    /// fields, and a value that is not a finite number.
    pub(crate) fn from_json(text: &str) -> Result<Weights, String> {
        if let Some(kind) = crate::kit::text::not_an_object(text) {
            return Err(format!(
                "NES weights are a JSON object of named fields, such as {{\"hole\": 400.0, ...}}, not {kind}"
            ));
        }
        let weights: Weights = crate::kit::text::from_json(text).map_err(|e| e.to_string())?;
        for (field, value) in Weights::NAMES.iter().zip(weights.values()) {
            if !value.is_finite() {
                return Err(format!("{field} must be a finite number, not {value}"));
            }
        }
        Ok(weights)
    }
}

impl Default for Weights {
    fn default() -> Self {
        serde_json::from_str::<WeightsFile>(include_str!("../../../weights/nes-tetris.json"))
            .expect("weights/nes-tetris.json holds every NES weight")
            .into()
    }
}

/// Column heights (0: empty) of a field.
pub(crate) fn heights(rows: &Rows) -> [i32; 10] {
    let mut h = [0i32; 10];
    for (c, hc) in h.iter_mut().enumerate() {
        if let Some(top) = rows.iter().position(|r| r & (1 << c) != 0) {
            *hc = 20 - top as i32;
        }
    }
    h
}

/// The cost of a field (lower is better).
pub(crate) fn cost(rows: &Rows, w: &Weights) -> f64 {
    let h = heights(rows);
    let mut holes = 0u32;
    let mut hole_rows = 0u32;
    let mut covered: u16 = 0;
    for &r in rows.iter() {
        let row_holes = covered & !r;
        if row_holes != 0 {
            holes += row_holes.count_ones();
            hole_rows += 1;
        }
        covered |= r;
    }
    let bump: i32 = (0..8).map(|c| (h[c] - h[c + 1]).abs()).sum();
    let well_cells = rows.iter().filter(|&&r| r & WELL != 0).count() as f64;
    let ready = rows.iter().filter(|&&r| r == FULL & !WELL).count().min(4) as f64;
    let tallest = h[..9].iter().copied().max().unwrap_or(0) as f64;
    let over = (tallest - w.safe_height).max(0.0);
    let mut i_dep = 0u32;
    for c in 0..9 {
        let left = if c == 0 { 20 } else { h[c - 1] };
        let right = h[c + 1];
        let right = if c == 8 { 20 } else { right };
        if left.min(right) - h[c] >= 3 {
            i_dep += 1;
        }
    }
    let total: i32 = h[..9].iter().sum();
    w.hole * holes as f64
        + w.hole_row * hole_rows as f64
        + w.bumpiness * bump as f64
        + w.well_cell * well_cells
        + w.ready_row * ready
        + w.height_squared * over * over
        + w.i_dependency * i_dep.saturating_sub(0) as f64
        + w.height * total as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        Weights::from_json(text).unwrap_err()
    }

    #[test]
    fn weights_are_an_object_of_known_fields_as_finite_numbers_the_rest_shipped() {
        let shipped = include_str!("../../../weights/nes-tetris.json");
        assert_eq!(Weights::from_json(shipped), Ok(Weights::default()));
        let with_mark = format!("\u{feff}{shipped}");
        assert_eq!(Weights::from_json(&with_mark), Ok(Weights::default()));
        let value = serde_json::to_value(Weights::default()).unwrap();
        let names: Vec<&String> = value.as_object().unwrap().keys().collect();
        let mut sorted = Weights::NAMES.to_vec();
        sorted.sort_unstable();
        assert_eq!(names, sorted, "NAMES lists every field");

        assert!(refused("[1.0, 2.0]").ends_with("not an array"));
        let with = |field: &str, value: &str| {
            let mut v = serde_json::to_value(Weights::default()).unwrap();
            v[field] = serde_json::Value::Null;
            v.to_string().replace(
                &format!("\"{field}\":null"),
                &format!("\"{field}\":{value}"),
            )
        };
        assert!(refused(&with("hole", "1e999")).starts_with("hole: number out of range"));
        assert!(refused(&with("bumpiness", "\"x\"")).starts_with("bumpiness: invalid type"));
        let mut extra = serde_json::to_value(Weights::default()).unwrap();
        extra["holes"] = 1.into();
        assert!(refused(&extra.to_string()).contains("unknown field `holes`"));
        assert_eq!(Weights::from_json("{}"), Ok(Weights::default()));
        let some = Weights::from_json(r#"{"hole": 1.5}"#).unwrap();
        assert_eq!(
            some,
            Weights {
                hole: 1.5,
                ..Weights::default()
            }
        );
    }
}
