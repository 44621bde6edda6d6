//! `solve --game nes`: the options, the search, and the record checked on the plain engine
//! before it is printed.

use super::Nes;
use crate::cli::interrupt::RecordOut;
use crate::cli::report::joined;
use crate::cli::solve::{end_lines, Plan, SolveSettings, Solver, Verdict, Writer};
use crate::cli::{read_text, stdout_failed, CliError};
use crate::games::nes::ending::Ending;
use crate::games::nes::eval::Weights;
use crate::games::nes::movegen::InputModel;
use crate::games::nes::record::Record;
use crate::games::nes::replay::{replay_observed, Report};
use crate::games::nes::search::{lines_to_level, Found, RecordStream, Seam, State, Stop};
use crate::games::nes::search::{Kept, NesCode, MAX_PIECES};
use crate::games::nes::start;
use crate::kit::text::plural;
use crate::search::sizes::PerState;
use crate::search::{Line, Objective, Run};
use std::path::{Path, PathBuf};

/// The default beam width of NES games.
pub(crate) const DEFAULT_WIDTH: usize = 2_000;

/// The options `solve --game nes` adds.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct Options {
    /// NES: the level the game starts on (the menu's, 0..=19).
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(0..=19))]
    pub(crate) start_level: Option<u8>,
    /// NES: frames idle on the title screen, which choose the piece sequence (see
    /// docs/NES.md for the values known for each level).
    #[arg(long, value_name = "FRAMES")]
    pub(crate) title_wait: Option<u32>,
    /// NES: the input model, `tap:N`: one press every N frames (2 is the fastest the game
    /// reads as separate presses), each one frame long; `tap:N,das` also lets Left or Right be
    /// held for the ROM's auto shift.
    #[arg(long, value_name = "MODEL", value_parser = parse_model)]
    pub(crate) input_model: Option<InputModel>,
    /// NES: stop after this many lines (default: at the transition to level 29).
    #[arg(long, value_name = "N", value_parser = parse_lines)]
    pub(crate) lines: Option<u32>,
    /// NES: stop when the level reaches N (default 29, the transition), counted on past 255
    /// (256 is the level counter's wrap to 0), or `end`: play until the game ends.
    #[arg(long, value_name = "N|end", value_parser = parse_until_level)]
    pub(crate) until_level: Option<UntilLevel>,
    /// NES: the evaluation's weights (default weights/nes-tetris.json; fields left out keep
    /// its values).
    #[arg(long, value_name = "FILE")]
    pub(crate) nes_weights: Option<PathBuf>,
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
pub(crate) enum UntilLevel {
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

/// The highest `--until-level`: sixteen wraps of the level counter, some 40,000 lines.
const MAX_LEVEL: u16 = 4095;

/// The peak bytes per state of an NES beam: the measured figure of the search scaled by its
/// structures' sizes for NES's state and code (a 360-byte state and a 78-byte code, where
/// the contest has 40 and 2: the trail's entries and the candidates take most of it).
pub(crate) fn bytes_per_state() -> u64 {
    PerState::of::<Seam>().estimate()
}

/// NES's problem instance, a game checked and ready to search: every option refused before any work
/// where it does not fit.
pub(crate) struct Instance {
    level: u8,
    wait: u32,
    start: start::Start,
    model: InputModel,
    stop: Stop,
    search: Seam,
    /// The pieces the game is expected to take (`None`: unknown, the game's bound).
    planned: Option<usize>,
    /// The lines the game stops at (`--lines`, or the lines to the level asked for), and
    /// `--pieces`: what the progress estimates the game's end from.
    target_lines: Option<u32>,
    piece_limit: Option<usize>,
    objective: Objective,
    /// The pieces kept from `--from-record`, which the search goes on from.
    kept: Option<Kept>,
}

impl Solver for Nes {
    type Instance = Instance;
    type Search<'p> = &'p Seam;
    type Writer<'p> = SolveWriter<'p>;

    fn plan(
        &self,
        settings: &SolveSettings,
        options: &Options,
    ) -> Result<Plan<Instance>, CliError> {
        let args = settings.args;
        if args.input.is_some() {
            return Err(CliError::usage(
                "an NES game takes no piece sequence file: its start is named by --start-level and --title-wait",
            ));
        }
        // A record's header fills in the start options it names.
        let mut options = options.clone();
        let record = match settings.from {
            Some((path, _)) => Some(from_record(settings, path, &mut options)?),
            None => None,
        };
        let mut instance = prepare(
            &options,
            args.pieces,
            args.search.objective_or(Objective::Score),
        )?;
        let mut inputs: Vec<_> = (options.nes_weights.clone())
            .map(|p| ("weights file", p))
            .into_iter()
            .collect();
        if let (Some(record), Some((path, pieces))) = (&record, settings.from) {
            let kept = (instance.search.kept(record, pieces))
                .map_err(|e| CliError::usage(format!("--from-record {}: {e}", path.display())))?;
            instance.kept = Some(kept);
            inputs.push(("record file", path.to_path_buf()));
        }
        let kept = instance.kept.as_ref().map_or(0, Kept::pieces);
        // The kept frames, twice: the record read and the copy the new record starts from.
        let input_bytes = record.map_or(0, |r| 2 * r.frames.len() as u64);
        Ok(Plan {
            about: instance.planned != args.pieces,
            instance,
            bytes_per_state: bytes_per_state(),
            input_bytes,
            closing: "",
            kept,
            resumable: true,
            inputs,
        })
    }

    fn search<'p>(&'p self, instance: &'p Instance) -> (&'p Seam, Run<State>) {
        let planned = instance.planned.unwrap_or(MAX_PIECES);
        let run = match &instance.kept {
            Some(kept) => instance.search.run_after(kept, planned, instance.objective),
            None => instance
                .search
                .run_from(&instance.start, planned, instance.objective),
        };
        (&instance.search, run)
    }

    fn writer<'p>(&'p self, instance: &'p Instance) -> SolveWriter<'p> {
        let (stream, kept_lines) = match &instance.kept {
            Some(kept) => RecordStream::resumed(&instance.search, &instance.start, kept),
            None => (
                RecordStream::new(&instance.search, &instance.start),
                Vec::new(),
            ),
        };
        SolveWriter {
            instance,
            stream,
            kept_lines,
        }
    }
}

/// An NES record as the search decides it: each placement played out on the engine, each
/// piece's line written once whole; the whole record replayed on the plain engine at the end.
pub(crate) struct SolveWriter<'p> {
    instance: &'p Instance,
    stream: RecordStream<'p>,
    /// The lines of the pieces kept from `--from-record`, written after the header.
    kept_lines: Vec<String>,
}

impl Writer for SolveWriter<'_> {
    type Code = NesCode;

    fn start(&mut self, out: &RecordOut) -> Result<(), CliError> {
        out.header(&self.stream.header())
            .map_err(|e| stdout_failed(e, "the record"))?;
        for line in std::mem::take(&mut self.kept_lines) {
            out.piece(format_args!("{line}\n"))
                .map_err(|e| stdout_failed(e, "the record"))?;
        }
        Ok(())
    }

    fn pieces(&mut self, codes: &[NesCode], out: &RecordOut) -> Result<(), CliError> {
        for code in codes {
            if let Some(line) = self.stream.piece(code) {
                out.piece(format_args!("{line}\n"))
                    .map_err(|e| stdout_failed(e, "the record"))?;
            }
        }
        Ok(())
    }

    fn expected_pieces(&self) -> Option<u64> {
        let (done, lines) = self.stream.played();
        let expected = expected_pieces(done, lines, self.instance.target_lines?);
        Some(
            self.instance
                .piece_limit
                .map_or(expected, |p| expected.min(p as u64)),
        )
    }

    fn finish(mut self, line: &Line<NesCode>, out: &RecordOut) -> Result<Verdict, CliError> {
        self.pieces(&line.placements, out)?;
        let (mut found, last) = self.stream.finish();
        found.stats = line.stats;
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
        if let Some(last) = last {
            (out.piece(format_args!("{last}\n"))).map_err(|e| stdout_failed(e, "the record"))?;
        }
        end_lines(out)?;
        let instance = self.instance;
        let model = instance.model;
        let ended = (found.ending != Ending::Reached)
            .then_some(instance.kept_pieces() + found.stats.pieces);
        let solved = serde_json::json!({
            "start_level": instance.level,
            "title_wait": instance.wait,
            "input_model": format!("tap:{}{}", model.tap_every, if model.das { ",das" } else { "" }),
            "ending": found.ending,
            "beam_ended_at_piece": ended,
        });
        let own = joined(serde_json::json!(report), solved);
        Ok(Verdict {
            summary: summary(instance, &found, &report),
            scorecard: report.scorecard(),
            own,
        })
    }
}

/// Checks the NES options and makes the game's search.
fn prepare(
    options: &Options,
    pieces: Option<usize>,
    objective: Objective,
) -> Result<Instance, CliError> {
    let level = options.start_level.unwrap_or(19);
    let wait = options.title_wait.unwrap_or(0);
    let start = start::start(level, wait).map_err(|e| CliError::usage(e.to_string()))?;
    if options.lines == Some(0) {
        return Err(CliError::usage("--lines must be at least 1"));
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
    let target_lines = [options.lines, until_level.map(|n| lines_to_level(level, n))]
        .into_iter()
        .flatten()
        .min();
    Ok(Instance {
        level,
        wait,
        start,
        model,
        stop,
        search: Seam::new(model, stop, weights),
        planned: planned_pieces(pieces, target_lines),
        target_lines,
        piece_limit: pieces,
        objective,
        kept: None,
    })
}

impl Instance {
    /// Pieces kept from `--from-record` (0 without it).
    fn kept_pieces(&self) -> usize {
        self.kept.as_ref().map_or(0, Kept::pieces)
    }
}

/// `--from-record`'s record, read and parsed, its start taken for `--start-level` and
/// `--title-wait` (which, where given, must name the same start).
fn from_record(
    settings: &SolveSettings,
    path: &Path,
    options: &mut Options,
) -> Result<Record, CliError> {
    let text = read_text(path, "record file")?;
    let record = Record::parse(&text).map_err(|e| {
        let hint = crate::cli::another_games_hint(settings.games, e.first_line.as_deref());
        settings.from_record_invalid(format!("{e}{hint}"))
    })?;
    let (level, wait) = (record.start.level, record.start.title_wait);
    let differs = |option: &str, given: String, recorded: String| {
        CliError::usage(format!(
            "{option} {given}: the record {} starts with {option} {recorded} (leave the \
             option out to take the record's)",
            path.display()
        ))
    };
    if let Some(given) = options.start_level.filter(|&l| l != level) {
        return Err(differs(
            "--start-level",
            given.to_string(),
            level.to_string(),
        ));
    }
    if let Some(given) = options.title_wait.filter(|&w| w != wait) {
        return Err(differs("--title-wait", given.to_string(), wait.to_string()));
    }
    options.start_level = Some(level);
    options.title_wait = Some(wait);
    Ok(record)
}

/// `--nes-weights`, or the shipped weights.
fn nes_weights(path: Option<&Path>) -> Result<Weights, CliError> {
    let Some(path) = path else {
        return Ok(Weights::default());
    };
    let text = read_text(path, "weights file")?;
    Weights::from_json(&text)
        .map_err(|e| CliError::usage(format!("weights file {}: {e}", path.display())))
}

/// The pieces a game is expected to take to its first stop (`--pieces`, or the lines it stops
/// at: `--lines` or the lines to the level asked for), for the progress and the time budget;
/// `None`: no stop.
fn planned_pieces(pieces: Option<usize>, target_lines: Option<u32>) -> Option<usize> {
    let for_lines = |l: u32| expected_pieces(0, 0, l) as usize;
    [pieces, target_lines.map(for_lines)]
        .into_iter()
        .flatten()
        .min()
        .map(|p| p.min(MAX_PIECES))
}

/// The pieces a game that has placed `done` and cleared `lines` is expected to end with at
/// `target` lines: a piece brings four cells and a line takes ten, and a game building fours
/// holds about [`STACK_AT_STOP`] cells when it stops (more where its stack stands higher).
fn expected_pieces(done: u64, lines: u32, target: u32) -> u64 {
    let held = (4 * done).saturating_sub(10 * u64::from(lines));
    let to_clear = 10 * u64::from(target.saturating_sub(lines));
    done + (to_clear + STACK_AT_STOP.saturating_sub(held)).div_ceil(4)
}

/// Cells a game building fours holds when it stops: 30 pieces' worth (611 pieces for 233
/// lines at level 29 from level 19, title-wait 20; 37 for a game of 40 lines).
const STACK_AT_STOP: u64 = 120;

/// The game's lines of the summary: how far it got and why it ended, its score.
fn summary(game: &Instance, found: &Found, report: &Report) -> String {
    let mut text = String::new();
    macro_rules! say {
        ($($words:tt)*) => {{
            text.push_str(&format!($($words)*));
            text.push('\n');
        }};
    }
    let (level, wait, model) = (game.level, game.wait, game.model);
    let [c1, c2, c3, c4] = report.clears;
    let cleared = c1 + 2 * c2 + 3 * c3 + 4 * c4;
    let fours = if cleared > 0 {
        400.0 * c4 as f64 / cleared as f64
    } else {
        0.0
    };
    say!(
        "start level {level}, title-wait {wait}, a press every {}{}: {}, {} ({fours:.1}% in fours), level {}",
        plural(model.tap_every, "frame"),
        if model.das { " and auto shift" } else { "" },
        plural(report.pieces, "piece"),
        plural(report.lines, "line"),
        report.level_text(),
    );
    if let Some(t) = report.transition {
        say!(
            "level 29 transition: score {} after {}",
            t.score,
            plural(t.lines, "line")
        );
    }
    if let Some(line) = game.stop.missed_level(report) {
        say!("{line}");
    }
    say!("end: {}", report.scorecard().end.text);
    if found.ending != Ending::Reached {
        say!(
            "the search stopped before the stop asked for: every line of the beam had ended \
             by piece {}; this record ends where {}",
            game.kept_pieces() + found.stats.pieces,
            found.ending.describe()
        );
    }
    say!("ROM score: {}", report.rom_score);
    say!("Score = {}", report.score);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The most bytes per state an NES solve was measured to take beyond the base (peak RSS
    /// less 8 MiB over the width, `--pieces 25` at widths 1,000 to 50,000; bench/RESULTS.md,
    /// "Memory per state").
    const MEASURED: u64 = 2_083;

    #[test]
    fn the_memory_estimate_covers_what_a_state_takes() {
        let sizes = PerState::of::<Seam>();
        assert!(
            sizes.node >= std::mem::size_of::<State>() as u64 + 12,
            "{sizes:?}"
        );
        assert!(
            sizes.trail_entry >= std::mem::size_of::<NesCode>() as u64,
            "{sizes:?}"
        );
        let estimate = bytes_per_state();
        assert!(estimate >= sizes.held(), "{estimate} < {sizes:?}");
        assert!(estimate >= MEASURED, "{estimate} bytes a state");
    }
}
