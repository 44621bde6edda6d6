//! `tune`: searches beam width, score weight and evaluation weights over a set of sequences.

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use tetris_opt::cli::{
    exit_with, read_policy, read_sequence, read_text, read_weights, CliError, RulesOptions,
};
use tetris_opt::eval::Weights;
use tetris_opt::sequence::{contest_sequence, CONTEST_SEED};
use tetris_opt::tune::{
    inputs_fingerprint, read_log, run_trial, CrossEntropy, TrialParams, TrialResult, TuneInput,
};

/// Tune the solver on generated sequences of the contest's distribution, reporting a held-out
/// sequence (by default the contest's own) beside them. Every trial is appended to the log as
/// one JSON line; a rerun with the same log skips trials already done.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Seeds of the contest generator to tune on (the contest seed 12358 is refused: it is the
    /// held-out figure).
    #[arg(long, value_delimiter = ',', default_value = "1,2,3")]
    seeds: Vec<u64>,
    /// Sequence files to tune on instead of generated seeds.
    #[arg(long, value_delimiter = ',')]
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
    /// Score weights of the grid.
    #[arg(long, value_delimiter = ',', default_value = "0.024")]
    score_weights: Vec<f64>,
    /// Starting evaluation weights (JSON; default: the shipped ones).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Beam policy (JSON; default: the shipped one).
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
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
    rules: RulesOptions,
    /// Trial log (JSON lines), appended to and resumed from.
    #[arg(long, default_value = "tune-log.jsonl")]
    log: PathBuf,
    /// Where the best weights go, in the form `solve --weights` reads.
    #[arg(long, default_value = "best-weights.json")]
    best_weights: PathBuf,
    /// Rows of the ranked table.
    #[arg(long, default_value_t = 10)]
    top: usize,
}

fn main() {
    let args = Args::parse();
    exit_with(run(&args));
}

fn run(args: &Args) -> Result<(), CliError> {
    if args.beam_widths.contains(&0) {
        return Err(CliError::usage("beam widths must be at least 1"));
    }
    if args.pieces == 0 || args.population == 0 || args.parallel_trials == 0 {
        return Err(CliError::usage(
            "--pieces, --population and --parallel-trials must be at least 1",
        ));
    }
    let mut inputs = Vec::new();
    if args.inputs.is_empty() {
        for &seed in &args.seeds {
            if seed % 32749 == CONTEST_SEED {
                return Err(CliError::usage(
                    "seed 12358 is the contest sequence, kept out of tuning as the holdout",
                ));
            }
            inputs.push(TuneInput {
                name: format!("seed {seed}"),
                pieces: contest_sequence(seed, args.pieces),
            });
        }
    } else {
        for path in &args.inputs {
            let mut pieces = read_sequence(path)?;
            pieces.truncate(args.pieces);
            inputs.push(TuneInput {
                name: path.display().to_string(),
                pieces,
            });
        }
    }
    if inputs.is_empty() {
        return Err(CliError::usage(
            "nothing to tune on: give --seeds or --inputs",
        ));
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
    let weights = read_weights(args.weights.as_deref())?;
    let policy = read_policy(args.policy.as_deref())?;
    let free: Vec<usize> = if args.free.is_empty() {
        (1..Weights::NAMES.len())
            .filter(|&i| !Weights::WINDOWS.contains(&Weights::NAMES[i]))
            .collect()
    } else {
        args.free
            .iter()
            .map(|n| {
                Weights::NAMES.iter().position(|m| m == n).ok_or_else(|| {
                    CliError::usage(format!(
                        "--free: unknown weight '{n}' (known: {})",
                        Weights::NAMES.join(", ")
                    ))
                })
            })
            .collect::<Result<_, _>>()?
    };

    let rules = args.rules.rules()?;
    let fingerprint = inputs_fingerprint(&inputs, holdout.as_ref(), rules);
    let mut done: HashMap<String, TrialResult> = HashMap::new();
    let mut needs_newline = false;
    if args.log.exists() {
        let text = read_text(&args.log, "trial log")?;
        let logged = read_log(&text);
        let total = logged.trials.len();
        for r in logged
            .trials
            .into_iter()
            .filter(|r| r.inputs == fingerprint)
        {
            done.insert(r.params.key(), r);
        }
        eprintln!(
            "resuming: {} of the {total} trials in {} ran on these inputs",
            done.len(),
            args.log.display()
        );
        if let Some(first) = logged.skipped.first() {
            // Said out loud: a log from a build with other weight fields would otherwise be
            // rerun from scratch without a word.
            eprintln!(
                "warning: {} line(s) of {} are not trials of this build and are ignored \
                 (line {first}: {})",
                logged.skipped.len(),
                args.log.display(),
                logged.first_error.as_deref().unwrap_or("")
            );
        }
        needs_newline = !text.is_empty() && !text.ends_with('\n');
    }
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.log)
        .map_err(|e| CliError::usage(format!("cannot open {}: {e}", args.log.display())))?;
    if needs_newline {
        // A run cut off mid-line: start the next trial on a line of its own, or it would be
        // glued to the cut one and lost too.
        writeln!(log).map_err(|e| log_write_error(&args.log, e))?;
    }

    let total =
        args.beam_widths.len() * args.score_weights.len() + args.generations * args.population;
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} trial {pos}/{len} {msg} [{elapsed_precise}]")
            .expect("valid template"),
    );

    // Runs a batch of trials (skipping logged ones), appends new results, returns all results.
    let mut run_batch = |batch: Vec<TrialParams>, origin: &str| -> Vec<TrialResult> {
        let todo: Vec<&TrialParams> = batch
            .iter()
            .filter(|p| !done.contains_key(&p.key()))
            .collect();
        bar.inc((batch.len() - todo.len()) as u64);
        // Trials run `parallel_trials` at a time on the global pool; each beam inside is
        // parallel as well, so one trial at a time already uses every core.
        for group in todo.chunks(args.parallel_trials) {
            let results: Vec<TrialResult> = group
                .par_iter()
                .map(|p| run_trial(p, &inputs, holdout.as_ref(), rules, origin, &fingerprint))
                .collect();
            // Logged as soon as they are done, so that an interrupted run loses at most the
            // trials in progress.
            for r in results {
                bar.inc(1);
                bar.set_message(format!("last mean {:.0}", r.mean_score));
                let line = serde_json::to_string(&r).expect("results serialize");
                if let Err(e) = writeln!(log, "{line}").and_then(|()| log.flush()) {
                    // The trial is done and still ranked below, but a resume would rerun it.
                    bar.println(format!(
                        "warning: {}",
                        log_write_error(&args.log, e).message
                    ));
                }
                done.insert(r.params.key(), r);
            }
        }
        batch.iter().map(|p| done[&p.key()].clone()).collect()
    };

    let grid: Vec<TrialParams> = args
        .beam_widths
        .iter()
        .flat_map(|&beam_width| {
            args.score_weights
                .iter()
                .map(move |&score_weight| (beam_width, score_weight))
        })
        .map(|(beam_width, score_weight)| TrialParams {
            beam_width,
            score_weight,
            weights: weights.clone(),
            policy: policy.clone(),
        })
        .collect();
    let grid_results = run_batch(grid, "grid");
    let best_grid = grid_results
        .iter()
        .max_by(|a, b| a.mean_score.total_cmp(&b.mean_score))
        .expect("the grid has at least one point")
        .params
        .clone();

    if args.generations > 0 {
        let mut cem = CrossEntropy::new(&best_grid.weights, free, args.spread, args.seed);
        for g in 0..args.generations {
            let batch: Vec<TrialParams> = cem
                .sample(args.population)
                .into_iter()
                .map(|w| TrialParams {
                    weights: w,
                    ..best_grid.clone()
                })
                .collect();
            let mut results = run_batch(batch, &format!("cem generation {}", g + 1));
            results.sort_by(|a, b| b.mean_score.total_cmp(&a.mean_score));
            let elite: Vec<Weights> = results
                .iter()
                .take(args.elite)
                .map(|r| r.params.weights.clone())
                .collect();
            cem.update(&elite);
        }
    }
    bar.finish_and_clear();

    let mut ranked: Vec<&TrialResult> = done.values().collect();
    ranked.sort_by(|a, b| {
        b.mean_score
            .total_cmp(&a.mean_score)
            .then_with(|| a.params.key().cmp(&b.params.key()))
    });
    let names: Vec<&str> = inputs.iter().map(|i| i.name.as_str()).collect();
    println!(
        "{:>4}  {:>7}  {:>8}  {:>10}  {:>10}  {:>7}  per input ({})",
        "rank",
        "beam",
        "score_w",
        "mean",
        "holdout",
        "wall s",
        names.join(", ")
    );
    for (i, r) in ranked.iter().take(args.top).enumerate() {
        let per: Vec<String> = r.scores.iter().map(u64::to_string).collect();
        println!(
            "{:>4}  {:>7}  {:>8.4}  {:>10.0}  {:>10}  {:>7.1}  {}",
            i + 1,
            r.params.beam_width,
            r.params.score_weight,
            r.mean_score,
            r.holdout.map_or("-".to_string(), |h| h.to_string()),
            r.wall_seconds,
            per.join(", ")
        );
    }
    if let Some(best) = ranked.first() {
        let json = serde_json::to_string_pretty(&best.params.weights).expect("weights serialize");
        std::fs::write(&args.best_weights, json + "\n").map_err(|e| {
            CliError::usage(format!("cannot write {}: {e}", args.best_weights.display()))
        })?;
        println!(
            "best weights written to {} (beam width {}, score weight {}, mean {:.0})",
            args.best_weights.display(),
            best.params.beam_width,
            best.params.score_weight,
            best.mean_score
        );
    }
    Ok(())
}

fn log_write_error(path: &Path, e: std::io::Error) -> CliError {
    CliError::usage(format!("cannot write to {}: {e}", path.display()))
}
