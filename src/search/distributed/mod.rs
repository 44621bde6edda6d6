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
//! are the same, and every tie is broken by the search's one order ([`super::Order`]): ties of
//! key by board hash, and among the children with one board the one that goes on has the
//! highest score, then the lowest key, the lowest placement rank and the lowest parent hash.
//! None of that depends on where a state is held, so the answer is the same line, and the
//! one-process search's ([`super::beam_search_streaming`]), which follows the same order.

mod exchange;
mod rank;

use super::candidates::{shortlist_rank, Order};
use super::comm::{gather_u64, sum, Comm, Metered, Parcels};
use super::expand::{Beam, Node, Step};
use super::game::Game;
use super::trail::{Best, Trail, TrailEntry};
use super::wire::{Reader, Wire};
use super::{DepthStats, Line, Objective, Run, Width};
use crate::search::width::{Clock, WidthPlan};
use exchange::{arrival, distinct, outbox, Arrived, Board};
use rank::{cutoff, kth};
use rayon::prelude::*;
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

        // The best new state here (the one order's: highest score, then the kept child's key,
        // then hash): [has one, score, key, hash, index here].
        let top = chosen
            .iter()
            .enumerate()
            .map(|(i, b)| (i, b, arrival::<G::State, G::Code>(&arrivals, b.child)))
            .min_by_key(|(_, b, a)| Order::best(a.score, a.key, b.hash))
            .map(|(i, b, a)| [1, a.score, a.key, b.hash, i as u64])
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
            .min_by_key(|(_, t)| Order::best(t[1], t[2], t[3]))
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
