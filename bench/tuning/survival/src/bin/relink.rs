//! Improves a record window by window: from the record's board before piece t a local beam of
//! WIDTH searches pieces t..t+LEN, and where it reaches the record's own board after them with
//! more points, the window's placements are replaced (the rest of the record scores the same,
//! since its boards are the same). bench/tuning/README.md, session 10.
//!
//! Usage: `relink SEQUENCE RECORD LEN WIDTH OFFSET [judge|strict] [OUT]`
use rayon::prelude::*;
use survival::{children, LIMIT};
use tetris_opt::bitboard::{canonical_state, Board};
use tetris_opt::eval::Weights;
use tetris_opt::movegen::Placement;
use tetris_opt::record::Record;
use tetris_opt::replay::{replay, replay_observed, ReplayOptions};
use tetris_opt::sequence::parse_sequence;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let seq = parse_sequence(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let record = Record::parse(&std::fs::read_to_string(&a[2]).unwrap()).unwrap();
    let len: usize = a[3].parse().unwrap();
    let width: usize = a[4].parse().unwrap();
    let offset: usize = a[5].parse().unwrap();
    let judge = a.get(6).is_some_and(|s| s == "judge");
    let out_path = a.get(7).cloned();
    let opts = ReplayOptions {
        judge,
        piece_limit: LIMIT,
    };
    let w = Weights::default();
    let sw = 0.024;
    let mut placements = Vec::new();
    let rep = replay_observed(&seq, &record, opts, &mut |s| {
        placements.push(Placement {
            state: canonical_state(s.piece.kind, s.piece.state),
            x: s.piece.x as u8,
            y: s.piece.y as u8,
        })
    });
    eprintln!(
        "record score {} pieces {}",
        rep.final_score(),
        placements.len()
    );
    let n = placements.len();
    let mut states = vec![(Board::default(), 0u64)];
    for (i, p) in placements.iter().enumerate() {
        let (mut b, s) = states[i];
        let o = p.lock(&mut b, seq[i], i, LIMIT);
        states.push((b, s + o.score as u64));
    }
    let starts: Vec<usize> = (offset..n.saturating_sub(len)).step_by(len).collect();
    // Per window where the record's board was found again: the start, and the points gained with
    // the new placements if there are more.
    type Found = (usize, Option<(u64, Vec<Placement>)>);
    let found: Vec<Found> = starts
        .par_iter()
        .filter_map(|&t| {
            let mut beam = vec![states[t]];
            let mut levels: Vec<Vec<(u32, Placement)>> = Vec::new();
            for (d, &kind) in seq.iter().enumerate().skip(t).take(len) {
                let mut c = children(&beam, judge, kind, d, &w.at_depth(&seq, d), sw);
                c.truncate(width);
                levels.push(c.iter().map(|c| (c.parent, c.placement)).collect());
                beam = c.into_iter().map(|c| (c.board, c.score)).collect();
            }
            let target = states[t + len];
            let (i, &(_, s)) = beam
                .iter()
                .enumerate()
                .find(|(_, (b, _))| b.cols == target.0.cols)?;
            if s <= target.1 {
                return Some((t, None));
            }
            let mut path = Vec::new();
            let mut idx = i as u32;
            for level in levels.iter().rev() {
                let (parent, p) = level[idx as usize];
                path.push(p);
                idx = parent;
            }
            path.reverse();
            Some((t, Some((s - target.1, path))))
        })
        .collect();
    let results: Vec<(usize, u64, Vec<Placement>)> = found
        .iter()
        .filter_map(|(t, gain)| gain.as_ref().map(|(g, p)| (*t, *g, p.clone())))
        .collect();
    let gain: u64 = results.iter().map(|r| r.1).sum();
    eprintln!(
        "windows {} found {} improved {} gain {}",
        starts.len(),
        found.len(),
        results.len(),
        gain
    );
    for (t, _, path) in &results {
        placements[*t..*t + len].copy_from_slice(path);
    }
    let rec = tetris_opt::solve::record_for(&seq, &placements, LIMIT, judge).unwrap();
    let score = replay(&seq, &rec, opts).final_score();
    eprintln!("new score {} (claimed {})", score, rep.final_score() + gain);
    if let Some(p) = out_path {
        std::fs::write(p, rec.to_string()).unwrap();
    }
}
