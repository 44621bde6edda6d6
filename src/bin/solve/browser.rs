//! `solve --game browser`: the search, the record checked on the plain engine and printed,
//! and the summary.

use crate::shared::cli::{
    check_width, check_writable, read_policy, read_sequence, read_weights, stdout_failed, CliError,
    SearchOptions,
};
use crate::shared::progress::Progress;
use std::io::Write;
use std::path::Path;
use std::time::Instant;
use tetris_opt::games::browser::replay::{replay, JsonReport};
use tetris_opt::games::browser::search::{default_policy, default_weights, Params, DEFAULT_WIDTH};
use tetris_opt::games::tencent::search::DEFAULT_SCORE_WEIGHT;
use tetris_opt::limits;
use tetris_opt::search::{Objective, Width};
use tetris_opt::width::{Schedule, TimeBudget, WallClock};

/// What `solve --game browser` is asked to do.
pub struct SolveRun<'a> {
    pub sequence: &'a Path,
    /// The width asked for (`None`: the browser game's default).
    pub width: Option<usize>,
    /// The score weight, evaluation weights, threads and memory check every game shares.
    pub search: &'a SearchOptions,
    /// Finish within this many seconds (the width re-chosen as the search goes).
    pub time_budget: Option<f64>,
    pub max_width: usize,
    pub pieces: Option<usize>,
    pub quiet: bool,
    /// Seconds between progress lines where no bar draws.
    pub progress_every: f64,
    pub json: Option<&'a Path>,
}

/// Solves a browser-game sequence: the record on stdout (checked on the plain engine first),
/// a summary ending in `Score = N` on stderr.
pub fn solve(run: &SolveRun) -> Result<(), CliError> {
    let search = run.search;
    let width = run.width.unwrap_or(DEFAULT_WIDTH);
    check_width("--beam-width", width)?;
    if run.time_budget.is_some() {
        check_width("--max-beam-width", run.max_width)?;
    }
    search.check()?;
    if run.pieces == Some(0) {
        return Err(CliError::usage("--pieces must be at least 1"));
    }
    let widest = match run.time_budget {
        Some(_) => run.max_width.max(width),
        None => width,
    };
    search.check_memory(widest, limits::BYTES_PER_STATE)?;
    if let Some(path) = run.json {
        check_writable("--json", path)?;
    }
    let mut sequence = read_sequence(run.sequence)?;
    if let Some(n) = run.pieces {
        sequence.truncate(n);
    }
    let weights = match &search.eval.weights {
        Some(path) => read_weights(Some(path))?,
        None => default_weights(),
    };
    let policy = match &search.eval.policy {
        Some(path) => read_policy(Some(path))?,
        None => default_policy(),
    };
    let params = Params {
        score_weight: search.eval.score_weight.unwrap_or(DEFAULT_SCORE_WEIGHT),
        weights,
        policy,
        objective: search.objective_or(Objective::Score),
    };
    let beam = Width {
        beam_width: width,
        width_changes: Schedule::default(),
        time_budget: run.time_budget.map(|seconds| TimeBudget {
            seconds,
            max_width: run.max_width,
        }),
    };
    let pool = search.pool()?;
    if !run.quiet {
        search.print_estimate(widest, limits::BYTES_PER_STATE);
    }
    let began = Instant::now();
    let total = sequence.len() as u64;
    let mut progress = Progress::new("piece", Some(total), run.quiet, run.progress_every);
    let found = pool.install(|| {
        tetris_opt::games::browser::search::solve(
            &sequence,
            &params,
            &beam,
            &WallClock::start(),
            &mut |s| {
                if s.pieces.is_multiple_of(16) || s.pieces as u64 == total {
                    let message = format!("best {} beam {}", s.best_score, s.beam_size);
                    progress.update(s.pieces as u64, &message);
                }
            },
        )
    });
    progress.finish();
    let report = replay(&sequence, &found.record)
        .map_err(|e| CliError::internal(format!("the solver's record does not replay: {e}")))?;
    if report.points != found.points || report.pieces_placed != found.pieces {
        return Err(CliError::internal(format!(
            "the record scores {} with {} pieces on the plain engine, the search counted {} and {}",
            report.points, report.pieces_placed, found.points, found.pieces
        )));
    }
    let seconds = began.elapsed().as_secs_f64();
    std::io::stdout()
        .lock()
        .write_all(found.record.to_string().as_bytes())
        .map_err(|e| stdout_failed(e, "the record"))?;
    if let Some(path) = run.json {
        let summary = serde_json::json!({
            "game": "browser",
            "beam_width": width,
            "score_weight": params.score_weight,
            "seconds": seconds,
            "report": JsonReport::of(&report),
        });
        std::fs::write(path, format!("{summary}\n"))
            .map_err(|e| CliError::usage(format!("cannot write {}: {e}", path.display())))?;
    }
    if !run.quiet {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "beam width {width}, score weight {}: {:.1} s, {} states expanded",
            params.score_weight, seconds, found.stats.expanded
        );
        let _ = writeln!(err, "checked by the plain engine: record valid, same score");
        let _ = write!(err, "{}", report.summary());
    }
    Ok(())
}
