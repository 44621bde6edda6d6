//! A plain, serial beam step for the experiments in `src/bin` (bench/tuning/README.md, session
//! 10). The solver's beam (`tetris_opt::search`) does not expose its states; these experiments
//! need every state of a depth with its parent, so they step their own beam with the same key.

use tetris_opt::bitboard::Board;
use tetris_opt::eval::{evaluate_batch, Batch, Weights, BATCH};
use tetris_opt::movegen::{placements_with, Placement, Placements};
use tetris_opt::rules::Kind;

/// The contest's piece limit.
pub const LIMIT: usize = 10_000;

/// A state of the next depth.
pub struct Child {
    /// `evaluation - score * score_weight`, as the solver ranks.
    pub key: f64,
    pub hash: u64,
    pub board: Board,
    pub score: u64,
    /// Row of the placed piece's center (the evaluation's `landing_height` input).
    pub landing: u32,
    /// Index of the parent in the states given to [`children`].
    pub parent: u32,
    pub placement: Placement,
}

/// Every child of `states` (boards with their scores) for piece number `t` of `kind`, sorted by
/// key (ties by board hash), one per board (the best key).
pub fn children(
    states: &[(Board, u64)],
    judge: bool,
    kind: Kind,
    t: usize,
    w: &Weights,
    sw: f64,
) -> Vec<Child> {
    let mut out = Vec::new();
    let mut batch = Batch::default();
    let mut pending: Vec<Child> = Vec::with_capacity(BATCH);
    let mut scratch = Placements::new();
    let flush = |batch: &mut Batch, pending: &mut Vec<Child>, out: &mut Vec<Child>| {
        let costs = evaluate_batch(batch, w);
        let hashes = batch.hashes();
        for (i, mut c) in pending.drain(..).enumerate() {
            c.key = costs[i] as f64 - sw * c.score as f64;
            c.hash = hashes[i];
            out.push(c);
        }
        batch.clear();
    };
    for (parent, &(board, score)) in states.iter().enumerate() {
        placements_with(&board, kind, t, judge, &mut scratch);
        for p in scratch.iter() {
            let mut b = board;
            let o = p.lock(&mut b, kind, t, LIMIT);
            if o.game_over.is_some() {
                continue;
            }
            batch.push(&b, p.y as u32);
            pending.push(Child {
                key: 0.0,
                hash: 0,
                board: b,
                score: score + o.score as u64,
                landing: p.y as u32,
                parent: parent as u32,
                placement: *p,
            });
            if batch.is_full() {
                flush(&mut batch, &mut pending, &mut out);
            }
        }
    }
    if !pending.is_empty() {
        flush(&mut batch, &mut pending, &mut out);
    }
    out.sort_by(|a, b| a.key.total_cmp(&b.key).then(a.hash.cmp(&b.hash)));
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.hash));
    out
}

/// The features of a board as the list `logit.py` reads (`Features` in field order).
pub fn feature_list(board: &Board, landing: u32, w: &Weights) -> Vec<u32> {
    let (depth, top) = (w.shallow_depth as u32, w.top_rows as u32);
    tetris_opt::eval::features(board, landing, depth, top).to_vec()
}
