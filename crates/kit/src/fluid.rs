//! The fluid model of a fill-scored game: the best points still to come from each piece of a
//! known sequence, as a function of how many cells the board holds, with the board's geometry
//! left out.
//!
//! In the model the board holds `f` cells; a piece adds four; the lock may clear `k` rows when
//! the board then holds at least `10 k` cells and the piece's kind can span `k` rows (four for
//! an I, two for an O, three for the others); after the lock the board may not hold more than
//! a cap. A clear of `k` rows scores what the game's points give for the fill after the lock.
//! Dynamic programming over (piece, fill) gives the best total the model allows from piece `t`
//! with `f` cells, exactly, in one backward pass over the sequence.
//!
//! Every real play that keeps within the cap is a play of the model, so [`best_total`] bounds
//! what any record of the sequence can score (`check --stats`; `docs/RULES.md`, "The fluid
//! bound"). [`FillValues`] keeps the whole table for a search's key ([`FillPlan`]): how much
//! the model prices a cell at each piece, which a key of board features and a few pieces ahead
//! cannot see.

use crate::piece::Kind;
use serde::{Deserialize, Serialize};

/// Cells a piece adds.
const PIECE_CELLS: u32 = 4;
/// Cells in a full row.
const ROW_CELLS: u32 = 10;
/// The most cells a board of 20 rows of 10 holds.
const BOARD_CELLS: usize = 200;

/// The rows a piece may clear at once in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clears {
    /// The rows its cells span: four for an I, two for an O, three for the others. Every real
    /// clear is one of these, so the model bounds every play.
    Spanned,
    /// What a stack full but for a well one column wide takes: an I four rows, an L or a J
    /// three (hanging by its foot on the column beside the well), the others two. Not a bound
    /// on every play (a T, S or Z can clear three rows on other stacks), but on the plays of
    /// such a stack, which are the records'.
    OneWell,
}

impl Clears {
    /// The most rows a piece of `kind` clears at once.
    pub(crate) fn max_rows(self, kind: Kind) -> u32 {
        match (self, kind) {
            (_, Kind::I) => 4,
            (_, Kind::O) | (Clears::OneWell, Kind::T | Kind::S | Kind::Z) => 2,
            _ => 3,
        }
    }
}

/// What the model may do: the fill a board may hold after a lock, a discount that weighs the
/// points of the piece `d` turns ahead by `discount^d` (1 counts every piece alike), and the
/// rows a piece may clear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FluidModel {
    pub cap: u32,
    pub discount: f64,
    pub clears: Clears,
}

impl FluidModel {
    /// The model that bounds every play within `cap` cells: no discount, every clear a piece
    /// spans.
    pub fn bound(cap: u32) -> FluidModel {
        FluidModel {
            cap,
            discount: 1.0,
            clears: Clears::Spanned,
        }
    }
}

/// One step of the backward pass: `V(t, 0..=cap)` into `row` from `V(t + 1, ..)` in `next`,
/// for piece `t` of `kind`, where clearing `k` rows with `c` cells after the lock scores
/// `points(t, c, k)`. `NEG_INFINITY` where no play keeps within the cap. Where `rows` is
/// given, it gets the rows of the best choice at each fill (of equal ones, the fewest).
fn step(
    t: usize,
    kind: Kind,
    model: FluidModel,
    points: &impl Fn(usize, u32, u32) -> f64,
    next: &[f64],
    row: &mut [f64],
    mut rows: Option<&mut [u8]>,
) {
    for (f, value) in row.iter_mut().enumerate() {
        let locked = f as u32 + PIECE_CELLS;
        *value = f64::NEG_INFINITY;
        if locked > model.cap {
            continue;
        }
        for k in 0..=model.clears.max_rows(kind).min(locked / ROW_CELLS) {
            let after = (locked - k * ROW_CELLS) as usize;
            let v = points(t, locked, k) + model.discount * next[after];
            if v > *value {
                *value = v;
                if let Some(rows) = rows.as_deref_mut() {
                    rows[f] = k as u8;
                }
            }
        }
    }
}

/// The most the model allows over `sequence` from an empty board (`V(0, 0)`), in exact
/// arithmetic for whole points below 2^53; `None` when no play keeps within the cap.
pub fn best_total(
    sequence: &[Kind],
    model: FluidModel,
    points: impl Fn(usize, u32, u32) -> f64,
) -> Option<f64> {
    let width = model.cap as usize + 1;
    let mut next = vec![0.0; width];
    let mut row = vec![0.0; width];
    for (t, &kind) in sequence.iter().enumerate().rev() {
        step(t, kind, model, &points, &next, &mut row, None);
        std::mem::swap(&mut next, &mut row);
    }
    Some(next[0]).filter(|v| v.is_finite())
}

/// One piece of the model's play: the cells on the board after its lock, and the rows it
/// clears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FluidLock {
    pub filled: u32,
    pub rows: u32,
}

/// Bytes [`best_play`] holds for `pieces` pieces at the most, whatever the cap (for memory
/// estimates).
pub fn best_play_bytes(pieces: usize) -> usize {
    pieces * (BOARD_CELLS + 1)
}

/// The play behind [`best_total`]: each piece's lock along one best path of the model from an
/// empty board (of equal choices, the fewest rows); `None` when no play keeps within the cap.
/// Holds the best choice at every piece and fill while it runs, cap + 1 bytes a piece.
pub fn best_play(
    sequence: &[Kind],
    model: FluidModel,
    points: impl Fn(usize, u32, u32) -> f64,
) -> Option<Vec<FluidLock>> {
    let width = model.cap as usize + 1;
    let mut choices = vec![0u8; sequence.len() * width];
    let mut next = vec![0.0; width];
    let mut row = vec![0.0; width];
    for (t, &kind) in sequence.iter().enumerate().rev() {
        let rows = &mut choices[t * width..(t + 1) * width];
        step(t, kind, model, &points, &next, &mut row, Some(rows));
        std::mem::swap(&mut next, &mut row);
    }
    if !next[0].is_finite() {
        return None;
    }
    let mut filled = 0;
    let play = (0..sequence.len()).map(|t| {
        let rows = u32::from(choices[t * width + filled as usize]);
        let locked = filled + PIECE_CELLS;
        filled = locked - rows * ROW_CELLS;
        FluidLock {
            filled: locked,
            rows,
        }
    });
    Some(play.collect())
}

/// The table `V(t, f)` for `t` from 0 to the sequence's length and `f` from 0 to the cap, kept
/// in single precision (a byte budget of 4 (cap + 1) per piece; the search only compares its
/// entries within a depth).
#[derive(Clone, Debug)]
pub struct FillValues {
    cap: u32,
    /// Row `t` holds `V(t, 0..=cap)`; `NEG_INFINITY` where no play keeps within the cap.
    values: Vec<f32>,
}

impl FillValues {
    /// The table of `model` over `sequence`, where the lock of piece `t` clearing `k` rows with
    /// `c` cells on the board after the lock scores `points(t, c, k)`.
    pub fn new(
        sequence: &[Kind],
        model: FluidModel,
        points: impl Fn(usize, u32, u32) -> f64,
    ) -> FillValues {
        let width = model.cap as usize + 1;
        let mut values = vec![0.0f32; (sequence.len() + 1) * width];
        let mut next = vec![0.0; width];
        let mut row = vec![0.0; width];
        for (t, &kind) in sequence.iter().enumerate().rev() {
            step(t, kind, model, &points, &next, &mut row, None);
            for (stored, &v) in values[t * width..(t + 1) * width].iter_mut().zip(&row) {
                *stored = v as f32;
            }
            std::mem::swap(&mut next, &mut row);
        }
        FillValues {
            cap: model.cap,
            values,
        }
    }

    /// Bytes [`FillValues::new`] holds for `pieces` pieces at `cap` (for memory estimates).
    pub fn bytes(pieces: usize, cap: u32) -> usize {
        (pieces + 1) * (cap as usize + 1) * std::mem::size_of::<f32>()
    }

    /// The pieces the table covers.
    pub(crate) fn len(&self) -> usize {
        self.values.len() / self.width() - 1
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn cap(&self) -> u32 {
        self.cap
    }

    fn width(&self) -> usize {
        self.cap as usize + 1
    }

    /// `V(t, f)`, the best points from piece `t` on with `f` cells (`NEG_INFINITY` when the
    /// cap leaves no play: more than `cap - 4` cells before a piece; `t` at most `len()`).
    pub fn value(&self, t: usize, f: u32) -> f64 {
        if f > self.cap {
            return f64::NEG_INFINITY;
        }
        f64::from(self.values[t * self.width() + f as usize])
    }

    /// The slope of `V` in the fill, averaged over the pieces: from 60 cells to the fullest
    /// board the cap allows (points per cell; 0 when the cap leaves no such range).
    pub(crate) fn mean_slope(&self) -> f64 {
        const LOW: u32 = 60;
        let high = self.cap.saturating_sub(PIECE_CELLS) & !1;
        if high <= LOW || self.is_empty() {
            return 0.0;
        }
        // Summed as they come: a vector of the slopes would take 8 bytes a piece beside the
        // table, more than the table's own memory estimate counts.
        let (sum, count) = (0..self.len())
            .map(|t| (self.value(t, high) - self.value(t, LOW)) / f64::from(high - LOW))
            .filter(|s| s.is_finite())
            .fold((0.0, 0usize), |(sum, count), s| (sum + s, count + 1));
        if count == 0 {
            0.0
        } else {
            sum / count as f64
        }
    }
}

/// A term of a search's key from the fluid model (a [`crate::policy::Policy`] field):
/// each child pays `-weight * score_weight * (V(t, f) - s f)`, `f` its cells, `t` the next
/// piece, `V` the model's (discounted) points still to come, and `s` the mean slope of `V` over
/// the pieces. The evaluation's `cells` weight already pays a cell its average price; the term
/// adds how the model's price at this piece differs from it: more before the sequence's runs
/// of clears, less before its droughts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FillPlan {
    /// The model's most cells after a lock.
    pub cap: u32,
    /// The term's weight.
    pub weight: f64,
    /// The model's discount per piece ([`FluidModel::discount`]).
    #[serde(default = "one")]
    pub discount: f64,
}

fn one() -> f64 {
    1.0
}

impl FillPlan {
    /// Refuses plans no search can use.
    pub(crate) fn check(&self) -> Result<(), String> {
        if !(8..=BOARD_CELLS as u32).contains(&self.cap) {
            return Err(format!(
                "fill_plan.cap is the most cells after a lock: from 8 to 200, not {}",
                self.cap
            ));
        }
        if !self.weight.is_finite() {
            return Err(format!(
                "fill_plan.weight must be a finite number, not {}",
                self.weight
            ));
        }
        if !(self.discount > 0.0 && self.discount <= 1.0) {
            return Err(format!(
                "fill_plan.discount must be above 0 and at most 1, not {}",
                self.discount
            ));
        }
        Ok(())
    }
}

/// A [`FillPlan`] over one sequence: the term of every depth's children.
pub struct FillCosts {
    weight: f64,
    values: FillValues,
    /// The mean over the pieces of the slope of `V` in the fill (points per cell).
    slope: f64,
}

impl FillCosts {
    /// `plan` over `sequence`, where the lock of piece `t` clearing `k` rows with `c` cells on
    /// the board after the lock scores `points(t, c, k)` (the game's points).
    pub fn new(
        plan: &FillPlan,
        sequence: &[Kind],
        points: impl Fn(usize, u32, u32) -> f64,
    ) -> FillCosts {
        let model = FluidModel {
            cap: plan.cap,
            discount: plan.discount,
            clears: Clears::Spanned,
        };
        let values = FillValues::new(sequence, model, points);
        let slope = values.mean_slope();
        FillCosts {
            weight: plan.weight,
            values,
            slope,
        }
    }

    /// The term for every cell count from 0 to 200 of a board before piece `t` (the children
    /// of depth `t - 1`), under the key's `score_weight`. Costs are relative to the empty board:
    /// only their differences within a depth rank children. A board fuller than the model
    /// allows counts as the model's fullest with a play.
    pub fn costs(&self, t: usize, score_weight: f64) -> Vec<f64> {
        let t = t.min(self.values.len());
        let fullest = self.values.cap().saturating_sub(PIECE_CELLS);
        let value = |f: u32| self.values.value(t, f.min(fullest));
        let scale = -self.weight * score_weight;
        let base = value(0);
        (0..=BOARD_CELLS as u32)
            .map(|f| {
                let v = value(f);
                if v.is_finite() && base.is_finite() {
                    scale * (v - base - self.slope * f64::from(f))
                } else {
                    0.0
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{generate, Distribution};

    fn model(cap: u32) -> FluidModel {
        FluidModel::bound(cap)
    }

    fn one_well(cap: u32) -> FluidModel {
        FluidModel {
            clears: Clears::OneWell,
            ..FluidModel::bound(cap)
        }
    }

    /// Points of a fill-scored game for the tests: a clear of `k` rows scores the fill after
    /// the lock times `k * k`, and only the first `scoring` pieces score (any points function
    /// serves: the tests hold the bound against a brute force of the same one).
    fn points(scoring: usize) -> impl Fn(usize, u32, u32) -> f64 {
        move |t, cells, k| match t < scoring {
            true => f64::from(cells * k * k),
            false => 0.0,
        }
    }

    /// The best total over every choice of rows at every piece, by trying them all.
    fn exhaustive(
        sequence: &[Kind],
        t: usize,
        f: u32,
        model: FluidModel,
        points: &dyn Fn(usize, u32, u32) -> f64,
    ) -> f64 {
        let Some(&kind) = sequence.get(t) else {
            return 0.0;
        };
        let locked = f + PIECE_CELLS;
        if locked > model.cap {
            return f64::NEG_INFINITY;
        }
        // The rows each kind clears, spelled out apart from `Clears::max_rows`.
        let rows = match (model.clears, kind) {
            (_, Kind::I) => 4,
            (Clears::Spanned, Kind::L | Kind::J | Kind::T | Kind::S | Kind::Z) => 3,
            (Clears::OneWell, Kind::L | Kind::J) => 3,
            _ => 2,
        };
        (0..=rows.min(locked / ROW_CELLS))
            .map(|k| {
                points(t, locked, k)
                    + exhaustive(sequence, t + 1, locked - k * ROW_CELLS, model, points)
            })
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// On short sequences every entry of the table is the best of every sequence of choices
    /// from there, and a cap that leaves no play gives no bound.
    #[test]
    fn the_table_is_the_best_of_every_play() {
        // The last two pieces score nothing, as past a piece limit.
        let points = points(10);
        for seed in 0..20 {
            let sequence = generate(Distribution::Uniform, seed, 12);
            for (cap, model) in [20, 30, 44, 60]
                .into_iter()
                .flat_map(|cap| [(cap, model(cap)), (cap, one_well(cap))])
            {
                let table = FillValues::new(&sequence, model, &points);
                for t in [0, 5, 11, 12] {
                    for f in (0..=cap).step_by(2) {
                        let best = exhaustive(&sequence, t, f, model, &points);
                        assert_eq!(
                            table.value(t, f),
                            best,
                            "seed {seed}, {model:?}, t {t}, f {f}"
                        );
                    }
                }
                let bound = best_total(&sequence, model, &points);
                assert_eq!(bound, Some(table.value(0, 0)).filter(|v| v.is_finite()));
                // The play scores the bound, each lock within the cap.
                let play = best_play(&sequence, model, &points);
                let scored = play.as_ref().map(|play| {
                    assert!(play.iter().all(|lock| lock.filled <= cap), "cap {cap}");
                    let locks = play.iter().enumerate();
                    locks
                        .map(|(t, lock)| points(t, lock.filled, lock.rows))
                        .sum::<f64>()
                });
                assert_eq!(scored, bound, "seed {seed}, {model:?}");
            }
        }
        assert_eq!(best_total(&[Kind::O; 3], model(8), &points), None);
        assert_eq!(best_play(&[Kind::O; 3], model(8), &points), None);
        assert_eq!(best_total(&[Kind::O; 2], model(8), &points), Some(0.0));
    }

    /// Through one well a T, S or Z clears two rows at most, so the model allows no more than
    /// with every clear a piece spans, and less on a sequence of S and Z pieces only, whose
    /// triples the spanned model counts (32 cells at the last lock: three rows or two).
    #[test]
    fn one_well_allows_less_than_every_span() {
        let points = points(100);
        for seed in 0..20 {
            let sequence = generate(Distribution::Uniform, seed, 30);
            for cap in [30, 44, 60, 90] {
                let spanned = best_total(&sequence, model(cap), &points);
                let well = best_total(&sequence, one_well(cap), &points);
                assert!(
                    well.unwrap_or(f64::NEG_INFINITY) <= spanned.unwrap_or(f64::NEG_INFINITY),
                    "seed {seed}, cap {cap}: {well:?} against {spanned:?}"
                );
            }
        }
        let sequence = [
            Kind::S,
            Kind::S,
            Kind::S,
            Kind::Z,
            Kind::S,
            Kind::S,
            Kind::S,
            Kind::Z,
        ];
        let spanned = best_total(&sequence, model(40), &points).unwrap();
        let well = best_total(&sequence, one_well(40), &points).unwrap();
        assert!(well < spanned, "{well} against {spanned}");
    }
}
