//! A record written as a solve decides it, which Ctrl-C (SIGINT) or SIGTERM never leaves cut in
//! the middle of a piece: the whole pieces written so far go out, closed as the game's record
//! needs, with one line saying how to go on from them.

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};
use std::time::{Duration, Instant};

/// The variable that makes a solve interrupt itself as SIGTERM would once it has written this
/// many pieces: a test stops a run at a known piece without reading a clock.
pub const INTERRUPT_AFTER: &str = "TETRIS_OPT_INTERRUPT_AFTER";

/// How long an interrupt waits for the record's writer (a reader that stopped reading can
/// block it) before it exits without closing the record.
const RECORD_WAIT: Duration = Duration::from_secs(2);

/// What the thread that watches for signals acts on: one per process.
struct Watch {
    /// The signal received (0: none yet).
    signal: AtomicI32,
    /// A search is asking after each depth whether to stop ([`polled`]): the first signal
    /// then only says so, and the search writes its checkpoint and ends the run.
    polled: AtomicBool,
    /// The record being written, and the line that says how to go on from it.
    record: Mutex<Option<Guarded>>,
}

struct Guarded {
    shared: Arc<Mutex<Written>>,
    advice: Box<dyn Fn(usize) -> String + Send>,
}

static WATCH: OnceLock<Watch> = OnceLock::new();

fn watch() -> &'static Watch {
    WATCH.get_or_init(|| Watch {
        signal: AtomicI32::new(0),
        polled: AtomicBool::new(false),
        record: Mutex::new(None),
    })
}

/// Watches for SIGINT and SIGTERM from now on (once per process; later calls do nothing):
/// `solve` calls it first, so that a signal while it reads its inputs is reported too, never
/// a silent death.
pub(crate) fn watch_signals() -> std::io::Result<()> {
    static STARTED: OnceLock<()> = OnceLock::new();
    if STARTED.get().is_some() {
        return Ok(());
    }
    let mut signals = Signals::new([SIGINT, SIGTERM])?;
    let _ = STARTED.set(());
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let w = watch();
            if w.polled.load(Ordering::SeqCst)
                && w.signal
                    .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            {
                let _ = writeln!(
                    std::io::stderr(),
                    "\ninterrupted: a checkpoint is written after this piece's search \
                     (interrupt again to stop at once)"
                );
                continue;
            }
            stop_now(signal);
        }
    });
    Ok(())
}

/// Whether a search that writes a checkpoint on an interrupt is running: while it is, the
/// first signal is left to it ([`interrupted`]).
pub(crate) fn polled(on: bool) {
    watch().polled.store(on, Ordering::SeqCst);
}

/// The signal received since [`polled`] was set, if any.
pub(crate) fn interrupted() -> Option<i32> {
    match watch().signal.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// Ends the process as `signal` asks: the record's whole pieces flushed and closed, one line
/// saying how to go on from them, and 128 + the signal's number, as a shell reports a process
/// the signal ended. A record whose writer is stuck (a reader that stopped reading) is left
/// as it is, and the line says so.
pub(crate) fn stop_now(signal: i32) -> ! {
    let record = lock(&watch().record);
    let mut stderr = std::io::stderr().lock();
    let Some(guarded) = record.as_ref() else {
        let _ = writeln!(
            stderr,
            "\ninterrupted before the search began: nothing written"
        );
        std::process::exit(128 + signal);
    };
    let waited = Instant::now();
    let mut written = loop {
        match guarded.shared.try_lock() {
            Ok(w) => break w,
            Err(TryLockError::Poisoned(p)) => break p.into_inner(),
            Err(TryLockError::WouldBlock) if waited.elapsed() < RECORD_WAIT => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(TryLockError::WouldBlock) => {
                let _ = writeln!(
                    stderr,
                    "\ninterrupted while standard output took no more of the record: its \
                     last piece may be cut"
                );
                std::process::exit(128 + signal);
            }
        }
    };
    // The lock is held to the exit: no piece is written after the flush. A record of no
    // piece is nothing to close.
    if !written.ended && written.pieces > 0 {
        let closing = written.closing;
        let _ = written.out.write_all(closing.as_bytes());
    }
    let _ = written.out.flush();
    let _ = writeln!(stderr, "\n{}", (guarded.advice)(written.pieces));
    std::process::exit(128 + signal);
}

/// Where a record goes as the search decides it, piece by piece (shared with the thread that
/// watches for signals).
#[derive(Clone)]
pub struct RecordOut {
    shared: Arc<Mutex<Written>>,
    /// Stop as SIGTERM would once this many pieces are written ([`INTERRUPT_AFTER`]).
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
    pub(crate) fn to(out: Box<dyn Write + Send>, closing: &'static str) -> RecordOut {
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
    /// exits with 128 + the signal's number ([`stop_now`]), unless a search that writes a
    /// checkpoint is running ([`polled`]), which then ends the run itself.
    pub(crate) fn guarded(
        out: Box<dyn Write + Send>,
        closing: &'static str,
        advice: impl Fn(usize) -> String + Send + 'static,
    ) -> std::io::Result<RecordOut> {
        watch_signals()?;
        let record = RecordOut::to(out, closing);
        *lock(&watch().record) = Some(Guarded {
            shared: Arc::clone(&record.shared),
            advice: Box::new(advice),
        });
        Ok(record)
    }

    /// Closes the pieces written so far as [`stop_now`] does, for a run that ends itself after
    /// an interrupt; returns how many there are.
    pub(crate) fn close_cut(&self) -> usize {
        let mut written = lock(&self.shared);
        if !written.ended && written.pieces > 0 {
            let closing = written.closing;
            let _ = written.out.write_all(closing.as_bytes());
            written.ended = true;
        }
        let _ = written.out.flush();
        written.pieces
    }

    /// Writes what comes before the first piece (a header).
    pub fn header(&self, text: &str) -> std::io::Result<()> {
        lock(&self.shared).out.write_all(text.as_bytes())
    }

    /// Writes one whole piece's text; after an interrupt that a search answers with a
    /// checkpoint, nothing: the record then holds the pieces written when the signal came.
    pub fn piece(&self, text: impl std::fmt::Display) -> std::io::Result<()> {
        if interrupted().is_some() {
            return Ok(());
        }
        let pieces = {
            let mut written = lock(&self.shared);
            write!(written.out, "{text}")?;
            written.pieces += 1;
            written.pieces
        };
        if self.interrupt_after != Some(pieces) {
            return Ok(());
        }
        let w = watch();
        if w.polled.load(Ordering::SeqCst) {
            // As a signal would: the search ends the run after this depth.
            w.signal.store(SIGTERM, Ordering::SeqCst);
            return Ok(());
        }
        self.flush()?;
        let _ = signal_hook::low_level::raise(SIGTERM);
        // The watcher exits the process; this thread writes nothing more meanwhile, so the
        // record holds exactly the pieces asked for.
        loop {
            std::thread::park();
        }
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
    pub(crate) fn flush(&self) -> std::io::Result<()> {
        lock(&self.shared).out.flush()
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
pub(crate) fn resume_advice(
    command_line: &[OsString],
    resumable: bool,
) -> impl Fn(usize) -> String + Send + 'static {
    let command_line = command_line.to_vec();
    let written_to = record_file();
    move |pieces| {
        if pieces == 0 {
            return "interrupted before any piece was decided: no piece written".to_string();
        }
        if !resumable {
            return format!(
                "interrupted: the record's first {} written, each checked by the rules engine \
                 (this game's search cannot go on from a record)",
                are(pieces)
            );
        }
        let record = written_to
            .clone()
            .unwrap_or_else(|| PathBuf::from("RECORD"));
        let extra = [
            "--from-record".into(),
            record.into_os_string(),
            "--from-piece".into(),
            pieces.to_string().into(),
        ];
        let words = command_with(&command_line, &["--from-record", "--from-piece"], &extra);
        let note = match written_to {
            Some(_) => "",
            None => " (RECORD: the file this run's output went to)",
        };
        format!(
            "interrupted: the record's first {} written, each checked by the rules engine; go \
             on from them with `{words} > ANOTHER_FILE`{note}{}",
            are(pieces),
            piped(&command_line)
        )
    }
}

/// The line a run interrupted at a checkpoint prints: the pieces written, where the
/// checkpoint is, and the command that goes on from it to the record the whole run writes.
pub(crate) fn checkpoint_advice(
    command_line: &[OsString],
    pieces: usize,
    checkpoint: &Path,
) -> String {
    let extra = ["--resume".into(), checkpoint.as_os_str().to_owned()];
    let words = command_with(command_line, &["--resume"], &extra);
    let written = match pieces {
        0 => "no piece of the record is written".to_string(),
        n => format!(
            "the record's first {} written, each checked by the rules engine",
            are(n)
        ),
    };
    format!(
        "interrupted: {written}, and the search's checkpoint is in {}; go on to the record the \
         whole run writes with `{words} > ANOTHER_FILE`{}",
        quoted(checkpoint.as_os_str()),
        piped(command_line)
    )
}

/// What a run that read its sequence from standard input (`-`) must be given again.
fn piped(command_line: &[OsString]) -> &'static str {
    match command_line.iter().skip(1).any(|w| w == "-") {
        true => ", with the same sequence piped to it again",
        false => "",
    }
}

/// `1 piece is`, `7 pieces are`.
fn are(pieces: usize) -> String {
    match pieces {
        1 => "piece is".to_string(),
        n => format!("{n} pieces are"),
    }
}

/// `command_line` again, quoted for a shell, with `extra` right after the program (so that
/// they come before a `--`) and without the options named in `drop` (each with its value).
fn command_with(command_line: &[OsString], drop: &[&str], extra: &[OsString]) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut skip_value = false;
    let mut positional = false;
    for (i, word) in command_line.iter().enumerate() {
        if skip_value {
            skip_value = false;
            continue;
        }
        // The program as the user named it: a folder it was run from stays.
        if i == 0 {
            words.push(quoted(word));
            words.extend(extra.iter().map(|w| quoted(w)));
            continue;
        }
        let text = word.to_string_lossy();
        if !positional {
            positional = text == "--";
            if drop.contains(&text.as_ref()) {
                skip_value = true;
                continue;
            }
            let name = text.split('=').next().unwrap_or_default();
            if text.contains('=') && drop.contains(&name) {
                continue;
            }
        }
        words.push(quoted(word));
    }
    words.join(" ")
}

/// `word` as a shell reads it back; bytes that are no text as bash's `$'\xHH'`.
fn quoted(word: &std::ffi::OsStr) -> String {
    let Some(text) = word.to_str() else {
        use std::os::unix::ffi::OsStrExt;
        let escaped: String = (word.as_bytes().iter())
            .map(|&b| match b {
                b'\'' | b'\\' => format!("\\{}", b as char),
                0x20..=0x7e => (b as char).to_string(),
                _ => format!("\\x{b:02x}"),
            })
            .collect();
        return format!("$'{escaped}'");
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The regular file standard output goes to, where it is one (Linux: /proc/self/fd/1).
fn record_file() -> Option<PathBuf> {
    let path = std::fs::read_link("/proc/self/fd/1").ok()?;
    path.is_file().then_some(path)
}

/// The record written so far, even where a thread panicked while it held it.
fn lock<T>(shared: &Mutex<T>) -> MutexGuard<'_, T> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_resume_command_keeps_every_option_but_the_old_start() {
        let line = line(&[
            "/usr/local/bin/solve",
            "in put.txt",
            "--judge",
            "--from-record",
            "old.txt",
            "--from-piece=40",
            "--beam-width",
            "300",
        ]);
        assert_eq!(
            command_with(&line, &["--from-record", "--from-piece"], &[]),
            "/usr/local/bin/solve 'in put.txt' --judge --beam-width 300"
        );
    }

    #[test]
    fn the_new_start_goes_before_a_double_dash() {
        let line = line(&[
            "target/release/solve",
            "--beam-width",
            "5",
            "--",
            "-seq.txt",
        ]);
        let extra = ["--resume".into(), "run.checkpoint".into()];
        assert_eq!(
            command_with(&line, &["--resume"], &extra),
            "target/release/solve --resume run.checkpoint --beam-width 5 -- -seq.txt"
        );
        // After `--` a word is a file, even one named like an option.
        let line = self::line(&["solve", "--", "--resume"]);
        assert_eq!(command_with(&line, &["--resume"], &[]), "solve -- --resume");
    }

    #[test]
    fn a_run_that_read_standard_input_says_to_pipe_it_again() {
        let piped = line(&["solve", "-", "--beam-width", "5"]);
        let advice = checkpoint_advice(&piped, 3, Path::new("r.checkpoint"));
        assert!(
            advice.ends_with("`solve --resume r.checkpoint - --beam-width 5 > ANOTHER_FILE`, with the same sequence piped to it again"),
            "{advice}"
        );
        let read = line(&["solve", "s.txt"]);
        let advice = checkpoint_advice(&read, 1, Path::new("r.checkpoint"));
        assert!(advice.ends_with("> ANOTHER_FILE`"), "{advice}");
        assert!(
            advice.contains("the record's first piece is written"),
            "{advice}"
        );
    }

    #[test]
    fn words_a_shell_would_split_are_quoted() {
        let q = |w: &str| quoted(std::ffi::OsStr::new(w));
        assert_eq!(q("a.txt"), "a.txt");
        assert_eq!(q("it's"), r"'it'\''s'");
        assert_eq!(q(""), "''");
        use std::os::unix::ffi::OsStrExt;
        let bytes = std::ffi::OsStr::from_bytes(b"r\xff'.txt");
        assert_eq!(quoted(bytes), r"$'r\xff\'.txt'");
    }
}
