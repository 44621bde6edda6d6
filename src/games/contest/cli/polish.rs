//! `polish`: searches a stretch of a finished record again (see [`crate::games::contest::polish`]).

use super::options::{print_record, read_record, GameArg, RulesOptions};
use crate::cli::progress::Progress;
use crate::cli::registry::{only_game, GameCli};
use crate::cli::{
    check_width, exit_code, read_sequence, refuse_stdin_twice, CliError, EvalOptions,
    SearchOptions, EXIT_INVALID,
};
use crate::games::contest::polish::{check_range, polish, PolishError};
use crate::games::contest::search::{Params, UnderWay, BYTES_PER_STATE};
use crate::say;

use crate::search::{Objective, Width};
use clap::{CommandFactory, FromArgMatches, Parser};
use std::path::PathBuf;
use std::time::Instant;

/// Search pieces FROM+1..=TO of a record again, from the record's own state, keeping the
/// record's line in the beam: every line that meets one of its boards with more points goes on
/// along it. Prints the record with that stretch replaced (one line) on stdout, checked by the
/// rules engine, and a summary ending in `Score = N` on stderr; never scores less than the
/// record. Other weights or a wider beam than the record's find what its search passed by.
/// The policy's endgame only applies when the stretch reaches the record's end.
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
    /// Search up to piece TO (1-based, inclusive; default: the record's last piece).
    #[arg(long)]
    to: Option<usize>,
    /// States kept at each depth of the beam.
    #[arg(long, default_value_t = 20_000)]
    beam_width: usize,
    #[command(flatten)]
    search: SearchOptions,
    #[command(flatten)]
    eval: EvalOptions,
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    rules: RulesOptions,
    /// No progress bar and no summary.
    #[arg(long)]
    quiet: bool,
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
pub fn polish_main(games: &[&dyn GameCli]) -> std::process::ExitCode {
    if let Err(e) = crate::cli::refuse_closed_stdout("the record") {
        return exit_code(Err(e));
    }
    let command = CONTEST_HELP.iter().fold(Args::command(), |c, &(id, help)| {
        c.mut_arg(id, |a| a.help(help).long_help(None::<&str>))
    });
    let matches = command.get_matches();
    let args = Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    exit_code(only_game(games, "contest", &args.game.game).and_then(|()| run(&args)))
}

fn run(args: &Args) -> Result<(), CliError> {
    check_width("--beam-width", args.beam_width)?;
    check_range(args.from, args.to).map_err(|e| CliError::usage(format!("--from/--to: {e}")))?;
    let rules = args.rules.rules()?;
    args.search.check()?;
    args.eval.check()?;
    let mut inputs = vec![
        ("sequence file", Some(args.input.as_path())),
        ("record file", Some(args.record.as_path())),
    ];
    inputs.extend(args.eval.inputs());
    refuse_stdin_twice(&inputs)?;
    args.search.check_memory(args.beam_width, BYTES_PER_STATE)?;
    let sequence = read_sequence(&args.input)?;
    let record = read_record(&args.record)?;
    let objective = args.search.objective_or(Objective::Score);
    let ranking = super::options::ranking(&args.eval, objective)?;
    let params = Params {
        width: Width::fixed(args.beam_width),
        score_weight: ranking.score_weight,
        weights: ranking.weights,
        policy: ranking.policy,
        rules,
        start: UnderWay::default(),
        objective,
    };
    let pieces = record.piece_count();
    let to = args.to.unwrap_or(pieces).min(pieces);
    let pool = args.search.pool(args.beam_width)?;
    // Once every input is read and valid: an error is then the only line printed.
    if !args.quiet {
        args.search.print_estimate(args.beam_width, BYTES_PER_STATE);
    }
    let total = to.saturating_sub(args.from) as u64;
    // Where no bar draws, a line a minute.
    let mut progress = Progress::new("piece", Some(total), args.quiet, 60.0);
    let started = Instant::now();
    let result = pool.install(|| {
        let stretch = (args.from, args.to);
        polish(&sequence, &record, &params, stretch, &mut |s| {
            progress.update(s.pieces as u64, "")
        })
    });
    progress.finish();
    let polished = result.map_err(|e| match e {
        PolishError::Invalid(_) => CliError {
            message: format!("record file {}: {e}", args.record.display()),
            code: EXIT_INVALID,
        },
        PolishError::Stretch { .. } | PolishError::Reversed { .. } => {
            CliError::usage(format!("--from/--to: {e}"))
        }
        PolishError::Lost | PolishError::Solve(_) => CliError::internal(e),
    })?;
    print_record(&polished.record)?;
    if !args.quiet {
        let rest = if polished.last + 1 < pieces {
            format!("the record's own line from piece {} on", polished.last + 2)
        } else {
            "to the record's end".to_string()
        };
        say!(
            "pieces {}-{} searched again in {:.1} s: +{} points, {rest}",
            args.from + 1,
            to,
            started.elapsed().as_secs_f64(),
            polished.gain,
        );
        say!(
            "checked by the rules engine ({}): record valid, same score",
            rules.mode_name()
        );
        say!("Score = {}", polished.score);
    }
    Ok(())
}
