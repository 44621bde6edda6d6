//! The tuner's tests: the seeded optimizer, the contest's seeds and their overlaps, the
//! inputs' fingerprint, the survival fitness and the log's text.

use super::*;
use crate::games::contest::sequence::{contest_sequence, CONTEST_SEED};
use seeds::{next_state, ContestStates, CONTEST_PIECES};

#[test]
fn cross_entropy_is_seeded_and_moves_towards_the_elite() {
    let start = Weights::default();
    let mut a = CrossEntropy::new(&start, vec![0, 1], 0.3, 7);
    let mut b = CrossEntropy::new(&start, vec![0, 1], 0.3, 7);
    assert_eq!(a.sample(5), b.sample(5));
    let target = Weights {
        cells: -2.0,
        ..start.clone()
    };
    a.update(&[target.clone(), target]);
    assert_eq!(a.mean[0], -2.0);
    let column_transitions = Weights::NAMES
        .iter()
        .position(|&n| n == "column_transitions")
        .unwrap();
    assert_eq!(a.mean[column_transitions], start.column_transitions as f64);
}

#[test]
fn the_generator_step_is_the_contest_sequences() {
    for seed in [CONTEST_SEED, 7, 40_000] {
        let mut v = seed % GENERATOR_MODULUS;
        for k in 0..30 {
            assert_eq!(
                contest_sequence(v, 50)[..],
                contest_sequence(seed, k + 50)[k..],
                "seed {seed}, state after {k} pieces"
            );
            v = next_state(v);
        }
    }
}

#[test]
fn seeds_that_run_into_the_contest_sequence_are_found() {
    let contest = ContestStates::default();
    let at = |seed_piece, contest_piece| {
        Some(ContestOverlap {
            seed_piece,
            contest_piece,
        })
    };
    assert_eq!(contest.overlap(CONTEST_SEED, 1), at(1, 1));
    // The contest sequence shifted by one piece, and its seed plus the modulus.
    assert_eq!(contest.overlap(22063, 10_000), at(1, 2));
    assert_eq!(
        contest.overlap(CONTEST_SEED + GENERATOR_MODULUS, 5),
        at(1, 1)
    );
    assert_eq!(contest.overlap(3, 100), at(1, 2235));
    for seed in [1, 2, 4, 5, 6] {
        assert_eq!(contest.overlap(seed, 100_000), None, "seed {seed}");
    }
    // The contest goes round its whole cycle, so a seed on it meets it at its first piece:
    // one seed in six.
    let on_cycle = (0..GENERATOR_MODULUS)
        .filter(|&seed| contest.overlap(seed, 1).is_some())
        .count();
    assert_eq!(on_cycle, 5458);
}

/// The overlap found from generator states, held against the pieces themselves: where one
/// is found the pieces agree from there on; where none is, no stretch of 40 pieces of the
/// seed's sequence occurs in the contest's.
#[test]
fn contest_overlaps_agree_with_the_pieces() {
    let contest_pieces = contest_sequence(CONTEST_SEED, CONTEST_PIECES);
    let windows: std::collections::HashSet<&[Kind]> = contest_pieces.windows(40).collect();
    let contest = ContestStates::default();
    let pieces = 2_000;
    for seed in (0..GENERATOR_MODULUS).step_by(97).chain([3, 22063]) {
        let sequence = contest_sequence(seed, pieces);
        match contest.overlap(seed, pieces) {
            Some(ContestOverlap {
                seed_piece,
                contest_piece,
            }) => {
                let ours = &sequence[seed_piece - 1..];
                let theirs = &contest_pieces[contest_piece - 1..];
                let n = ours.len().min(theirs.len());
                assert_eq!(ours[..n], theirs[..n], "seed {seed}");
            }
            None => assert!(
                sequence.windows(40).all(|w| !windows.contains(w)),
                "seed {seed}"
            ),
        }
    }
}

#[test]
fn seed_inputs_refuse_the_contest_and_repeated_seeds() {
    let names: Vec<String> = seed_inputs(&[1, 2, 4], 10)
        .unwrap()
        .into_iter()
        .map(|i| i.name)
        .collect();
    assert_eq!(names, ["seed 1", "seed 2", "seed 4"]);
    let error = seed_inputs(&[1, 22063], 10).err().unwrap();
    assert_eq!(
        error.to_string(),
        "seed 22063 generates the contest sequence from its piece 2 on: it is the held-out \
         sequence"
    );
    assert_eq!(
        seed_inputs(&[1, 2, 1 + GENERATOR_MODULUS], 10).err(),
        Some(TuneError::SeedTwice {
            earlier: 1,
            seed: 32750
        })
    );
}

#[test]
fn samples_stay_finite_whatever_the_spread() {
    let start = Weights::from_slice(&vec![f32::MAX; Weights::NAMES.len()]);
    let free = (0..Weights::NAMES.len()).collect();
    let mut cem = CrossEntropy::new(&start, free, 1e300, 3);
    for w in cem.sample(20) {
        assert!(w.to_vec().iter().all(|v| v.is_finite()), "{w:?}");
    }
}

#[test]
fn fingerprint_tells_inputs_apart() {
    let input = |name: &str, seed| TuneInput {
        name: name.into(),
        pieces: crate::games::contest::contest_sequence(seed, 100),
    };
    let rules = |piece_limit, judge: bool| {
        let rules = if judge {
            Rules::judge()
        } else {
            Rules::default()
        };
        rules.with_piece_limit(piece_limit)
    };
    let strict = rules(10_000, false);
    let score = Objective::Score;
    let a = inputs_fingerprint(&[input("seed 1", 1)], None, strict, score);
    assert_eq!(
        a,
        inputs_fingerprint(&[input("seed 1", 1)], None, strict, score)
    );
    assert_ne!(
        a,
        inputs_fingerprint(&[input("seed 1", 2)], None, strict, score)
    );
    assert_ne!(
        a,
        inputs_fingerprint(&[input("seed 1", 1)], None, rules(0, false), score)
    );
    assert_ne!(
        a,
        inputs_fingerprint(&[input("seed 1", 1)], None, rules(10_000, true), score)
    );
    let holdout = input("contest", 12358);
    assert_ne!(
        a,
        inputs_fingerprint(&[input("seed 1", 1)], Some(&holdout), strict, score)
    );
    assert_ne!(
        a,
        inputs_fingerprint(&[input("seed 1", 1)], None, strict, Objective::Survive)
    );
}

/// Surviving, a trial that placed more pieces beats one that scored more; points only
/// break ties. For points, the score alone ranks.
#[test]
fn survival_fitness_is_pieces_then_score() {
    let trial = |mean_pieces, mean_score| TrialResult {
        params: TrialParams {
            beam_width: 1,
            score_weight: 0.0,
            weights: Weights::default(),
            policy: Policy::default(),
        },
        scores: vec![],
        mean_score,
        pieces: vec![],
        mean_pieces,
        holdout: None,
        wall_seconds: 0.0,
        origin: String::new(),
        inputs: String::new(),
    };
    let (longer, richer, richer_longer) =
        (trial(900.0, 10.0), trial(800.0, 50.0), trial(900.0, 20.0));
    let survive = |a, b| fitness_order(Objective::Survive, a, b);
    assert_eq!(survive(&longer, &richer), Ordering::Less);
    assert_eq!(survive(&richer_longer, &longer), Ordering::Less);
    assert_eq!(
        fitness_order(Objective::Score, &richer, &longer),
        Ordering::Less
    );
}

#[test]
fn log_round_trips_and_skips_cut_lines() {
    let r = TrialResult {
        params: TrialParams {
            beam_width: 10,
            score_weight: 0.02,
            weights: Weights::default(),
            policy: Policy::default(),
        },
        scores: vec![1, 2],
        mean_score: 1.5,
        pieces: vec![10, 10],
        mean_pieces: 10.0,
        holdout: None,
        wall_seconds: 0.1,
        origin: "grid".into(),
        inputs: "v1 test".into(),
    };
    let line = serde_json::to_string(&r).unwrap();
    let text = format!("{line}\n\n{}\n{line}\n", &line[..line.len() / 2]);
    let back = read_log(&text);
    assert_eq!(back.trials.len(), 2);
    assert_eq!(back.trials[0].params, r.params);
    assert_eq!(back.skipped, vec![3]);
    assert!(back.first_error.is_some());
    assert!(!back.ends_mid_line);
    assert!(read_log(&text[..text.len() - 1]).ends_mid_line);
}
