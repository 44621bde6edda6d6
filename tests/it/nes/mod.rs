//! NES Tetris: its record text, its plain engine (`rules`) against what the ROM does, the
//! movegen held to that engine, `check --game nes` and `solve --game nes` run as a user runs
//! them (`cli`), and the three oracles that play its records on emulators of the real game
//! (`oracles`). The helpers here serve the library-level tests (`record`, `rules`, `movegen`).

mod cli;
mod crash_model;
mod movegen;
mod oracles;
mod record;
mod rules;

use tetris_opt::games::nes::record::Record;
use tetris_opt::games::nes::start::{start, Start};

const FIXTURE: &str = "tests/fixtures/nes/solver-level19-wait9.txt";

/// The header every hand-made record below starts with (lines 1-4).
const HEADER: &str = "game nes\nstart-level 19\ntitle-wait 9\ninputs\n";

/// A filled cell as the engine writes one.
const FILLED: u8 = 0x7B;

fn fixture() -> Record {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let text = std::fs::read_to_string(&path).expect("read the NES fixture");
    Record::parse(&text).expect("the NES fixture parses")
}

fn start_19_9() -> Start {
    start(19, 9).expect("level 19, title-wait 9 is in the table")
}

/// The level a game that started on 18 or 19 is on after `lines` lines.
fn level_after(start_level: u8, lines: u32) -> u8 {
    let first = match start_level {
        19 => 140,
        18 => 130,
        _ => unreachable!("only starts 18 and 19 are asked for"),
    };
    if lines < first {
        start_level
    } else {
        (start_level as u32 + 1 + (lines - first) / 10) as u8
    }
}
