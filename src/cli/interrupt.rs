//! A record written as a solve decides it, which Ctrl-C (SIGINT) or SIGTERM never leaves cut in
//! the middle of a piece: the whole pieces written so far go out, closed as the game's record
//! needs, with one line saying how to go on from them.

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::Write;
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

/// The record written so far, even where a thread panicked while it held it.
fn lock(shared: &Mutex<Written>) -> MutexGuard<'_, Written> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
