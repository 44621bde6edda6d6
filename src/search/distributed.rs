//! The beam search over several processes ([`Comm`]: MPI's, or threads of one process), whose
//! answer is the same whatever their number and their threads.
//!
//! Each process holds a share of the beam. Each depth:
//! 1. every process expands its states as the one-process search does ([`Beam::expand`]),
//!    sampling the children by board ([`super::candidates::sampled`]);
//! 2. the shortlist's threshold is the same rank of the processes' joint sample as there,
//!    found exactly by counting in bins across the processes ([`kth`]);
//! 3. every child under the threshold goes, with its state, to the process its board hashes to
//!    (its owner), in one all-to-all exchange, so that the duplicates of a board meet and are
//!    dropped there;
//! 4. the `width`-th best board is found across the processes as the threshold was, and each
//!    owner keeps its boards up to it: they are its states at the next depth;
//! 5. process 0 keeps the trail: each process sends it the (parent, placement) step of each of
//!    its new states, in the order of the processes; there the trail is compacted and its
//!    decided depths handed out as in the one-process search.
//!
//! Whatever the number of processes, the candidates, the threshold, the boards and the cutoff
//! are the same: ties of key are broken by board hash, and among the children with one board
//! the one that goes on has the highest score, then the lowest key, the lowest placement rank
//! and the lowest parent hash. None of that depends on where a state is held, so the answer is
//! the same line. (The one-process search breaks ties by position in its beam instead, and
//! samples by position: its line may differ from this one's where ties fall.)

use super::candidates::{shortlist_rank, Chunk};
use super::comm::{gather_u64, sum, Comm, Metered, Parcels};
use super::expand::{Beam, Node, Step};
use super::game::{Code, Game};
use super::trail::{Best, Trail, TrailEntry};
use super::wire::{Reader, Wire};
use super::{DepthStats, Line, Objective, Run, Width};
use crate::width::{Clock, WidthPlan};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::time::Instant;

/// What crossed between the processes of a search (this process's share).
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Traffic {
    pub processes: usize,
    /// Seconds spent in the exchanges, waiting for the slowest process included.
    pub seconds: f64,
    /// Bytes sent to other processes.
    pub bytes: u64,
    /// Children sent to their owners (to this process included).
    pub children: u64,
    /// Bytes of one child on the wire.
    pub bytes_per_child: usize,
    /// The most states this process held at one depth.
    pub most_states: usize,
}

/// The distributed search's answer: the line on process 0 (elsewhere its placements are
/// empty), and what crossed between the processes.
pub struct Answer<C> {
    pub line: Line<C>,
    pub traffic: Traffic,
}

/// A child as it reaches its board's owner.
#[derive(Clone, Copy)]
struct Arrived<S, C> {
    key: u64,
    hash: u64,
    score: u64,
    /// The parent's index in its depth, across the processes (its trail index).
    parent: u32,
    /// The parent's board hash: ties between parents are broken by it.
    tag: u64,
    code: C,
    state: S,
}

impl<S: Wire, C: Code> Arrived<S, C> {
    const BYTES: usize = 8 + 8 + 8 + 4 + 8 + C::BYTES + S::BYTES;

    fn put(&self, out: &mut Vec<u8>) {
        for v in [self.key, self.hash, self.score] {
            v.put(out);
        }
        self.parent.put(out);
        self.tag.put(out);
        self.code.put(out);
        self.state.put(out);
    }

    fn take(r: &mut Reader) -> Self {
        Arrived {
            key: r.read(),
            hash: r.read(),
            score: r.read(),
            parent: r.read(),
            tag: r.read(),
            code: r.read(),
            state: r.read(),
        }
    }

    /// Among the children with one board, the one that goes on ranks lowest here.
    #[inline]
    fn keep_order(&self) -> (Reverse<u64>, u64, u16, u64) {
        (Reverse(self.score), self.key, self.code.order(), self.tag)
    }
}

/// A distinct board at a process: its rank (best key, then hash) and the child that stands
/// for it.
#[derive(Clone, Copy)]
struct Board {
    key: u64,
    hash: u64,
    child: u32,
}

/// The process a board belongs to.
#[inline]
fn owner(hash: u64, processes: usize) -> usize {
    (hash >> 48) as usize % processes
}

/// Runs the beam as [`super::beam_search_streaming`] does, over the processes of `comm`
/// (every one calls it with the same arguments). Process 0 hands out the decided placements
/// and answers with the line; the progress is called there only. No guide.
pub fn beam_search_distributed<G: Game>(
    game: &G,
    run: &Run<G::State>,
    width: &Width,
    comm: &dyn Comm,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
    decided: &mut dyn FnMut(&[G::Code]),
) -> Answer<G::Code> {
    assert!(
        width.beam_width > 0 && width.width_changes.0.iter().all(|&(_, w)| w > 0),
        "beam width must be positive"
    );
    let comm = Metered::new(comm);
    let comm: &Metered = &comm;
    let (me, processes) = (comm.rank(), comm.size());
    let root = me == 0;
    let mut widths = WidthPlan::new(width.beam_width, &width.width_changes, width.time_budget);
    let mut beam: Beam<G::State, G::Code> = Beam::new(Node {
        state: run.state,
        score: run.score,
        trail: 0,
    });
    // Each state's board hash (the start's is never compared: it is the only parent).
    let mut tags: Vec<u64> = vec![0];
    if !root {
        beam.parents.clear();
        tags.clear();
    }
    let mut trail: Trail<G::Code> = Trail::new();
    let mut best: Option<Best> = None;
    let mut stats = DepthStats::default();
    let mut traffic = Traffic {
        processes,
        bytes_per_child: Arrived::<G::State, G::Code>::BYTES,
        ..Traffic::default()
    };
    let depth_count = run.depths;
    // Buffers kept from depth to depth: allocated afresh, their pages would fault in again.
    let mut order: Vec<(u64, u32)> = Vec::new();

    for depth in 0..depth_count {
        let started = Instant::now();

        let at = game.depth(depth);
        let step = Step {
            game,
            at: &at,
            guide_board: None,
            by_hash: true,
        };
        let states = beam.parents.len();
        traffic.most_states = traffic.most_states.max(states);
        // The width is process 0's (a time budget reads its clock), with the states of all.
        let known = gather_u64(comm, &[widths.at_depth(depth) as u64, states as u64]);
        let width = known[0][0] as usize;
        let all_states = known.iter().map(|k| k[1]).sum::<u64>() as usize;
        // This process's share of the selection, for its expansion's estimate of the bound.
        let share = (width * states).div_ceil(all_states.max(1)).max(1);
        let expanded = beam.expand(None, &step, &mut [], share);
        let tasks = expanded.tasks;
        let generated: u64 = beam.chunks[..tasks]
            .iter()
            .map(|c| c.generated as u64)
            .sum();
        let sample: Vec<u64> = beam.chunks[..tasks]
            .iter()
            .flat_map(|c| &c.sample)
            .copied()
            .collect();
        let totals = sum(
            comm,
            &[
                generated,
                expanded.placements,
                states as u64,
                sample.len() as u64,
            ],
        );
        stats.expanded += totals[2];
        stats.placements += totals[1];
        let expand_done = Instant::now();
        if totals[0] == 0 {
            // Every child of this depth ends the game: the best line ended before it.
            break;
        }
        let sampled = totals[3];
        let threshold_at = |rank: usize, sample: &Vec<u64>| -> u64 {
            if sampled <= rank as u64 {
                u64::MAX
            } else {
                kth(comm, &mut sample.clone(), rank as u64)
            }
        };
        let mut rank = shortlist_rank(width);
        let mut threshold = threshold_at(rank, &sample);
        let mut sent_under: Option<u64> = None;
        // The children that reached this process, as they came (see [`arrival`]).
        let mut arrivals: Vec<u8> = Vec::new();
        let boards = loop {
            let bound = beam.chunks[..tasks]
                .iter()
                .map(|c| c.bound)
                .min()
                .unwrap_or(u64::MAX);
            // After the first exchange the chunks no longer hold their children.
            if threshold > bound || sent_under.is_some() {
                beam.expand_again(&step, threshold);
            }
            let outbox = outbox(
                &step,
                &beam.parents,
                &tags,
                &beam.chunks[..tasks],
                (sent_under, threshold),
                processes,
            );
            // The children are on their way: the memory they held goes before the exchange's.
            for chunk in &mut beam.chunks[..tasks] {
                chunk.release();
            }
            traffic.children +=
                outbox.bytes.len() as u64 / Arrived::<G::State, G::Code>::BYTES as u64;
            let received = comm.all_to_all(outbox);
            if arrivals.is_empty() {
                arrivals = received.bytes;
            } else {
                arrivals.extend_from_slice(&received.bytes);
            }
            let boards = distinct::<G::State, G::Code>(&arrivals, &mut order);
            let count = sum(comm, &[boards.len() as u64])[0];
            if count >= width as u64 || threshold == u64::MAX {
                break (boards, count);
            }
            // Duplicates crowd the shortlist: widen it.
            sent_under = Some(threshold);
            rank = rank.saturating_mul(4);
            threshold = threshold_at(rank, &sample);
        };
        let chosen = cutoff(comm, boards.0, boards.1, width);
        let select_done = Instant::now();

        // The best new state here (highest score, then best rank): [has one, score, key,
        // hash, index here].
        let top = chosen
            .iter()
            .enumerate()
            .map(|(i, b)| (i, b, arrival::<G::State, G::Code>(&arrivals, b.child).score))
            .min_by_key(|&(_, b, score)| (Reverse(score), b.key, b.hash))
            .map(|(i, b, score)| [1, score, b.key, b.hash, i as u64])
            .unwrap_or([0; 5]);
        // With the count of each process's new states, numbered after those of the processes
        // before it.
        let known = gather_u64(
            comm,
            &[top[0], top[1], top[2], top[3], top[4], chosen.len() as u64],
        );
        let first: u64 = known[..me].iter().map(|k| k[5]).sum();
        let beam_size: u64 = known.iter().map(|k| k[5]).sum();
        let made = |b: &Board| arrival::<G::State, G::Code>(&arrivals, b.child);
        beam.parents.clear();
        beam.parents
            .par_extend((chosen.par_iter().enumerate()).map(|(i, b)| {
                let a = made(b);
                Node {
                    state: a.state,
                    score: a.score,
                    trail: (first + i as u64) as u32,
                }
            }));
        tags.clear();
        tags.par_extend(chosen.par_iter().map(|b| b.hash));
        let step_bytes = 4 + G::Code::BYTES;
        let mut steps = vec![0u8; chosen.len() * step_bytes];
        (steps.par_chunks_mut(step_bytes).zip(&chosen)).for_each(|(out, b)| {
            let mut one = Vec::with_capacity(step_bytes);
            let a = made(b);
            a.parent.put(&mut one);
            a.code.put(&mut one);
            out.copy_from_slice(&one);
        });
        // The best new state of all processes, numbered across them.
        let (owner, top) = (known.iter().enumerate())
            .filter(|(_, t)| t[0] == 1)
            .min_by_key(|(_, t)| (Reverse(t[1]), t[2], t[3]))
            .expect("a depth with children chooses a state");
        let top = Best {
            depth,
            index: (known[..owner].iter().map(|k| k[5]).sum::<u64>() + top[4]) as u32,
            score: top[1],
        };
        let kept = match run.objective {
            Objective::Survive => None,
            Objective::Score => best,
        };
        let last_depth = depth + 1 == depth_count;
        best = match kept {
            Some(b) if top.score < b.score && !last_depth => Some(b),
            _ => Some(top),
        };

        let mut to = Parcels::empty(processes);
        to.lens[0] = steps.len();
        to.bytes = steps;
        let received = comm.all_to_all(to);
        if root {
            let level = trail.open(beam_size as usize);
            let mut r = Reader::new(&received.bytes);
            for e in level.iter_mut() {
                *e = TrailEntry {
                    parent: r.read(),
                    placement: r.read(),
                };
            }
            let mut live: Vec<u32> = (0..beam_size as u32).collect();
            if trail.close(&mut live, |i| i, &mut best) {
                trail.take_decided(best, decided);
            }
        }
        stats.pieces = depth + 1;
        stats.best_score = best.map_or(0, |b| b.score);
        stats.beam_size = beam_size as usize;
        stats.seconds.expand += (expand_done - started).as_secs_f64();
        stats.seconds.select += (select_done - expand_done).as_secs_f64();
        stats.seconds.advance += select_done.elapsed().as_secs_f64();
        if root {
            progress(&stats);
        }
        let now = clock.seconds(stats.expanded);
        widths.after_depth(depth + 1, run.planned, stats.expanded, now);
    }
    traffic.seconds = comm.seconds();
    traffic.bytes = comm.sent();
    let (placements, score) = match best {
        Some(b) if root => (trail.line_to(b), b.score),
        Some(b) => (Vec::new(), b.score),
        None => (Vec::new(), run.score),
    };
    Answer {
        line: Line {
            placements,
            score,
            stats,
            width_changes: widths.changes(),
        },
        traffic,
    }
}

/// The children of `chunks` with a key over `above` (if any) and at most `threshold`, each
/// with its state, in one part per owner, in the chunks' order: counted first, then written
/// in place by the chunks in parallel.
fn outbox<G: Game>(
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
                key: c.key,
                hash: c.hash,
                score: c.score,
                parent: parent.trail,
                tag: tags[c.parent as usize],
                code: c.placement,
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
fn arrival<S: Wire, C: Code>(arrivals: &[u8], i: u32) -> Arrived<S, C> {
    let each = Arrived::<S, C>::BYTES;
    let at = i as usize * each;
    Arrived::take(&mut Reader::new(&arrivals[at..at + each]))
}

/// The distinct boards of `arrivals` (see [`arrival`]), in order of hash, each with its best
/// key and the child that goes on.
fn distinct<S: Wire + Copy + Send + Sync, C: Code>(
    arrivals: &[u8],
    order: &mut Vec<(u64, u32)>,
) -> Vec<Board> {
    let each = Arrived::<S, C>::BYTES;
    order.clear();
    order.par_extend(
        (arrivals.par_chunks_exact(each).enumerate())
            .map(|(i, bytes)| (u64::take(&bytes[8..16]), i as u32)),
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
    let groups: Vec<Vec<Board>> = (cuts.par_windows(2))
        .map(|cut| {
            let mut boards: Vec<Board> = Vec::new();
            for &(hash, i) in &order[cut[0]..cut[1]] {
                let a = arrival::<S, C>(arrivals, i);
                match boards.last_mut() {
                    Some(b) if b.hash == hash => {
                        b.key = b.key.min(a.key);
                        let kept = arrival::<S, C>(arrivals, b.child);
                        if a.keep_order() < kept.keep_order() {
                            b.child = i;
                        }
                    }
                    _ => boards.push(Board {
                        key: a.key,
                        hash,
                        child: i,
                    }),
                }
            }
            boards
        })
        .collect();
    groups.concat()
}

/// The boards of this process among the best `width` of all processes' (by key, then hash).
/// `count`: the boards of all processes.
fn cutoff(comm: &dyn Comm, mut boards: Vec<Board>, count: u64, width: usize) -> Vec<Board> {
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
/// range is one value. One collective a round; each round divides the range by 256.
pub(crate) fn kth(comm: &dyn Comm, values: &mut Vec<u64>, mut k: u64) -> u64 {
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
        let span = (hi - lo) / KTH_BINS as u64 + 1;
        let mut counts = [0u64; KTH_BINS];
        for &v in values.iter() {
            counts[((v - lo) / span) as usize] += 1;
        }
        let counts = sum(comm, &counts);
        let mut bin = 0;
        while k >= counts[bin] {
            k -= counts[bin];
            bin += 1;
        }
        lo += bin as u64 * span;
        hi = hi.min(lo.saturating_add(span - 1));
        if counts[bin] == 1 {
            let mine = values.iter().find(|&&v| lo <= v && v <= hi);
            return sum(comm, &[mine.copied().unwrap_or(0)])[0];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::comm::run_local;
    use crate::sequence::SplitMix64;

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
