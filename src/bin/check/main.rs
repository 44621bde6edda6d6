//! `check`: replays a record by the rules and prints what it scores.

#[path = "../shared/mod.rs"]
mod shared;

mod nes;
mod plain;

use crate::shared::cli::write_file;
use crate::shared::cli::{
    exit_code, read_sequence, read_text, refuse_other_games, refuse_overwriting, stdout_failed,
    CliError, GameName, RulesOptions, EXIT_INVALID,
};
use clap::{CommandFactory, FromArgMatches, Parser};
use std::io::Write;
use std::path::{Path, PathBuf};
use tetris_opt::games::tencent;
use tetris_opt::games::tencent::record::Record;
use tetris_opt::games::tencent::replay::{replay_observed, End, ReplayError, Report, Step};
use tetris_opt::games::tencent::report::JsonReport;
use tetris_opt::games::tencent::stats::Stats;
use tetris_opt::kit::film::Film;

/// Replay a move record on a piece sequence and print its score (last line: `Score = N`).
///
/// An invalid record gets one error line. The contest's is of the form `piece N (token T 'X'):
/// message` (N counts from 1 and is the piece the token belongs to; T is the token's position
/// in the record), e.g. `error: piece 2 (token 5 'X3'): expected N, L, R, D or C, found 'X'`;
/// an empty record, with no token to name, gets `error: piece 1: the record is empty`. The
/// other games' records are text files of lines, and their errors name the file and the line
/// first: `error: moves.txt:2: piece 1 (I), token 1 'x': ...`. With `--json` the same text,
/// without `error: `, is the `error` field.
///
/// Exit code 0 for a valid record, 1 for an invalid one, 2 for unusable arguments or files.
/// Output its reader stops reading (`check ... | head`) ends the program quietly with 0.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Piece sequence file (e.g. inputs/tencent.txt); with `--game nes`, the NES record file
    /// (its header names the start, so there is no sequence file).
    input: PathBuf,
    /// Move record file (tokens N, Lk, Rk, Dk, Ck separated by commas and/or whitespace);
    /// `-` reads it from standard input, e.g. `solve input.txt | check input.txt -`.
    record: Option<PathBuf>,
    /// Print one JSON object instead of the human summary.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesOptions,
    #[command(flatten)]
    nes: NesCheck,
    #[command(flatten)]
    contest: ContestCheck,
    #[command(flatten)]
    pictures: Pictures,
}

/// The options only NES Tetris takes.
#[derive(clap::Args)]
struct NesCheck {
    /// With `--game nes`: a JSON line per frame with the ROM's variables (as
    /// tools/nes-oracle/oracle.py play --frames prints them from the real game).
    #[arg(long)]
    frames: bool,
    /// With `--game nes`: also write the record as an FM2 movie (FCEUX's format) that plays it
    /// from power-on, menus included.
    #[arg(long, value_name = "OUT.fm2")]
    fm2: Option<PathBuf>,
}

/// The options only the contest's game takes (with its rules options).
#[derive(clap::Args)]
struct ContestCheck {
    /// With --trace: print only the board after piece N (1-based; a note on stderr says so
    /// when the record locked fewer pieces).
    #[arg(long, value_name = "N", requires = "trace")]
    at: Option<usize>,
    /// Also print where the points come from: clears by size with their mean fill, what the I
    /// pieces did, points by piece kind and per 1,000 pieces, locks in mid-air (in `--json`: a
    /// `stats` object).
    #[arg(long)]
    stats: bool,
}

/// The pictures of a replay, for the games that draw them (the contest's and NES).
#[derive(clap::Args)]
struct Pictures {
    /// Print the board after each piece, the locked piece marked with '@'.
    #[arg(long)]
    trace: bool,
    /// Also write the replay as one self-contained HTML page (a viewer with playback, piece
    /// stepping and a score chart); an invalid record plays up to the piece it fails at.
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
}

/// Which games take the options of each group of `Args` (by the group's struct).
const TAKES: [(&str, &[GameName]); 5] = [
    ("NesCheck", &[GameName::Nes]),
    ("ContestCheck", &[GameName::Tencent]),
    ("RulesOptions", &[GameName::Tencent]),
    (
        "Pictures",
        &[GameName::Tencent, GameName::Nes, GameName::Olympiad],
    ),
    ("trace", &[GameName::Tencent, GameName::Nes]),
];

/// `--judge` as `check` reads it (the shared text speaks of a search).
const JUDGE_HELP: &str = "Check by the contest web replay's rules: a piece locks wherever its \
    moves leave it, even in mid-air, and whatever follows the end of the game is ignored. \
    The contest's game only.";

fn main() -> std::process::ExitCode {
    let command = Args::command().mut_arg("judge", |a| a.help(JUDGE_HELP).long_help(None::<&str>));
    let matches = command.clone().get_matches();
    let args = Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let game = args.rules.game;
    if let Err(e) = refuse_other_games(&command, &matches, game, &TAKES) {
        return exit_code(Err(e));
    }
    exit_code(match game {
        GameName::Nes => check_nes(&args),
        GameName::Browser => check_plain::<plain::Browser>(&args, "browser"),
        GameName::Olympiad => check_plain::<plain::Olympiad>(&args, "olympiad"),
        GameName::Tencent => run(&args),
    })
}

/// A record that fails by the rules within this many pieces is likely of another sequence.
const FIRST_PIECES: usize = 3;

/// Reports a record that cannot be read as invalid, as an invalid record's replay is reported
/// (`error: ...` and `Score = 0` on stdout, or the JSON), with exit code 1.
fn invalid_record(json: bool, message: String) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let printed = if json {
        let json = serde_json::json!({"valid": false, "error": message, "score": 0});
        writeln!(out, "{json}")
    } else {
        writeln!(out, "error: {message}").and_then(|()| writeln!(out, "Score = 0"))
    };
    printed.map_err(|e| stdout_failed(e, "the report"))?;
    Err(CliError {
        message: String::new(),
        code: EXIT_INVALID,
    })
}

/// The game a record file names on its first line that is not a comment (`game nes`,
/// `game browser`), if it is readable and does.
fn game_named_by(path: &Path) -> Option<String> {
    if path == Path::new("-") {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let text = tetris_opt::kit::text::strip_byte_order_mark(&text);
    let line = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())?;
    let mut words = line.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some("game"), Some(game), None) => Some(game.to_string()),
        _ => None,
    }
}

/// `check --game nes`: the record alone, its header names the start.
fn check_nes(args: &Args) -> Result<(), CliError> {
    if args.record.is_some() {
        return Err(CliError::usage(
            "--game nes takes one file, the record: its header names the start",
        ));
    }
    let (fm2, html) = (args.nes.fm2.as_deref(), args.pictures.html.as_deref());
    let inputs = [("record file", Some(args.input.as_path()))];
    refuse_overwriting("--fm2", fm2, &inputs)?;
    refuse_overwriting("--html", html, &inputs)?;
    nes::check(&nes::CheckOptions {
        record: &args.input,
        json: args.json,
        trace: args.pictures.trace,
        frames: args.nes.frames,
        fm2,
        html,
    })
}

fn run(args: &Args) -> Result<(), CliError> {
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
    if let Some(game) = game_named_by(record_path) {
        // A record of another game is an invalid record of this one, as every game's check
        // says (exit 1), naming the game and how to check it.
        let hint = tetris_opt::kit::text::other_game_hint(&format!("game {game}"), "");
        return invalid_record(
            args.json,
            format!(
                "{}:1: the record must be the contest's (one line of moves), found `game {game}`{hint}",
                record_path.display()
            ),
        );
    }
    let inputs = [
        ("sequence file", Some(args.input.as_path())),
        ("record file", Some(record_path.as_path())),
    ];
    refuse_overwriting("--html", args.pictures.html.as_deref(), &inputs)?;
    let rules = args.rules.rules()?;
    if args.contest.at == Some(0) {
        return Err(CliError::usage(
            "--at 0: pieces are numbered from 1 (the board after piece 1 is --at 1)",
        ));
    }
    let sequence = read_sequence(&args.input)?;
    // A record that cannot be read still gets the scorer's last line, so scripts that read
    // `Score = N` see a zero rather than nothing.
    let text = read_text(record_path, "record file").inspect_err(|e| {
        if args.json {
            let report = JsonReport {
                score: 0,
                pieces_locked: 0,
                lines: 0,
                clears: [0; 4],
                end: End::Invalid.to_string(),
                valid: false,
                error: Some(e.message.clone()),
                stats: None,
            };
            let json = serde_json::to_string(&report).expect("report serializes");
            // Best effort: the error that follows is the message that matters.
            let _ = writeln!(std::io::stdout(), "{json}");
        } else {
            let _ = writeln!(std::io::stdout(), "Score = 0");
        }
    })?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let parsed = Record::parse(&text);
    let mut film = Film::new();
    let mut stats = Stats::default();
    // The first failed write of the trace (e.g. a closed pipe): the trace stops there, the
    // replay goes on for the report and the page, and the failure is handled with the report's.
    let mut trace_failed: Option<std::io::Error> = None;
    let mut report = match &parsed {
        Ok(record) => {
            let mut trace = |step: &Step| {
                if args.pictures.trace
                    && trace_failed.is_none()
                    && args.contest.at.is_none_or(|n| n == step.index + 1)
                {
                    trace_failed = write_trace(&mut out, step).err();
                }
                if args.pictures.html.is_some() {
                    film.observe_piece(tencent::film::piece(step));
                }
                if args.contest.stats {
                    stats.observe(step);
                }
            };
            replay_observed(&sequence, record, rules, &mut trace)
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
    if let (Ok(_), Some(error)) = (&parsed, &mut report.error) {
        if error.piece <= FIRST_PIECES {
            // A record of another sequence fails at once: say so, rather than only where.
            error.message.push_str(&format!(
                " (the record fails at its first pieces: is {} the sequence it was made for?)",
                args.input.display()
            ));
        }
    }
    if let Some(path) = &args.pictures.html {
        let name = record_path.display().to_string();
        let page = tencent::film::page(
            &film,
            &sequence,
            parsed.as_ref().ok(),
            rules,
            &report,
            &name,
        );
        write_file("--html", path, page)?;
    }
    // The breakdown of an invalid record would describe pieces the judge never scores.
    let stats = (args.contest.stats && report.valid()).then_some(stats);
    let printed = if args.json {
        let json = JsonReport {
            stats,
            ..report.to_json()
        };
        serde_json::to_string(&json)
            .map_err(std::io::Error::other)
            .and_then(|json| writeln!(out, "{json}"))
    } else {
        let breakdown = match &stats {
            Some(s) => write!(out, "{s}"),
            None => Ok(()),
        };
        breakdown.and_then(|()| write_summary(&mut out, &report))
    };
    trace_failed
        .map_or(Ok(()), Err)
        .and(printed)
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failed(e, "the report"))?;
    if let Some(n) = args.contest.at.filter(|&n| n > report.pieces_locked) {
        say!("note: --at {n}: {}", locked_only(report.pieces_locked));
    }
    if report.valid() {
        Ok(())
    } else {
        Err(CliError::reported(EXIT_INVALID))
    }
}

/// `check --game G SEQUENCE RECORD` for the browser game and the olympiad's: only `--json`
/// applies.
fn check_plain<G: plain::PlainCheck>(args: &Args, game: &str) -> Result<(), CliError> {
    let Some(record) = &args.record else {
        return Err(CliError::usage(format!(
            "check --game {game} needs a sequence file and a record file"
        )));
    };
    let html = args.pictures.html.as_deref();
    let inputs = [
        ("sequence file", Some(args.input.as_path())),
        ("record file", Some(record.as_path())),
    ];
    refuse_overwriting("--html", html, &inputs)?;
    let valid = plain::check::<G>(&plain::CheckOptions {
        sequence: &args.input,
        record,
        json: args.json,
        html,
    })?;
    if !valid {
        return Err(CliError::reported(EXIT_INVALID));
    }
    Ok(())
}

/// Why `--at` showed nothing: the record locked fewer pieces.
fn locked_only(locked: usize) -> String {
    match locked {
        0 => "the record locked no piece".to_string(),
        1 => "the record locked only 1 piece".to_string(),
        n => format!("the record locked only {n} pieces"),
    }
}

fn write_summary(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    if let Some(e) = &report.error {
        writeln!(out, "error: {e}")?;
        return writeln!(out, "Score = 0");
    }
    let [c1, c2, c3, c4] = report.clears;
    writeln!(out, "pieces locked: {}", report.pieces_locked)?;
    writeln!(
        out,
        "lines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4})",
        report.lines
    )?;
    writeln!(out, "end: {}", report.end)?;
    writeln!(out, "Score = {}", report.score)
}

fn write_trace(out: &mut impl Write, step: &Step) -> std::io::Result<()> {
    let moves: Vec<String> = step.moves.iter().map(|t| t.to_string()).collect();
    writeln!(
        out,
        "piece {} {} [{}] at x={} y={} state {}: {} line(s), +{}, score {}, lines {}",
        step.index + 1,
        step.piece.kind,
        moves.join(","),
        step.piece.x,
        step.piece.y,
        step.piece.state,
        step.turn.lines,
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
