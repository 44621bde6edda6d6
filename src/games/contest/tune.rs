//! Parameter tuning: trials of the beam search over a set of sequences, a log of every trial as
//! JSON lines (resumable, readable by any plotting tool), and a seeded cross-entropy optimizer
//! for the evaluation weights.
//!
//! Tuning runs on generated sequences of the contest's distribution; the contest sequence itself
//! is only reported as a held-out figure, so the shipped defaults are not fitted to it. Seeds
//! whose sequence runs into the contest's are refused ([`ContestStates`]). A trial's fitness
//! follows the [`Objective`]: the mean score, or the mean pieces placed, then the mean score
//! ([`fitness_order`]). The run itself (the settings, resume, grid and optimizer) is in
//! [`driver`].

mod driver;
mod seeds;

pub(crate) use driver::{Optimizer, Plan, Progress, Settings, TuneError, Tuner};
use seeds::GENERATOR_MODULUS;
pub(crate) use seeds::{seed_inputs, ContestOverlap};

use crate::games::contest::rules::{Kind, Rules};
use crate::games::contest::search::{beam_search, Params, RankingParams};
use crate::kit::eval::Weights;
use crate::kit::policy::Policy;
use crate::kit::sequence::SplitMix64;
use crate::search::{Objective, Options, Width};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::time::Instant;

/// One point of the parameter space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TrialParams {
    pub(crate) beam_width: usize,
    pub(crate) score_weight: f64,
    pub(crate) weights: Weights,
    pub(crate) policy: Policy,
}

impl TrialParams {
    /// A stable text key: trials with equal keys are the same trial (used to resume).
    pub(crate) fn key(&self) -> String {
        serde_json::to_string(self).expect("parameters serialize")
    }
}

/// A finished trial, one line of the log.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct TrialResult {
    pub(crate) params: TrialParams,
    /// Score per tuning input, in input order.
    pub(crate) scores: Vec<u64>,
    pub(crate) mean_score: f64,
    /// Pieces placed per tuning input, in input order (absent from logs older than survival
    /// tuning).
    #[serde(default)]
    pub(crate) pieces: Vec<usize>,
    #[serde(default)]
    pub(crate) mean_pieces: f64,
    /// Score on the held-out input, when one was given.
    pub(crate) holdout: Option<u64>,
    pub(crate) wall_seconds: f64,
    /// Free-form label: "grid", "cem generation 3", ...
    pub(crate) origin: String,
    /// What the trial ran on (see [`inputs_fingerprint`]); a resumed run only reuses trials
    /// with the same fingerprint.
    #[serde(default)]
    pub(crate) inputs: String,
}

/// Names the tuning inputs, holdout, rules (piece limit, judge or strict) and objective, with a
/// hash of the pieces, so that trials on other data, under other rules or answering for
/// another objective are never mixed into a ranking.
pub(crate) fn inputs_fingerprint(
    inputs: &[TuneInput],
    holdout: Option<&TuneInput>,
    rules: Rules,
    objective: Objective,
) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut names = Vec::new();
    for input in inputs.iter().chain(holdout) {
        names.push(format!("{}:{}", input.name, input.pieces.len()));
        for k in &input.pieces {
            // FNV-1a over the piece letters.
            h = (h ^ k.letter() as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    // Strict trials for points keep the fingerprint they had before judge and survival tuning
    // existed, so old logs still resume.
    format!(
        "v1 {} holdout={} limit={} pieces={h:016x}{}{}",
        names.join(","),
        holdout.map_or("none", |h| h.name.as_str()),
        rules.piece_limit,
        if rules.locks_in_mid_air() {
            " judge"
        } else {
            ""
        },
        match objective {
            Objective::Score => "",
            Objective::Survive => " survive",
        }
    )
}

/// Orders trials best first by their fitness under `objective`: the mean score, or the mean
/// pieces placed, then the mean score.
pub(crate) fn fitness_order(objective: Objective, a: &TrialResult, b: &TrialResult) -> Ordering {
    let by_score = b.mean_score.total_cmp(&a.mean_score);
    match objective {
        Objective::Score => by_score,
        Objective::Survive => b.mean_pieces.total_cmp(&a.mean_pieces).then(by_score),
    }
}

/// A named sequence to tune on.
pub(crate) struct TuneInput {
    pub(crate) name: String,
    pub(crate) pieces: Vec<Kind>,
}

impl TrialResult {
    /// The log line of a trial that scored `scores`.
    pub(crate) fn new(
        params: &TrialParams,
        scores: TrialScores,
        origin: &str,
        fingerprint: &str,
    ) -> Self {
        let n = scores.scores.len().max(1) as f64;
        TrialResult {
            params: params.clone(),
            mean_score: scores.scores.iter().sum::<u64>() as f64 / n,
            mean_pieces: scores.pieces.iter().sum::<usize>() as f64 / n,
            scores: scores.scores,
            pieces: scores.pieces,
            holdout: scores.holdout,
            wall_seconds: scores.wall_seconds,
            origin: origin.to_string(),
            inputs: fingerprint.to_string(),
        }
    }
}

/// What a trial scored, before the bookkeeping (mean, origin, fingerprint) that makes it a
/// [`TrialResult`]: the answer of a [`TrialFn`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TrialScores {
    /// Score per tuning input, in input order.
    pub(crate) scores: Vec<u64>,
    /// Pieces placed per tuning input, in input order.
    pub(crate) pieces: Vec<usize>,
    pub(crate) holdout: Option<u64>,
    pub(crate) wall_seconds: f64,
}

/// Runs one trial: the beam on every input (and the holdout), in turn; each beam is parallel.
/// Under judge `rules` the beam also places mid-air clearing locks and the scores are judge
/// scores. The beam answers for `objective` where every line tops out: surviving, with the
/// line that placed the most pieces.
pub(crate) fn score_trial(
    params: &TrialParams,
    inputs: &[TuneInput],
    holdout: Option<&TuneInput>,
    rules: Rules,
    objective: Objective,
) -> TrialScores {
    let start = Instant::now();
    let width = Width::fixed(params.beam_width);
    let beam = Params {
        ranking: RankingParams {
            score_weight: params.score_weight,
            weights: params.weights.clone(),
            policy: params.policy.clone(),
        },
        rules,
        start: Default::default(),
        objective,
    };
    let solve = |input: &TuneInput| beam_search(&input.pieces, &beam, Options::new(&width));
    let (scores, pieces) = inputs
        .iter()
        .map(|input| {
            let solution = solve(input);
            (solution.score, solution.placements.len())
        })
        .unzip();
    let holdout = holdout.map(|input| solve(input).score);
    TrialScores {
        scores,
        pieces,
        holdout,
        wall_seconds: start.elapsed().as_secs_f64(),
    }
}

/// The cross-entropy method over the weight vector: sample a population from independent
/// normals, keep the elite, refit mean and spread. Seeded, so a run is reproducible.
pub(crate) struct CrossEntropy {
    pub(crate) mean: Vec<f64>,
    pub(crate) sigma: Vec<f64>,
    rng: SplitMix64,
    /// Indices of the weights that are searched; the others stay at their mean.
    pub(crate) free: Vec<usize>,
}

impl CrossEntropy {
    pub(crate) fn new(start: &Weights, free: Vec<usize>, spread: f64, seed: u64) -> Self {
        let mean: Vec<f64> = start.to_vec().iter().map(|&v| v as f64).collect();
        // Capped so that a sample is never infinity times zero (NaN), whatever the spread.
        let sigma = mean
            .iter()
            .map(|m| (spread * m.abs().max(0.25)).min(f64::MAX))
            .collect();
        CrossEntropy {
            mean,
            sigma,
            rng: SplitMix64::new(seed),
            free,
        }
    }

    fn normal(&mut self) -> f64 {
        // Box-Muller from two uniforms; the first is kept away from 0 for the logarithm.
        let u1 = self.rng.unit().max(1e-12);
        let u2 = self.rng.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A new population of weight sets.
    pub(crate) fn sample(&mut self, population: usize) -> Vec<Weights> {
        (0..population)
            .map(|_| {
                let mut v: Vec<f32> = self.mean.iter().map(|&m| m as f32).collect();
                for &i in &self.free.clone() {
                    let x = self.mean[i] + self.sigma[i] * self.normal();
                    // A sample past f32's range would be an infinite weight, logged as null:
                    // a trial that never resumes.
                    v[i] = x.clamp(f32::MIN as f64, f32::MAX as f64) as f32;
                }
                Weights::from_slice(&v)
            })
            .collect()
    }

    /// Refits mean and spread to the elite (best first); keeps a floor on the spread so the
    /// search does not collapse on noise.
    pub(crate) fn update(&mut self, elite: &[Weights]) {
        if elite.is_empty() {
            return;
        }
        let n = elite.len() as f64;
        let vs: Vec<Vec<f32>> = elite.iter().map(Weights::to_vec).collect();
        for &i in &self.free {
            let m = vs.iter().map(|v| v[i] as f64).sum::<f64>() / n;
            let var = vs.iter().map(|v| (v[i] as f64 - m).powi(2)).sum::<f64>() / n;
            self.mean[i] = m;
            self.sigma[i] = var.sqrt().max(0.02 * m.abs().max(0.1));
        }
    }
}

/// A trial log as read back: the trials, and the lines that are not trials of this build.
#[derive(Debug, Default)]
pub(crate) struct TrialLog {
    pub(crate) trials: Vec<TrialResult>,
    /// Line numbers (1-based) that did not parse, with the first one's error. A run cut off
    /// mid-line leaves one; a log written by a build with other weights leaves many.
    pub(crate) skipped: Vec<usize>,
    pub(crate) first_error: Option<String>,
    /// The text ends without a newline (a run cut off mid-line): the next trial must start a
    /// line of its own, or it would be glued to the cut one and lost too.
    pub(crate) ends_mid_line: bool,
}

/// How every line of a trial log starts: a [`TrialResult`] as one JSON object, its
/// parameters first (by any build, whatever its weights).
pub(crate) const LOG_LINE_START: &str = "{\"params\":";

/// The number of the first line of `text` that is not blank, where it is not the start of a
/// trial's line: `text` is then not a trial log (a weights file, a record) and appending
/// trials to it would spoil it. `None` for a log, or a file with nothing in it yet.
pub(crate) fn not_a_log_line(text: &str) -> Option<usize> {
    let (i, line) = text
        .lines()
        .enumerate()
        .find(|(_, line)| !line.trim().is_empty())?;
    (!line.starts_with(LOG_LINE_START)).then_some(i + 1)
}

/// Reads a trial log. Lines that do not parse are skipped and counted (blank lines are not
/// counted), so the caller can say so instead of silently rerunning trials.
pub(crate) fn read_log(text: &str) -> TrialLog {
    let mut log = TrialLog {
        ends_mid_line: !text.is_empty() && !text.ends_with('\n'),
        ..TrialLog::default()
    };
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(r) => log.trials.push(r),
            Err(e) => {
                log.skipped.push(i + 1);
                log.first_error.get_or_insert_with(|| e.to_string());
            }
        }
    }
    log
}

/// The indices of the weights named `names` (by [`Weights::NAMES`]); no names: every weight
/// but `cells`, which sets the scale against the score weight, and the window sizes.
pub(crate) fn free_weights(names: &[String]) -> Result<Vec<usize>, TuneError> {
    if names.is_empty() {
        return Ok((1..Weights::NAMES.len())
            .filter(|&i| !Weights::WINDOWS.contains(&Weights::NAMES[i]))
            .collect());
    }
    names
        .iter()
        .map(|name| {
            Weights::NAMES
                .iter()
                .position(|known| known == name)
                .ok_or_else(|| TuneError::UnknownWeight { name: name.clone() })
        })
        .collect()
}

#[cfg(test)]
#[path = "tune_tests.rs"]
mod tests;
