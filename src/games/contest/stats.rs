//! Where a record's points come from (`check --stats`): the clears by size with the cells they
//! were made on, what the I pieces did, points by piece kind and by stretch of the game, and the
//! locks in mid-air, and each clear against the fluid model's optimal play
//! ([`super::diagnosis`]). Built from the plain replay's steps, so it describes exactly what
//! `check` scored.

use super::diagnosis::Diagnosis;
use super::fluid::contest_points;
use crate::games::contest::replay::Step;
use crate::games::contest::rules::Kind;
use crate::kit::fluid::{best_play, best_total, Clears, FluidLock, FluidModel};
use crate::kit::text::grouped;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Pieces per entry of [`Stats::points_per_segment`].
pub(crate) const SEGMENT: usize = 1_000;

/// Clears of one size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ClearStats {
    pub(crate) count: u64,
    pub(crate) points: u64,
    /// Filled cells counted for the score, summed over these clears (the mean is this over
    /// `count`): the score of a clear is this fill times 1, 3, 6 or 10.
    pub(crate) filled_total: u64,
}

impl ClearStats {
    pub(crate) fn mean_filled(&self) -> f64 {
        self.filled_total as f64 / self.count.max(1) as f64
    }
}

/// What the I pieces did: only an I clears four rows, so an I that clears fewer is the
/// largest single loss a record can have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct IPieceStats {
    pub(crate) locked: u64,
    pub(crate) cleared_four: u64,
    pub(crate) cleared_fewer: u64,
    pub(crate) cleared_nothing: u64,
}

/// The breakdown of one replay.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Clears of 1, 2, 3 and 4 rows.
    pub(crate) clears: [ClearStats; 4],
    pub(crate) i_pieces: IPieceStats,
    /// Points by the kind of the piece that made the clear, in the order I L J T O S Z.
    pub(crate) points_by_kind: [u64; 7],
    /// Points scored by pieces 1-1,000, 1,001-2,000, and so on.
    pub(crate) points_per_segment: Vec<u64>,
    /// Pieces that locked where they could still fall (only judge mode accepts them).
    pub(crate) mid_air_locks: u64,
    /// The most cells the board held after a lock (full rows still in place).
    pub(crate) fullest: u32,
    /// The fluid model's bound at `fullest` (see [`Stats::bound`]; none when no play of the
    /// model keeps within it).
    pub(crate) fluid_bound: Option<u64>,
    /// The pieces the bound is over (from the first): those the record covers, since a
    /// partial record is measured against what its own pieces allow.
    #[serde(default)]
    pub(crate) fluid_bound_pieces: usize,
    /// The clears of one play of the model that scores the bound, of 1, 2, 3 and 4 rows,
    /// beside the record's [`Stats::clears`]: where the record's points fall short of it.
    #[serde(default)]
    pub(crate) bound_play: Option<[ClearStats; 4]>,
    /// The bound when every clear goes through a well one column wide ([`Clears::OneWell`]:
    /// T, S and Z clear two rows at most), over the same pieces at the same fill: what a
    /// stack of the records' shape can score at most, and the clears of one play that scores
    /// it.
    #[serde(default)]
    pub(crate) one_well_bound: Option<u64>,
    /// The clears of one play that scores [`Stats::one_well_bound`], as in
    /// [`Stats::bound_play`].
    #[serde(default)]
    pub(crate) one_well_play: Option<[ClearStats; 4]>,
    /// Each clear against the same piece's lock in that play, and why those of 1-3 rows that
    /// held fewer cells did.
    #[serde(default)]
    pub(crate) diagnosis: Diagnosis,
}

impl Stats {
    /// Adds one locked piece.
    pub fn observe(&mut self, step: &Step) {
        let turn = &step.turn;
        if turn.lines > 0 {
            let c = &mut self.clears[turn.lines as usize - 1];
            c.count += 1;
            c.points += turn.score;
            c.filled_total += turn.filled as u64;
        }
        self.points_by_kind[step.piece.kind.index()] += turn.score;
        let segment = step.index / SEGMENT;
        if self.points_per_segment.len() <= segment {
            self.points_per_segment.resize(segment + 1, 0);
        }
        self.points_per_segment[segment] += turn.score;
        if step.piece.kind == Kind::I {
            let i = &mut self.i_pieces;
            i.locked += 1;
            match turn.lines {
                0 => i.cleared_nothing += 1,
                4 => i.cleared_four += 1,
                _ => i.cleared_fewer += 1,
            }
        }
        if !step.resting {
            self.mid_air_locks += 1;
        }
        self.diagnosis.observe(step);
        if turn.game_over.is_none() {
            self.fullest = self.fullest.max(turn.filled);
        }
    }

    /// Sets [`Stats::fluid_bound`]: the most points the fluid model of `sequence` allows
    /// ([`crate::kit::fluid`]) when the board never holds more than `fullest` cells after a
    /// lock, of which the first `scoring` pieces score. No record of this sequence that keeps
    /// within that fill scores more: a real clear of `k` rows needs `10 k` cells and a piece
    /// that spans `k` rows, which is all the model asks.
    ///
    /// Sets [`Stats::one_well_bound`] and [`Stats::one_well_play`] too.
    ///
    /// Returns the play behind [`Stats::bound_play`], each piece's lock, for the page's chart of
    /// the fill at each lock.
    pub(crate) fn bound(&mut self, sequence: &[Kind], scoring: usize) -> Option<Vec<FluidLock>> {
        let model = FluidModel::bound(self.fullest);
        let points = contest_points(scoring);
        // The one well's play first, and only its clears kept: a search's memory estimate
        // counts one play at a time.
        let one_well = FluidModel {
            clears: Clears::OneWell,
            ..model
        };
        self.one_well_bound = best_total(sequence, one_well, &points).map(|b| b as u64);
        let play = best_play(sequence, one_well, &points);
        self.one_well_play = play.as_deref().map(|play| clears_of(play, &points));
        drop(play);
        let best = best_total(sequence, model, &points);
        self.fluid_bound = best.map(|b| b as u64);
        self.fluid_bound_pieces = sequence.len();
        let play = best_play(sequence, model, &points);
        self.bound_play = play.as_deref().map(|play| clears_of(play, &points));
        if let Some(play) = &play {
            self.diagnosis.against(play);
        }
        play
    }

    /// Points in all, the sum of every clear's.
    pub(crate) fn points(&self) -> u64 {
        self.clears.iter().map(|c| c.points).sum()
    }
}

/// The clears of `play`, one play of the fluid model that scores its bound (of equal choices,
/// the fewest rows), with the fill each was made on and the `points` it scored.
fn clears_of(play: &[FluidLock], points: impl Fn(usize, u32, u32) -> f64) -> [ClearStats; 4] {
    let mut clears = [ClearStats::default(); 4];
    for (t, lock) in play.iter().enumerate().filter(|(_, lock)| lock.rows > 0) {
        let c = &mut clears[lock.rows as usize - 1];
        c.count += 1;
        c.points += points(t, lock.filled, lock.rows) as u64;
        c.filled_total += u64::from(lock.filled);
    }
    clears
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.points().max(1) as f64;
        for (n, c) in self.clears.iter().enumerate() {
            writeln!(
                f,
                "clears of {}: {} for {} points ({:.1}%), {:.1} filled cells on average",
                n + 1,
                c.count,
                grouped(c.points),
                100.0 * c.points as f64 / total,
                c.mean_filled()
            )?;
        }
        let i = &self.i_pieces;
        writeln!(
            f,
            "I pieces: {} locked, {} cleared four rows, {} fewer, {} nothing",
            i.locked, i.cleared_four, i.cleared_fewer, i.cleared_nothing
        )?;
        let kinds: Vec<String> = Kind::ALL
            .iter()
            .map(|k| format!("{} {}", k.letter(), grouped(self.points_by_kind[k.index()])))
            .collect();
        writeln!(f, "points by kind: {}", kinds.join(", "))?;
        let segments: Vec<String> = self
            .points_per_segment
            .iter()
            .map(|&p| grouped(p))
            .collect();
        writeln!(
            f,
            "points per {} pieces: {}",
            grouped(SEGMENT as u64),
            segments.join(" / ")
        )?;
        writeln!(f, "locks in mid-air: {}", self.mid_air_locks)?;
        if let Some(bound) = self.fluid_bound {
            writeln!(
                f,
                "fluid bound over pieces 1-{} at the fullest board ({} cells after a lock): {} \
                 ({:.1}% scored)",
                grouped(self.fluid_bound_pieces as u64),
                self.fullest,
                grouped(bound),
                100.0 * self.points() as f64 / bound.max(1) as f64
            )?;
        }
        if let Some(clears) = &self.bound_play {
            writeln!(f, "the bound's play clears: {}", clear_sizes(clears))?;
        }
        if let Some(bound) = self.one_well_bound {
            writeln!(
                f,
                "fluid bound through a well one column wide (an I clears up to 4 rows, an L or \
                 a J 3, the others 2): {} ({:.1}% scored)",
                grouped(bound),
                100.0 * self.points() as f64 / bound.max(1) as f64
            )?;
        }
        if let Some(clears) = &self.one_well_play {
            writeln!(f, "that play clears: {}", clear_sizes(clears))?;
        }
        write!(f, "{}", self.diagnosis)
    }
}

/// A play's clears by size, fours first: "549 of 4 on 165.3 cells, ...".
fn clear_sizes(clears: &[ClearStats; 4]) -> String {
    let sizes: Vec<String> = (clears.iter().enumerate().rev())
        .map(|(n, c)| format!("{} of {} on {:.1} cells", c.count, n + 1, c.mean_filled()))
        .collect();
    sizes.join(", ")
}
