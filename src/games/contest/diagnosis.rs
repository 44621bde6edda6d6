//! Why a record's clears held fewer cells than the fluid optimum's (`check --stats`): each clear
//! beside the fill of the bound's play at the same piece, and for a clear of 1-3 rows made on
//! fewer cells, a cause read from the board just before its lock, on the plain engine.
//!
//! The fluid model (docs/RULES.md, "The fluid bound") keeps only the count of cells, so its
//! play can stack every row to nine cells up to the top-out; a real stack loses cells to holes,
//! to a top that stops short of the top-out, and to its surface. Each short clear gets the first
//! cause that its board shows, in that order ([`Cause`]); the measures behind it are kept per
//! clear ([`Shape`]) so that another reading of them needs no replay.

use super::replay::Step;
use super::rules::{Field, HEIGHT, WIDTH};
use crate::kit::fluid::FluidLock;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Empty rows above the stack (before the lock) above which its top counts as low. A lock that
/// leaves a cell in every row tops out, so a stack with no empty row inside reaches row 1 at
/// most and has at least one empty row above it: one means it stood as tall as the rules let
/// it, with nowhere to hold more cells but inside its rows.
pub(crate) const LOW_ABOVE: u32 = 1;

/// The bumpiness beside the well above which a surface counts as bumpy: more than one row of
/// step on average between the nine columns beside the well (eight steps), where every step of
/// two rows or more asks for a particular piece to fill it without a hole.
pub(crate) const BUMPY_ABOVE: u32 = 8;

/// The most cells a row holds before a lock: a full row is cleared at the lock that fills it.
const ROW_CELLS: u32 = WIDTH as u32 - 1;

/// The rows of the stack's top whose cells a [`Shape`] keeps.
const TOP_ROWS: usize = 4;

/// A column at least this many rows below both neighbours takes no piece but an I without a
/// hole (a J or an L hooks over a step of two).
const I_ONLY_DEPTH: i32 = 3;

/// Rows an I spans, and so the most it clears.
const I_ROWS: i32 = 4;

/// Why a clear of 1-3 rows held fewer cells than the fluid optimum's at the same piece: the
/// first of these that the board before its lock shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Cause {
    /// The board held a hole (an empty cell under a filled one): a row it is in cannot clear
    /// until the cells above it do, and holds one cell less meanwhile.
    Holes,
    /// More than [`LOW_ABOVE`] empty rows above the stack: it had rows left to fill.
    Low,
    /// A bumpiness beside the well above [`BUMPY_ABOVE`].
    Bumpy,
    /// None of those: a stack with no hole and a smooth surface as tall as the rules let it,
    /// whose top rows still held fewer cells than the model's.
    Surface,
}

impl Cause {
    /// The first cause `shape` shows.
    fn of(shape: &Shape) -> Cause {
        if shape.holes > 0 {
            Cause::Holes
        } else if shape.headroom > LOW_ABOVE {
            Cause::Low
        } else if shape.bumpiness > BUMPY_ABOVE {
            Cause::Bumpy
        } else {
            Cause::Surface
        }
    }
}

/// The board just before a lock, in the measures a [`Cause`] is read from. A column's height is
/// the rows from the floor up to its highest filled cell; the well is the column deepest below
/// the lower of its neighbours (a wall counts as the board's height), of equal ones the
/// leftmost, where any is below both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Shape {
    /// Empty cells under a filled cell of their column.
    pub(crate) holes: u32,
    /// Empty rows above the highest filled cell.
    pub(crate) headroom: u32,
    /// The cells the stack lacks against nine a row from its highest filled row down: what
    /// the fluid model would hold in as many rows, less what the board holds.
    pub(crate) gaps: u32,
    /// The cells of the stack's four highest rows, its top row first.
    pub(crate) top_cells: [u32; TOP_ROWS],
    /// The sum of the height differences between neighbouring columns, with the well's column
    /// left out (its two neighbours taken as neighbours): the surface's roughness apart from
    /// the well a record keeps on purpose.
    pub(crate) bumpiness: u32,
    /// Columns at least three rows below both neighbours: none but an I fills one without a
    /// hole.
    pub(crate) i_only_columns: u32,
    /// The well's depth below the lower of its neighbours (0: no column below both).
    pub(crate) well_depth: u32,
    /// The rows an I dropped upright into the well would clear, 0-4: the well is open to a
    /// clear where this is above 0.
    pub(crate) well_clears: u32,
}

impl Shape {
    /// The measures of `board`.
    pub(crate) fn of(board: &Field) -> Shape {
        let heights: [i32; WIDTH as usize] = std::array::from_fn(|x| {
            (0..HEIGHT)
                .find(|&y| board.filled(x as i32, y))
                .map_or(0, |y| HEIGHT - y)
        });
        let height = |x: i32| {
            if (0..WIDTH).contains(&x) {
                heights[x as usize]
            } else {
                HEIGHT
            }
        };
        let depth = |x: i32| height(x - 1).min(height(x + 1)) - height(x);
        let holes = (0..WIDTH)
            .map(|x| {
                (HEIGHT - height(x)..HEIGHT)
                    .filter(|&y| !board.filled(x, y))
                    .count()
            })
            .sum::<usize>();
        let row_cells = |y: i32| (0..WIDTH).filter(|&x| board.filled(x, y)).count() as u32;
        let headroom = (0..HEIGHT).take_while(|&y| row_cells(y) == 0).count() as i32;
        let stack: u32 = (headroom..HEIGHT).map(row_cells).sum();
        let well = (0..WIDTH)
            .filter(|&x| depth(x) > 0)
            .max_by_key(|&x| (depth(x), -x));
        let beside: Vec<i32> = (0..WIDTH)
            .filter(|&x| Some(x) != well)
            .map(height)
            .collect();
        let bumpiness = beside.windows(2).map(|w| w[0].abs_diff(w[1])).sum();
        Shape {
            holes: holes as u32,
            headroom: headroom as u32,
            gaps: ((HEIGHT - headroom) as u32 * ROW_CELLS).saturating_sub(stack),
            top_cells: std::array::from_fn(|i| row_cells(headroom + i as i32)),
            bumpiness,
            i_only_columns: (0..WIDTH).filter(|&x| depth(x) >= I_ONLY_DEPTH).count() as u32,
            well_depth: well.map_or(0, depth) as u32,
            well_clears: well.map_or(0, |x| i_clears(board, x, HEIGHT - height(x))),
        }
    }
}

/// The rows an upright I dropped into column `x`, whose highest filled cell is in row `floor`
/// (`HEIGHT` for an empty column), would clear: of the four rows above it, those full but for
/// that column.
fn i_clears(board: &Field, x: i32, floor: i32) -> u32 {
    let full_but_x = |y: i32| (0..WIDTH).all(|c| c == x || board.filled(c, y));
    ((floor - I_ROWS).max(0)..floor)
        .filter(|&y| full_but_x(y))
        .count() as u32
}

/// The board of `step` just before its lock: the board with the piece written, less the piece's
/// cells (it locked where they were empty; those above the board were never written).
fn before_lock(step: &Step) -> Field {
    let mut board = step.written.clone();
    for (x, y) in step.piece.cells() {
        if y >= 0 {
            board.set(x, y, false);
        }
    }
    board
}

/// One clear of the record against the fluid optimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ClearCheck {
    /// The piece (from 1) whose lock cleared.
    pub(crate) piece: usize,
    pub(crate) rows: u32,
    /// The cells its score counts: the piece written, the full rows in place.
    pub(crate) filled: u32,
    /// The same count at the same piece's lock in the bound's play (none without a play).
    pub(crate) optimum_filled: Option<u32>,
    #[serde(flatten)]
    pub(crate) shape: Shape,
    /// Why it held fewer cells than the play's, for a clear of 1-3 rows that did; else none.
    pub(crate) cause: Option<Cause>,
}

impl ClearCheck {
    /// How many cells fewer than the bound's play it held (0 where it held as many or more).
    fn short(&self) -> u32 {
        self.optimum_filled
            .map_or(0, |o| o.saturating_sub(self.filled))
    }
}

/// Locks of the record against the bound's play at the same pieces: every lock, or the clears
/// of one size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FillAgainst {
    pub(crate) count: u64,
    /// The record's fill at these locks, summed.
    pub(crate) filled_total: u64,
    /// The play's fill at the same pieces, summed.
    pub(crate) optimum_filled_total: u64,
    /// Those made on fewer cells than the play's.
    pub(crate) fewer: u64,
}

impl FillAgainst {
    fn add(&mut self, filled: u32, optimum: u32) {
        self.count += 1;
        self.filled_total += u64::from(filled);
        self.optimum_filled_total += u64::from(optimum);
        self.fewer += u64::from(filled < optimum);
    }

    /// The mean fills, the record's and the play's.
    fn means(&self) -> (f64, f64) {
        let count = self.count.max(1) as f64;
        (
            self.filled_total as f64 / count,
            self.optimum_filled_total as f64 / count,
        )
    }
}

/// The short clears of one cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CauseCount {
    pub(crate) count: u64,
    /// The cells they fell short of the play's by, summed.
    pub(crate) cells_short_total: u64,
}

impl CauseCount {
    fn add(&mut self, short: u32) {
        self.count += 1;
        self.cells_short_total += u64::from(short);
    }

    fn mean_short(&self) -> f64 {
        self.cells_short_total as f64 / self.count.max(1) as f64
    }
}

/// The short clears of 1-3 rows by [`Cause`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Causes {
    pub(crate) holes: CauseCount,
    pub(crate) low: CauseCount,
    pub(crate) bumpy: CauseCount,
    pub(crate) surface: CauseCount,
}

impl Causes {
    fn of(&mut self, cause: Cause) -> &mut CauseCount {
        match cause {
            Cause::Holes => &mut self.holes,
            Cause::Low => &mut self.low,
            Cause::Bumpy => &mut self.bumpy,
            Cause::Surface => &mut self.surface,
        }
    }

    fn all(&self) -> CauseCount {
        let each = [self.holes, self.low, self.bumpy, self.surface];
        CauseCount {
            count: each.iter().map(|c| c.count).sum(),
            cells_short_total: each.iter().map(|c| c.cells_short_total).sum(),
        }
    }
}

/// Every clear of a record against the bound's play, with the thresholds its causes read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Diagnosis {
    /// [`LOW_ABOVE`] and [`BUMPY_ABOVE`], as the causes were read.
    pub(crate) low_above: u32,
    pub(crate) bumpy_above: u32,
    pub(crate) clears: Vec<ClearCheck>,
    /// Every lock against the play (all zero without a play).
    pub(crate) every_lock: FillAgainst,
    /// Clears of 1, 2, 3 and 4 rows against the play (all zero without one).
    pub(crate) by_rows: [FillAgainst; 4],
    pub(crate) causes: Causes,
    /// The record's fill at each lock, until the play is known.
    #[serde(skip)]
    fills: Vec<u32>,
}

impl Default for Diagnosis {
    fn default() -> Diagnosis {
        Diagnosis {
            low_above: LOW_ABOVE,
            bumpy_above: BUMPY_ABOVE,
            clears: Vec::new(),
            every_lock: FillAgainst::default(),
            by_rows: [FillAgainst::default(); 4],
            causes: Causes::default(),
            fills: Vec::new(),
        }
    }
}

impl Diagnosis {
    /// Adds one locked piece, and for a clear the board it was made on.
    pub(crate) fn observe(&mut self, step: &Step) {
        self.fills.push(step.turn.filled);
        if step.turn.lines == 0 {
            return;
        }
        self.clears.push(ClearCheck {
            piece: step.index + 1,
            rows: step.turn.lines,
            filled: step.turn.filled,
            optimum_filled: None,
            shape: Shape::of(&before_lock(step)),
            cause: None,
        });
    }

    /// Sets each lock against `play`, the bound's play over the record's pieces (one lock a
    /// piece), and the causes of the clears of 1-3 rows that held fewer cells.
    pub(crate) fn against(&mut self, play: &[FluidLock]) {
        for (&filled, optimum) in self.fills.iter().zip(play) {
            self.every_lock.add(filled, optimum.filled);
        }
        for clear in &mut self.clears {
            let Some(optimum) = play.get(clear.piece - 1) else {
                continue;
            };
            clear.optimum_filled = Some(optimum.filled);
            self.by_rows[clear.rows as usize - 1].add(clear.filled, optimum.filled);
            if clear.filled < optimum.filled && clear.rows < 4 {
                let cause = Cause::of(&clear.shape);
                clear.cause = Some(cause);
                self.causes.of(cause).add(clear.short());
            }
        }
    }

    /// The mean of `measure` over the clears a cause was read for.
    fn mean_over_short(&self, measure: impl Fn(&Shape) -> u32) -> f64 {
        let short: Vec<u32> = (self.clears.iter())
            .filter(|c| c.cause.is_some())
            .map(|c| measure(&c.shape))
            .collect();
        f64::from(short.iter().sum::<u32>()) / short.len().max(1) as f64
    }

    /// The line of the fill at every lock and at each size of clear, the record's and the
    /// play's at the same pieces.
    fn fill_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (record, play) = self.every_lock.means();
        let sizes: Vec<String> = (self.by_rows.iter().enumerate().rev())
            .map(|(n, s)| {
                let (record, play) = s.means();
                let (count, fewer) = (s.count, s.fewer);
                format!(
                    "{count} clears of {} {record:.1} / {play:.1} ({fewer} on fewer)",
                    n + 1
                )
            })
            .collect();
        writeln!(
            f,
            "fill against the bound's play at the same pieces (cells at the lock, record / \
             play): every lock {record:.1} / {play:.1}, {}",
            sizes.join(", ")
        )
    }

    /// The lines of the short clears: how many of each cause, and their boards on average.
    fn causes_lines(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.causes;
        let all = c.all();
        let cause = |c: &CauseCount| format!("{} ({:.1} short)", c.count, c.mean_short());
        writeln!(
            f,
            "clears of 1-3 rows on fewer cells than the play's: {}, {:.1} cells short on \
             average; by the board before the lock: holes {}, low (more than {} empty row on \
             top) {}, bumpy (bumpiness above {} beside the well) {}, surface {}",
            all.count,
            all.mean_short(),
            cause(&c.holes),
            self.low_above,
            cause(&c.low),
            self.bumpy_above,
            cause(&c.bumpy),
            cause(&c.surface)
        )?;
        let top: Vec<String> = (0..TOP_ROWS)
            .map(|i| format!("{:.1}", self.mean_over_short(|s| s.top_cells[i])))
            .collect();
        writeln!(
            f,
            "their boards on average: {:.2} holes, {:.2} empty rows on top, {:.1} cells short \
             of nine a row up to the top, the top four rows holding {} cells, bumpiness {:.1} \
             beside the well, a well {:.1} deep that an I clears {:.2} rows in",
            self.mean_over_short(|s| s.holes),
            self.mean_over_short(|s| s.headroom),
            self.mean_over_short(|s| s.gaps),
            top.join(" / "),
            self.mean_over_short(|s| s.bumpiness),
            self.mean_over_short(|s| s.well_depth),
            self.mean_over_short(|s| s.well_clears)
        )
    }
}

impl fmt::Display for Diagnosis {
    /// Nothing without the bound's play; else the fill against the play's, the short clears by
    /// cause, and their boards' measures on average.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.every_lock.count == 0 {
            return Ok(());
        }
        self.fill_line(f)?;
        self.causes_lines(f)
    }
}

#[cfg(test)]
#[path = "diagnosis_tests.rs"]
mod tests;
