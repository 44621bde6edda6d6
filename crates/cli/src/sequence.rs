//! What the games played on a sequence file share beyond `solve`: `gen`'s options.

use super::CliError;
use tetris_kit::piece::Kind;

/// `gen`'s options of the games played on a sequence file: which sequence to draw. Games
/// share them (each flattens this struct), so the seed's default is each game's, given to
/// [`GenArgs::read`].
#[derive(clap::Args, Clone, Debug)]
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

impl GenArgs {
    /// The options as given, `default_seed` where no seed is; a count no file should hold is
    /// refused.
    pub fn read(&self, default_seed: u64) -> Result<GenOptions, CliError> {
        let options = GenOptions {
            seed: self.seed.unwrap_or(default_seed),
            count: self.count,
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
}

impl GenOptions {
    /// The sequence file of `pieces`, its first line a comment naming the command that makes
    /// it again (`gen ` and `how`).
    pub fn file(pieces: &[Kind], how: &str) -> String {
        tetris_kit::sequence::format_sequence(pieces, Some(&format!("gen {how}")))
    }
}
