//! The browser game on the beam search's seam ([`crate::search::Game`]): a state is the fast
//! [`Board`], a child every placement the move generator reaches (tucks and spins included),
//! keyed by the contest's board evaluation minus the points times a score weight. Nothing in
//! the search was written for this game: this file is all it adds.

use super::movegen::{MoveGen, Placement};
use super::record::Record;
use super::rules::{rotated_matrix, Kind, Move, POINTS_PER_LINE};
use crate::games::tencent::bitboard::Board;
use crate::games::tencent::eval::Weights;
use crate::games::tencent::policy::{Policy, Ranking};
use crate::games::tencent::search::Pending;
use crate::search::{self, DepthStats, Game, Objective, Run, Sink, Width};
use crate::width::Clock;

/// The browser game's default beam width.
pub const DEFAULT_WIDTH: usize = 1_000;

/// The browser game's evaluation weights (`weights/browser.json`): the contest's, but with a
/// cost on every filled cell instead of a reward, since a line is worth 10 points whatever the
/// board's fill: a low stack, which clears every line a sequence allows.
pub fn default_weights() -> Weights {
    Weights::from_json(include_str!("../../../weights/browser.json"))
        .expect("the shipped browser weights are valid")
}

/// The browser game's policy: over the last 30 pieces points outweigh the board's shape, so
/// the stack left at the end is cleared as far as the pieces allow.
pub fn default_policy() -> Policy {
    Policy {
        endgame_pieces: 30,
        endgame_score_weight: Some(10.0),
    }
}

/// What decides the search's answer besides the width.
#[derive(Clone, Debug)]
pub struct Params {
    pub score_weight: f64,
    pub weights: Weights,
    /// The endgame: another score weight over the last pieces, where cells left on the
    /// board can no longer become lines.
    pub policy: Policy,
    /// The answer when every line tops out before the last piece: the most points, or the
    /// most pieces placed.
    pub objective: Objective,
}

/// The search's answer: the record of the best line, its points and pieces placed.
pub struct Found {
    pub record: Record,
    pub points: u64,
    pub pieces: usize,
    pub stats: DepthStats,
}

/// Searches `sequence` and returns the best line's record.
pub fn solve(
    sequence: &[Kind],
    params: &Params,
    width: &Width,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
) -> Found {
    let game = Browser { sequence, params };
    let run = Run {
        state: Board::default(),
        score: 0,
        depths: sequence.len(),
        planned: sequence.len(),
        objective: params.objective,
    };
    let line = search::beam_search(&game, &run, width, None, clock, progress);
    Found {
        record: record(sequence, &line.placements),
        points: line.score,
        pieces: line.placements.len(),
        stats: line.stats,
    }
}

/// A placement's code: its rotation, row and column packed (11 bits), unique among the
/// placements of one piece on one board.
fn code(p: &Placement) -> u16 {
    (p.rotation as u16) << 9 | ((p.row + 2) as u16) << 4 | (p.col + 3) as u16
}

/// The moves that play the line of `codes` from the empty board, each piece's shortest path.
fn record(sequence: &[Kind], codes: &[u16]) -> Record {
    let mut gen = MoveGen::new();
    let mut board = Board::default();
    let mut all = Vec::new();
    let mut pieces: Vec<Vec<Move>> = Vec::with_capacity(codes.len());
    for (&kind, &c) in sequence.iter().zip(codes) {
        gen.placements(&board, kind, &mut all);
        let placement = all
            .iter()
            .find(|p| code(p) == c)
            .expect("the search's placements are the move generator's");
        let mut moves = Vec::new();
        gen.path(placement, &mut moves);
        pieces.push(moves);
        board = placement.board;
    }
    Record::from_moves(pieces.iter().map(Vec::as_slice))
}

struct Browser<'a> {
    sequence: &'a [Kind],
    params: &'a Params,
}

/// What one depth places and how it ranks the children.
struct Depth {
    kind: Kind,
    ranking: Ranking,
}

/// An expansion task's buffers: the move generator, the placements of the state being
/// expanded, and the children waiting for the contest's batched evaluation.
#[derive(Default)]
struct Buffers {
    gen: MoveGen,
    placements: Vec<Placement>,
    pending: Pending,
}

impl Game for Browser<'_> {
    type Code = u16;
    type State = Board;
    type Depth = Depth;
    type Scratch = Buffers;

    fn depth(&self, depth: usize) -> Depth {
        let p = self.params;
        Depth {
            kind: self.sequence[depth],
            ranking: Ranking::at(
                self.sequence,
                depth,
                self.sequence.len(),
                p.score_weight,
                &p.weights,
                &p.policy,
            ),
        }
    }

    fn expand(
        &self,
        at: &Depth,
        board: &Board,
        score: u64,
        parent: u32,
        buffers: &mut Buffers,
        out: &mut Sink<u16>,
    ) -> u64 {
        let Buffers {
            gen,
            placements,
            pending,
        } = buffers;
        gen.placements(board, at.kind, placements);
        for p in placements.iter().filter(|p| !p.game_over) {
            // The evaluation's landing row is the piece's middle row.
            let middle = (p.row as i32 + 1).clamp(0, 19) as u32;
            let points = score + p.lines as u64 * POINTS_PER_LINE;
            pending.push(&p.board, middle, points, parent, code(p));
            if pending.is_full() {
                pending.flush(&at.ranking, out);
            }
        }
        placements.len() as u64
    }

    fn flush(&self, at: &Depth, buffers: &mut Buffers, out: &mut Sink<u16>) {
        buffers.pending.flush(&at.ranking, out);
    }

    fn apply(&self, at: &Depth, board: &Board, code: &u16) -> Board {
        let rotation = (code >> 9) as u8;
        let row = ((code >> 4) & 31) as i32 - 2;
        let col = (code & 15) as i32 - 3;
        let mut after = *board;
        for (r, c) in rotated_matrix(at.kind, rotation).filled() {
            after.cols[(col + c) as usize] |= 1 << (row + r);
        }
        after.remove_rows(after.full_rows());
        after
    }
}
