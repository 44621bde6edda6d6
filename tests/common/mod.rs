//! Helpers shared by the integration tests that run the binaries: where the project's files are,
//! scratch directories for hand-made records, and running a binary to completion.

// Each test crate includes this module and uses only part of it.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The crate root (where `inputs/` lives).
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The contest sequence file shipped with the project.
pub fn tencent_input() -> PathBuf {
    manifest_dir().join("inputs/tencent.txt")
}

/// The 2021 public record for the contest sequence (tests/fixtures/README.md names its source).
pub fn public_record_path() -> PathBuf {
    manifest_dir().join("tests/fixtures/public-record-1395326.txt")
}

/// The public record's text.
pub fn public_record() -> String {
    std::fs::read_to_string(public_record_path())
        .expect("read tests/fixtures/public-record-1395326.txt")
}

/// A scratch directory under the system temp dir, unique per process and per call, removed on
/// drop.
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(label: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "tetris-opt-test-{}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            label
        ));
        std::fs::create_dir_all(&dir).expect("create a scratch directory");
        Scratch { dir }
    }

    /// Writes `contents` to `name` in the scratch directory and returns its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, contents).expect("write a scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a finished run of a binary left behind.
#[derive(Debug)]
pub struct Run {
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The last line printed on stdout ("" when nothing was).
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }

    /// The score of the `Score = N` line `solve` ends its summary (on stderr) with.
    pub fn solve_score(&self) -> u64 {
        let line = self.stderr.lines().last().unwrap_or("");
        line.strip_prefix("Score = ")
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no score line in {self:#?}"))
    }

    /// Asserts the run did not panic (a panic is never an acceptable answer to bad input).
    pub fn assert_no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked"),
            "the binary panicked:\n{}",
            self.stderr
        );
    }
}

/// Runs the binary at `exe` with `args` in the crate root and waits for it.
pub fn run(exe: &str, args: &[&dyn AsRef<OsStr>]) -> Run {
    let output = Command::new(exe)
        .args(args.iter().map(|a| a.as_ref()))
        .current_dir(manifest_dir())
        .output()
        .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
    Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// The contest's rules, strict (the default checker).
pub fn strict() -> tetris_opt::games::tencent::rules::Rules {
    tetris_opt::games::tencent::rules::Rules::default()
}

/// The contest's rules as its web replay plays them (`check --judge`).
pub fn judge() -> tetris_opt::games::tencent::rules::Rules {
    tetris_opt::games::tencent::rules::Rules::judge()
}
