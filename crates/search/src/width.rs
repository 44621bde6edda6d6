//! The beam's width along a search: one width throughout, a schedule of changes, or a wall-clock
//! budget that re-chooses the width as the search goes.
//!
//! A budget is what a user with a deadline wants ("the best record in 15 minutes on this
//! machine"): the time per expanded state differs from machine to machine and from hour to hour,
//! so no fixed width fits a deadline everywhere. A budgeted search is not repeatable (it depends
//! on the clock), but the widths it chose are reported as a schedule, and the same schedule
//! given back without the budget replays the same record exactly.

use crate::checkpoint::PlanState;
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
/// that each measurement spans seconds.
pub const PROBE_DEPTHS: usize = 50;
pub const SEGMENT_DEPTHS: usize = 250;

/// Depths left out of the probe's measurement: the first ones expand a beam that is not full
/// yet into buffers that are still growing, and cost more per state than the rest.
pub const WARMUP_DEPTHS: usize = 10;

/// Narrowest width a budget chooses, even when it runs late.
pub const MIN_BUDGET_WIDTH: usize = 100;

/// How the time per expanded state grows with the width (more boards, fewer cache hits):
/// about `width^0.15`, from whole solves at widths 20,000 and 200,000 (bench/RESULTS.md). The
/// re-choice every segment corrects what this model gets wrong.
const COST_GROWTH: f64 = 0.15;

/// Most the width may grow at one re-choice: the first measurement, at the probe's narrow
/// width, is the least sure of the cost at a wide one.
const MAX_GROWTH: f64 = 8.0;

impl TimeBudget {
    /// The seconds the search itself may take: the budget less a reserve for building the
    /// record and replaying it (under 0.1 s for 10,000 pieces) and, mostly, for the last
    /// segment's misestimate.
    pub fn search_seconds(&self) -> f64 {
        (self.seconds * 0.98 - 1.0).max(0.0)
    }

    /// The width for the rest of a search: `depths` more depths in `remaining` seconds, given
    /// that the last segment, at `width`, took `seconds_per_state` per expanded state.
    pub fn next_width(
        &self,
        remaining: f64,
        depths: usize,
        seconds_per_state: f64,
        width: usize,
    ) -> usize {
        let narrowest = MIN_BUDGET_WIDTH.min(self.max_width);
        if depths == 0 || remaining <= 0.0 || !seconds_per_state.is_finite() {
            return narrowest;
        }
        // Solve depths * w * cost(w) = remaining with
        // cost(w) = cost(width) * (w / width)^COST_GROWTH.
        let per_state = seconds_per_state.max(1e-12);
        let target = remaining / (depths as f64 * per_state) * (width as f64).powf(COST_GROWTH);
        let chosen = target
            .powf(1.0 / (1.0 + COST_GROWTH))
            .min(width as f64 * MAX_GROWTH);
        (chosen as usize).clamp(narrowest, self.max_width)
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
pub struct WidthPlan<'a> {
    width: usize,
    scheduled: std::slice::Iter<'a, (usize, usize)>,
    changes: Vec<(usize, usize)>,
    budget: Option<TimeBudget>,
    /// Where the budget's current measurement began: (seconds, states expanded by then).
    segment: (f64, u64),
}

impl<'a> WidthPlan<'a> {
    /// A plan from `width`, with the changes of `schedule` or re-choices for `budget` (not
    /// both).
    pub fn new(width: usize, schedule: &'a Schedule, budget: Option<TimeBudget>) -> Self {
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
        }
    }

    /// The width of depth `depth` (depths are asked in order).
    pub fn at_depth(&mut self, depth: usize) -> usize {
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
    /// the search: a budget measures the last segment's speed and re-chooses the width for the
    /// rest.
    pub fn after_depth(&mut self, done: usize, depth_count: usize, expanded: u64, seconds: f64) {
        let Some(budget) = &self.budget else {
            return;
        };
        if done == WARMUP_DEPTHS {
            self.segment = (seconds, expanded);
        }
        let due = done == PROBE_DEPTHS
            || (done > PROBE_DEPTHS && (done - PROBE_DEPTHS).is_multiple_of(SEGMENT_DEPTHS));
        if !due || done >= depth_count {
            return;
        }
        let states = (expanded - self.segment.1).max(1);
        let per_state = (seconds - self.segment.0) / states as f64;
        let remaining = budget.search_seconds() - seconds;
        let next = budget.next_width(remaining, depth_count - done, per_state, self.width);
        // Changes under 2% are measurement noise; leaving them out keeps the schedule short.
        if next.abs_diff(self.width) * 50 > self.width {
            self.width = next;
            self.changes.push((done, next));
        }
        self.segment = (seconds, expanded);
    }

    /// Where the plan stands, for a snapshot ([`crate::checkpoint`]).
    pub(crate) fn state(&self, schedule: &Schedule) -> PlanState {
        PlanState {
            width: self.width,
            scheduled: schedule.0.len() - self.scheduled.as_slice().len(),
            changes: self.changes.clone(),
            segment: self.segment,
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
        true
    }

    /// The changes made: with the same first width and no budget they give the same widths.
    pub fn changes(self) -> Schedule {
        Schedule(self.changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_text_round_trips() {
        let s: Schedule = "50:180000, 300:175000,550:90".parse().unwrap();
        assert_eq!(s.0, vec![(50, 180_000), (300, 175_000), (550, 90)]);
        assert_eq!(s.to_string(), "50:180000,300:175000,550:90");
        assert_eq!(s.to_string().parse::<Schedule>().unwrap(), s);
        assert_eq!("".parse::<Schedule>().unwrap(), Schedule::default());
    }

    #[test]
    fn schedule_text_errors_name_the_change() {
        let cases = [
            ("50:10,x", ScheduleError::Syntax("x".into())),
            ("50", ScheduleError::Syntax("50".into())),
            ("-1:10", ScheduleError::Syntax("-1:10".into())),
            ("50:0", ScheduleError::ZeroWidth("50:0".into())),
            ("50:10,50:20", ScheduleError::Order("50:20".into())),
        ];
        for (text, error) in cases {
            assert_eq!(text.parse::<Schedule>(), Err(error), "{text}");
        }
    }

    #[test]
    fn the_budget_spends_the_remaining_time() {
        let budget = TimeBudget {
            seconds: 900.0,
            max_width: 1_000_000,
        };
        // At the same width the cost model is exact: 1,000 depths of 20,000 states at 0.5 us
        // take 10 s, so 100 s hold a wider beam, paying for its dearer states.
        let w = budget.next_width(100.0, 1_000, 0.5e-6, 20_000);
        let cost = 0.5e-6 * (w as f64 / 20_000.0).powf(COST_GROWTH);
        let spent = 1_000.0 * w as f64 * cost;
        assert!((spent - 100.0).abs() < 0.1, "width {w} spends {spent} s");
        // Growth is capped; so is the width; late or finished searches get the narrowest beam.
        assert_eq!(budget.next_width(1e9, 1_000, 0.5e-6, 20_000), 160_000);
        assert_eq!(budget.next_width(1e9, 1_000, 0.5e-6, 500_000), 1_000_000);
        assert_eq!(budget.next_width(-5.0, 1_000, 0.5e-6, 20_000), 100);
        assert_eq!(budget.next_width(5.0, 0, 0.5e-6, 20_000), 100);
        // The same width when the time left is what it costs; narrower when the time ran short.
        assert_eq!(budget.next_width(10.0, 1_000, 0.5e-6, 20_000), 20_000);
        assert!(budget.next_width(5.0, 1_000, 0.5e-6, 20_000) < 20_000);
    }

    #[test]
    fn the_reserve_leaves_time_for_the_record() {
        let b = |seconds| TimeBudget {
            seconds,
            max_width: 10,
        };
        assert_eq!(b(900.0).search_seconds(), 881.0);
        assert_eq!(b(0.5).search_seconds(), 0.0);
    }
}
