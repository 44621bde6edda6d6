//! The browser game on the beam search's seam ([`crate::search::Game`]): a state is the fast
//! [`Board`], a child every placement the move generator reaches (tucks and spins included),
//! keyed by the contest's board evaluation minus the points times a score weight. Nothing in
//! the search was written for this game: this file is all it adds.

use super::movegen::{MoveGen, Placement};
use super::record::{Record, Token};
use super::rules::{rotated_matrix, Kind, POINTS_PER_LINE};
use crate::kit::board::Board;
use crate::kit::eval::Weights;
use crate::kit::pending::Pending;
use crate::kit::policy::Policy;
use crate::kit::seam::{rest_of_game, Depth};
use crate::search::{self, Game, Objective, Options, Run, Sink};

/// The browser game's default beam width.
pub(crate) const DEFAULT_WIDTH: usize = 1_000;

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
        fill_plan: None,
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

/// The search's answer besides its placements: the best line's points and pieces placed.
pub struct Found {
    pub points: u64,
    pub pieces: usize,
}

/// Searches `sequence` as `options` say (in this process or over several: the moves then come
/// out on process 0); each piece's moves of the best line come out through the options'
/// `decided`, in order, as soon as every line left in the beam begins with them (the last at
/// the end), so that a long game's record is written as it is decided.
pub fn beam_search(sequence: &[Kind], params: &Params, options: Options<'_, Vec<Token>>) -> Found {
    let (game, run) = Seam::new(sequence, params, 0, (Board::default(), 0));
    let (options, mut decided) = options.recoded();
    let mut moves = Moves::new(sequence);
    let mut out = |codes: &[u16]| {
        let pieces = moves.of(codes);
        if let Some(decided) = decided.as_mut() {
            decided(&pieces);
        }
    };
    let line = search::beam_search(&game, &run, options.decided(&mut out));
    out(&line.placements);
    Found {
        points: line.score,
        pieces: moves.placed,
    }
}

/// A placement's code: its rotation, row and column packed (11 bits), unique among the
/// placements of one piece on one board.
fn code(p: &Placement) -> u16 {
    (p.rotation as u16) << 9 | ((p.row + 2) as u16) << 4 | (p.col + 3) as u16
}

/// Turns a line's placement codes into each piece's moves (its shortest path), piece after
/// piece from the empty board.
pub(crate) struct Moves<'a> {
    sequence: &'a [Kind],
    gen: MoveGen,
    board: Board,
    placed: usize,
    all: Vec<Placement>,
}

impl<'a> Moves<'a> {
    pub(crate) fn new(sequence: &'a [Kind]) -> Moves<'a> {
        Moves::from(sequence, Board::default())
    }

    /// The moves of `sequence`'s pieces from `board` on.
    pub(crate) fn from(sequence: &'a [Kind], board: Board) -> Moves<'a> {
        Moves {
            sequence,
            gen: MoveGen::new(),
            board,
            placed: 0,
            all: Vec::new(),
        }
    }

    /// Pieces turned into moves so far.
    pub(crate) fn placed(&self) -> usize {
        self.placed
    }

    /// The tokens of the next pieces, placed at `codes`.
    pub(crate) fn of(&mut self, codes: &[u16]) -> Vec<Vec<Token>> {
        let mut pieces = Vec::with_capacity(codes.len());
        for &c in codes {
            let kind = self.sequence[self.placed];
            self.gen.placements(&self.board, kind, &mut self.all);
            let placement = self
                .all
                .iter()
                .find(|p| code(p) == c)
                .expect("the search's placements are the move generator's");
            let mut path = Vec::new();
            self.gen.path(placement, &mut path);
            self.board = placement.board;
            self.placed += 1;
            pieces.push(Record::tokens(&path));
        }
        pieces
    }
}

/// The browser game over one sequence, on the search's seam.
pub(crate) struct Seam<'a> {
    sequence: &'a [Kind],
    params: &'a Params,
}

impl<'a> Seam<'a> {
    /// The game over `sequence` as `params` rank it, and where its search begins: from
    /// `board` and `points` after the first `kept` pieces.
    pub(crate) fn new(
        sequence: &'a [Kind],
        params: &'a Params,
        kept: usize,
        (board, points): (Board, u64),
    ) -> (Seam<'a>, Run<Board>) {
        let (sequence, run) = rest_of_game(sequence, kept, board, points, params.objective);
        (Seam { sequence, params }, run)
    }
}

/// An expansion task's buffers: the move generator, the placements of the state being
/// expanded, and the children waiting for the contest's batched evaluation.
#[derive(Default)]
pub(crate) struct Buffers {
    gen: MoveGen,
    placements: Vec<Placement>,
    pending: Pending,
}

impl Game for Seam<'_> {
    type Code = u16;
    type State = Board;
    type Depth = Depth;
    type Scratch = Buffers;

    fn depth(&self, depth: usize) -> Depth {
        let p = self.params;
        Depth::at(self.sequence, depth, p.score_weight, &p.weights, &p.policy)
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
