//! `solve`'s checkpoints: a file that holds a search stopped between two pieces (the search's
//! snapshot, [`tetris_search::checkpoint`]) with the placements it had decided, and what the
//! run was (its game, its options, a digest of each input file), so that `--resume` goes on to
//! the record the whole run writes, and refuses a checkpoint of another run, naming what
//! differs.
//!
//! The file is a line naming the format, a line of JSON (the run, the counts, the payload's
//! SHA-256), then the payload: the decided codes and the snapshot. It is written to a
//! temporary file beside its place and renamed over it, so that a kill at any moment leaves
//! the last checkpoint whole.

use super::errors::CliError;
use super::files::check_output;
use super::interrupt::{self, checkpoint_advice, RecordOut};
use super::runs::SolveArgs;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;
use tetris_kit::text::plural;
use tetris_search::checkpoint::{self as snapshots, Checkpoints, Snapshotter};
use tetris_search::wire::Reader;
use tetris_search::{Game, Options, Wire};

/// The first line of every checkpoint file.
const FIRST_LINE: &str = "tetris-opt solve checkpoint, format 1\n";

/// The options that change nothing of the record, left out of a run's identity.
const NOT_THE_RUN: &[&str] = &[
    "quiet",
    "progress_every",
    "json",
    "checkpoint",
    "checkpoint_every",
    "resume",
    "threads",
    "force",
    // Files are compared by their contents ([`Identity::of`]), wherever they are.
    "input",
    "from_record",
    "weights",
    "policy",
];

/// What a run is, as far as its record goes: the game, each option's value, and each input
/// file's digest, as (what, value) pairs in a fixed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity(Vec<(String, String)>);

impl Identity {
    /// The identity of a run of `game` with the options `matches` and the input files `inputs`.
    pub fn of(
        game: &str,
        matches: &clap::ArgMatches,
        inputs: &[(&'static str, PathBuf)],
    ) -> Result<Identity, CliError> {
        let mut pairs = vec![("game".to_string(), game.to_string())];
        let mut ids: Vec<&str> = matches.ids().map(|id| id.as_str()).collect();
        ids.sort_unstable();
        for id in ids.into_iter().filter(|id| !NOT_THE_RUN.contains(id)) {
            let Ok(Some(values)) = matches.try_get_raw(id) else {
                continue;
            };
            let values: Vec<String> = values.map(|v| v.to_string_lossy().into_owned()).collect();
            pairs.push((format!("--{}", id.replace('_', "-")), values.join(" ")));
        }
        for (what, path) in inputs {
            pairs.push((what.to_string(), digest_of(what, path)?));
        }
        Ok(Identity(pairs))
    }

    /// Why a run of identity `now` cannot go on from a checkpoint of this one: the first
    /// thing that differs.
    fn differs(&self, now: &Identity) -> Option<String> {
        let find = |pairs: &[(String, String)], what: &str| {
            (pairs.iter().find(|(w, _)| w == what)).map(|(_, v)| v.clone())
        };
        let shown = |v: Option<String>| v.map_or("none".to_string(), |v| format!("{v:?}"));
        let whats = self.0.iter().chain(&now.0).map(|(w, _)| w);
        for what in whats {
            let (then, here) = (find(&self.0, what), find(&now.0, what));
            if then != here {
                return Some(match what.starts_with("--") || what == "game" {
                    true => format!(
                        "it was made with {what} {}, this run has {}",
                        shown(then),
                        shown(here)
                    ),
                    false => format!(
                        "its {what} had other contents (SHA-256 {} then, {} now)",
                        shown(then),
                        shown(here)
                    ),
                });
            }
        }
        None
    }
}

/// The SHA-256 of an input file's contents, or a note that standard input is not compared.
fn digest_of(what: &str, path: &Path) -> Result<String, CliError> {
    if path == Path::new("-") {
        return Ok("standard input (not compared)".to_string());
    }
    let mut file = std::fs::File::open(path)
        .map_err(|e| CliError::usage(format!("cannot read the {what} {}: {e}", path.display())))?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)
        .map_err(|e| CliError::usage(format!("cannot read the {what} {}: {e}", path.display())))?;
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The JSON line of a checkpoint file.
#[derive(Serialize, Deserialize)]
struct Header {
    /// The binary that wrote it: a snapshot's layout may change with it.
    version: String,
    identity: Identity,
    /// Pieces searched when it was written (the kept ones of --from-record not counted).
    searched: usize,
    /// Placements the search had decided by then, in the payload first.
    decided: usize,
}

/// Bytes of the SHA-256 that ends a checkpoint file: the digest of the payload before it.
const DIGEST_BYTES: usize = 32;

/// A checkpoint read back and checked against the run that resumes it.
pub struct Resume<C> {
    /// The placements the search had decided.
    pub decided: Vec<C>,
    /// The search's snapshot, checked ([`snapshots::summary`]).
    pub snapshot: Vec<u8>,
}

/// Reads the checkpoint `path` for a run of identity `identity`, whose search is of `G` over
/// `depths` depths: refused, naming what differs, where it is of another run, and where it
/// is damaged.
pub fn read<G: Game>(
    path: &Path,
    identity: &Identity,
    depths: usize,
) -> Result<Resume<G::Code>, CliError> {
    let refuse = |why: String| CliError::usage(format!("--resume {}: {why}", path.display()));
    let mut bytes = Vec::new();
    (std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)))
        .map_err(|e| refuse(format!("cannot read it: {e}")))?;
    let Some(rest) = bytes.strip_prefix(FIRST_LINE.as_bytes()) else {
        return Err(refuse("not a checkpoint of solve".to_string()));
    };
    let end = (rest.iter().position(|&b| b == b'\n'))
        .ok_or_else(|| refuse("its header is cut short".to_string()))?;
    let header: Header = serde_json::from_slice(&rest[..end])
        .map_err(|e| refuse(format!("its header is damaged ({e})")))?;
    let payload = &rest[end + 1..];
    let Some(cut) = payload.len().checked_sub(DIGEST_BYTES) else {
        return Err(refuse("cut short (no digest at its end)".to_string()));
    };
    let (payload, digest) = payload.split_at(cut);
    if header.version != env!("CARGO_PKG_VERSION") {
        return Err(refuse(format!(
            "written by version {} of solve, this is {}",
            header.version,
            env!("CARGO_PKG_VERSION")
        )));
    }
    if let Some(why) = header.identity.differs(identity) {
        return Err(refuse(format!("a checkpoint of another run: {why}")));
    }
    if Sha256::digest(payload).as_slice() != digest {
        return Err(refuse(
            "cut short or damaged (its contents do not match their digest)".to_string(),
        ));
    }
    let codes = header.decided.saturating_mul(G::Code::BYTES);
    if codes > payload.len() {
        return Err(refuse(
            "damaged (more decided pieces than it holds)".to_string(),
        ));
    }
    let mut r = Reader::new(&payload[..codes]);
    let decided = (0..header.decided).map(|_| r.read()).collect();
    let snapshot = payload[codes..].to_vec();
    snapshots::summary::<G>(&snapshot, depths)
        .map_err(|e| refuse(format!("its search's snapshot {e}")))?;
    Ok(Resume { decided, snapshot })
}

/// Writes a checkpoint at `path`: the header, then `payload`'s bytes and their SHA-256, to a
/// temporary file in its folder, synced, then renamed over it. Returns the payload's bytes.
fn write(
    path: &Path,
    header: &Header,
    payload: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<u64> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // Named for what it is: a kill leaves it behind.
    let mut file = (tempfile::Builder::new())
        .prefix(".solve-checkpoint-")
        .tempfile_in(folder)?;
    let bytes = {
        let mut out = std::io::BufWriter::new(file.as_file_mut());
        out.write_all(FIRST_LINE.as_bytes())?;
        serde_json::to_writer(&mut out, header)?;
        out.write_all(b"\n")?;
        let mut hashed = Hashed {
            out: &mut out,
            hasher: Sha256::new(),
            bytes: 0,
        };
        payload(&mut hashed)?;
        let (digest, bytes) = (hashed.hasher.finalize(), hashed.bytes);
        out.write_all(&digest)?;
        out.flush()?;
        bytes
    };
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(bytes)
}

/// A writer that hashes what goes through it.
struct Hashed<'a, W: Write> {
    out: &'a mut W,
    hasher: Sha256,
    bytes: u64,
}

impl<W: Write> Write for Hashed<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// What a run is, for [`Saving::plan`]: its game, its options, the files it reads and whether
/// it runs over an MPI job's processes.
pub type RunIs<'a> = (
    &'a str,
    &'a clap::ArgMatches,
    &'a [(&'static str, PathBuf)],
    bool,
);

/// Where a run's checkpoints go, what run they are of, the checkpoint it resumes, and the
/// placements decided so far (which a checkpoint holds).
pub struct Saving<C> {
    /// `--checkpoint`, else beside the record where it goes to a file (None: nowhere, and an
    /// interrupt ends the run at once, as without checkpoints).
    path: Option<PathBuf>,
    every: Option<f64>,
    identity: Identity,
    /// The search's snapshot `--resume` goes on from.
    snapshot: Option<Vec<u8>>,
    /// The placements decided so far (from the checkpoint resumed first), kept only where a
    /// checkpoint can be written.
    decided: Mutex<Vec<C>>,
}

impl<C: Wire + Copy> Saving<C> {
    /// The checkpoints of a run of `game` with `options` reading `inputs` (over the processes
    /// of an MPI job where `distributed`), whose search is of `G` over `depths` depths: where
    /// they go (none under `--distributed`), and the checkpoint `--resume` names, read and
    /// checked against the run.
    pub fn plan<G: Game<Code = C>>(
        (game, options, inputs, distributed): RunIs,
        args: &SolveArgs,
        _search: &G,
        depths: usize,
    ) -> Result<Saving<C>, CliError> {
        let path = match &args.checkpoint {
            Some(path) => Some(path.clone()),
            None if distributed => None,
            None => beside_the_record(),
        };
        let needed = path.is_some() || args.resume.is_some();
        let identity = Identity::of(game, options, if needed { inputs } else { &[] })?;
        if let Some(out) = &args.checkpoint {
            let read: Vec<(&str, Option<&Path>)> = (inputs.iter())
                .map(|(what, path)| (*what, Some(path.as_path())))
                .collect();
            check_output("--checkpoint", out, &read)?;
        }
        let (snapshot, decided) = match &args.resume {
            Some(file) => {
                let resume = read::<G>(file, &identity, depths)?;
                (Some(resume.snapshot), resume.decided)
            }
            None => (None, Vec::new()),
        };
        Ok(Saving {
            path,
            every: args.checkpoint_every,
            identity,
            snapshot,
            decided: Mutex::new(decided),
        })
    }

    /// Whether an interrupt writes a checkpoint.
    pub fn writes(&self) -> bool {
        self.path.is_some()
    }

    /// The placements the resumed checkpoint had decided, which the record starts with.
    pub fn decided_before(&self) -> Option<Vec<C>> {
        let decided = lock(&self.decided);
        (!decided.is_empty()).then(|| decided.clone())
    }

    /// Keeps the placements the search decided, where a checkpoint may need them.
    pub fn log(&self, codes: &[C]) {
        if self.writes() {
            lock(&self.decided).extend_from_slice(codes);
        }
    }

    /// The search's checkpoints, written by `writer`, and the snapshot it resumes.
    pub fn options<'a>(
        &'a self,
        options: Options<'a, C>,
        writer: &'a mut Writer<'_, C>,
    ) -> Options<'a, C> {
        let options = match self.writes() {
            true => options.checkpoints(writer),
            false => options,
        };
        match &self.snapshot {
            Some(snapshot) => options.resume(snapshot),
            None => options,
        }
    }

    /// What writes the checkpoints of a run whose record goes to `record`.
    pub fn writer<'a>(
        &'a self,
        record: &'a RecordOut,
        command_line: &'a [OsString],
        kept: usize,
        quiet: bool,
    ) -> Writer<'a, C> {
        Writer {
            saving: self,
            record,
            command_line,
            kept,
            last: Instant::now(),
            quiet,
        }
    }
}

/// The placements decided so far, even where a thread panicked while it held them.
fn lock<T>(decided: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    decided
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The search's [`Checkpoints`]: one every `--checkpoint-every` and, after an interrupt, one
/// more, which ends the run.
pub struct Writer<'a, C> {
    saving: &'a Saving<C>,
    record: &'a RecordOut,
    command_line: &'a [OsString],
    /// Pieces kept from --from-record, before the searched ones.
    kept: usize,
    last: Instant,
    quiet: bool,
}

impl<C: Wire + Copy> Checkpoints for Writer<'_, C> {
    fn due(&mut self, _done: usize) -> bool {
        if interrupt::interrupted().is_some() {
            return true;
        }
        let every = self.saving.every.filter(|_| self.saving.writes());
        every.is_some_and(|s| self.last.elapsed().as_secs_f64() >= s)
    }

    fn take(&mut self, done: usize, snapshot: Snapshotter<'_>) {
        let signal = interrupt::interrupted();
        let Some(path) = self.saving.path.clone() else {
            if let Some(signal) = signal {
                interrupt::polled(false);
                interrupt::stop_now(signal);
            }
            return;
        };
        let decided = lock(&self.saving.decided);
        let header = Header {
            version: env!("CARGO_PKG_VERSION").to_string(),
            identity: self.saving.identity.clone(),
            searched: done,
            decided: decided.len(),
        };
        let started = Instant::now();
        let written = write(&path, &header, |out| {
            let mut codes = Vec::with_capacity(decided.len() * C::BYTES);
            for c in decided.iter() {
                c.put(&mut codes);
            }
            out.write_all(&codes)?;
            snapshot.write_to(out)
        });
        drop(decided);
        self.last = Instant::now();
        let mut stderr = std::io::stderr().lock();
        match (&written, signal) {
            (Err(e), _) => {
                let _ = writeln!(
                    stderr,
                    "\nwarning: cannot write the checkpoint {}: {e}",
                    path.display()
                );
            }
            (Ok(bytes), None) if !self.quiet => {
                let _ = writeln!(
                    stderr,
                    "\ncheckpoint after {}: {} ({:.1} MB in {:.1} s)",
                    plural(self.kept + done, "piece"),
                    path.display(),
                    *bytes as f64 / 1e6,
                    started.elapsed().as_secs_f64()
                );
            }
            _ => {}
        }
        let Some(signal) = signal else {
            return;
        };
        if written.is_err() {
            drop(stderr);
            interrupt::polled(false);
            interrupt::stop_now(signal);
        }
        let pieces = self.record.close_cut();
        let _ = writeln!(
            stderr,
            "\n{}",
            checkpoint_advice(self.command_line, pieces, &path)
        );
        std::process::exit(128 + signal);
    }
}

/// Where an interrupt writes its checkpoint without `--checkpoint`: beside the record, where
/// standard output is a regular file.
pub fn beside_the_record() -> Option<PathBuf> {
    let path = std::fs::read_link("/proc/self/fd/1").ok()?;
    if !path.is_file() {
        return None;
    }
    let mut name = path.into_os_string();
    name.push(".checkpoint");
    Some(PathBuf::from(name))
}
