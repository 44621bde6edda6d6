//! The options several games share, read and checked the same way by every binary: the
//! search's, the evaluation's, `check`'s pictures, `gen`'s for the games played on a sequence
//! file, and the values of options that clap does not read by itself (durations and width
//! schedules).

use super::errors::CliError;
use super::limits;
use std::path::{Path, PathBuf};
use tetris_kit::piece::Kind;
use tetris_search::width::{Schedule, TimeBudget, MIN_BUDGET_SECONDS};
use tetris_search::{Objective, Width};

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
pub(crate) const NARROW_BEAM: usize = 256;

/// The largest `--score-weight`: a million times the default and more already ranks by points
/// alone.
pub(crate) const MAX_SCORE_WEIGHT: f64 = 1e6;

/// The ranking options of the games whose key is an evaluation of the board: each game that
/// takes them flattens this struct into its `solve` options (or [`WeightsFile`] alone, for a
/// game whose only ranking option is its weights), and hands what it took to the pipeline,
/// which checks them with the shared options.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct EvalOptions {
    /// How much one point scored lowers a state's key (key = evaluation - score * weight).
    /// Default: the game's (0.024 where it ranks by an evaluation and points alike, 0 where it
    /// ranks for survival).
    #[arg(long)]
    pub score_weight: Option<f64>,
    #[command(flatten)]
    pub weights: WeightsFile,
    /// Beam policy as JSON (fields left out keep their defaults; a search for survival has no
    /// endgame).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
}

/// `--weights`: the evaluation's weights file.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct WeightsFile {
    /// Evaluation weights as JSON (fields left out keep the game's defaults, its file in
    /// weights/).
    #[arg(long = "weights", id = "weights", value_name = "FILE")]
    pub path: Option<PathBuf>,
}

/// The beam options `solve` and `polish` share.
#[derive(clap::Args, Debug)]
pub struct SearchOptions {
    /// What the search is for: the most points (`score`), or the most pieces placed, then
    /// points (`survive`: the ranking keeps the stack safe and the answer is the line that
    /// went furthest). Default: `survive` for the olympiad's game, `score` for the others.
    #[arg(long, value_enum)]
    pub(crate) objective: Option<ObjectiveArg>,
    /// Worker threads (default: all cores, or one for a beam under 256 states; at most 4 per
    /// core). The record does not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Search even where the beam's estimated memory exceeds this machine's.
    #[arg(long)]
    pub(crate) force: bool,
}

/// The beam's width past its start (`--beam-width`), as `solve` and `polish` take it: a
/// wall-clock budget that re-chooses it, the budget's cap, or the changes that replay a
/// budgeted run without its clock.
#[derive(clap::Args, Debug)]
pub struct WidthOptions {
    /// Finish within this wall-clock time (seconds, or with a unit: 90s, 15m, 1.5h; at least
    /// 1s): the width is re-chosen every 250 pieces from the measured speed, sooner when the
    /// search runs late, down to 1. A warning says when even width 1 cannot end in time. The
    /// widths chosen are printed (and written to --json) as a schedule for --width-changes.
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub time_budget: Option<f64>,
    /// The widest beam --time-budget may choose (the memory this takes is printed before the
    /// search).
    #[arg(long, default_value_t = super::limits::DEFAULT_MAX_BEAM_WIDTH, requires = "time_budget")]
    pub(crate) max_beam_width: usize,
    /// Change the width at given depths: DEPTH:WIDTH,... (from depth DEPTH, 0-based, on; e.g.
    /// 50:180000,300:175000). Replays a --time-budget run's record exactly.
    #[arg(long, value_name = "SCHEDULE", conflicts_with = "time_budget", value_parser = parse_schedule)]
    pub(crate) width_changes: Option<Schedule>,
}

impl WidthOptions {
    /// Refuses values no search can use (before any file is read).
    pub fn check(&self) -> Result<(), CliError> {
        if let Some(seconds) = self.time_budget {
            limits::check_width("--max-beam-width", self.max_beam_width)?;
            if seconds < MIN_BUDGET_SECONDS {
                return Err(CliError::usage(format!(
                    "--time-budget {seconds}s is too short: the search needs at least \
                     {MIN_BUDGET_SECONDS} s to measure its own speed and choose a width from it \
                     (without a budget, --beam-width 1 is the fastest search)"
                )));
            }
        }
        for &(_, width) in self.width_changes.iter().flat_map(|s| &s.0) {
            limits::check_width("--width-changes", width)?;
        }
        Ok(())
    }

    /// The widths of a search of `depths` depths that starts at `beam_width`, and the widest
    /// it may hold (the budget's cap, else the widest scheduled).
    pub fn width(&self, beam_width: usize, depths: usize) -> Result<(Width, usize), CliError> {
        limits::check_width("--beam-width", beam_width)?;
        let changes = self.width_changes.clone().unwrap_or_default();
        // A change past the last depth would never happen: the schedule was meant for another
        // game or stretch.
        if let Some(&(depth, width)) = changes.0.iter().find(|&&(d, _)| d >= depths) {
            return Err(CliError::usage(format!(
                "--width-changes {depth}:{width}: depth {depth} is past the last of the {depths} \
                 depths this search has (depths count from 0 at the first piece searched)"
            )));
        }
        let widest = self.widest(beam_width);
        let width = Width {
            beam_width,
            width_changes: changes,
            time_budget: self.time_budget.map(|seconds| TimeBudget {
                seconds,
                max_width: self.max_beam_width,
            }),
        };
        Ok((width, widest))
    }

    /// The widest beam a search that starts at `beam_width` may hold: the budget's cap, else
    /// the widest scheduled.
    pub fn widest(&self, beam_width: usize) -> usize {
        let scheduled = self.width_changes.iter().flat_map(|s| &s.0);
        match self.time_budget {
            Some(_) => self.max_beam_width.max(beam_width),
            None => scheduled.map(|&(_, w)| w).fold(beam_width, usize::max),
        }
    }

    /// The option a refusal of `widest` states for want of memory names: under a time budget
    /// whose cap is the widest beam, `--max-beam-width`, not the width asked for.
    pub fn cap(&self, widest: usize) -> Option<&'static str> {
        (self.time_budget.is_some() && widest == self.max_beam_width).then_some("--max-beam-width")
    }
}

impl EvalOptions {
    /// The files these options read, for [`super::files::refuse_overwriting`].
    pub fn inputs(&self) -> [(&'static str, Option<&Path>); 2] {
        [
            ("weights file", self.weights.path.as_deref()),
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

    /// Refuses a beam of at most `widest` states, in a run that also holds `input` bytes
    /// whatever its width (see [`limits::estimated_bytes_with`]), that cannot fit in this
    /// machine's memory, unless `--force` was given: before the search, not after it has
    /// grown for an hour. `cap` names the option whose value is the widest beam
    /// (`--max-beam-width` under a time budget), for the refusal to name it rather than the
    /// width asked for.
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
    pub(crate) fn print_estimate_with(&self, widest: usize, per_state: u64, input: u64) {
        let available = limits::machine_memory().ok().flatten();
        let estimate = limits::describe_estimate_with(widest, per_state, input, available);
        super::errors::say(format_args!("{estimate}"));
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

/// `check`'s pictures of a replay, for the games that draw a board after each piece; a game
/// that draws only the page flattens [`HtmlPage`] alone.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Pictures {
    /// Print the board after each piece, the locked piece marked with '@'.
    #[arg(long)]
    pub trace: bool,
    #[command(flatten)]
    pub html: HtmlPage,
}

/// `--html`: the replay as a page.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct HtmlPage {
    /// Also write the replay as one self-contained HTML page (a viewer with playback, piece
    /// stepping and a score chart; the contest's adds the fill at each lock against the fluid
    /// model's optimal play); an invalid record plays up to the piece it fails at.
    #[arg(long = "html", id = "html", value_name = "OUT.html")]
    pub path: Option<PathBuf>,
}

/// `gen`'s options of the games played on a sequence file: which sequence to draw. Games
/// share them (each flattens this struct), so the seed's default is each game's, given to
/// [`GenArgs::read`].
#[derive(clap::Args, Clone, Debug)]
pub struct GenArgs {
    /// Seed of the generator (default: the game's own; the file's first line names the seed).
    #[arg(long)]
    seed: Option<u64>,
    /// Number of pieces.
    #[arg(long, default_value_t = 10_000)]
    count: usize,
}

/// `gen`'s options as a game reads them: the seed given, or the game's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    pub seed: u64,
    pub count: usize,
}

/// A hundred million pieces is a 100 MB file; more is surely a typo.
const MAX_COUNT: usize = 100_000_000;

impl GenArgs {
    /// The options as given, `default_seed` where no seed is; a count no file should hold is
    /// refused.
    pub fn read(&self, default_seed: u64) -> Result<GenOptions, CliError> {
        let options = GenOptions {
            seed: self.seed.unwrap_or(default_seed),
            count: self.count,
        };
        if options.count == 0 {
            return Err(CliError::usage("--count must be at least 1"));
        }
        if options.count > MAX_COUNT {
            return Err(CliError::usage(format!(
                "--count must be at most {MAX_COUNT}"
            )));
        }
        Ok(options)
    }
}

impl GenOptions {
    /// The sequence file of `pieces`, its first line a comment naming the command that makes
    /// it again (`gen ` and `how`).
    pub fn file(pieces: &[Kind], how: &str) -> String {
        tetris_kit::sequence::format_sequence(pieces, Some(&format!("gen {how}")))
    }
}

// The values of options that clap does not read by itself.

/// A schedule of at least one change: an empty one is surely a mistake (a variable that was
/// not set, say), not a request for the plain width.
pub(crate) fn parse_schedule(text: &str) -> Result<Schedule, String> {
    let schedule: Schedule = text.parse().map_err(|e| format!("{e}"))?;
    if schedule.0.is_empty() {
        return Err(
            "no width change given (DEPTH:WIDTH,...; leave the option out for none)".into(),
        );
    }
    Ok(schedule)
}

/// Seconds from `90`, `90s`, `15m` or `1.5h`.
pub(crate) fn parse_duration(text: &str) -> Result<f64, String> {
    parse_time(text, false)
}

/// [`parse_duration`] that also takes 0.
pub fn parse_interval(text: &str) -> Result<f64, String> {
    parse_time(text, true)
}

fn parse_time(text: &str, zero: bool) -> Result<f64, String> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().last() {
        Some((i, 's')) => (&text[..i], 1.0),
        Some((i, 'm')) => (&text[..i], 60.0),
        Some((i, 'h')) => (&text[..i], 3600.0),
        _ => (text, 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && (n > 0.0 || zero && n == 0.0) => Ok(n * unit),
        _ => Err(format!(
            "{text:?} is not a {} time (seconds, or e.g. 90s, 15m, 1.5h)",
            if zero { "non-negative" } else { "positive" }
        )),
    }
}
