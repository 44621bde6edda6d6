//! NES Tetris at the library's level: the record text (every parse error names its line and
//! token; printing then parsing gives the frames back), the engine's rules (generator, piece
//! choice, BCD score and its cap, levels, the first piece's hang, input latency, DAS,
//! rotation, soft drop) and the movegen held against the engine on the spawn states of the
//! committed records: every placement it finds plays as found, and it finds every placement
//! the engine reaches under the input model.

mod generator;
mod movegen;
mod record_text;
mod score_levels;
mod timing;

use tetris_opt::games::nes::record::NesRecord;
use tetris_opt::games::nes::start::{start, Start};

const FIXTURE: &str = "tests/fixtures/nes/solver-level19-wait9.txt";

/// The header every hand-made record below starts with (lines 1-4).
const HEADER: &str = "game nes\nstart-level 19\ntitle-wait 9\ninputs\n";

/// A filled cell as the engine writes one.
const FILLED: u8 = 0x7B;

fn fixture() -> NesRecord {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let text = std::fs::read_to_string(&path).expect("read the NES fixture");
    NesRecord::parse(&text).expect("the NES fixture parses")
}

fn start_19_9() -> Start {
    start(19, 9).expect("level 19, title-wait 9 is in the table")
}
