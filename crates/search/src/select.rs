//! Selection: the best `width` distinct boards among a depth's candidates.
//!
//! Boards are ranked by key, then by board hash, and among the candidates with one board the
//! one with the highest score goes on (the search's one order,
//! [`super::candidates::Order`]), so the choice never depends on the order the tasks finished
//! in nor on where a state sits in the beam. The selection runs in parallel over buckets of
//! board hashes ([`Buckets`]), or for a beam of a few tasks in one serial pass that makes the
//! same choice ([`narrow`]); when duplicates crowd its shortlist it falls back to a serial
//! fill in rounds of key order, which gives the same boards.
//!
//! The chunks hold only the candidates under their expansion's bound. Where the shortlist's
//! threshold is above that bound, or the fill runs out of candidates before a round ends, the
//! selection answers [`Refill`] with the bound it needs, and the caller expands the depth again
//! under it: the choice is always that of every candidate.

use super::candidates::{key_value, shortlist_rank, Candidate, Chunk, Order, BUCKETS, SAMPLE_STEP};
use super::code::Code;
use super::expand::few_tasks;
use ahash::AHashMap;
use narrow::Narrow;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The selection's buffers, kept from depth to depth.
#[derive(Default)]
pub(crate) struct Picker<C = u16> {
    pub(crate) chosen: Vec<Candidate<C>>,
    buckets: Buckets<C>,
    narrow: Narrow<C>,
}

/// The selection needs children that the expansion's bound dropped: expand again keeping
/// those with a key of at most `bound`.
#[derive(Debug)]
pub(crate) struct Refill {
    pub(crate) bound: u64,
}

impl<C: Code> Picker<C> {
    /// Chooses the states that go on: `width` of the candidates in `chunks` with distinct
    /// boards (all of them if fewer), into `chosen`, in the search's one order
    /// ([`super::candidates::Order`]; `tags`: each parent's board hash, by index). Fails when
    /// that needs candidates the chunks' bounds dropped. Reorders the chunks' candidates.
    pub(crate) fn select(
        &mut self,
        chunks: &mut [Chunk<C>],
        width: usize,
        tags: &[u64],
    ) -> Result<(), Refill> {
        // Exactly the room the choice needs (the expansion took the last one).
        self.chosen = Vec::with_capacity(width);
        let total: usize = chunks.iter().map(|c| c.generated).sum();
        let bound = chunks.iter().map(|c| c.bound).min().unwrap_or(u64::MAX);
        if total > 4 * width {
            // A beam of a few tasks: its children are not grouped by bucket, and too few for
            // the parallel selection's machinery to pay.
            let shortlist = if few_tasks(chunks.len()) {
                (self.narrow).select(chunks, width, bound, tags, &mut self.chosen)
            } else {
                (self.buckets).select(chunks, width, bound, tags, &mut self.chosen)
            };
            match shortlist {
                Shortlist::Chosen => return Ok(()),
                Shortlist::BoundTooLow(threshold) => return Err(Refill { bound: threshold }),
                Shortlist::TooFewBoards => {}
            }
        }
        if bound != u64::MAX && total <= 4 * width {
            return Err(Refill { bound: u64::MAX });
        }
        if self.fill(chunks, width, tags) || bound == u64::MAX {
            return Ok(());
        }
        // The fill ran out of candidates in a round: keep those of the next round too.
        let kept: usize = chunks.iter().map(|c| c.candidates.len()).sum();
        let first = width.saturating_mul(2).max(64);
        let mut round_end = first;
        while round_end <= kept {
            round_end = round_end.saturating_mul(2).saturating_add(first);
        }
        let wider = self
            .buckets
            .key_at(chunks, round_end)
            .filter(|&k| k > bound);
        Err(Refill {
            bound: wider.unwrap_or(u64::MAX),
        })
    }

    /// Adds candidates in key order until `chosen` holds `until` states or none are left.
    /// Duplicates are usually a small share, so the candidates are taken in rounds: first
    /// twice the places left, then twice as many as the round before, until a round ends with
    /// `chosen` full. A board's state carries the highest score of its candidates in those
    /// rounds. Returns false when the candidates ran out before a round ended with `chosen`
    /// full (if the chunks dropped some, the answer is then not the full fill's).
    fn fill(&mut self, chunks: &mut [Chunk<C>], until: usize, tags: &[u64]) -> bool {
        let order = Candidate::rank;
        chunks
            .par_iter_mut()
            .for_each(|c| c.candidates.par_sort_unstable_by_key(order));
        // The candidates in key order: a merge of the sorted chunks.
        let mut heads: BinaryHeap<Reverse<(u128, usize, usize)>> = chunks
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.candidates.first().map(|f| Reverse((order(f), i, 0))))
            .collect();
        let mut seen: AHashMap<u64, usize> = AHashMap::new();
        let mut round = until.saturating_mul(2).max(64);
        let mut round_end = round;
        let mut taken = 0;
        while let Some(Reverse((_, chunk, at))) = heads.pop() {
            let candidates = &chunks[chunk].candidates;
            let c = candidates[at];
            if let Some(next) = candidates.get(at + 1) {
                heads.push(Reverse((order(next), chunk, at + 1)));
            }
            if let Some(&i) = seen.get(&c.hash) {
                if c.replaces(&self.chosen[i], tags) {
                    self.chosen[i] = c;
                }
            } else if self.chosen.len() < until {
                seen.insert(c.hash, self.chosen.len());
                self.chosen.push(c);
            }
            taken += 1;
            if taken >= round_end {
                if self.chosen.len() < until {
                    round = round.saturating_mul(2);
                    round_end = round_end.saturating_add(round);
                } else if heads.peek().is_none_or(|Reverse(h)| h.0 != order(&c)) {
                    // Children of one board with one score share a rank: a round ends after
                    // the last of them, so that the one that goes on is among them.
                    return true;
                }
            }
        }
        false
    }
}

/// Bins of key that the shortlist's boards are counted in, to find the cutoff.
const BINS: usize = 64;

/// The parallel selection's buffers, kept from depth to depth.
///
/// Candidates under a threshold (estimated from a sample to let a little more than the best
/// 2 x width keys through) are taken by bucket of board hash (each chunk holds its candidates
/// grouped by bucket), so that every duplicate of a board lands in the same bucket. Each
/// bucket drops its duplicates on its own, in parallel:
/// a board ranks by its best key and carries its highest score. The best `width` boards of all
/// buckets then go on.
///
/// The serial steps are kept small: the threshold is selected from a sample of keys, and for
/// the cutoff between the `width` best boards and the rest each bucket also counts its boards
/// per bin of key (bins split the sampled keys under the threshold evenly), the counts tell
/// which bin holds the `width`-th board, and only that bin's ranks are searched.
#[derive(Default)]
struct Buckets<C> {
    /// Per bucket: board hash -> index in `boards`.
    seen: Vec<Seen>,
    /// Per bucket: each distinct board.
    boards: Vec<Vec<Distinct<C>>>,
    /// Per bucket: each board's bin (in the order of `boards`; kept so that the serial step
    /// only compares bytes to find the cutoff bin's boards), and boards per bin.
    bins: Vec<Vec<u8>>,
    counts: Vec<[usize; BINS]>,
    /// The cutoff's bin's ranks, with their buckets.
    pool: Vec<(u128, usize)>,
    sample: Vec<u64>,
}

/// The shortlist's threshold from the chunks' samples (gathered into `sample`): the lowest
/// sampled key, the threshold and its rank in the sample; None when nothing was sampled.
fn threshold<C>(
    sample: &mut Vec<u64>,
    chunks: &[Chunk<C>],
    width: usize,
) -> Option<(u64, u64, usize)> {
    sample.clear();
    sample.extend(chunks.iter().flat_map(|c| &c.sample).copied());
    if sample.is_empty() {
        return None;
    }
    let rank = shortlist_rank(width).min(sample.len() - 1);
    let (lower, &mut threshold, _) = sample.select_nth_unstable(rank);
    let start = lower.iter().copied().min().unwrap_or(threshold);
    Some((start, threshold, rank))
}

/// Board hash -> index in a bucket's boards: open addressing over the hash's low bits (the
/// bucket is its high bits), 4 bytes a slot, sized for every candidate the bucket may see so
/// that it is at most half full.
#[derive(Default)]
struct Seen {
    slots: Vec<u32>,
}

impl Seen {
    const EMPTY: u32 = u32::MAX;

    /// Empties the table, sized for up to `boards` boards.
    fn reset(&mut self, boards: usize) {
        let size = (2 * boards).next_power_of_two().max(64);
        if self.slots.len() == size {
            self.slots.fill(Self::EMPTY);
        } else {
            self.slots = vec![Self::EMPTY; size];
        }
    }

    /// The index of the board `hash` in `boards`, or the free slot where it goes.
    #[inline]
    fn find<C>(&self, hash: u64, boards: &[Distinct<C>]) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            match self.slots[slot] {
                Self::EMPTY => return Err(slot),
                i if boards[i as usize].child.hash == hash => return Ok(i as usize),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Takes candidate `c` into `boards`: a board ranks by its best key and carries the child
    /// that goes on (`tags`: each parent's board hash, by index).
    #[inline]
    fn add<C: Code>(&mut self, c: &Candidate<C>, boards: &mut Vec<Distinct<C>>, tags: &[u64]) {
        match self.find(c.hash, boards) {
            Ok(i) => {
                let entry = &mut boards[i];
                entry.key = entry.key.min(c.key);
                if c.replaces(&entry.child, tags) {
                    entry.child = *c;
                }
            }
            Err(slot) => {
                self.slots[slot] = boards.len() as u32;
                boards.push(Distinct {
                    key: c.key,
                    child: *c,
                });
            }
        }
    }
}

/// A distinct board of the shortlist: the best key of its candidates, and the one that goes on
/// (a `u64` beside the child, where its rank as a `u128` took 16 bytes, the board's hash twice).
#[derive(Clone, Copy)]
struct Distinct<C> {
    key: u64,
    child: Candidate<C>,
}

impl<C> Distinct<C> {
    /// The board's place in the search's order ([`super::candidates::Order::board`]).
    #[inline]
    fn rank(&self) -> u128 {
        Order::board(self.key, self.child.hash)
    }
}

/// Bins of keys: even in the keys' values from `start`'s on. (Even in the keys' integer form,
/// they held nearly every board in one bin where the keys crossed zero, as a wide beam's first
/// depths' do, and its pool of the cutoff's bin took 64 MB at 1,000,000 states.)
#[derive(Clone, Copy)]
struct Bins {
    start: f64,
    scale: f64,
}

impl Bins {
    /// The bins from key `start` to key `end`.
    fn spanning(start: u64, end: u64) -> Bins {
        let (start, end) = (key_value(start), key_value(end));
        let span = end - start;
        // Keys all equal (or too far apart for a float): one bin takes them.
        let scale = if span > 0.0 && span.is_finite() {
            BINS as f64 / span
        } else {
            0.0
        };
        Bins { start, scale }
    }

    /// The bin of `key` (keys under the start's in the first, over the end's in the last).
    #[inline]
    fn of(&self, key: u64) -> usize {
        // A float cast to an integer saturates: a negative one (or NaN) to 0.
        (((key_value(key) - self.start) * self.scale) as usize).min(BINS - 1)
    }
}

/// What the parallel selection made of a depth's candidates.
#[derive(Debug, PartialEq)]
enum Shortlist {
    /// The best `width` distinct boards are chosen.
    Chosen,
    /// The shortlist held fewer distinct boards (the caller then selects from every candidate).
    TooFewBoards,
    /// The threshold (given) is above the bound under which the chunks kept their candidates.
    BoundTooLow(u64),
}

impl<C: Code> Buckets<C> {
    /// A key that about `rank` candidates are under (with a margin), from the chunks' samples,
    /// or None if that is more than the samples tell.
    fn key_at(&mut self, chunks: &[Chunk<C>], rank: usize) -> Option<u64> {
        self.sample.clear();
        self.sample
            .extend(chunks.iter().flat_map(|c| &c.sample).copied());
        let at = (rank / SAMPLE_STEP).saturating_mul(5) / 4 + 32;
        (at < self.sample.len()).then(|| *self.sample.select_nth_unstable(at).1)
    }

    /// Puts the best `width` distinct boards into `chosen` (in no particular but deterministic
    /// order), if the shortlist holds enough and the chunks kept every candidate under its
    /// threshold (`bound` is the lowest of the chunks' bounds).
    fn select(
        &mut self,
        chunks: &[Chunk<C>],
        width: usize,
        bound: u64,
        tags: &[u64],
        chosen: &mut Vec<Candidate<C>>,
    ) -> Shortlist {
        if self.seen.is_empty() {
            self.seen = (0..BUCKETS).map(|_| Seen::default()).collect();
            self.boards = vec![Vec::new(); BUCKETS];
            self.bins = vec![Vec::new(); BUCKETS];
            self.counts = vec![[0; BINS]; BUCKETS];
        }
        let found = threshold(&mut self.sample, chunks, width);
        // A sampled key a child or so a state: its memory goes before the boards'.
        self.sample = Vec::new();
        let Some((start, threshold, _)) = found else {
            return Shortlist::TooFewBoards;
        };
        if threshold > bound {
            return Shortlist::BoundTooLow(threshold);
        }
        // The bins span the sampled keys under the threshold (keys under the lowest sampled
        // one go in the first bin).
        let bins = Bins::spanning(start, threshold);
        self.distinct(chunks, threshold, bins, tags);
        let shortlist = match self.cutoff_bin(width) {
            Some((cutoff_bin, under)) => {
                self.take(width, cutoff_bin, under, chosen);
                Shortlist::Chosen
            }
            // Fewer than `width` distinct boards in the shortlist.
            None => Shortlist::TooFewBoards,
        };
        self.release();
        shortlist
    }

    /// Gives back the memory of the shortlist's boards and tables: kept from depth to depth,
    /// they would lie beside the next expansion's states, at the search's peak. Allocating
    /// them afresh each depth costs page faults, less than a hundredth of a depth at
    /// 1,000,000 states.
    fn release(&mut self) {
        for (seen, (boards, bins)) in self
            .seen
            .iter_mut()
            .zip(self.boards.iter_mut().zip(&mut self.bins))
        {
            *seen = Seen::default();
            *boards = Vec::new();
            *bins = Vec::new();
        }
        self.pool = Vec::new();
    }

    /// Per bucket, in parallel: the distinct boards of the candidates with a key of at most
    /// `threshold`, each with its best rank and the child that goes on, and their bins.
    fn distinct(&mut self, chunks: &[Chunk<C>], threshold: u64, bins: Bins, tags: &[u64]) {
        self.seen
            .par_iter_mut()
            .zip(self.boards.par_iter_mut())
            .zip(self.bins.par_iter_mut())
            .zip(self.counts.par_iter_mut())
            .enumerate()
            .for_each(|(bucket, (((seen, boards), board_bins), counts))| {
                // Room for every board under the threshold, counted first, without slack: the
                // boards are at the search's peak.
                let under_threshold = |chunk: &Chunk<C>| {
                    let candidates = chunk.bucket(bucket).iter();
                    candidates.filter(|c| c.key <= threshold).count()
                };
                let room: usize = chunks.iter().map(under_threshold).sum();
                seen.reset(room);
                *boards = Vec::with_capacity(room);
                let shortlist = chunks.iter().flat_map(|chunk| chunk.bucket(bucket));
                for c in shortlist.filter(|c| c.key <= threshold) {
                    seen.add(c, boards, tags);
                }
                // Taken here, in the task's cache, for the serial cutoff below.
                *counts = [0; BINS];
                board_bins.clear();
                board_bins.extend(boards.iter().map(|e| {
                    let bin = bins.of(e.key);
                    counts[bin] += 1;
                    bin as u8
                }));
            });
    }

    /// The bin that holds the `width`-th board, and how many boards rank in bins under it;
    /// `None` when the shortlist holds fewer than `width` distinct boards.
    fn cutoff_bin(&self, width: usize) -> Option<(usize, usize)> {
        let mut under = 0;
        for bin in 0..BINS {
            let in_bin: usize = self.counts.iter().map(|c| c[bin]).sum();
            if under + in_bin >= width {
                return Some((bin, under));
            }
            under += in_bin;
        }
        None
    }

    /// Puts the `width` best boards into `chosen`: those in bins under `cutoff_bin` (`under`
    /// of them) and the best of that bin.
    fn take(
        &mut self,
        width: usize,
        cutoff_bin: usize,
        under: usize,
        chosen: &mut Vec<Candidate<C>>,
    ) {
        // The cutoff's bin holds a few hundredths of the boards; where keys tie it can hold
        // them all. Its room goes after the selection ([`Buckets::release`]).
        self.pool.clear();
        for (bucket, (boards, board_bins)) in self.boards.iter().zip(&self.bins).enumerate() {
            for (e, &bin) in boards.iter().zip(board_bins) {
                if bin as usize == cutoff_bin {
                    self.pool.push((e.rank(), bucket));
                }
            }
        }
        let cutoff = self.pool.select_nth_unstable(width - under - 1).1 .0;
        // Per bucket: its boards in lower bins, and those of the cutoff's bin at or under it.
        let mut kept: Vec<usize> = self
            .counts
            .iter()
            .map(|c| c[..cutoff_bin].iter().sum())
            .collect();
        for &(rank, bucket) in &self.pool {
            kept[bucket] += usize::from(rank <= cutoff);
        }
        chosen.resize(width, Candidate::default());
        let mut rest = &mut chosen[..];
        let mut parts = Vec::with_capacity(BUCKETS);
        for n in kept {
            let (part, tail) = rest.split_at_mut(n);
            parts.push(part);
            rest = tail;
        }
        debug_assert!(rest.is_empty(), "exactly `width` boards pass the cutoff");
        parts
            .into_par_iter()
            .zip(self.boards.par_iter())
            .for_each(|(part, boards)| {
                let kept = boards
                    .iter()
                    .filter(|e| e.rank() <= cutoff)
                    .map(|e| e.child);
                for (slot, c) in part.iter_mut().zip(kept) {
                    *slot = c;
                }
            });
    }
}

mod narrow;

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
