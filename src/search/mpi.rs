//! The processes of an MPI job (`mpirun`, `srun`) as a [`Comm`]: rsmpi over the system's MPI.

use super::comm::Comm;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

/// Bytes one process sends another in one round of an exchange: MPI counts in 32-bit integers.
const ROUND: usize = 1 << 30;

/// The processes of the job's world.
pub struct Mpi {
    world: SimpleCommunicator,
}

/// MPI is initialised with `Threading::Serialized` ([`Mpi::start`]): any thread may call it,
/// one at a time, which the search's single loop guarantees.
unsafe impl Sync for Mpi {}

impl Mpi {
    /// Starts MPI (once per process) with the job's world; MPI ends when the universe is dropped.
    pub fn start() -> Option<(mpi::environment::Universe, Mpi)> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Serialized)?;
        let world = universe.world();
        Some((universe, Mpi { world }))
    }

    /// One round of the exchange: `to[p]` to process `p`, at most [`ROUND`] bytes each.
    fn round(&self, to: &[&[u8]]) -> Vec<Vec<u8>> {
        let counts: Vec<Count> = to.iter().map(|b| b.len() as Count).collect();
        let mut from: Vec<Count> = vec![0; to.len()];
        self.world.all_to_all_into(&counts[..], &mut from[..]);
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
        // Buffers of at least one byte: an empty Vec's pointer is 1, which Open MPI reads as
        // MPI_IN_PLACE.
        let sent: usize = to.iter().map(|b| b.len()).sum();
        let mut send = Vec::with_capacity(sent.max(1));
        for b in to {
            send.extend_from_slice(b);
        }
        let received: usize = from.iter().map(|&c| c as usize).sum();
        let mut recv = vec![0u8; received.max(1)];
        let (send_starts, recv_starts) = (starts(&counts), starts(&from));
        {
            let outgoing = Partition::new(&send[..sent], &counts[..], &send_starts[..]);
            let mut incoming =
                PartitionMut::new(&mut recv[..received], &from[..], &recv_starts[..]);
            self.world
                .all_to_all_varcount_into(&outgoing, &mut incoming);
        }
        from.iter()
            .zip(&recv_starts)
            .map(|(&c, &s)| recv[s as usize..(s + c) as usize].to_vec())
            .collect()
    }
}

impl Comm for Mpi {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn all_to_all(&self, to: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let longest = to.iter().map(Vec::len).max().unwrap_or(0) as u64;
        let mut most = 0u64;
        self.world
            .all_reduce_into(&longest, &mut most, SystemOperation::max());
        let rounds = (most as usize).div_ceil(ROUND).max(1);
        let mut received = vec![Vec::new(); to.len()];
        for round in 0..rounds {
            let part: Vec<&[u8]> = to
                .iter()
                .map(|b| {
                    let start = (round * ROUND).min(b.len());
                    &b[start..(start + ROUND).min(b.len())]
                })
                .collect();
            for (all, got) in received.iter_mut().zip(self.round(&part)) {
                all.extend_from_slice(&got);
            }
        }
        received
    }

    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        self.all_to_all(vec![bytes.to_vec(); self.size()])
    }
}
