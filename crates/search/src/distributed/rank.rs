//! Ranks across the processes of a distributed search: the `k`-th of their values ([`kth`]),
//! which sets the shortlist's threshold and the beam's cutoff ([`cutoff`]).

use super::super::comm::{gather_u64, sum, Comm};
use super::exchange::Distinct;

/// The boards of this process among the best `width` of all processes' (by key, then hash).
/// `count`: the boards of all processes.
pub(super) fn cutoff(
    comm: &dyn Comm,
    mut boards: Vec<Distinct>,
    count: u64,
    width: usize,
) -> Vec<Distinct> {
    if count <= width as u64 {
        return boards;
    }
    let mut keys: Vec<u64> = boards.iter().map(|b| b.key).collect();
    let key = kth(comm, &mut keys, width as u64 - 1);
    let under = boards.iter().filter(|b| b.key < key).count() as u64;
    let under = sum(comm, &[under])[0];
    // Boards of the cutoff's key: the lowest hashes of them fill the places left.
    let mut ties: Vec<u64> = boards
        .iter()
        .filter(|b| b.key == key)
        .map(|b| b.hash)
        .collect();
    let hash = kth(comm, &mut ties, width as u64 - 1 - under);
    boards.retain(|b| b.key < key || (b.key == key && b.hash <= hash));
    boards
}

/// Bins a search for the `k`-th value counts in per round.
const KTH_BINS: usize = 256;

/// The `k`-th smallest (from 0) of the values of every process (`k` under their count): the
/// processes count their values in bins of the range left, narrowing to the bin that holds
/// it, until it is the only value there (which the sum of the values in it then is) or the
/// range is one value. One collective a round; each round divides the range by 128 or more.
pub(super) fn kth(comm: &dyn Comm, values: &mut Vec<u64>, mut k: u64) -> u64 {
    // Alone, a process finds it in one selection, with no rounds over its values.
    if comm.size() == 1 {
        return *values.select_nth_unstable(k as usize).1;
    }
    let lowest = values.iter().copied().min().unwrap_or(u64::MAX);
    let highest = values.iter().copied().max().unwrap_or(0);
    let ends = gather_u64(comm, &[lowest, highest]);
    let mut lo = ends.iter().map(|e| e[0]).min().expect("a process");
    let mut hi = ends.iter().map(|e| e[1]).max().expect("a process");
    loop {
        values.retain(|&v| lo <= v && v <= hi);
        if lo == hi {
            return lo;
        }
        // Bins of a power of two each, so that a value's bin is a shift, not a division.
        let shift = (u64::BITS - (hi - lo).leading_zeros()).saturating_sub(KTH_BINS.ilog2());
        let mut counts = [0u64; KTH_BINS];
        for &v in values.iter() {
            counts[((v - lo) >> shift) as usize] += 1;
        }
        let counts = sum(comm, &counts);
        let mut bin = 0;
        while k >= counts[bin] {
            k -= counts[bin];
            bin += 1;
        }
        lo += (bin as u64) << shift;
        hi = hi.min(lo.saturating_add((1 << shift) - 1));
        if counts[bin] == 1 {
            let mine = values.iter().find(|&&v| lo <= v && v <= hi);
            return sum(comm, &[mine.copied().unwrap_or(0)])[0];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comm::run_local;
    use crate::test_rng::SplitMix64;

    /// Every rank of values split over 1 to 4 processes, with ties, spread and narrow ranges
    /// and empty processes, is the one a sort of all of them gives.
    #[test]
    fn kth_across_processes_is_the_sorted_rank() {
        let mut rng = SplitMix64::new(5);
        for (count, range) in [
            (1, 10),
            (7, 3),
            (5000, 1 << 40),
            (3000, 50),
            (20_000, u64::MAX),
        ] {
            let all: Vec<u64> = (0..count).map(|_| rng.below(range)).collect();
            let mut sorted = all.clone();
            sorted.sort_unstable();
            for processes in 1..=4 {
                for k in [0, count / 3, count - 1] {
                    let found = run_local(processes, |comm| {
                        // Process 1 of several holds nothing.
                        let mut mine: Vec<u64> = (all.iter().enumerate())
                            .filter(|(i, _)| {
                                processes == 1
                                    || (i % processes == comm.rank() && comm.rank() != 1)
                                    || (comm.rank() == 0 && i % processes == 1)
                            })
                            .map(|(_, &v)| v)
                            .collect();
                        kth(comm, &mut mine, k as u64)
                    });
                    assert!(
                        found.iter().all(|&f| f == sorted[k]),
                        "{count} values, {processes} processes, rank {k}"
                    );
                }
            }
        }
    }
}
