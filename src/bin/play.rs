//! `play`: writes the browser game's playable page for a sequence.

#[path = "shared/mod.rs"]
mod shared;

use crate::shared::cli::write_file;
use crate::shared::cli::{
    exit_code, read_sequence, read_text, refuse_overwriting, stdout_failed, CliError, EXIT_INVALID,
};
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use tetris_opt::games::browser::page::{page, Compare};

/// Write a self-contained HTML page that plays a piece sequence in the browser (arrow keys,
/// P or Escape pauses) and hands out the player's record for `check --game browser`.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The game: only `browser` has a playable page (the default).
    #[arg(long, value_name = "GAME", default_value = "browser")]
    game: String,
    /// Piece sequence file (letters IJLOSTZ; whitespace and commas ignored; `#` comments).
    sequence: PathBuf,
    /// A record of the same sequence (e.g. a solver's) whose score the page shows beside the
    /// player's, at the same piece.
    #[arg(long, value_name = "RECORD_FILE")]
    compare: Option<PathBuf>,
    /// Write the page to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn main() -> std::process::ExitCode {
    exit_code(run(&Args::parse()))
}

fn run(args: &Args) -> Result<(), CliError> {
    if args.game != "browser" {
        return Err(CliError::usage(format!(
            "--game {}: play makes a page only for the browser game (--game browser)",
            args.game
        )));
    }
    let inputs = [
        ("sequence file", Some(args.sequence.as_path())),
        ("record file (--compare)", args.compare.as_deref()),
    ];
    refuse_overwriting("-o", args.output.as_deref(), &inputs)?;
    let sequence = read_sequence(&args.sequence)?;
    let compare_text = match &args.compare {
        Some(path) => {
            let text = read_text(path, "record file")?;
            // Checked as `check --game browser` checks it: the page never shows a score for a
            // record that does not play.
            let file = path.display().to_string();
            tetris_opt::games::browser::replay::check_text(&sequence, &text).map_err(|e| {
                CliError {
                    message: format!("--compare: {}", e.located(&file)),
                    code: EXIT_INVALID,
                }
            })?;
            Some(text)
        }
        None => None,
    };
    let compare_name = args.compare.as_ref().map(|p| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    });
    let html = page(
        &sequence,
        compare_text
            .as_deref()
            .zip(compare_name.as_deref())
            .map(|(text, name)| Compare { text, name }),
    );
    match &args.output {
        Some(path) => write_file("--output", path, html),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(html.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| stdout_failed(e, "the page"))
        }
    }
}
