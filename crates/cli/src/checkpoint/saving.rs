//! A run's checkpoints as the search takes them: where they go, the checkpoint a run resumes,
//! and the search's [`Checkpoints`] that writes them (on every process of a distributed run,
//! each its own file).

use super::{read, share_path, write, Header, Identity};
use crate::args::SolveArgs;
use crate::distributed::agree;
use crate::errors::CliError;
use crate::files::check_output;
use crate::interrupt::{self, checkpoint_advice, RecordOut};
use crate::registry::Given;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;
use tetris_kit::text::plural;
use tetris_search::checkpoint::{Checkpoints, Snapshotter};
use tetris_search::comm::from_root;
use tetris_search::comm::Place;
use tetris_search::{Comm, Game, Options, Wire};

/// What a run is, for [`Saving::plan`]: its game, its options, the files it reads and the
/// processes of `--distributed` (None: this process alone).
pub(crate) type RunIs<'a> = (
    &'a str,
    &'a Given,
    &'a [(&'static str, PathBuf)],
    Option<&'a dyn Comm>,
);

/// Where a run's checkpoints go, what run they are of, the checkpoint it resumes, and the
/// placements decided so far (which a checkpoint holds).
pub(crate) struct Saving<C> {
    /// `--checkpoint`, else, in one process, beside the record where it goes to a file (None:
    /// nowhere, and an interrupt ends the run at once, as without checkpoints).
    path: Option<PathBuf>,
    every: Option<f64>,
    identity: Identity,
    /// Where the search's states are held: a checkpoint resumes only there.
    place: Place,
    /// The search's snapshot `--resume` goes on from.
    snapshot: Option<Vec<u8>>,
    /// Pieces searched when the checkpoint resumed was written (0: none resumed).
    resumed_after: usize,
    /// The placements decided so far (from the checkpoint resumed first), kept only where a
    /// checkpoint can be written.
    decided: Mutex<Vec<C>>,
}

impl<C: Wire + Copy> Saving<C> {
    /// The checkpoints of a run of `game` with `options` reading `inputs` (over the processes
    /// of `comm`, where it is distributed), whose search is of `G` over `depths` depths: where
    /// they go, and the checkpoint `--resume` names, read and checked against the run (each
    /// process's own file). Every process of `comm` calls it, and fails where one does.
    pub(crate) fn plan<G: Game<Code = C>>(
        (game, options, inputs, comm): RunIs,
        args: &SolveArgs,
        _search: &G,
        depths: usize,
    ) -> Result<Saving<C>, CliError> {
        let place = comm.map_or(Place::ONE, |c| Place {
            spread: true,
            process: c.rank(),
            processes: c.size(),
        });
        let planned = Self::read_own::<G>((game, options, inputs), args, depths, place);
        let mut saving = match comm {
            Some(comm) => agree(comm, planned)?,
            None => planned?,
        };
        if let (Some(comm), Some(file)) = (comm, &args.resume) {
            // The others' files are named for the pieces process 0's file was written after.
            let searched = from_root(comm, &[saving.resumed_after as u64])[0] as usize;
            let share = (comm.rank() != 0).then(|| share_path(file, comm.rank(), searched));
            let own = match &share {
                Some(path) => read::<G>(path, &saving.identity, depths, place).map(Some),
                None => Ok(None),
            };
            if let Some(resume) = agree(comm, own)? {
                saving.snapshot = Some(resume.snapshot);
            }
        }
        Ok(saving)
    }

    /// [`Saving::plan`] in this process alone: on a distributed run's other processes, no
    /// snapshot yet (its file is named for process 0's).
    fn read_own<G: Game<Code = C>>(
        (game, options, inputs): (&str, &Given, &[(&'static str, PathBuf)]),
        args: &SolveArgs,
        depths: usize,
        place: Place,
    ) -> Result<Saving<C>, CliError> {
        let path = match &args.checkpoint {
            Some(path) => Some(path.clone()),
            None if place.spread => None,
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
        let resume = match &args.resume {
            Some(file) if place.process == 0 => Some(read::<G>(file, &identity, depths, place)?),
            _ => None,
        };
        let resumed_after = resume.as_ref().map_or(0, |r| r.searched);
        let (snapshot, decided) = match resume {
            Some(resume) => (Some(resume.snapshot), resume.decided),
            None => (None, Vec::new()),
        };
        Ok(Saving {
            path,
            every: args.checkpoint_every,
            identity,
            place,
            snapshot,
            resumed_after,
            decided: Mutex::new(decided),
        })
    }

    /// Whether an interrupt writes a checkpoint.
    pub(crate) fn writes(&self) -> bool {
        self.path.is_some()
    }

    /// The placements the resumed checkpoint had decided, which the record starts with.
    pub(crate) fn decided_before(&self) -> Option<Vec<C>> {
        let decided = lock(&self.decided);
        (!decided.is_empty()).then(|| decided.clone())
    }

    /// Keeps the placements the search decided, where a checkpoint may need them.
    pub(crate) fn log(&self, codes: &[C]) {
        if self.writes() {
            lock(&self.decided).extend_from_slice(codes);
        }
    }

    /// The search's checkpoints, written by `writer`, and the snapshot it resumes.
    pub(crate) fn options<'a>(
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

    /// What writes the checkpoints of a run whose record goes to `record` (None: a
    /// distributed run's other processes, which write none).
    pub(crate) fn writer<'a>(
        &'a self,
        record: Option<&'a RecordOut>,
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
pub(crate) struct Writer<'a, C> {
    saving: &'a Saving<C>,
    record: Option<&'a RecordOut>,
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

    fn take(&mut self, done: usize, snapshot: Snapshotter<'_>) -> bool {
        let signal = interrupt::interrupted();
        let Some(path) = self.saving.path.clone() else {
            return signal.is_some();
        };
        let started = Instant::now();
        let written = self.write(&path, done, &snapshot);
        self.last = Instant::now();
        if self.saving.place.process != 0 {
            return signal.is_some();
        }
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
            return false;
        };
        let record = self.record.expect("process 0 writes the record");
        if written.is_err() && !self.saving.place.spread {
            drop(stderr);
            interrupt::polled(false);
            interrupt::stop_now(signal);
        }
        let pieces = record.close_cut();
        let advice = match written {
            Ok(_) => checkpoint_advice(self.command_line, pieces, &path),
            Err(_) => format!(
                "interrupted: the record's first {} written, and no checkpoint",
                plural(pieces, "piece")
            ),
        };
        let _ = writeln!(stderr, "\n{advice}{}", self.again());
        true
    }
}

impl<C: Wire + Copy> Writer<'_, C> {
    /// Writes this process's file of the checkpoint at `path` after `done` pieces searched,
    /// and, once every process's is whole, makes them the checkpoint (process 0's renamed
    /// into place, then the others' earlier files removed): its payload's bytes. Every
    /// process of the search calls it at once.
    fn write(
        &mut self,
        path: &Path,
        done: usize,
        snapshot: &Snapshotter<'_>,
    ) -> std::io::Result<u64> {
        let (process, processes) = snapshot.process();
        let decided = lock(&self.saving.decided);
        let header = Header {
            version: env!("CARGO_PKG_VERSION").to_string(),
            identity: self.saving.identity.clone(),
            searched: done,
            decided: decided.len(),
            process,
            processes,
        };
        let own = match process {
            0 => path.to_path_buf(),
            _ => share_path(path, process, done),
        };
        let file = write(&own, &header, |out| {
            let mut codes = Vec::with_capacity(decided.len() * C::BYTES);
            for c in decided.iter() {
                c.put(&mut codes);
            }
            out.write_all(&codes)?;
            snapshot.write_to(out)
        });
        drop(decided);
        // The others' files go into place at once: process 0's, last, makes them the
        // checkpoint.
        let file = file.and_then(|(file, bytes)| match process {
            0 => Ok((Some(file), bytes)),
            _ => file
                .persist(&own)
                .map(|_| (None, bytes))
                .map_err(|e| e.error),
        });
        let everyone = snapshot.on_all(file.is_ok());
        let placed = match file {
            Ok((Some(file), bytes)) if everyone => {
                file.persist(&own).map(|_| bytes).map_err(|e| e.error)
            }
            Ok((_, bytes)) if everyone => Ok(bytes),
            Ok(_) => Err(std::io::Error::other(
                "another process could not write its file",
            )),
            Err(e) => Err(e),
        };
        let committed = snapshot.on_all(process != 0 || placed.is_ok());
        // The checkpoint is process 0's file and the files it names: this process's others
        // are of no checkpoint.
        match (process, committed) {
            (0, _) => {}
            (_, true) => remove_shares(path, process, done),
            (_, false) => {
                let _ = std::fs::remove_file(&own);
            }
        }
        placed
    }

    /// What a distributed run must be started as again to resume.
    fn again(&self) -> String {
        match self.saving.place.processes {
            1 => String::new(),
            n => format!(", run as {n} processes again (mpirun -np {n})"),
        }
    }
}

/// Removes process `process`'s files of the checkpoint `path` but the one after `keep`
/// pieces.
fn remove_shares(path: &Path, process: usize, keep: usize) {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Some(name) = path.file_name() else {
        return;
    };
    let mut prefix = name.to_os_string();
    prefix.push(format!(".process{process}.after"));
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let after = (file.as_encoded_bytes())
            .strip_prefix(prefix.as_encoded_bytes())
            .and_then(|rest| std::str::from_utf8(rest).ok()?.parse::<usize>().ok());
        if after.is_some_and(|a| a != keep) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Where an interrupt writes its checkpoint without `--checkpoint`: beside the record, where
/// standard output is a regular file.
pub(crate) fn beside_the_record() -> Option<PathBuf> {
    let path = std::fs::read_link("/proc/self/fd/1").ok()?;
    if !path.is_file() {
        return None;
    }
    let mut name = path.into_os_string();
    name.push(".checkpoint");
    Some(PathBuf::from(name))
}
