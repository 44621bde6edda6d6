//! `tune`: searches beam width, score weight and evaluation weights over a set of sequences (see
//! [`crate::games::contest::tune`]).

use super::options::{GameArg, RulesOptions};
use crate::cli::drivers::parse_command_line;
use crate::cli::limits;
use crate::cli::refuse_stdin_twice;
use crate::cli::registry::{only_game, Entry};
use crate::cli::{cannot_write, is_stdout, same_file, stdout_failed, write_file};
use crate::cli::{
    check_output, exit_code, read_policy, read_sequence, read_text, read_weights, CliError,
    ObjectiveArg,
};
use crate::games::contest::search::RankingParams;
use crate::games::contest::tune::{
    free_weights, not_a_log_line, read_log, seed_inputs, Optimizer, Plan, Progress, Settings,
    TrialLog, TrialResult, TuneError, TuneInput, Tuner,
};
use crate::say;
use crate::search::Objective;
use clap::Parser;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Tune the solver on generated sequences of the contest's distribution, reporting a held-out
/// sequence (by default the contest's own) beside them. Every trial is appended to the log as
/// one JSON line; a rerun with the same log skips trials already done. A trial's fitness is its
/// mean score, or with `--objective survive` its mean pieces placed, then its mean score (lift
/// the piece limit with `--piece-limit 0` and take a narrow beam, so that lines top out).
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Seeds of the contest generator to tune on (taken mod 32749). A seed whose sequence runs
    /// into the contest's is refused, since that is the held-out figure: the contest seed 12358
    /// and every seed on its cycle of 5458 generator states (about one in six: 3, 22063, ...).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
    seeds: Vec<u64>,
    /// Sequence files to tune on instead of generated seeds (so not with --seeds; each file
    /// once).
    #[arg(long, value_delimiter = ',', conflicts_with = "seeds")]
    inputs: Vec<PathBuf>,
    /// Held-out sequence reported beside the tuning scores; "none" for no holdout.
    #[arg(long, default_value = "inputs/tencent.txt")]
    holdout: String,
    /// Tune on the first N pieces of each sequence (and of the holdout).
    #[arg(long, default_value_t = 10_000)]
    pieces: usize,
    /// Beam widths of the grid.
    #[arg(long, value_delimiter = ',', default_value = "200")]
    beam_widths: Vec<usize>,
    /// Score weights of the grid (default: 0.024; surviving, 0).
    #[arg(long, value_delimiter = ',')]
    score_weights: Vec<f64>,
    /// Starting evaluation weights (JSON; default: the shipped ones for the objective,
    /// weights/default.json or weights/contest-survive.json).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Beam policy (JSON; default: the shipped one; surviving, no endgame).
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// What a trial is worth: its mean score, or the mean pieces placed, then the mean score.
    #[arg(long, value_enum, default_value_t = ObjectiveArg::Score)]
    objective: ObjectiveArg,
    /// After the grid, optimize the evaluation weights with the cross-entropy method for this
    /// many generations, at the best grid point.
    #[arg(long, default_value_t = 0)]
    generations: usize,
    /// Weight sets per generation.
    #[arg(long, default_value_t = 8)]
    population: usize,
    /// Weight sets kept to refit the distribution.
    #[arg(long, default_value_t = 3)]
    elite: usize,
    /// Initial spread, relative to each weight's magnitude.
    #[arg(long, default_value_t = 0.3)]
    spread: f64,
    /// Names of the weights the optimizer may change (default: all but `cells`, which sets the
    /// scale against the score weight, and the window sizes `top_rows`, `shallow_depth` and
    /// `near_i_pieces`).
    #[arg(long, value_delimiter = ',')]
    free: Vec<String>,
    /// Seed of the optimizer.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Trials run at once (each beam is parallel too).
    #[arg(long, default_value_t = 1)]
    parallel_trials: usize,
    /// With --judge every trial's score is a judge score; such trials are logged apart from
    /// strict ones.
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    rules: RulesOptions,
    /// Trial log (JSON lines), appended to and resumed from. Required, like --best-weights:
    /// a tool that writes files writes them where it is told, not into the current folder.
    #[arg(long, value_name = "FILE")]
    log: PathBuf,
    /// Where the best weights go, in the form `solve --weights` reads.
    #[arg(long, value_name = "FILE")]
    best_weights: PathBuf,
    /// Rows of the ranked table.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Tune even where the beams' estimated memory exceeds this machine's.
    #[arg(long)]
    force: bool,
}

/// `tune`'s `main`: the contest's game alone of `games`, the only one it plays.
pub fn tune_main(games: &[&dyn Entry]) -> std::process::ExitCode {
    let args: Args = parse_command_line(|c| GameArg::taking(c, games));
    exit_code(only_game(games, "contest", &args.game.game).and_then(|()| run(&args)))
}

fn run(args: &Args) -> Result<(), CliError> {
    let settings = settings(args)?;
    let logged = previous_log(&args.log)?;
    let mut tuner = Tuner::new(&settings).map_err(usage)?;
    if let Some(logged) = logged {
        resume(&mut tuner, &logged, &args.log);
    }
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.log)
        .map_err(|e| CliError::usage(format!("cannot open {}: {e}", args.log.display())))?;

    let mut report = Report::new(settings.plan.total_trials(), &args.log);
    tuner
        .run_beams(&mut log, &mut |p| report.progress(p))
        .map_err(|e| log_write_error(&args.log, e))?;
    report.progress.finish();

    let ranked = tuner.ranked();
    // The weights are the run's result: written before the table, so that a failing stdout
    // (a full disk, a closed pipe) costs the table, never the hours of trials behind them.
    if let Some(best) = ranked.first() {
        let json = serde_json::to_string_pretty(&best.params.weights).expect("weights serialize");
        write_file("--best-weights", &args.best_weights, json + "\n")?;
    }
    let mut out = std::io::stdout().lock();
    write_table(&mut out, &settings, &ranked, args.top)
        .and_then(|()| match ranked.first() {
            Some(best) => writeln!(
                out,
                "best weights written to {} (beam width {}, score weight {}, mean {:.0}, mean \
                 pieces {:.0})",
                args.best_weights.display(),
                best.params.beam_width,
                best.params.score_weight,
                best.mean_score,
                best.mean_pieces
            ),
            None => Ok(()),
        })
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failed(e, "the ranked trials"))
}

/// The tuner's settings: every argument checked before any file is read or any trial runs,
/// then the sequences, weights and policy read.
fn settings(args: &Args) -> Result<Settings, CliError> {
    // Every argument is checked before any file is read or any trial runs.
    let objective = Objective::from(args.objective);
    let defaults = RankingParams::default_for(objective);
    let score_weights = if args.score_weights.is_empty() {
        vec![defaults.score_weight]
    } else {
        args.score_weights.clone()
    };
    let plan = Plan {
        beam_widths: args.beam_widths.clone(),
        score_weights,
        optimizer: Optimizer {
            generations: args.generations,
            population: args.population,
            elite: args.elite,
            spread: args.spread,
            free: free_weights(&args.free).map_err(usage)?,
            seed: args.seed,
        },
        parallel_trials: args.parallel_trials,
    };
    plan.check().map_err(usage)?;
    if args.pieces == 0 {
        return Err(CliError::usage("--pieces must be at least 1"));
    }
    let rules = args.rules.rules()?;
    let seeds = if args.inputs.is_empty() {
        seed_inputs(&args.seeds, args.pieces).map_err(usage)?
    } else {
        Vec::new()
    };
    let available = limits::machine_memory()?;
    if !args.force {
        plan.check_memory(available).map_err(usage)?;
    }
    check_files(args)?;
    let (inputs, holdout) = read_inputs(args, seeds)?;
    Ok(Settings {
        plan,
        inputs,
        holdout,
        rules,
        weights: match &args.weights {
            Some(path) => read_weights(Some(path))?,
            None => defaults.weights,
        },
        policy: match &args.policy {
            Some(path) => read_policy(Some(path))?,
            None => defaults.policy,
        },
        objective,
    })
}

/// Refuses the files no run can use: standard input read twice, an input named twice, and a
/// trial log or best weights that would land on an input, on standard output or on each
/// other.
fn check_files(args: &Args) -> Result<(), CliError> {
    let holdout = Path::new(&args.holdout);
    let mut inputs: Vec<(&str, Option<&Path>)> = (args.inputs.iter())
        .map(|p| ("sequence file (--inputs)", Some(p.as_path())))
        .collect();
    inputs.extend([
        ("holdout sequence (--holdout)", Some(holdout)),
        ("weights file", args.weights.as_deref()),
        ("policy file", args.policy.as_deref()),
    ]);
    refuse_stdin_twice(&inputs)?;
    refuse_twice(&args.inputs)?;
    if is_stdout(&args.log) {
        return Err(CliError::usage(
            "--log -: the trial log must be a file, not standard output: a rerun reads it back \
             to resume",
        ));
    }
    check_output("--log", &args.log, &inputs)?;
    check_output("--best-weights", &args.best_weights, &inputs)?;
    if same_file(&args.log, &args.best_weights) {
        return Err(CliError::usage(format!(
            "--best-weights {} is the trial log (--log): the weights would replace it",
            args.best_weights.display()
        )));
    }
    Ok(())
}

/// The sequences to tune on (`seeds`, generated, then `--inputs`) and the holdout, each cut
/// to `--pieces`.
fn read_inputs(
    args: &Args,
    seeds: Vec<TuneInput>,
) -> Result<(Vec<TuneInput>, Option<TuneInput>), CliError> {
    let mut inputs = seeds;
    for path in &args.inputs {
        let mut pieces = read_sequence(path)?;
        pieces.truncate(args.pieces);
        inputs.push(TuneInput {
            name: path.display().to_string(),
            pieces,
        });
    }
    let holdout = if args.holdout == "none" {
        None
    } else {
        let mut pieces = read_sequence(Path::new(&args.holdout))?;
        pieces.truncate(args.pieces);
        Some(TuneInput {
            name: args.holdout.clone(),
            pieces,
        })
    };
    Ok((inputs, holdout))
}

/// The trials of the log a previous run wrote, if there is one. A file that is not a trial
/// log is refused: trials appended to a weights file or a record would spoil it.
fn previous_log(path: &Path) -> Result<Option<TrialLog>, CliError> {
    if !path.exists() {
        return Ok(None);
    }
    let text = read_text(path, "trial log")?;
    if let Some(line) = not_a_log_line(&text) {
        return Err(CliError::usage(format!(
            "--log {}: this file is not a trial log (its line {line} is not a trial): tune \
             appends only to a log it wrote, so give a new file or an earlier run's log",
            path.display()
        )));
    }
    Ok(Some(read_log(&text)))
}

/// Takes up the trials of an earlier run's log that ran on these inputs, saying how many.
fn resume(tuner: &mut Tuner, logged: &TrialLog, path: &Path) {
    let reused = tuner.resume(logged);
    say!(
        "resuming: {reused} of the {} trials in {} ran on these inputs",
        logged.trials.len(),
        path.display()
    );
    if let Some(first) = logged.skipped.first() {
        // Said out loud: a log from a build with other weight fields would otherwise be
        // rerun from scratch without a word.
        say!(
            "warning: {} line(s) of {} are not trials of this build and are ignored \
             (line {first}: {})",
            logged.skipped.len(),
            path.display(),
            logged.first_error.as_deref().unwrap_or("")
        );
    }
}

/// Refuses a sequence file given twice to `--inputs` (under any name): it would count twice
/// in every trial's mean.
fn refuse_twice(inputs: &[PathBuf]) -> Result<(), CliError> {
    for (i, a) in inputs.iter().enumerate() {
        if let Some(b) = inputs[i + 1..].iter().find(|b| same_file(a, b)) {
            return Err(CliError::usage(format!(
                "--inputs: {} is {} again: the same sequence would count twice",
                b.display(),
                a.display()
            )));
        }
    }
    Ok(())
}

fn usage(e: TuneError) -> CliError {
    CliError::usage(e.to_string())
}

/// Shows a run's progress, a step per trial.
struct Report<'a> {
    progress: crate::cli::progress::Progress,
    log: &'a Path,
}

impl<'a> Report<'a> {
    fn new(total: usize, log: &'a Path) -> Self {
        Report {
            progress: crate::cli::progress::Progress::new("trial", Some(total as u64), false, 0.0),
            log,
        }
    }

    fn progress(&mut self, progress: Progress) {
        match progress {
            Progress::Reused { trials, .. } => self.progress.skip(trials as u64),
            Progress::Finished {
                result, best, done, ..
            } => {
                let message = format!(
                    "{}; best mean {:.0}, {:.0} pieces ({}, beam {}, score weight {})",
                    describe(result),
                    best.mean_score,
                    best.mean_pieces,
                    best.origin,
                    best.params.beam_width,
                    best.params.score_weight,
                );
                self.progress.update(done as u64, &message);
            }
            Progress::NotLogged { error, .. } => {
                // The trial is done and still ranked below, but a resume would rerun it.
                let message = log_write_error(self.log, error).message;
                self.progress.note(&format!("warning: {message}"));
            }
        }
    }
}

/// A trial in a progress line: where it comes from, its parameters, its scores.
fn describe(r: &TrialResult) -> String {
    format!(
        "{}, beam {}, score weight {}: mean {:.0}, {:.0} pieces ({}), holdout {}, {:.1} s",
        r.origin,
        r.params.beam_width,
        r.params.score_weight,
        r.mean_score,
        r.mean_pieces,
        per_input(r),
        r.holdout.map_or("-".to_string(), |h| h.to_string()),
        r.wall_seconds
    )
}

fn write_table(
    out: &mut impl Write,
    settings: &Settings,
    ranked: &[&TrialResult],
    top: usize,
) -> std::io::Result<()> {
    let names: Vec<&str> = settings.inputs.iter().map(|i| i.name.as_str()).collect();
    writeln!(
        out,
        "{:>4}  {:>7}  {:>8}  {:>10}  {:>8}  {:>10}  {:>7}  per input ({})",
        "rank",
        "beam",
        "score_w",
        "mean",
        "pieces",
        "holdout",
        "wall s",
        names.join(", ")
    )?;
    for (i, r) in ranked.iter().take(top).enumerate() {
        writeln!(
            out,
            "{:>4}  {:>7}  {:>8.4}  {:>10.0}  {:>8.0}  {:>10}  {:>7.1}  {}",
            i + 1,
            r.params.beam_width,
            r.params.score_weight,
            r.mean_score,
            r.mean_pieces,
            r.holdout.map_or("-".to_string(), |h| h.to_string()),
            r.wall_seconds,
            per_input(r)
        )?;
    }
    Ok(())
}

/// A trial's score per input, each with its pieces placed where the log has them.
fn per_input(r: &TrialResult) -> String {
    let per: Vec<String> = r
        .scores
        .iter()
        .zip(r.pieces.iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(score, pieces)| match pieces {
            Some(pieces) => format!("{score} ({pieces})"),
            None => score.to_string(),
        })
        .collect();
    per.join(", ")
}

fn log_write_error(path: &Path, e: impl std::fmt::Display) -> CliError {
    cannot_write("--log", path, e)
}
