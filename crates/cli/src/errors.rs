//! The outcome of a run as a binary reports it: the error with its exit code, standard error
//! that never panics, and the exit status.

use super::limits::LimitError;
use std::path::Path;

/// Exit code for a record that was read but is invalid.
pub const EXIT_INVALID: i32 = 1;
/// Exit code for unusable arguments or unreadable files.
pub(crate) const EXIT_USAGE: i32 = 2;
/// Exit code for a failure of the program itself (e.g. the solver's self-check).
pub(crate) const EXIT_INTERNAL: i32 = 3;

/// An error for the user: the message and the exit code it deserves.
#[derive(Debug, PartialEq, Eq)]
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

    /// An outcome already reported (or a closed pipe, with nobody to tell): its exit code and
    /// nothing more to print.
    pub fn reported(code: i32) -> Self {
        CliError {
            message: String::new(),
            code,
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

/// This program's name, for messages.
pub(crate) fn program_name() -> String {
    std::env::args()
        .next()
        .and_then(|p| {
            Path::new(&p)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "this program".to_string())
}

/// The error for a failed write of `what` to standard output. A closed pipe (`check ... |
/// head`) means the reader has all it wanted: the program ends there, quietly and with exit 0,
/// as common command-line tools do, instead of reporting an error nobody caused (`check`'s
/// verdict on an invalid record still stands: [`verdict`]).
pub fn stdout_failed(e: std::io::Error, what: &str) -> CliError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return CliError::reported(0);
    }
    CliError::usage(format!("cannot write {what}: {e}"))
}

/// The outcome of `check` once its report is written (`printed`): exit 0 for a `valid` record,
/// 1 for an invalid one. The verdict wins over the write: a reader that stops early (`check
/// ... | head -1`) ends the program quietly, but an invalid record still exits 1, so that a
/// closed pipe never turns "invalid" into "valid".
pub fn verdict(printed: std::io::Result<()>, valid: bool) -> Result<(), CliError> {
    let code = if valid { 0 } else { EXIT_INVALID };
    match printed {
        Ok(()) if valid => Ok(()),
        Ok(()) => Err(CliError::reported(code)),
        Err(e) => {
            let mut error = stdout_failed(e, "the report");
            if !valid {
                error.code = code;
            }
            Err(error)
        }
    }
}

/// Refuses to start with no standard output to write `what` to (`solve ... >&-`, or one opened
/// only for reading), where it is the program's one product: the output would be lost with
/// exit 0. Called first in `main`.
pub fn refuse_closed_stdout(what: &str) -> Result<(), CliError> {
    use std::io::Write;
    use std::os::fd::AsFd;
    // A write of no bytes reaches no reader and fills no disk, but is refused as any write
    // where the descriptor is not open for writing.
    let open = std::io::stdout().as_fd().try_clone_to_owned();
    let mut writable = open.and_then(|fd| std::fs::File::from(fd).write(&[]).map(drop));
    if writable.is_ok() && stdout_was_closed() {
        // EBADF, what a write to the closed descriptor would have said.
        writable = Err(std::io::Error::from_raw_os_error(9));
    }
    writable.map_err(|e| {
        CliError::usage(format!(
            "cannot write {what}: standard output is closed or not open for writing ({e}); \
             send it to a file (`> FILE`), a pipe, or `> /dev/null` to discard it"
        ))
    })
}

/// Whether standard output was closed when the program started (`>&-`). Rust's runtime opens
/// `/dev/null` for reading and writing in place of a closed standard descriptor, before
/// `main`, so writes to it vanish without an error; a shell's `> /dev/null` opens it for
/// writing only. Linux tells the two apart in /proc; elsewhere nothing is refused.
fn stdout_was_closed() -> bool {
    let null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|p| p == Path::new("/dev/null"));
    let info = std::fs::read_to_string("/proc/self/fdinfo/1").unwrap_or_default();
    let flags = info
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok());
    // O_ACCMODE and O_RDWR.
    null && flags.is_some_and(|f| f & 0o3 == 0o2)
}

/// Writes one line to standard error. A closed or failing standard error (`solve 2>&1
/// >/dev/null | head`) loses the line, never the run: the record on stdout still goes out.
pub fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// [`say`] with `format!`'s arguments: what the binaries use instead of `eprintln!`, which
/// panics when standard error is closed.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::say(format_args!($($arg)*))
    };
}

/// clap's error as one of ours: its text without its own `error: `, and its exit code.
pub(crate) fn clap_error(e: &clap::Error) -> CliError {
    let text = e.render().to_string();
    CliError {
        message: text
            .trim_end()
            .strip_prefix("error: ")
            .unwrap_or(text.trim_end())
            .to_string(),
        code: e.exit_code(),
    }
}

/// A binary's exit code for the outcome of its body, the error printed once.
pub fn exit_code(result: Result<(), CliError>) -> std::process::ExitCode {
    let code = match result {
        Ok(()) => 0,
        Err(e) => {
            // An empty message: the outcome was already reported (as an invalid record's is,
            // on stdout), or there is nobody to tell (a closed pipe).
            if !e.message.is_empty() {
                say(format_args!("error: {}", e.message));
            }
            e.code
        }
    };
    exit_status(code)
}

/// Ends the process at once with `e` reported as [`exit_code`] reports it: for a failure in
/// the middle of a long run that nothing after it can mend (a record that cannot be written).
pub(crate) fn exit_now(e: CliError) -> ! {
    if !e.message.is_empty() {
        say(format_args!("error: {}", e.message));
    }
    std::process::exit(e.code)
}

/// The process's exit status for one of the exit codes above.
pub(crate) fn exit_status(code: i32) -> std::process::ExitCode {
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(u8::MAX))
}

impl From<LimitError> for CliError {
    fn from(e: LimitError) -> Self {
        CliError::usage(e.to_string())
    }
}
