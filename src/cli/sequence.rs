//! What `solve` does alike for the games searched over a sequence file besides the contest's
//! (the browser game, the olympiad's): their options, the checks before the search, and the
//! beam's width.

use super::registry::Solve;
use super::{check_output, check_width, read_sequence, stdout_failed, write_file};
use super::{CliError, EvalOptions, SearchOptions};
use crate::kit::piece::Kind;
use crate::search::limits;
use crate::search::width::{Schedule, TimeBudget};
use crate::search::Width;
use std::path::{Path, PathBuf};

/// What `solve` asks of a game searched over a sequence file (the browser game, the
/// olympiad's): every game's options, and its evaluation's.
pub struct SolveRun<'a> {
    pub sequence: &'a Path,
    /// The width asked for (`None`: the game's default).
    pub width: Option<usize>,
    /// The objective, threads and memory check every game shares.
    pub search: &'a SearchOptions,
    /// The evaluation options the game takes.
    pub eval: &'a EvalOptions,
    /// Finish within this many seconds (the width re-chosen as the search goes).
    pub time_budget: Option<f64>,
    pub max_width: usize,
    pub pieces: Option<usize>,
    pub quiet: bool,
    /// Seconds between progress lines where no bar draws.
    pub progress_every: f64,
    pub json: Option<&'a Path>,
}

impl<'a> SolveRun<'a> {
    /// A `solve` run as a game played on a sequence file reads it.
    pub fn of(run: &'a Solve) -> Result<SolveRun<'a>, CliError> {
        let args = run.args;
        Ok(SolveRun {
            sequence: sequence_file(&args.input)?,
            width: args.beam_width,
            search: &args.search,
            eval: &run.eval,
            time_budget: args.time_budget,
            max_width: args.max_beam_width,
            pieces: args.pieces,
            quiet: args.quiet,
            progress_every: args.progress_every,
            json: args.json.as_deref(),
        })
    }
}

/// The sequence file of `solve`, which every game played on one needs. A missing file named like a
/// unit of time is most likely the second word of `--time-budget 15 min`.
pub fn sequence_file(input: &Option<PathBuf>) -> Result<&PathBuf, CliError> {
    let Some(input) = input else {
        return Err(CliError::usage("solve needs a piece sequence file"));
    };
    let units = [
        "s", "sec", "secs", "seconds", "m", "min", "mins", "minutes", "h", "hours",
    ];
    let name = input.to_string_lossy();
    if !input.exists() && units.contains(&name.as_ref()) {
        return Err(CliError::usage(format!(
            "no sequence file {name:?}: a time takes its unit without a space (--time-budget 15m)"
        )));
    }
    Ok(input)
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
        self.eval.check()?;
        if self.pieces == Some(0) {
            return Err(CliError::usage("--pieces must be at least 1"));
        }
        let widest = match self.time_budget {
            Some(_) => self.max_width.max(width),
            None => width,
        };
        search.check_memory(widest, limits::BYTES_PER_STATE)?;
        if let Some(path) = self.json {
            let [weights, policy] = self.eval.inputs();
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

/// `gen`'s options of the games played on a sequence file: which sequence to draw.
#[derive(clap::Args, Debug)]
pub struct GenOptions {
    /// Seed of the generator.
    #[arg(long, default_value_t = crate::kit::sequence::CONTEST_SEED)]
    pub seed: u64,
    /// Number of pieces.
    #[arg(long, default_value_t = 10_000)]
    pub count: usize,
}

/// A hundred million pieces is a 100 MB file; more is surely a typo.
const MAX_COUNT: usize = 100_000_000;

impl GenOptions {
    /// The options as given (`gen`'s command line holds them wherever a game added them).
    pub fn read(matches: &clap::ArgMatches) -> Result<GenOptions, CliError> {
        let options = <GenOptions as clap::FromArgMatches>::from_arg_matches(matches)
            .map_err(|e| CliError::usage(e.to_string()))?;
        if options.count == 0 {
            return Err(CliError::usage("--count must be at least 1"));
        }
        if options.count > MAX_COUNT {
            return Err(CliError::usage(format!(
                "--count must be at most {MAX_COUNT}"
            )));
        }
        Ok(options)
    }

    /// The sequence file of `pieces`, its first line a comment naming the command that makes
    /// it again (`gen ` and `how`).
    pub fn file(pieces: &[Kind], how: &str) -> String {
        crate::kit::sequence::format_sequence(pieces, Some(&format!("gen {how}")))
    }
}
