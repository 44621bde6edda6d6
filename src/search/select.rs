//! Selection: the best `width` distinct boards among a depth's candidates.
//!
//! Candidates are ranked by key, then by (parent, placement), which is unique, so the choice
//! never depends on the order the tasks finished in. Among candidates with the same board the
//! one with the higher score goes on. The selection runs in parallel over buckets of board
//! hashes ([`Buckets`]); when duplicates crowd its shortlist it falls back to a serial fill
//! over every candidate, which gives the same boards.

use super::expand::{Candidate, Chunk, SAMPLE_STEP};
use ahash::AHashMap;
use rayon::prelude::*;

/// The selection's buffers, kept from depth to depth.
#[derive(Default)]
pub(crate) struct Picker {
    pub chosen: Vec<Candidate>,
    /// Board hash -> index in `chosen`.
    seen: AHashMap<u64, usize>,
    buckets: Buckets,
    /// All candidates in one slice, for the serial fill only.
    flat: Vec<Candidate>,
}

impl Picker {
    /// A picker whose buffers are sized for a beam of `width`.
    pub fn with_capacity(width: usize) -> Picker {
        Picker {
            chosen: Vec::with_capacity(width),
            seen: AHashMap::with_capacity(width * 2),
            ..Picker::default()
        }
    }

    /// Chooses the states that go on: `width` of the candidates in `chunks` with distinct
    /// boards (all of them if fewer), into `chosen`.
    pub fn select(&mut self, chunks: &[Chunk], width: usize) {
        self.chosen.clear();
        self.seen.clear();
        let total: usize = chunks.iter().map(|c| c.candidates.len()).sum();
        if total > 4 * width && self.buckets.select(chunks, width, &mut self.chosen) {
            return;
        }
        let mut flat = std::mem::take(&mut self.flat);
        flat.clear();
        for c in chunks {
            flat.extend_from_slice(&c.candidates);
        }
        self.fill(&mut flat, width);
        self.flat = flat;
    }

    /// Adds candidates in key order until `chosen` holds `until` states or none are left.
    fn fill(&mut self, candidates: &mut [Candidate], until: usize) {
        let order = Candidate::order_key;
        let mut start = 0;
        // Duplicates are usually a small share, so rank twice the places left first and widen
        // only if that was not enough.
        let mut take = (until - self.chosen.len().min(until))
            .saturating_mul(2)
            .max(64);
        while self.chosen.len() < until && start < candidates.len() {
            let rest = &mut candidates[start..];
            let n = take.min(rest.len());
            if n < rest.len() {
                rest.select_nth_unstable_by_key(n, order);
            }
            rest[..n].par_sort_unstable_by_key(order);
            for c in &rest[..n] {
                if let Some(&i) = self.seen.get(&c.hash) {
                    if c.score > self.chosen[i].score {
                        self.chosen[i] = *c;
                    }
                } else if self.chosen.len() < until {
                    self.seen.insert(c.hash, self.chosen.len());
                    self.chosen.push(*c);
                }
            }
            start += n;
            take = take.saturating_mul(2);
        }
    }
}

/// Blocks the candidates are cut into, and buckets (by board hash) the shortlist is sorted
/// into, by the parallel selection: fixed numbers, so the work never depends on the threads.
const BLOCKS: usize = 16;
const BUCKETS: usize = 16;

/// Bins of key that the shortlist's boards are counted in, to find the cutoff.
const BINS: usize = 64;

/// The parallel selection's buffers, kept from depth to depth.
///
/// Candidates under a threshold (estimated from a sample to let a little more than the best
/// 2 x width keys through) are spread over buckets by board hash, so that every duplicate of a
/// board lands in the same bucket. Each bucket drops its duplicates on its own, in parallel:
/// a board ranks by its best key and carries its highest score. The best `width` boards of all
/// buckets then go on.
///
/// The serial steps are kept small: the threshold is selected from a sample of keys, and for
/// the cutoff between the `width` best boards and the rest each bucket also counts its boards
/// per bin of key (bins split the sampled keys under the threshold evenly), the counts tell
/// which bin holds the `width`-th board, and only that bin's ranks are searched.
#[derive(Default)]
struct Buckets {
    /// Per block, per bucket: the block's candidates under the threshold.
    blocks: Vec<Vec<Vec<Candidate>>>,
    /// Per bucket: board hash -> index in `boards`.
    seen: Vec<AHashMap<u64, usize>>,
    /// Per bucket: (rank, candidate) per distinct board.
    boards: Vec<Vec<(u128, Candidate)>>,
    /// Per bucket: each board's bin (in the order of `boards`; kept so that the serial step
    /// only compares bytes to find the cutoff bin's boards), and boards per bin.
    bins: Vec<Vec<u8>>,
    counts: Vec<[usize; BINS]>,
    /// The cutoff's bin's ranks, with their buckets.
    pool: Vec<(u128, usize)>,
    sample: Vec<u64>,
}

/// Bins of keys: even in the key's integer form from `start`, which for keys of one sign and
/// magnitude (as a depth's are) is even in value too.
#[derive(Clone, Copy)]
struct Bins {
    start: u64,
    scale: f64,
}

impl Bins {
    #[inline]
    fn of(&self, key: u64) -> usize {
        ((key.saturating_sub(self.start) as f64 * self.scale) as usize).min(BINS - 1)
    }
}

impl Buckets {
    /// Puts the best `width` distinct boards into `chosen` (in no particular but deterministic
    /// order) and returns true, or returns false when the shortlist held fewer distinct boards
    /// (the caller then selects from every candidate).
    fn select(&mut self, chunks: &[Chunk], width: usize, chosen: &mut Vec<Candidate>) -> bool {
        if self.blocks.is_empty() {
            self.blocks = (0..BLOCKS).map(|_| vec![Vec::new(); BUCKETS]).collect();
            self.seen = (0..BUCKETS).map(|_| AHashMap::new()).collect();
            self.boards = vec![Vec::new(); BUCKETS];
            self.bins = vec![Vec::new(); BUCKETS];
            self.counts = vec![[0; BINS]; BUCKETS];
        }
        // Enough candidates that, after duplicates, `width` distinct boards remain.
        let round = (width + width / 2).max(64);
        self.sample.clear();
        self.sample
            .extend(chunks.iter().flat_map(|c| &c.sample).copied());
        if self.sample.is_empty() {
            return false;
        }
        // A margin over the expected rank, so the shortlist rarely falls short.
        let rank = (round / SAMPLE_STEP * 5 / 4 + 16).min(self.sample.len() - 1);
        let (lower, &mut threshold, _) = self.sample.select_nth_unstable(rank);
        // The bins span the sampled keys under the threshold (keys under the lowest sampled
        // one go in the first bin).
        let start = lower.iter().copied().min().unwrap_or(threshold);
        let bins = Bins {
            start,
            scale: BINS as f64 / ((threshold - start) as f64 + 1.0),
        };
        // A block is a run of consecutive chunks.
        let block_len = chunks.len().div_ceil(BLOCKS);
        let bucket_of = |hash: u64| (hash >> 32) as usize % BUCKETS;
        chunks
            .par_chunks(block_len)
            .zip(self.blocks.par_iter_mut())
            .for_each(|(block, buckets)| {
                buckets.iter_mut().for_each(Vec::clear);
                for c in block.iter().flat_map(|c| &c.candidates) {
                    if c.key <= threshold {
                        buckets[bucket_of(c.hash)].push(*c);
                    }
                }
            });
        let blocks = &self.blocks;
        let used_blocks = chunks.len().div_ceil(block_len);
        self.seen
            .par_iter_mut()
            .zip(self.boards.par_iter_mut())
            .zip(self.bins.par_iter_mut())
            .zip(self.counts.par_iter_mut())
            .enumerate()
            .for_each(|(bucket, (((seen, boards), board_bins), counts))| {
                seen.clear();
                boards.clear();
                for block in &blocks[..used_blocks] {
                    for c in &block[bucket] {
                        let key = c.order_key();
                        if let Some(&i) = seen.get(&c.hash) {
                            let entry: &mut (u128, Candidate) = &mut boards[i];
                            entry.0 = entry.0.min(key);
                            if c.score > entry.1.score {
                                entry.1 = *c;
                            }
                        } else {
                            seen.insert(c.hash, boards.len());
                            boards.push((key, *c));
                        }
                    }
                }
                // Taken here, in the task's cache, for the serial cutoff below.
                *counts = [0; BINS];
                board_bins.clear();
                board_bins.extend(boards.iter().map(|e| {
                    let bin = bins.of((e.0 >> 64) as u64);
                    counts[bin] += 1;
                    bin as u8
                }));
            });
        // The bin that holds the `width`-th board, and how many boards rank in bins under it.
        let mut under = 0;
        let mut cutoff_bin = None;
        for bin in 0..BINS {
            let in_bin: usize = self.counts.iter().map(|c| c[bin]).sum();
            if under + in_bin >= width {
                cutoff_bin = Some(bin);
                break;
            }
            under += in_bin;
        }
        let Some(cutoff_bin) = cutoff_bin else {
            // Fewer than `width` distinct boards in the shortlist.
            return false;
        };
        self.pool.clear();
        for (bucket, (boards, board_bins)) in self.boards.iter().zip(&self.bins).enumerate() {
            for (e, &bin) in boards.iter().zip(board_bins) {
                if bin as usize == cutoff_bin {
                    self.pool.push((e.0, bucket));
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
                let kept = boards.iter().filter(|e| e.0 <= cutoff).map(|e| e.1);
                for (slot, c) in part.iter_mut().zip(kept) {
                    *slot = c;
                }
            });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::SplitMix64;
    use std::collections::{HashMap, HashSet};

    /// Candidates with many duplicate boards (hashes from a small pool) and random keys.
    fn candidates(seed: u64, count: usize, boards: u64) -> Vec<Candidate> {
        let mut rng = SplitMix64::new(seed);
        (0..count)
            .map(|i| Candidate {
                key: rng.below(1 << 40),
                // Spread over the whole u64 so every bucket gets some.
                hash: rng.below(boards).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                score: rng.below(1000),
                parent: (i / 20) as u32,
                placement: (i % 20) as u16,
            })
            .collect()
    }

    /// The plain definition: boards ranked by their best key, the best `width` kept.
    fn plain_choice(candidates: &[Candidate], width: usize) -> HashSet<u64> {
        let mut best: HashMap<u64, u128> = HashMap::new();
        for c in candidates {
            let k = best.entry(c.hash).or_insert(u128::MAX);
            *k = (*k).min(c.order_key());
        }
        let mut ranked: Vec<(u128, u64)> = best.into_iter().map(|(h, k)| (k, h)).collect();
        ranked.sort_unstable();
        ranked.into_iter().take(width).map(|(_, h)| h).collect()
    }

    #[test]
    fn parallel_selection_keeps_the_best_distinct_boards() {
        for (seed, count, boards, width) in [
            (1, 20_000, 12_000, 1_000),
            (2, 20_000, 3_000, 1_000),
            (3, 50_000, 40_000, 5_000),
            (4, 5_000, 1_000, 600),
        ] {
            let all = candidates(seed, count, boards);
            let mut buckets = Buckets::default();
            let mut chosen = Vec::new();
            let chunks: Vec<Chunk> = all.chunks(700).map(Chunk::of).collect();
            if !buckets.select(&chunks, width, &mut chosen) {
                // Too many duplicates under the threshold: the caller falls back. Only
                // acceptable when there are few distinct boards.
                assert!(boards < 2 * width as u64, "seed {seed}: fell back");
                continue;
            }
            assert_eq!(chosen.len(), width, "seed {seed}");
            let hashes: HashSet<u64> = chosen.iter().map(|c| c.hash).collect();
            assert_eq!(hashes.len(), width, "seed {seed}: a board chosen twice");
            assert_eq!(hashes, plain_choice(&all, width), "seed {seed}");
            // Each board carries a score at least that of its best-keyed duplicate and no more
            // than the best of its duplicates.
            for c in &chosen {
                let dups: Vec<&Candidate> = all.iter().filter(|d| d.hash == c.hash).collect();
                let max = dups.iter().map(|d| d.score).max().unwrap();
                let first = dups.iter().min_by_key(|d| d.order_key()).unwrap();
                assert!(c.score <= max && c.score >= first.score, "seed {seed}");
            }
        }
    }

    #[test]
    fn parallel_selection_is_exact_with_tied_keys_and_uneven_bins() {
        // One set of buffers across depths, as in a search. Keys from a small range tie often
        // (whole bins share one key, and only the full rank breaks the tie at the cutoff);
        // keys shifted right by up to 60 bits spread over many magnitudes.
        let mut buckets = Buckets::default();
        for (seed, count, boards, width, keys, shift) in [
            (11, 40_000, 4_000, 2_000, 1 << 40, 0),
            (12, 40_000, 1_000_000, 2_000, u64::MAX, 60),
            (13, 40_000, 1_000_000, 2_000, 300, 0),
            (14, 40_000, 20_000, 3_000, 40, 0),
        ] {
            let mut all = candidates(seed, count, boards);
            let mut rng = SplitMix64::new(seed);
            for c in &mut all {
                c.key = rng.below(keys) >> rng.below(shift + 1);
            }
            let chunks: Vec<Chunk> = all.chunks(500).map(Chunk::of).collect();
            let mut chosen = Vec::new();
            assert!(buckets.select(&chunks, width, &mut chosen), "seed {seed}");
            let hashes: HashSet<u64> = chosen.iter().map(|c| c.hash).collect();
            assert_eq!((chosen.len(), hashes.len()), (width, width), "seed {seed}");
            assert_eq!(hashes, plain_choice(&all, width), "seed {seed}");
        }
    }

    #[test]
    fn selection_falls_back_to_every_candidate_when_duplicates_crowd_the_shortlist() {
        // 200 distinct boards among 20,000 candidates: the shortlist cannot fill a beam of 500,
        // and the full selection returns every distinct board.
        let all = candidates(5, 20_000, 200);
        let chunks: Vec<Chunk> = all.chunks(700).map(Chunk::of).collect();
        let mut picker = Picker::default();
        picker.select(&chunks, 500);
        let hashes: HashSet<u64> = picker.chosen.iter().map(|c| c.hash).collect();
        assert_eq!(picker.chosen.len(), 200);
        assert_eq!(hashes, plain_choice(&all, 500));
    }
}
