//! Rollout labels for the states a beam compares (bench/tuning/README.md, session 10): along the
//! path of a beam of PATH_WIDTH over the first PIECES pieces of `gen --seed SEED`, every STEP-th
//! depth t from 300 gives the boards two placements away from the path's state before piece
//! t-2 (the 16 best keys and 8 others); each is played on by a beam of ROLLOUT_WIDTH for H pieces,
//! and its label is that beam's best final key.
//!
//! Usage: `rollout SEED PIECES STEP ROLLOUT_WIDTH H PATH_WIDTH > data.jsonl`
use rayon::prelude::*;
use std::io::Write;
use survival::{children, feature_list};
use tetris_opt::bitboard::Board;
use tetris_opt::eval::Weights;
use tetris_opt::rules::Kind;
use tetris_opt::search::{beam_search, Params, Policy};
use tetris_opt::sequence::{generate, Distribution, SplitMix64};

use survival::LIMIT;

/// Best final (key, score, eval) of a small beam from `start` (next piece `t`) over `h` pieces.
fn rollout(
    seq: &[Kind],
    t: usize,
    start: (Board, u64),
    k: usize,
    h: usize,
    w: &Weights,
    sw: f64,
) -> (f64, u64) {
    let mut beam = vec![start];
    let mut last_key = f64::INFINITY;
    let mut last_score = 0;
    for (d, &kind) in seq.iter().enumerate().skip(t).take(h) {
        let mut c = children(&beam, false, kind, d, &w.at_depth(seq, d), sw);
        if c.is_empty() {
            return (f64::INFINITY, 0);
        }
        c.truncate(k);
        last_key = c[0].key;
        last_score = c[0].score;
        beam = c.into_iter().map(|c| (c.board, c.score)).collect();
    }
    (last_key, last_score)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse().unwrap();
    let pieces: usize = args[2].parse().unwrap();
    let step: usize = args[3].parse().unwrap();
    let rk: usize = args[4].parse().unwrap();
    let rh: usize = args[5].parse().unwrap();
    let path_k: usize = args[6].parse().unwrap();
    let w = Weights::default();
    let sw = 0.024;
    let seq = generate(Distribution::Contest, seed, LIMIT);
    let params = Params {
        beam_width: path_k,
        width_changes: Default::default(),
        time_budget: None,
        score_weight: sw,
        weights: w.clone(),
        policy: Policy::default(),
        piece_limit: LIMIT,
        judge: false,
        start: Default::default(),
    };
    let sol = beam_search(&seq[..pieces], &params, &mut |_| {});
    eprintln!("path score {}", sol.score);
    // States along the path: states[i] is the board before piece i.
    let mut states = vec![(Board::default(), 0u64)];
    for (i, p) in sol.placements.iter().enumerate() {
        let (mut b, s) = states[i];
        let o = p.lock(&mut b, seq[i], i, LIMIT);
        states.push((b, s + o.score as u64));
    }
    let depths: Vec<usize> = (300..pieces.saturating_sub(rh).min(sol.placements.len()))
        .step_by(step)
        .collect();
    let out: Vec<String> = depths
        .par_iter()
        .flat_map_iter(|&t| {
            // Boards ready for piece t: two plies from the path's state before piece t-2.
            let s0 = states[t - 2];
            let c1 = children(
                &[s0],
                false,
                seq[t - 2],
                t - 2,
                &w.at_depth(&seq, t - 2),
                sw,
            );
            let ply1: Vec<(Board, u64)> = c1.iter().map(|c| (c.board, c.score)).collect();
            let c2 = children(
                &ply1,
                false,
                seq[t - 1],
                t - 1,
                &w.at_depth(&seq, t - 1),
                sw,
            );
            let mut rng = SplitMix64::new(seed * 100_000 + t as u64);
            let mut pick: Vec<usize> = (0..c2.len().min(16)).collect();
            let pool = c2.len().min(300);
            for _ in 0..8 {
                if pool > 16 {
                    pick.push(16 + rng.below((pool - 16) as u64) as usize);
                }
            }
            pick.sort();
            pick.dedup();
            pick.into_iter()
                .map(|r| {
                    let c = &c2[r];
                    let (key_end, score_end) = rollout(&seq, t, (c.board, c.score), rk, rh, &w, sw);
                    let eval_s = c.key + sw * c.score as f64;
                    let fv = feature_list(&c.board, c.landing, &w);
                    serde_json::json!({
                        "seed": seed, "t": t, "rank": r, "score": c.score, "eval": eval_s,
                        "landing": c.landing, "f": fv, "cols": c.board.cols, "key_end": key_end,
                        "score_end": score_end,
                        "path_score": s0.1,
                    })
                    .to_string()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let mut so = std::io::stdout().lock();
    for l in out {
        writeln!(so, "{l}").unwrap();
    }
}
