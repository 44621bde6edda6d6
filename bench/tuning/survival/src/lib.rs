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

/// Names of [`candidate_features`], in order (bench/tuning/README.md, session 11).
pub const CANDIDATES: &[&str] = &[
    "ready_rows",
    "ready_run",
    "well_holes",
    "row0",
    "row1",
    "row2",
    "row3",
    "row4",
    "row5",
    "flat_pairs",
    "step1_pairs",
    "step3_pairs",
    "side_range",
    "buried",
    "partial_rows",
    "full_rows9",
    "cells_over150",
    "cells_over160",
];

/// Candidate features for the survival fit to weigh against the solver's (session 11; the
/// five it took are the solver's own since, and read from there). The well is the spawn's
/// column (x = 4), where the shipped weights keep it.
pub fn candidate_features(board: &Board) -> Vec<u32> {
    use tetris_opt::bitboard::{COLS, ROWS, ROW_MASK};
    const WELL: usize = 4;
    let solver = tetris_opt::eval::features(board, 0, 0, 0);
    let cols = &board.cols;
    let others = (0..COLS)
        .filter(|&x| x != WELL)
        .fold(ROW_MASK, |a, x| a & cols[x]);
    let well = cols[WELL];
    let ready = others & !well & ROW_MASK;
    let below_top = |c: u32| {
        if c == 0 {
            0
        } else {
            ROW_MASK & !((c & c.wrapping_neg()) - 1)
        }
    };
    let well_holes = (below_top(well) & !well).count_ones();
    let row = |r: u32| cols.iter().filter(|&&c| c >> r & 1 == 1).count() as u32;
    let heights: Vec<u32> = cols
        .iter()
        .map(|&c| if c == 0 { 0 } else { ROWS - c.trailing_zeros() })
        .collect();
    let side: Vec<u32> = (0..COLS)
        .filter(|&x| x != WELL)
        .map(|x| heights[x])
        .collect();
    let side_range = side.iter().max().unwrap() - side.iter().min().unwrap();
    // Filled cells above a column's lowest hole: what covers holes.
    let mut buried = 0;
    for &c in cols {
        let holes = below_top(c) & !c;
        if holes != 0 {
            let lowest = 31 - holes.leading_zeros();
            buried += (c & ((1u32 << lowest) - 1)).count_ones();
        }
    }
    let occupied = cols.iter().fold(0, |a, &c| a | c);
    let full = cols.iter().fold(ROW_MASK, |a, &c| a & c);
    let partial_rows = (occupied & !ready & !full).count_ones();
    // Rows with exactly nine cells, wherever the gap is.
    let full_rows9 = (0..ROWS).filter(|&r| row(r) == 9).count() as u32;
    let cells = board.filled_cells();
    vec![
        solver.ready_rows,
        solver.ready_run,
        well_holes,
        row(0),
        row(1),
        row(2),
        row(3),
        row(4),
        row(5),
        solver.flat_pairs,
        solver.step1_pairs,
        solver.step3_pairs,
        side_range,
        buried,
        partial_rows,
        full_rows9,
        cells.saturating_sub(150),
        cells.saturating_sub(160),
    ]
}
