//! The clears the ROM does not survive. From about level 155 the score routine (its loop runs
//! once per level + 1) takes so long that the next frame's interrupt can land inside the
//! game's jump-table routine, which then jumps into zero page: no piece spawns again. Whether it
//! does depends on the cycles the frame spends, so on the level, the rows cleared and whether
//! the line count passes a multiple of ten (the level-up's extra work), and on what else the
//! frame does. The table `crashes.txt` is measured on the ROM on three emulators, nes-py
//! (`tools/nes-oracle/crashes.py`), FCEUX (`tools/nes-oracle/fceux/fceux.py sweep`) and TetaNES
//! (`crashes.py --emulator tetanes`), and is the union of the three: a cell is listed when any
//! of the variants tried there (next piece, frame phase, statistics carry, stack height)
//! crashed or froze the game on any of them,
//! so a cell the ROM only sometimes fails on counts as a crash. One variable the engine knows is kept apart: the music's tempo check
//! reads row 5 of the field, so when rows 0..=5 are empty at the lock ([`low_stack`]) only the
//! variants with a low stack count (`low` lines), and otherwise all of them (`any`).
//!
//! The score loop runs on every lock, clears or not, so near level 255 a lock that clears
//! nothing can overrun the frame as well: such locks are the table's rows 0 (always `within`).

use std::sync::OnceLock;

/// The measured table, one line per failing (level, rows, crossing); rows 0 is a lock that
/// clears nothing.
const TABLE: &str = include_str!("crashes.txt");

/// A cell of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The level before the clear.
    pub level: u8,
    /// The rows cleared, 0 to 4 (0: the lock cleared nothing).
    pub rows: u8,
    /// The clear's lines pass a multiple of ten.
    pub crossing: bool,
    /// Failed among the low stack's variants (`false`: among all variants).
    pub low: bool,
    /// The ROM hung for good (`false`: it froze for a while and went on, which the engine
    /// does not model and the search avoids as well).
    pub crash: bool,
}

/// The cells of [`TABLE`]. A malformed line is a build mistake: the table ships with the
/// binary, and a test parses it.
pub fn cells() -> Result<Vec<Cell>, String> {
    parse(TABLE)
}

/// The cells of a table in `crashes.txt`'s format.
fn parse(table: &str) -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for (n, line) in table.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("crashes.txt line {}: {line:?}", n + 1);
        let f: Vec<&str> = line.split_whitespace().collect();
        let [level, rows, crossing, stack, outcome, _variants] = f[..] else {
            return Err(bad());
        };
        let level = level.parse::<u8>().map_err(|_| bad())?;
        let rows = rows.parse::<u8>().ok().filter(|r| (0..=4).contains(r));
        let crossing = match crossing {
            "cross" => true,
            "within" => false,
            _ => return Err(bad()),
        };
        if crossing && rows == Some(0) {
            return Err(bad()); // a lock that clears nothing passes no ten
        }
        let low = match stack {
            "low" => true,
            "any" => false,
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
            low,
            crash,
        });
    }
    Ok(out)
}

/// The table as the engine and the search read it, made once.
struct Masks {
    /// Per level, a bit ([`bit`]) for each clear that fails: over all variants ([0]) and over
    /// the low stack's ([1]).
    fails: [[u16; 256]; 2],
    /// Per level, a bit for each last digit of the line count from which the next ten can be
    /// passed by clears the low stack's variants allow ([`can_pass`]).
    passable: [u16; 256],
}

/// The bit of a clear of `rows` rows: `rows - 1` within a ten, `rows + 3` across; a lock that
/// clears nothing, bit 8.
fn bit(rows: usize, crossing: bool) -> u16 {
    match rows {
        0 => 1 << 8,
        _ => 1 << (rows - 1 + 4 * usize::from(crossing)),
    }
}

fn masks() -> &'static Masks {
    static MASKS: OnceLock<Masks> = OnceLock::new();
    MASKS.get_or_init(|| {
        let mut fails = [[0u16; 256]; 2];
        for c in cells().expect("src/games/nes/crashes.txt parses (a test checks it)") {
            fails[usize::from(c.low)][c.level as usize] |= bit(c.rows as usize, c.crossing);
        }
        let passable = std::array::from_fn(|level| {
            let mask = fails[1][level];
            // ok[d]: from last digit d the ten can be passed; clears within the ten move the
            // digit up, and one passing the ten ends the search.
            let mut ok = [false; 10];
            for d in (0..10).rev() {
                ok[d] = (1..=4).any(|r| match d + r {
                    10.. => mask & bit(r, true) == 0,
                    next => mask & bit(r, false) == 0 && ok[next],
                });
            }
            (0..10).filter(|&d| ok[d]).fold(0u16, |m, d| m | 1 << d)
        });
        Masks { fails, passable }
    })
}

/// Rows 0..=5 of a field (ten-bit rows, row 0 at the top) are empty: the music's tempo check,
/// which reads row 5, finds no block, as in the table's low-stack variants.
pub fn low_stack(rows: &[u16; 20]) -> bool {
    rows[..6].iter().all(|&r| r == 0)
}

/// Whether clearing `rows` rows at `level` (0: a lock that clears nothing), with `lines`
/// cleared before, crashes or freezes the ROM; `low`: rows 0..=5 were empty when the piece
/// locked.
pub fn crashes(level: u8, lines: u32, rows: usize, low: bool) -> bool {
    let crossing = (lines + rows as u32) / 10 != lines / 10;
    masks().fails[usize::from(low)][level as usize] & bit(rows, crossing) != 0
}

/// Whether a game on `level` with `lines` cleared can still reach the next ten by clears the
/// table allows (with a low stack, the most it allows): lines that need a clear passing a ten
/// that every such clear fails on leave the game nothing but to top out. The line count's
/// last digit is what matters.
pub fn can_pass(level: u8, lines: u32) -> bool {
    masks().passable[level as usize] & (1 << (lines % 10)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_holds_the_crashes_seen_on_the_rom() {
        let cells = cells().unwrap();
        assert!(!cells.is_empty());
        // A single with a vertical I at level 158 passing 1,530 lines, a four-line clear at
        // 169, whatever the stack.
        assert!(crashes(158, 1_529, 1, true) && crashes(158, 1_529, 1, false));
        assert!(crashes(169, 1_637, 4, true) && crashes(169, 1_637, 4, false));
        // Nothing fails before level 150, and a lock without a clear not before level 249.
        assert!(cells.iter().all(|c| c.level >= 150));
        assert!(cells.iter().all(|c| c.rows > 0 || c.level >= 249));
        assert!(!crashes(200, 1_589, 0, false));
        // A clear failing among the low stack's variants fails among all of them.
        for c in cells.iter().filter(|c| c.low) {
            assert!(cells
                .iter()
                .any(|a| !a.low && (a.level, a.rows, a.crossing) == (c.level, c.rows, c.crossing)));
        }
        // At level 169 every clear can fail on some stack, but with a low one a single
        // passing a ten is safe.
        assert!(crashes(169, 1_639, 1, false));
        assert!(!crashes(169, 1_639, 1, true));
    }

    #[test]
    fn a_line_count_that_only_failing_clears_can_take_past_the_ten_is_a_dead_end() {
        // At level 169 with a low stack only a single or a double passing the ten is safe
        // (a triple within it fails on FCEUX): from 1,638 or 1,639 lines the ten is passed,
        // from 1,636 or 1,637 there is no way on.
        assert!(!can_pass(169, 1_637));
        assert!(!can_pass(169, 1_636));
        assert!(can_pass(169, 1_638));
        assert!(can_pass(169, 1_639));
        assert!(can_pass(100, 1_037));
        // A game enters 169 by a clear passing 1,630 from 168, so with 1,630 to 1,633 lines:
        // level 169 cannot be passed.
        assert!((1_630..=1_633).all(|lines| !can_pass(169, lines)));
    }

    #[test]
    fn locks_without_a_clear_fail_near_level_255() {
        // The score loop runs level + 1 times on every lock: at 249 (FCEUX) and 255 (both
        // emulators) a plain lock with a low stack fails, at 252 and 254 it does not.
        assert!(crashes(249, 2_481, 0, true) && crashes(249, 2_481, 0, false));
        assert!(crashes(255, 3_291, 0, true));
        assert!(!crashes(252, 3_261, 0, true) && !crashes(254, 3_281, 0, true));
        // At 250 and 251 only the tall stack's variants failed.
        assert!(crashes(250, 3_241, 0, false) && !crashes(250, 3_241, 0, true));
        // Rows 0 passes no ten, and the table says so.
        assert!(parse("249 0 within low crash fceux:14/14").is_ok());
        assert!(parse("249 0 cross low crash fceux:14/14").is_err());
        assert!(parse("249 5 within low crash fceux:14/14").is_err());
    }
}
