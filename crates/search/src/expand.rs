//! Expansion: every placement of a depth's piece on every state of the beam, locked, evaluated
//! and hashed, written as compact candidates into per-task buffers.
//!
//! The work is cut into tasks of [`CHUNK`] states, fixed, so that the candidates come out in
//! beam order whatever the thread count. Each task first builds its share of the states the
//! last selection chose (locking the chosen placement onto its parent), then expands them:
//! a separate pass for building would cost a fork-join per depth.
//!
//! A full beam makes about twenty children per state and the selection keeps one in twenty, so
//! storing every child would cost most of the search's memory. An expansion therefore runs
//! in two passes: every [`PROBE_STRIDE`]-th task first, keeping all its children, and from
//! their keys an estimate of the selection's shortlist threshold (with a margin); then the
//! other tasks, which keep only the children under that bound. The
//! selection checks the bound against the real threshold and asks for an expansion under a
//! higher one when it fell short ([`Chunk::bound`]), so the bound changes what is stored,
//! never what is chosen.

use super::candidates::{shortlist_rank, Candidate, Chunk};
use super::code::Code;
use super::game::{Game, Sink};
use super::trail::TrailEntry;
use rayon::prelude::*;

/// States expanded per parallel task: fixed, so the work split never depends on the thread count.
pub(crate) const CHUNK: usize = 32;

/// An expansion runs every this many tasks first to estimate the bound.
const PROBE_STRIDE: usize = 8;

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
/// `chosen[i].placement` of `parents[chosen[i].parent]`, made at depth `at`.
pub(crate) struct Last<'a, G: Game> {
    pub(crate) chosen: &'a [Candidate<G::Code>],
    pub(crate) at: &'a G::Depth,
}

impl<G: Game> Clone for Last<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Game> Copy for Last<'_, G> {}

/// The beam's states and the expansion's buffers, kept from depth to depth: at large beams
/// they are tens of MB, and allocating them afresh each depth costs page faults.
pub(crate) struct Beam<S: Copy, C: Code> {
    /// The states two depths back, which the last selection refers to (before the first
    /// piece: the start's state, and nothing is chosen yet).
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
    /// which the tasks build into `frontier` (and their trail steps into `level`) on the way.
    /// The children are prefiltered for a selection of `width` states (see the module's
    /// comment).
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
        let probe = |i: usize| few || i.is_multiple_of(PROBE_STRIDE);
        // The probes' children are grouped once, after the bound: most of them go then.
        let mut placements = self.pass(last, step, level, probe, u64::MAX, false);
        let bound = if few {
            u64::MAX
        } else {
            probe_bound(&self.chunks[..tasks], count, width)
        };
        if !few {
            placements += self.pass(last, step, level, |i| !probe(i), bound, true);
            self.chunks[..tasks]
                .par_iter_mut()
                .step_by(PROBE_STRIDE)
                .for_each(|c| c.restrict(bound));
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
        let states = if self.expanded_frontier {
            &self.frontier[..self.count]
        } else {
            &self.parents[..self.count]
        };
        states
            .par_chunks(CHUNK)
            .zip(self.chunks.par_iter_mut())
            .enumerate()
            .for_each(|(chunk_index, (nodes, out))| {
                expand_chunk(chunk_index, nodes, step, bound, out, true);
            });
    }

    /// Expands the tasks `take` accepts, keeping the children under `bound` (grouped by bucket
    /// where `group`); returns the placements generated.
    fn pass<G: Game<State = S, Code = C>>(
        &mut self,
        last: Option<Last<G>>,
        step: &Step<G>,
        level: &mut [TrailEntry<C>],
        take: impl Fn(usize) -> bool + Sync + Send,
        bound: u64,
        group: bool,
    ) -> u64 {
        let parents = &self.parents;
        match last {
            None => parents
                .par_chunks(CHUNK)
                .zip(self.chunks.par_iter_mut())
                .enumerate()
                .filter(|(chunk_index, _)| take(*chunk_index))
                .map(|(chunk_index, (nodes, out))| {
                    expand_chunk(chunk_index, nodes, step, bound, out, group)
                })
                .sum(),
            Some(last) => last
                .chosen
                .par_chunks(CHUNK)
                .zip(self.frontier.par_chunks_mut(CHUNK))
                .zip(level.par_chunks_mut(CHUNK))
                .zip(self.chunks.par_iter_mut())
                .enumerate()
                .filter(|(chunk_index, _)| take(*chunk_index))
                .map(|(chunk_index, (((chosen, nodes), steps), out))| {
                    let first = chunk_index * CHUNK;
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
                    expand_chunk(chunk_index, nodes, step, bound, out, group)
                })
                .sum(),
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
/// tasks (the tasks an expansion runs first), or `u64::MAX` when they hold too
/// few keys to tell or the selection will need every child (see [`super::select`]).
fn probe_bound<C: Code>(chunks: &[Chunk<C>], states: usize, width: usize) -> u64 {
    let probe_states: usize = (0..chunks.len())
        .step_by(PROBE_STRIDE)
        .map(|i| CHUNK.min(states - i * CHUNK))
        .sum();
    let probes = chunks.iter().step_by(PROBE_STRIDE);
    let mut keys: Vec<u64> = probes.flat_map(|c| &c.sample).copied().collect();
    if keys.is_empty() {
        return u64::MAX;
    }
    // The children and samples the selection will see, if the other tasks' states are like
    // the probes'.
    let scale = states as f64 / probe_states as f64;
    let generated: usize = chunks
        .iter()
        .step_by(PROBE_STRIDE)
        .map(|c| c.generated)
        .sum();
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
