//! NES Tetris as the binaries play it: `solve` from a start the options name, `check` of a
//! record whose header names its start, and `gen`'s list of the starts known for a level.

mod check;
mod solve;

use crate::cli::registry::{CheckRun, GameCli, SolveRun};
use crate::cli::Pictures;
use crate::cli::{refuse_overwriting, refuse_same_output, refuse_stdout, CliError, EvalOptions};
use crate::games::nes::start::distinct_starts;
use crate::games::nes::tables::kind_letter;
use std::path::PathBuf;

pub(crate) use solve::{Options, DEFAULT_WIDTH};

/// NES Tetris in the binaries' registry.
pub(crate) struct Nes;

/// NES Tetris's entry in the registry.
pub(crate) const GAME: Nes = Nes;

/// The options NES Tetris adds to `check`.
#[derive(clap::Args, Debug)]
pub(crate) struct OwnCheckArgs {
    #[command(flatten)]
    pictures: Pictures,
    /// NES: a JSON line per frame with the ROM's variables (as tools/nes-oracle/oracle.py
    /// play --frames prints them from the real game).
    #[arg(long)]
    frames: bool,
    /// NES: also write the record as an FM2 movie (FCEUX's format) that plays it from
    /// power-on, menus included.
    #[arg(long, value_name = "OUT.fm2")]
    fm2: Option<PathBuf>,
}

/// The options NES Tetris adds to `gen`.
#[derive(clap::Args, Debug)]
pub(crate) struct OwnGenArgs {
    /// NES: games are not sequences but starts; `gen --game nes` lists the distinct starts
    /// known for this level (the title-waits that lead to different games).
    #[arg(long, value_name = "LEVEL", default_value_t = 19, value_parser = clap::value_parser!(u8).range(0..=19))]
    start_level: u8,
}

impl GameCli for Nes {
    type SolveOptions = Options;
    type CheckOptions = OwnCheckArgs;
    type GenOptions = OwnGenArgs;

    fn id(&self) -> &'static str {
        "nes"
    }
    fn name(&self) -> &'static str {
        "NES Tetris (--game nes)"
    }
    fn about(&self) -> &'static str {
        "NES Tetris, NTSC A-type (docs/NES.md): no sequence file, the start is named by \
         --start-level and --title-wait"
    }
    fn default_width(&self) -> usize {
        DEFAULT_WIDTH
    }
    fn solve(&self, run: &SolveRun, options: &Options) -> Result<(), CliError> {
        // Its weights are its own (--nes-weights), its key no evaluation of a board.
        run.run(self, options, &EvalOptions::default())
    }
    fn check(&self, run: &CheckRun, own: &OwnCheckArgs) -> Result<(), CliError> {
        let args = run.args;
        if args.record.is_some() {
            return Err(CliError::usage(
                "--game nes takes one file, the record: its header names the start",
            ));
        }
        let pictures = &own.pictures;
        let (fm2, html) = (own.fm2.as_deref(), pictures.html.path.as_deref());
        let inputs = [("record file", Some(args.input.as_path()))];
        refuse_stdout("--fm2", fm2, "the report")?;
        refuse_stdout("--html", html, "the report")?;
        refuse_overwriting("--fm2", fm2, &inputs)?;
        refuse_overwriting("--html", html, &inputs)?;
        refuse_same_output(&[("--fm2", fm2), ("--html", html)])?;
        check::check(&check::CheckOptions {
            games: run.games,
            record: &args.input,
            json: args.json,
            trace: pictures.trace,
            frames: own.frames,
            fm2,
            html,
        })
    }
    fn solve_from_record_help(&self) -> Option<&'static str> {
        Some("NES: the record names its start, so --start-level and --title-wait may be left out")
    }
    fn record_hint(&self, first_line: &str) -> Option<&'static str> {
        (first_line == "game nes").then_some("NES Tetris: check it with `check --game nes RECORD`")
    }
    fn generate(&self, own: &OwnGenArgs) -> Result<String, CliError> {
        starts(own.start_level)
    }
}

/// The NES starts of a level that lead to different games, one line each.
fn starts(level: u8) -> Result<String, CliError> {
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
    Ok(text)
}
