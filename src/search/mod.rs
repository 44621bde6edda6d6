//! The beam search over the whole piece sequence.
//!
//! Each depth places one piece. Every state of the beam is expanded in parallel into all its
//! placements ([`expand`]); a child is ranked by `evaluation(board) - score * score_weight`
//! (lower is better; [`policy`]), duplicate boards are dropped and the best `beam_width`
//! survive ([`select`]). A state keeps only its board, its score and an index into the
//! [`trail`], from which the winning line is rebuilt at the end. [`guided`] keeps a given line
//! in the beam, for `polish`; the width along the way comes from [`crate::width`].
//!
//! The search is deterministic: candidates are produced in beam order whatever the thread count,
//! and ties are broken by (parent, placement), which are unique.

mod expand;
mod guided;
mod policy;
mod select;
mod trail;

pub use guided::Guide;
pub use policy::{Policy, PolicyError};

use crate::games::tencent::bitboard::Board;
use crate::games::tencent::eval::Weights;
use crate::games::tencent::movegen::Placement;
use crate::games::tencent::rules::{Kind, Rules};
use crate::width::{Clock, Schedule, TimeBudget, WallClock, WidthPlan};
use expand::{Beam, Candidate, Last, Node, Step};
use policy::Ranking;
use select::Picker;
use serde::Serialize;
use std::time::Instant;
use trail::{Best, Trail, TrailEntry};

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

/// What the search reports after each depth.
#[derive(Clone, Copy, Debug, Default)]
pub struct DepthStats {
    /// Pieces placed so far (depth + 1).
    pub pieces: usize,
    /// The highest score of any state kept so far, at any depth (guided: the guide's line).
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

/// Runs the beam over `sequence` (all of it, up to the piece limit, from `params.start`'s
/// piece on), calling `progress` after every depth.
pub fn beam_search(
    sequence: &[Kind],
    params: &Params,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    search(sequence, params, None, &WallClock::start(), progress)
}

/// [`beam_search`] whose time budget reads `clock` instead of the wall clock (a
/// [`crate::width::SpeedModel`] makes a budgeted search repeatable).
pub fn beam_search_with_clock(
    sequence: &[Kind],
    params: &Params,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    search(sequence, params, None, clock, progress)
}

/// [`beam_search`] that keeps the guide's line in the beam whatever its rank and answers with
/// that line as the beam left it. Nothing in the rules depends on how a board was reached, so
/// a line of the search that meets one of the guide's boards with more points carries the gain
/// on along the guide's line: the answer is the guide with every such gain, ending on the
/// guide's board after the last piece searched, so whatever followed that board in the
/// guide's game can follow the answer too; with [`Guide::free_end`], the beam's best line at
/// the end if it scores more. Empty when the beam never held a board of the guide.
pub fn beam_search_guided(
    sequence: &[Kind],
    params: &Params,
    guide: &Guide,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    search(sequence, params, Some(guide), &WallClock::start(), progress)
}

fn search(
    sequence: &[Kind],
    params: &Params,
    guide: Option<&Guide>,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    assert!(
        params.beam_width > 0 && params.width_changes.0.iter().all(|&(_, w)| w > 0),
        "beam width must be positive"
    );
    let mut widths = WidthPlan::new(params.beam_width, &params.width_changes, params.time_budget);
    // From here on `sequence` holds the pieces to search and a depth counts from the first of
    // them; only the rules (spawn state, piece limit) need the piece's number in the game.
    let first = params.start.index;
    let depth_count = (params.rules.pieces_to_place(sequence.len())).saturating_sub(first);
    let sequence = &sequence[first.min(sequence.len())..];
    let mut beam = Beam::new(Node {
        board: params.start.board,
        score: params.start.score,
        trail: 0,
    });
    let mut picker = Picker::with_capacity(params.beam_width);
    let mut trail = Trail::with_capacity(depth_count);
    // The state the answer ends on so far; None before any piece.
    let mut best: Option<Best> = None;
    let mut stats = DepthStats::default();
    let mut finished = true;

    for (depth, &kind) in sequence.iter().enumerate().take(depth_count) {
        let started = Instant::now();
        let width = widths.at_depth(depth);
        let ranking = Ranking::at(
            sequence,
            depth,
            depth_count,
            params.score_weight,
            &params.weights,
            &params.policy,
        );
        let step = Step {
            kind,
            index: first + depth,
            rules: params.rules,
            ranking: &ranking,
            guide_board: guide.and_then(|g| g.boards.get(depth)).copied(),
        };
        // The last depth's selection becomes this depth's states inside the expansion.
        let last = (depth > 0).then(|| Last {
            chosen: &picker.chosen,
            kind: sequence[depth - 1],
            index: first + depth - 1,
        });
        let states = last.as_ref().map_or(beam.parents.len(), |l| l.chosen.len());
        // The steps of the states the expansion builds (none before the first piece).
        let level = if depth > 0 {
            trail.open(states)
        } else {
            &mut []
        };
        let expanded = beam.expand(last, &step, level, width);
        stats.expanded += expanded.states as u64;
        stats.placements += expanded.placements;
        let expand_done = Instant::now();
        if depth > 0 {
            trail.close(&mut beam.frontier, |n| &mut n.trail, &mut best);
        }
        let tasks = expanded.tasks;
        if beam.chunks[..tasks].iter().all(|c| c.generated == 0) {
            // Every placement of this piece ends the game: the best line ended before it.
            finished = false;
            break;
        }
        let select_started = Instant::now();
        // A selection that needs children the expansion's bound dropped gets them (rarely:
        // when duplicates crowd the shortlist, or the bound was estimated too low).
        while let Err(refill) = picker.select(&mut beam.chunks[..tasks], width) {
            beam.expand_again(&step, refill.bound);
        }
        let chunks = &beam.chunks[..tasks];
        let on_guide = step
            .guide_board
            .and_then(|board| guided::keep_board(chunks, board, &mut picker.chosen));
        let selected = Instant::now();
        let may_end_anywhere = guide.is_none_or(|g| g.free_end && depth + 1 == depth_count);
        best = next_best(best, depth, &picker.chosen, on_guide, may_end_anywhere);
        if depth > 0 {
            std::mem::swap(&mut beam.parents, &mut beam.frontier);
        }
        stats.pieces = depth + 1;
        stats.best_score = best.map_or(0, |b| b.score);
        stats.beam_size = picker.chosen.len();
        stats.seconds.expand += (expand_done - started).as_secs_f64();
        stats.seconds.select += (selected - select_started).as_secs_f64();
        stats.seconds.advance +=
            (select_started - expand_done).as_secs_f64() + selected.elapsed().as_secs_f64();
        progress(&stats);
        let now = clock.seconds(stats.expanded);
        widths.after_depth(depth + 1, depth_count, stats.expanded, now);
    }
    if finished && depth_count > 0 {
        // The last selection's states are never expanded; only their steps are needed.
        let parents = &beam.parents;
        let level = picker.chosen.iter().map(|c| TrailEntry {
            parent: parents[c.parent as usize].trail,
            placement: c.placement,
        });
        trail.push_last(level);
    }
    let (placements, score) = match best {
        None => (Vec::new(), params.start.score),
        Some(b) => (trail.line_to(b), b.score),
    };
    Solution {
        placements,
        score,
        stats,
        width_changes: widths.changes(),
    }
}

/// The state the answer ends on after depth `depth` chose `chosen`: the guide's state where
/// one was kept (`on_guide`), and, where the answer may end anywhere, the highest score of any
/// depth (on equal scores the earlier depth, then the earlier state).
fn next_best(
    best: Option<Best>,
    depth: usize,
    chosen: &[Candidate],
    on_guide: Option<usize>,
    may_end_anywhere: bool,
) -> Option<Best> {
    let at = |i: usize| Best {
        depth,
        index: i as u32,
        score: chosen[i].score,
    };
    let mut best = on_guide.map(at).or(best);
    let (top, _) = chosen
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.score.cmp(&b.1.score).then(b.0.cmp(&a.0)))
        .expect("a selection from candidates is not empty");
    if may_end_anywhere && best.is_none_or(|b| chosen[top].score > b.score) {
        best = Some(at(top));
    }
    best
}
