//! What the games played on a sequence file share beyond `solve`: `gen`'s options.

use super::CliError;
use tetris_kit::piece::Kind;

/// `gen`'s options of the games played on a sequence file: which sequence to draw.
#[derive(clap::Args, Debug)]
pub struct GenArgs {
    /// Seed of the generator (default: the game's own; the file's first line names the seed).
    #[arg(long)]
    seed: Option<u64>,
    /// Number of pieces.
    #[arg(long, default_value_t = 10_000)]
    count: usize,
}

/// `gen`'s options as a game reads them: the seed given, or the game's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    pub seed: u64,
    pub count: usize,
}

/// A hundred million pieces is a 100 MB file; more is surely a typo.
const MAX_COUNT: usize = 100_000_000;

impl GenOptions {
    /// The options a game adds to `gen`'s command ([`GenArgs`]). Games share them, so the
    /// seed's default is each game's, given to [`GenOptions::read`].
    pub fn augment_args(options: clap::Command) -> clap::Command {
        <GenArgs as clap::Args>::augment_args(options)
    }

    /// The options as given (`gen`'s command line holds them wherever a game added them),
    /// `default_seed` where no seed is.
    pub fn read(matches: &clap::ArgMatches, default_seed: u64) -> Result<GenOptions, CliError> {
        let args = <GenArgs as clap::FromArgMatches>::from_arg_matches(matches)
            .map_err(|e| CliError::usage(e.to_string()))?;
        let options = GenOptions {
            seed: args.seed.unwrap_or(default_seed),
            count: args.count,
        };
        if options.count == 0 {
            return Err(CliError::usage("--count must be at least 1"));
        }
        if options.count > MAX_COUNT {
            return Err(CliError::usage(format!(
                "--count must be at most {MAX_COUNT}"
            )));
        }
        Ok(options)
    }

    /// The sequence file of `pieces`, its first line a comment naming the command that makes
    /// it again (`gen ` and `how`).
    pub fn file(pieces: &[Kind], how: &str) -> String {
        tetris_kit::sequence::format_sequence(pieces, Some(&format!("gen {how}")))
    }
}
