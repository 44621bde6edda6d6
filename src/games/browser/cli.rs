//! What `check --game browser` prints (a summary ending in `Score = N`, or one JSON object)
//! and what `solve --game browser` does.

use super::replay::{check_text, replay, JsonReport, Report};
use super::search::{default_policy, default_weights, Params, DEFAULT_WIDTH};
use crate::cli::{
    check_width, check_writable, read_policy, read_sequence, read_text, read_weights,
    stdout_failed, CliError, SearchOptions,
};
use crate::limits;
use crate::progress::Progress;
use crate::search::Width;
use crate::width::{Schedule, TimeBudget, WallClock};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// What `check --game browser` is asked for.
pub struct CheckOptions<'a> {
    pub sequence: &'a Path,
    pub record: &'a Path,
    pub json: bool,
}

/// Replays a record and prints its report. Returns whether the record is valid (the caller
/// picks the exit code); an invalid record's report is its error and `Score = 0`.
pub fn check(options: &CheckOptions) -> Result<bool, CliError> {
    let sequence = read_sequence(options.sequence)?;
    // A record that cannot be read still gets the last line scripts read, with a zero.
    let text = read_text(options.record, "record file").inspect_err(|e| {
        let mut out = std::io::stdout().lock();
        let _ = if options.json {
            let json = serde_json::to_string(&JsonReport::invalid(e.message.clone()));
            writeln!(out, "{}", json.unwrap_or_default())
        } else {
            writeln!(out, "Score = 0")
        };
    })?;
    let result =
        check_text(&sequence, &text).map_err(|e| e.located(&options.record.display().to_string()));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let printed = match (&result, options.json) {
        (Ok(report), false) => write_summary(&mut out, report),
        (Err(message), false) => {
            writeln!(out, "error: {message}").and_then(|()| writeln!(out, "Score = 0"))
        }
        (_, true) => {
            let json = match &result {
                Ok(report) => JsonReport::of(report),
                Err(message) => JsonReport::invalid(message.clone()),
            };
            serde_json::to_string(&json)
                .map_err(std::io::Error::other)
                .and_then(|json| writeln!(out, "{json}"))
        }
    };
    printed
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failed(e, "the report"))?;
    Ok(result.is_ok())
}

fn write_summary(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    let [c1, c2, c3, c4] = report.clears;
    writeln!(out, "pieces placed: {}", report.pieces_placed)?;
    writeln!(
        out,
        "lines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4})",
        report.lines
    )?;
    writeln!(out, "level: {}", report.level)?;
    writeln!(out, "end: {}", report.end)?;
    writeln!(out, "Score = {}", report.points)
}

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
        score_weight: search.eval.score_weight,
        weights,
        policy,
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
        super::search::solve(&sequence, &params, &beam, &WallClock::start(), &mut |s| {
            if s.pieces.is_multiple_of(16) || s.pieces as u64 == total {
                let message = format!("best {} beam {}", s.best_score, s.beam_size);
                progress.update(s.pieces as u64, &message);
            }
        })
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
        let _ = write_summary(&mut err, &report);
    }
    Ok(())
}
