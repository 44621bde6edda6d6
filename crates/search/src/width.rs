//! The beam's width along a search: one width throughout, a schedule of changes, or a wall-clock
//! budget that re-chooses the width as the search goes.
//!
//! A budget is what a user with a deadline wants ("the best record in 15 minutes on this
//! machine"): the time per expanded state differs from machine to machine and from hour to hour,
//! so no fixed width fits a deadline everywhere. A budgeted search is not repeatable (it depends
//! on the clock), but the widths it chose are reported as a schedule, and the same schedule
//! given back without the budget replays the same record exactly.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;
use thiserror::Error;

/// Width changes: from depth `depth` (0-based: the selection after piece `depth + 1` is placed)
/// on, the beam keeps `width` states. Sorted by depth, at most one change per depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule(pub Vec<(usize, usize)>);

/// Why a schedule's text was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ScheduleError {
    #[error("width change {0:?} is not DEPTH:WIDTH (e.g. 50:180000)")]
    Syntax(String),
    #[error("width change {0:?}: the width must be at least 1")]
    ZeroWidth(String),
    #[error("width change {0:?}: depths must increase from one change to the next")]
    Order(String),
}

impl FromStr for Schedule {
    type Err = ScheduleError;

    /// Reads `DEPTH:WIDTH,DEPTH:WIDTH,...` (as [`Schedule`]'s `Display` writes it).
    fn from_str(text: &str) -> Result<Schedule, ScheduleError> {
        let mut changes: Vec<(usize, usize)> = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let syntax = || ScheduleError::Syntax(part.to_string());
            let (depth, width) = part.split_once(':').ok_or_else(syntax)?;
            let depth: usize = depth.trim().parse().map_err(|_| syntax())?;
            let width: usize = width.trim().parse().map_err(|_| syntax())?;
            if width == 0 {
                return Err(ScheduleError::ZeroWidth(part.to_string()));
            }
            if changes.last().is_some_and(|&(d, _)| d >= depth) {
                return Err(ScheduleError::Order(part.to_string()));
            }
            changes.push((depth, width));
        }
        Ok(Schedule(changes))
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (depth, width)) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep}{depth}:{width}")?;
        }
        Ok(())
    }
}

/// A wall-clock budget for a whole search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeBudget {
    /// Seconds from the start of the search to its end, with a reserve for building and
    /// checking the record left out of it ([`TimeBudget::search_seconds`]).
    pub seconds: f64,
    /// The widest beam the budget may choose (memory grows by about 1 KB per state).
    pub max_width: usize,
}

/// Depths the first width (the probe) runs before the budget first re-chooses it, and then
/// depths between re-choices: often enough to follow a host whose speed drifts, rarely enough
/// that each measurement spans seconds. A segment that runs late is cut short sooner
/// ([`LATE_SHARE`]).
pub(crate) const PROBE_DEPTHS: usize = 50;
pub(crate) const SEGMENT_DEPTHS: usize = 250;

/// Depths left out of the probe's measurement: the first ones expand a beam that is not full
/// yet into buffers that are still growing, and cost more per state than the rest.
pub(crate) const WARMUP_DEPTHS: usize = 10;

/// Narrowest width a budget chooses: one state, when nothing wider ends in time.
pub(crate) const MIN_BUDGET_WIDTH: usize = 1;

/// Shortest budget a search takes: under it the search cannot measure its own speed before
/// the deadline, let alone choose a width from it.
pub const MIN_BUDGET_SECONDS: f64 = 1.0;

/// How the time per expanded state grows with the width (more boards, fewer cache hits):
/// about `width^0.15`, from whole solves at widths 20,000 and 200,000 (bench/RESULTS.md). The
/// re-choice every segment corrects what this model gets wrong.
const COST_GROWTH: f64 = 0.15;

/// Most the width may grow at one re-choice: the first measurement, at the probe's narrow
/// width, is the least sure of the cost at a wide one.
const MAX_GROWTH: f64 = 8.0;

/// A segment is re-chosen before its last depth once, at its measured speed, the search would
/// end this share of the search's seconds past them: a probe far too wide for the budget, or a
/// width that proved dearer than the model said, does not run on for hundreds of depths.
const LATE_SHARE: f64 = 0.03;

/// Least share of the search's seconds a segment runs before its speed is trusted, whether
/// its last depth has come or it runs late: a narrow beam's 250 depths take a millisecond,
/// and one preemption by another process would otherwise make it look several times slower.
const MEASURE_SHARE: f64 = 0.02;

/// The first estimate that found the deadline out of reach even for a beam of one state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Late {
    /// Depths searched when it was found.
    pub depth: usize,
    /// Seconds the search would take in all at width 1, as estimated then.
    pub seconds: f64,
    /// The seconds the search had ([`TimeBudget::search_seconds`]).
    pub(crate) search_seconds: f64,
}

/// A width chosen for the rest of a search, and whether it ends in time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Choice {
    pub(crate) width: usize,
    /// Seconds the remaining depths would take at width 1, by the same estimate: more than
    /// the time left means the deadline is out of reach.
    pub(crate) width_one_seconds: f64,
}

impl TimeBudget {
    /// The seconds the search itself may take: the budget less a reserve for building the
    /// record and replaying it (under 0.1 s for 10,000 pieces) and, mostly, for the last
    /// segment's misestimate. Short budgets keep a tenth of themselves.
    pub(crate) fn search_seconds(&self) -> f64 {
        (self.seconds * 0.98 - (self.seconds * 0.1).min(1.0)).max(0.0)
    }

    /// The width for the rest of a search: `depths` more depths in `remaining` seconds, given
    /// that the last segment, at `width`, took `seconds_per_state` per expanded state (what
    /// the tests ask of [`TimeBudget::choose`]).
    #[cfg(test)]
    pub(crate) fn next_width(
        &self,
        remaining: f64,
        depths: usize,
        seconds_per_state: f64,
        width: usize,
    ) -> usize {
        self.choose(remaining, depths, seconds_per_state, width)
            .width
    }

    /// The width for the rest of a search: `depths` more depths in `remaining` seconds, given
    /// that the last segment, at `width`, took `seconds_per_state` per expanded state; with
    /// what width 1 would take.
    pub(crate) fn choose(
        &self,
        remaining: f64,
        depths: usize,
        seconds_per_state: f64,
        width: usize,
    ) -> Choice {
        let narrowest = MIN_BUDGET_WIDTH.min(self.max_width);
        let per_state = if seconds_per_state.is_finite() {
            seconds_per_state.max(1e-12)
        } else {
            f64::INFINITY
        };
        // cost(w) = cost(width) * (w / width)^COST_GROWTH
        let growth = (width as f64).powf(COST_GROWTH);
        let width_one_seconds = depths as f64 * per_state / growth;
        if depths == 0 || remaining <= 0.0 || !per_state.is_finite() {
            let width = narrowest;
            return Choice {
                width,
                width_one_seconds,
            };
        }
        // Solve depths * w * cost(w) = remaining.
        let target = remaining / (depths as f64 * per_state) * growth;
        let chosen = target
            .powf(1.0 / (1.0 + COST_GROWTH))
            .min(width as f64 * MAX_GROWTH);
        Choice {
            width: (chosen as usize).clamp(narrowest, self.max_width),
            width_one_seconds,
        }
    }
}

/// Where a budgeted search reads the time: the seconds since the search began, after it has
/// expanded `expanded` states. The wall clock ignores the count; a [`SpeedModel`] uses only
/// the count, so that the budget's choices can be tested without depending on the machine.
pub trait Clock {
    fn seconds(&self, expanded: u64) -> f64;
}

/// The wall clock, from the moment it was made.
pub struct WallClock(Instant);

impl WallClock {
    pub fn start() -> WallClock {
        WallClock(Instant::now())
    }
}

impl Clock for WallClock {
    fn seconds(&self, _expanded: u64) -> f64 {
        self.0.elapsed().as_secs_f64()
    }
}

/// A machine that spends the same time on every expanded state.
#[derive(Clone, Copy, Debug)]
pub struct SpeedModel {
    pub seconds_per_state: f64,
}

impl Clock for SpeedModel {
    fn seconds(&self, expanded: u64) -> f64 {
        expanded as f64 * self.seconds_per_state
    }
}

/// The width of each depth of one search: the first width, the scheduled changes, and the
/// budget's re-choices, which it records as changes so that they can be replayed.
pub(crate) struct WidthPlan<'a> {
    width: usize,
    scheduled: std::slice::Iter<'a, (usize, usize)>,
    changes: Vec<(usize, usize)>,
    budget: Option<TimeBudget>,
    /// Where the budget's current measurement began: (seconds, states expanded by then).
    segment: (f64, u64),
    /// The budget's course beside its measurement.
    pace: Pace,
}

/// Where a budgeted search stands between its re-choices.
#[derive(Clone, Copy, Debug, Default)]
struct Pace {
    /// The depth the next re-choice is due at, whatever the time.
    due: usize,
    /// The first depth of the current measurement.
    since: usize,
    /// The first estimate that found even width 1 too slow, once one did.
    late: Option<Late>,
}

impl<'a> WidthPlan<'a> {
    /// A plan from `width`, with the changes of `schedule` or re-choices for `budget` (not
    /// both).
    pub(crate) fn new(width: usize, schedule: &'a Schedule, budget: Option<TimeBudget>) -> Self {
        assert!(
            budget.is_none() || schedule.0.is_empty(),
            "a time budget chooses the widths itself"
        );
        WidthPlan {
            width,
            scheduled: schedule.0.iter(),
            changes: Vec::new(),
            budget,
            segment: (0.0, 0),
            pace: Pace {
                due: PROBE_DEPTHS,
                ..Pace::default()
            },
        }
    }

    /// The width of depth `depth` (depths are asked in order).
    pub(crate) fn at_depth(&mut self, depth: usize) -> usize {
        while let Some(&(d, w)) = self.scheduled.as_slice().first() {
            if d > depth {
                break;
            }
            self.width = w;
            self.changes.push((d, w));
            self.scheduled.next();
        }
        self.width
    }

    /// After `done` of `depth_count` depths, with `expanded` states expanded by `seconds` into
    /// the search: a budget measures the current segment's speed and re-chooses the width for
    /// the rest at the segment's last depth, or sooner where the segment runs late. Every
    /// choice comes from `seconds` and `expanded` alone, so that a given clock makes the same
    /// choices.
    pub(crate) fn after_depth(
        &mut self,
        done: usize,
        depth_count: usize,
        expanded: u64,
        seconds: f64,
    ) {
        let Some(budget) = self.budget else {
            return;
        };
        if done == WARMUP_DEPTHS && self.pace.since < WARMUP_DEPTHS {
            self.segment = (seconds, expanded);
            self.pace.since = done;
            return;
        }
        if done >= depth_count || done <= self.pace.since {
            return;
        }
        let search_seconds = budget.search_seconds();
        let states = (expanded - self.segment.1).max(1);
        let measured = seconds - self.segment.0;
        let per_state = measured / states as f64;
        let left = depth_count - done;
        // The end at this width and speed (the beam full from here on).
        let ends = seconds + per_state * (self.width * left) as f64;
        // A short measurement may widen the beam (another process's preemption only ever
        // makes a search look slower) but not narrow it.
        let trusted = measured >= search_seconds * MEASURE_SHARE;
        let late = trusted && ends > search_seconds * (1.0 + LATE_SHARE);
        if done < self.pace.due && !late {
            return;
        }
        let remaining = search_seconds - seconds;
        let choice = budget.choose(remaining, left, per_state, self.width);
        if !trusted && choice.width < self.width {
            return;
        }
        let mut next = choice.width;
        if late && self.width > 1 {
            // Every width at least as wide as this one ends late by this very measurement,
            // whatever the model says: narrow in proportion to the time short.
            let fits = self.width as f64 * remaining.max(0.0) / (ends - seconds);
            next = next.min(fits as usize).clamp(1, self.width - 1);
        }
        if trusted
            && self.pace.late.is_none()
            && seconds + choice.width_one_seconds > budget.seconds
        {
            self.pace.late = Some(Late {
                depth: done,
                seconds: seconds + choice.width_one_seconds,
                search_seconds,
            });
        }
        // Changes under 2% are measurement noise; leaving them out keeps the schedule short.
        // A late segment's narrowing is never noise.
        if next.abs_diff(self.width) * 50 > self.width || (late && next < self.width) {
            self.width = next;
            self.changes.push((done, next));
        }
        self.segment = (seconds, expanded);
        self.pace.since = done;
        self.pace.due = done + SEGMENT_DEPTHS;
    }

    /// The first estimate that found the budget's deadline out of reach even at width 1 (None:
    /// no estimate did, or no budget).
    pub(crate) fn late(&self) -> Option<Late> {
        self.pace.late
    }

    /// Where the plan stands, for a snapshot ([`crate::checkpoint`]).
    pub(crate) fn state(&self, schedule: &Schedule) -> PlanState {
        PlanState {
            width: self.width,
            scheduled: schedule.0.len() - self.scheduled.as_slice().len(),
            changes: self.changes.clone(),
            segment: self.segment,
            due: self.pace.due,
            since: self.pace.since,
            late: (self.pace.late).map(|l| (l.depth, l.seconds, l.search_seconds)),
        }
    }

    /// The plan where a snapshot left it; false where `state` is not of this plan's schedule.
    pub(crate) fn resume(&mut self, state: PlanState) -> bool {
        let schedule = self.scheduled.as_slice();
        if state.scheduled > schedule.len() || state.width == 0 {
            return false;
        }
        self.scheduled = schedule[state.scheduled..].iter();
        self.width = state.width;
        self.changes = state.changes;
        self.segment = state.segment;
        self.pace = Pace {
            due: state.due,
            since: state.since,
            late: (state.late).map(|(depth, seconds, search_seconds)| Late {
                depth,
                seconds,
                search_seconds,
            }),
        };
        true
    }

    /// The changes made: with the same first width and no budget they give the same widths.
    pub(crate) fn changes(self) -> Schedule {
        Schedule(self.changes)
    }
}

/// The width plan's position ([`WidthPlan`]), as a snapshot holds it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct PlanState {
    pub(crate) width: usize,
    /// Scheduled changes already made.
    pub(crate) scheduled: usize,
    pub(crate) changes: Vec<(usize, usize)>,
    pub(crate) segment: (f64, u64),
    /// The budget's next re-choice, its measurement's first depth, and the first estimate
    /// that found width 1 too slow (depth, seconds at width 1, the search's seconds).
    pub(crate) due: usize,
    pub(crate) since: usize,
    pub(crate) late: Option<(usize, f64, f64)>,
}

#[cfg(test)]
#[path = "width_tests.rs"]
mod tests;
