//! The children of a depth before the selection: compact candidates, grouped per expansion
//! task into chunks by the selection's bucket of their state's hash, with the sample of keys
//! the selection sets its threshold from. The expansion writes them ([`super::expand`]) and the
//! selection reads them ([`super::select`]).

use super::code::Code;
use std::cmp::Reverse;

/// One candidate in this many goes into the sample that sets the shortlist's threshold.
pub(crate) const SAMPLE_STEP: usize = 16;

/// The rank in the sample of keys whose key the parallel selection takes as its threshold
/// (when the sample is larger): enough candidates that, after duplicates, `width` distinct
/// boards remain, with a margin over the expected rank so that the shortlist rarely falls short.
pub(crate) fn shortlist_rank(width: usize) -> usize {
    let round = (width + width / 2).max(64);
    round / SAMPLE_STEP * 5 / 4 + 16
}

/// The rank in the sample of a threshold that lets through enough boards for `width`, where
/// the one at `rank` let through only `boards` distinct ones: as many more candidates as
/// boards are missing, with a margin, and at least twice as many. Both selections widen
/// their shortlist so, one rank after the other, and choose alike. (Rounds of twice the
/// width each, taken in key order, kept 7 candidates a state at 1,000,000 states.)
pub(crate) fn wider_rank(rank: usize, boards: usize, width: usize) -> usize {
    let needed = (rank as f64 * 1.25 * width as f64 / boards.max(1) as f64) as usize;
    needed.max(rank.saturating_mul(2)).saturating_add(16)
}

/// Whether a child with board `hash` is in the sample: about one board in [`SAMPLE_STEP`], the
/// same ones wherever they are made, so that the sample is the same however the children are
/// split into tasks and processes.
#[inline]
pub(crate) fn sampled(hash: u64) -> bool {
    ((hash >> 40) as usize).is_multiple_of(SAMPLE_STEP)
}

/// Buckets (by board hash) the shortlist is sorted into by the parallel selection: a fixed
/// number, so the work never depends on the threads.
pub(crate) const BUCKETS: usize = 16;

/// The bucket of a board: every duplicate of a board is in the same one.
#[inline]
pub(crate) fn bucket_of(hash: u64) -> usize {
    (hash >> 32) as usize % BUCKETS
}

/// A child before selection: enough to rank it and rebuild it.
#[derive(Clone, Copy, Default)]
pub(crate) struct Candidate<C = u16> {
    /// The key as an integer that sorts like the float (see [`sortable`]).
    pub(crate) key: u64,
    pub(crate) hash: u64,
    pub(crate) score: u64,
    pub(crate) parent: u32,
    pub(crate) placement: C,
}

impl<C: Code> Candidate<C> {
    /// The board's place in the search's order (see [`Order`]): key, then board hash, as one
    /// integer, so that selecting and sorting compare plain integers. Children with one board
    /// share it but for the key, and the board ranks by its best.
    #[inline]
    pub(crate) fn rank(&self) -> u128 {
        Order::board(self.key, self.hash)
    }

    /// Among the children with one board, the one that goes on is the least of these (see
    /// [`Order`]); `parent_hash` is the board hash of the child's parent.
    #[inline]
    pub(crate) fn keep_order(&self, parent_hash: u64) -> KeepOrder {
        Order::keep(self.score, self.key, self.placement.order(), parent_hash)
    }

    /// Whether this child goes on rather than `kept`, a child with the same board (`tags`: each
    /// parent's board hash, by index). Ties of score are rare, so the tags are read only then.
    #[inline]
    pub(crate) fn replaces(&self, kept: &Candidate<C>, tags: &[u64]) -> bool {
        self.score > kept.score
            || (self.score == kept.score
                && self.keep_order(tags[self.parent as usize])
                    < kept.keep_order(tags[kept.parent as usize]))
    }
}

/// The one order of the search's states, whatever the processes and threads that hold them:
/// every choice the search makes ranks by one of its three keys, the lowest first.
///
/// None of them depends on where a state sits in a beam or on which process holds it, so the
/// one-process search and the distributed search answer with one line, byte for byte.
pub struct Order;

/// A child's place among the children with one board ([`Order::keep`]).
pub(crate) type KeepOrder = (Reverse<u64>, u64, u16, u64);

impl Order {
    /// The boards that go on: by key (lower is better), then by board hash, as one integer so
    /// that selecting and sorting compare plain integers.
    #[inline]
    pub(crate) fn board(key: u64, hash: u64) -> u128 {
        (key as u128) << 64 | hash as u128
    }

    /// Among the children with one board, the one that goes on: the highest score, then the
    /// lowest key, placement rank and parent's board hash.
    #[inline]
    pub(crate) fn keep(score: u64, key: u64, placement: u16, parent_hash: u64) -> KeepOrder {
        (Reverse(score), key, placement, parent_hash)
    }

    /// The answer's state at a depth: the highest score, then the lowest key and board hash.
    #[inline]
    pub(crate) fn best(score: u64, key: u64, hash: u64) -> (Reverse<u64>, u64, u64) {
        (Reverse(score), key, hash)
    }
}

/// One expansion task's children under its bound, with the sample of the keys of all its
/// children that the parallel selection sets its threshold from.
#[derive(Clone)]
pub(crate) struct Chunk<C = u16> {
    /// The children whose key is at most `bound`, in the order they were made, or (once
    /// [`Chunk::group`]ed) grouped by the selection's bucket of their board
    /// ([`Chunk::bucket`]), in the order they were made within a bucket.
    pub(crate) candidates: Vec<Candidate<C>>,
    /// Where each bucket's candidates end, once grouped ([`Chunk::group`]).
    ends: [u32; BUCKETS],
    /// Whether the candidates are grouped by bucket: the expansion of a beam of a few tasks
    /// leaves them in the order they were made, which is all the narrow selection reads.
    grouped: bool,
    /// `key` of every child whose board is [`sampled`], kept or not.
    pub(crate) sample: Vec<u64>,
    /// Candidates held when the chunk last gave back their memory ([`Chunk::release`]).
    released: usize,
    /// The children with the guide's board, kept or not (see [`best_with_board`]).
    pub(crate) guided: Vec<Candidate<C>>,
    /// Children made, kept or not.
    pub(crate) generated: usize,
    /// Children with a key above this were not kept (`u64::MAX`: all were).
    pub(crate) bound: u64,
}

impl<C> Default for Chunk<C> {
    fn default() -> Chunk<C> {
        Chunk {
            candidates: Vec::new(),
            ends: [0; BUCKETS],
            grouped: false,
            sample: Vec::new(),
            released: 0,
            guided: Vec::new(),
            generated: 0,
            bound: u64::MAX,
        }
    }
}

impl<C: Code> Chunk<C> {
    /// Empties the chunk for a new expansion that keeps the children under `bound`.
    pub(crate) fn reset(&mut self, bound: u64) {
        self.candidates.reserve(std::mem::take(&mut self.released));
        self.candidates.clear();
        self.grouped = false;
        // The room of a depth with many more children (a low board) is not kept.
        if self.sample.capacity() > 2 * self.sample.len() + 16 {
            self.sample = Vec::new();
        }
        self.sample.clear();
        self.guided.clear();
        self.generated = 0;
        self.bound = bound;
    }

    /// Gives back the memory of the candidates (until the next expansion, which reserves as
    /// many as there were at once, instead of growing to them).
    pub(crate) fn release(&mut self) {
        self.released = self.candidates.len();
        self.candidates = Vec::new();
    }

    /// Takes child `c`: into the sample, the guide's best and the candidates as they apply.
    #[inline]
    pub(crate) fn push(&mut self, c: Candidate<C>, guide_board: Option<u64>) {
        if sampled(c.hash) {
            self.sample.push(c.key);
        }
        self.generated += 1;
        if guide_board == Some(c.hash) {
            self.guided.push(c);
        }
        if c.key <= self.bound {
            if self.candidates.len() == self.candidates.capacity() {
                self.grow();
            }
            self.candidates.push(c);
        }
    }

    /// Room for more candidates. Under a bound, a quarter more, not twice as many: those
    /// candidates are most of the search's peak, and each chunk starts with room for as many as
    /// it last kept. (A probe keeps every child only until the bound is known.)
    #[cold]
    fn grow(&mut self) {
        let more = match self.bound {
            u64::MAX => self.candidates.len().max(64),
            _ => self.candidates.len() / 4 + 16,
        };
        self.candidates.reserve_exact(more);
    }

    /// The candidates of board bucket `bucket` (the chunk is grouped).
    pub(crate) fn bucket(&self, bucket: usize) -> &[Candidate<C>] {
        &self.candidates[self.bucket_start(bucket)..self.ends[bucket] as usize]
    }

    /// Where the candidates of board bucket `bucket` start (the chunk is grouped).
    pub(crate) fn bucket_start(&self, bucket: usize) -> usize {
        debug_assert!(
            self.grouped,
            "a chunk's buckets are read once it is grouped"
        );
        match bucket {
            0 => 0,
            _ => self.ends[bucket - 1] as usize,
        }
    }

    /// Groups the candidates by bucket (keeping their order within one) into a buffer of
    /// their exact size: between the expansion and the selection, the candidates of all
    /// chunks are most of the search's memory.
    pub(crate) fn group(&mut self) {
        let mut starts = [0u32; BUCKETS];
        for c in &self.candidates {
            starts[bucket_of(c.hash)] += 1;
        }
        let mut at = 0;
        for (start, end) in starts.iter_mut().zip(&mut self.ends) {
            at += *start;
            *end = at;
            *start = at - *start;
        }
        let mut grouped = vec![Candidate::default(); self.candidates.len()];
        for &c in &self.candidates {
            let start = &mut starts[bucket_of(c.hash)];
            grouped[*start as usize] = c;
            *start += 1;
        }
        self.candidates = grouped;
        self.grouped = true;
        // The sample lies beside the candidates until the selection: without the slack its
        // doubling left (a third of it, on average).
        if self.sample.capacity() > self.sample.len() + self.sample.len() / 4 + 16 {
            self.sample.shrink_to_fit();
        }
    }

    /// Drops the candidates above `bound`, and the memory they held.
    pub(crate) fn restrict(&mut self, bound: u64) {
        self.bound = bound;
        self.candidates.retain(|c| c.key <= bound);
        self.group();
    }

    #[cfg(test)]
    pub(crate) fn of(candidates: &[Candidate<C>]) -> Chunk<C> {
        let mut chunk = Chunk::made(candidates);
        chunk.group();
        chunk
    }

    /// The chunk of `candidates` as the expansion made them, not grouped.
    #[cfg(test)]
    pub(crate) fn made(candidates: &[Candidate<C>]) -> Chunk<C> {
        let mut chunk = Chunk::default();
        chunk.reset(u64::MAX);
        for &c in candidates {
            chunk.push(c, None);
        }
        chunk
    }
}

/// The candidate with board `hash` that the selection would keep (see [`Order`]), whichever
/// task made it; `tags`: each parent's board hash, by index.
pub(crate) fn best_with_board<C: Code>(
    candidates: &[Candidate<C>],
    hash: u64,
    tags: &[u64],
) -> Option<Candidate<C>> {
    let with_board = candidates.iter().filter(|c| c.hash == hash);
    with_board
        .min_by_key(|c| c.keep_order(tags[c.parent as usize]))
        .copied()
}

/// Maps a float to an integer with the same order (negative floats below positive ones).
#[inline]
pub(crate) fn sortable(key: f64) -> u64 {
    let bits = key.to_bits();
    // Negative floats are flipped whole, the others get the sign bit: by a mask rather than
    // a branch, since keys of either sign come in no order the branch predictor can follow.
    let negative = ((bits as i64) >> 63) as u64;
    bits ^ (negative | 1 << 63)
}

/// The float a [`sortable`] key stands for.
#[inline]
pub(crate) fn key_value(key: u64) -> f64 {
    let negative = key >> 63 == 0;
    f64::from_bits(if negative { !key } else { key ^ 1 << 63 })
}

#[cfg(test)]
mod tests {
    use super::{key_value, sortable};
    use crate::test_rng::SplitMix64;

    /// The keys sort as the floats do, across signs, zeros, infinities and magnitudes.
    #[test]
    fn sortable_keys_keep_the_floats_order() {
        let mut rng = SplitMix64::new(3);
        let mut floats = vec![
            f64::NEG_INFINITY,
            -1e300,
            -1.0,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            1.0,
            1e300,
            f64::INFINITY,
        ];
        for _ in 0..10_000 {
            let magnitude = (rng.below(2_000_001) as f64 - 1e6) / 7.0;
            floats.push(magnitude * 10f64.powi(rng.below(30) as i32 - 15));
        }
        for pair in floats.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let float_order = a.partial_cmp(&b).unwrap();
            // -0.0 and 0.0 are equal floats; the keys put the negative zero first.
            if a == b && a.is_sign_negative() != b.is_sign_negative() {
                assert_eq!(sortable(a) < sortable(b), a.is_sign_negative());
                continue;
            }
            assert_eq!(sortable(a).cmp(&sortable(b)), float_order, "{a} {b}");
            assert_eq!(key_value(sortable(a)).to_bits(), a.to_bits());
        }
    }
}
