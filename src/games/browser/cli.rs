//! The browser game as the binaries play it: `solve` (the search, the record checked on the
//! plain engine and printed, and the summary), `check`, `gen` and `play`'s page.

use crate::cli::plain;
use crate::cli::progress::Progress;
use crate::cli::registry::{only, Check, GameCli, Play, Solve};
use crate::cli::sequence::{write_json, GenOptions, Prepared, RecordOut, SolveRun};
use crate::cli::EXIT_INVALID;
use crate::cli::{read_policy, read_sequence, read_text, read_weights, CliError, EvalOptions};
use crate::games::browser::record::{Record, HEADER};
use crate::games::browser::replay::{JsonReport, Replayer};
use crate::games::browser::search::{default_policy, default_weights, Params};
use crate::games::browser::search::{DEFAULT_SCORE_WEIGHT, DEFAULT_WIDTH};
use crate::search::limits;
use crate::search::width::WallClock;
use crate::search::Objective;
use clap::Args as _;
use std::io::Write;
use std::time::Instant;

/// Solves a browser-game sequence: the record on stdout (checked on the plain engine first),
/// a summary ending in `Score = N` on stderr.
fn solve(run: &SolveRun) -> Result<(), CliError> {
    let search = run.search;
    let Prepared {
        sequence,
        width,
        widest,
        beam,
    } = run.prepare(DEFAULT_WIDTH)?;
    let params = params(run)?;
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
        crate::games::browser::search::solve(
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
            crate::search::Processes::One,
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

/// The search's parameters: the evaluation files read, the score weight and objective given,
/// each in place of the game's default.
fn params(run: &SolveRun) -> Result<Params, CliError> {
    let weights = match &run.eval.weights {
        Some(path) => read_weights(Some(path))?,
        None => default_weights(),
    };
    let policy = match &run.eval.policy {
        Some(path) => {
            let mut policy = read_policy(Some(path))?;
            // A field left out takes the contest's default, whose fill plan prices cells: a
            // file may leave it out or set it to null, and is refused if it asks for one.
            let text = read_text(path, "policy file")?;
            let named: serde_json::Value = crate::kit::text::from_json(&text)
                .map_err(|e| CliError::usage(format!("policy file {}: {e}", path.display())))?;
            if named.get("fill_plan").is_some_and(|plan| !plan.is_null()) {
                return Err(CliError::usage(format!(
                    "policy file {}: fill_plan is for games that score by the fill (--game \
                     tencent); the browser game scores by lines",
                    path.display()
                )));
            }
            policy.fill_plan = None;
            policy
        }
        None => default_policy(),
    };
    Ok(Params {
        score_weight: run.eval.score_weight.unwrap_or(DEFAULT_SCORE_WEIGHT),
        weights,
        policy,
        objective: run.search.objective_or(Objective::Score),
    })
}

/// The browser game in the binaries' registry.
pub struct Browser;

/// The browser game's entry in the registry.
pub const GAME: Browser = Browser;

impl GameCli for Browser {
    fn id(&self) -> &'static str {
        "browser"
    }
    fn name(&self) -> &'static str {
        "the browser game (--game browser)"
    }
    fn about(&self) -> &'static str {
        "The browser game: a canvas Tetris in JavaScript with points and levels (docs/BROWSER.md)"
    }
    fn default_width(&self) -> usize {
        DEFAULT_WIDTH
    }
    fn solve_options(&self, options: clap::Command) -> clap::Command {
        options.args(only(
            EvalOptions::augment_args(clap::Command::new("")),
            &["score_weight", "weights", "policy"],
        ))
    }
    fn solve(&self, run: &Solve, _: &clap::ArgMatches) -> Result<(), CliError> {
        solve(&SolveRun::of(run)?)
    }
    fn check(&self, run: &Check, _: &clap::ArgMatches) -> Result<(), CliError> {
        plain::check_game::<Self>(run.args, None, self.id())
    }
    fn gen_options(&self, options: clap::Command) -> clap::Command {
        GenOptions::augment_args(options)
    }
    fn generate(&self, matches: &clap::ArgMatches) -> Result<String, CliError> {
        let o = GenOptions::read(matches)?;
        let pieces = crate::games::browser::sequence(o.seed, o.count);
        Ok(GenOptions::file(
            &pieces,
            &format!("--game browser --seed {} --count {}", o.seed, o.count),
        ))
    }
    fn has_page(&self) -> bool {
        true
    }
    fn page(&self, run: &Play) -> Result<String, CliError> {
        page(run)
    }
}

crate::plain_check!(Browser, crate::games::browser::replay);

/// `play`'s page: the sequence, and the record to race where `--compare` names one (checked as
/// `check --game browser` checks it: the page never shows a score for a record that does not
/// play).
fn page(run: &Play) -> Result<String, CliError> {
    use crate::games::browser::page::{page, Compare};
    let sequence = read_sequence(run.sequence)?;
    let compare_text = match run.compare {
        Some(path) => {
            let text = read_text(path, "record file")?;
            let file = path.display().to_string();
            crate::games::browser::replay::check_text(&sequence, &text).map_err(|e| CliError {
                message: format!("--compare: {}", e.located(&file)),
                code: EXIT_INVALID,
            })?;
            Some(text)
        }
        None => None,
    };
    let compare_name = run.compare.map(|p| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    });
    Ok(page(
        &sequence,
        compare_text
            .as_deref()
            .zip(compare_name.as_deref())
            .map(|(text, name)| Compare { text, name }),
    ))
}
