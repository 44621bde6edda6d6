//! What `solve` does alike for the games searched over a sequence file besides the contest's
//! (the browser game, the olympiad's): their options, the checks before the search, and the
//! beam's width.

use crate::shared::cli::write_file;
use crate::shared::cli::{
    check_output, check_width, read_sequence, stdout_failed, CliError, SearchOptions,
};
use std::path::Path;
use tetris_opt::games::tencent::rules::Kind;
use tetris_opt::search::limits;
use tetris_opt::search::width::{Schedule, TimeBudget};
use tetris_opt::search::Width;

/// What `solve --game browser` or `--game olympiad` is asked to do.
pub struct SolveRun<'a> {
    pub sequence: &'a Path,
    /// The width asked for (`None`: the game's default).
    pub width: Option<usize>,
    /// The evaluation, objective, threads and memory check every game shares.
    pub search: &'a SearchOptions,
    /// Finish within this many seconds (the width re-chosen as the search goes).
    pub time_budget: Option<f64>,
    pub max_width: usize,
    pub pieces: Option<usize>,
    pub quiet: bool,
    /// Seconds between progress lines where no bar draws.
    pub progress_every: f64,
    pub json: Option<&'a Path>,
}

/// A run checked and its sequence read, ready to search.
pub struct Prepared {
    pub sequence: Vec<Kind>,
    pub width: usize,
    /// The widest beam the search may hold (the time budget's limit).
    pub widest: usize,
    pub beam: Width,
}

impl SolveRun<'_> {
    /// Checks every option before any file is read or any work done, then reads the
    /// sequence (its first `--pieces`).
    pub fn prepare(&self, default_width: usize) -> Result<Prepared, CliError> {
        let search = self.search;
        let width = self.width.unwrap_or(default_width);
        check_width("--beam-width", width)?;
        if self.time_budget.is_some() {
            check_width("--max-beam-width", self.max_width)?;
        }
        search.check()?;
        if self.pieces == Some(0) {
            return Err(CliError::usage("--pieces must be at least 1"));
        }
        let widest = match self.time_budget {
            Some(_) => self.max_width.max(width),
            None => width,
        };
        search.check_memory(widest, limits::BYTES_PER_STATE)?;
        if let Some(path) = self.json {
            let [weights, policy] = search.inputs();
            let inputs = [("sequence file", Some(self.sequence)), weights, policy];
            check_output("--json", path, &inputs)?;
        }
        let mut sequence = read_sequence(self.sequence)?;
        if let Some(n) = self.pieces {
            sequence.truncate(n);
        }
        let beam = Width {
            beam_width: width,
            width_changes: Schedule::default(),
            time_budget: self.time_budget.map(|seconds| TimeBudget {
                seconds,
                max_width: self.max_width,
            }),
        };
        Ok(Prepared {
            sequence,
            width,
            widest,
            beam,
        })
    }
}

/// Writes `summary` as one line of JSON to `path`.
pub fn write_json(path: &Path, summary: &serde_json::Value) -> Result<(), CliError> {
    write_file("--json", path, format!("{summary}\n"))
}

/// A record written on standard output as the search decides it: the header, then each
/// piece's line once the plain engine has replayed it. The first failure stops the writing
/// and is kept for [`RecordOut::finish`].
pub struct RecordOut {
    out: std::io::BufWriter<std::io::Stdout>,
    /// Lines written so far, the header included.
    lines: usize,
    failed: Option<CliError>,
}

impl RecordOut {
    pub fn new(header: &str) -> RecordOut {
        let mut out = RecordOut {
            out: std::io::BufWriter::new(std::io::stdout()),
            lines: 0,
            failed: None,
        };
        out.write(header);
        out
    }

    /// Replays the next piece with `replay` (given its line number in the record) and, if
    /// the plain engine takes it, writes `line`.
    pub fn piece<E: std::fmt::Display>(
        &mut self,
        replay: impl FnOnce(usize) -> Result<(), E>,
        line: impl std::fmt::Display,
    ) {
        if self.failed.is_some() {
            return;
        }
        match replay(self.lines + 1) {
            Ok(()) => self.write(line),
            Err(e) => {
                self.failed = Some(CliError::internal(format!(
                    "the solver's record does not replay: {e}"
                )))
            }
        }
    }

    fn write(&mut self, line: impl std::fmt::Display) {
        use std::io::Write;
        match writeln!(self.out, "{line}") {
            Ok(()) => self.lines += 1,
            Err(e) => self.failed = Some(stdout_failed(e, "the record")),
        }
    }

    /// The record's end: the first failure, or the rest flushed.
    pub fn finish(mut self) -> Result<(), CliError> {
        use std::io::Write;
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.out.flush().map_err(|e| stdout_failed(e, "the record"))
    }
}
