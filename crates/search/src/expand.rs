//! Expansion: every placement of a depth's piece on every state of the beam, locked, evaluated
//! and hashed, written as compact candidates into per-task buffers.
//!
//! The work is cut into tasks of [`CHUNK`] states, fixed, so that the candidates come out in
//! beam order whatever the thread count.
//!
//! A full beam makes about twenty children per state and the selection keeps one in twenty, so
//! storing every child would cost most of the search's memory. An expansion therefore runs
//! in two passes. In the first, every task builds its share of the states the last selection
//! chose (locking the chosen placement onto its parent; a pass of its own for building would
//! cost a fork-join per depth), and every [`probe_stride`]-th task expands its states,
//! keeping all their children; from their keys comes an estimate of the selection's shortlist
//! threshold (with a margin), and the probes keep only the children under it. The parents
//! and the last choice are dropped then, before the second pass, in which the other tasks
//! expand their states keeping only the children under that bound. The selection checks the
//! bound against the real threshold and asks for an expansion under a higher one when it fell
//! short ([`Chunk::bound`]), so the bound changes what is stored, never what is chosen.

use super::candidates::{shortlist_rank, Candidate, Chunk};
use super::code::Code;
use super::game::{Game, Sink};
use super::trail::TrailEntry;
use rayon::prelude::*;

/// States expanded per parallel task: fixed, so the work split never depends on the thread count.
pub(crate) const CHUNK: usize = 32;

/// The probe tasks' stride, at least: an expansion runs every this many tasks first to
/// estimate the bound.
const PROBE_STRIDE: usize = 8;

/// Probe tasks enough for the bound: beyond this many, the stride grows with the beam, since
/// the probes keep every child until the bound is known (twenty or more a state) and at a
/// stride of 8 they were the largest share of a wide beam's peak. As many as a beam of
/// 20,000 runs at that stride.
const PROBE_TASKS: usize = 80;

/// The stride of the probe tasks among `tasks` (fixed by the width, never by the threads).
fn probe_stride(tasks: usize) -> usize {
    (tasks / PROBE_TASKS).max(PROBE_STRIDE)
}

/// Whether an expansion of `tasks` tasks is of a beam of a few tasks: it keeps every child
/// (the probes' bound would save little, and restricting the probes' children after it costs
/// more than it saves) and leaves the children in the order they were made, for the narrow
/// selection ([`super::select`]), which needs them in no other order.
pub(crate) fn few_tasks(tasks: usize) -> bool {
    tasks < 2 * PROBE_STRIDE
}

/// The margin of the bound over its estimate: the probes' rank is this many times the share
/// of the shortlist's rank that falls to them, plus [`PROBE_SLACK`] keys.
const PROBE_MARGIN: f64 = 1.25;
const PROBE_SLACK: usize = 32;

/// A state of the beam. Packed (the contest's to 52 bytes from 56): the beam holds two arrays
/// of them.
#[derive(Clone, Copy, Default)]
#[repr(C, packed(4))]
pub(crate) struct Node<S: Copy> {
    pub(crate) state: S,
    pub(crate) score: u64,
    /// Index of this state's entry in its depth's trail level.
    pub(crate) trail: u32,
}

/// What one depth places and how it ranks the children.
pub(crate) struct Step<'a, G: Game> {
    pub(crate) game: &'a G,
    pub(crate) at: &'a G::Depth,
    /// The guide's board at this depth, for a guided search.
    pub(crate) guide_board: Option<u64>,
}

/// The last depth's selection, to be turned into states: `chosen[i]` is child
/// `chosen[i].placement` of `parents[chosen[i].parent]`, made at depth `at`. The expansion
/// takes it, and drops it once the states are built.
pub(crate) struct Last<'a, G: Game> {
    pub(crate) chosen: Vec<Candidate<G::Code>>,
    pub(crate) at: &'a G::Depth,
}

/// The beam's states and the expansion's buffers, kept from depth to depth: at large beams
/// they are tens of MB, and allocating them afresh each depth costs page faults.
pub(crate) struct Beam<S: Copy, C: Code> {
    /// The states two depths back, which the last selection refers to (before the first
    /// piece: the start's state, and nothing is chosen yet); empty once an expansion built
    /// `frontier` from them.
    pub(crate) parents: Vec<Node<S>>,
    /// The states the last selection becomes, built by the expansion tasks.
    pub(crate) frontier: Vec<Node<S>>,
    /// Per task: its children.
    pub(crate) chunks: Vec<Chunk<C>>,
    /// The last expansion expanded `frontier` (else `parents`, before the first piece).
    expanded_frontier: bool,
    /// States the last expansion expanded.
    count: usize,
}

/// What an expansion did.
pub(crate) struct Expanded {
    /// Tasks run: `chunks[..tasks]` hold the children.
    pub(crate) tasks: usize,
    /// States expanded.
    pub(crate) states: usize,
    /// Placements generated.
    pub(crate) placements: u64,
}

impl<S: Copy + Default + Send + Sync, C: Code> Beam<S, C> {
    /// A beam holding the one state `start`.
    pub(crate) fn new(start: Node<S>) -> Beam<S, C> {
        Beam {
            parents: vec![start],
            frontier: Vec::new(),
            chunks: Vec::new(),
            expanded_frontier: false,
            count: 0,
        }
    }

    /// Every child of every state to expand, in order, into the first tasks' buffers. The
    /// states are `parents` themselves when `last` is None; otherwise the states `last` chose,
    /// which the first pass builds into `frontier` (and their trail steps into `level`),
    /// dropping `parents` and the choice after it. The children are prefiltered for a
    /// selection of `width` states (see the module's comment).
    pub(crate) fn expand<G: Game<State = S, Code = C>>(
        &mut self,
        last: Option<Last<G>>,
        step: &Step<G>,
        level: &mut [TrailEntry<C>],
        width: usize,
    ) -> Expanded {
        let count = last.as_ref().map_or(self.parents.len(), |l| l.chosen.len());
        let tasks = count.div_ceil(CHUNK);
        if self.chunks.len() < tasks {
            self.chunks.resize_with(tasks, Chunk::default);
        }
        if last.is_some() {
            // Only grows (or shrinks) while the beam fills: no per-depth writes once full; and
            // to exactly the states, where doubling would leave room for up to twice as many.
            self.frontier
                .reserve_exact(count.saturating_sub(self.frontier.len()));
            self.frontier.resize(count, Node::default());
        }
        self.expanded_frontier = last.is_some();
        self.count = count;
        let few = few_tasks(tasks);
        let stride = probe_stride(tasks);
        let probe = |i: usize| few || i.is_multiple_of(stride);
        // The probes' children are grouped once, after the bound: most of them go then.
        let mut placements = match last {
            None => self.expand_tasks(step, probe, u64::MAX, false),
            Some(last) => {
                let placements = self.build_and_probe(last, step, level, probe);
                // Built upon: their memory goes before the children's, at the search's peak.
                self.parents = Vec::new();
                placements
            }
        };
        if !few {
            let bound = probe_bound(&self.chunks[..tasks], stride, count, width);
            // Before the other tasks' children are made, so that the probes' never lie beside
            // them.
            self.chunks[..tasks]
                .par_iter_mut()
                .step_by(stride)
                .for_each(|c| c.restrict(bound));
            placements += self.expand_tasks(step, |i| !probe(i), bound, true);
        }
        Expanded {
            tasks,
            states: count,
            placements,
        }
    }

    /// Expands the states of the last expansion again, keeping the children under `bound`:
    /// for a selection that needs children the first bound dropped.
    pub(crate) fn expand_again<G: Game<State = S, Code = C>>(
        &mut self,
        step: &Step<G>,
        bound: u64,
    ) {
        self.expand_tasks(step, |_| true, bound, true);
    }

    /// Expands the tasks `take` accepts of the states already built, keeping the children
    /// under `bound` (grouped by bucket where `group`); returns the placements generated.
    fn expand_tasks<G: Game<State = S, Code = C>>(
        &mut self,
        step: &Step<G>,
        take: impl Fn(usize) -> bool + Sync + Send,
        bound: u64,
        group: bool,
    ) -> u64 {
        let states = if self.expanded_frontier {
            &self.frontier[..self.count]
        } else {
            &self.parents[..self.count]
        };
        states
            .par_chunks(CHUNK)
            .zip(self.chunks.par_iter_mut())
            .enumerate()
            .filter(|(chunk_index, _)| take(*chunk_index))
            .map(|(chunk_index, (nodes, out))| {
                expand_chunk(chunk_index, nodes, step, bound, out, group)
            })
            .sum()
    }

    /// Builds every state `last` chose into `frontier`, with its trail step into `level`, and
    /// expands the tasks `take` accepts, keeping all their children; returns the placements
    /// generated. One pass: a separate one for building would cost a fork-join per depth.
    fn build_and_probe<G: Game<State = S, Code = C>>(
        &mut self,
        last: Last<G>,
        step: &Step<G>,
        level: &mut [TrailEntry<C>],
        take: impl Fn(usize) -> bool + Sync + Send,
    ) -> u64 {
        let parents = &self.parents;
        last.chosen
            .par_chunks(CHUNK)
            .zip(self.frontier.par_chunks_mut(CHUNK))
            .zip(level.par_chunks_mut(CHUNK))
            .zip(self.chunks.par_iter_mut())
            .enumerate()
            .map(|(chunk_index, (((chosen, nodes), steps), out))| {
                let first = chunk_index * CHUNK;
                // The parents lie at random in the beam before, most of them outside the
                // cache: all of a task's are asked for before the first is read.
                for c in chosen {
                    prefetch(&parents[c.parent as usize]);
                }
                for (i, (c, (node, trail))) in
                    chosen.iter().zip(nodes.iter_mut().zip(steps)).enumerate()
                {
                    let parent = &parents[c.parent as usize];
                    let parent_state = parent.state;
                    let state = step.game.apply(last.at, &parent_state, &c.placement);
                    *node = Node {
                        state,
                        score: c.score,
                        trail: (first + i) as u32,
                    };
                    *trail = TrailEntry {
                        parent: parent.trail,
                        placement: c.placement,
                    };
                }
                if !take(chunk_index) {
                    return 0;
                }
                expand_chunk(chunk_index, nodes, step, u64::MAX, out, false)
            })
            .sum()
    }
}

/// Asks the memory for `item`'s cache lines, to be read soon: a hint, which changes no value.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = (item as *const T).cast::<i8>();
        let last = start.wrapping_add(std::mem::size_of::<T>().saturating_sub(1));
        // SAFETY: a prefetch reads nothing and faults on no address; both lie within `item`.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(start);
            _mm_prefetch::<_MM_HINT_T0>(last);
        }
    }
}

/// Every child of `nodes` (the task `chunk_index`'s states) into `out`, keeping those under
/// `bound`, grouped by bucket where `group`; returns the placements generated.
fn expand_chunk<G: Game>(
    chunk_index: usize,
    nodes: &[Node<G::State>],
    step: &Step<G>,
    bound: u64,
    out: &mut Chunk<G::Code>,
    group: bool,
) -> u64 {
    out.reset(bound);
    let mut scratch = G::Scratch::default();
    let mut sink = Sink {
        chunk: out,
        guide_board: step.guide_board,
    };
    let mut generated = 0u64;
    for (i, node) in nodes.iter().enumerate() {
        let parent = (chunk_index * CHUNK + i) as u32;
        let state = node.state;
        generated += step
            .game
            .expand(step.at, &state, node.score, parent, &mut scratch, &mut sink);
    }
    step.game.flush(step.at, &mut scratch, &mut sink);
    if group {
        out.group();
    }
    generated
}

/// A bound on the keys that the selection of `width` states needs, estimated from the probe
/// tasks (every `stride`-th, which an expansion runs first), or `u64::MAX` when they hold too
/// few keys to tell or the selection will need every child (see [`super::select`]).
fn probe_bound<C: Code>(chunks: &[Chunk<C>], stride: usize, states: usize, width: usize) -> u64 {
    let probe_states: usize = (0..chunks.len())
        .step_by(stride)
        .map(|i| CHUNK.min(states - i * CHUNK))
        .sum();
    let probes = chunks.iter().step_by(stride);
    let mut keys: Vec<u64> = probes.flat_map(|c| &c.sample).copied().collect();
    if keys.is_empty() {
        return u64::MAX;
    }
    // The children and samples the selection will see, if the other tasks' states are like
    // the probes'.
    let scale = states as f64 / probe_states as f64;
    let generated: usize = chunks.iter().step_by(stride).map(|c| c.generated).sum();
    if generated as f64 * scale <= 5.0 * width as f64 {
        return u64::MAX;
    }
    let expected = keys.len() as f64 * scale;
    let share = shortlist_rank(width) as f64 / expected * keys.len() as f64;
    let probe_rank = (share * PROBE_MARGIN) as usize + PROBE_SLACK;
    if probe_rank >= keys.len() {
        return u64::MAX;
    }
    *keys.select_nth_unstable(probe_rank).1
}
