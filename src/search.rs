//! The beam search over the whole piece sequence.
//!
//! Each depth places one piece. Every state of the beam is expanded in parallel into all its
//! placements; a child is ranked by `evaluation(board) - score * score_weight` (lower is better),
//! duplicate boards are dropped, and the best `beam_width` survive. A state only keeps its board,
//! its score and an index into the trail; the trail is one `(parent, placement)` pair per kept
//! state per depth, and dead lineages are compacted away every few dozen depths, so memory stays
//! near `beam_width x (board + a few trail levels)` instead of growing with the sequence.
//!
//! The search is deterministic: candidates are produced in beam order whatever the thread count,
//! and ties are broken by (parent, placement), which are unique.

use crate::bitboard::Board;
use crate::eval::{evaluate_batch, Batch, Weights};
use crate::movegen::{placements_with, Placement, Placements};
use crate::rules::{Kind, Rules};
use crate::width::{Schedule, TimeBudget, PROBE_DEPTHS, SEGMENT_DEPTHS, WARMUP_DEPTHS};
use ahash::AHashMap;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Beam policy beyond the evaluation: data, with defaults, so the tuner can search it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// A clear of `n` rows is only allowed when the board held at least `min_cells_to_clear[n-1]`
    /// cells before the piece: the same clear is worth more on a fuller board.
    pub min_cells_to_clear: [u32; 4],
    /// Share of the beam (0..1) filled first by the highest scores, whatever their boards.
    pub score_share: f64,
    /// Most children one state may pass to the next depth (0: no limit), so that one lineage
    /// cannot fill the beam.
    pub max_children: u16,
    /// Points added, for ranking only, per clear of 1, 2, 3 and 4 rows (negative: a penalty).
    /// Shapes the beam away from clears that spend rows cheaply; the reported score is untouched.
    pub clear_bonus: [f64; 4],
    /// For the last `endgame_pieces` pieces the key uses `endgame_score_weight` (when set)
    /// instead of the score weight: cells left on the board at the end never score.
    pub endgame_pieces: usize,
    pub endgame_score_weight: Option<f64>,
    /// While the next I piece is at most `i_near_pieces` pieces away (0: off), the score weight
    /// is multiplied by `i_near_score_factor`: the sequence is known, so the exchange rate
    /// between points banked and cells held can follow the next 4-line clear.
    pub i_near_pieces: usize,
    pub i_near_score_factor: f64,
    /// Children scoring more than this many points below the best state of the last beam are
    /// dropped before ranking (0: off), so that the beam spends no room on lines that have
    /// fallen far behind.
    pub score_gap: u64,
}

impl Default for Policy {
    /// Everything off but the endgame. The evaluation prices the board for a game that goes on,
    /// but cells still on the board after the last piece never score. A higher score weight
    /// for the last ten pieces let the beam cash them in: +506 points per game on seeds 1-6 at
    /// beam 10,000, higher on every seed, and +616 on the contest at 20,000; longer endgames
    /// or a pure-score key lost (bench/tuning/README.md, session 20).
    fn default() -> Self {
        Policy {
            min_cells_to_clear: [0; 4],
            score_share: 0.0,
            max_children: 0,
            clear_bonus: [0.0; 4],
            endgame_pieces: 10,
            endgame_score_weight: Some(0.05),
            i_near_pieces: 0,
            i_near_score_factor: 0.0,
            score_gap: 0,
        }
    }
}

/// Everything that decides what the search returns.
#[derive(Clone, Debug)]
pub struct Params {
    /// States kept at each depth (from the first; see `width_changes` and `time_budget`).
    pub beam_width: usize,
    /// Changes of the width at given depths (empty: `beam_width` throughout).
    pub width_changes: Schedule,
    /// Re-choose the width as the search goes so that it ends within this wall-clock budget
    /// (`beam_width` is then the first width; `width_changes` must be empty). The record then
    /// depends on the clock; [`Solution::width_changes`] replays it without the budget.
    pub time_budget: Option<TimeBudget>,
    pub score_weight: f64,
    pub weights: Weights,
    pub policy: Policy,
    /// The game's rules (where the rules lock pieces in mid-air, the search places such locks
    /// where they clear rows).
    pub rules: Rules,
    /// Where the search begins (default: the empty board before the first piece).
    pub start: Start,
}

/// A game already under way: the board and score after its first `index` pieces, from which
/// the search places piece number `index` on (to try other settings on the rest of a record).
/// Depths, width changes and a time budget then count from that piece.
#[derive(Clone, Debug, Default)]
pub struct Start {
    pub index: usize,
    pub board: Board,
    pub score: u64,
}

/// A state of the beam.
#[derive(Clone, Copy, Default)]
struct Node {
    board: Board,
    score: u64,
    /// Sum of the policy's clear bonuses along this state's line (ranking only).
    bonus: f64,
    /// Index of this state's entry in its depth's trail level.
    trail: u32,
}

/// A child before selection: enough to rank it and rebuild it.
#[derive(Clone, Copy, Default)]
struct Candidate {
    /// The key as an integer that sorts like the float (see [`sortable`]).
    key: u64,
    hash: u64,
    score: u64,
    parent: u32,
    placement: u16,
}

impl Candidate {
    /// Key first, then (parent, placement), which is unique: a total order as one integer, so
    /// that selecting and sorting compare plain integers.
    #[inline]
    fn order_key(&self) -> u128 {
        (self.key as u128) << 64 | (self.parent as u128) << 16 | self.placement as u128
    }
}

/// One expansion task's children, with the sample of their keys that the parallel selection
/// sets its threshold from (taken while they are still in the task's cache).
#[derive(Clone, Default)]
struct Chunk {
    candidates: Vec<Candidate>,
    /// `key` of every `SAMPLE_STEP`-th candidate, from the first.
    sample: Vec<u64>,
    /// The best of the candidates with the guide's board (see [`best_with_board`]), if any.
    guided: Option<Candidate>,
}

impl Chunk {
    /// Takes the sample (replacing the last depth's) once the candidates are complete.
    fn take_sample(&mut self) {
        self.sample.clear();
        let keys = self.candidates.iter().step_by(SAMPLE_STEP);
        self.sample.extend(keys.map(|c| c.key));
    }

    #[cfg(test)]
    fn of(candidates: &[Candidate]) -> Chunk {
        let mut chunk = Chunk {
            candidates: candidates.to_vec(),
            ..Chunk::default()
        };
        chunk.take_sample();
        chunk
    }
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

/// One kept state's step: the parent's index in the previous level and the placement taken.
#[derive(Clone, Copy, Default)]
struct TrailEntry {
    parent: u32,
    placement: u16,
}

/// What the search reports after each depth.
#[derive(Clone, Copy, Debug, Default)]
pub struct DepthStats {
    /// Pieces placed so far (depth + 1).
    pub pieces: usize,
    pub best_score: u64,
    pub beam_size: usize,
    /// Placements generated and evaluated so far.
    pub placements: u64,
    /// States expanded so far.
    pub expanded: u64,
    /// Wall time so far in each phase of a depth: generating and evaluating the children
    /// (including building the last selection's boards, which the expansion tasks do),
    /// selecting the next beam, and the bookkeeping around it (trail, its compaction, best
    /// state).
    pub seconds: PhaseSeconds,
}

/// Wall seconds per phase of the search (see [`DepthStats::seconds`]).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct PhaseSeconds {
    pub expand: f64,
    pub select: f64,
    pub advance: f64,
}

/// The search's answer: one placement per piece from the first.
#[derive(Clone, Debug)]
pub struct Solution {
    /// One placement per piece from `Params::start`'s piece on.
    pub placements: Vec<Placement>,
    /// The whole game's score, the start's included.
    pub score: u64,
    pub stats: DepthStats,
    /// The width changes the search made (those of `Params::width_changes` it reached, or the
    /// budget's): with the same `beam_width` and no budget they give the same record.
    pub width_changes: Schedule,
}

/// States expanded per parallel task: fixed, so the work split never depends on the thread count.
const CHUNK: usize = 32;
/// Depths between two compactions of the trail.
const GC_INTERVAL: usize = 64;

/// Runs the beam over `sequence` (all of it, up to the piece limit, from `params.start`'s
/// piece on), calling `progress` after every depth.
pub fn beam_search(
    sequence: &[Kind],
    params: &Params,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    search(sequence, params, None, progress)
}

/// A line of play to improve on: its board (as [`Board::hash64`]) after each piece from
/// `Params::start`'s on.
#[derive(Clone, Debug, Default)]
pub struct Guide {
    pub boards: Vec<u64>,
    /// Nothing follows the last piece searched (the guide's game ends there): the answer is
    /// then the beam's best line at the last depth where that scores more than the guide's.
    pub free_end: bool,
}

/// [`beam_search`] that keeps the guide's line in the beam whatever its rank and answers with
/// that line as the beam left it. Nothing in the rules depends on how a board was reached, so
/// a line of the search that meets one of the guide's boards with more points carries the gain
/// on along the guide's line: the answer is the guide with every such gain, ending on the
/// guide's board after the last piece searched (or the last it could keep, if a policy's
/// filter dropped it), so whatever followed that board in the guide's game can follow the
/// answer too; with [`Guide::free_end`], the beam's best line at the end if it scores more.
/// Empty when the beam never held a board of the guide.
pub fn beam_search_guided(
    sequence: &[Kind],
    params: &Params,
    guide: &Guide,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    search(sequence, params, Some(guide), progress)
}

fn search(
    sequence: &[Kind],
    params: &Params,
    guide: Option<&Guide>,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    assert!(
        params.beam_width > 0 && params.width_changes.0.iter().all(|&(_, w)| w > 0),
        "beam width must be positive"
    );
    assert!(
        params.time_budget.is_none() || params.width_changes.0.is_empty(),
        "a time budget chooses the widths itself"
    );
    let started = Instant::now();
    let mut width = params.beam_width;
    let mut scheduled = params.width_changes.0.iter().peekable();
    let mut width_changes = Vec::new();
    // Where the budget's current measurement began: (time, states expanded by then).
    let mut segment = (started, 0u64);
    // From here on `sequence` holds the pieces to search and a depth counts from the first of
    // them; only the rules (spawn state, piece limit) need the piece's number in the game.
    let first = params.start.index;
    let depth_count = params
        .rules
        .pieces_to_place(sequence.len())
        .saturating_sub(first);
    let sequence = &sequence[first.min(sequence.len())..];
    // The states of the last depth are built inside the next depth's expansion tasks (each
    // task locks its share of the chosen placements onto their parents, then expands them):
    // a separate parallel pass for it would cost a fork-join per depth, which on two cores is
    // a measurable share of the time. So `parents` holds the states two depths back, which
    // `picker.chosen` (the last selection) refers to, and `frontier` the states they become;
    // before the first piece `parents` is the empty board and nothing is chosen yet.
    let mut parents = vec![Node {
        board: params.start.board,
        score: params.start.score,
        ..Node::default()
    }];
    let mut frontier: Vec<Node> = Vec::new();
    let mut trail: Vec<Vec<TrailEntry>> = Vec::with_capacity(depth_count);
    // The best state seen at any depth: (depth, trail index, score); None before any piece.
    // With a guide: the last state seen on the guide's line.
    let mut best: Option<(usize, u32, u64)> = None;
    let mut stats = DepthStats::default();
    let mut last_gc = 0usize;
    // Buffers reused from depth to depth: at large beams they are tens of MB, and allocating
    // them afresh each depth costs page faults.
    // (`flat` holds all candidates in one slice, for the serial selection only.)
    let mut flat: Vec<Candidate> = Vec::new();
    let mut chunk_buffers: Vec<Chunk> = Vec::new();
    let mut picker = Picker {
        chosen: Vec::with_capacity(params.beam_width),
        seen: AHashMap::with_capacity(params.beam_width * 2),
        children: Vec::new(),
        max_children: params.policy.max_children,
        buckets: Buckets::default(),
    };
    let mut finished = true;
    // The highest score in the last beam (for `Policy::score_gap`).
    let mut beam_best = 0u64;

    for (depth, &kind) in sequence.iter().enumerate().take(depth_count) {
        let depth_started = Instant::now();
        while let Some(&&(d, w)) = scheduled.peek() {
            if d > depth {
                break;
            }
            width = w;
            width_changes.push((d, w));
            scheduled.next();
        }
        let (score_weight, floor) = ranking(sequence, depth, depth_count, params, beam_best);
        let weights = params.weights.at_depth(sequence, depth);
        // The rules (spawn state, piece limit) number the pieces from the game's first.
        let index = first + depth;
        let last = (depth > 0).then(|| Last {
            chosen: &picker.chosen,
            kind: sequence[depth - 1],
            index: index - 1,
        });
        let guide_board = guide.and_then(|g| g.boards.get(depth)).copied();
        let mut level = Vec::new();
        let mut expand_with = |floor| {
            let (tasks, expanding) = expand(
                &parents,
                last,
                (&mut frontier, &mut level),
                (kind, index),
                params,
                (score_weight, floor, &weights),
                guide_board,
                &mut stats,
                &mut chunk_buffers,
            );
            let empty = chunk_buffers[..tasks]
                .iter()
                .all(|c| c.candidates.is_empty());
            (tasks, expanding, empty)
        };
        let (mut tasks, mut expanding, mut empty) = expand_with(floor);
        if empty && floor > 0 {
            // Every child at or above the floor died: the gap alone must not end the game
            // while other lines could go on.
            (tasks, expanding, empty) = expand_with(0);
        }
        let chunks = &chunk_buffers[..tasks];
        let expanded = Instant::now();
        if depth > 0 {
            trail.push(level);
            if trail.len() - last_gc >= GC_INTERVAL {
                compact_trail(&mut trail, &mut frontier, &mut best, last_gc);
                last_gc = trail.len();
            }
        }
        if empty {
            finished = false;
            break;
        }
        // Keeping the trail is bookkeeping, counted with building the states (`advance`).
        let kept = Instant::now();
        picker.reset(expanding);
        select(chunks, &mut flat, width, &params.policy, &mut picker);
        let on_guide = guide_board.and_then(|board| keep_board(chunks, board, &mut picker.chosen));
        let selected = Instant::now();
        let chosen = &picker.chosen;
        let (top_index, top) = chosen
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.score.cmp(&b.1.score).then(b.0.cmp(&a.0)))
            .expect("a selection from candidates is not empty");
        if let Some(i) = on_guide {
            best = Some((depth, i as u32, chosen[i].score));
        }
        // Unguided, the best state of any depth; guided, the guide's, or at a free end the top.
        let top_may_win = guide.is_none_or(|g| g.free_end && depth + 1 == depth_count);
        if top_may_win && best.is_none_or(|(_, _, s)| top.score > s) {
            best = Some((depth, top_index as u32, top.score));
        }
        beam_best = top.score;
        if depth > 0 {
            std::mem::swap(&mut parents, &mut frontier);
        }
        stats.pieces = depth + 1;
        stats.best_score = best.map_or(0, |b| b.2);
        stats.beam_size = chosen.len();
        stats.seconds.expand += (expanded - depth_started).as_secs_f64();
        stats.seconds.select += (selected - kept).as_secs_f64();
        stats.seconds.advance += (kept - expanded).as_secs_f64() + selected.elapsed().as_secs_f64();
        progress(&stats);
        if let Some(budget) = &params.time_budget {
            let done = depth + 1;
            let due = done == PROBE_DEPTHS
                || (done > PROBE_DEPTHS && (done - PROBE_DEPTHS).is_multiple_of(SEGMENT_DEPTHS));
            if done == WARMUP_DEPTHS {
                segment = (Instant::now(), stats.expanded);
            }
            if due && done < depth_count {
                let states = (stats.expanded - segment.1).max(1);
                let per_state = segment.0.elapsed().as_secs_f64() / states as f64;
                let remaining = budget.search_seconds() - started.elapsed().as_secs_f64();
                let next = budget.next_width(remaining, depth_count - done, per_state, width);
                // Changes under 2% are measurement noise; leaving them out keeps the schedule
                // short.
                if next.abs_diff(width) * 50 > width {
                    width = next;
                    width_changes.push((done, next));
                }
                segment = (Instant::now(), stats.expanded);
            }
        }
    }
    if finished && depth_count > 0 {
        // The last selection's states are never expanded; only their steps are needed.
        let level = picker.chosen.iter().map(|c| TrailEntry {
            parent: parents[c.parent as usize].trail,
            placement: c.placement,
        });
        trail.push(level.collect());
    }

    let mut placements = Vec::new();
    let score = match best {
        None => params.start.score,
        Some((depth, index, score)) => {
            let mut i = index;
            for d in (0..=depth).rev() {
                let e = trail[d][i as usize];
                placements.push(Placement::unpack(e.placement));
                i = e.parent;
            }
            placements.reverse();
            score
        }
    };
    Solution {
        placements,
        score,
        stats,
        width_changes: Schedule(width_changes),
    }
}

/// The score weight and the score floor for the children of depth `depth` (of `depth_count`),
/// from the policy: the endgame's own score weight, another one while an I piece is near, and
/// `score_gap` under `beam_best`, the last beam's highest score.
fn ranking(
    sequence: &[Kind],
    depth: usize,
    depth_count: usize,
    params: &Params,
    beam_best: u64,
) -> (f64, u64) {
    let policy = &params.policy;
    let mut score_weight = match policy.endgame_score_weight {
        Some(w) if depth_count - depth <= policy.endgame_pieces => w,
        _ => params.score_weight,
    };
    let near = policy.i_near_pieces;
    if near > 0
        && sequence[depth + 1..]
            .iter()
            .take(near)
            .any(|&k| k == Kind::I)
    {
        score_weight *= policy.i_near_score_factor;
    }
    let floor = match policy.score_gap {
        0 => 0,
        gap => beam_best.saturating_sub(gap),
    };
    (score_weight, floor)
}

/// The last depth's selection, to be turned into states: `chosen[i]` places piece number
/// `index` of the game (of `kind`) on `parents[chosen[i].parent]`.
#[derive(Clone, Copy)]
struct Last<'a> {
    chosen: &'a [Candidate],
    kind: Kind,
    index: usize,
}

/// Every child of every state to expand, in order, into the first `n.div_ceil(CHUNK)` of the
/// per-task buffers `chunks` (returns that number of tasks and `n`, the states expanded),
/// leaving out children that score under `floor`. The states are `parents` themselves when
/// `last` is None; otherwise the states `last` chose, which the tasks build into `frontier` (and
/// their trail steps into `level`) on the way. The buffers are kept from depth to depth:
/// allocating them afresh costs page faults every depth.
#[allow(clippy::too_many_arguments)]
fn expand(
    parents: &[Node],
    last: Option<Last>,
    (frontier, level): (&mut Vec<Node>, &mut Vec<TrailEntry>),
    (kind, index): (Kind, usize),
    params: &Params,
    (score_weight, floor, weights): (f64, u64, &Weights),
    guide_board: Option<u64>,
    stats: &mut DepthStats,
    chunks: &mut Vec<Chunk>,
) -> (usize, usize) {
    let count = last.as_ref().map_or(parents.len(), |l| l.chosen.len());
    let tasks = count.div_ceil(CHUNK);
    if chunks.len() < tasks {
        chunks.resize_with(tasks, Chunk::default);
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
                (kind, index),
                params,
                (score_weight, floor, weights),
                &mut scratch,
                &mut pending,
                &mut out.candidates,
            );
        }
        pending.flush(weights, score_weight, &mut out.candidates);
        out.take_sample();
        // Looked for here, while the candidates are still in this task's cache.
        out.guided = guide_board.and_then(|b| best_with_board(&out.candidates, b));
        generated
    };
    let generated: u64 = match last {
        None => parents
            .par_chunks(CHUNK)
            .zip(chunks.par_iter_mut())
            .enumerate()
            .map(|(chunk_index, (nodes, out))| expand_all(chunk_index, nodes, out))
            .sum(),
        Some(last) => {
            // Only grows (or shrinks) while the beam fills: no per-depth writes once full.
            frontier.resize(count, Node::default());
            level.resize(count, TrailEntry::default());
            last.chosen
                .par_chunks(CHUNK)
                .zip(frontier.par_chunks_mut(CHUNK))
                .zip(level.par_chunks_mut(CHUNK))
                .zip(chunks.par_iter_mut())
                .enumerate()
                .map(|(chunk_index, (((chosen, nodes), steps), out))| {
                    let first = chunk_index * CHUNK;
                    for (i, (c, (node, step))) in
                        chosen.iter().zip(nodes.iter_mut().zip(steps)).enumerate()
                    {
                        let parent = &parents[c.parent as usize];
                        let mut board = parent.board;
                        let outcome = Placement::unpack(c.placement).lock(
                            &mut board,
                            last.kind,
                            last.index,
                            params.rules,
                        );
                        *node = Node {
                            board,
                            score: c.score,
                            bonus: parent.bonus + clear_bonus(&params.policy, outcome.lines),
                            trail: (first + i) as u32,
                        };
                        *step = TrailEntry {
                            parent: parent.trail,
                            placement: c.placement,
                        };
                    }
                    expand_all(chunk_index, nodes, out)
                })
                .sum()
        }
    };
    stats.expanded += count as u64;
    stats.placements += generated;
    (tasks, count)
}

/// Children waiting for their evaluation, which runs a batch at a time (children of several
/// states share a batch; the order of the candidates is unchanged).
#[derive(Default)]
struct Pending {
    boards: Batch,
    /// Per child: (score, ranked score, parent, placement).
    children: Vec<(u64, f64, u32, u16)>,
}

impl Pending {
    /// Evaluates the waiting children and turns them into candidates.
    fn flush(&mut self, weights: &Weights, score_weight: f64, out: &mut Vec<Candidate>) {
        if self.children.is_empty() {
            return;
        }
        let costs = evaluate_batch(&self.boards, weights);
        let hashes = self.boards.hashes();
        for (i, &(score, ranked, parent, placement)) in self.children.iter().enumerate() {
            let (cost, hash) = (costs[i], hashes[i]);
            out.push(Candidate {
                key: sortable(cost as f64 - ranked * score_weight),
                hash,
                score,
                parent,
                placement,
            });
        }
        self.children.clear();
        self.boards.clear();
    }
}

#[inline]
#[allow(clippy::too_many_arguments)]
fn expand_node(
    node: &Node,
    parent: u32,
    (kind, index): (Kind, usize),
    params: &Params,
    (score_weight, floor, weights): (f64, u64, &Weights),
    scratch: &mut Placements,
    pending: &mut Pending,
    out: &mut Vec<Candidate>,
) -> u64 {
    placements_with(&node.board, kind, index, params.rules, scratch);
    let cells_before = node.board.filled_cells();
    let occupied = node.board.occupied_rows();
    for p in scratch.iter() {
        let mut board = node.board;
        let outcome = p.lock_over(&mut board, occupied, kind, index, params.rules);
        if outcome.game_over.is_some() {
            continue;
        }
        if outcome.lines > 0
            && cells_before < params.policy.min_cells_to_clear[outcome.lines as usize - 1]
        {
            continue;
        }
        let score = node.score + outcome.score as u64;
        if score < floor {
            continue;
        }
        let ranked = score as f64 + node.bonus + clear_bonus(&params.policy, outcome.lines);
        pending.boards.push(&board, p.y as u32);
        pending.children.push((score, ranked, parent, p.pack()));
        if pending.boards.is_full() {
            pending.flush(weights, score_weight, out);
        }
    }
    scratch.len() as u64
}

#[inline]
fn clear_bonus(policy: &Policy, lines: u32) -> f64 {
    if lines == 0 {
        0.0
    } else {
        policy.clear_bonus[lines as usize - 1]
    }
}

/// The states that go on: `width` of the candidates in `chunks` with distinct boards. A share of
/// the places goes to the highest scores first, the rest to the best keys; no parent may have
/// more than `max_children` children kept (0: no limit). Among candidates with the same board
/// the one with the higher score is kept. `flat` is a buffer for the candidates in one slice,
/// which only the serial selection needs.
fn select(
    chunks: &[Chunk],
    flat: &mut Vec<Candidate>,
    width: usize,
    policy: &Policy,
    picker: &mut Picker,
) {
    let by_score = ((width as f64 * policy.score_share.clamp(0.0, 1.0)) as usize).min(width);
    let total: usize = chunks.iter().map(|c| c.candidates.len()).sum();
    if by_score == 0
        && picker.max_children == 0
        && total > 4 * width
        && picker.buckets.select(chunks, width, &mut picker.chosen)
    {
        return;
    }
    flat.clear();
    for c in chunks {
        flat.extend_from_slice(&c.candidates);
    }
    let candidates = &mut flat[..];
    if by_score > 0 {
        picker.fill(candidates, by_score, |c| {
            (std::cmp::Reverse(c.score), c.order_key())
        });
    }
    picker.fill(candidates, width, Candidate::order_key);
}

/// Makes sure the board `hash` goes on if any candidate has it (with the highest score of
/// those that do), even if it did not make the width: a guide's line then survives to the end,
/// and every other line that meets it with more points carries that gain along it. Returns
/// its index in `chosen`, if any candidate had it.
fn keep_board(chunks: &[Chunk], hash: u64, chosen: &mut Vec<Candidate>) -> Option<usize> {
    if let Some(i) = chosen.iter().position(|c| c.hash == hash) {
        return Some(i);
    }
    let found: Vec<Candidate> = chunks.iter().filter_map(|c| c.guided).collect();
    let kept = best_with_board(&found, hash)?;
    chosen.push(kept);
    Some(chosen.len() - 1)
}

/// The candidate with board `hash` that the selection would keep: the highest score, then the
/// lowest (parent, placement), whichever task made it.
fn best_with_board(candidates: &[Candidate], hash: u64) -> Option<Candidate> {
    let with_board = candidates.iter().filter(|c| c.hash == hash);
    with_board
        .max_by_key(|c| (c.score, std::cmp::Reverse(c.order_key())))
        .copied()
}

/// Blocks the candidates are cut into, and buckets (by board hash) the shortlist is sorted
/// into, by the parallel selection: fixed numbers, so the work never depends on the threads.
const BLOCKS: usize = 16;
const BUCKETS: usize = 16;

/// Bins of key that the shortlist's boards are counted in, to find the cutoff.
const BINS: usize = 64;

/// The parallel selection's buffers, kept from depth to depth.
///
/// Candidates under a threshold (estimated from a sample to let a little more than the best
/// 2 x width keys through) are spread over buckets by board hash, so that every duplicate of a
/// board lands in the same bucket. Each bucket drops its duplicates on its own, in parallel:
/// a board ranks by its best key and carries its highest score. The best `width` boards of all
/// buckets then go on.
///
/// The serial steps are kept small: the threshold is selected from a sample of keys, and for
/// the cutoff between the `width` best boards and the rest each bucket also counts its boards
/// per bin of key (bins split the sampled keys under the threshold evenly), the counts tell
/// which bin holds the `width`-th board, and only that bin's ranks are searched.
#[derive(Default)]
struct Buckets {
    /// Per block, per bucket: the block's candidates under the threshold.
    blocks: Vec<Vec<Vec<Candidate>>>,
    /// Per bucket: board hash -> index in `boards`.
    seen: Vec<AHashMap<u64, usize>>,
    /// Per bucket: (rank, candidate) per distinct board.
    boards: Vec<Vec<(u128, Candidate)>>,
    /// Per bucket: each board's bin (in the order of `boards`; kept so that the serial step
    /// only compares bytes to find the cutoff bin's boards), and boards per bin.
    bins: Vec<Vec<u8>>,
    counts: Vec<[usize; BINS]>,
    /// The cutoff's bin's ranks, with their buckets.
    pool: Vec<(u128, usize)>,
    sample: Vec<u64>,
}

/// Bins of keys: even in the key's integer form from `start`, which for keys of one sign and
/// magnitude (as a depth's are) is even in value too.
#[derive(Clone, Copy)]
struct Bins {
    start: u64,
    scale: f64,
}

impl Bins {
    #[inline]
    fn of(&self, key: u64) -> usize {
        ((key.saturating_sub(self.start) as f64 * self.scale) as usize).min(BINS - 1)
    }
}

impl Buckets {
    /// Puts the best `width` distinct boards into `chosen` (in no particular but deterministic
    /// order) and returns true, or returns false when the shortlist held fewer distinct boards
    /// (the caller then selects from every candidate).
    fn select(&mut self, chunks: &[Chunk], width: usize, chosen: &mut Vec<Candidate>) -> bool {
        if self.blocks.is_empty() {
            self.blocks = (0..BLOCKS).map(|_| vec![Vec::new(); BUCKETS]).collect();
            self.seen = (0..BUCKETS).map(|_| AHashMap::new()).collect();
            self.boards = vec![Vec::new(); BUCKETS];
            self.bins = vec![Vec::new(); BUCKETS];
            self.counts = vec![[0; BINS]; BUCKETS];
        }
        // Enough candidates that, after duplicates, `width` distinct boards remain.
        let round = (width + width / 2).max(64);
        self.sample.clear();
        self.sample
            .extend(chunks.iter().flat_map(|c| &c.sample).copied());
        if self.sample.is_empty() {
            return false;
        }
        // A margin over the expected rank, so the shortlist rarely falls short.
        let rank = (round / SAMPLE_STEP * 5 / 4 + 16).min(self.sample.len() - 1);
        let (lower, &mut threshold, _) = self.sample.select_nth_unstable(rank);
        // The bins span the sampled keys under the threshold (keys under the lowest sampled
        // one go in the first bin).
        let start = lower.iter().copied().min().unwrap_or(threshold);
        let bins = Bins {
            start,
            scale: BINS as f64 / ((threshold - start) as f64 + 1.0),
        };
        // A block is a run of consecutive chunks.
        let block_len = chunks.len().div_ceil(BLOCKS);
        let bucket_of = |hash: u64| (hash >> 32) as usize % BUCKETS;
        chunks
            .par_chunks(block_len)
            .zip(self.blocks.par_iter_mut())
            .for_each(|(block, buckets)| {
                buckets.iter_mut().for_each(Vec::clear);
                for c in block.iter().flat_map(|c| &c.candidates) {
                    if c.key <= threshold {
                        buckets[bucket_of(c.hash)].push(*c);
                    }
                }
            });
        let blocks = &self.blocks;
        let used_blocks = chunks.len().div_ceil(block_len);
        self.seen
            .par_iter_mut()
            .zip(self.boards.par_iter_mut())
            .zip(self.bins.par_iter_mut())
            .zip(self.counts.par_iter_mut())
            .enumerate()
            .for_each(|(bucket, (((seen, boards), board_bins), counts))| {
                seen.clear();
                boards.clear();
                for block in &blocks[..used_blocks] {
                    for c in &block[bucket] {
                        let key = c.order_key();
                        if let Some(&i) = seen.get(&c.hash) {
                            let entry: &mut (u128, Candidate) = &mut boards[i];
                            entry.0 = entry.0.min(key);
                            if c.score > entry.1.score {
                                entry.1 = *c;
                            }
                        } else {
                            seen.insert(c.hash, boards.len());
                            boards.push((key, *c));
                        }
                    }
                }
                // Taken here, in the task's cache, for the serial cutoff below.
                *counts = [0; BINS];
                board_bins.clear();
                board_bins.extend(boards.iter().map(|e| {
                    let bin = bins.of((e.0 >> 64) as u64);
                    counts[bin] += 1;
                    bin as u8
                }));
            });
        // The bin that holds the `width`-th board, and how many boards rank in bins under it.
        let mut under = 0;
        let mut cutoff_bin = None;
        for bin in 0..BINS {
            let in_bin: usize = self.counts.iter().map(|c| c[bin]).sum();
            if under + in_bin >= width {
                cutoff_bin = Some(bin);
                break;
            }
            under += in_bin;
        }
        let Some(cutoff_bin) = cutoff_bin else {
            // Fewer than `width` distinct boards in the shortlist.
            return false;
        };
        self.pool.clear();
        for (bucket, (boards, board_bins)) in self.boards.iter().zip(&self.bins).enumerate() {
            for (e, &bin) in boards.iter().zip(board_bins) {
                if bin as usize == cutoff_bin {
                    self.pool.push((e.0, bucket));
                }
            }
        }
        let cutoff = self.pool.select_nth_unstable(width - under - 1).1 .0;
        // Per bucket: its boards in lower bins, and those of the cutoff's bin at or under it.
        let mut kept: Vec<usize> = self
            .counts
            .iter()
            .map(|c| c[..cutoff_bin].iter().sum())
            .collect();
        for &(rank, bucket) in &self.pool {
            kept[bucket] += usize::from(rank <= cutoff);
        }
        chosen.resize(width, Candidate::default());
        let mut rest = &mut chosen[..];
        let mut parts = Vec::with_capacity(BUCKETS);
        for n in kept {
            let (part, tail) = rest.split_at_mut(n);
            parts.push(part);
            rest = tail;
        }
        debug_assert!(rest.is_empty(), "exactly `width` boards pass the cutoff");
        parts
            .into_par_iter()
            .zip(self.boards.par_iter())
            .for_each(|(part, boards)| {
                let kept = boards.iter().filter(|e| e.0 <= cutoff).map(|e| e.1);
                for (slot, c) in part.iter_mut().zip(kept) {
                    *slot = c;
                }
            });
        true
    }
}

/// One candidate in this many goes into the sample that sets the shortlist's threshold.
const SAMPLE_STEP: usize = 16;

/// The selection in progress.
struct Picker {
    chosen: Vec<Candidate>,
    /// Board hash -> index in `chosen`.
    seen: AHashMap<u64, usize>,
    /// Children kept per parent (empty when unlimited).
    children: Vec<u16>,
    max_children: u16,
    buckets: Buckets,
}

impl Picker {
    /// Empties the selection for a depth whose frontier has `parents` states.
    fn reset(&mut self, parents: usize) {
        self.chosen.clear();
        self.seen.clear();
        self.children.clear();
        if self.max_children > 0 {
            self.children.resize(parents, 0);
        }
    }

    /// Adds candidates in `order` until `chosen` holds `until` states or none are left.
    fn fill<K: Ord + Send>(
        &mut self,
        candidates: &mut [Candidate],
        until: usize,
        order: impl Fn(&Candidate) -> K + Copy + Sync,
    ) {
        let mut start = 0;
        // Duplicates are usually a small share, so rank twice the places left first and widen
        // only if that was not enough.
        let mut take = (until - self.chosen.len().min(until))
            .saturating_mul(2)
            .max(64);
        while self.chosen.len() < until && start < candidates.len() {
            let rest = &mut candidates[start..];
            let n = take.min(rest.len());
            if n < rest.len() {
                rest.select_nth_unstable_by_key(n, order);
            }
            rest[..n].par_sort_unstable_by_key(order);
            for c in &rest[..n] {
                if let Some(&i) = self.seen.get(&c.hash) {
                    if c.score > self.chosen[i].score && self.room_for(c.parent, Some(i)) {
                        self.replace(i, *c);
                    }
                } else if self.chosen.len() < until && self.room_for(c.parent, None) {
                    self.seen.insert(c.hash, self.chosen.len());
                    self.count(c.parent, 1);
                    self.chosen.push(*c);
                }
            }
            start += n;
            take = take.saturating_mul(2);
        }
    }

    /// Whether `parent` may get one more child (replacing `chosen[replacing]` if given).
    fn room_for(&self, parent: u32, replacing: Option<usize>) -> bool {
        self.children.is_empty()
            || replacing.is_some_and(|i| self.chosen[i].parent == parent)
            || self.children[parent as usize] < self.max_children
    }

    fn count(&mut self, parent: u32, delta: i32) {
        if let Some(c) = self.children.get_mut(parent as usize) {
            *c = (*c as i32 + delta) as u16;
        }
    }

    fn replace(&mut self, i: usize, c: Candidate) {
        self.count(self.chosen[i].parent, -1);
        self.count(c.parent, 1);
        self.chosen[i] = c;
    }
}

/// Drops trail entries no live state descends from, remapping indices. `frontier` holds the live
/// states of the last level, `best` a state that must survive too. Levels at or before
/// `last_gc` were compacted before: once such a level is found fully alive, so is everything
/// under it.
fn compact_trail(
    trail: &mut [Vec<TrailEntry>],
    frontier: &mut [Node],
    best: &mut Option<(usize, u32, u64)>,
    last_gc: usize,
) {
    let Some(last) = trail.len().checked_sub(1) else {
        return;
    };
    let mut live: Vec<u32> = frontier.iter().map(|n| n.trail).collect();
    for d in (0..=last).rev() {
        if let Some((bd, bi, _)) = *best {
            if bd == d {
                live.push(bi);
            }
        }
        live.sort_unstable();
        live.dedup();
        let level = &mut trail[d];
        if live.len() == level.len() {
            if d < last_gc {
                break;
            }
        } else {
            let mut remap = vec![u32::MAX; level.len()];
            let mut kept = Vec::with_capacity(live.len());
            for (new, &old) in live.iter().enumerate() {
                remap[old as usize] = new as u32;
                kept.push(level[old as usize]);
            }
            *level = kept;
            if d == last {
                for n in frontier.iter_mut() {
                    n.trail = remap[n.trail as usize];
                }
            } else {
                for e in trail[d + 1].iter_mut() {
                    e.parent = remap[e.parent as usize];
                }
            }
            if let Some((bd, bi, _)) = best.as_mut() {
                if *bd == d {
                    *bi = remap[*bi as usize];
                }
            }
        }
        live = trail[d].iter().map(|e| e.parent).collect();
        if d == 0 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::SplitMix64;
    use std::collections::{HashMap, HashSet};

    /// The shipped policy raises the score weight for exactly the last ten pieces, a policy
    /// file that leaves the endgame out keeps it, and `null` turns it off.
    #[test]
    fn the_shipped_endgame_covers_the_last_ten_pieces_and_can_be_turned_off() {
        let sequence = vec![Kind::O; 40];
        let mut params = Params {
            beam_width: 1,
            width_changes: Schedule::default(),
            time_budget: None,
            score_weight: 0.024,
            weights: Weights::default(),
            policy: serde_json::from_str("{\"score_gap\": 0}").unwrap(),
            rules: Rules::default().with_piece_limit(0),
            start: Start::default(),
        };
        assert_eq!(params.policy, Policy::default());
        let weight_at = |params: &Params, depth| ranking(&sequence, depth, 40, params, 0).0;
        assert_eq!(weight_at(&params, 29), 0.024);
        assert_eq!(weight_at(&params, 30), 0.05);
        assert_eq!(weight_at(&params, 39), 0.05);
        params.policy = serde_json::from_str("{\"endgame_score_weight\": null}").unwrap();
        assert_eq!(weight_at(&params, 39), 0.024);
    }

    /// Candidates with many duplicate boards (hashes from a small pool) and random keys.
    fn candidates(seed: u64, count: usize, boards: u64) -> Vec<Candidate> {
        let mut rng = SplitMix64::new(seed);
        (0..count)
            .map(|i| Candidate {
                key: rng.below(1 << 40),
                // Spread over the whole u64 so every bucket gets some.
                hash: rng.below(boards).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                score: rng.below(1000),
                parent: (i / 20) as u32,
                placement: (i % 20) as u16,
            })
            .collect()
    }

    /// The plain definition: boards ranked by their best key, the best `width` kept.
    fn plain_choice(candidates: &[Candidate], width: usize) -> HashSet<u64> {
        let mut best: HashMap<u64, u128> = HashMap::new();
        for c in candidates {
            let k = best.entry(c.hash).or_insert(u128::MAX);
            *k = (*k).min(c.order_key());
        }
        let mut ranked: Vec<(u128, u64)> = best.into_iter().map(|(h, k)| (k, h)).collect();
        ranked.sort_unstable();
        ranked.into_iter().take(width).map(|(_, h)| h).collect()
    }

    #[test]
    fn parallel_selection_keeps_the_best_distinct_boards() {
        for (seed, count, boards, width) in [
            (1, 20_000, 12_000, 1_000),
            (2, 20_000, 3_000, 1_000),
            (3, 50_000, 40_000, 5_000),
            (4, 5_000, 1_000, 600),
        ] {
            let all = candidates(seed, count, boards);
            let mut buckets = Buckets::default();
            let mut chosen = Vec::new();
            let chunks: Vec<Chunk> = all.chunks(700).map(Chunk::of).collect();
            if !buckets.select(&chunks, width, &mut chosen) {
                // Too many duplicates under the threshold: the caller falls back. Only
                // acceptable when there are few distinct boards.
                assert!(boards < 2 * width as u64, "seed {seed}: fell back");
                continue;
            }
            assert_eq!(chosen.len(), width, "seed {seed}");
            let hashes: HashSet<u64> = chosen.iter().map(|c| c.hash).collect();
            assert_eq!(hashes.len(), width, "seed {seed}: a board chosen twice");
            assert_eq!(hashes, plain_choice(&all, width), "seed {seed}");
            // Each board carries a score at least that of its best-keyed duplicate and no more
            // than the best of its duplicates.
            for c in &chosen {
                let dups: Vec<&Candidate> = all.iter().filter(|d| d.hash == c.hash).collect();
                let max = dups.iter().map(|d| d.score).max().unwrap();
                let first = dups.iter().min_by_key(|d| d.order_key()).unwrap();
                assert!(c.score <= max && c.score >= first.score, "seed {seed}");
            }
        }
    }

    #[test]
    fn parallel_selection_is_exact_with_tied_keys_and_uneven_bins() {
        // One set of buffers across depths, as in a search. Keys from a small range tie often
        // (whole bins share one key, and only the full rank breaks the tie at the cutoff);
        // keys shifted right by up to 60 bits spread over many magnitudes.
        let mut buckets = Buckets::default();
        for (seed, count, boards, width, keys, shift) in [
            (11, 40_000, 4_000, 2_000, 1 << 40, 0),
            (12, 40_000, 1_000_000, 2_000, u64::MAX, 60),
            (13, 40_000, 1_000_000, 2_000, 300, 0),
            (14, 40_000, 20_000, 3_000, 40, 0),
        ] {
            let mut all = candidates(seed, count, boards);
            let mut rng = SplitMix64::new(seed);
            for c in &mut all {
                c.key = rng.below(keys) >> rng.below(shift + 1);
            }
            let chunks: Vec<Chunk> = all.chunks(500).map(Chunk::of).collect();
            let mut chosen = Vec::new();
            assert!(buckets.select(&chunks, width, &mut chosen), "seed {seed}");
            let hashes: HashSet<u64> = chosen.iter().map(|c| c.hash).collect();
            assert_eq!((chosen.len(), hashes.len()), (width, width), "seed {seed}");
            assert_eq!(hashes, plain_choice(&all, width), "seed {seed}");
        }
    }

    #[test]
    fn selection_falls_back_to_every_candidate_when_duplicates_crowd_the_shortlist() {
        // 200 distinct boards among 20,000 candidates: the shortlist cannot fill a beam of 500,
        // and the full selection returns every distinct board.
        let all = candidates(5, 20_000, 200);
        let chunks: Vec<Chunk> = all.chunks(700).map(Chunk::of).collect();
        let mut picker = Picker {
            chosen: Vec::new(),
            seen: AHashMap::new(),
            children: Vec::new(),
            max_children: 0,
            buckets: Buckets::default(),
        };
        select(
            &chunks,
            &mut Vec::new(),
            500,
            &Policy::default(),
            &mut picker,
        );
        let hashes: HashSet<u64> = picker.chosen.iter().map(|c| c.hash).collect();
        assert_eq!(picker.chosen.len(), 200);
        assert_eq!(hashes, plain_choice(&all, 500));
    }
}
