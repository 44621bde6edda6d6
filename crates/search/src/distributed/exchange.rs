//! What the processes of a distributed search exchange each depth: the children under the
//! threshold, each with its board, sent to the process its board hashes to
//! ([`outbox`]); and what a process makes of those that reach it: its distinct boards
//! ([`distinct`]).

use super::super::candidates::{Chunk, KeepOrder, Order};
use super::super::code::Code;
use super::super::comm::Parcels;
use super::super::expand::{Node, Step};
use super::super::game::Game;
use super::super::wire::{Reader, Wire};
use rayon::prelude::*;

/// A child as it reaches its board's owner: what ranks it ([`Head`]) and its state.
#[derive(Clone, Copy)]
pub(super) struct Arrived<S, C> {
    pub(super) head: Head<C>,
    pub(super) state: S,
}

/// What ranks a child and where it comes from: all of it but its state, which is read only
/// for the children that go on.
#[derive(Clone, Copy)]
pub(super) struct Head<C> {
    pub(super) key: u64,
    pub(super) hash: u64,
    pub(super) score: u64,
    /// The parent's index in its depth, across the processes (its trail index).
    pub(super) parent: u32,
    /// The parent's board hash: ties between parents are broken by it.
    pub(super) tag: u64,
    pub(super) code: C,
}

impl<C: Code> Head<C> {
    const BYTES: usize = 8 + 8 + 8 + 4 + 8 + C::BYTES;

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

impl<S: Wire, C: Code> Arrived<S, C> {
    pub(super) const BYTES: usize = Head::<C>::BYTES + S::BYTES;

    fn put(&self, out: &mut Vec<u8>) {
        self.head.put(out);
        self.state.put(out);
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

/// The process a board belongs to.
#[inline]
fn owner(hash: u64, processes: usize) -> usize {
    (hash >> 48) as usize % processes
}

/// The children of `chunks` with a key over `above` (if any) and at most `threshold`, each
/// with its state, in one part per owner, in the chunks' order: counted first, then written
/// in place by the chunks in parallel.
pub(super) fn outbox<G: Game>(
    step: &Step<G>,
    parents: &[Node<G::State>],
    tags: &[u64],
    chunks: &[Chunk<G::Code>],
    (above, threshold): (Option<u64>, u64),
    processes: usize,
) -> Parcels {
    let each = Arrived::<G::State, G::Code>::BYTES;
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
            let parent = &parents[c.parent as usize];
            let parent_state = parent.state;
            let child = Arrived {
                head: Head {
                    key: c.key,
                    hash: c.hash,
                    score: c.score,
                    parent: parent.trail,
                    tag: tags[c.parent as usize],
                    code: c.placement,
                },
                state: step.game.apply(step.at, &parent_state, &c.placement),
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

/// Child `i` of the children that reached a process, one after the other as they came:
/// decoded where it is read, so that they are held once, as the exchange brought them.
#[inline]
pub(super) fn arrival<S: Wire, C: Code>(arrivals: &[u8], i: u32) -> Arrived<S, C> {
    let each = Arrived::<S, C>::BYTES;
    let mut r = Reader::new(&arrivals[i as usize * each..(i as usize + 1) * each]);
    Arrived {
        head: Head::take(&mut r),
        state: r.read(),
    }
}

/// What ranks child `i` of the arrivals (see [`arrival`]), its state left unread.
#[inline]
pub(super) fn head<S: Wire, C: Code>(arrivals: &[u8], i: u32) -> Head<C> {
    let at = i as usize * Arrived::<S, C>::BYTES;
    Head::take(&mut Reader::new(&arrivals[at..at + Head::<C>::BYTES]))
}

/// The distinct boards of `arrivals` (see [`arrival`]), in order of hash, each with its best
/// key and the child that goes on. `order` holds each child's hash, key and index: sorted, it
/// gives every board's best key without a look at the arrivals, which are read (at random
/// places) only for the boards that came more than once.
pub(super) fn distinct<S: Wire + Copy + Send + Sync, C: Code>(
    arrivals: &[u8],
    order: &mut Vec<(u64, u64, u32)>,
) -> Vec<Distinct> {
    let each = Arrived::<S, C>::BYTES;
    order.clear();
    order.par_extend(
        (arrivals.par_chunks_exact(each).enumerate())
            .map(|(i, bytes)| (u64::take(&bytes[8..16]), u64::take(&bytes[..8]), i as u32)),
    );
    order.par_sort_unstable();
    // Runs of one hash, cut into pieces at the start of a run, grouped in parallel.
    let pieces = 4 * rayon::current_num_threads();
    let mut cuts = vec![0];
    for k in 1..pieces {
        let mut at = (k * order.len() / pieces).max(cuts[cuts.len() - 1]);
        while at > 0 && at < order.len() && order[at].0 == order[at - 1].0 {
            at += 1;
        }
        cuts.push(at);
    }
    cuts.push(order.len());
    // Each piece's boards counted first and then written in place, into one buffer of their
    // exact size: pieces grown by doubling and then concatenated would hold them three times.
    let counts: Vec<usize> = (cuts.par_windows(2))
        .map(|cut| {
            let run = &order[cut[0]..cut[1]];
            run.windows(2).filter(|w| w[0].0 != w[1].0).count() + usize::from(!run.is_empty())
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
    let mut slices = Vec::with_capacity(counts.len());
    let mut rest = &mut boards[..];
    for &count in &counts {
        let (slice, tail) = std::mem::take(&mut rest).split_at_mut(count);
        slices.push(slice);
        rest = tail;
    }
    (cuts.par_windows(2).zip(slices)).for_each(|(cut, out)| {
        let mut at = 0usize;
        for &(hash, key, i) in &order[cut[0]..cut[1]] {
            match at.checked_sub(1).map(|last| &mut out[last]) {
                // A run starts with its lowest key.
                Some(b) if b.hash == hash => {
                    let (a, kept) = (head::<S, C>(arrivals, i), head::<S, C>(arrivals, b.child));
                    if a.keep_order() < kept.keep_order() {
                        b.child = i;
                    }
                }
                _ => {
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
