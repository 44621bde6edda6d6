//! The processes of a distributed search ([`super::distributed`]) and the two collective
//! operations it is written on: an all-to-all exchange of byte buffers and an all-gather.
//!
//! [`Solo`] is one process (no MPI); [`run_local`] runs several in one process, one thread
//! each, which the tests hold against each other without MPI; [`super::mpi::Mpi`] (cargo
//! feature `mpi`) is the processes of an `mpirun` or `srun` job.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// Where a search's states are held, as a snapshot names it: in one process, or spread over
/// processes (this one's number, and their count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub spread: bool,
    pub process: usize,
    pub processes: usize,
}

impl Place {
    /// A search in one process, not spread.
    pub const ONE: Place = Place {
        spread: false,
        process: 0,
        processes: 1,
    };

    pub(crate) fn parts(self) -> (bool, usize, usize) {
        (self.spread, self.process, self.processes)
    }
}

/// The thread support an MPI library provides (MPI_Init_thread's `provided`), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadLevel {
    /// One thread in the process.
    Single,
    /// Threads, with MPI called only from the one that started it.
    Funneled,
    /// MPI called from any thread, one call at a time.
    Serialized,
    /// MPI called from any thread at any time.
    Multiple,
}

impl ThreadLevel {
    /// MPI's name for the level.
    pub fn name(self) -> &'static str {
        match self {
            ThreadLevel::Single => "MPI_THREAD_SINGLE",
            ThreadLevel::Funneled => "MPI_THREAD_FUNNELED",
            ThreadLevel::Serialized => "MPI_THREAD_SERIALIZED",
            ThreadLevel::Multiple => "MPI_THREAD_MULTIPLE",
        }
    }

    /// Whether an MPI at this level can serve the search: the search runs threads beside the
    /// one that started MPI, which alone calls it, so FUNNELED or more.
    #[cfg(any(test, feature = "mpi"))]
    pub(crate) fn serves_the_search(self) -> Result<(), String> {
        if self >= ThreadLevel::Funneled {
            return Ok(());
        }
        Err(format!(
            "this MPI provides only {}, and the search runs threads beside the one that calls \
             MPI, which needs {} or more: use an MPI built with thread support (Open MPI and \
             MPICH provide it by default)",
            self.name(),
            ThreadLevel::Funneled.name()
        ))
    }
}

/// The processes of one search. Every process calls the operations in the same order, as MPI's
/// collectives require, and one thread at a time.
pub trait Comm: Sync {
    /// This process's number, from 0.
    fn rank(&self) -> usize;
    /// Processes in the search.
    fn size(&self) -> usize;
    /// Sends part `p` of `to` to process `p` (one part per process, this one's included) and
    /// returns what each process sent to this one, by rank.
    fn all_to_all(&self, to: Parcels) -> Parcels;
    /// Every process's `bytes`, by rank.
    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>>;

    /// The thread support MPI provides, where the processes are an MPI job's.
    fn thread_level(&self) -> Option<ThreadLevel> {
        None
    }

    /// Every process's `values`, of one length on every process, one after the other by rank
    /// (MPI's allgather).
    fn gather_values(&self, values: &[u64]) -> Vec<u64> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let all = self.all_gather(&bytes);
        all.iter()
            .flat_map(|b| b.chunks_exact(8).map(read_u64))
            .collect()
    }

    /// The element-wise sum of every process's `values`, of one length on every process
    /// (MPI's allreduce).
    fn sum_values(&self, values: &[u64]) -> Vec<u64> {
        let all = self.gather_values(values);
        (0..values.len())
            .map(|i| all.iter().skip(i).step_by(values.len()).sum())
            .collect()
    }
}

/// A part of bytes for (or from) each process, one after the other in order of rank: what an
/// exchange sends and receives, in one buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parcels {
    pub(crate) bytes: Vec<u8>,
    /// Each part's length.
    pub(crate) lens: Vec<usize>,
}

impl Parcels {
    /// `processes` empty parts.
    pub(crate) fn empty(processes: usize) -> Parcels {
        Parcels {
            bytes: Vec::new(),
            lens: vec![0; processes],
        }
    }

    /// The parts, one after the other, as one buffer.
    pub(crate) fn of(parts: &[Vec<u8>]) -> Parcels {
        Parcels {
            bytes: parts.concat(),
            lens: parts.iter().map(Vec::len).collect(),
        }
    }

    /// Each part, in order.
    pub(crate) fn parts(&self) -> impl Iterator<Item = &[u8]> {
        let mut at = 0;
        self.lens.iter().map(move |&len| {
            at += len;
            &self.bytes[at - len..at]
        })
    }
}

/// The element-wise sum over the processes of each one's `values` (of one length).
pub(crate) fn sum(comm: &dyn Comm, values: &[u64]) -> Vec<u64> {
    if values.is_empty() {
        return Vec::new();
    }
    comm.sum_values(values)
}

/// Every process's `values` (of one length), by rank.
pub fn gather_u64(comm: &dyn Comm, values: &[u64]) -> Vec<Vec<u64>> {
    if values.is_empty() {
        return vec![Vec::new(); comm.size()];
    }
    let all = comm.gather_values(values);
    all.chunks_exact(values.len())
        .map(<[u64]>::to_vec)
        .collect()
}

/// Process 0's `values` (of one length on every process), on every process.
pub fn from_root(comm: &dyn Comm, values: &[u64]) -> Vec<u64> {
    if comm.size() == 1 || values.is_empty() {
        return values.to_vec();
    }
    comm.gather_values(values)[..values.len()].to_vec()
}

#[inline]
pub(crate) fn read_u64(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"))
}

/// One process: the search without MPI.
pub struct Solo;

impl Comm for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn all_to_all(&self, to: Parcels) -> Parcels {
        to
    }
    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        vec![bytes.to_vec()]
    }
}

/// What the processes of [`run_local`] share: one mailbox per (sender, receiver).
struct Shared {
    barrier: Breakable,
    mail: Mutex<Vec<Vec<Vec<u8>>>>,
}

/// A barrier that a panicking process breaks: the processes waiting at it, or coming to it
/// after, panic too, so that a failing test of several processes fails instead of waiting for
/// the one that is gone.
struct Breakable {
    size: usize,
    /// Processes arrived in this round, the round, and whether a process panicked.
    state: Mutex<(usize, u64, bool)>,
    turned: Condvar,
}

impl Breakable {
    fn new(size: usize) -> Breakable {
        Breakable {
            size,
            state: Mutex::new((0, 0, false)),
            turned: Condvar::new(),
        }
    }

    fn wait(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let round = state.1;
        state.0 += 1;
        if state.0 == self.size {
            *state = (0, round + 1, state.2);
            self.turned.notify_all();
        }
        while state.1 == round && !state.2 {
            state = self.turned.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        assert!(!state.2, "another local process panicked");
    }

    fn r#break(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).2 = true;
        self.turned.notify_all();
    }
}

/// Breaks the barrier when its process's work panics.
struct BreakOnPanic<'a>(&'a Breakable);

impl Drop for BreakOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.r#break();
        }
    }
}

/// One of the processes [`run_local`] runs, as a thread.
struct Local {
    rank: usize,
    size: usize,
    shared: Arc<Shared>,
}

impl Comm for Local {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn all_to_all(&self, to: Parcels) -> Parcels {
        assert_eq!(to.lens.len(), self.size, "one part per process");
        let parts = to.parts().map(<[u8]>::to_vec).collect();
        self.shared.mail.lock().unwrap_or_else(|e| e.into_inner())[self.rank] = parts;
        self.shared.barrier.wait();
        let received: Vec<Vec<u8>> = {
            let mut mail = self.shared.mail.lock().unwrap_or_else(|e| e.into_inner());
            (0..self.size)
                .map(|from| std::mem::take(&mut mail[from][self.rank]))
                .collect()
        };
        // No process writes its next sends before every one has taken this round's.
        self.shared.barrier.wait();
        Parcels::of(&received)
    }
    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let received = self.all_to_all(Parcels::of(&vec![bytes.to_vec(); self.size]));
        received.parts().map(<[u8]>::to_vec).collect()
    }
}

/// Runs `work` as `size` processes of one search, each on its own thread, and returns their
/// answers by rank. The processes share the rayon pool of the caller.
pub fn run_local<R: Send>(size: usize, work: impl Fn(&dyn Comm) -> R + Sync) -> Vec<R> {
    let shared = Arc::new(Shared {
        barrier: Breakable::new(size),
        mail: Mutex::new(vec![Vec::new(); size]),
    });
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..size)
            .map(|rank| {
                let comm = Local {
                    rank,
                    size,
                    shared: Arc::clone(&shared),
                };
                let work = &work;
                scope.spawn(move || {
                    let _guard = BreakOnPanic(&comm.shared.barrier);
                    work(&comm)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a local process panicked"))
            .collect()
    })
}

/// A [`Comm`] that counts the time spent in the exchanges and the bytes this process sent.
pub(crate) struct Metered<'a> {
    inner: &'a dyn Comm,
    nanos: AtomicU64,
    sent: AtomicU64,
}

impl<'a> Metered<'a> {
    pub(crate) fn new(inner: &'a dyn Comm) -> Metered<'a> {
        Metered {
            inner,
            nanos: AtomicU64::new(0),
            sent: AtomicU64::new(0),
        }
    }
    /// Seconds spent in the exchanges so far (waiting for the slowest process included).
    pub(crate) fn seconds(&self) -> f64 {
        self.nanos.load(Ordering::Relaxed) as f64 / 1e9
    }
    /// Bytes this process sent to the others so far (not those to itself).
    pub(crate) fn sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }
    fn timed<R>(&self, bytes: u64, op: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let r = op();
        let nanos = start.elapsed().as_nanos() as u64;
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
        self.sent.fetch_add(bytes, Ordering::Relaxed);
        r
    }
}

impl Comm for Metered<'_> {
    fn rank(&self) -> usize {
        self.inner.rank()
    }
    fn size(&self) -> usize {
        self.inner.size()
    }
    fn thread_level(&self) -> Option<ThreadLevel> {
        self.inner.thread_level()
    }
    fn all_to_all(&self, to: Parcels) -> Parcels {
        let rank = self.rank();
        let bytes = to
            .lens
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != rank)
            .map(|(_, &len)| len as u64)
            .sum();
        self.timed(bytes, || self.inner.all_to_all(to))
    }
    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let sent = (bytes.len() * (self.size() - 1)) as u64;
        self.timed(sent, || self.inner.all_gather(bytes))
    }
    fn gather_values(&self, values: &[u64]) -> Vec<u64> {
        let sent = (8 * values.len() * (self.size() - 1)) as u64;
        self.timed(sent, || self.inner.gather_values(values))
    }
    fn sum_values(&self, values: &[u64]) -> Vec<u64> {
        let sent = (8 * values.len() * (self.size() - 1)) as u64;
        self.timed(sent, || self.inner.sum_values(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search calls MPI from the thread that started it while its own threads work: an
    /// MPI without thread support is refused by name, every other level serves.
    #[test]
    fn an_mpi_without_thread_support_is_refused() {
        let refusal = ThreadLevel::Single.serves_the_search().unwrap_err();
        assert!(
            refusal.contains("provides only MPI_THREAD_SINGLE"),
            "{refusal}"
        );
        assert!(refusal.contains("MPI_THREAD_FUNNELED or more"), "{refusal}");
        for level in [
            ThreadLevel::Funneled,
            ThreadLevel::Serialized,
            ThreadLevel::Multiple,
        ] {
            assert_eq!(level.serves_the_search(), Ok(()), "{level:?}");
        }
    }

    /// Each process sends its rank to every other; each receives every rank, in order; the
    /// sums and the root's values reach every process.
    #[test]
    fn local_processes_exchange_gather_and_sum() {
        for size in 1..=4 {
            let answers = run_local(size, |comm| {
                let to: Vec<Vec<u8>> = (0..comm.size())
                    .map(|p| vec![comm.rank() as u8; p + 1])
                    .collect();
                let got = comm.all_to_all(Parcels::of(&to));
                let got: Vec<Vec<u8>> = got.parts().map(<[u8]>::to_vec).collect();
                let total = sum(comm, &[comm.rank() as u64, 1]);
                let root = from_root(comm, &[7 + comm.rank() as u64]);
                (got, total, root)
            });
            for (rank, (got, total, root)) in answers.into_iter().enumerate() {
                let want: Vec<Vec<u8>> = (0..size).map(|p| vec![p as u8; rank + 1]).collect();
                assert_eq!(got, want);
                assert_eq!(total, [(0..size as u64).sum(), size as u64]);
                assert_eq!(root, [7]);
            }
        }
    }
}
