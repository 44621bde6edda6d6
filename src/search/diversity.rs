//! Diversity in the selection: the selection takes twice the width of distinct boards by key,
//! then keeps them in key order, passing over a state whose lineage (its ancestor some depths
//! back) already holds its share of the beam, and leaving a share of the places to the highest
//! scores among the rest; what places are left go to the passed-over states in key order.

use super::candidates::Candidate;
use super::game::Code;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;

/// How the beam is kept diverse.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Diversity {
    /// Every `generations` depths each state of the beam starts a lineage of its own (0: no
    /// lineages).
    pub generations: usize,
    /// The share of the beam one lineage may hold, over (0, 1].
    pub share: f64,
    /// The share of the beam chosen by score among the states the key did not keep.
    pub by_score: f64,
}

impl Default for Diversity {
    fn default() -> Self {
        Diversity {
            generations: 0,
            share: 1.0,
            by_score: 0.0,
        }
    }
}

/// The lineage of each state of the beam, kept from depth to depth.
pub(crate) struct Lineages {
    of_state: Vec<u32>,
    counts: Vec<u32>,
}

impl Lineages {
    /// The lineages of a beam of one state.
    pub fn new() -> Lineages {
        Lineages {
            of_state: vec![0],
            counts: Vec::new(),
        }
    }

    /// Keeps `width` of `pool` (distinct boards, at most twice the width) as [`Diversity`]
    /// says, then records the lineages of the states kept, each its own after a depth that
    /// ends a generation.
    pub fn cap<C: Code>(
        &mut self,
        pool: &mut Vec<Candidate<C>>,
        width: usize,
        d: Diversity,
        depth: usize,
    ) {
        pool.sort_unstable_by_key(Candidate::order_key);
        let by_key = width - ((d.by_score.clamp(0.0, 1.0) * width as f64) as usize).min(width);
        let limit = if d.generations == 0 {
            u32::MAX
        } else {
            ((d.share * width as f64).ceil() as u32).max(1)
        };
        let lineages = self.of_state.iter().max().map_or(0, |&m| m as usize + 1);
        self.counts.clear();
        self.counts.resize(lineages, 0);
        let mut kept = 0;
        for i in 0..pool.len() {
            let lineage = self.of_state[pool[i].parent as usize] as usize;
            if kept < by_key && self.counts[lineage] < limit {
                self.counts[lineage] += 1;
                pool.swap(kept, i);
                kept += 1;
            }
        }
        // The swaps moved the rest behind the kept ones, out of order: the highest scores
        // first for the places left to the score, then key order.
        let rest = &mut pool[kept..];
        rest.sort_unstable_by_key(|c| (Reverse(c.score), c.order_key()));
        let by_score = (width - by_key).min(rest.len());
        rest[by_score..].sort_unstable_by_key(Candidate::order_key);
        pool.truncate(width);
        let next = if d.generations > 0 && (depth + 1).is_multiple_of(d.generations) {
            (0..pool.len() as u32).collect()
        } else {
            pool.iter()
                .map(|c| self.of_state[c.parent as usize])
                .collect()
        };
        self.of_state = next;
    }
}
