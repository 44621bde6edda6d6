//! Which states of a beam have descendants `h` pieces later, with their features: the data
//! `logit.py` fits (bench/tuning/README.md, session 10).
//!
//! Usage: `survive SEED PIECES WIDTH H STEP [WEIGHTS.json] > data.jsonl`, with `NEG=n` in the
//! environment to keep about n dead states per surviving one (default 5). The beam runs on the
//! first PIECES pieces of `gen --seed SEED` at score weight 0.024; from depth 200 on, every STEP-th
//! depth is written: per kept state its features, key, score and whether it survived, with the
//! depth's means of key and features over all its states; also the candidate features of
//! `survival::candidate_features` (`x`, their means `mx`) and how many pieces after the next
//! one the next I comes (`idist`), which `fit.py` reads (session 11).

use std::io::Write;
use survival::{candidate_features, children, feature_list, LIMIT};
use tetris_opt::bitboard::Board;
use tetris_opt::eval::Weights;
use tetris_opt::rules::Kind;
use tetris_opt::sequence::{generate, Distribution, SplitMix64};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 6 {
        eprintln!("usage: survive SEED PIECES WIDTH H STEP [WEIGHTS.json]");
        std::process::exit(2);
    }
    let number = |i: usize| -> usize { a[i].parse().expect("a whole number") };
    let seed = number(1) as u64;
    let (pieces, width, h, step) = (number(2), number(3), number(4), number(5));
    let w = match a.get(6) {
        Some(p) => Weights::from_json(&std::fs::read_to_string(p).expect("weights file"))
            .expect("weights JSON"),
        None => Weights::default(),
    };
    let neg: usize = std::env::var("NEG").map_or(5, |v| v.parse().expect("NEG"));
    let sw = 0.024;
    let seq = generate(Distribution::Contest, seed, LIMIT);
    let mut beam: Vec<(Board, u64)> = vec![(Board::default(), 0)];
    // parents[d][i]: the index in depth d-1 of state i of depth d (the state after piece d).
    let mut parents: Vec<Vec<u32>> = Vec::new();
    // scores[d][i]: the score of state i of depth d, for the points a survivor's line goes on to
    // make (`gain`).
    let mut scores: Vec<Vec<u64>> = Vec::new();
    // keys[d][i]: the key of state i of depth d, for the best key a survivor's line reaches
    // (`dkey`).
    let mut keys: Vec<Vec<f64>> = Vec::new();
    // Sampled depths: per state its features, key and score.
    type Row = (Vec<u32>, f64, u64, Vec<u32>);
    let mut samples: Vec<(usize, Vec<Row>)> = Vec::new();
    for (d, &kind) in seq.iter().enumerate().take(pieces) {
        let mut c = children(&beam, false, kind, d, &w.at_depth(&seq, d), sw);
        c.truncate(width);
        if c.is_empty() {
            break;
        }
        parents.push(c.iter().map(|c| c.parent).collect());
        scores.push(c.iter().map(|c| c.score).collect());
        keys.push(c.iter().map(|c| c.key).collect());
        if d >= 200 && d % step == 0 {
            let rows = c.iter();
            let rows = rows.map(|c| {
                let f = feature_list(&c.board, c.landing, &w);
                (f, c.key, c.score, candidate_features(&c.board))
            });
            samples.push((d, rows.collect()));
        }
        beam = c.into_iter().map(|c| (c.board, c.score)).collect();
    }
    let last = parents.len();
    let mut out = std::io::stdout().lock();
    for (d, rows) in samples {
        if d + h >= last {
            continue;
        }
        // Walk the survivors at depth d + h back to their ancestors at depth d, carrying for
        // each the best score and the lowest key among its descendants there (None: no
        // descendant, the state died).
        let mut line: Vec<Option<(u64, f64)>> = scores[d + h]
            .iter()
            .zip(&keys[d + h])
            .map(|(&s, &k)| Some((s, k)))
            .collect();
        for level in (d + 1..=d + h).rev() {
            let mut up: Vec<Option<(u64, f64)>> = vec![None; parents[level - 1].len()];
            for (&p, &l) in parents[level].iter().zip(&line) {
                if let Some((s, k)) = l {
                    let (us, uk) = up[p as usize].get_or_insert((s, k));
                    *us = (*us).max(s);
                    *uk = uk.min(k);
                }
            }
            line = up;
        }
        let n_alive = line.iter().filter(|l| l.is_some()).count();
        let keep_dead = (neg * n_alive) as f64 / (line.len() - n_alive).max(1) as f64;
        let mut rng = SplitMix64::new(seed * 1_000_003 + d as u64);
        let n = rows.len() as f64;
        let mean_key = rows.iter().map(|r| r.1).sum::<f64>() / n;
        // The depth's mean of each entry of a per-state list.
        let means = |list: fn(&Row) -> &Vec<u32>| {
            let mut mean = vec![0f64; list(&rows[0]).len()];
            for r in &rows {
                for (m, &v) in mean.iter_mut().zip(list(r)) {
                    *m += v as f64 / n;
                }
            }
            mean
        };
        let (mean_f, mean_x) = (means(|r| &r.0), means(|r| &r.3));
        // Pieces from the next one to the next I (the same for every state of the depth).
        let i_dist = seq[d + 1..]
            .iter()
            .position(|&k| k == Kind::I)
            .unwrap_or(LIMIT);
        for (rank, ((f, key, score, x), line)) in rows.iter().zip(&line).enumerate() {
            let survived = line.is_some();
            if !survived && rng.unit() >= keep_dead {
                continue;
            }
            let (best, dkey) = line.unwrap_or((0, 0.0));
            let row = serde_json::json!({"seed": seed, "t": d, "rank": rank, "f": f, "key": key,
                "score": score, "alive": survived, "mk": mean_key, "mf": mean_f, "x": x,
                "mx": mean_x, "idist": i_dist, "gain": best.saturating_sub(*score),
                "dkey": dkey});
            writeln!(out, "{row}").expect("stdout");
        }
    }
}
