//! The selection of a beam of a few tasks' states (the olympiad's width of 50 makes about
//! 1,700 children a depth): the parallel selection's choice, in its order, made in one serial
//! pass over the children as the expansion made them. Its buckets, bins and tasks cost more
//! than they save at that size, and the expansion then leaves the children ungrouped
//! ([`super::few_tasks`]).

use super::{threshold, Ask, At, Distinct, Seen, Shortlist};
use crate::candidates::{bucket_of, Candidate, Chunk, BUCKETS};
use crate::code::Code;

/// The narrow selection's buffers, kept from depth to depth.
#[derive(Default)]
pub(super) struct Narrow {
    seen: Seen,
    /// The distinct boards under the threshold, in the order first seen.
    boards: Vec<Distinct>,
    ranks: Vec<u128>,
    sample: Vec<u64>,
    /// One chunk's candidates under the threshold, by index.
    under: Vec<u32>,
}

impl Narrow {
    /// What [`super::Buckets::select`] makes of `chunks` (grouped or not), the same boards
    /// carrying the same children in the same order: the threshold from the same sample, a
    /// board's child the one order's best of its candidates under it, and the best `width`
    /// boards by bucket, each bucket's in the order first seen.
    pub(crate) fn select<C: Code>(
        &mut self,
        chunks: &[Chunk<C>],
        ask: Ask,
        tags: &[u64],
        chosen: &mut Vec<Candidate<C>>,
    ) -> Shortlist {
        let Ask { width, rank, bound } = ask;
        let Some((_, threshold, _)) = threshold(&mut self.sample, chunks, rank) else {
            return Shortlist::TooFewBoards(0);
        };
        if threshold > bound {
            return Shortlist::BoundTooLow(threshold);
        }
        let kept: usize = chunks.iter().map(|c| c.candidates.len()).sum();
        self.seen.reset(kept);
        self.boards.clear();
        for (chunk, task) in chunks.iter().enumerate() {
            let candidates = &task.candidates;
            // The candidates under the threshold, by index, gathered without a branch per
            // candidate: which of them pass is as good as random, and a mispredicted branch
            // for each costs more than the rest of the selection.
            if self.under.len() < candidates.len() {
                self.under.resize(candidates.len(), 0);
            }
            let mut n = 0;
            for (i, c) in candidates.iter().enumerate() {
                self.under[n] = i as u32;
                n += usize::from(c.key <= threshold);
            }
            // Grouping keeps the order of a bucket's candidates: the boards of one bucket
            // are first seen in the same order either way.
            for &index in &self.under[..n] {
                let at = At {
                    chunk: chunk as u32,
                    index,
                };
                let c = &candidates[index as usize];
                (self.seen).add((c, at), chunks, &mut self.boards, tags);
            }
        }
        if self.boards.len() < width {
            return Shortlist::TooFewBoards(self.boards.len());
        }
        // Ranks are distinct (each board has its own hash): exactly `width` are at or under
        // the `width`-th.
        self.ranks.clear();
        self.ranks.extend(self.boards.iter().map(Distinct::rank));
        let cutoff = *self.ranks.select_nth_unstable(width - 1).1;
        // The boards at or under it, by index (without a branch each, as above), then
        // written bucket by bucket.
        if self.under.len() < self.boards.len() {
            self.under.resize(self.boards.len(), 0);
        }
        let mut n = 0;
        for (i, e) in self.boards.iter().enumerate() {
            self.under[n] = i as u32;
            n += usize::from(e.rank() <= cutoff);
        }
        let kept = &self.under[..n];
        let mut starts = [0usize; BUCKETS];
        for &i in kept {
            starts[bucket_of(self.boards[i as usize].hash)] += 1;
        }
        let mut at = 0;
        for start in &mut starts {
            (*start, at) = (at, at + *start);
        }
        chosen.clear();
        chosen.resize(width, Candidate::default());
        for &i in kept {
            let c = *self.boards[i as usize].child.of(chunks);
            let start = &mut starts[bucket_of(c.hash)];
            chosen[*start] = c;
            *start += 1;
        }
        Shortlist::Chosen
    }
}
