//! `solve`'s checkpoints: a file that holds a search stopped between two pieces (the search's
//! snapshot, [`tetris_search::checkpoint`]) with the placements it had decided, and what the
//! run was (its game, its options, a digest of each input file), so that `--resume` goes on to
//! the record the whole run writes, and refuses a checkpoint of another run, naming what
//! differs.
//!
//! The file is a line naming the format, a line of JSON (the run, the counts, the process),
//! then the payload (the decided codes and the snapshot) and its SHA-256. It is written to a
//! temporary file beside its place and renamed over it, so that a kill at any moment leaves
//! the last checkpoint whole.
//!
//! A distributed search (`--distributed`) writes one file per process: process 0's at the
//! checkpoint's path, with the decided codes, and each other process's beside it, named for
//! its number and the pieces searched ([`share_path`]). The others' files are written first;
//! process 0's file, renamed into place once every one of them is whole, makes them the
//! checkpoint, and only then are the others' earlier files removed: a kill at any moment
//! leaves process 0's file naming files that are all there.

mod saving;

pub(crate) use saving::Saving;

use super::errors::CliError;
use super::registry::Given;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use tetris_search::checkpoint::{self as snapshots};
use tetris_search::comm::Place;
use tetris_search::wire::Reader;
use tetris_search::{Game, Wire};

/// The first line of every checkpoint file, and its start, which names the format.
const FIRST_LINE: &str = "tetris-opt solve checkpoint, format 2\n";
const FORMAT: &str = "tetris-opt solve checkpoint, format ";

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
pub(crate) struct Identity(Vec<(String, String)>);

impl Identity {
    /// The identity of a run of `game` with the options `given` and the input files `inputs`.
    pub(crate) fn of(
        game: &str,
        given: &Given,
        inputs: &[(&'static str, PathBuf)],
    ) -> Result<Identity, CliError> {
        let mut pairs = vec![("game".to_string(), game.to_string())];
        for (id, values) in given
            .0
            .iter()
            .filter(|(id, _)| !NOT_THE_RUN.contains(&&id[..]))
        {
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
    /// The process that wrote it, and the processes of its search (0 and 1: one process).
    process: usize,
    processes: usize,
}

/// The file where process `process` of a distributed search keeps its share of the checkpoint
/// `path` taken after `searched` pieces.
pub(crate) fn share_path(path: &Path, process: usize, searched: usize) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".process{process}.after{searched}"));
    PathBuf::from(name)
}

/// Bytes of the SHA-256 that ends a checkpoint file: the digest of the payload before it.
const DIGEST_BYTES: usize = 32;

/// A checkpoint read back and checked against the run that resumes it.
pub(crate) struct Resume<C> {
    /// The placements the search had decided.
    pub(crate) decided: Vec<C>,
    /// The search's snapshot, checked ([`snapshots::summary`]).
    pub(crate) snapshot: Vec<u8>,
    /// Pieces searched when it was written.
    pub(crate) searched: usize,
}

/// Reads the checkpoint `path` for a run of identity `identity`, whose search is of `G` over
/// `depths` depths held at `place`: refused, naming what differs, where it is of another run
/// or another job's size, and where it is damaged.
pub(crate) fn read<G: Game>(
    path: &Path,
    identity: &Identity,
    depths: usize,
    place: Place,
) -> Result<Resume<G::Code>, CliError> {
    let refuse = |why: String| CliError::usage(format!("--resume {}: {why}", path.display()));
    let mut bytes = Vec::new();
    (std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)))
        .map_err(|e| refuse(format!("cannot read it: {e}")))?;
    let Some(rest) = bytes.strip_prefix(FIRST_LINE.as_bytes()) else {
        let why = match bytes.starts_with(FORMAT.as_bytes()) {
            true => "a checkpoint in another format, of another version of solve",
            false => "not a checkpoint of solve",
        };
        return Err(refuse(why.to_string()));
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
    if header.processes != place.processes {
        let processes = |n: usize| match n {
            1 => "one process".to_string(),
            n => format!("{n} processes"),
        };
        return Err(refuse(format!(
            "written by a search over {}, and this one runs over {}: resume it as {} \
             (mpirun -np {} ... --distributed)",
            processes(header.processes),
            processes(place.processes),
            processes(header.processes),
            header.processes
        )));
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
    snapshots::summary::<G>(&snapshot, depths, place)
        .map_err(|e| refuse(format!("its search's snapshot {e}")))?;
    Ok(Resume {
        decided,
        snapshot,
        searched: header.searched,
    })
}

/// Writes a checkpoint for `path`: the header, then `payload`'s bytes and their SHA-256, to a
/// temporary file in its folder, synced, for the caller to rename over `path`
/// ([`tempfile::NamedTempFile::persist`]). With the payload's bytes.
fn write(
    path: &Path,
    header: &Header,
    payload: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<(tempfile::NamedTempFile, u64)> {
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
    Ok((file, bytes))
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
