//! The width plan's tests: schedules as text, and budgets on a machine of a known speed
//! ([`SpeedModel`]), never the wall clock.

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
    assert_eq!(budget.next_width(-5.0, 1_000, 0.5e-6, 20_000), 1);
    assert_eq!(budget.next_width(5.0, 0, 0.5e-6, 20_000), 1);
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
    assert!((b(5.0).search_seconds() - 4.4).abs() < 1e-9);
    assert_eq!(b(0.0).search_seconds(), 0.0);
}

/// A budgeted search of `depths` depths from `width` on a machine that spends
/// `seconds_per_state` on each state, every depth's beam full: the widths it chose, the
/// seconds it took and its warning.
fn simulate(
    width: usize,
    seconds: f64,
    depths: usize,
    seconds_per_state: f64,
) -> (Schedule, f64, Option<Late>) {
    simulate_on(&SpeedModel { seconds_per_state }, width, seconds, depths)
}

/// [`simulate`] on any clock.
fn simulate_on(
    clock: &dyn Clock,
    width: usize,
    seconds: f64,
    depths: usize,
) -> (Schedule, f64, Option<Late>) {
    let budget = TimeBudget {
        seconds,
        max_width: 1_000_000,
    };
    let none = Schedule::default();
    let mut plan = WidthPlan::new(width, &none, Some(budget));
    let mut expanded = 0;
    for depth in 0..depths {
        expanded += plan.at_depth(depth) as u64;
        plan.after_depth(depth + 1, depths, expanded, clock.seconds(expanded));
    }
    let late = plan.late();
    (plan.changes(), clock.seconds(expanded), late)
}

/// A [`SpeedModel`] that stalls once, for `stall` seconds, after `at` states: another
/// process's preemption.
struct Stalled {
    speed: SpeedModel,
    at: u64,
    stall: f64,
}

impl Clock for Stalled {
    fn seconds(&self, expanded: u64) -> f64 {
        let stalled = if expanded >= self.at { self.stall } else { 0.0 };
        self.speed.seconds(expanded) + stalled
    }
}

/// The widths of a schedule, depth by depth, from `width`.
fn widths(width: usize, schedule: &Schedule, depths: usize) -> Vec<usize> {
    let mut plan = WidthPlan::new(width, schedule, None);
    (0..depths).map(|d| plan.at_depth(d)).collect()
}

#[test]
fn a_budget_narrows_below_a_hundred_when_it_must() {
    // 100,000 depths at 1 us a state in 10 s: about 90 states a depth, narrower than
    // the first width, and than a hundred.
    let (changes, seconds, late) = simulate(1_000, 10.0, 100_000, 1e-6);
    let last = changes.0.last().expect("the width changed").1;
    assert!(last < 100, "ends at width {last}: {changes}");
    assert!(seconds <= 10.0, "took {seconds} s: {changes}");
    assert_eq!(late, None);
    // A first width of 5 with a budget that holds only 2 states a depth.
    let (changes, seconds, late) = simulate(5, 10.0, 1_000_000, 4e-6);
    let narrowest = changes.0.iter().map(|&(_, w)| w).min();
    assert!(narrowest <= Some(2), "{changes}");
    assert!(seconds <= 10.0, "took {seconds} s: {changes}");
    assert_eq!(late, None);
}

#[test]
fn a_budget_warns_at_its_first_estimate_when_width_one_is_too_slow() {
    // 10,000 depths of one state at 1 ms take 10 s: a 5 s budget cannot be met.
    let (changes, seconds, late) = simulate(5, 5.0, 10_000, 1e-3);
    let late = late.expect("the deadline is out of reach");
    assert!(late.depth <= PROBE_DEPTHS, "found at depth {}", late.depth);
    assert!(late.seconds > 5.0, "{late:?}");
    // It still goes as fast as it can: width 1 from the first estimate on.
    assert_eq!(changes.0.first().map(|&(_, w)| w), Some(1), "{changes}");
    assert!(seconds < 10.2, "took {seconds} s");
    // A deadline width 1 meets is not warned about.
    assert_eq!(simulate(5, 30.0, 10_000, 1e-3).2, None);
}

#[test]
fn a_budgeted_search_ends_within_its_budget() {
    let cases = [
        // (first width, budget seconds, depths, seconds per state)
        (5, 5.0, 10_000, 1e-6),
        (100, 5.0, 10_000, 1e-6),
        (20_000, 30.0, 10_000, 0.5e-6),
        // A probe far too wide: its 50 depths alone would take 50 s.
        (1_000_000, 5.0, 10_000, 1e-6),
        (5, 120.0, 1_000_000, 2e-6),
        (1, 2.0, 1_000_000, 1e-6),
    ];
    for (width, budget, depths, per_state) in cases {
        let (changes, seconds, late) = simulate(width, budget, depths, per_state);
        let case = format!("width {width}, {budget} s, {depths} depths: {seconds} s {changes}");
        assert!(seconds <= budget * 1.05, "{case}");
        // The time is used, not thrown away on a needlessly narrow beam.
        assert!(seconds >= budget * 0.5, "{case}");
        assert_eq!(late, None, "{case}");
    }
}

#[test]
fn a_budgets_widths_replay_from_its_schedule() {
    let clock = SpeedModel {
        seconds_per_state: 1e-6,
    };
    let budget = TimeBudget {
        seconds: 5.0,
        max_width: 1_000_000,
    };
    let none = Schedule::default();
    let mut plan = WidthPlan::new(1_000_000, &none, Some(budget));
    let (mut chosen, mut expanded) = (Vec::new(), 0);
    for depth in 0..10_000 {
        chosen.push(plan.at_depth(depth));
        expanded += chosen[depth] as u64;
        plan.after_depth(depth + 1, 10_000, expanded, clock.seconds(expanded));
    }
    assert_eq!(widths(1_000_000, &plan.changes(), 10_000), chosen);
}

#[test]
fn a_stall_in_a_short_segment_does_not_narrow_the_beam() {
    // A million depths of 2 states at 1 us fit in 3 s; a 5 ms stall inside a segment of 250
    // depths (0.5 ms) makes that segment look 10 times slower than the machine is.
    let clock = Stalled {
        speed: SpeedModel {
            seconds_per_state: 1e-6,
        },
        at: 30_000,
        stall: 0.005,
    };
    let (changes, seconds, late) = simulate_on(&clock, 2, 3.0, 1_000_000);
    assert!(changes.0.iter().all(|&(_, w)| w >= 2), "{changes}");
    assert!(seconds <= 3.0, "took {seconds} s: {changes}");
    assert_eq!(late, None);
}
