//! The parallel selection: the best `width` distinct boards of a depth's candidates, found
//! bucket by bucket of board hash in parallel, with small serial steps between.

use super::{threshold, Ask, At, Distinct, Seen, Shortlist};
use crate::candidates::{key_value, Candidate, Chunk, BUCKETS, SAMPLE_STEP};
use crate::code::Code;
use rayon::prelude::*;

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
pub(super) struct Buckets {
    /// Per bucket: board hash -> index in `boards`.
    seen: Vec<Seen>,
    /// Per bucket: each distinct board.
    boards: Vec<Vec<Distinct>>,
    /// Per bucket: each board's bin (in the order of `boards`; kept so that the serial step
    /// only compares bytes to find the cutoff bin's boards), and boards per bin.
    bins: Vec<Vec<u8>>,
    counts: Vec<[usize; BINS]>,
    /// The cutoff's bin's ranks, with their buckets.
    pool: Vec<(u128, usize)>,
    sample: Vec<u64>,
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

impl Buckets {
    /// A key that about `rank` candidates are under (with a margin), from the chunks' samples,
    /// or None if that is more than the samples tell.
    pub(super) fn key_at<C: Code>(&mut self, chunks: &[Chunk<C>], rank: usize) -> Option<u64> {
        self.sample.clear();
        self.sample
            .extend(chunks.iter().flat_map(|c| &c.sample).copied());
        let at = (rank / SAMPLE_STEP).saturating_mul(5) / 4 + 32;
        (at < self.sample.len()).then(|| *self.sample.select_nth_unstable(at).1)
    }

    /// Puts the best `width` distinct boards into `chosen` (in no particular but deterministic
    /// order), if the shortlist (under the key at `rank` in the sample) holds enough and the
    /// chunks kept every candidate under its threshold (`bound` is the lowest of the chunks'
    /// bounds).
    pub(super) fn select<C: Code>(
        &mut self,
        chunks: &[Chunk<C>],
        ask: Ask,
        tags: &[u64],
        chosen: &mut Vec<Candidate<C>>,
    ) -> Shortlist {
        let Ask { width, rank, bound } = ask;
        if self.seen.is_empty() {
            self.seen = (0..BUCKETS).map(|_| Seen::default()).collect();
            self.boards = vec![Vec::new(); BUCKETS];
            self.bins = vec![Vec::new(); BUCKETS];
            self.counts = vec![[0; BINS]; BUCKETS];
        }
        let found = threshold(&mut self.sample, chunks, rank);
        // A sampled key a child or so a state: its memory goes before the boards'.
        self.sample = Vec::new();
        let Some((start, threshold, _)) = found else {
            return Shortlist::TooFewBoards(0);
        };
        if threshold > bound {
            return Shortlist::BoundTooLow(threshold);
        }
        // The bins span the sampled keys under the threshold (keys under the lowest sampled
        // one go in the first bin).
        let bins = Bins::spanning(start, threshold);
        self.distinct(chunks, threshold, bins, tags);
        match self.cutoff_bin(width) {
            Some((cutoff_bin, under)) => {
                self.take(chunks, width, cutoff_bin, under, chosen);
                Shortlist::Chosen
            }
            // Fewer than `width` distinct boards in the shortlist.
            None => {
                self.release();
                Shortlist::TooFewBoards(self.counts.iter().flatten().sum())
            }
        }
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
    fn distinct<C: Code>(&mut self, chunks: &[Chunk<C>], threshold: u64, bins: Bins, tags: &[u64]) {
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
                for (chunk, task) in chunks.iter().enumerate() {
                    let start = task.bucket_start(bucket);
                    for (i, c) in task.bucket(bucket).iter().enumerate() {
                        if c.key <= threshold {
                            let at = At {
                                chunk: chunk as u32,
                                index: (start + i) as u32,
                            };
                            seen.add((c, at), chunks, boards, tags);
                        }
                    }
                }
                // Not needed past here: its room goes before the choice's.
                *seen = Seen::default();
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
    fn take<C: Code>(
        &mut self,
        chunks: &[Chunk<C>],
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
        // Where the chosen children are first: 8 bytes each beside the boards, and their 32
        // only once the boards are gone, at the search's peak.
        let mut picks = vec![At { chunk: 0, index: 0 }; width];
        let mut rest = &mut picks[..];
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
                let kept = boards.iter().filter(|e| e.rank() <= cutoff);
                for (slot, e) in part.iter_mut().zip(kept) {
                    *slot = e.child;
                }
            });
        self.release();
        *chosen = Vec::with_capacity(width);
        chosen.par_extend(picks.par_iter().map(|at| *at.of(chunks)));
    }
}
