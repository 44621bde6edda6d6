//! The second NES oracle: FCEUX (Debian's package, headless under Xvfb) plays the FM2 movies
//! `check --fm2` writes, from power-on, and after every spawn the score, lines, level, pieces,
//! field and frame read from its RAM must equal the plain engine's, and the playfield's
//! nametable the RAM's field. An emulator other than nes-py, with its own frame timing: it
//! also holds the movie's power-on frames (`fm2::FCEUX_LEAD_FRAMES`) to what FCEUX does.
//!
//! It needs `fceux`, `xvfb-run` and the ROM (`bash tools/nes-oracle/setup-fceux.sh` and
//! `tools/nes-oracle/setup.sh`; `.ci/run` runs both). Without them the test says it is
//! skipped; with `CI=true` it fails. A few seconds of emulation: a short record whole and the
//! first 3,000 frames of a solver's game at level 19.

use super::movies::{screens_show_the_field, script, short_games, skip, Oracle};
use std::process::Command;
use tetris_opt::games::nes::record::Record;

/// Whether FCEUX, xvfb-run and the ROM are there; if not, says visibly that the test is
/// skipped (under `CI=true` it fails instead).
fn fceux_or_skip(test: &str) -> bool {
    let out = Command::new("python3")
        .arg(script("fceux.py"))
        .arg("ready")
        .output();
    let missing = match &out {
        Ok(o) if o.status.success() => return true,
        Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
        Err(e) => format!("python3 does not run: {e}"),
    };
    skip(
        test,
        &missing,
        "bash tools/nes-oracle/setup-fceux.sh and tools/nes-oracle/setup.sh",
    );
    false
}

/// FCEUX through `oracle.py play --emulator fceux`, playing a movie.
fn fceux() -> Oracle {
    Oracle::of("FCEUX", "python3", "fceux")
}

#[test]
fn fceux_plays_committed_records_from_power_on_as_the_engine_does() {
    if !fceux_or_skip("the NES FCEUX oracle test") {
        return;
    }
    let records = short_games();
    for ((name, _), snapshots) in records.iter().zip(fceux().compare(&records)) {
        screens_show_the_field("FCEUX", name, &snapshots);
    }
}

/// The long games' check: the records `NES_FCEUX_RECORDS` names (separated by `:`), each played
/// whole on FCEUX and compared piece by piece. FCEUX keeps the controller in step past the frame
/// where nes-py loses it, so this is the check of games past level 60.
#[test]
#[ignore = "minutes per long game: NES_FCEUX_RECORDS=a.txt:b.txt cargo test --release --test it -- --ignored nes_fceux"]
fn long_records_agree_with_fceux() {
    let records: Vec<_> = std::env::var("NES_FCEUX_RECORDS")
        .expect("NES_FCEUX_RECORDS names the records")
        .split(':')
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("record readable");
            (p.to_string(), Record::parse(&text).expect("record parses"))
        })
        .collect();
    for ((name, _), snapshots) in records.iter().zip(fceux().compare(&records)) {
        screens_show_the_field("FCEUX", name, &snapshots);
    }
}
