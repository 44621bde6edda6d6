//! The search options several games share, read and checked the same way by every binary.

use super::errors::CliError;
use super::limits;
use crate::say;
use std::path::{Path, PathBuf};
use tetris_search::Objective;

/// `--objective` as the binaries read it (the library's [`Objective`], which knows no command
/// line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ObjectiveArg {
    /// The line that banked the most points, wherever it ended.
    Score,
    /// The line that placed the most pieces, then the most points.
    Survive,
}

impl From<ObjectiveArg> for Objective {
    fn from(arg: ObjectiveArg) -> Objective {
        match arg {
            ObjectiveArg::Score => Objective::Score,
            ObjectiveArg::Survive => Objective::Survive,
        }
    }
}

/// Beams narrower than this run on one thread unless `--threads` says otherwise.
pub const NARROW_BEAM: usize = 256;

/// The largest `--score-weight`: a million times the default and more already ranks by points
/// alone.
pub const MAX_SCORE_WEIGHT: f64 = 1e6;

/// The ranking options of the games whose key is an evaluation of the board (the contest's,
/// the browser game's; the olympiad's takes `--weights` only): each game that takes them adds
/// them to its options, and the driver reads them whichever did ([`EvalOptions::read`]).
#[derive(clap::Args, Debug, Default)]
pub struct EvalOptions {
    /// How much one point scored lowers a state's key (key = evaluation - score * weight).
    /// Default: 0.024, and 0 for the contest's game under `--objective survive`.
    #[arg(long)]
    pub score_weight: Option<f64>,
    /// Evaluation weights as JSON (fields left out keep their defaults; the browser game's
    /// are weights/browser.json; the contest's under `--objective survive`,
    /// weights/contest-survive.json).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Beam policy as JSON (fields left out keep their defaults; under `--objective
    /// survive` the contest's search has no endgame).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
}

/// The beam options `solve` and `polish` share.
#[derive(clap::Args, Debug)]
pub struct SearchOptions {
    /// What the search is for: the most points (`score`), or the most pieces placed, then
    /// points (`survive`: the ranking keeps the stack safe and the answer is the line that
    /// went furthest). Default: `survive` for the olympiad's game, `score` for the others.
    #[arg(long, value_enum)]
    pub objective: Option<ObjectiveArg>,
    /// Worker threads (default: all cores, or one for a beam under 256 states; at most 4 per
    /// core). The record does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Search even where the beam's estimated memory exceeds this machine's.
    #[arg(long)]
    pub force: bool,
}

impl EvalOptions {
    /// The options as given, where the games of a command added them (an option no game
    /// added is absent).
    pub fn read(matches: &clap::ArgMatches) -> EvalOptions {
        let path = |id: &str| matches.try_get_one::<PathBuf>(id).ok().flatten().cloned();
        EvalOptions {
            score_weight: matches
                .try_get_one::<f64>("score_weight")
                .ok()
                .flatten()
                .copied(),
            weights: path("weights"),
            policy: path("policy"),
        }
    }

    /// The files these options read, for [`super::files::refuse_overwriting`].
    pub fn inputs(&self) -> [(&'static str, Option<&Path>); 2] {
        [
            ("weights file", self.weights.as_deref()),
            ("policy file", self.policy.as_deref()),
        ]
    }

    /// Refuses values no search can use (before any file is read).
    pub fn check(&self) -> Result<(), CliError> {
        if let Some(score_weight) = self.score_weight {
            limits::check_finite("--score-weight", score_weight)?;
            // A negative weight ranks points as a loss; past the bound, points alone rank and
            // the evaluation drowns in the key's rounding.
            if !(0.0..=MAX_SCORE_WEIGHT).contains(&score_weight) {
                return Err(CliError::usage(format!(
                    "--score-weight must be from 0 to {MAX_SCORE_WEIGHT:e}, not {score_weight}"
                )));
            }
        }
        Ok(())
    }
}

impl SearchOptions {
    /// Refuses values no search can use (before any file is read).
    pub fn check(&self) -> Result<(), CliError> {
        if let Some(threads) = self.threads {
            limits::check_threads(threads, limits::cores())?;
        }
        Ok(())
    }

    /// Refuses a beam of at most `widest` states that cannot fit in this machine's memory,
    /// unless `--force` was given: before the search, not after it has grown for an hour.
    pub fn check_memory(&self, widest: usize, per_state: u64) -> Result<(), CliError> {
        self.check_memory_with(widest, per_state, 0)
    }

    /// [`SearchOptions::check_memory`] of a run that also holds `input` bytes whatever its
    /// width (see [`limits::estimated_bytes_with`]).
    pub fn check_memory_with(
        &self,
        widest: usize,
        per_state: u64,
        input: u64,
    ) -> Result<(), CliError> {
        self.check_memory_capped(None, widest, per_state, input)
    }

    /// [`SearchOptions::check_memory_with`] where `cap` names the option whose value is the
    /// widest beam (`--max-beam-width` under a time budget), for the refusal to name it
    /// rather than the width asked for.
    pub fn check_memory_capped(
        &self,
        cap: Option<&str>,
        widest: usize,
        per_state: u64,
        input: u64,
    ) -> Result<(), CliError> {
        // A memory variable that is no amount is refused even with --force: it is a typo.
        let available = limits::machine_memory()?;
        if self.force {
            return Ok(());
        }
        let checked = limits::check_memory_with(widest, per_state, input, available);
        Ok(checked.map_err(|mut e| {
            if let limits::LimitError::OutOfMemory { cap: named, .. } = &mut e {
                *named = cap.map(str::to_string);
            }
            e
        })?)
    }

    /// Prints the peak memory a search of at most `widest` states is expected to take.
    pub fn print_estimate(&self, widest: usize, per_state: u64) {
        self.print_estimate_with(widest, per_state, 0);
    }

    /// [`SearchOptions::print_estimate`] of a run that also holds `input` bytes whatever its
    /// width.
    pub fn print_estimate_with(&self, widest: usize, per_state: u64, input: u64) {
        let available = limits::machine_memory().ok().flatten();
        say!(
            "{}",
            limits::describe_estimate_with(widest, per_state, input, available)
        );
    }

    /// The objective given, else `default` (the game's).
    pub fn objective_or(&self, default: Objective) -> Objective {
        self.objective.map_or(default, Objective::from)
    }

    /// The worker threads a search of at most `widest` states runs on: `--threads`, or all
    /// cores, except that a beam narrower than [`NARROW_BEAM`] runs on one (its depths are
    /// too small to share: at 50 states, 2 threads took 8-10 s where one took 7 s).
    pub fn pool(&self, widest: usize) -> Result<rayon::ThreadPool, CliError> {
        let narrow = widest < NARROW_BEAM;
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(if narrow { 1 } else { 0 }))
            .build()
            .map_err(|e| CliError::usage(format!("cannot start worker threads: {e}")))
    }
}

/// `check`'s pictures of a replay, for the games that draw them: each game adds those it
/// draws ([`super::registry::only`]), and reads them whichever did ([`Pictures::read`]).
#[derive(clap::Args, Debug, Default)]
pub struct Pictures {
    /// Print the board after each piece, the locked piece marked with '@'.
    #[arg(long)]
    pub trace: bool,
    /// Also write the replay as one self-contained HTML page (a viewer with playback, piece
    /// stepping and a score chart); an invalid record plays up to the piece it fails at.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
}

impl Pictures {
    /// The pictures asked for, where the games of a command added their options.
    pub fn read(matches: &clap::ArgMatches) -> Pictures {
        Pictures {
            trace: matches.try_get_one::<bool>("trace").ok().flatten() == Some(&true),
            html: matches
                .try_get_one::<PathBuf>("html")
                .ok()
                .flatten()
                .cloned(),
        }
    }
}
