//! The cycle model (`games::nes::cycles`) held to the crash sweeps of the ROM
//! (`tools/nes-oracle/crash-tables`): for each (level, rows, crossing, stack) a sweep
//! tried, the model is asked about the same set-up (`crashes.py`'s field, lines, stack and
//! counter, over every carry, frame phase and the 0-8 cycles it cannot know). A cell the
//! model calls safe must be one no variant failed on, on any emulator; the cells it calls
//! unsafe that no variant failed on are counted (the model is cautious there, or the sweep's
//! variants missed the failing cycles) and printed as the agreement table docs/NES.md shows.

use std::collections::BTreeMap;
use std::path::Path;
use tetris_opt::games::nes::cycles::{Count, MARGIN};
use tetris_opt::games::nes::search::lines_to_level;

/// A sweep's table: the failing cells, with the stack they failed among.
struct Sweep {
    name: &'static str,
    levels: std::ops::RangeInclusive<u8>,
    rows: std::ops::RangeInclusive<u8>,
    /// (level, rows, crossing, low) -> listed.
    failing: BTreeMap<(u8, u8, bool, bool), ()>,
}

fn sweep(
    name: &'static str,
    levels: std::ops::RangeInclusive<u8>,
    rows: std::ops::RangeInclusive<u8>,
) -> Sweep {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tools/nes-oracle/crash-tables")
        .join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut failing = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let key = (
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2] == "cross",
            f[3] == "low",
        );
        failing.insert(key, ());
    }
    Sweep {
        name,
        levels,
        rows,
        failing,
    }
}

/// The lines a game from level 19 has on first reaching `level`, as `crashes.py` sets them.
fn first_lines(level: u8) -> u32 {
    lines_to_level(19, level as u16)
}

/// The counts the sweep's set-up of (level, rows, crossing) gives with a low or a tall stack,
/// over the counter's carry and the frame phase.
fn counts(level: u8, rows: u8, crossing: bool, low: bool) -> Vec<Count> {
    let lines = first_lines(level) + if crossing { 9 } else { 1 };
    let mut out = Vec::new();
    for carry in [false, true] {
        for eighth in [false, true] {
            out.push(super::swept(level, lines, rows, low, carry, eighth));
        }
    }
    out
}

/// The smallest margin the model gives a variant of the cell (among the low stack's
/// variants, or all).
fn least_margin(level: u8, rows: u8, crossing: bool, low_only: bool) -> i32 {
    let stacks: &[bool] = if low_only { &[true] } else { &[true, false] };
    stacks
        .iter()
        .flat_map(|&low| counts(level, rows, crossing, low))
        .map(|c| c.margin())
        .min()
        .unwrap()
}

#[test]
fn every_cell_the_model_calls_safe_was_clean_on_every_emulator() {
    let sweeps = [
        sweep("nes-py-clears", 29..=255, 1..=4),
        sweep("nes-py-locks", 150..=255, 0..=0),
        sweep("fceux-clears", 150..=255, 1..=4),
        sweep("fceux-locks", 150..=255, 0..=0),
        sweep("tetanes-clears", 150..=255, 1..=4),
        sweep("tetanes-locks", 150..=255, 0..=0),
        sweep("nestopia-clears", 150..=190, 1..=4),
        sweep("nestopia-locks", 240..=255, 0..=0),
    ];
    let mut wrong = Vec::new();
    let mut worst = -1;
    println!("sweep: cells tried, failed on the ROM, model unsafe at margin {MARGIN}, both, model safe but failed");
    for s in &sweeps {
        let (mut tried, mut failed, mut unsafe_, mut both) = (0, 0, 0, 0);
        for level in s.levels.clone() {
            for rows in s.rows.clone() {
                for crossing in [false, true] {
                    if rows == 0 && crossing {
                        continue;
                    }
                    for low_only in [false, true] {
                        tried += 1;
                        let listed = s.failing.contains_key(&(level, rows, crossing, low_only));
                        let least = least_margin(level, rows, crossing, low_only);
                        let model = least < MARGIN;
                        if listed {
                            worst = worst.max(least);
                        }
                        failed += usize::from(listed);
                        unsafe_ += usize::from(model);
                        both += usize::from(listed && model);
                        if listed && !model {
                            wrong.push(format!(
                                "{} {level} {rows} {crossing} low={low_only}",
                                s.name
                            ));
                        }
                    }
                }
            }
        }
        println!(
            "{}: {tried}, {failed}, {unsafe_}, {both}, {}",
            s.name,
            failed - both
        );
    }
    println!("the largest margin the model gives a cell that failed: {worst}");
    assert!(wrong.is_empty(), "the model calls these safe: {wrong:#?}");
}

/// Situation by situation, from sweeps' `--raw` logs (`crashes.py sweep --raw FILE`, one JSON
/// line per situation played), named by `NES_SWEEP_RAW` (paths separated by `:`): every
/// situation the model calls safe at the margin the search keeps came out `ok`. The logs are
/// not kept in the repository (tens of thousands of lines); the tables the test above reads
/// are made from them.
#[test]
#[ignore = "needs NES_SWEEP_RAW: raw logs of crash sweeps"]
fn every_situation_the_model_calls_safe_was_ok() {
    let paths = std::env::var("NES_SWEEP_RAW").expect("NES_SWEEP_RAW names the raw logs");
    let (mut played, mut failed, mut called, mut wrong) = (0, 0, 0, Vec::new());
    for path in paths.split(':') {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let Some(outcome) = v["outcome"].as_str() else {
                continue; // a situation's start
            };
            let field = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {line}"));
            let (level, lines, rows) = (
                field("level") as u8,
                field("lines") as u32,
                field("rows") as u8,
            );
            let low = v["stack"] == "low";
            let carry = v["carry"] == true;
            let least = [false, true]
                .iter()
                .map(|&eighth| super::swept(level, lines, rows, low, carry, eighth).margin())
                .min()
                .unwrap();
            played += 1;
            failed += usize::from(outcome != "ok");
            called += usize::from(least < MARGIN);
            if outcome != "ok" && least >= MARGIN {
                wrong.push(format!("{path}: {line}"));
            }
        }
    }
    println!("{played} situations, {failed} failed on the ROM, {called} the model calls unsafe");
    assert!(played > 0 && wrong.is_empty(), "{wrong:#?}");
}
