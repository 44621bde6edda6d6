//! `polish`: searches a stretch of a finished record again (see [`crate::games::contest::polish`]).

use super::options::{print_record, read_record, GameArg, RulesOptions};
use crate::cli::progress::late_warning;
use crate::cli::progress::Progress;
use crate::cli::registry::{only_game, Entry};
use crate::cli::summary::{deadline_json, deadline_line, peak_memory_mib, width_changes_lines};
use crate::cli::{
    check_output, check_width, exit_code, read_sequence, refuse_stdin_twice, write_file, CliError,
    EvalOptions, SearchOptions, WidthOptions, EXIT_INVALID,
};
use crate::games::contest::polish::{check_range, polish, PolishError, Polished};
use crate::games::contest::record::Record;
use crate::games::contest::rules::Kind;
use crate::games::contest::search::{Params, UnderWay, BYTES_PER_STATE};
use crate::say;

use crate::cli::drivers::parse_command_line;
use crate::search::{Objective, Width};
use clap::Parser;
use std::path::PathBuf;
use std::time::Instant;

/// Search pieces FROM+1..=TO of a record again, from the record's own state, keeping the
/// record's line in the beam: every line that meets one of its boards with more points goes on
/// along it. Prints the record with that stretch replaced (one line) on stdout, checked by the
/// rules engine, and a summary ending in `Score = N` on stderr; never scores less than the
/// record. Other weights or a wider beam than the record's find what its search passed by.
/// The policy's endgame only applies when the stretch reaches the record's end.
///
/// It takes `solve`'s beam, ranking and run options (--beam-width, --time-budget,
/// --max-beam-width, --width-changes, --objective, --score-weight, --weights, --policy,
/// --threads, --force, --json, --quiet, --progress-every); its stretch is --from/--to, in place
/// of `solve`'s --pieces.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Piece sequence file (e.g. inputs/tencent.txt).
    input: PathBuf,
    /// The record to improve.
    record: PathBuf,
    /// Keep the record's first FROM pieces (default 0: search from the first piece).
    #[arg(long, default_value_t = 0)]
    from: usize,
    /// Search up to piece TO (1-based, inclusive; default: the record's last piece). The
    /// record's pieces after TO are kept: `solve --pieces N` is `--to N` here.
    #[arg(long)]
    to: Option<usize>,
    /// States kept at each depth of the beam. With --time-budget: the width of the first 50
    /// pieces of the stretch.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    beam_width: usize,
    #[command(flatten)]
    width: WidthOptions,
    #[command(flatten)]
    search: SearchOptions,
    #[command(flatten)]
    eval: EvalOptions,
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    rules: RulesOptions,
    /// Also write a JSON summary (score, gain, stretch, timings, parameters) to FILE, once the
    /// record is written and checked. A file already there is removed when the search starts
    /// (its options and inputs checked), so a run that fails or is interrupted leaves none.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(long)]
    quiet: bool,
    /// When stderr is not a terminal (a log file, nohup, CI), where the progress bar does not
    /// draw: print a line of progress this often instead (seconds, or 90s, 15m, 1.5h; 0 = at
    /// every piece).
    #[arg(long, value_name = "TIME", value_parser = crate::cli::parse_interval, default_value = "60s")]
    progress_every: f64,
    /// `solve`'s --pieces, which `polish` refuses saying what takes its place (--to).
    #[arg(long, value_name = "N", hide = true)]
    pieces: Option<String>,
}

/// The options whose shared help speaks of other games' defaults, as `polish`, which plays
/// only the contest's game, takes them.
const CONTEST_HELP: &[(&str, &str)] = &[
    (
        "objective",
        "What the search is for: the most points (`score`, the default), or the most pieces \
         placed, then points (`survive`: the ranking keeps the stack safe and the answer is the \
         line that went furthest).",
    ),
    (
        "score_weight",
        "How much one point scored lowers a state's key (key = evaluation - score * weight). \
         Default: 0.024, and 0 under `--objective survive`.",
    ),
    (
        "weights",
        "Evaluation weights as JSON (fields left out keep their defaults: weights/default.json, \
         and under `--objective survive` weights/contest-survive.json).",
    ),
    (
        "policy",
        "Beam policy as JSON (fields left out keep their defaults; under `--objective survive` \
         the default has no endgame).",
    ),
];

/// `polish`'s `main`: the contest's game alone of `games`, the only one it plays.
pub fn polish_main(games: &[&dyn Entry]) -> std::process::ExitCode {
    if let Err(e) = crate::cli::refuse_closed_stdout("the record") {
        return exit_code(Err(e));
    }
    let args: Args = parse_command_line(|command| {
        CONTEST_HELP
            .iter()
            .fold(GameArg::taking(command, games), |c, &(id, help)| {
                c.mut_arg(id, |a| a.help(help).long_help(None::<&str>))
            })
    });
    exit_code(only_game(games, "contest", &args.game.game).and_then(|()| run(&args, games)))
}

/// `--pieces` refused: a stretch of a record is --from/--to.
fn refuse_pieces(args: &Args) -> Result<(), CliError> {
    match &args.pieces {
        None => Ok(()),
        Some(n) => Err(CliError::usage(format!(
            "polish takes no --pieces: it searches a stretch of the record, --from/--to, and \
             keeps the rest (`--to {n}` searches up to piece {n})"
        ))),
    }
}

fn run(args: &Args, games: &[&dyn Entry]) -> Result<(), CliError> {
    refuse_pieces(args)?;
    check_width("--beam-width", args.beam_width)?;
    check_range(args.from, args.to).map_err(|e| CliError::usage(format!("--from/--to: {e}")))?;
    let rules = args.rules.rules()?;
    args.width.check()?;
    args.search.check()?;
    args.eval.check()?;
    let mut inputs = vec![
        ("sequence file", Some(args.input.as_path())),
        ("record file", Some(args.record.as_path())),
    ];
    inputs.extend(args.eval.inputs());
    refuse_stdin_twice(&inputs)?;
    if let Some(path) = &args.json {
        check_output("--json", path, &inputs)?;
    }
    let widest = args.width.widest(args.beam_width);
    let cap = args.width.cap(widest);
    (args.search).check_memory_capped(cap, widest, BYTES_PER_STATE, 0)?;
    let sequence = read_sequence(&args.input)?;
    let record = read_record(games, &args.record)?;
    let objective = args.search.objective_or(Objective::Score);
    let ranking = super::options::ranking(&args.eval, objective)?;
    let pieces = record.piece_count();
    let to = args.to.unwrap_or(pieces).min(pieces);
    let (width, _) = args
        .width
        .width(args.beam_width, to.saturating_sub(args.from))?;
    let params = Params {
        ranking,
        rules,
        start: UnderWay::default(),
        objective,
    };
    let pool = args.search.pool(widest)?;
    if let Some(path) = &args.json {
        crate::cli::remove_earlier_output("--json", path)?;
    }
    // Once every input is read and valid: an error is then the only line printed.
    if !args.quiet {
        args.search.print_estimate(widest, BYTES_PER_STATE);
    }
    let began = Instant::now();
    let polished = pool.install(|| search(args, &sequence, &record, (&params, &width), to))?;
    let search_seconds = began.elapsed().as_secs_f64();
    print_record(&polished.record)?;
    let seconds = (search_seconds, began.elapsed().as_secs_f64());
    report(args, &polished, (pieces, to), seconds)
}

/// The polished record, with the search's progress on stderr.
fn search(
    args: &Args,
    sequence: &[Kind],
    record: &Record,
    (params, width): (&Params, &Width),
    to: usize,
) -> Result<Polished, CliError> {
    let total = to.saturating_sub(args.from) as u64;
    let mut progress = Progress::new("piece", Some(total), args.quiet, args.progress_every);
    let mut warned = false;
    let result = polish(
        sequence,
        record,
        params,
        width,
        (args.from, args.to),
        &mut |s| {
            progress.update(s.pieces as u64, "");
            if let Some(late) = s.late.filter(|_| !warned) {
                progress.note(&late_warning(&late, args.from));
                warned = true;
            }
        },
    );
    progress.finish();
    result.map_err(|e| match e {
        PolishError::Invalid(_) => CliError {
            message: format!("record file {}: {e}", args.record.display()),
            code: EXIT_INVALID,
        },
        PolishError::Stretch { .. } | PolishError::Reversed { .. } => {
            CliError::usage(format!("--from/--to: {e}"))
        }
        PolishError::Lost | PolishError::Solve(_) => CliError::internal(e),
    })
}

/// `--json` and the summary on stderr, once the record is printed; `pieces` is the record's
/// count, `to` the stretch's end, and the seconds those of the search and of the whole run.
fn report(
    args: &Args,
    polished: &Polished,
    (pieces, to): (usize, usize),
    (search_seconds, seconds): (f64, f64),
) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let stats = &polished.stats;
    let budget = args.width.time_budget;
    if let Some(path) = &args.json {
        let summary = serde_json::json!({
            "game": "contest",
            "rules": rules.mode_name(),
            "score": polished.score,
            "gain": polished.gain,
            "from": args.from,
            "to": to,
            "searched_to": polished.last + 1,
            "beam_width": args.beam_width,
            "width_changes": polished.width_changes.to_string(),
            "time_budget_seconds": budget,
            "deadline": deadline_json(budget, search_seconds, seconds, stats.late, args.from),
            "search_seconds": search_seconds,
            "seconds": seconds,
            "expanded": stats.expanded,
            "placements": stats.placements,
            "peak_memory_mib": peak_memory_mib(),
        });
        write_file("--json", path, format!("{summary:#}\n"))?;
    }
    if args.quiet {
        return Ok(());
    }
    let rest = if polished.last + 1 < pieces {
        format!("the record's own line from piece {} on", polished.last + 2)
    } else {
        "to the record's end".to_string()
    };
    say!(
        "pieces {}-{} searched again in {search_seconds:.1} s: +{} points, {rest}",
        args.from + 1,
        to,
        polished.gain,
    );
    for line in width_changes_lines(args.beam_width, &polished.width_changes, args.from) {
        say!("{line}");
    }
    if let Some(line) = deadline_line(budget, search_seconds, seconds, stats.late) {
        say!("{line}");
    }
    say!(
        "checked by the rules engine ({}): record valid, same score",
        rules.mode_name()
    );
    say!("Score = {}", polished.score);
    Ok(())
}
