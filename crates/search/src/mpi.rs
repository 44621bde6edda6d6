//! The processes of an MPI job (`mpirun`, `srun`) as a [`Comm`]: rsmpi over the system's MPI.

use super::comm::{Comm, Parcels, ThreadLevel};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Threading;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use std::sync::mpsc;

/// Bytes one process sends another in one round of an exchange: MPI counts in 32-bit integers.
const ROUND: usize = 1 << 30;

/// Stack of the thread that runs the search: the size of a main thread's on Linux, where the
/// search runs without MPI.
const SEARCH_STACK: usize = 8 << 20;

/// One MPI call, made on the thread that started MPI.
type Call = Box<dyn FnOnce(&SimpleCommunicator) + Send>;

/// The processes of the job's world, as the search's threads see them: each operation is
/// carried to the thread that started MPI ([`run`]) and made there, so MPI needs no more than
/// `MPI_THREAD_FUNNELED`, and no MPI object is shared between threads.
pub struct Mpi {
    rank: usize,
    size: usize,
    level: ThreadLevel,
    calls: mpsc::Sender<Call>,
}

/// Starts MPI on this thread and runs `search` on a thread of its own with the job's world,
/// this thread making every MPI call the search asks for until `search` returns; MPI ends
/// (MPI_Finalize, on this thread) before the answer is returned. Refused: MPI already started
/// in this process, and an MPI that provides less thread support than the search needs.
pub fn run<R: Send>(search: impl FnOnce(&Mpi) -> R + Send) -> Result<R, String> {
    let Some((universe, provided)) = mpi::initialize_with_threading(Threading::Funneled) else {
        return Err("MPI could not be started: it was started before in this process".into());
    };
    let level = level_of(provided);
    level.serves_the_search()?;
    let world = universe.world();
    let (calls, made) = mpsc::channel::<Call>();
    let mpi = Mpi {
        rank: world.rank() as usize,
        size: world.size() as usize,
        level,
        calls,
    };
    let answer = std::thread::scope(|scope| {
        let searching = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, move || search(&mpi));
        let searching = searching.map_err(|e| format!("cannot start the search's thread: {e}"))?;
        // Until the search drops its `Mpi`, the last sender.
        for call in made {
            call(&world);
        }
        match searching.join() {
            Ok(answer) => Ok(answer),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    drop(world);
    drop(universe);
    answer
}

/// The project's name for the thread support MPI provides.
fn level_of(provided: Threading) -> ThreadLevel {
    match provided {
        Threading::Single => ThreadLevel::Single,
        Threading::Funneled => ThreadLevel::Funneled,
        Threading::Serialized => ThreadLevel::Serialized,
        Threading::Multiple => ThreadLevel::Multiple,
    }
}

impl Mpi {
    /// `call` made on the thread that started MPI, its answer returned here.
    fn on_mpi_thread<T: Send + 'static>(
        &self,
        call: impl FnOnce(&SimpleCommunicator) -> T + Send + 'static,
    ) -> T {
        let (reply, answer) = mpsc::sync_channel(1);
        let sent = self.calls.send(Box::new(move |world: &SimpleCommunicator| {
            // The caller waits for the answer until it comes: the reply cannot be refused.
            let _ = reply.send(call(world));
        }));
        sent.expect("the MPI thread serves calls until the search's `Mpi` is dropped");
        answer
            .recv()
            .expect("the MPI thread answers every call it takes")
    }
}

/// Part `p` of `to` to process `p`, in rounds where a part is over MPI's 32-bit counts.
fn exchange(world: &SimpleCommunicator, to: Parcels) -> Parcels {
    let longest = to.lens.iter().copied().max().unwrap_or(0) as u64;
    let mut most = 0u64;
    world.all_reduce_into(&longest, &mut most, SystemOperation::max());
    if most as usize <= ROUND {
        return round(world, &to.bytes, &to.lens);
    }
    let rounds = (most as usize).div_ceil(ROUND);
    let mut got: Vec<Vec<u8>> = vec![Vec::new(); to.lens.len()];
    for r in 0..rounds {
        let slices: Vec<&[u8]> = to
            .parts()
            .map(|part| {
                let start = (r * ROUND).min(part.len());
                &part[start..(start + ROUND).min(part.len())]
            })
            .collect();
        let lens: Vec<usize> = slices.iter().map(|s| s.len()).collect();
        let received = round(world, &slices.concat(), &lens);
        for (all, part) in got.iter_mut().zip(received.parts()) {
            all.extend_from_slice(part);
        }
    }
    Parcels::of(&got)
}

/// One round of the exchange: `lens[p]` bytes of `bytes` to process `p` (at most [`ROUND`]
/// each), one part after the other.
fn round(world: &SimpleCommunicator, bytes: &[u8], lens: &[usize]) -> Parcels {
    let counts: Vec<Count> = lens.iter().map(|&len| len as Count).collect();
    let mut from: Vec<Count> = vec![0; lens.len()];
    world.all_to_all_into(&counts[..], &mut from[..]);
    let starts = |counts: &[Count]| -> Vec<Count> {
        counts
            .iter()
            .scan(0, |at, &c| {
                let start = *at;
                *at += c;
                Some(start)
            })
            .collect()
    };
    let received: usize = from.iter().map(|&c| c as usize).sum();
    // Buffers of at least one byte: an empty Vec's pointer is 1, which Open MPI reads as
    // MPI_IN_PLACE.
    let mut send = Vec::new();
    let outgoing = if bytes.is_empty() {
        send.push(0);
        &send[..0]
    } else {
        bytes
    };
    let mut recv = vec![0u8; received.max(1)];
    let (send_starts, recv_starts) = (starts(&counts), starts(&from));
    {
        let outgoing = Partition::new(outgoing, &counts[..], &send_starts[..]);
        let mut incoming = PartitionMut::new(&mut recv[..received], &from[..], &recv_starts[..]);
        world.all_to_all_varcount_into(&outgoing, &mut incoming);
    }
    recv.truncate(received);
    Parcels {
        bytes: recv,
        lens: from.iter().map(|&c| c as usize).collect(),
    }
}

impl Comm for Mpi {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn thread_level(&self) -> Option<ThreadLevel> {
        Some(self.level)
    }

    fn all_to_all(&self, to: Parcels) -> Parcels {
        self.on_mpi_thread(move |world| exchange(world, to))
    }

    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let to = Parcels::of(&vec![bytes.to_vec(); self.size()]);
        self.all_to_all(to).parts().map(<[u8]>::to_vec).collect()
    }

    fn gather_values(&self, values: &[u64]) -> Vec<u64> {
        let (values, size) = (values.to_vec(), self.size);
        self.on_mpi_thread(move |world| {
            let mut all = vec![0u64; values.len() * size];
            world.all_gather_into(&values[..], &mut all[..]);
            all
        })
    }

    fn sum_values(&self, values: &[u64]) -> Vec<u64> {
        let values = values.to_vec();
        self.on_mpi_thread(move |world| {
            let mut total = vec![0u64; values.len()];
            world.all_reduce_into(&values[..], &mut total[..], SystemOperation::sum());
            total
        })
    }
}
