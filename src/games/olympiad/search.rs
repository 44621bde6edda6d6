//! The olympiad's game on the beam search's seam ([`crate::search::Game`]): a state is the
//! contest's [`Board`], a child every orientation and column of the depth's piece that rests
//! inside the field, keyed by the contest's board evaluation under weights tuned for
//! survival. The score of a line is its pieces placed.

use super::bitboard::{heights, place, place_over, rest_row, shapes, Ands};
use super::record::Placement;
use super::rules::Kind;
use crate::kit::board::{Board, ROWS};
use crate::kit::eval::Weights;
use crate::kit::pending::Pending;
use crate::kit::policy::Policy;
use crate::kit::seam::{rest_of_game, Depth};
use crate::search::{self, Game, Objective, Options, Run, Sink};

/// The olympiad's default beam width: the olympiad's own.
pub(crate) const DEFAULT_WIDTH: usize = 50;

/// The evaluation weights for survival (`weights/olympiad-survive.json`).
pub fn default_weights() -> Weights {
    Weights::from_json(include_str!("../../../weights/olympiad-survive.json"))
        .expect("the shipped olympiad weights are valid")
}

/// What decides the search's answer besides the width.
#[derive(Clone, Debug)]
pub struct Params {
    pub weights: Weights,
    pub objective: Objective,
}

/// The search's answer: the placements of the line that went furthest.
pub struct Found {
    /// The placements streamed before the search ended are not here: see [`beam_search`].
    pub placements: Vec<Placement>,
    /// Pieces placed by the whole line.
    pub pieces: usize,
}

/// Searches `sequence` as `options` say (in this process or over several: the placements are
/// then process 0's); the placements of the answer's line come out through the options'
/// `decided` as they are decided (every line still in the beam begins with them), the rest in
/// [`Found::placements`].
pub fn beam_search(sequence: &[Kind], params: &Params, options: Options<'_, Placement>) -> Found {
    let (game, run) = Seam::new(sequence, params, 0, Board::default());
    let line = options.unpacking(unpack, |options| search::beam_search(&game, &run, options));
    let placements: Vec<Placement> = line.placements.iter().map(|&c| unpack(c)).collect();
    Found {
        pieces: line.score as usize,
        placements,
    }
}

/// A placement's code: orientation and column, unique among one piece's placements.
fn pack(orientation: usize, column: usize) -> u16 {
    (orientation as u16) << 4 | column as u16
}

/// The placement a code names.
pub(crate) fn unpack(code: u16) -> Placement {
    Placement {
        orientation: (code >> 4) as u8,
        column: (code & 15) as u8,
    }
}

/// The olympiad's game over one sequence, on the search's seam.
pub(crate) struct Seam<'a> {
    sequence: &'a [Kind],
    params: &'a Params,
}

impl<'a> Seam<'a> {
    /// The game over `sequence` as `params` rank it, and where its search begins: from
    /// `board` after the first `kept` pieces (each placed: the score is the pieces placed).
    pub(crate) fn new(
        sequence: &'a [Kind],
        params: &'a Params,
        kept: usize,
        board: Board,
    ) -> (Seam<'a>, Run<Board>) {
        let (sequence, run) = rest_of_game(sequence, kept, board, kept as u64, params.objective);
        (Seam { sequence, params }, run)
    }
}

impl Game for Seam<'_> {
    type Code = u16;
    type State = Board;
    type Depth = Depth;
    type Scratch = Pending;

    fn depth(&self, depth: usize) -> Depth {
        // Every child of a depth scores the same: the board alone ranks them.
        let no_endgame = Policy::no_endgame();
        Depth::at(self.sequence, depth, 0.0, &self.params.weights, &no_endgame)
    }

    #[inline]
    fn expand(
        &self,
        at: &Depth,
        board: &Board,
        score: u64,
        parent: u32,
        pending: &mut Pending,
        out: &mut Sink<u16>,
    ) -> u64 {
        let heights = heights(board);
        let ands = Ands::of(board);
        let mut generated = 0;
        for (o, shape) in shapes(at.kind).iter().enumerate() {
            for column in 0..=(10 - shape.width as usize) {
                generated += 1;
                let Some(y) = rest_row(shape, &heights, column) else {
                    continue;
                };
                let mut child = *board;
                place_over(&mut child, &ands, shape, column, y);
                // The evaluation's landing row counts from the top, at the piece's middle.
                let landing = ROWS - 1 - (y + u32::from(shape.height) / 2);
                pending.push(&child, landing, score + 1, parent, pack(o, column));
                if pending.is_full() {
                    pending.flush(&at.ranking, out);
                }
            }
        }
        generated
    }

    fn flush(&self, at: &Depth, pending: &mut Pending, out: &mut Sink<u16>) {
        pending.flush(&at.ranking, out);
    }

    fn apply(&self, at: &Depth, board: &Board, code: &u16) -> Board {
        let p = unpack(*code);
        let shape = &shapes(at.kind)[p.orientation as usize];
        let column = p.column as usize;
        let y = rest_row(shape, &heights(board), column).expect("a child rests in the field");
        let mut child = *board;
        place(&mut child, shape, column, y);
        child
    }
}
