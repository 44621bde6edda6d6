//! The processes of an MPI job (`mpirun`, `srun`) as a [`Comm`]: rsmpi over the system's MPI.

use super::comm::{Comm, Parcels};
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

    /// One round of the exchange: `lens[p]` bytes of `bytes` to process `p` (at most
    /// [`ROUND`] each), one part after the other.
    fn round(&self, bytes: &[u8], lens: &[usize]) -> Parcels {
        let counts: Vec<Count> = lens.iter().map(|&len| len as Count).collect();
        let mut from: Vec<Count> = vec![0; lens.len()];
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
            let mut incoming =
                PartitionMut::new(&mut recv[..received], &from[..], &recv_starts[..]);
            self.world
                .all_to_all_varcount_into(&outgoing, &mut incoming);
        }
        recv.truncate(received);
        Parcels {
            bytes: recv,
            lens: from.iter().map(|&c| c as usize).collect(),
        }
    }
}

impl Comm for Mpi {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn all_to_all(&self, to: Parcels) -> Parcels {
        let longest = to.lens.iter().copied().max().unwrap_or(0) as u64;
        let mut most = 0u64;
        self.world
            .all_reduce_into(&longest, &mut most, SystemOperation::max());
        if most as usize <= ROUND {
            return self.round(&to.bytes, &to.lens);
        }
        // Parts over MPI's 32-bit counts go in rounds of a slice of each.
        let rounds = (most as usize).div_ceil(ROUND);
        let mut got: Vec<Vec<u8>> = vec![Vec::new(); to.lens.len()];
        for round in 0..rounds {
            let slices: Vec<&[u8]> = to
                .parts()
                .map(|part| {
                    let start = (round * ROUND).min(part.len());
                    &part[start..(start + ROUND).min(part.len())]
                })
                .collect();
            let lens: Vec<usize> = slices.iter().map(|s| s.len()).collect();
            let received = self.round(&slices.concat(), &lens);
            for (all, part) in got.iter_mut().zip(received.parts()) {
                all.extend_from_slice(part);
            }
        }
        Parcels::of(&got)
    }

    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let to = Parcels::of(&vec![bytes.to_vec(); self.size()]);
        self.all_to_all(to).parts().map(<[u8]>::to_vec).collect()
    }

    fn gather_values(&self, values: &[u64]) -> Vec<u64> {
        let mut all = vec![0u64; values.len() * self.size()];
        self.world.all_gather_into(values, &mut all[..]);
        all
    }

    fn sum_values(&self, values: &[u64]) -> Vec<u64> {
        let mut total = vec![0u64; values.len()];
        self.world
            .all_reduce_into(values, &mut total[..], SystemOperation::sum());
        total
    }

    fn or_values(&self, words: &mut [u64]) {
        let mut all = vec![0u64; words.len()];
        self.world
            .all_reduce_into(&words[..], &mut all[..], SystemOperation::bitwise_or());
        words.copy_from_slice(&all);
    }
}
