//! What the binaries share: reading files with errors that name them, and the exit codes.

use std::path::{Path, PathBuf};

/// Exit code for a record that was read but is invalid.
pub const EXIT_INVALID: i32 = 1;
/// Exit code for unusable arguments or unreadable files.
pub const EXIT_USAGE: i32 = 2;
/// Exit code for a failure of the program itself (e.g. the solver's self-check).
pub const EXIT_INTERNAL: i32 = 3;

/// An error for the user: the message and the exit code it deserves.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub code: i32,
}

impl CliError {
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: EXIT_USAGE,
        }
    }

    /// A bug of ours, not the user's: reported as such with its own exit code.
    pub fn internal(e: impl std::fmt::Display) -> Self {
        CliError {
            message: format!("internal error: {e}"),
            code: EXIT_INTERNAL,
        }
    }
}

/// Reads a whole text file (`-` is standard input); unreadable or non-UTF-8 files are usage
/// errors naming the path.
pub fn read_text(path: &Path, what: &str) -> Result<String, CliError> {
    let bytes = if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf).map(|_| buf)
    } else {
        std::fs::read(path)
    }
    .map_err(|e| CliError::usage(format!("cannot read {what} {}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        CliError::usage(format!(
            "{what} {} is not text (invalid UTF-8 at byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads and parses a sequence file.
pub fn read_sequence(path: &Path) -> Result<Vec<crate::rules::Kind>, CliError> {
    let text = read_text(path, "sequence file")?;
    crate::sequence::parse_sequence(&text)
        .map_err(|e| CliError::usage(format!("sequence file {}: {e}", path.display())))
}

/// Reads and parses a move record file; a file that is not a record is a usage error naming it.
pub fn read_record(path: &Path) -> Result<crate::record::Record, CliError> {
    let text = read_text(path, "record file")?;
    crate::record::Record::parse(&text)
        .map_err(|e| CliError::usage(format!("record file {}: {e}", path.display())))
}

/// Prints a record as one line on standard output (a closed pipe is reported, not a panic).
pub fn print_record(record: &crate::record::Record) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{record}")
        .and_then(|()| out.flush())
        .map_err(|e| CliError::usage(format!("cannot write the record: {e}")))
}

/// Runs a binary's body: prints the error once and exits with its code.
pub fn exit_with(result: Result<(), CliError>) -> ! {
    match result {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!("error: {}", e.message);
            std::process::exit(e.code)
        }
    }
}

/// Evaluation weights from a JSON file, or the shipped defaults.
pub fn read_weights(path: Option<&Path>) -> Result<crate::eval::Weights, CliError> {
    match path {
        Some(p) => crate::eval::Weights::from_json(&read_text(p, "weights file")?)
            .map_err(|e| CliError::usage(format!("weights file {}: {e}", p.display()))),
        None => Ok(crate::eval::Weights::default()),
    }
}

/// The beam policy from a JSON file, or the shipped defaults.
pub fn read_policy(path: Option<&Path>) -> Result<crate::search::Policy, CliError> {
    match path {
        Some(p) => serde_json::from_str(&read_text(p, "policy file")?)
            .map_err(|e| CliError::usage(format!("policy file {}: {e}", p.display()))),
        None => Ok(crate::search::Policy::default()),
    }
}

/// The beam options `solve` and `polish` share.
#[derive(clap::Args, Debug)]
pub struct SearchOptions {
    /// How much one point scored lowers a state's key (key = evaluation - score * weight).
    #[arg(long, default_value_t = 0.024)]
    pub score_weight: f64,
    /// Evaluation weights as JSON (fields left out keep their defaults).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Beam policy as JSON (fields left out keep their defaults).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Worker threads (default: all cores). The record does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

impl SearchOptions {
    /// Refuses values no search can use (before any file is read).
    pub fn check(&self) -> Result<(), CliError> {
        if !self.score_weight.is_finite() {
            return Err(CliError::usage("--score-weight must be a finite number"));
        }
        if self.threads == Some(0) {
            return Err(CliError::usage("--threads must be at least 1"));
        }
        Ok(())
    }

    /// The weights and the policy files, read (their defaults where none is given).
    pub fn read(&self) -> Result<(crate::eval::Weights, crate::search::Policy), CliError> {
        Ok((
            read_weights(self.weights.as_deref())?,
            read_policy(self.policy.as_deref())?,
        ))
    }

    /// The worker threads the search runs on.
    pub fn pool(&self) -> Result<rayon::ThreadPool, CliError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(0))
            .build()
            .map_err(|e| CliError::usage(format!("cannot start worker threads: {e}")))
    }
}
