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

use tetris_opt::games::nes::cycles::Count;
use tetris_opt::games::nes::record::Record;
use tetris_opt::games::nes::search::clear_points;
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

/// The counting frame of a clear as `tools/nes-oracle/crashes.py` sets it up: `rows` full
/// rows at the bottom, a vertical I in column 9, `lines` before, no push-down; `low`: nothing
/// else on the field and the music slow, else its tall stack (rows 1 to 19 - rows, each with
/// a hole at (row * 3) % 9 and the well) and the music fast; `carry`: the clear type's
/// counter carries; `eighth`: the frame counter is a multiple of 8.
fn swept(level: u8, lines: u32, rows: u8, low: bool, carry: bool, eighth: bool) -> Count {
    let (_, after, lines_after) = clear_points(lines, level, rows as usize);
    // After the clear row 5 holds what was row 5 - rows.
    let first_block = (!low).then(|| {
        let hole = ((5 - rows as usize) * 3) % 9;
        (0..10u8).find(|&c| c != 9 && c as usize != hole).unwrap()
    });
    Count {
        rows,
        deep_rows: rows,
        type_carry: carry && rows > 0,
        eighth_frame: eighth,
        piece: if rows > 0 { 0x13 } else { 17 },
        was_allegro: !low,
        first_block,
        ..Count::default()
    }
    .between((level, lines), (after, lines_after))
}
