//! What the games searched on the kit's board over a piece sequence share on the search's seam
//! (the browser game's, the olympiad's): where a search starts after the pieces a record kept,
//! and what one depth places and ranks its children by. The children themselves, and the
//! score, stay each game's.

use crate::board::Board;
use crate::eval::Weights;
use crate::piece::Kind;
use crate::policy::{Policy, Ranking};
use tetris_search::{Objective, Run};

/// The pieces of `sequence` a search places after the first `kept`, and its run from `board`
/// with the kept pieces' `score` banked.
pub fn rest_of_game(
    sequence: &[Kind],
    kept: usize,
    board: Board,
    score: u64,
    objective: Objective,
) -> (&[Kind], Run<Board>) {
    let rest = &sequence[kept.min(sequence.len())..];
    let mut run = Run::whole_game(board, rest.len(), objective);
    run.score = score;
    (rest, run)
}

/// What one depth of a search over a sequence places, and how the kit's evaluation ranks its
/// children.
pub struct Depth {
    pub kind: Kind,
    pub ranking: Ranking,
}

impl Depth {
    /// Depth `depth` of a search that places `sequence`, ranked with `score_weight`, `weights`
    /// and `policy`.
    pub fn at(
        sequence: &[Kind],
        depth: usize,
        score_weight: f64,
        weights: &Weights,
        policy: &Policy,
    ) -> Depth {
        Depth {
            kind: sequence[depth],
            ranking: Ranking::at(
                sequence,
                depth,
                sequence.len(),
                score_weight,
                weights,
                policy,
            ),
        }
    }
}
