//! The valid inputs the mutations start from, made once: records `solve` writes for sequences
//! `gen` draws, the first pieces of the public record, an olympiad game played to its end, and
//! the committed NES fixtures.

use super::{GEN, SOLVE};
use crate::common::{manifest_dir, run, Scratch};
use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::OnceLock;
use tetris_opt::games::olympiad;
use tetris_opt::kit::sequence::parse_sequence;

/// A valid pair to start from: a sequence file's text and a record's.
pub(super) struct Start {
    pub(super) sequence: String,
    pub(super) record: String,
}

/// The text a binary printed on stdout, which must have exited 0.
fn output_of(exe: &str, args: &[&dyn AsRef<OsStr>]) -> String {
    let r = run(exe, args);
    assert_eq!(r.code, Some(0), "{exe} {r:#?}");
    r.stdout
}

/// A sequence `gen` draws for `game` and the record `solve` writes for its first 30 pieces.
fn solved_start(scratch: &Scratch, game: &str, seed: u64, extra: &[&str]) -> Start {
    let seed = seed.to_string();
    let sequence = output_of(
        GEN,
        &[
            &"--game",
            &game,
            &"--seed",
            &seed.as_str(),
            &"--count",
            &"60",
        ],
    );
    let path = scratch.file(&format!("{game}-{seed}.txt"), &sequence);
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &game, &path];
    let options = [
        "--pieces",
        "30",
        "--beam-width",
        "50",
        "--quiet",
        "--threads",
        "1",
    ];
    args.extend(options.iter().map(|o| o as &dyn AsRef<OsStr>));
    args.extend(extra.iter().map(|o| o as &dyn AsRef<OsStr>));
    let record = output_of(SOLVE, &args);
    Start { sequence, record }
}

/// The contest sequence and the first pieces of the public record for it.
fn public_start(pieces: usize) -> Start {
    let sequence = std::fs::read_to_string(crate::common::tencent_input()).unwrap();
    let record = crate::common::public_record();
    let cut = (record.match_indices('N').nth(pieces)).map_or(record.len(), |(i, _)| i);
    Start {
        sequence,
        record: record[..cut].trim_end_matches(',').to_string(),
    }
}

pub(super) fn contest_starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let scratch = Scratch::new("fuzz-starts-contest");
        vec![
            solved_start(&scratch, "contest", 7, &[]),
            solved_start(&scratch, "contest", 11, &["--judge"]),
            public_start(80),
        ]
    })
}

pub(super) fn browser_starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let scratch = Scratch::new("fuzz-starts-browser");
        vec![
            solved_start(&scratch, "browser", 5, &[]),
            solved_start(&scratch, "browser", 9, &[]),
        ]
    })
}

/// Two records `solve --game olympiad` writes, and one that ends the game: the second sequence
/// with every piece dropped at column 0 in orientation 0 until one comes to rest above the
/// field (the game over and what may not follow it are met without waiting for mutations).
pub(super) fn olympiad_starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let scratch = Scratch::new("fuzz-starts-olympiad");
        let solved = [
            solved_start(&scratch, "olympiad", 4, &[]),
            solved_start(&scratch, "olympiad", 8, &[]),
        ];
        let sequence = parse_sequence(&solved[1].sequence).unwrap();
        let mut replay = olympiad::replay::Replay::new(&sequence);
        let mut record = olympiad::record::Record::default();
        let corner = olympiad::record::Placement::default();
        for line in 2.. {
            record.push(corner);
            let outcome = replay.play(corner, line).unwrap();
            if outcome == olympiad::rules::Outcome::GameOver {
                break;
            }
        }
        let died = Start {
            sequence: solved[1].sequence.clone(),
            record: record.to_string(),
        };
        let [a, b] = solved;
        vec![a, b, died]
    })
}

/// The committed NES fixtures (each a valid record).
pub(super) fn nes_starts() -> &'static [String] {
    static STARTS: OnceLock<Vec<String>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let dir = manifest_dir().join("tests/fixtures/nes");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension() == Some(OsStr::new("txt")))
            .collect();
        paths.sort();
        assert!(!paths.is_empty(), "no NES fixtures in {}", dir.display());
        paths
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    })
}
