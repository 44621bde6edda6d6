//! `check --game nes` and `solve --game nes` run as a user runs them: the fixture's report in
//! both forms, malformed and unreadable records, solver records that check to the solver's own
//! score whatever the thread count, refused options, the viewer page's "Locked at" line, and the
//! binaries that play only the contest's game refusing NES.

mod checking;
mod options;
mod records;
mod solving;
mod viewer;

use crate::common::{manifest_dir, run, Run};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::PathBuf;

const CHECK: &str = env!("CARGO_BIN_EXE_check");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const MERGE: &str = env!("CARGO_BIN_EXE_merge");
const POLISH: &str = env!("CARGO_BIN_EXE_polish");
const TUNE: &str = env!("CARGO_BIN_EXE_tune");

/// The header of a hand-made record (lines 1-4).
const HEADER: &str = "game nes\nstart-level 19\ntitle-wait 9\ninputs\n";

fn fixture() -> PathBuf {
    manifest_dir().join("tests/fixtures/nes/solver-level19-wait9.txt")
}

/// Runs `check --game nes` with `args`.
fn check(args: &[&dyn AsRef<OsStr>]) -> Run {
    let mut all: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &"nes"];
    all.extend_from_slice(args);
    run(CHECK, &all)
}

/// Runs `solve --game nes` with `args`.
fn solve(args: &[&str]) -> Run {
    let mut all: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &"nes"];
    all.extend(args.iter().map(|a| a as &dyn AsRef<OsStr>));
    run(SOLVE, &all)
}

/// The score of a `Score = N` line.
fn score_of(line: &str) -> u64 {
    line.strip_prefix("Score = ")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a score line: {line:?}"))
}

/// Asserts a usage error: exit 2, no panic, nothing on stdout, and an `error:` line on stderr
/// holding every one of `parts`.
fn assert_usage_error(run: &Run, parts: &[&str]) {
    run.assert_no_panic();
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert_eq!(run.stdout, "", "{run:#?}");
    let error = run
        .stderr
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| panic!("no error line: {run:#?}"));
    for part in parts {
        assert!(error.contains(part), "{part:?} not in {error:?}");
    }
}

/// The one JSON object a `--json` run printed.
fn json_of(run: &Run) -> Value {
    assert_eq!(run.stdout.lines().count(), 1, "one line of JSON: {run:#?}");
    serde_json::from_str(&run.stdout).expect("stdout is JSON")
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("a JSON object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}
