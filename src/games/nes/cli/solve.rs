//! `solve --game nes`: the options, the search, and the record checked on the plain engine
//! before it is printed.

use crate::cli::progress::Progress;
use crate::cli::write_file;
use crate::cli::{check_width, read_text, stdout_failed, CliError, SearchOptions};
use crate::games::nes::ending::Ending;
use crate::games::nes::eval::NesWeights;
use crate::games::nes::movegen::InputModel;
use crate::games::nes::replay::{replay_observed, End, NesReport};
use crate::games::nes::search::{lines_to_level, Found, NesSearch, State, Stop, MAX_PIECES};
use crate::games::nes::start;
use crate::say;
use crate::search::limits;
use crate::search::width::{Schedule, TimeBudget, WallClock};
use crate::search::{Objective, Width};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The default beam width of NES games.
pub const DEFAULT_WIDTH: usize = 2_000;

/// The options `solve --game nes` adds.
#[derive(clap::Args, Debug)]
pub struct NesOptions {
    /// NES: the level the game starts on (the menu's, 0..=19).
    #[arg(long, value_name = "LEVEL")]
    pub start_level: Option<u8>,
    /// NES: frames idle on the title screen, which choose the piece sequence (see
    /// docs/NES.md for the values known for each level).
    #[arg(long, value_name = "FRAMES")]
    pub title_wait: Option<u32>,
    /// NES: the input model, `tap:N`: one press every N frames (2 is the fastest the game
    /// reads as separate presses), each one frame long; `tap:N,das` also lets Left or Right be
    /// held for the ROM's auto shift.
    #[arg(long, value_name = "MODEL", value_parser = parse_model)]
    pub input_model: Option<InputModel>,
    /// NES: stop after this many lines (default: at the transition to level 29).
    #[arg(long, value_name = "N", value_parser = parse_lines)]
    pub lines: Option<u32>,
    /// NES: stop when the level reaches N (default 29, the transition), counted on past 255
    /// (256 is the level counter's wrap to 0), or `end`: play until the game ends.
    #[arg(long, value_name = "N|end", value_parser = parse_until_level)]
    pub until_level: Option<UntilLevel>,
    /// NES: the evaluation's weights (default weights/nes-tetris.json).
    #[arg(long, value_name = "FILE")]
    pub nes_weights: Option<PathBuf>,
}

fn parse_model(text: &str) -> Result<InputModel, String> {
    let form = "expected tap:N or tap:N,das (a press every N frames, N from 2 to 60)";
    let mut parts = text.split(',');
    let taps = parts.next().unwrap_or_default();
    let das = match (parts.next(), parts.next()) {
        (None, _) => false,
        (Some("das"), None) => true,
        (Some(""), None) => return Err(format!("{text:?}: nothing after the comma; {form}")),
        (Some("das"), Some(_)) => {
            return Err(format!(
                "{text:?}: `das` once, and nothing after it; {form}"
            ))
        }
        (Some(other), _) => return Err(format!("{text:?}: {other:?} is not `das`; {form}")),
    };
    let n = taps
        .strip_prefix("tap:")
        .ok_or_else(|| format!("{text:?}: {form}"))?;
    match n.parse::<u8>() {
        Ok(n) if (2..=60).contains(&n) => Ok(InputModel { tap_every: n, das }),
        _ => Err(format!(
            "{text:?}: N ({n:?}) must be a whole number of frames from 2 to 60"
        )),
    }
}

/// `--lines`: a count of lines from 1 (a `u32`).
fn parse_lines(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "{text:?}: expected a number of lines from 1 to {}",
            u32::MAX
        )),
    }
}

/// `--until-level`: a level, or the game's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UntilLevel {
    Level(u16),
    End,
}

fn parse_until_level(text: &str) -> Result<UntilLevel, String> {
    if text == "end" {
        return Ok(UntilLevel::End);
    }
    match text.parse::<u16>() {
        Ok(n) if (1..=MAX_LEVEL).contains(&n) => Ok(UntilLevel::Level(n)),
        _ => Err(format!(
            "{text:?}: expected a level 1..={MAX_LEVEL} (256 is the wrap to level 0) or `end`"
        )),
    }
}

/// The highest `--until-level`: the counter's second wrap is far past any game.
const MAX_LEVEL: u16 = 511;

/// What `solve --game nes` is asked to do.
pub struct Run<'a> {
    pub options: &'a NesOptions,
    /// The width asked for (`None`: the NES default).
    pub width: Option<usize>,
    /// Threads, memory check (`--force`): the search options every game shares.
    pub search: &'a SearchOptions,
    /// Finish within this many seconds (the width re-chosen as the search goes).
    pub time_budget: Option<f64>,
    /// The widest beam the time budget may choose.
    pub max_width: usize,
    pub pieces: Option<usize>,
    pub quiet: bool,
    /// Seconds between progress lines where no bar draws.
    pub progress_every: f64,
    /// Where to write a JSON summary.
    pub json: Option<&'a Path>,
}

/// The peak bytes per state of an NES beam: the contest's figure, plus its two arrays of
/// states' larger games.
pub fn bytes_per_state() -> u64 {
    let contest_node = 52;
    limits::BYTES_PER_STATE + 2 * (std::mem::size_of::<State>() as u64 + 12 - contest_node)
}

/// Solves an NES game and prints its record on stdout, a summary on stderr.
pub fn solve(run: &Run) -> Result<(), CliError> {
    let game = prepare(run)?;
    let search = run.search;
    let pool = search.pool(game.widest)?;
    if !run.quiet {
        search.print_estimate(game.widest, bytes_per_state());
    }
    let began = Instant::now();
    let mut progress = Progress::new(
        "piece",
        game.planned.map(|p| p as u64),
        run.quiet,
        run.progress_every,
    );
    if game.planned != run.pieces {
        // The pieces a game to a line count or a level takes vary with its clears.
        progress = progress.about();
    }
    let planned = game.planned.unwrap_or(MAX_PIECES);
    let found = pool.install(|| {
        let objective = search.objective_or(Objective::Score);
        game.search.run(
            &game.start,
            &game.beam,
            planned,
            objective,
            &WallClock::start(),
            &mut |s| {
                let message = format!("best {} beam {}", s.best_score, s.beam_size);
                progress.update(s.pieces as u64, &message);
            },
        )
    });
    progress.finish();
    if found.mismatches > 0 {
        return Err(CliError::internal(format!(
            "{} placements of the move generator were not played as found by the engine",
            found.mismatches
        )));
    }
    let report = replay_observed(&found.record, |_, _| {});
    if report.score != found.score || report.lines != found.lines {
        return Err(CliError::internal(format!(
            "the record scores {} with {} lines on the plain engine, the search counted {} and {}",
            report.score, report.lines, found.score, found.lines
        )));
    }
    let seconds = began.elapsed().as_secs_f64();
    // The record first: a summary that cannot be written must not lose the search's work.
    let text = found.record.to_text(&found.piece_starts);
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| stdout_failed(e, "the record"))?;
    if let Some(path) = run.json {
        let model = game.model;
        let summary = serde_json::json!({
            "game": "nes",
            "start_level": game.level,
            "title_wait": game.wait,
            "input_model": format!("tap:{}{}", model.tap_every, if model.das { ",das" } else { "" }),
            "beam_width": game.width,
            "seconds": seconds,
            "ending": found.ending,
            "beam_ended_at_piece": (found.ending != Ending::Reached).then_some(found.stats.pieces),
            "report": report,
        });
        write_file("--json", path, format!("{summary}\n"))?;
    }
    if !run.quiet {
        print_summary(&game, &found, &report, seconds);
    }
    Ok(())
}

/// A game checked and ready to search: every option refused before any work where it does
/// not fit.
struct Prepared {
    level: u8,
    wait: u32,
    start: start::Start,
    width: usize,
    /// The widest beam the search may hold (the time budget's limit).
    widest: usize,
    model: InputModel,
    stop: Stop,
    search: NesSearch,
    /// The pieces the game is expected to take (`None`: unknown, the game's bound).
    planned: Option<usize>,
    beam: Width,
}

fn prepare(run: &Run) -> Result<Prepared, CliError> {
    let Run {
        options,
        width,
        search,
        time_budget,
        max_width,
        pieces,
        json,
        ..
    } = *run;
    let level = options.start_level.unwrap_or(19);
    let wait = options.title_wait.unwrap_or(0);
    let start = start::start(level, wait).map_err(|e| CliError::usage(e.to_string()))?;
    let width = width.unwrap_or(DEFAULT_WIDTH);
    check_width("--beam-width", width)?;
    if time_budget.is_some() {
        check_width("--max-beam-width", max_width)?;
    }
    search.check()?;
    if pieces == Some(0) || options.lines == Some(0) {
        return Err(CliError::usage("--pieces and --lines must be at least 1"));
    }
    let widest = match time_budget {
        Some(_) => max_width.max(width),
        None => width,
    };
    search.check_memory(widest, bytes_per_state())?;
    if let Some(path) = json {
        let inputs = [("weights file", options.nes_weights.as_deref())];
        crate::cli::check_output("--json", path, &inputs)?;
    }
    let weights = nes_weights(options.nes_weights.as_deref())?;
    let until_level = match options.until_level {
        Some(UntilLevel::Level(n)) => Some(n),
        Some(UntilLevel::End) => None,
        None => (options.lines.is_none() && pieces.is_none()).then_some(29),
    };
    if let Some(n) = until_level.filter(|&n| n <= level as u16) {
        return Err(CliError::usage(format!(
            "--until-level {n}: the game starts on level {level}, so it is there before any piece"
        )));
    }
    let stop = Stop {
        level: until_level,
        lines: options.lines,
        pieces: pieces.map(|p| p as u64),
    };
    let model = options.input_model.unwrap_or(InputModel::DEFAULT);
    let to_level = until_level.map(|n| lines_to_level(level, n));
    let planned = planned_pieces(pieces, options.lines, to_level);
    let beam = Width {
        beam_width: width,
        width_changes: Schedule::default(),
        time_budget: time_budget.map(|seconds| TimeBudget { seconds, max_width }),
    };
    Ok(Prepared {
        level,
        wait,
        start,
        width,
        widest,
        model,
        stop,
        search: NesSearch::new(model, stop, weights),
        planned,
        beam,
    })
}

/// `--nes-weights`, or the shipped weights.
fn nes_weights(path: Option<&Path>) -> Result<NesWeights, CliError> {
    let Some(path) = path else {
        return Ok(NesWeights::default());
    };
    let text = read_text(path, "weights file")?;
    NesWeights::from_json(&text)
        .map_err(|e| CliError::usage(format!("weights file {}: {e}", path.display())))
}

/// The pieces a game is expected to take to its first stop (`--pieces`, `--lines`, or the
/// lines to the level asked for), for the progress and the time budget; `None`: no stop.
fn planned_pieces(
    pieces: Option<usize>,
    lines: Option<u32>,
    to_level: Option<u32>,
) -> Option<usize> {
    // A piece adds 4 cells and a line takes 10: about 2.5 pieces a line.
    let for_lines = |l: u32| l as usize * 5 / 2 + 10;
    [pieces, lines.map(for_lines), to_level.map(for_lines)]
        .into_iter()
        .flatten()
        .min()
        .map(|p| p.min(MAX_PIECES))
}

/// The summary on stderr: the game, how far it got and why it ended, its score.
fn print_summary(game: &Prepared, found: &Found, report: &NesReport, seconds: f64) {
    let (level, wait, model) = (game.level, game.wait, game.model);
    let [c1, c2, c3, c4] = report.clears;
    let cleared = c1 + 2 * c2 + 3 * c3 + 4 * c4;
    let fours = if cleared > 0 {
        400.0 * c4 as f64 / cleared as f64
    } else {
        0.0
    };
    say!(
        "start level {level}, title-wait {wait}, a press every {} frames{}, beam width {}: {} pieces, {} lines ({fours:.1}% in fours), level {}, {:.1} s",
        model.tap_every,
        if model.das { " and auto shift" } else { "" },
        game.width,
        report.pieces,
        report.lines,
        report.level_text(),
        seconds
    );
    if let Some(t) = report.transition {
        say!(
            "level 29 transition: score {} after {} lines",
            t.score,
            t.lines
        );
    } else if game.stop.level == Some(29) {
        say!("the game did not reach the level 29 transition");
    }
    match report.end {
        End::ToppedOut => say!("the game ended: topped out"),
        End::Crashed => say!("the game ended: the last clear crashes the ROM"),
        End::RecordEnded => {}
    }
    if found.ending != Ending::Reached {
        say!(
            "the search stopped before the stop asked for: every line of the beam had ended \
             by piece {}; this record ends where {}",
            found.stats.pieces,
            found.ending.describe()
        );
    }
    if let Some(n) = game
        .stop
        .level
        .filter(|&n| n != 29 && report.level_count < n)
    {
        say!("the game did not reach level {n}");
    }
    say!("ROM score: {}", report.rom_score);
    say!("Score = {}", report.score);
}
