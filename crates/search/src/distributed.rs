//! The beam search over several processes ([`Comm`]: MPI's, or threads of one process), whose
//! answer is the same whatever their number and their threads.
//!
//! Each process holds a share of the beam. Each depth:
//! 1. every process expands its states as the one-process search does ([`Beam::expand`]),
//!    sampling the children by board ([`super::candidates::sampled`]);
//! 2. the shortlist's threshold is the same rank of the processes' joint sample as there,
//!    found exactly by counting in bins across the processes ([`kth`]);
//! 3. every child under the threshold goes, without its state, to the process its board hashes
//!    to (its owner), in one all-to-all exchange, so that the duplicates of a board meet and
//!    are dropped there;
//! 4. the `width`-th best board is found across the processes as the threshold was, and each
//!    owner keeps its boards up to it: they are its states at the next depth, whose states the
//!    processes that hold their parents build and send it, in one more exchange ([`fetch`]);
//! 5. each process keeps the trail of its own states: the (parent, placement) step of each,
//!    numbered across the processes in their order; every few depths the processes compact
//!    their trails together (see [`super::trail`]) and process 0 hands out the decided depths,
//!    as the one-process search does; at the end the line is rebuilt by walking back across
//!    the processes.
//!
//! Whatever the number of processes, the candidates, the threshold, the boards and the cutoff
//! are the same, and every tie is broken by the search's one order ([`super::Order`]): ties of
//! key by board hash, and among the children with one board the one that goes on has the
//! highest score, then the lowest key, the lowest placement rank and the lowest parent hash.
//! None of that depends on where a state is held, so the answer is the same line, and the
//! one-process search's, which follows the same order: [`super::beam_search`] runs either.

mod exchange;
#[cfg(test)]
mod exchange_tests;
mod fetch;
mod rank;

use super::candidates::{shortlist_rank, wider_rank, Order};
use super::checkpoint::Snapshot;
use super::comm::{gather_u64, sum, Comm, Metered, Place};
use super::depth_loop::{depths, start};
use super::expand::{Beam, Node, Step};
use super::game::Decided;
use super::game::Game;
use super::held::{Beamed, Expansion, Holder, Selection};
use super::options::Options;
use super::run::{Line, Run, Traffic};
use super::trail::{Best, Trail};
use exchange::{distinct, outbox, Arrivals, Distinct, Head};
use fetch::{fetch, Fetched, Wanted};
use rank::{cutoff, kth};
use rayon::prelude::*;

/// Runs the beam as the one-process search does, over the processes of `comm` (every one
/// calls it with the same options). Process 0 hands out the decided placements and answers
/// with the line (elsewhere its placements are empty); the progress is called there only. No
/// guide. Each process takes the snapshots of its own share, and resumes from its own.
pub(super) fn search<G: Game>(
    game: &G,
    run: &Run<G::State>,
    comm: &dyn Comm,
    options: Options<'_, G::Code>,
) -> Line<G::Code> {
    let comm = Metered::new(comm);
    let mut held = Spread::new(&comm, start(run));
    let resumed = options.resume.map(|bytes| {
        let place = held.place();
        let snapshot = Snapshot::decode(bytes, run.depths, place)
            .expect("a snapshot checked before the search (checkpoint::summary)");
        let (resumed, beam) = snapshot.resumed();
        held.beam.parents = beam.parents;
        held.tags = beam.tags;
        resumed
    });
    let mut line = depths(game, run, options, &mut held, resumed);
    line.traffic = Some(Traffic {
        seconds: comm.seconds(),
        bytes: comm.sent(),
        ..held.traffic
    });
    line
}

/// Gives the memory freed so far back to the system, after each exchange from a share of
/// [`KEEP_STATES`] states ([`Memory::Mapped`]). The children of a depth are made in many small
/// buffers, which glibc keeps for the process once they are freed; beside the arrivals and the
/// boards sorted from them, in fresh mappings, they would count twice in the process's peak.
/// Not at the end of a depth as well: the buffers freed there are mapped apart already, so a
/// trim there lowers no peak, and what it gives back the next expansion faults in again
/// (docs/SCALING.md, "Measured on this machine", has the figures).
fn give_back_freed_memory() {
    // SAFETY: malloc_trim only returns free pages of the allocator's own arenas to the system;
    // it touches no memory in use.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Buffers from this size on are mapped apart and go back to the system when freed (glibc's
/// mmap threshold, fixed), from a share of [`KEEP_STATES`] states. By default glibc raises that
/// threshold to the size of each large buffer freed, so that a depth's large buffers (the
/// arrivals' order, the choice, the fetch's answers and states) come from its heap, where their
/// lifetimes fragment it: the largest of 4 processes at width 1,000,000 took 150-159 MiB so,
/// 110-113 mapped. Mapped, each is faulted in afresh every depth, for about 1.06x the CPU
/// (docs/SCALING.md, "Measured on this machine").
const MAPPED_FROM: usize = 4 << 20;

/// Has glibc map buffers of [`MAPPED_FROM`] bytes or more apart (see there).
fn map_large_buffers() {
    // SAFETY: mallopt only sets a parameter of the allocator, for the allocations after it.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAPPED_FROM as libc::c_int);
    }
}

/// Has glibc keep the memory a process frees for its next allocations, under a share of
/// [`KEEP_STATES`] states: a distributed search allocates its exchange's buffers afresh each
/// depth, and with glibc's defaults (a heap's free top given back once it passes a threshold
/// that moves with the buffers freed) one process at width 100,000 took 70,000 page faults over
/// 60 pieces against the plain search's 21,000, 3% of its CPU; with the heap kept and buffers
/// up to 32 MiB taken from it, 12,000, and the same peak. Not from that share on: there the
/// buffers' lifetimes fragment the heap (the largest of 4 processes at width 1,000,000 peaked
/// at 139-182 MiB over 5 runs), and they are mapped apart instead ([`MAPPED_FROM`]).
fn keep_freed_memory() {
    // SAFETY: mallopt only sets parameters of the allocator, for the allocations after it.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX);
    }
}

/// States a process holds under which it keeps the memory it frees ([`keep_freed_memory`]),
/// and from which it has its large buffers mapped apart ([`map_large_buffers`]) and gives its
/// freed memory back after each exchange ([`give_back_freed_memory`]).
const KEEP_STATES: usize = 1 << 17;

/// Beam states per process from which an exchange goes in several rounds.
const ROUND_STATES: usize = 1 << 15;

/// The rounds of each exchange: one per [`ROUND_STATES`] states a process holds, up to 8; the
/// same on every process.
fn rounds(width: usize, processes: usize) -> usize {
    (width / processes / ROUND_STATES).clamp(1, 8)
}

/// The beam spread over the processes of a [`Comm`], each holding the boards that hash to it.
pub(crate) struct Spread<'a, G: Game> {
    comm: &'a Metered<'a>,
    beam: Beam<G::State, G::Code>,
    /// Each state's board hash (the start's is never compared: it is the only parent).
    tags: Vec<u64>,
    traffic: Traffic,
    /// Tasks the last expansion ran, and its joint sample of keys.
    tasks: usize,
    sample: Vec<u64>,
    sampled: u64,
    /// The children that reached this process.
    arrivals: Arrivals,
    /// The states chosen, their board hashes and the steps that made them, until they replace
    /// the beam.
    next: Fetched<G::State, G::Code>,
    next_tags: Vec<u64>,
    /// States chosen on the processes before this one, and on all.
    first: u64,
    states: usize,
    /// How glibc has been told to hand out memory: the first width decides it.
    memory: Memory,
}

/// How a process's freed memory goes (glibc's settings, which last for the process).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Memory {
    /// glibc's defaults, until the width is known.
    Defaults,
    /// Freed memory kept for the next allocations ([`keep_freed_memory`]), under a share of
    /// [`KEEP_STATES`] states.
    Kept,
    /// Large buffers mapped apart ([`map_large_buffers`]), and freed memory given back after
    /// each exchange ([`give_back_freed_memory`]), from that share on.
    Mapped,
}

impl<'a, G: Game> Spread<'a, G> {
    fn new(comm: &'a Metered<'a>, start: Node<G::State>) -> Self {
        let mut beam = Beam::new(start);
        let mut tags = vec![0];
        if comm.rank() != 0 {
            beam.parents.clear();
            tags.clear();
        }
        Spread {
            comm,
            beam,
            tags,
            traffic: Traffic {
                processes: comm.size(),
                thread_level: comm.thread_level(),
                bytes_per_child: Head::<G::Code>::BYTES,
                ..Traffic::default()
            },
            tasks: 0,
            sample: Vec::new(),
            sampled: 0,
            arrivals: Arrivals::default(),
            next: Fetched::default(),
            next_tags: Vec::new(),
            first: 0,
            states: 0,
            memory: Memory::Defaults,
        }
    }

    /// Where the states are held, as a snapshot names it.
    fn place(&self) -> Place {
        Place {
            spread: true,
            process: self.comm.rank(),
            processes: self.comm.size(),
        }
    }

    /// The `rank`-th key of the processes' joint sample (`u64::MAX` past its end).
    fn threshold(&self, rank: usize) -> u64 {
        if self.sampled <= rank as u64 {
            u64::MAX
        } else {
            kth(self.comm, &mut self.sample.clone(), rank as u64)
        }
    }

    /// Sends every child that may make the selection to the process its board hashes to, and
    /// answers with the distinct boards that reached this process and their count over every
    /// process: at least `width` of them, or every child's.
    fn exchange(&mut self, step: &Step<G>, width: usize) -> (Vec<Distinct>, u64) {
        let (comm, tasks) = (self.comm, self.tasks);
        let mut rank = shortlist_rank(width);
        let mut threshold = self.threshold(rank);
        let mut sent_under: Option<u64> = None;
        loop {
            let bound = (self.beam.chunks[..tasks].iter())
                .map(|c| c.bound)
                .min()
                .unwrap_or(u64::MAX);
            // After the first exchange the chunks no longer hold their children.
            if threshold > bound || sent_under.is_some() {
                self.beam.expand_again(step, threshold);
            }
            // In rounds of a share of the tasks each: a round's children leave before the
            // next round's are written, so the children are held about once, as candidates,
            // on the wire or as arrivals, rather than twice or three times over.
            let rounds = rounds(width, comm.size());
            let per_round = tasks.div_ceil(rounds).max(1);
            for round in 0..rounds {
                let from = (round * per_round).min(tasks);
                let to = ((round + 1) * per_round).min(tasks);
                let outbox = outbox(
                    &self.tags,
                    &self.beam.chunks[from..to],
                    (sent_under, threshold),
                    comm.size(),
                );
                // The children are on their way: the memory they held goes before the
                // exchange's.
                for chunk in &mut self.beam.chunks[from..to] {
                    chunk.release();
                }
                let each = Head::<G::Code>::BYTES;
                self.traffic.children += outbox.bytes.len() as u64 / each as u64;
                self.arrivals.push(comm.all_to_all(outbox), each);
            }
            if self.memory == Memory::Mapped {
                give_back_freed_memory();
            }
            let boards = distinct::<G::Code>(&self.arrivals);
            let count = sum(comm, &[boards.len() as u64])[0];
            if count >= width as u64 || threshold == u64::MAX {
                return (boards, count);
            }
            // Duplicates crowd the shortlist: widen it.
            sent_under = Some(threshold);
            rank = wider_rank(rank, count as usize, width);
            threshold = self.threshold(rank);
        }
    }
}

impl<G: Game> Holder<G> for Spread<'_, G> {
    fn comm(&self) -> &dyn Comm {
        self.comm
    }

    fn width(&mut self, planned: usize) -> (usize, usize) {
        let states = self.beam.parents.len();
        self.traffic.most_states = self.traffic.most_states.max(states);
        // The width is process 0's (a time budget reads its clock), with the states of all.
        let known = gather_u64(self.comm, &[planned as u64, states as u64]);
        let width = known[0][0] as usize;
        let all_states = known.iter().map(|k| k[1]).sum::<u64>() as usize;
        // Set as soon as the width is known, before the beam grows: set at the first depth
        // that holds that many states, the largest of 2 processes at width 1,000,000 took
        // 187-188 MiB instead of 170-183.
        let share = width / self.comm.size();
        if self.memory != Memory::Mapped && share >= KEEP_STATES {
            map_large_buffers();
            self.memory = Memory::Mapped;
        } else if self.memory == Memory::Defaults && share < KEEP_STATES {
            keep_freed_memory();
            self.memory = Memory::Kept;
        }
        // This process's share of the selection, for its expansion's estimate of the bound.
        (width, (width * states).div_ceil(all_states.max(1)).max(1))
    }

    fn expand(
        &mut self,
        step: &Step<G>,
        share: usize,
        _trail: &mut Trail<G::Code>,
        _best: &mut Option<Best>,
        _decided: &mut Option<Decided<G::Code>>,
    ) -> Expansion {
        let states = self.beam.parents.len();
        let expanded = self.beam.expand(None, step, &mut [], share);
        self.tasks = expanded.tasks;
        let chunks = &self.beam.chunks[..expanded.tasks];
        let generated: u64 = chunks.iter().map(|c| c.generated as u64).sum();
        self.sample.clear();
        self.sample
            .extend(chunks.iter().flat_map(|c| &c.sample).copied());
        let totals = sum(
            self.comm,
            &[
                generated,
                expanded.placements,
                states as u64,
                self.sample.len() as u64,
            ],
        );
        self.sampled = totals[3];
        Expansion {
            states: totals[2],
            placements: totals[1],
            children: totals[0],
        }
    }

    fn select(&mut self, step: &Step<G>, width: usize, depth: usize) -> Selection {
        let comm = self.comm;
        let (boards, count) = self.exchange(step, width);
        let chosen = cutoff(comm, boards, count, width);

        // Each chosen child's head, read once, in the order the children arrived, which is the
        // new states' order here; what the children arrived as goes before the states are built.
        let marks = self.arrivals.marks(chosen.iter().map(|b| b.child));
        drop(chosen);
        let heads = self.arrivals.chosen::<G::Code>(&marks);
        self.arrivals = Arrivals::default();
        // The best new state here (the one order's: highest score, then the kept child's key,
        // then hash): [has one, score, key, hash, index here].
        let top = (heads.iter().enumerate())
            .min_by_key(|(_, c)| Order::best(c.wanted.score, c.key, c.hash))
            .map(|(i, c)| [1, c.wanted.score, c.key, c.hash, i as u64])
            .unwrap_or([0; 5]);
        self.next_tags = heads.par_iter().map(|c| c.hash).collect();
        let wanted: Vec<Wanted<G::Code>> = heads.into_par_iter().map(|c| c.wanted).collect();
        self.next = fetch(comm, step, &self.beam.parents, &wanted);
        // With the count of each process's new states, numbered after those of the processes
        // before it.
        let known = gather_u64(
            comm,
            &[top[0], top[1], top[2], top[3], top[4], wanted.len() as u64],
        );
        let before = |owner: usize| known[..owner].iter().map(|k| k[5]).sum::<u64>();
        self.first = before(comm.rank());
        self.states = known.iter().map(|k| k[5]).sum::<u64>() as usize;
        // The best new state of all processes, numbered across them.
        let (owner, top) = (known.iter().enumerate())
            .filter(|(_, t)| t[0] == 1)
            .min_by_key(|(_, t)| Order::best(t[1], t[2], t[3]))
            .expect("a depth with children chooses a state");
        Selection {
            size: self.states,
            top: Best {
                depth,
                index: (before(owner) + top[4]) as u32,
                score: top[1],
            },
            on_guide: None,
        }
    }

    fn advance(
        &mut self,
        _at: G::Depth,
        trail: &mut Trail<G::Code>,
        best: &mut Option<Best>,
        decided: &mut Option<Decided<G::Code>>,
    ) {
        let first = self.first;
        // The chosen states replace the beam; each process keeps the steps of its own states,
        // numbered across the processes.
        let Fetched { nodes, steps } = std::mem::take(&mut self.next);
        self.beam.parents = nodes;
        self.tags = std::mem::take(&mut self.next_tags);
        let level = trail.open_part(steps.len(), first as usize, self.states);
        level.copy_from_slice(&steps);
        drop(steps);
        (self.beam.parents.par_iter_mut().enumerate())
            .for_each(|(i, node)| node.trail = (first + i as u64) as u32);
        let comm: &dyn Comm = self.comm;
        if trail.close(&mut self.beam.parents, |n| &mut n.trail, best, comm) {
            let mut none = |_: &[G::Code]| {};
            let decided = decided
                .as_mut()
                .map_or(&mut none as Decided<G::Code>, |d| *d);
            trail.take_decided(*best, decided, comm);
        }
    }

    /// Every level went into the trail as it was chosen.
    fn finish(&mut self, _trail: &mut Trail<G::Code>) {}

    /// The states the last depth chose, built, with their board hashes.
    fn snapshot(&self) -> Option<Beamed<'_, G::State, G::Code>> {
        Some(Beamed {
            place: self.place(),
            parents: &self.beam.parents,
            chosen: &[],
            tags: &self.tags,
        })
    }
}
