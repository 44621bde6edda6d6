//! `check` of the contest's game: the replay by the rules, its report, trace, statistics and
//! page.

use super::options::{other_games_record, RulesOptions};
use super::GAME;
use crate::cli::registry::{CheckArgs, CheckRun, Entry};
use crate::cli::report::{misfit_hint, print_check, write_check, Checked};
use crate::cli::{read_sequence, read_text, verdict, write_file};
use crate::cli::{refuse_overwriting, refuse_stdin_twice, refuse_stdout};
use crate::cli::{CliError, Pictures};
use crate::games::contest;
use crate::games::contest::record::Record;
use crate::games::contest::replay::{replay_observed, End, ReplayError, Report, Step};
use crate::games::contest::rules::Rules;
use crate::games::contest::stats::Stats;
use crate::kit::film::{FillChart, Film};
use crate::kit::text::plural;
use crate::say;
use std::io::Write;
use std::path::Path;

/// The options the contest's game adds to `check`.
#[derive(clap::Args, Debug)]
pub(crate) struct CheckOptions {
    #[command(flatten)]
    rules: RulesOptions,
    #[command(flatten)]
    contest: OwnCheckArgs,
    #[command(flatten)]
    pictures: Pictures,
}

/// The options only the contest's game takes (with its rules options).
#[derive(clap::Args, Debug)]
struct OwnCheckArgs {
    /// With --trace: print only the board after piece N (1-based; a note on stderr says so
    /// when the record locked fewer pieces).
    #[arg(long, value_name = "N", requires = "trace")]
    at: Option<usize>,
    /// Also print where the points come from: clears by size with their mean fill, what the I
    /// pieces did, points by piece kind and per 1,000 pieces, locks in mid-air, the fluid bound
    /// and its play's clears, and each clear's fill against that play's at the same piece with
    /// why those of 1-3 rows on fewer cells held less (in `--json`: a `stats` object).
    #[arg(long)]
    stats: bool,
}

/// `--judge` as `check` reads it (the shared text speaks of a search).
pub(crate) const JUDGE_HELP: &str =
    "Check by the contest web replay's rules: a piece locks wherever its \
    moves leave it, even in mid-air, and whatever follows the end of the game is ignored. \
    The contest's game only.";

/// `check`'s options as the contest's game reads them: every game's, and its own.
struct Args<'a> {
    common: &'a CheckArgs,
    /// The games the binary plays, for a record of another.
    games: &'a [&'a dyn Entry],
    own: &'a CheckOptions,
}

impl std::ops::Deref for Args<'_> {
    type Target = CheckArgs;
    fn deref(&self) -> &CheckArgs {
        self.common
    }
}

/// The contest's check of `run`, with its own options.
pub(crate) fn check(run: &CheckRun, own: &CheckOptions) -> Result<(), CliError> {
    run_check(&Args {
        common: run.args,
        games: run.games,
        own,
    })
}

/// The game a file names on its first line that is not a comment (`game nes`, `game
/// browser`), in lower case, if it is readable and does (standard input is left unread: it is
/// the record's, if anything's).
fn game_named_by(path: &Path) -> Option<String> {
    if path == Path::new("-") {
        return None;
    }
    let text = read_text(path, "record file").ok()?;
    let header = crate::kit::text::game_header(&text)?;
    Some(header.game.to_ascii_lowercase())
}

fn run_check(args: &Args) -> Result<(), CliError> {
    let record_path = record_path(args)?;
    let inputs = [
        ("sequence file", Some(args.input.as_path())),
        ("record file", Some(record_path.as_path())),
    ];
    refuse_stdin_twice(&inputs)?;
    refuse_stdout(
        "--html",
        args.own.pictures.html.path.as_deref(),
        "the report",
    )?;
    refuse_overwriting("--html", args.own.pictures.html.path.as_deref(), &inputs)?;
    let rules = args.own.rules.rules()?;
    if args.own.contest.at == Some(0) {
        return Err(CliError::usage(
            "--at 0: pieces are numbered from 1 (the board after piece 1 is --at 1)",
        ));
    }
    let sequence = read_sequence(&args.input)?;
    let text = read_text(record_path, "record file")?;
    if let Some(message) = other_games_record(args.games, record_path, &text) {
        // A record of another game is an invalid record of this one, as every game's check
        // says (exit 1), naming the game.
        return print_check(GAME.id(), args.json, Err(&message));
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let parsed = Record::parse(&text);
    let replayed = replay(args, &sequence, &parsed, rules, &mut out);
    let Replayed {
        report,
        film,
        fill_chart,
        stats,
        trace_failed,
    } = replayed;
    if let Some(path) = &args.own.pictures.html.path {
        let name = record_path.display().to_string();
        let record = parsed.as_ref().ok();
        let page = contest::film::page(&film, &sequence, record, rules, &report, &name, fill_chart);
        write_file("--html", path, page)?;
    }
    // The breakdown of an invalid record would describe pieces the judge never scores.
    let stats = (args.own.contest.stats && report.valid()).then_some(stats);
    let checked = checked(&report, stats.as_ref(), sequence.len(), rules);
    let error = report.error.as_ref().map(ReplayError::to_string);
    let judged = error.as_deref().map_or(Ok(&checked), Err);
    let printed = write_check(&mut out, GAME.id(), args.json, judged);
    let printed = (trace_failed.map_or(Ok(()), Err))
        .and(printed)
        .and_then(|()| out.flush());
    if printed.is_ok() {
        if let Some(n) = args.own.contest.at.filter(|&n| n > report.pieces_locked) {
            say!("note: --at {n}: {}", locked_only(report.pieces_locked));
        }
    }
    verdict(printed, report.valid())
}

/// The record file, which the contest's check needs besides the sequence: where it is
/// missing, a first file that is another game's record says how to check that game.
fn record_path<'a>(args: &'a Args) -> Result<&'a std::path::PathBuf, CliError> {
    let Some(record_path) = &args.record else {
        let input = args.input.display();
        return Err(CliError::usage(match game_named_by(&args.input).as_deref() {
            Some("nes") => format!(
                "{input} is an NES record (its first line is `game nes`): check it with `check --game nes {input}`"
            ),
            Some(game @ ("browser" | "olympiad")) => format!(
                "{input} is a record of the {game} game (its first line is `game {game}`): check it with `check --game {game} SEQUENCE {input}`"
            ),
            _ => "check needs a sequence file and a record file (a record of NES Tetris, alone, with --game nes)".to_string(),
        }));
    };
    Ok(record_path)
}

/// What the replay of a record gives: its report, the page's film and fill chart (none for a
/// record that did not parse), the statistics, and the first failed write of the trace (e.g. a
/// closed pipe: the trace stops there, the replay goes on for the report and the page, and
/// the failure is handled with the report's).
struct Replayed {
    report: Report,
    film: Film,
    fill_chart: Option<FillChart>,
    stats: Stats,
    trace_failed: Option<std::io::Error>,
}

/// Replays the parsed record by `rules`, tracing to `out` where `--trace` asks.
fn replay(
    args: &Args,
    sequence: &[crate::kit::piece::Kind],
    parsed: &Result<Record, crate::games::contest::record::RecordError>,
    rules: Rules,
    out: &mut impl Write,
) -> Replayed {
    let html = args.own.pictures.html.path.is_some();
    // The page's fill chart draws the play behind the statistics' bound.
    let bound = args.own.contest.stats || html;
    let mut film = Film::new();
    let mut locks = Vec::new();
    let mut fill_chart = None;
    let mut stats = Stats::default();
    let mut trace_failed: Option<std::io::Error> = None;
    let mut report = match parsed {
        Ok(record) => {
            let mut trace = |step: &Step| {
                if args.own.pictures.trace
                    && trace_failed.is_none()
                    && args.own.contest.at.is_none_or(|n| n == step.index + 1)
                {
                    trace_failed = write_trace(out, step).err();
                }
                if html {
                    film.observe_piece(contest::film::piece(step));
                    locks.push(contest::film::lock(step));
                }
                if bound {
                    stats.observe(step);
                }
            };
            let report = replay_observed(sequence, record, rules, &mut trace);
            if bound {
                // The bound of the pieces the record covers: a partial record would otherwise
                // be measured against points it never had the pieces for.
                let covered = &sequence[..record.piece_count().min(sequence.len())];
                let play = stats.bound(covered, rules.pieces_to_place(covered.len()));
                fill_chart =
                    html.then(|| contest::film::fill_chart(&locks, &stats, play.as_deref()));
            }
            report
        }
        Err(e) => Report {
            score: 0,
            pieces_locked: 0,
            lines: 0,
            clears: [0; 4],
            end: End::Invalid,
            error: Some(ReplayError::from(e.clone())),
        },
    };
    if let (Ok(_), Some(error)) = (parsed, &mut report.error) {
        // A record of another sequence fails at once: say so, rather than only where.
        let hint = misfit_hint(error.piece, &args.input, sequence.len());
        error.message.push_str(&hint.unwrap_or_default());
    }
    Replayed {
        report,
        film,
        fill_chart,
        stats,
        trace_failed,
    }
}

/// The report of a valid record (`report`, replayed by `rules` on a sequence of `pieces`
/// pieces) in the one form: with `--stats`, the breakdown first in the summary.
fn checked(report: &Report, stats: Option<&Stats>, pieces: usize, rules: Rules) -> Checked {
    let scorecard = report.scorecard(pieces, rules);
    let [c1, c2, c3, c4] = report.clears;
    let summary = format!(
        "{}pieces locked: {}\nlines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4})\n\
         end: {}\nScore = {}\n",
        stats.map(Stats::to_string).unwrap_or_default(),
        report.pieces_locked,
        report.lines,
        scorecard.end.text,
        scorecard.score
    );
    Checked {
        own: report.own(stats),
        scorecard,
        summary,
    }
}

/// Why `--at` showed nothing: the record locked fewer pieces.
fn locked_only(locked: usize) -> String {
    match locked {
        0 => "the record locked no piece".to_string(),
        n => format!("the record locked only {}", plural(n, "piece")),
    }
}

fn write_trace(out: &mut impl Write, step: &Step) -> std::io::Result<()> {
    let moves: Vec<String> = step.moves.iter().map(|t| t.to_string()).collect();
    writeln!(
        out,
        "piece {} {} [{}] at x={} y={} state {}: {}, +{}, score {}, lines {}",
        step.index + 1,
        step.piece.kind,
        moves.join(","),
        step.piece.x,
        step.piece.y,
        step.piece.state,
        plural(step.turn.lines, "line"),
        step.turn.score,
        step.score,
        step.lines
    )?;
    write!(out, "{}", step.written.picture(Some(&step.piece)))?;
    if let Some(reason) = step.turn.game_over {
        writeln!(out, "game over: {}", reason.describe())?;
    }
    writeln!(out)
}
