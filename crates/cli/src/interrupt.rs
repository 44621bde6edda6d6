//! A record written as a solve decides it, which Ctrl-C (SIGINT) or SIGTERM never leaves cut in
//! the middle of a piece: the whole pieces written so far go out, closed as the game's record
//! needs, with one line saying how to go on from them.

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// The variable that makes a solve interrupt itself with SIGTERM once it has written this many
/// pieces: a test stops a run at a known piece without reading a clock.
pub const INTERRUPT_AFTER: &str = "TETRIS_OPT_INTERRUPT_AFTER";

/// Where a record goes as the search decides it, piece by piece (shared with the thread that
/// watches for signals).
#[derive(Clone)]
pub struct RecordOut {
    shared: Arc<Mutex<Written>>,
    /// Raise SIGTERM once this many pieces are written ([`INTERRUPT_AFTER`]).
    interrupt_after: Option<usize>,
}

/// The record as written so far.
struct Written {
    /// Buffered: standard output flushes at every newline, a write a piece otherwise.
    out: std::io::BufWriter<Box<dyn Write + Send>>,
    /// Pieces written (each one [`RecordOut::piece`]).
    pieces: usize,
    /// The record's end is written: it is whole.
    ended: bool,
    /// What a record cut after a piece needs to be whole (the contest's newline).
    closing: &'static str,
}

impl RecordOut {
    /// A record written to `out`, no signal watched (a test's, or a process that writes
    /// nothing).
    pub fn to(out: Box<dyn Write + Send>, closing: &'static str) -> RecordOut {
        let interrupt_after = std::env::var(INTERRUPT_AFTER)
            .ok()
            .and_then(|n| n.trim().parse().ok());
        RecordOut {
            shared: Arc::new(Mutex::new(Written {
                out: std::io::BufWriter::new(out),
                pieces: 0,
                ended: false,
                closing,
            })),
            interrupt_after,
        }
    }

    /// A record written to `out`, guarded: on SIGINT or SIGTERM the pieces written so far are
    /// flushed with `closing`, `advice(pieces)` goes to stderr as one line, and the process
    /// exits with 128 + the signal's number, as a shell reports a process the signal ended.
    pub fn guarded(
        out: Box<dyn Write + Send>,
        closing: &'static str,
        advice: impl Fn(usize) -> String + Send + 'static,
    ) -> std::io::Result<RecordOut> {
        let record = RecordOut::to(out, closing);
        let mut signals = Signals::new([SIGINT, SIGTERM])?;
        let held = Arc::clone(&record.shared);
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // The lock is held to the exit: no piece is written after the flush.
                let mut written = lock(&held);
                // A record of no piece is nothing to close.
                if !written.ended && written.pieces > 0 {
                    let closing = written.closing;
                    let _ = written.out.write_all(closing.as_bytes());
                }
                let _ = written.out.flush();
                // After a progress bar's line, on a line of its own, and the last: stderr stays
                // locked to the exit.
                let mut stderr = std::io::stderr().lock();
                let _ = writeln!(stderr, "\n{}", advice(written.pieces));
                std::process::exit(128 + signal);
            }
        });
        Ok(record)
    }

    /// Writes what comes before the first piece (a header).
    pub fn header(&self, text: &str) -> std::io::Result<()> {
        lock(&self.shared).out.write_all(text.as_bytes())
    }

    /// Writes one whole piece's text.
    pub fn piece(&self, text: impl std::fmt::Display) -> std::io::Result<()> {
        let pieces = {
            let mut written = lock(&self.shared);
            write!(written.out, "{text}")?;
            written.pieces += 1;
            written.pieces
        };
        if self.interrupt_after == Some(pieces) {
            self.flush()?;
            let _ = signal_hook::low_level::raise(SIGTERM);
            // The watcher exits the process; this thread writes nothing more meanwhile, so
            // the record holds exactly the pieces asked for.
            loop {
                std::thread::park();
            }
        }
        Ok(())
    }

    /// Writes the record's end and flushes it: the record is whole.
    pub fn end(&self, text: &str) -> std::io::Result<()> {
        let mut written = lock(&self.shared);
        written.out.write_all(text.as_bytes())?;
        written.ended = true;
        written.out.flush()
    }

    /// Sends what is written on: a reader (or a full disk, or a closed pipe) sees each batch of
    /// pieces as it is decided, not when the search ends.
    pub fn flush(&self) -> std::io::Result<()> {
        lock(&self.shared).out.flush()
    }

    /// Pieces written so far.
    pub fn pieces(&self) -> usize {
        lock(&self.shared).pieces
    }
}

/// A record writer that writes one piece per `write` and ends the record with a lone newline
/// (the contest's record writer writes so) writes through a [`RecordOut`].
impl Write for RecordOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match buf {
            b"\n" => self.end("\n")?,
            piece => self.piece(String::from_utf8_lossy(piece))?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        RecordOut::flush(self)
    }
}

/// The line an interrupted run prints: the pieces written, and the command that goes on from
/// them with every option this run had.
pub fn resume_advice(
    command_line: &[OsString],
    resumable: bool,
) -> impl Fn(usize) -> String + Send + 'static {
    let words = resume_words(command_line);
    let written_to = record_file();
    move |pieces| {
        if pieces == 0 {
            return "interrupted before any piece was decided: nothing written".to_string();
        }
        if !resumable {
            return format!(
                "interrupted: the record's first {} written, each checked by the rules engine \
                 (this game's search cannot go on from a record)",
                are(pieces)
            );
        }
        let record = written_to
            .as_ref()
            .map_or("RECORD".to_string(), |p| quoted(&p.to_string_lossy()));
        let note = if written_to.is_some() {
            String::new()
        } else {
            " (RECORD: the file this run's output went to)".to_string()
        };
        format!(
            "interrupted: the record's first {} written, each checked by the rules engine; go \
             on from them with `{words} --from-record {record} --from-piece {pieces} > \
             ANOTHER_FILE`{note}",
            are(pieces)
        )
    }
}

/// `1 piece is`, `7 pieces are`.
fn are(pieces: usize) -> String {
    match pieces {
        1 => "piece is".to_string(),
        n => format!("{n} pieces are"),
    }
}

/// The command line without its `--from-record` and `--from-piece`, quoted for a shell.
fn resume_words(command_line: &[OsString]) -> String {
    let mut words = Vec::new();
    let mut skip_value = false;
    for (i, word) in command_line.iter().enumerate() {
        let text = word.to_string_lossy();
        if skip_value {
            skip_value = false;
            continue;
        }
        if i == 0 {
            // The program as the user named it, without the folders a shell found it in.
            let name = Path::new(text.as_ref())
                .file_name()
                .map_or(text.to_string(), |n| n.to_string_lossy().into_owned());
            words.push(name);
            continue;
        }
        if text == "--from-record" || text == "--from-piece" {
            skip_value = true;
            continue;
        }
        if text.starts_with("--from-record=") || text.starts_with("--from-piece=") {
            continue;
        }
        words.push(quoted(&text));
    }
    words.join(" ")
}

/// `word` as a shell reads it back.
fn quoted(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The regular file standard output goes to, where it is one (Linux: /proc/self/fd/1).
fn record_file() -> Option<PathBuf> {
    let path = std::fs::read_link("/proc/self/fd/1").ok()?;
    path.is_file().then_some(path)
}

/// The record written so far, even where a thread panicked while it held it.
fn lock(shared: &Mutex<Written>) -> MutexGuard<'_, Written> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resume_command_keeps_every_option_but_the_old_start() {
        let line: Vec<OsString> = [
            "/usr/local/bin/solve",
            "in put.txt",
            "--judge",
            "--from-record",
            "old.txt",
            "--from-piece=40",
            "--beam-width",
            "300",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        assert_eq!(
            resume_words(&line),
            "solve 'in put.txt' --judge --beam-width 300"
        );
    }

    #[test]
    fn words_a_shell_would_split_are_quoted() {
        assert_eq!(quoted("a.txt"), "a.txt");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        assert_eq!(quoted(""), "''");
    }
}
