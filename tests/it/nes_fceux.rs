//! The second NES oracle: FCEUX (Debian's package, headless under Xvfb) plays the FM2 movies
//! `check --fm2` writes, from power-on, and after every spawn the score, lines, level, pieces,
//! field and frame read from its RAM must equal the plain engine's. An emulator other than
//! nes-py, with its own frame timing: it also holds the movie's power-on frames
//! (`fm2::FCEUX_LEAD_FRAMES`) to what FCEUX does.
//!
//! It needs `fceux`, `xvfb-run` and the ROM (`bash tools/nes-oracle/setup-fceux.sh` and
//! `tools/nes-oracle/setup.sh`; `.ci/run` runs both). Without them the test says it is
//! skipped; with `CI=true` it fails. A few seconds of emulation: a short record whole and the
//! first 3,000 frames of a solver's game at level 19.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use tetris_opt::games::nes::record::NesRecord;
use tetris_opt::games::nes::replay::{snapshots, Snapshot};
use tetris_opt::games::nes::tables::kind_letter;

#[derive(Deserialize, Debug)]
struct FceuxSnapshot {
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

fn driver() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nes-oracle/fceux/fceux.py")
}

/// Whether FCEUX, xvfb-run and the ROM are there; if not, says visibly that the test is
/// skipped (under `CI=true` it fails instead).
fn fceux_or_skip(test: &str) -> bool {
    let out = Command::new("python3").arg(driver()).arg("ready").output();
    let missing = match &out {
        Ok(o) if o.status.success() => return true,
        Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
        Err(e) => format!("python3 does not run: {e}"),
    };
    let message = format!(
        "skipped: {test}: {missing} (bash tools/nes-oracle/setup-fceux.sh and \
         tools/nes-oracle/setup.sh)"
    );
    assert!(
        !std::env::var("CI").is_ok_and(|v| v == "true"),
        "{message}; under CI=true it must run"
    );
    eprintln!("{message}");
    false
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

/// Starts FCEUX on the record's movie.
fn play(record: &NesRecord, tag: &str) -> (Child, PathBuf) {
    let movie =
        std::env::temp_dir().join(format!("tetris-opt-fceux-{}-{tag}.fm2", std::process::id()));
    std::fs::write(&movie, tetris_opt::games::nes::fm2::movie(record)).expect("temp writable");
    let child = Command::new("python3")
        .arg(driver())
        .arg("play")
        .arg(&movie)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the FCEUX driver starts");
    (child, movie)
}

fn fceux_snapshots(child: Child, movie: &Path) -> Vec<FceuxSnapshot> {
    let out = child.wait_with_output().expect("the FCEUX driver runs");
    let _ = std::fs::remove_file(movie);
    assert!(
        out.status.success(),
        "FCEUX failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("text")
        .lines()
        .map(|l| serde_json::from_str(l).expect("the driver prints JSON lines"))
        .collect()
}

/// FCEUX reads its RAM at the end of a frame's game logic, which comes after the frame's
/// vertical blank: a spawn shows on its own frame, exactly. The snapshot is read a frame
/// later (as nes-py's oracle reads it), when the piece may have turned: the kind is compared.
fn agree(rom: &FceuxSnapshot, ours: &Snapshot) -> bool {
    rom.frame == ours.frame
        && rom.score == ours.score
        && rom.lines == ours.lines
        && rom.level == ours.level
        && rom.board == ours.board
        && (rom.end || (kind_letter(rom.piece) == kind_letter(ours.piece) && rom.next == ours.next))
}

/// Plays records on FCEUX, all at once, and asserts every spawn's snapshot equals the
/// engine's and the game ends where the engine's does, not crashed.
fn compare_on_fceux(records: &[(String, NesRecord)]) {
    let began = std::time::Instant::now();
    let running: Vec<_> = records
        .iter()
        .enumerate()
        .map(|(i, (_, r))| play(r, &i.to_string()))
        .collect();
    for ((name, record), (child, movie)) in records.iter().zip(running) {
        let rom = fceux_snapshots(child, &movie);
        let (report, ours) = snapshots(record);
        for (i, (r, o)) in rom.iter().zip(&ours).enumerate() {
            assert!(
                agree(r, o),
                "{name}: snapshot {i} differs\n FCEUX:  {r:?}\n engine: {o:?}"
            );
        }
        assert_eq!(
            rom.len(),
            ours.len(),
            "{name}: FCEUX spawned {} pieces, the engine {}",
            rom.len().saturating_sub(1),
            ours.len() - 1
        );
        let end = rom.last().expect("an end line");
        assert!(end.end && !end.crashed, "{name}: {end:?}");
        eprintln!(
            "{name}: {} frames, {} pieces, {} lines, level {}, score {} agree with FCEUX ({:.0} s \
             since the start)",
            record.frames.len(),
            report.pieces,
            report.lines,
            report.level_count,
            report.score,
            began.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn fceux_plays_committed_records_from_power_on_as_the_engine_does() {
    if !fceux_or_skip("the NES FCEUX oracle test") {
        return;
    }
    let games = [
        ("edge-walls-taps-holds-level0.txt", None),
        ("solver-level19-wait9.txt", Some(3_000)),
    ];
    let records: Vec<_> = games
        .iter()
        .map(|&(name, frames)| (name.to_string(), record(name, frames)))
        .collect();
    assert!(records.iter().all(|(_, r)| snapshots(r).1.len() > 5));
    compare_on_fceux(&records);
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
            (
                p.to_string(),
                NesRecord::parse(&text).expect("record parses"),
            )
        })
        .collect();
    compare_on_fceux(&records);
}
