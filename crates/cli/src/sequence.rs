//! What the games played on a sequence file share beyond `solve`: `gen`'s options.

use super::CliError;
use tetris_kit::piece::Kind;

/// `gen`'s options of the games played on a sequence file: which sequence to draw.
#[derive(clap::Args, Clone, Debug)]
pub struct GenOptions {
    /// Seed of the generator.
    #[arg(long, default_value_t = tetris_kit::sequence::CONTEST_SEED)]
    pub seed: u64,
    /// Number of pieces.
    #[arg(long, default_value_t = 10_000)]
    pub count: usize,
}

/// A hundred million pieces is a 100 MB file; more is surely a typo.
const MAX_COUNT: usize = 100_000_000;

impl GenOptions {
    /// Refuses a count no file should hold.
    pub fn check(&self) -> Result<(), CliError> {
        if self.count == 0 {
            return Err(CliError::usage("--count must be at least 1"));
        }
        if self.count > MAX_COUNT {
            return Err(CliError::usage(format!(
                "--count must be at most {MAX_COUNT}"
            )));
        }
        Ok(())
    }

    /// The sequence file of `pieces`, its first line a comment naming the command that makes
    /// it again (`gen ` and `how`).
    pub fn file(pieces: &[Kind], how: &str) -> String {
        tetris_kit::sequence::format_sequence(pieces, Some(&format!("gen {how}")))
    }
}
