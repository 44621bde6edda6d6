//! The options `solve` and `check` ask of every game (what the binaries hand a game, with
//! them, is a run: [`super::registry::SolveRun`]).

use super::options::{SearchOptions, WidthOptions};
use std::path::PathBuf;

/// What `solve` asks of every game.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Piece sequence file; none for a game whose start is named by its options (--game's
    /// list says which).
    pub input: Option<PathBuf>,
    /// States kept at each depth of the beam (each game's default is listed under --game).
    /// With --time-budget: the width of the first 50 pieces.
    #[arg(long, value_name = "N")]
    pub(crate) beam_width: Option<usize>,
    #[command(flatten)]
    pub(crate) width: WidthOptions,
    /// Keep the first --from-piece pieces of this record (replayed by the rules) and search
    /// only the rest of the game (`solve`'s help names the games, every one of the registry's).
    #[arg(long, value_name = "RECORD", requires = "from_piece")]
    pub(crate) from_record: Option<PathBuf>,
    /// How many pieces of --from-record to keep (the search places the next one on; its width
    /// changes and time budget count from there).
    #[arg(long, value_name = "N", requires = "from_record")]
    pub(crate) from_piece: Option<usize>,
    /// Write a checkpoint of the search to FILE: on Ctrl-C or SIGTERM (the run then ends), and
    /// every --checkpoint-every. `--resume FILE` goes on from it to the record the whole run
    /// writes, byte for byte. Without it an interrupt writes its checkpoint beside the record
    /// (RECORD.checkpoint), where the record goes to a file. Under --distributed each other
    /// process writes its share beside FILE (FILE.processN.afterK).
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// How often to write the checkpoint (seconds, or 90s, 15m, 1.5h), after the depth that
    /// ends past it.
    #[arg(long, value_name = "TIME", requires = "checkpoint", value_parser = super::options::parse_duration)]
    pub(crate) checkpoint_every: Option<f64>,
    /// Go on from a checkpoint (--checkpoint) to the record the run that wrote it would have
    /// written, given the same input and options as that run (what differs is refused). The
    /// whole record is written, its first pieces from the checkpoint.
    #[arg(long, value_name = "FILE")]
    pub(crate) resume: Option<PathBuf>,
    /// Spread the search over the processes of an MPI job (`mpirun -np 4 solve --distributed
    /// ...`, with a binary built with `--features mpi`; see docs/SCALING.md); without MPI, one
    /// process. The record is the same as without this option, for any number of processes
    /// and threads.
    #[arg(long)]
    pub(crate) distributed: bool,
    #[command(flatten)]
    pub search: SearchOptions,
    /// Solve only the first N pieces.
    #[arg(long)]
    pub pieces: Option<usize>,
    /// Also write a JSON summary (score, lines, how the game ended, timings, parameters; its
    /// fields: docs/JSON.md) to FILE, once the record is written and checked. A file already
    /// there is removed when the search starts (its options and inputs checked), so a run that
    /// fails or is interrupted leaves none.
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// When stderr is not a terminal (a log file, nohup, CI), where the progress bar does not
    /// draw: print a line of progress this often instead (seconds, or 90s, 15m, 1.5h; 0 = every
    /// 16 pieces).
    #[arg(long, value_name = "TIME", value_parser = super::options::parse_interval, default_value = "60s")]
    pub(crate) progress_every: f64,
}

/// What `check` asks of every game.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Piece sequence file; for a game whose record names its start, the record file (--game's
    /// list says which).
    pub input: PathBuf,
    /// Move record file; `-` reads it from standard input, e.g. `solve input.txt | check
    /// input.txt -`.
    pub record: Option<PathBuf>,
    /// Print one JSON object instead of the human summary (its fields: docs/JSON.md).
    #[arg(long)]
    pub json: bool,
}
