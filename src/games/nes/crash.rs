//! The clears the ROM does not survive. From about level 155 the score routine (its loop runs
//! once per level + 1) takes so long that the next frame's interrupt can land inside the
//! game's jump-table routine, which then jumps into zero page: no piece spawns again. Whether it
//! does depends on the cycles the frame spends, so on the level, the rows cleared and whether
//! the line count passes a multiple of ten (the level-up's extra work). The table
//! `crashes.txt` is measured on the ROM (`tools/nes-oracle/crashes.py sweep`): a cell is listed
//! when any of the variants tried there (next piece, frame phase, statistics carry, stack
//! height) crashed or froze the game, so a cell the ROM only sometimes fails on counts as a
//! crash.

use std::sync::OnceLock;

/// The measured table, one line per failing (level, rows, crossing).
const TABLE: &str = include_str!("crashes.txt");

/// A cell of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The level before the clear.
    pub level: u8,
    pub rows: u8,
    /// The clear's lines pass a multiple of ten.
    pub crossing: bool,
    /// The ROM hung for good (`false`: it froze for a while and went on, which the engine
    /// does not model and the search avoids as well).
    pub crash: bool,
}

/// The cells of [`TABLE`]. A malformed line is a build mistake: the table ships with the
/// binary, and a test parses it.
pub fn cells() -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for (n, line) in TABLE.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("crashes.txt line {}: {line:?}", n + 1);
        let f: Vec<&str> = line.split_whitespace().collect();
        let [level, rows, crossing, outcome, _variants] = f[..] else {
            return Err(bad());
        };
        let level = level.parse::<u8>().map_err(|_| bad())?;
        let rows = rows.parse::<u8>().ok().filter(|r| (1..=4).contains(r));
        let crossing = match crossing {
            "cross" => true,
            "within" => false,
            _ => return Err(bad()),
        };
        let crash = match outcome {
            "crash" => true,
            "freeze" => false,
            _ => return Err(bad()),
        };
        out.push(Cell {
            level,
            rows: rows.ok_or_else(bad)?,
            crossing,
            crash,
        });
    }
    Ok(out)
}

/// Per level, a bit for each clear that fails: bit `rows - 1` within a ten, `rows + 3` across.
fn masks() -> &'static [u8; 256] {
    static MASKS: OnceLock<[u8; 256]> = OnceLock::new();
    MASKS.get_or_init(|| {
        let mut masks = [0u8; 256];
        for c in cells().expect("src/games/nes/crashes.txt parses (a test checks it)") {
            masks[c.level as usize] |= 1 << (c.rows - 1 + 4 * u8::from(c.crossing));
        }
        masks
    })
}

/// Whether clearing `rows` rows at `level`, with `lines` cleared before, crashes or freezes the
/// ROM.
pub fn crashes(level: u8, lines: u32, rows: usize) -> bool {
    if rows == 0 {
        return false;
    }
    let crossing = (lines + rows as u32) / 10 != lines / 10;
    masks()[level as usize] & (1 << (rows - 1 + 4 * usize::from(crossing))) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_holds_the_crashes_seen_on_the_rom() {
        let cells = cells().unwrap();
        assert!(!cells.is_empty());
        // A single with a vertical I at level 158 passing 1,590 lines, a four-line clear at 169.
        assert!(crashes(158, 1589, 1));
        assert!(crashes(169, 1687, 4));
        // Nothing fails before level 150 or without a clear.
        assert!(cells.iter().all(|c| c.level >= 150));
        assert!(!crashes(200, 1589, 0));
    }
}
