//! Children waiting for their evaluation: the batch the kit's evaluation scores at once.

use crate::board::Board;
use crate::eval::{evaluate_batch, evaluate_batch_with_cells, Batch, BATCH};
use crate::policy::Ranking;
use tetris_search::Sink;

/// A child waiting for its evaluation.
#[derive(Clone, Copy)]
struct Child {
    score: u64,
    parent: u32,
    placement: u16,
}

/// Children waiting for their evaluation, which runs a batch at a time (children of several
/// states share a batch; the order of the candidates is unchanged). Every game keyed by the kit's
/// evaluation uses it.
#[derive(Default)]
pub struct Pending {
    boards: Batch,
    children: Vec<Child>,
}

impl Pending {
    /// Holds a child: its board (a piece landed with its middle at row `landing_y`), its
    /// score, its parent and its placement code.
    #[inline]
    pub fn push(&mut self, board: &Board, landing_y: u32, score: u64, parent: u32, placement: u16) {
        self.boards.push(board, landing_y);
        self.children.push(Child {
            score,
            parent,
            placement,
        });
    }

    /// Whether a batch is full: flush before the next push.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.boards.is_full()
    }

    /// Evaluates the waiting children by `ranking` and turns them into candidates.
    pub fn flush(&mut self, ranking: &Ranking, out: &mut Sink<u16>) {
        if self.children.is_empty() {
            return;
        }
        let fill = &ranking.fill_costs;
        let (costs, cells) = if fill.is_empty() {
            (evaluate_batch(&self.boards, &ranking.weights), [0; BATCH])
        } else {
            evaluate_batch_with_cells(&self.boards, &ranking.weights)
        };
        let hashes = self.boards.hashes();
        for (i, child) in self.children.iter().enumerate() {
            let mut key = costs[i] as f64 - child.score as f64 * ranking.score_weight;
            if let Some(&cost) = fill.get(cells[i] as usize) {
                key += cost;
            }
            out.push(key, hashes[i], child.score, child.parent, child.placement);
        }
        self.children.clear();
        self.boards.clear();
    }
}
