//! The olympiad's game as the binaries play it: `solve` (the search, each placement checked
//! on the plain engine as it is decided and printed then, and the summary), `check` with its
//! viewer page, and `gen`.

use crate::cli::plain;
use crate::cli::progress::Progress;
use crate::cli::registry::{only, Check, GameCli, Solve};
use crate::cli::sequence::{write_json, GenOptions, Prepared, RecordOut, SolveRun};
use crate::cli::{read_weights, CliError, EvalOptions, Pictures};
use crate::games::olympiad::record::{Placement, HEADER};
use crate::games::olympiad::replay::{JsonReport, Replay};
use crate::games::olympiad::search::{default_weights, solve as search, Params, DEFAULT_WIDTH};
use crate::search::limits;
use crate::search::width::WallClock;
use crate::search::{Objective, Processes};
use clap::Args as _;
use std::io::Write;
use std::time::Instant;

/// Solves an olympiad sequence: the record on stdout, each placement replayed on the plain
/// engine before it is written (a long game's record comes out as the search decides it), a
/// summary ending in `Score = N` on stderr.
fn solve(run: &SolveRun) -> Result<(), CliError> {
    let search_options = run.search;
    let Prepared {
        sequence,
        width,
        widest,
        beam,
    } = run.prepare(DEFAULT_WIDTH)?;
    let weights = match &run.eval.weights {
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

/// The olympiad's game in the binaries' registry.
pub struct Olympiad;

/// The olympiad's entry in the registry.
pub const GAME: Olympiad = Olympiad;

impl GameCli for Olympiad {
    fn id(&self) -> &'static str {
        "olympiad"
    }
    fn name(&self) -> &'static str {
        "the olympiad's game (--game olympiad)"
    }
    fn about(&self) -> &'static str {
        "The olympiad's survival game: straight drops, and after a clear the blocks left fall \
         as connected pieces (docs/OLYMPIAD.md)"
    }
    fn default_width(&self) -> usize {
        DEFAULT_WIDTH
    }
    fn solve_options(&self, options: clap::Command) -> clap::Command {
        // Its score is its pieces placed, the same for every state of a depth: no score
        // weight, and no policy.
        options.args(only(
            EvalOptions::augment_args(clap::Command::new("")),
            &["weights"],
        ))
    }
    fn solve(&self, run: &Solve, _: &clap::ArgMatches) -> Result<(), CliError> {
        solve(&SolveRun::of(run)?)
    }
    fn check_options(&self, options: clap::Command) -> clap::Command {
        options.args(only(
            Pictures::augment_args(clap::Command::new("")),
            &["html"],
        ))
    }
    fn check(&self, run: &Check, matches: &clap::ArgMatches) -> Result<(), CliError> {
        let html = Pictures::read(matches).html;
        plain::check_game::<Self>(run.args, html.as_deref(), self.id())
    }
    fn gen_options(&self, options: clap::Command) -> clap::Command {
        GenOptions::augment_args(options)
    }
    fn generate(&self, matches: &clap::ArgMatches) -> Result<String, CliError> {
        let o = GenOptions::read(matches)?;
        let pieces = crate::games::olympiad::sequence(o.seed, o.count);
        let how = format!("--game olympiad --seed {} --count {}", o.seed, o.count);
        Ok(GenOptions::file(&pieces, &how))
    }
}

crate::plain_check!(Olympiad, crate::games::olympiad::replay, page: |sequence, text, file| {
    let record = crate::games::olympiad::record::Record::parse(text).ok()?;
    Some(crate::games::olympiad::film::page(sequence, &record, file))
});
