//! What the tests of the oracles that play FM2 movies from power-on (FCEUX, TetaNES,
//! Nestopia) share: the movie of a committed record, the oracle's snapshot after every spawn,
//! and the comparison with the plain engine's.

use serde::Deserialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use tetris_opt::games::nes::record::Record;
use tetris_opt::games::nes::replay::{snapshots, Snapshot};
use tetris_opt::games::nes::tables::kind_letter;

/// What an oracle prints after every spawn, and once at the end (nes-py's oracle prints the
/// same, without `crashed`).
#[derive(Deserialize, Debug)]
pub struct MovieSnapshot {
    pub frame: u64,
    pub score: u64,
    pub lines: u32,
    pub level: u8,
    pub piece: u8,
    pub next: u8,
    pub board: String,
    #[serde(default)]
    pub end: bool,
    #[serde(default)]
    pub crashed: bool,
    /// The screen check, where the oracle makes one (Nestopia): `ok` when the picture's
    /// playfield is empty exactly where the RAM's field is, else the first cell that is not.
    #[serde(default)]
    pub screen: Option<String>,
}

/// An oracle that plays a movie: `command` starts it, with the movie's path appended.
pub struct Oracle {
    pub name: &'static str,
    pub command: Vec<OsString>,
}

/// Says visibly that `test` is skipped because `missing` (under `CI=true` it fails instead).
pub fn skip(test: &str, missing: &str, remedy: &str) {
    let message = format!("skipped: {test}: {missing} ({remedy})");
    assert!(
        !std::env::var("CI").is_ok_and(|v| v == "true"),
        "{message}; under CI=true it must run"
    );
    eprintln!("{message}");
}

/// A script of `tools/nes-oracle`.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tools/nes-oracle")
        .join(name)
}

impl Oracle {
    /// `oracle.py play --emulator EMULATOR`, run by `python`.
    pub fn of(name: &'static str, python: impl Into<OsString>, emulator: &str) -> Oracle {
        Oracle {
            name,
            command: vec![
                python.into(),
                script("oracle.py").into(),
                "play".into(),
                "--emulator".into(),
                emulator.into(),
            ],
        }
    }
}

/// The games every oracle's test plays: a short record whole (walls, taps, holds) and the
/// first 3,000 frames of a solver's game at level 19.
pub fn short_games() -> Vec<(String, Record)> {
    [
        ("edge-walls-taps-holds-level0.txt", None),
        ("solver-level19-wait9.txt", Some(3_000)),
    ]
    .iter()
    .map(|&(name, frames)| (name.to_string(), record(name, frames)))
    .collect()
}

/// Every spawn's screen check says `ok`: the picture's (or nametable's) playfield is the RAM's
/// field.
pub fn screens_show_the_field(oracle: &str, name: &str, snapshots: &[MovieSnapshot]) {
    let spawns: Vec<_> = snapshots.iter().filter(|s| !s.end).collect();
    assert!(!spawns.is_empty(), "{name}: no spawn");
    for (i, s) in spawns.iter().enumerate() {
        assert_eq!(
            s.screen.as_deref(),
            Some("ok"),
            "{name}: spawn {i} (frame {}): {oracle}'s playfield is not the RAM's field",
            s.frame
        );
    }
    eprintln!(
        "{name}: {oracle}'s playfield equals the RAM's at {} spawns",
        spawns.len()
    );
}

/// A committed record, cut to its first `frames` frames (all of them with `None`).
pub fn record(name: &str, frames: Option<usize>) -> Record {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/nes")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("fixture readable");
    let mut record = Record::parse(&text).expect("committed records parse");
    if let Some(n) = frames {
        record.frames.truncate(n);
    }
    record
}

/// The oracle's step ends after the frame's game logic, which comes after the frame's vertical
/// blank: a spawn shows on its own frame, exactly. The snapshot is read a frame later, when the
/// piece may have turned: the kind is compared.
fn agree(rom: &MovieSnapshot, ours: &Snapshot) -> bool {
    rom.frame == ours.frame
        && rom.score == ours.score
        && rom.lines == ours.lines
        && rom.level == ours.level
        && rom.board == ours.board
        && (rom.end || (kind_letter(rom.piece) == kind_letter(ours.piece) && rom.next == ours.next))
}

impl Oracle {
    /// Starts the oracle on the record's movie.
    fn play(&self, record: &Record, tag: &str) -> (Child, PathBuf) {
        let movie = std::env::temp_dir().join(format!(
            "tetris-opt-{}-{}-{tag}.fm2",
            self.name.to_lowercase(),
            std::process::id()
        ));
        std::fs::write(&movie, tetris_opt::games::nes::fm2::movie(record)).expect("temp writable");
        let child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .arg(&movie)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", self.name));
        (child, movie)
    }

    fn snapshots(&self, child: Child, movie: &Path) -> Vec<MovieSnapshot> {
        let out = child.wait_with_output().expect("the oracle runs");
        let _ = std::fs::remove_file(movie);
        assert!(
            out.status.success(),
            "{} failed: {}",
            self.name,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .expect("text")
            .lines()
            .map(|l| serde_json::from_str(l).expect("the oracle prints JSON lines"))
            .collect()
    }

    /// Plays records on the oracle, all at once, and asserts every spawn's snapshot equals the
    /// engine's and the game ends where the engine's does, not crashed. Returns each record's
    /// snapshots, for the checks an oracle of its own makes.
    pub fn compare(&self, records: &[(String, Record)]) -> Vec<Vec<MovieSnapshot>> {
        let began = std::time::Instant::now();
        let running: Vec<_> = records
            .iter()
            .enumerate()
            .map(|(i, (_, r))| self.play(r, &i.to_string()))
            .collect();
        let mut played = Vec::new();
        for ((name, record), (child, movie)) in records.iter().zip(running) {
            let rom = self.snapshots(child, &movie);
            let (report, ours) = snapshots(record);
            assert!(ours.len() > 5, "{name}: too short a game to test");
            for (i, (r, o)) in rom.iter().zip(&ours).enumerate() {
                assert!(
                    agree(r, o),
                    "{name}: snapshot {i} differs\n {}: {r:?}\n engine: {o:?}",
                    self.name
                );
            }
            assert_eq!(
                rom.len(),
                ours.len(),
                "{name}: {} spawned {} pieces, the engine {}",
                self.name,
                rom.len().saturating_sub(1),
                ours.len() - 1
            );
            let end = rom.last().expect("an end line");
            assert!(end.end && !end.crashed, "{name}: {end:?}");
            eprintln!(
                "{name}: {} frames, {} pieces, {} lines, level {}, score {} agree with {} ({:.0} s \
                 since the start)",
                record.frames.len(),
                report.pieces,
                report.lines,
                report.level_count,
                report.score,
                self.name,
                began.elapsed().as_secs_f64()
            );
            played.push(rom);
        }
        played
    }
}
