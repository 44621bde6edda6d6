//! The tuning run: its settings, checked before any work; the trials a log already holds, taken
//! from it; the grid over beam width x score weight; then cross-entropy generations over the
//! evaluation weights at the best grid point. Every trial is appended to the log as it finishes
//! and reported to a progress callback; what to print, and when, is the caller's.

use super::{
    fitness_order, inputs_fingerprint, score_trial, ContestOverlap, CrossEntropy, TrialLog,
    TrialParams, TrialResult, TrialScores, TuneInput, GENERATOR_MODULUS,
};
use crate::cli::limits::{self, LimitError};
use crate::games::contest::rules::Rules;
use crate::games::contest::search::BYTES_PER_STATE;
use crate::kit::eval::Weights;
use crate::kit::policy::Policy;
use crate::search::Objective;
use rayon::prelude::*;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::io::{self, Write};
use thiserror::Error;

/// Settings no tuning run can use, named by the `tune` option that gave them.
#[derive(Debug, Error, PartialEq)]
pub(crate) enum TuneError {
    #[error(transparent)]
    Limit(#[from] LimitError),
    #[error("{option} must be at least 1")]
    Zero { option: &'static str },
    #[error("the grid is empty: give at least one beam width and one score weight")]
    EmptyGrid,
    #[error("--spread must be above 0, not {0}")]
    Spread(f64),
    #[error("--elite {elite} is more than --population {population}: lower --elite, or raise --population")]
    Elite { elite: usize, population: usize },
    #[error("--free: unknown weight '{name}' (known: {})", Weights::NAMES.join(", "))]
    UnknownWeight { name: String },
    #[error("nothing to tune on: give --seeds or --inputs")]
    NoInputs,
    #[error("{}", contest_seed_message(*seed, *overlap))]
    ContestSeed { seed: u64, overlap: ContestOverlap },
    #[error(
        "seed {seed} is seed {earlier} again (seeds are taken mod {GENERATOR_MODULUS}): \
         the same sequence would count twice"
    )]
    SeedTwice { earlier: u64, seed: u64 },
    #[error(
        "--parallel-trials {trials} holds {states} beam states at once, the widest trials side \
         by side: {source}"
    )]
    ParallelMemory {
        trials: usize,
        states: usize,
        source: LimitError,
    },
}

fn contest_seed_message(seed: u64, overlap: ContestOverlap) -> String {
    let reduced = seed % GENERATOR_MODULUS;
    let named = if reduced == seed {
        format!("seed {seed}")
    } else {
        format!("seed {seed} (= {reduced} mod {GENERATOR_MODULUS})")
    };
    let from = match overlap.seed_piece {
        1 => String::new(),
        piece => format!(", from its own piece {piece} on,"),
    };
    format!(
        "{named} generates{from} the contest sequence from its piece {} on: it is the held-out \
         sequence",
        overlap.contest_piece
    )
}

/// The trials a run asks for: every beam width with every score weight (the grid), then the
/// optimizer's generations at the best grid point.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) beam_widths: Vec<usize>,
    pub(crate) score_weights: Vec<f64>,
    pub(crate) optimizer: Optimizer,
    /// Trials run side by side (each beam is parallel too).
    pub(crate) parallel_trials: usize,
}

/// The cross-entropy search over the evaluation weights that follows the grid.
#[derive(Clone, Debug)]
pub(crate) struct Optimizer {
    /// 0: no search after the grid.
    pub(crate) generations: usize,
    /// Weight sets per generation.
    pub(crate) population: usize,
    /// Weight sets kept to refit the distribution.
    pub(crate) elite: usize,
    /// Initial spread, relative to each weight's magnitude.
    pub(crate) spread: f64,
    /// Indices of the weights searched (see [`super::free_weights`]).
    pub(crate) free: Vec<usize>,
    pub(crate) seed: u64,
}

impl Plan {
    /// Refuses what no run can use: no grid, widths outside the shared limits, numbers that are
    /// not finite (logged as `null`, their trials would never resume), an elite of 0 or above
    /// the population.
    pub(crate) fn check(&self) -> Result<(), TuneError> {
        if self.beam_widths.is_empty() || self.score_weights.is_empty() {
            return Err(TuneError::EmptyGrid);
        }
        for &width in &self.beam_widths {
            limits::check_width("--beam-widths", width)?;
        }
        for &score_weight in &self.score_weights {
            limits::check_finite("--score-weights", score_weight)?;
        }
        if self.parallel_trials == 0 {
            return Err(TuneError::Zero {
                option: "--parallel-trials",
            });
        }
        self.optimizer.check()
    }

    /// The trials a run asks for: the grid, then every generation's population.
    pub(crate) fn total_trials(&self) -> usize {
        self.beam_widths.len() * self.score_weights.len()
            + self.optimizer.generations * self.optimizer.population
    }

    /// The most beam states held at once: the widest trials that run side by side (the
    /// optimizer's trials all take one width of the grid).
    pub(crate) fn states_at_once(&self) -> usize {
        let mut points: Vec<usize> = self
            .beam_widths
            .iter()
            .flat_map(|&w| std::iter::repeat_n(w, self.score_weights.len()))
            .collect();
        points.sort_unstable_by(|a, b| b.cmp(a));
        let grid = points
            .iter()
            .take(self.parallel_trials)
            .fold(0usize, |sum, &w| sum.saturating_add(w));
        let widest = points.first().copied().unwrap_or(0);
        let optimizer = if self.optimizer.generations > 0 {
            widest.saturating_mul(self.parallel_trials.min(self.optimizer.population))
        } else {
            0
        };
        grid.max(optimizer)
    }

    /// Refuses beams that together do not fit in `available` bytes (None: unknown).
    pub(crate) fn check_memory(&self, available: Option<u64>) -> Result<(), TuneError> {
        let states = self.states_at_once();
        let widest = self.beam_widths.iter().copied().max().unwrap_or(0);
        limits::check_memory(states, BYTES_PER_STATE, available).map_err(|source| {
            if states > widest {
                TuneError::ParallelMemory {
                    trials: self.parallel_trials,
                    states,
                    source,
                }
            } else {
                TuneError::Limit(source)
            }
        })
    }
}

impl Optimizer {
    fn check(&self) -> Result<(), TuneError> {
        if self.population == 0 {
            return Err(TuneError::Zero {
                option: "--population",
            });
        }
        if self.elite == 0 {
            return Err(TuneError::Zero { option: "--elite" });
        }
        if self.elite > self.population {
            return Err(TuneError::Elite {
                elite: self.elite,
                population: self.population,
            });
        }
        limits::check_finite("--spread", self.spread)?;
        if self.spread <= 0.0 {
            return Err(TuneError::Spread(self.spread));
        }
        Ok(())
    }
}

/// Everything a tuning run needs.
pub(crate) struct Settings {
    pub(crate) plan: Plan,
    pub(crate) inputs: Vec<TuneInput>,
    /// Reported beside the tuning scores, never tuned on.
    pub(crate) holdout: Option<TuneInput>,
    pub(crate) rules: Rules,
    /// The evaluation weights of the grid, where the optimizer starts.
    pub(crate) weights: Weights,
    pub(crate) policy: Policy,
    /// What a trial's fitness is, and what the beam answers when every line tops out.
    pub(crate) objective: Objective,
}

impl Settings {
    /// [`Plan::check`], and inputs to tune on, and finite starting weights.
    pub(crate) fn check(&self) -> Result<(), TuneError> {
        self.plan.check()?;
        if self.inputs.is_empty() {
            return Err(TuneError::NoInputs);
        }
        for (name, value) in Weights::NAMES.iter().zip(self.weights.to_vec()) {
            limits::check_finite(&format!("--weights: {name}"), value as f64)?;
        }
        Ok(())
    }
}

/// What a trial scores: the beam in a real run, something fast in a test.
pub(crate) type TrialFn<'f> = dyn Fn(&TrialParams) -> TrialScores + Sync + 'f;

/// What a run reports as it goes. The binary's progress bar keeps its own count, so only the
/// tests read the run's.
#[derive(Debug)]
#[cfg_attr(not(test), expect(dead_code))]
pub(crate) enum Progress<'a> {
    /// Trials of the run that the log already held, counted as done without running.
    Reused {
        trials: usize,
        done: usize,
        total: usize,
    },
    /// A trial ran; `best` is the best trial so far (the first row of [`Tuner::ranked`]).
    Finished {
        result: &'a TrialResult,
        best: &'a TrialResult,
        done: usize,
        total: usize,
    },
    /// A finished trial could not be appended to the log: it is still ranked, but a resumed
    /// run would run it again.
    NotLogged { error: &'a io::Error },
}

/// A tuning run: the trials done so far (taken from a log or run), keyed by their parameters.
pub(crate) struct Tuner<'s> {
    settings: &'s Settings,
    fingerprint: String,
    done: HashMap<String, TrialResult>,
    newline_first: bool,
}

impl<'s> Tuner<'s> {
    /// A run of `settings`, which are checked first.
    pub(crate) fn new(settings: &'s Settings) -> Result<Self, TuneError> {
        settings.check()?;
        Ok(Tuner {
            settings,
            fingerprint: inputs_fingerprint(
                &settings.inputs,
                settings.holdout.as_ref(),
                settings.rules,
                settings.objective,
            ),
            done: HashMap::new(),
            newline_first: false,
        })
    }

    /// Names what the trials run on (the log's `inputs` field), which its tests check the
    /// log against.
    #[cfg(test)]
    pub(crate) fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Takes the trials of `log` that ran on these inputs under these rules; the run skips
    /// them. Returns how many trials are known now.
    pub(crate) fn resume(&mut self, log: &TrialLog) -> usize {
        for r in log.trials.iter().filter(|r| r.inputs == self.fingerprint) {
            self.done.insert(r.params.key(), r.clone());
        }
        self.newline_first |= log.ends_mid_line;
        self.done.len()
    }

    /// The grid, then the optimizer, with every trial scored by the beam.
    pub(crate) fn run_beams(
        &mut self,
        log: &mut dyn Write,
        progress: &mut dyn FnMut(Progress),
    ) -> io::Result<()> {
        let settings = self.settings;
        let beam = |params: &TrialParams| {
            score_trial(
                params,
                &settings.inputs,
                settings.holdout.as_ref(),
                settings.rules,
                settings.objective,
            )
        };
        self.run(&beam, log, progress)
    }

    /// The grid, then the optimizer, with every trial not done yet scored by `trial` and
    /// appended to `log` as one JSON line. Fails only when the log cannot be written to at
    /// all; a trial that cannot be logged is reported as [`Progress::NotLogged`].
    pub(crate) fn run(
        &mut self,
        trial: &TrialFn,
        log: &mut dyn Write,
        progress: &mut dyn FnMut(Progress),
    ) -> io::Result<()> {
        if std::mem::take(&mut self.newline_first) {
            writeln!(log)?;
        }
        let settings = self.settings;
        let plan = &settings.plan;
        let mut count = Count {
            done: 0,
            total: plan.total_trials(),
        };
        let grid: Vec<TrialParams> = plan
            .beam_widths
            .iter()
            .flat_map(|&beam_width| {
                plan.score_weights
                    .iter()
                    .map(move |&score_weight| TrialParams {
                        beam_width,
                        score_weight,
                        weights: settings.weights.clone(),
                        policy: settings.policy.clone(),
                    })
            })
            .collect();
        let grid_results = self.run_batch(grid, "grid", trial, log, &mut count, progress);
        let objective = settings.objective;
        let best_grid = grid_results
            .iter()
            .min_by(|a, b| fitness_order(objective, a, b))
            .expect("a checked plan has at least one grid point")
            .params
            .clone();

        let optimizer = &plan.optimizer;
        if optimizer.generations == 0 {
            return Ok(());
        }
        let mut cem = CrossEntropy::new(
            &best_grid.weights,
            optimizer.free.clone(),
            optimizer.spread,
            optimizer.seed,
        );
        for g in 0..optimizer.generations {
            let batch: Vec<TrialParams> = cem
                .sample(optimizer.population)
                .into_iter()
                .map(|weights| TrialParams {
                    weights,
                    ..best_grid.clone()
                })
                .collect();
            let origin = format!("cem generation {}", g + 1);
            let mut results = self.run_batch(batch, &origin, trial, log, &mut count, progress);
            results.sort_by(|a, b| fitness_order(objective, a, b));
            let elite: Vec<Weights> = results
                .iter()
                .take(optimizer.elite)
                .map(|r| r.params.weights.clone())
                .collect();
            cem.update(&elite);
        }
        Ok(())
    }

    /// Runs the trials of `batch` not done yet, `parallel_trials` at a time, logging each as
    /// soon as its group is done (an interrupted run loses at most the trials in progress);
    /// returns the batch's results, in batch order.
    fn run_batch(
        &mut self,
        batch: Vec<TrialParams>,
        origin: &str,
        trial: &TrialFn,
        log: &mut dyn Write,
        count: &mut Count,
        progress: &mut dyn FnMut(Progress),
    ) -> Vec<TrialResult> {
        let todo: Vec<&TrialParams> = batch
            .iter()
            .filter(|p| !self.done.contains_key(&p.key()))
            .collect();
        let reused = batch.len() - todo.len();
        if reused > 0 {
            count.done += reused;
            progress(Progress::Reused {
                trials: reused,
                done: count.done,
                total: count.total,
            });
        }
        // Trials run on the global pool; each beam inside is parallel as well, so one trial
        // at a time already uses every core.
        for group in todo.chunks(self.settings.plan.parallel_trials) {
            let results: Vec<TrialResult> = group
                .par_iter()
                .map(|p| TrialResult::new(p, trial(p), origin, &self.fingerprint))
                .collect();
            for r in results {
                let line = serde_json::to_string(&r).expect("results serialize");
                if let Err(error) = writeln!(log, "{line}").and_then(|()| log.flush()) {
                    progress(Progress::NotLogged { error: &error });
                }
                let key = r.params.key();
                self.done.insert(key.clone(), r);
                count.done += 1;
                progress(Progress::Finished {
                    result: &self.done[&key],
                    best: self.best().expect("a trial is done"),
                    done: count.done,
                    total: count.total,
                });
            }
        }
        batch.iter().map(|p| self.done[&p.key()].clone()).collect()
    }

    /// Every trial known (run or taken from the log), best first; ties in parameter order,
    /// so that a resumed run ranks alike.
    pub(crate) fn ranked(&self) -> Vec<&TrialResult> {
        let mut ranked: Vec<&TrialResult> = self.done.values().collect();
        ranked.sort_by(|a, b| self.rank_order(a, b));
        ranked
    }

    fn best(&self) -> Option<&TrialResult> {
        self.done.values().min_by(|a, b| self.rank_order(a, b))
    }

    /// Best first by fitness, then in parameter order.
    fn rank_order(&self, a: &TrialResult, b: &TrialResult) -> Ordering {
        fitness_order(self.settings.objective, a, b)
            .then_with(|| a.params.key().cmp(&b.params.key()))
    }
}

/// Trials of a run done so far, out of all it asks for.
struct Count {
    done: usize,
    total: usize,
}

#[cfg(test)]
#[path = "driver_tests.rs"]
mod tests;
