//! `solve --game browser`: the search, the record checked on the plain engine and printed,
//! and the summary.

use crate::sequence::{write_json, Prepared, RecordOut, SolveRun};
use crate::shared::cli::{read_policy, read_weights, CliError};
use crate::shared::progress::Progress;
use std::io::Write;
use std::time::Instant;
use tetris_opt::games::browser::record::{Record, HEADER};
use tetris_opt::games::browser::replay::{JsonReport, Replayer};
use tetris_opt::games::browser::search::{default_policy, default_weights, Params, DEFAULT_WIDTH};
use tetris_opt::games::tencent::search::DEFAULT_SCORE_WEIGHT;
use tetris_opt::search::limits;
use tetris_opt::search::width::WallClock;
use tetris_opt::search::Objective;

/// Solves a browser-game sequence: the record on stdout (checked on the plain engine first),
/// a summary ending in `Score = N` on stderr.
pub fn solve(run: &SolveRun) -> Result<(), CliError> {
    let search = run.search;
    let Prepared {
        sequence,
        width,
        widest,
        beam,
    } = run.prepare(DEFAULT_WIDTH)?;
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
    let pool = search.pool(widest)?;
    if !run.quiet {
        search.print_estimate(widest, limits::BYTES_PER_STATE);
    }
    let began = Instant::now();
    let total = sequence.len() as u64;
    let mut progress = Progress::new("piece", Some(total), run.quiet, run.progress_every);
    let mut out = RecordOut::new(HEADER);
    let mut replayer = Replayer::new(&sequence);
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
            &mut |pieces| {
                for tokens in pieces {
                    let replay = |line| replayer.piece(tokens, line).map(|_| ());
                    out.piece(replay, Record::line(tokens));
                }
            },
            tetris_opt::search::Processes::One,
        )
    });
    progress.finish();
    out.finish()?;
    let report = replayer.finish();
    if report.points != found.points || report.pieces_placed != found.pieces {
        return Err(CliError::internal(format!(
            "the record scores {} with {} pieces on the plain engine, the search counted {} and {}",
            report.points, report.pieces_placed, found.points, found.pieces
        )));
    }
    let seconds = began.elapsed().as_secs_f64();
    if let Some(path) = run.json {
        let summary = serde_json::json!({
            "game": "browser",
            "beam_width": width,
            "score_weight": params.score_weight,
            "seconds": seconds,
            "report": JsonReport::of(&report),
        });
        write_json(path, &summary)?;
    }
    if !run.quiet {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "beam width {width}, score weight {}: {:.1} s, {} states expanded",
            params.score_weight, seconds, found.stats.expanded
        );
        let _ = writeln!(err, "checked by the rules engine: record valid, same score");
        let _ = write!(err, "{}", report.summary());
    }
    Ok(())
}
