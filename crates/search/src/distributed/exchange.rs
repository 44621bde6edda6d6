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

    fn put(&self, out: &mut Vec<u8>) {
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
/// for it.
#[derive(Clone, Copy)]
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
    let mut slices: Vec<Vec<&mut [u8]>> = (0..chunks.len()).map(|_| Vec::new()).collect();
    let mut rest = &mut bytes[..];
    for p in 0..processes {
        for (chunk_slices, count) in slices.iter_mut().zip(&counts) {
            let (slice, tail) = std::mem::take(&mut rest).split_at_mut(count[p] * each);
            chunk_slices.push(slice);
            rest = tail;
        }
    }
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
            to[p][at[p]..at[p] + each].copy_from_slice(&one);
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
        const PIECE: u32 = 4096;
        let is_chosen = |child: u32| marks[child as usize / 64] >> (child % 64) & 1 == 1;
        let each = Head::<C>::BYTES;
        // Each piece: its round's bytes, its first child, its children, its chosen ones.
        let mut pieces: Vec<(&[u8], u32, u32, usize)> = Vec::new();
        for (first, bytes) in self.rounds() {
            let children = (bytes.len() / each) as u32;
            for from in (0..children).step_by(PIECE as usize) {
                let to = (from + PIECE).min(children);
                let count = (first + from..first + to).filter(|&c| is_chosen(c)).count();
                pieces.push((
                    &bytes[from as usize * each..to as usize * each],
                    first + from,
                    to - from,
                    count,
                ));
            }
        }
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

    /// Each round's children, with the number of its first.
    fn rounds(&self) -> impl Iterator<Item = (u32, &[u8])> {
        self.firsts
            .iter()
            .copied()
            .zip(self.rounds.iter().map(|r| &r[..]))
    }
}

/// A child that reached a process, as [`distinct`] sorts them: by board hash.
#[derive(Clone, Copy)]
pub(super) struct Arrival {
    hash: u64,
    key: u64,
    child: u32,
}

/// Where the pieces that [`distinct`] groups in parallel start and end: `order` (sorted by
/// hash) cut into pieces of about one size, each at the start of a run of one hash.
fn run_cuts(order: &[Arrival]) -> Vec<usize> {
    let pieces = 4 * rayon::current_num_threads();
    let mut cuts = vec![0];
    for k in 1..pieces {
        let mut at = (k * order.len() / pieces).max(cuts[cuts.len() - 1]);
        while at > 0 && at < order.len() && order[at].hash == order[at - 1].hash {
            at += 1;
        }
        cuts.push(at);
    }
    cuts.push(order.len());
    cuts
}

/// The distinct boards of `arrivals`, in order of hash, each with its best key and the child
/// that goes on. `order` holds each child's hash, key and index: sorted by hash, it gives every
/// board's best key without a look at the arrivals, which are read (at random places) only for
/// the boards that came more than once.
pub(super) fn distinct<C: Code>(arrivals: &Arrivals, order: &mut Vec<Arrival>) -> Vec<Distinct> {
    let each = Head::<C>::BYTES;
    order.clear();
    order.reserve_exact(arrivals.len() as usize);
    for (first, bytes) in arrivals.rounds() {
        order.par_extend(
            (bytes.par_chunks_exact(each).enumerate()).map(|(i, bytes)| Arrival {
                hash: u64::take(&bytes[8..16]),
                key: u64::take(&bytes[..8]),
                child: first + i as u32,
            }),
        );
    }
    // By hash alone: a board's best key is the least of its run's, whatever their order.
    order.par_sort_unstable_by_key(|a| a.hash);
    let cuts = run_cuts(order);
    // Each piece's boards counted first and then written in place, into one buffer of their
    // exact size: pieces grown by doubling and then concatenated would hold them three times.
    let counts: Vec<usize> = (cuts.par_windows(2))
        .map(|cut| {
            let run = &order[cut[0]..cut[1]];
            run.windows(2).filter(|w| w[0].hash != w[1].hash).count() + usize::from(!run.is_empty())
        })
        .collect();
    let mut boards = vec![
        Distinct {
            key: 0,
            hash: 0,
            child: 0
        };
        counts.iter().sum()
    ];
    let slices = cut(&mut boards, counts.iter().copied());
    (cuts.par_windows(2).zip(slices)).for_each(|(cut, out)| {
        let mut at = 0usize;
        // The order of the child kept for the last board, read once it has a rival.
        let mut kept: Option<KeepOrder> = None;
        for &Arrival {
            hash,
            key,
            child: i,
        } in &order[cut[0]..cut[1]]
        {
            match at.checked_sub(1).map(|last| &mut out[last]) {
                Some(b) if b.hash == hash => {
                    b.key = b.key.min(key);
                    let a = arrivals.head::<C>(i).keep_order();
                    let best =
                        *kept.get_or_insert_with(|| arrivals.head::<C>(b.child).keep_order());
                    if a < best {
                        b.child = i;
                        kept = Some(a);
                    }
                }
                _ => {
                    kept = None;
                    out[at] = Distinct {
                        key,
                        hash,
                        child: i,
                    };
                    at += 1;
                }
            }
        }
    });
    boards
}
