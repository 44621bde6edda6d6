//! Expansion: every placement of a depth's piece on every state of the beam, locked, evaluated
//! and hashed, written as compact candidates into per-task buffers.
//!
//! The work is cut into tasks of [`CHUNK`] states, fixed, so that the candidates come out in
//! beam order whatever the thread count. Each task first builds its share of the states the
//! last selection chose (locking the chosen placement onto its parent), then expands them:
//! a separate pass for building would cost a fork-join per depth.

use super::policy::Ranking;
use super::trail::TrailEntry;
use crate::bitboard::Board;
use crate::eval::{evaluate_batch, Batch};
use crate::movegen::{placements_with, Placement, Placements};
use crate::rules::{Kind, Rules};
use rayon::prelude::*;

/// States expanded per parallel task: fixed, so the work split never depends on the thread count.
pub(crate) const CHUNK: usize = 32;

/// One candidate in this many goes into the sample that sets the shortlist's threshold.
pub(crate) const SAMPLE_STEP: usize = 16;

/// A state of the beam.
#[derive(Clone, Copy, Default)]
pub(crate) struct Node {
    pub board: Board,
    pub score: u64,
    /// Index of this state's entry in its depth's trail level.
    pub trail: u32,
}

/// A child before selection: enough to rank it and rebuild it.
#[derive(Clone, Copy, Default)]
pub(crate) struct Candidate {
    /// The key as an integer that sorts like the float (see [`sortable`]).
    pub key: u64,
    pub hash: u64,
    pub score: u64,
    pub parent: u32,
    pub placement: u16,
}

impl Candidate {
    /// Key first, then (parent, placement), which is unique: a total order as one integer, so
    /// that selecting and sorting compare plain integers.
    #[inline]
    pub fn order_key(&self) -> u128 {
        (self.key as u128) << 64 | (self.parent as u128) << 16 | self.placement as u128
    }
}

/// One expansion task's children, with the sample of their keys that the parallel selection
/// sets its threshold from (taken while they are still in the task's cache).
#[derive(Clone, Default)]
pub(crate) struct Chunk {
    pub candidates: Vec<Candidate>,
    /// `key` of every `SAMPLE_STEP`-th candidate, from the first.
    pub sample: Vec<u64>,
    /// The best of the candidates with the guide's board (see [`best_with_board`]), if any.
    pub guided: Option<Candidate>,
}

impl Chunk {
    /// Takes the sample (replacing the last depth's) once the candidates are complete.
    fn take_sample(&mut self) {
        self.sample.clear();
        let keys = self.candidates.iter().step_by(SAMPLE_STEP);
        self.sample.extend(keys.map(|c| c.key));
    }

    #[cfg(test)]
    pub fn of(candidates: &[Candidate]) -> Chunk {
        let mut chunk = Chunk {
            candidates: candidates.to_vec(),
            ..Chunk::default()
        };
        chunk.take_sample();
        chunk
    }
}

/// The candidate with board `hash` that the selection would keep: the highest score, then the
/// lowest (parent, placement), whichever task made it.
pub(crate) fn best_with_board(candidates: &[Candidate], hash: u64) -> Option<Candidate> {
    let with_board = candidates.iter().filter(|c| c.hash == hash);
    with_board
        .max_by_key(|c| (c.score, std::cmp::Reverse(c.order_key())))
        .copied()
}

/// Maps a float to an integer with the same order (negative floats below positive ones).
#[inline]
fn sortable(key: f64) -> u64 {
    let bits = key.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// What one depth places and how it ranks the children.
pub(crate) struct Step<'a> {
    pub kind: Kind,
    /// The piece's number in the game (the rules' spawn state and piece limit need it).
    pub index: usize,
    pub rules: Rules,
    pub ranking: &'a Ranking,
    /// The guide's board at this depth, for a guided search.
    pub guide_board: Option<u64>,
}

/// The last depth's selection, to be turned into states: `chosen[i]` places piece number
/// `index` of the game (of `kind`) on `parents[chosen[i].parent]`.
#[derive(Clone, Copy)]
pub(crate) struct Last<'a> {
    pub chosen: &'a [Candidate],
    pub kind: Kind,
    pub index: usize,
}

/// The beam's states and the expansion's buffers, kept from depth to depth: at large beams
/// they are tens of MB, and allocating them afresh each depth costs page faults.
#[derive(Default)]
pub(crate) struct Beam {
    /// The states two depths back, which the last selection refers to (before the first
    /// piece: the start's board, and nothing is chosen yet).
    pub parents: Vec<Node>,
    /// The states the last selection becomes, built by the expansion tasks.
    pub frontier: Vec<Node>,
    /// Per task: its children.
    pub chunks: Vec<Chunk>,
}

/// What an expansion did.
pub(crate) struct Expanded {
    /// Tasks run: `chunks[..tasks]` hold the children.
    pub tasks: usize,
    /// States expanded.
    pub states: usize,
    /// Placements generated.
    pub placements: u64,
}

impl Beam {
    /// A beam holding the one state `start`.
    pub fn new(start: Node) -> Beam {
        Beam {
            parents: vec![start],
            ..Beam::default()
        }
    }

    /// Every child of every state to expand, in order, into the first tasks' buffers. The
    /// states are `parents` themselves when `last` is None; otherwise the states `last` chose,
    /// which the tasks build into `frontier` (and their trail steps into `level`) on the way.
    pub fn expand(
        &mut self,
        last: Option<Last>,
        step: &Step,
        level: &mut Vec<TrailEntry>,
    ) -> Expanded {
        let count = last.as_ref().map_or(self.parents.len(), |l| l.chosen.len());
        let tasks = count.div_ceil(CHUNK);
        if self.chunks.len() < tasks {
            self.chunks.resize_with(tasks, Chunk::default);
        }
        let expand_all = |chunk_index: usize, nodes: &[Node], out: &mut Chunk| {
            out.candidates.clear();
            let mut scratch = Placements::new();
            let mut pending = Pending::default();
            let mut generated = 0u64;
            for (i, node) in nodes.iter().enumerate() {
                let parent = (chunk_index * CHUNK + i) as u32;
                generated += expand_node(
                    node,
                    parent,
                    step,
                    &mut scratch,
                    &mut pending,
                    &mut out.candidates,
                );
            }
            pending.flush(step.ranking, &mut out.candidates);
            out.take_sample();
            // Looked for here, while the candidates are still in this task's cache.
            out.guided = step
                .guide_board
                .and_then(|b| best_with_board(&out.candidates, b));
            generated
        };
        let parents = &self.parents;
        let placements: u64 = match last {
            None => parents
                .par_chunks(CHUNK)
                .zip(self.chunks.par_iter_mut())
                .enumerate()
                .map(|(chunk_index, (nodes, out))| expand_all(chunk_index, nodes, out))
                .sum(),
            Some(last) => {
                // Only grows (or shrinks) while the beam fills: no per-depth writes once full.
                self.frontier.resize(count, Node::default());
                level.resize(count, TrailEntry::default());
                last.chosen
                    .par_chunks(CHUNK)
                    .zip(self.frontier.par_chunks_mut(CHUNK))
                    .zip(level.par_chunks_mut(CHUNK))
                    .zip(self.chunks.par_iter_mut())
                    .enumerate()
                    .map(|(chunk_index, (((chosen, nodes), steps), out))| {
                        let first = chunk_index * CHUNK;
                        for (i, (c, (node, trail))) in
                            chosen.iter().zip(nodes.iter_mut().zip(steps)).enumerate()
                        {
                            let parent = &parents[c.parent as usize];
                            let mut board = parent.board;
                            Placement::unpack(c.placement)
                                .lock(&mut board, last.kind, last.index, step.rules);
                            *node = Node {
                                board,
                                score: c.score,
                                trail: (first + i) as u32,
                            };
                            *trail = TrailEntry {
                                parent: parent.trail,
                                placement: c.placement,
                            };
                        }
                        expand_all(chunk_index, nodes, out)
                    })
                    .sum()
            }
        };
        Expanded {
            tasks,
            states: count,
            placements,
        }
    }
}

/// A child waiting for its evaluation.
#[derive(Clone, Copy)]
struct Child {
    score: u64,
    parent: u32,
    placement: u16,
}

/// Children waiting for their evaluation, which runs a batch at a time (children of several
/// states share a batch; the order of the candidates is unchanged).
#[derive(Default)]
struct Pending {
    boards: Batch,
    children: Vec<Child>,
}

impl Pending {
    /// Evaluates the waiting children and turns them into candidates.
    fn flush(&mut self, ranking: &Ranking, out: &mut Vec<Candidate>) {
        if self.children.is_empty() {
            return;
        }
        let costs = evaluate_batch(&self.boards, &ranking.weights);
        let hashes = self.boards.hashes();
        for (i, child) in self.children.iter().enumerate() {
            let (cost, hash) = (costs[i], hashes[i]);
            out.push(Candidate {
                key: sortable(cost as f64 - child.score as f64 * ranking.score_weight),
                hash,
                score: child.score,
                parent: child.parent,
                placement: child.placement,
            });
        }
        self.children.clear();
        self.boards.clear();
    }
}

/// Every placement of `step`'s piece on `node` (the state `parent` of this depth) into
/// `pending`, flushed into `out` whenever a batch is full; returns the placements generated.
#[inline]
fn expand_node(
    node: &Node,
    parent: u32,
    step: &Step,
    scratch: &mut Placements,
    pending: &mut Pending,
    out: &mut Vec<Candidate>,
) -> u64 {
    let (kind, index) = (step.kind, step.index);
    placements_with(&node.board, kind, index, step.rules, scratch);
    let occupied = node.board.occupied_rows();
    for p in scratch.iter() {
        let mut board = node.board;
        let outcome = p.lock_over(&mut board, occupied, kind, index, step.rules);
        if outcome.game_over.is_some() {
            continue;
        }
        pending.boards.push(&board, p.y as u32);
        pending.children.push(Child {
            score: node.score + outcome.score as u64,
            parent,
            placement: p.pack(),
        });
        if pending.boards.is_full() {
            pending.flush(step.ranking, out);
        }
    }
    scratch.len() as u64
}
