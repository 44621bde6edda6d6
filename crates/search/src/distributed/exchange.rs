//! What the processes of a distributed search exchange each depth: the children under the
//! threshold, each sent without its state to the process its board hashes to ([`outbox`]);
//! and what a process makes of those that reach it: its distinct boards ([`distinct`]). The
//! states of the children chosen are built afterwards, where their parents are
//! ([`super::fetch`]).

use super::super::candidates::{Chunk, KeepOrder, Order};
use super::super::code::Code;
use super::super::comm::Parcels;
use super::super::wire::{Reader, Wire};
use super::fetch::Wanted;
use rayon::prelude::*;

/// A child as it reaches its board's owner: what ranks it and where it comes from.
#[derive(Clone, Copy)]
pub(super) struct Head<C> {
    pub(super) key: u64,
    pub(super) hash: u64,
    pub(super) score: u64,
    /// The parent's index in the beam of the process that sent the child.
    pub(super) parent: u32,
    /// The parent's board hash: ties between parents are broken by it.
    pub(super) tag: u64,
    pub(super) code: C,
}

impl<C: Code> Head<C> {
    pub(super) const BYTES: usize = 8 + 8 + 8 + 4 + 8 + C::BYTES;

    pub(super) fn put(&self, out: &mut Vec<u8>) {
        for v in [self.key, self.hash, self.score] {
            v.put(out);
        }
        self.parent.put(out);
        self.tag.put(out);
        self.code.put(out);
    }

    fn take(r: &mut Reader) -> Self {
        Head {
            key: r.read(),
            hash: r.read(),
            score: r.read(),
            parent: r.read(),
            tag: r.read(),
            code: r.read(),
        }
    }

    /// Among the children with one board, the one that goes on ranks lowest here (the
    /// search's one order, [`Order`]).
    #[inline]
    pub(super) fn keep_order(&self) -> KeepOrder {
        Order::keep(self.score, self.key, self.code.order(), self.tag)
    }
}

/// A chosen child: what its state is fetched with ([`Wanted`]), the key it came with and its
/// board's hash.
#[derive(Clone, Copy)]
pub(super) struct Chosen<C> {
    pub(super) wanted: Wanted<C>,
    pub(super) key: u64,
    pub(super) hash: u64,
}

impl<C: Code> From<(Head<C>, u32)> for Chosen<C> {
    /// A child's head and the process it came from.
    fn from((h, process): (Head<C>, u32)) -> Chosen<C> {
        let wanted = Wanted {
            process,
            parent: h.parent,
            score: h.score,
            code: h.code,
        };
        Chosen {
            wanted,
            key: h.key,
            hash: h.hash,
        }
    }
}

/// A distinct board at a process: its rank (best key, then hash) and the child that stands
/// for it (and, inside [`distinct`], each child that reached the process: its key, its
/// board's hash and its number).
#[derive(Clone, Copy, Default)]
pub(super) struct Distinct {
    pub(super) key: u64,
    pub(super) hash: u64,
    pub(super) child: u32,
}

/// `buffer` cut into consecutive slices of the lengths `lens`, for parallel writers that
/// counted what each writes first.
fn cut<T>(buffer: &mut [T], lens: impl Iterator<Item = usize>) -> Vec<&mut [T]> {
    let mut rest = buffer;
    lens.map(|len| {
        let (slice, tail) = std::mem::take(&mut rest).split_at_mut(len);
        rest = tail;
        slice
    })
    .collect()
}

/// The process a board belongs to.
#[inline]
fn owner(hash: u64, processes: usize) -> usize {
    (hash >> 48) as usize % processes
}

/// The children of `chunks` with a key over `above` (if any) and at most `threshold`, in one
/// part per owner, in the chunks' order: counted first, then written in place by the chunks
/// in parallel. `tags`: the parents' board hashes.
pub(super) fn outbox<C: Code>(
    tags: &[u64],
    chunks: &[Chunk<C>],
    (above, threshold): (Option<u64>, u64),
    processes: usize,
) -> Parcels {
    let each = Head::<C>::BYTES;
    let wanted = |key: u64| key <= threshold && above.is_none_or(|a| key > a);
    let counts: Vec<Vec<usize>> = (chunks.par_iter())
        .map(|chunk| {
            let mut count = vec![0; processes];
            for c in chunk.candidates.iter().filter(|c| wanted(c.key)) {
                count[owner(c.hash, processes)] += 1;
            }
            count
        })
        .collect();
    let lens: Vec<usize> = (0..processes)
        .map(|p| counts.iter().map(|count| count[p] * each).sum())
        .collect();
    let mut bytes = vec![0u8; lens.iter().sum()];
    // Each chunk's slice of each owner's part.
    let slices = cut_by_target(&mut bytes, &counts, processes, each);
    (slices.into_par_iter().zip(chunks)).for_each(|(mut to, chunk)| {
        let mut one = Vec::with_capacity(each);
        let mut at = vec![0; processes];
        for c in chunk.candidates.iter().filter(|c| wanted(c.key)) {
            let child = Head {
                key: c.key,
                hash: c.hash,
                score: c.score,
                parent: c.parent,
                tag: tags[c.parent as usize],
                code: c.placement,
            };
            one.clear();
            child.put(&mut one);
            let p = owner(c.hash, processes);
            to[p][at[p]..at[p] + each].copy_from_slice(&one[..each]);
            at[p] += each;
        }
    });
    Parcels { bytes, lens }
}

/// The children that reached a process, as the exchange's rounds brought them: each round's
/// bytes kept as they came, since joining them would copy them, and hold the old and the new
/// buffer at once while it grows; the children are numbered one after the other across the
/// rounds and decoded where they are read ([`Arrivals::head`]), so they are held once.
#[derive(Default)]
pub(super) struct Arrivals {
    rounds: Vec<Vec<u8>>,
    /// The number of each round's first child.
    firsts: Vec<u32>,
    /// Where each run of children came from: (the number of its first child, its process).
    sources: Vec<(u32, u32)>,
    len: u32,
}

impl Arrivals {
    /// Takes a round's children, `each` bytes a child, one part from each process.
    pub(super) fn push(&mut self, received: Parcels, each: usize) {
        if received.bytes.is_empty() {
            return;
        }
        self.firsts.push(self.len);
        for (process, len) in received.lens.iter().enumerate() {
            if *len > 0 {
                self.sources.push((self.len, process as u32));
                self.len += (len / each) as u32;
            }
        }
        self.rounds.push(received.bytes);
    }

    /// Children held.
    pub(super) fn len(&self) -> u32 {
        self.len
    }

    /// Child `i`.
    #[inline]
    pub(super) fn head<C: Code>(&self, i: u32) -> Head<C> {
        let round = self.firsts.partition_point(|&first| first <= i) - 1;
        let at = (i - self.firsts[round]) as usize * Head::<C>::BYTES;
        Head::take(&mut Reader::new(
            &self.rounds[round][at..at + Head::<C>::BYTES],
        ))
    }

    /// The process child `i` came from.
    #[inline]
    pub(super) fn process(&self, i: u32) -> u32 {
        let run = self.sources.partition_point(|&(first, _)| first <= i) - 1;
        self.sources[run].1
    }

    /// A bit for each child, set for those of `chosen` (by number), for [`Arrivals::chosen`].
    pub(super) fn marks(&self, chosen: impl Iterator<Item = u32>) -> Vec<u64> {
        let mut marks = vec![0u64; (self.len as usize).div_ceil(64)];
        for child in chosen {
            marks[child as usize / 64] |= 1 << (child % 64);
        }
        marks
    }

    /// The heads of the children `marks` sets ([`Arrivals::marks`]), in the order they
    /// arrived, each with the process it came from: read in one pass over the rounds, where
    /// reading them one by one in the order chosen would miss the cache at most of them. Pieces
    /// of the rounds are counted first and then read in parallel, each into its place of one
    /// buffer of the exact size.
    pub(super) fn chosen<C: Code>(&self, marks: &[u64]) -> Vec<Chosen<C>> {
        let is_chosen = |child: u32| marks[child as usize / 64] >> (child % 64) & 1 == 1;
        let each = Head::<C>::BYTES;
        // Each piece: its bytes, its first child, its children, its chosen ones.
        let pieces: Vec<(&[u8], u32, u32, usize)> = (self.pieces(each))
            .map(|(first, bytes)| {
                let children = (bytes.len() / each) as u32;
                let count = (first..first + children).filter(|&c| is_chosen(c)).count();
                (bytes, first, children, count)
            })
            .collect();
        let blank = Chosen::from((Head::take(&mut Reader::new(&vec![0; each])), 0));
        let mut heads = vec![blank; pieces.iter().map(|p| p.3).sum()];
        let slices = cut(&mut heads, pieces.iter().map(|p| p.3));
        (pieces.par_iter().zip(slices)).for_each(|(&(bytes, first, children, _), out)| {
            let mut at = 0;
            for i in 0..children {
                if is_chosen(first + i) {
                    let b = &bytes[i as usize * each..(i as usize + 1) * each];
                    out[at] =
                        Chosen::from((Head::take(&mut Reader::new(b)), self.process(first + i)));
                    at += 1;
                }
            }
        });
        heads
    }

    /// The children in pieces of at most [`PIECE`], for parallel passes over them: each
    /// piece's bytes, with the number of its first child.
    fn pieces(&self, each: usize) -> impl Iterator<Item = (u32, &[u8])> {
        (self.firsts.iter().zip(&self.rounds)).flat_map(move |(&first, bytes)| {
            (bytes.chunks(PIECE * each).enumerate())
                .map(move |(i, piece)| (first + (i * PIECE) as u32, piece))
        })
    }
}

/// Children a piece of the arrivals holds ([`Arrivals::pieces`]).
const PIECE: usize = 4096;

/// [`distinct`]'s buckets: enough that each holds about this many children, at most
/// [`MAX_BUCKETS`] (a bucket is sorted where it lies in the cache, and each part of the
/// arrivals keeps a count and a slice per bucket).
const BUCKET_CHILDREN: usize = 128;
const MAX_BUCKETS: usize = 1024;

/// The bucket of a board of hash `hash` among `buckets` (a power of two): bits of the hash
/// below the 16 that pick its owner ([`owner`]), which the boards of one process share.
#[inline]
fn bucket(hash: u64, buckets: usize) -> usize {
    (hash >> 32) as usize & (buckets - 1)
}

/// `buffer` cut into each part's slice of each target, the targets one after the other and
/// the parts in order within each: `counts[part][target]` items of `each` elements. For
/// parallel writers, one a part, that counted what they write to each target first.
fn cut_by_target<'b, T>(
    buffer: &'b mut [T],
    counts: &[Vec<usize>],
    targets: usize,
    each: usize,
) -> Vec<Vec<&'b mut [T]>> {
    let mut slices: Vec<Vec<&mut [T]>> = counts.iter().map(|_| Vec::new()).collect();
    let mut rest = buffer;
    for target in 0..targets {
        for (part, count) in slices.iter_mut().zip(counts) {
            let (slice, tail) = std::mem::take(&mut rest).split_at_mut(count[target] * each);
            part.push(slice);
            rest = tail;
        }
    }
    slices
}

/// Every arrival's key, hash and number, bucket by bucket, each bucket's in the order they
/// arrived (whatever the threads: the parts only split the work), and each bucket's size.
/// Counted first, then written in place by parts of the arrivals in parallel, into one buffer
/// of their exact size.
fn by_bucket<C: Code>(arrivals: &Arrivals, buckets: usize) -> (Vec<Distinct>, Vec<usize>) {
    let each = Head::<C>::BYTES;
    let pieces: Vec<(u32, &[u8])> = arrivals.pieces(each).collect();
    let parts = pieces.len().clamp(1, 8 * rayon::current_num_threads());
    let parts: Vec<&[(u32, &[u8])]> = pieces.chunks(pieces.len().div_ceil(parts).max(1)).collect();
    let hash_of = |child: &[u8]| u64::take(&child[8..16]);
    let counts: Vec<Vec<usize>> = (parts.par_iter())
        .map(|part| {
            let mut count = vec![0; buckets];
            for (_, bytes) in part.iter() {
                for child in bytes.chunks_exact(each) {
                    count[bucket(hash_of(child), buckets)] += 1;
                }
            }
            count
        })
        .collect();
    let mut order = vec![Distinct::default(); arrivals.len() as usize];
    let slices = cut_by_target(&mut order, &counts, buckets, 1);
    (slices.into_par_iter().zip(&parts)).for_each(|(mut to, part)| {
        let mut at = vec![0; buckets];
        for &(first, bytes) in part.iter() {
            for (i, child) in bytes.chunks_exact(each).enumerate() {
                let hash = hash_of(child);
                let b = bucket(hash, buckets);
                to[b][at[b]] = Distinct {
                    hash,
                    key: u64::take(&child[..8]),
                    child: first + i as u32,
                };
                at[b] += 1;
            }
        }
    });
    let lens = (0..buckets)
        .map(|b| counts.iter().map(|count| count[b]).sum())
        .collect();
    (order, lens)
}

/// Consecutive buckets of the sizes `lens` in groups of about one size, `pieces` or fewer,
/// for the passes over them in parallel: the buckets of each group.
fn groups(lens: &[usize], pieces: usize) -> Vec<&[usize]> {
    let size = lens.iter().sum::<usize>().div_ceil(pieces).max(1);
    let mut groups = Vec::new();
    let (mut from, mut held) = (0, 0);
    for (b, &len) in lens.iter().enumerate() {
        held += len;
        if held >= size {
            groups.push(&lens[from..=b]);
            (from, held) = (b + 1, 0);
        }
    }
    if from < lens.len() {
        groups.push(&lens[from..]);
    }
    groups
}

/// The distinct boards of `arrivals`, each with its best key and the child that goes on, in
/// no order a caller may rely on. Each child's key, hash and number are bucketed by bits of
/// the hash and each bucket sorted by hash where it lies in the cache; the runs of one hash
/// are then folded in place into their board, so the boards take the children's buffer. A
/// board's best key needs no look at the arrivals, which are read (at random places) only for
/// the boards that came more than once.
pub(super) fn distinct<C: Code>(arrivals: &Arrivals) -> Vec<Distinct> {
    let buckets = (arrivals.len() as usize / BUCKET_CHILDREN)
        .next_power_of_two()
        .min(MAX_BUCKETS);
    let (mut order, lens) = by_bucket::<C>(arrivals, buckets);
    // A board's children share its bucket: no run of one board spans two groups.
    let groups = groups(&lens, 4 * rayon::current_num_threads());
    let sizes: Vec<usize> = groups.iter().map(|g| g.iter().sum()).collect();
    let boards: Vec<usize> = (cut(&mut order, sizes.iter().copied()).into_par_iter())
        .zip(&groups)
        .map(|(part, lens)| {
            let mut rest = &mut part[..];
            for &len in lens.iter() {
                let (bucket, tail) = std::mem::take(&mut rest).split_at_mut(len);
                bucket.sort_unstable_by_key(|a| a.hash);
                rest = tail;
            }
            fold_runs::<C>(part, arrivals)
        })
        .collect();
    // Each group's boards moved up after the last group's.
    let (mut from, mut to) = (0, 0);
    for (size, boards) in sizes.into_iter().zip(boards) {
        order.copy_within(from..from + boards, to);
        (from, to) = (from + size, to + boards);
    }
    order.truncate(to);
    order.shrink_to_fit();
    order
}

/// `children` (sorted by hash) folded into their boards, in place: each board's best key and
/// the child that goes on (the search's one order) at the front, one a board; answers how many.
fn fold_runs<C: Code>(children: &mut [Distinct], arrivals: &Arrivals) -> usize {
    let mut boards = 0usize;
    // The order of the child kept for the last board, read once it has a rival.
    let mut kept: Option<KeepOrder> = None;
    for i in 0..children.len() {
        let Distinct { key, hash, child } = children[i];
        match boards.checked_sub(1).map(|last| &mut children[last]) {
            Some(b) if b.hash == hash => {
                b.key = b.key.min(key);
                let a = arrivals.head::<C>(child).keep_order();
                let best = *kept.get_or_insert_with(|| arrivals.head::<C>(b.child).keep_order());
                if a < best {
                    b.child = child;
                    kept = Some(a);
                }
            }
            _ => {
                kept = None;
                children[boards] = Distinct { key, hash, child };
                boards += 1;
            }
        }
    }
    boards
}
