//! Ctrl-C (SIGINT) or SIGTERM during a solve: the record's whole pieces written so far go out,
//! with one line saying how to go on from them, instead of a buffer lost or cut in the middle
//! of a piece.

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::{BufWriter, Stdout, Write};
use std::sync::{Arc, Mutex, MutexGuard};

/// Standard output for a record written one piece per `write` (as the contest's record
/// writer writes it) and its newline, which an interrupt flushes whole.
#[derive(Clone)]
pub struct PieceOut {
    shared: Arc<Mutex<Written>>,
}

/// The record as written so far.
struct Written {
    out: BufWriter<Stdout>,
    /// Pieces written (each one write).
    pieces: usize,
    /// The record's newline is written: it is whole.
    ended: bool,
}

impl PieceOut {
    /// Standard output, guarded: on SIGINT or SIGTERM the pieces written so far are flushed
    /// with the record's newline, `advice(pieces)` goes to stderr as one line, and the process
    /// exits with 128 + the signal's number, as a shell reports a process the signal ended.
    pub fn install(advice: impl Fn(usize) -> String + Send + 'static) -> std::io::Result<PieceOut> {
        let shared = Arc::new(Mutex::new(Written {
            out: BufWriter::new(std::io::stdout()),
            pieces: 0,
            ended: false,
        }));
        let mut signals = Signals::new([SIGINT, SIGTERM])?;
        let held = Arc::clone(&shared);
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // The lock is held to the exit: no piece is written after the flush.
                let mut written = lock(&held);
                // A record of no piece is nothing at all, not an empty line.
                if !written.ended && written.pieces > 0 {
                    let _ = writeln!(written.out);
                }
                let _ = written.out.flush();
                // After a progress bar's line, on a line of its own, and the last: stderr stays
                // locked to the exit.
                let mut stderr = std::io::stderr().lock();
                let _ = writeln!(stderr, "\n{}", advice(written.pieces));
                std::process::exit(128 + signal);
            }
        });
        Ok(PieceOut { shared })
    }
}

/// The record written so far, even where a thread panicked while it held it.
fn lock(shared: &Mutex<Written>) -> MutexGuard<'_, Written> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Write for PieceOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut written = lock(&self.shared);
        written.out.write_all(buf)?;
        if buf == b"\n" {
            written.ended = true;
        } else {
            written.pieces += 1;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        lock(&self.shared).out.flush()
    }
}
