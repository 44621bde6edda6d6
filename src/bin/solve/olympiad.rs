//! `solve --game olympiad`: the search, each placement checked on the plain engine as it is
//! decided and printed then, and the summary.

use crate::sequence::{write_json, Prepared, RecordOut, SolveRun};
use crate::shared::cli::{read_weights, CliError};
use crate::shared::progress::Progress;
use std::io::Write;
use std::time::Instant;
use tetris_opt::games::olympiad::record::{Placement, HEADER};
use tetris_opt::games::olympiad::replay::{JsonReport, Replay};
use tetris_opt::games::olympiad::search::{
    default_weights, solve as search, Params, DEFAULT_WIDTH,
};
use tetris_opt::search::limits;
use tetris_opt::search::width::WallClock;
use tetris_opt::search::{Objective, Processes};

/// Solves an olympiad sequence: the record on stdout, each placement replayed on the plain
/// engine before it is written (a long game's record comes out as the search decides it), a
/// summary ending in `Score = N` on stderr.
pub fn solve(run: &SolveRun) -> Result<(), CliError> {
    let search_options = run.search;
    let Prepared {
        sequence,
        width,
        widest,
        beam,
    } = run.prepare(DEFAULT_WIDTH)?;
    let weights = match &search_options.eval.weights {
        Some(path) => read_weights(Some(path))?,
        None => default_weights(),
    };
    let objective = search_options.objective_or(Objective::Survive);
    let params = Params { weights, objective };
    let pool = search_options.pool(widest)?;
    if !run.quiet {
        search_options.print_estimate(widest, limits::BYTES_PER_STATE);
    }
    let began = Instant::now();
    let total = sequence.len() as u64;
    let mut progress = Progress::new("piece", Some(total), run.quiet, run.progress_every);
    let mut out = RecordOut::new(HEADER);
    let mut replay = Replay::new(&sequence);
    let mut emit = |placements: &[Placement]| {
        for &p in placements {
            out.piece(|line| replay.play(p, line).map(|_| ()), p);
        }
    };
    let found = pool.install(|| {
        search(
            &sequence,
            &params,
            &beam,
            &WallClock::start(),
            &mut |s| {
                if s.pieces.is_multiple_of(256) || s.pieces as u64 == total {
                    let message = format!("beam {}", s.beam_size);
                    progress.update(s.pieces as u64, &message);
                }
            },
            &mut emit,
            Processes::One,
        )
    });
    emit(&found.placements);
    progress.finish();
    out.finish()?;
    let report = replay.finish();
    if report.pieces_placed != found.pieces {
        return Err(CliError::internal(format!(
            "the record places {} pieces on the plain engine, the search counted {}",
            report.pieces_placed, found.pieces
        )));
    }
    let seconds = began.elapsed().as_secs_f64();
    if let Some(path) = run.json {
        let summary = serde_json::json!({
            "game": "olympiad",
            "beam_width": width,
            "objective": objective,
            "seconds": seconds,
            "search_phases": found.stats.seconds,
            "states_expanded": found.stats.expanded,
            "report": JsonReport::of(&report),
        });
        write_json(path, &summary)?;
    }
    if !run.quiet {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "beam width {width}: {seconds:.1} s, {} states expanded",
            found.stats.expanded
        );
        let _ = writeln!(err, "checked by the rules engine: record valid, same score");
        let _ = write!(err, "{}", report.summary());
    }
    Ok(())
}
