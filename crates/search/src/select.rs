//! Selection: the best `width` distinct boards among a depth's candidates.
//!
//! Boards are ranked by key, then by board hash, and among the candidates with one board the
//! one with the highest score goes on (the search's one order,
//! [`super::candidates::Order`]), so the choice never depends on the order the tasks finished
//! in nor on where a state sits in the beam. The selection runs in parallel over buckets of
//! board hashes ([`buckets`]), or for a beam of a few tasks in one serial pass that makes the
//! same choice ([`narrow`]). When duplicates crowd its shortlist, the shortlist widens by as
//! many candidates as boards are missing ([`wider_rank`]: the distributed selection widens by
//! the same ranks, and chooses alike); past the sample's end it falls back to a serial fill
//! in rounds of key order, which gives the same boards.
//!
//! The chunks hold only the candidates under their expansion's bound. Where the shortlist's
//! threshold is above that bound, or the fill runs out of candidates before a round ends, the
//! selection answers [`Refill`] with the bound it needs, and the caller expands the depth again
//! under it: the choice is always that of every candidate.

use super::candidates::{shortlist_rank, wider_rank, Candidate, Chunk, Order};
use super::code::Code;
use super::expand::few_tasks;
use ahash::AHashMap;
use buckets::Buckets;
use narrow::Narrow;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The selection's buffers, kept from depth to depth.
#[derive(Default)]
pub(crate) struct Picker<C = u16> {
    pub(crate) chosen: Vec<Candidate<C>>,
    buckets: Buckets,
    narrow: Narrow,
    /// The rank in the sample of the shortlist's threshold, where duplicates crowded the
    /// first one this depth (kept over the expansions a wider shortlist needs); 0: none.
    widened: usize,
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
        let chosen = self.choose(chunks, width, tags);
        if chosen.is_ok() {
            self.widened = 0;
        }
        chosen
    }

    fn choose(
        &mut self,
        chunks: &mut [Chunk<C>],
        width: usize,
        tags: &[u64],
    ) -> Result<(), Refill> {
        // The last choice's room goes (the expansion took it); each way of choosing makes
        // exactly the room it needs, when it needs it.
        self.chosen = Vec::new();
        let total: usize = chunks.iter().map(|c| c.generated).sum();
        let bound = chunks.iter().map(|c| c.bound).min().unwrap_or(u64::MAX);
        if total > 4 * width {
            if let Some(chosen) = self.shortlist(chunks, width, bound, tags) {
                return chosen;
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

    /// The choice from the candidates under a threshold (the parallel or the narrow
    /// selection's), widened while duplicates crowd it; None where they crowd it past the
    /// sample's end.
    fn shortlist(
        &mut self,
        chunks: &[Chunk<C>],
        width: usize,
        bound: u64,
        tags: &[u64],
    ) -> Option<Result<(), Refill>> {
        let mut rank = match self.widened {
            0 => shortlist_rank(width),
            widened => widened,
        };
        loop {
            let ask = Ask { width, rank, bound };
            // A beam of a few tasks: its children are not grouped by bucket, and too few for
            // the parallel selection's machinery to pay.
            let shortlist = if few_tasks(chunks.len()) {
                (self.narrow).select(chunks, ask, tags, &mut self.chosen)
            } else {
                (self.buckets).select(chunks, ask, tags, &mut self.chosen)
            };
            match shortlist {
                Shortlist::Chosen => return Some(Ok(())),
                Shortlist::BoundTooLow(threshold) => return Some(Err(Refill { bound: threshold })),
                Shortlist::TooFewBoards(boards) => {
                    rank = wider(rank, boards, width, chunks)?;
                    self.widened = rank;
                }
            }
        }
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
        self.chosen = Vec::with_capacity(until);
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

/// [`wider_rank`], or None past the chunks' sample (the fill then takes every candidate).
fn wider<C>(rank: usize, boards: usize, width: usize, chunks: &[Chunk<C>]) -> Option<usize> {
    let wider = wider_rank(rank, boards, width);
    let sampled: usize = chunks.iter().map(|c| c.sample.len()).sum();
    (wider < sampled).then_some(wider)
}

/// The shortlist's threshold from the chunks' samples (gathered into `sample`): the lowest
/// sampled key, the threshold (the key at `rank` in the sample, or its last) and its rank;
/// None when nothing was sampled.
fn threshold<C>(
    sample: &mut Vec<u64>,
    chunks: &[Chunk<C>],
    rank: usize,
) -> Option<(u64, u64, usize)> {
    sample.clear();
    sample.extend(chunks.iter().flat_map(|c| &c.sample).copied());
    if sample.is_empty() {
        return None;
    }
    let rank = rank.min(sample.len() - 1);
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
    fn find(&self, hash: u64, boards: &[Distinct]) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            match self.slots[slot] {
                Self::EMPTY => return Err(slot),
                i if boards[i as usize].hash == hash => return Ok(i as usize),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Takes candidate `c`, at `at` in `chunks`, into `boards`: a board ranks by its best key
    /// and points at the child that goes on (`tags`: each parent's board hash, by index).
    #[inline]
    fn add<C: Code>(
        &mut self,
        (c, at): (&Candidate<C>, At),
        chunks: &[Chunk<C>],
        boards: &mut Vec<Distinct>,
        tags: &[u64],
    ) {
        match self.find(c.hash, boards) {
            Ok(i) => {
                let entry = &mut boards[i];
                entry.key = entry.key.min(c.key);
                if c.replaces(entry.child.of(chunks), tags) {
                    entry.child = at;
                }
            }
            Err(slot) => {
                self.slots[slot] = boards.len() as u32;
                boards.push(Distinct {
                    key: c.key,
                    hash: c.hash,
                    child: at,
                });
            }
        }
    }
}

/// Where a candidate is: its chunk and its index in the chunk's candidates.
#[derive(Clone, Copy)]
struct At {
    chunk: u32,
    index: u32,
}

impl At {
    #[inline]
    fn of<C>(self, chunks: &[Chunk<C>]) -> &Candidate<C> {
        &chunks[self.chunk as usize].candidates[self.index as usize]
    }
}

/// A distinct board of the shortlist: the best key of its candidates, its hash, and where the
/// one that goes on is. The chunks hold that child until the choice is made, so the entry
/// takes 24 bytes rather than a copy of it (40).
#[derive(Clone, Copy)]
struct Distinct {
    key: u64,
    hash: u64,
    child: At,
}

impl Distinct {
    /// The board's place in the search's order ([`super::candidates::Order::board`]).
    #[inline]
    fn rank(&self) -> u128 {
        Order::board(self.key, self.hash)
    }
}

/// What a shortlist is asked for: `width` distinct boards among the candidates under the key at
/// `rank` in the sample, from chunks that kept every candidate up to `bound`.
#[derive(Clone, Copy)]
pub(crate) struct Ask {
    width: usize,
    rank: usize,
    bound: u64,
}

impl Ask {
    /// The first shortlist of a selection of `width` from chunks that kept every candidate.
    #[cfg(test)]
    fn first(width: usize) -> Ask {
        Ask {
            width,
            rank: shortlist_rank(width),
            bound: u64::MAX,
        }
    }
}

/// What the parallel selection made of a depth's candidates.
#[derive(Debug, PartialEq)]
enum Shortlist {
    /// The best `width` distinct boards are chosen.
    Chosen,
    /// The shortlist held fewer distinct boards (given): the caller widens it, or selects from
    /// every candidate.
    TooFewBoards(usize),
    /// The threshold (given) is above the bound under which the chunks kept their candidates.
    BoundTooLow(u64),
}

mod buckets;
mod narrow;

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
