//! `solve`: finds a high-scoring move record for a piece sequence.

use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use tetris_opt::cli::{exit_with, read_policy, read_sequence, read_weights, CliError};
use tetris_opt::replay::ReplayOptions;
use tetris_opt::rules::DEFAULT_PIECE_LIMIT;
use tetris_opt::search::{beam_search, pieces_to_place, Params};
use tetris_opt::solve::{record_for, verify};

/// Search a move record for a piece sequence; prints the record (one line, comma-separated) on
/// stdout and a summary ending in `Score = N` on stderr.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Piece sequence file (e.g. inputs/tencent.txt).
    input: PathBuf,
    /// States kept at each depth of the beam (the default solves the contest sequence in
    /// about two minutes on 2 cores).
    #[arg(long, default_value_t = 20_000)]
    beam_width: usize,
    /// How much one point scored lowers a state's key (key = evaluation - score * weight).
    #[arg(long, default_value_t = 0.024)]
    score_weight: f64,
    /// Evaluation weights as JSON (fields left out keep their defaults).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Beam policy as JSON (fields left out keep their defaults).
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Worker threads (default: all cores). The record does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Solve only the first N pieces.
    #[arg(long)]
    pieces: Option<usize>,
    /// The piece whose number reaches this limit scores nothing and ends the game; 0 = no limit.
    #[arg(long, default_value_t = DEFAULT_PIECE_LIMIT)]
    piece_limit: usize,
    /// Play by the contest web replay's rules: also lock pieces in mid-air where that clears
    /// rows. The record then passes `check --judge` but not strict `check`.
    #[arg(long)]
    judge: bool,
    /// Also write a JSON summary (score, lines, timings, parameters) to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(long)]
    quiet: bool,
}

/// Far above any useful beam (10 million states need several GiB per depth); larger values are
/// surely typos.
const MAX_BEAM_WIDTH: usize = 10_000_000;

fn main() {
    let args = Args::parse();
    exit_with(run(&args));
}

fn run(args: &Args) -> Result<(), CliError> {
    if args.beam_width == 0 {
        return Err(CliError::usage("--beam-width must be at least 1"));
    }
    if args.beam_width > MAX_BEAM_WIDTH {
        return Err(CliError::usage(format!(
            "--beam-width must be at most {MAX_BEAM_WIDTH}"
        )));
    }
    if args.piece_limit == 1 {
        return Err(CliError::usage(
            "--piece-limit 1 leaves no piece that can score (use 0 for no limit)",
        ));
    }
    if !args.score_weight.is_finite() {
        return Err(CliError::usage("--score-weight must be a finite number"));
    }
    if args.threads == Some(0) {
        return Err(CliError::usage("--threads must be at least 1"));
    }
    let mut sequence = read_sequence(&args.input)?;
    if let Some(n) = args.pieces {
        if n == 0 {
            return Err(CliError::usage("--pieces must be at least 1"));
        }
        sequence.truncate(n);
    }
    let weights = read_weights(args.weights.as_deref())?;
    let policy = read_policy(args.policy.as_deref())?;
    let params = Params {
        beam_width: args.beam_width,
        score_weight: args.score_weight,
        weights,
        policy,
        piece_limit: args.piece_limit,
        judge: args.judge,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::usage(format!("cannot start worker threads: {e}")))?;

    let total = pieces_to_place(sequence.len(), args.piece_limit);
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} piece {pos}/{len} {msg} [{elapsed_precise} < {eta_precise}]",
            )
            .expect("valid template"),
        );
        bar
    };
    let start = Instant::now();
    let solution = pool.install(|| {
        beam_search(&sequence, &params, &mut |s| {
            if s.pieces % 16 == 0 || s.pieces == total {
                let rate = s.placements as f64 / start.elapsed().as_secs_f64().max(1e-9);
                bar.set_position(s.pieces as u64);
                bar.set_message(format!(
                    "best {} beam {} {:.1}M placements/s",
                    s.best_score,
                    s.beam_size,
                    rate / 1e6
                ));
            }
        })
    });
    bar.finish_and_clear();
    let search_time = start.elapsed();

    let record = record_for(
        &sequence,
        &solution.placements,
        args.piece_limit,
        args.judge,
    )
    .map_err(|e| CliError::usage(format!("internal error: {e}")))?;
    let options = ReplayOptions {
        judge: args.judge,
        piece_limit: args.piece_limit,
    };
    let report = verify(&sequence, &record, solution.score, options).map_err(CliError::internal)?;

    let mut out = std::io::stdout().lock();
    writeln!(out, "{record}")
        .and_then(|()| out.flush())
        .map_err(|e| CliError::usage(format!("cannot write the record: {e}")))?;

    let wall = start.elapsed();
    if let Some(path) = &args.json {
        let summary = serde_json::json!({
            "score": report.score,
            "pieces_locked": report.pieces_locked,
            "lines": report.lines,
            "clears": report.clears,
            "beam_width": args.beam_width,
            "score_weight": args.score_weight,
            "judge": args.judge,
            "weights": params.weights,
            "policy": params.policy,
            "search_seconds": search_time.as_secs_f64(),
            "wall_seconds": wall.as_secs_f64(),
            "expanded": solution.stats.expanded,
            "placements": solution.stats.placements,
            "phase_seconds": solution.stats.seconds,
            "peak_memory_mib": peak_memory_mib(),
        });
        std::fs::write(path, format!("{summary:#}\n"))
            .map_err(|e| CliError::usage(format!("cannot write {}: {e}", path.display())))?;
    }
    if !args.quiet {
        let [c1, c2, c3, c4] = report.clears;
        eprintln!(
            "pieces locked: {}, lines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4})",
            report.pieces_locked, report.lines
        );
        eprintln!(
            "beam width {}, score weight {}: {:.1} s, {} states expanded ({:.2} us each), {} placements",
            args.beam_width,
            args.score_weight,
            search_time.as_secs_f64(),
            solution.stats.expanded,
            search_time.as_secs_f64() * 1e6 / solution.stats.expanded.max(1) as f64,
            solution.stats.placements
        );
        let phases = solution.stats.seconds;
        eprintln!(
            "search phases: expand {:.2} s, select {:.2} s, advance {:.2} s",
            phases.expand, phases.select, phases.advance
        );
        if let Some(mib) = peak_memory_mib() {
            eprintln!("peak memory: {mib:.0} MiB");
        }
        let mode = if args.judge { "judge" } else { "strict" };
        eprintln!("checked by the rules engine ({mode}): record valid, same score");
        eprintln!("Score = {}", report.score);
    }
    Ok(())
}

/// Peak resident memory of this process (Linux: VmHWM in /proc/self/status), for the summary.
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
