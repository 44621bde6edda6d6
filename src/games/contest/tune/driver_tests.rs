//! Tests of `driver`, kept apart so that the module reads on one screen at a time.
use super::*;
use crate::games::contest::tune::read_log;

fn settings(generations: usize) -> Settings {
    Settings {
        plan: Plan {
            beam_widths: vec![10, 20],
            score_weights: vec![0.01, 0.02],
            optimizer: Optimizer {
                generations,
                population: 3,
                elite: 2,
                spread: 0.3,
                free: vec![1, 2],
                seed: 5,
            },
            parallel_trials: 2,
        },
        inputs: vec![TuneInput {
            name: "seed 1".into(),
            pieces: crate::games::contest::contest_sequence(1, 10),
        }],
        holdout: None,
        rules: Rules::default(),
        weights: Weights::default(),
        policy: Policy::default(),
        objective: Objective::Score,
    }
}

/// A trial that takes no time: wider beams and the first weight nearer 1 score more.
fn fake(params: &TrialParams) -> TrialScores {
    let closeness = 1.0 / (1.0 + (params.weights.row_transitions - 1.0).abs() as f64);
    let score = params.beam_width as f64 * 100.0 + params.score_weight * 1e4 + closeness;
    TrialScores {
        scores: vec![score as u64, score as u64 + 2],
        pieces: vec![10, 10],
        holdout: Some(7),
        wall_seconds: 0.5,
    }
}

/// What a run reported, as (kind, done, total) with the trial's origin.
fn run(tuner: &mut Tuner, log: &mut Vec<u8>) -> Vec<(String, usize, usize)> {
    let mut events = Vec::new();
    tuner
        .run(&fake, log, &mut |p| {
            events.push(match p {
                Progress::Reused { done, total, .. } => ("reused".into(), done, total),
                Progress::Finished {
                    result,
                    best,
                    done,
                    total,
                } => {
                    assert!(best.mean_score >= result.mean_score);
                    (result.origin.clone(), done, total)
                }
                Progress::NotLogged { .. } => ("not logged".into(), 0, 0),
            })
        })
        .unwrap();
    events
}

#[test]
fn a_run_logs_the_grid_then_the_generations_and_a_resume_repeats_nothing() {
    let settings = settings(2);
    let mut tuner = Tuner::new(&settings).unwrap();
    let mut log = Vec::new();
    let events = run(&mut tuner, &mut log);
    let origins: Vec<&str> = events.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        origins,
        [
            "grid",
            "grid",
            "grid",
            "grid",
            "cem generation 1",
            "cem generation 1",
            "cem generation 1",
            "cem generation 2",
            "cem generation 2",
            "cem generation 2",
        ]
    );
    assert!(events
        .iter()
        .enumerate()
        .all(|(i, e)| e.1 == i + 1 && e.2 == 10));

    let text = String::from_utf8(log).unwrap();
    let logged = read_log(&text);
    assert_eq!(logged.trials.len(), 10);
    assert!(logged.skipped.is_empty());
    // The optimizer ran at the best grid point, with the grid's results known.
    for r in &logged.trials[4..] {
        assert_eq!((r.params.beam_width, r.params.score_weight), (20, 0.02));
    }
    assert!(logged
        .trials
        .iter()
        .all(|r| r.inputs == tuner.fingerprint()));
    assert_eq!(
        logged.trials[0].mean_score,
        logged.trials[0].scores[0] as f64 + 1.0
    );

    // Resumed from its log, the same run runs nothing and ranks alike.
    let mut again = Tuner::new(&settings).unwrap();
    assert_eq!(again.resume(&logged), 10);
    let mut more = Vec::new();
    let events = run(&mut again, &mut more);
    assert!(more.is_empty(), "{}", String::from_utf8_lossy(&more));
    assert!(events.iter().all(|e| e.0 == "reused"), "{events:?}");
    assert_eq!(events.last().map(|e| e.1), Some(10));
    let keys = |t: &Tuner| -> Vec<String> { t.ranked().iter().map(|r| r.params.key()).collect() };
    assert_eq!(keys(&tuner), keys(&again));
}

#[test]
fn a_log_cut_mid_line_gets_a_newline_before_the_next_trial() {
    let settings = settings(0);
    let mut tuner = Tuner::new(&settings).unwrap();
    tuner.resume(&read_log("{\"params\": {"));
    let mut log = Vec::new();
    run(&mut tuner, &mut log);
    let text = String::from_utf8(log).unwrap();
    assert!(text.starts_with("\n{"), "{text}");
    assert_eq!(read_log(&text).trials.len(), 4);
}

#[test]
fn settings_no_run_can_use_are_refused() {
    let refused = |change: &dyn Fn(&mut Settings)| {
        let mut s = settings(1);
        change(&mut s);
        Tuner::new(&s).err().expect("refused").to_string()
    };
    assert_eq!(
        refused(&|s| s.plan.score_weights.push(f64::NAN)),
        "--score-weights must be a finite number, not NaN"
    );
    assert_eq!(
        refused(&|s| s.plan.optimizer.spread = f64::INFINITY),
        "--spread must be a finite number, not inf"
    );
    assert_eq!(
        refused(&|s| s.plan.optimizer.spread = 0.0),
        "--spread must be above 0, not 0"
    );
    assert_eq!(
        refused(&|s| s.plan.optimizer.elite = 4),
        "--elite 4 is more than --population 3: lower --elite, or raise --population"
    );
    assert_eq!(
        refused(&|s| s.plan.beam_widths.push(limits::MAX_BEAM_WIDTH + 1)),
        "--beam-widths 100000001 is above the widest beam accepted, 100000000"
    );
    assert_eq!(
        refused(&|s| s.weights.holes = f32::INFINITY),
        "--weights: holes must be a finite number, not inf"
    );
    assert_eq!(
        refused(&|s| s.inputs.clear()),
        TuneError::NoInputs.to_string()
    );
    assert_eq!(
        refused(&|s| s.plan.score_weights.clear()),
        TuneError::EmptyGrid.to_string()
    );
}

#[test]
fn memory_counts_the_trials_that_run_side_by_side() {
    let gib = 1u64 << 30;
    let mut plan = settings(0).plan;
    plan.beam_widths = vec![1_000, 2_000_000];
    // Two trials at a time: the two score weights of the widest beam.
    assert_eq!(plan.states_at_once(), 4_000_000);
    assert!(plan.check_memory(Some(24 * gib)).is_ok());
    assert!(matches!(
        plan.check_memory(Some(2 * gib)),
        Err(TuneError::ParallelMemory {
            trials: 2,
            states: 4_000_000,
            ..
        })
    ));
    plan.parallel_trials = 1;
    assert_eq!(plan.states_at_once(), 2_000_000);
    assert!(matches!(
        plan.check_memory(Some(gib)),
        Err(TuneError::Limit(LimitError::OutOfMemory { .. }))
    ));
    assert!(plan.check_memory(None).is_ok());
    // The optimizer runs its population at one grid width, side by side.
    plan.parallel_trials = 8;
    plan.score_weights = vec![0.02];
    plan.optimizer.generations = 1;
    assert_eq!(plan.states_at_once(), 3 * 2_000_000);
}
