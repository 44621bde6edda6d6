//! `gen`: prints a piece sequence file.

use clap::Parser;
use std::io::Write;
use tetris_opt::cli::{exit_with, stdout_failed, CliError};
use tetris_opt::sequence::{format_sequence, generate, Distribution, CONTEST_SEED};

/// Print a piece sequence file (with no options: the contest sequence).
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Seed of the generator.
    #[arg(long, default_value_t = CONTEST_SEED)]
    seed: u64,
    /// Number of pieces.
    #[arg(long, default_value_t = 10_000)]
    count: usize,
    /// How pieces are drawn.
    #[arg(long, value_enum, default_value_t = Distribution::Contest)]
    distribution: Distribution,
}

/// A hundred million pieces is a 100 MB file; more is surely a typo.
const MAX_COUNT: usize = 100_000_000;

fn main() {
    let args = Args::parse();
    exit_with(run(&args));
}

fn run(args: &Args) -> Result<(), CliError> {
    if args.count == 0 {
        return Err(CliError::usage("--count must be at least 1"));
    }
    if args.count > MAX_COUNT {
        return Err(CliError::usage(format!(
            "--count must be at most {MAX_COUNT}"
        )));
    }
    let pieces = generate(args.distribution, args.seed, args.count);
    let dist = match args.distribution {
        Distribution::Contest => "contest",
        Distribution::Uniform => "uniform",
        Distribution::Bag7 => "bag7",
    };
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
