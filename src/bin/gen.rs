//! `gen`: prints a piece sequence file.

#[path = "shared/mod.rs"]
mod shared;

use crate::shared::cli::{exit_code, refuse_other_games, stdout_failed, CliError, GameName};
use clap::{CommandFactory, FromArgMatches};
use std::io::Write;
use tetris_opt::games::nes::start::distinct_starts;
use tetris_opt::games::nes::tables::kind_letter;
use tetris_opt::kit::sequence::{format_sequence, generate, Distribution, CONTEST_SEED};

/// Print a piece sequence file (with no options: the contest sequence).
#[derive(clap::Parser)]
#[command(version)]
struct Args {
    /// Seed of the generator.
    #[arg(long, default_value_t = CONTEST_SEED)]
    seed: u64,
    /// Number of pieces.
    #[arg(long, default_value_t = 10_000)]
    count: usize,
    /// How pieces are drawn.
    #[arg(long, value_enum, default_value_t = DistributionArg::Contest)]
    distribution: DistributionArg,
    /// `nes`: NES games are not sequences but starts; list the distinct starts known for
    /// --start-level (the title-waits that lead to different games). `browser`: the browser
    /// game's 7-bag sequence for --seed. `olympiad`: the olympiad's uniform sequence.
    #[arg(long, value_enum, default_value_t = GameName::Tencent)]
    game: GameName,
    /// With `--game nes`: the level whose starts to list.
    #[arg(long, value_name = "LEVEL", default_value_t = 19)]
    start_level: u8,
}

/// `--distribution`: the library's [`Distribution`], as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum DistributionArg {
    /// The contest's linear congruential generator (weights 2,3,3,4,5,6,6 out of 29).
    Contest,
    /// Each kind with probability 1/7.
    Uniform,
    /// Shuffled bags of the seven kinds.
    Bag7,
}

/// A hundred million pieces is a 100 MB file; more is surely a typo.
const MAX_COUNT: usize = 100_000_000;

/// Which games take each option: an option of another game is refused, never ignored.
const TAKES: [(&str, &[GameName]); 4] = [
    (
        "seed",
        &[GameName::Tencent, GameName::Browser, GameName::Olympiad],
    ),
    (
        "count",
        &[GameName::Tencent, GameName::Browser, GameName::Olympiad],
    ),
    ("distribution", &[GameName::Tencent]),
    ("start_level", &[GameName::Nes]),
];

fn main() -> std::process::ExitCode {
    let command = Args::command();
    let matches = command.clone().get_matches();
    let args = Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    exit_code(refuse_other_games(&command, &matches, args.game, &TAKES).and_then(|()| run(&args)))
}

fn run(args: &Args) -> Result<(), CliError> {
    match args.game {
        GameName::Nes => list_nes_starts(args.start_level),
        GameName::Browser => game_sequence(args, "browser", tetris_opt::games::browser::sequence),
        GameName::Olympiad => {
            game_sequence(args, "olympiad", tetris_opt::games::olympiad::sequence)
        }
        GameName::Tencent => contest_sequence(args),
    }
}

/// A sequence of the contest's generator (or of another distribution).
fn contest_sequence(args: &Args) -> Result<(), CliError> {
    check_count(args.count)?;
    let (distribution, dist) = match args.distribution {
        DistributionArg::Contest => (Distribution::Contest, "contest"),
        DistributionArg::Uniform => (Distribution::Uniform, "uniform"),
        DistributionArg::Bag7 => (Distribution::Bag7, "bag7"),
    };
    let pieces = generate(distribution, args.seed, args.count);
    let header = format!(
        "gen --seed {} --count {} --distribution {dist}",
        args.seed, args.count
    );
    let text = format_sequence(&pieces, Some(&header));
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| stdout_failed(e, "the sequence"))
}

fn check_count(count: usize) -> Result<(), CliError> {
    if count == 0 {
        return Err(CliError::usage("--count must be at least 1"));
    }
    if count > MAX_COUNT {
        return Err(CliError::usage(format!(
            "--count must be at most {MAX_COUNT}"
        )));
    }
    Ok(())
}

/// The sequence of the browser game (7-bags) or of the olympiad's (uniform), which have one
/// distribution each: `draw` makes `count` pieces from `seed`.
fn game_sequence(
    args: &Args,
    game: &str,
    draw: fn(u64, usize) -> Vec<tetris_opt::games::tencent::rules::Kind>,
) -> Result<(), CliError> {
    check_count(args.count)?;
    let pieces = draw(args.seed, args.count);
    let header = format!(
        "gen --game {game} --seed {} --count {}",
        args.seed, args.count
    );
    let text = format_sequence(&pieces, Some(&header));
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| stdout_failed(e, "the sequence"))
}

/// The NES starts of a level that lead to different games, one line each.
fn list_nes_starts(level: u8) -> Result<(), CliError> {
    let starts = distinct_starts(level);
    if starts.is_empty() {
        return Err(CliError::usage(format!(
            "no NES start is known for level {level}: src/games/nes/starts.txt holds levels 0..=19"
        )));
    }
    let mut text = format!(
        "# NES starts of level {level} that lead to different games: solve --game nes --start-level {level} --title-wait W\n\
         # frame-phase: the frame counter mod 4 at the first piece; the line-clear animation steps\n\
         # when it is 0, so starts alike in all else part at the first clear\n\
         # title-wait first-piece next-piece generator spawn-count spawn-id frame-phase\n"
    );
    for s in starts {
        text.push_str(&format!(
            "{} {} {} {:04x} {} {} {}\n",
            s.title_wait,
            kind_letter(s.piece),
            kind_letter(s.next),
            s.rng,
            s.spawn_count,
            s.spawn_id,
            s.frame_counter & 3
        ));
    }
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| stdout_failed(e, "the starts"))
}
