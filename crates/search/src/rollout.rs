//! Rollout-valued selection: the states a depth's selection chose by the static key are
//! valued again by playing the next known pieces from each with the greedy policy (the
//! child of lowest key, piece after piece), and ranked by the key where the rollout ends.

use super::candidates::{sampled, sortable, Candidate, Chunk};
use super::expand::Node;
use super::game::{Game, Sink};
use rayon::prelude::*;
use std::sync::OnceLock;

/// How far and over how many states rollouts run.
#[derive(Clone, Copy, Debug)]
pub struct Rollout {
    /// Pieces played from each candidate.
    pub horizon: usize,
    /// Candidates valued, as a multiple of the width.
    pub pool: f64,
}

/// The rollout asked for by `TETRIS_ROLLOUT=H:P` (an experiment's switch).
pub fn from_env() -> Option<Rollout> {
    static ROLLOUT: OnceLock<Option<Rollout>> = OnceLock::new();
    *ROLLOUT.get_or_init(|| {
        let text = std::env::var("TETRIS_ROLLOUT").ok()?;
        let (h, p) = text.split_once(':')?;
        Some(Rollout {
            horizon: h.parse().ok()?,
            pool: p.parse().ok()?,
        })
    })
}

impl Rollout {
    pub fn pool_for(&self, width: usize) -> usize {
        ((width as f64 * self.pool).ceil() as usize).max(width)
    }
}

/// Ranks `chosen` by their rollouts' keys and keeps the best `width`.
pub(crate) fn rerank<G: Game>(
    game: &G,
    at: &G::Depth,
    ahead: &[G::Depth],
    parents: &[Node<G::State>],
    chosen: &mut Vec<Candidate<G::Code>>,
    width: usize,
) {
    if chosen.len() <= width || ahead.is_empty() {
        return;
    }
    let mut values: Vec<(u64, u64, u32)> = chosen
        .par_chunks(32)
        .enumerate()
        .flat_map_iter(|(task, cands)| {
            let mut scratch = G::Scratch::default();
            let mut chunk = Chunk::default();
            let values: Vec<_> = cands
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let parent = parents[c.parent as usize].state;
                    let v = value(game, at, ahead, &parent, c, &mut scratch, &mut chunk);
                    (v, c.hash, (task * 32 + i) as u32)
                })
                .collect();
            values.into_iter()
        })
        .collect();
    values.sort_unstable();
    values.truncate(width);
    let kept: Vec<_> = values.iter().map(|&(_, _, i)| chosen[i as usize]).collect();
    *chosen = kept;
}

fn value<G: Game>(
    game: &G,
    at: &G::Depth,
    ahead: &[G::Depth],
    parent: &G::State,
    c: &Candidate<G::Code>,
    scratch: &mut G::Scratch,
    chunk: &mut Chunk<G::Code>,
) -> u64 {
    let mut state = game.apply(at, parent, &c.placement);
    let mut score = c.score;
    let mut key = c.key;
    for a in ahead {
        chunk.reset(u64::MAX);
        let mut sink = Sink {
            chunk,
            guide_board: None,
        };
        game.expand(a, &state, score, 0, scratch, &mut sink);
        game.flush(a, scratch, &mut sink);
        let Some(best) = chunk.candidates.iter().min_by_key(|c| (c.key, c.hash)) else {
            return sortable(f64::INFINITY);
        };
        state = game.apply(a, &state, &best.placement);
        score = best.score;
        key = best.key;
    }
    key
}

/// The share of the expanded states whose children may go on, asked for by
/// `TETRIS_PARENTS=Q` (an experiment's switch).
pub fn parents_from_env() -> Option<f64> {
    static PARENTS: OnceLock<Option<f64>> = OnceLock::new();
    *PARENTS.get_or_init(|| std::env::var("TETRIS_PARENTS").ok()?.parse().ok())
}

/// Keeps only the children of the `keep` expanded states (of `states`) whose best child
/// ranks best (ties by the state's board hash in `tags`).
pub(crate) fn keep_parents<C: super::code::Code>(
    chunks: &mut [Chunk<C>],
    states: usize,
    keep: usize,
    tags: &[u64],
) {
    if keep >= states {
        return;
    }
    let mut best = vec![u64::MAX; states];
    for c in chunks.iter().flat_map(|c| &c.candidates) {
        let b = &mut best[c.parent as usize];
        *b = (*b).min(c.key);
    }
    let mut ranked: Vec<(u64, u64, u32)> = (best.iter().enumerate())
        .filter(|(_, &k)| k != u64::MAX)
        .map(|(i, &k)| (k, tags[i], i as u32))
        .collect();
    if ranked.len() <= keep {
        return;
    }
    ranked.select_nth_unstable(keep);
    let mut kept = vec![false; states];
    for &(_, _, i) in &ranked[..keep] {
        kept[i as usize] = true;
    }
    chunks.par_iter_mut().for_each(|chunk| {
        chunk.candidates.retain(|c| kept[c.parent as usize]);
        chunk.sample.clear();
        let sample: Vec<u64> = (chunk.candidates.iter())
            .filter(|c| sampled(c.hash))
            .map(|c| c.key)
            .collect();
        chunk.sample = sample;
        chunk.generated = chunk.candidates.len();
        chunk.group();
    });
}
