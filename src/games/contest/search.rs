//! The contest's game on the beam search's seam ([`crate::search::Game`]): a state is the
//! fast [`Board`], a child every placement of the depth's piece, locked and evaluated in
//! batches, keyed `evaluation(board) - score * score_weight` (the score weight of the
//! [`Policy`]'s endgame over the last pieces). What the search is for ([`Objective`]) picks
//! its answer and the ranking a search takes unless told otherwise ([`RankingParams`]).

use super::bitboard::Board;
use super::fluid::fill_costs;
use super::movegen::{placements_with, Placement, Placements};
use super::rules::{Kind, Rules};
use crate::kit::eval::Weights;
use crate::kit::fluid::{best_play_bytes, FillCosts, FillValues};
use crate::kit::pending::Pending;
use crate::kit::policy::{Policy, Ranking, DEFAULT_SCORE_WEIGHT};
use crate::search::{self, Game, Line, Objective, Options, Run, Sink};

/// Everything that decides what the search returns beside its width (which its options
/// carry: `Options::new(&width)`).
#[derive(Clone, Debug)]
pub struct Params {
    /// What a state's key is made of.
    pub ranking: RankingParams,
    /// The game's rules (where the rules lock pieces in mid-air, the search places such locks
    /// where they clear rows).
    pub rules: Rules,
    /// Where the search begins (default: the empty board before the first piece).
    pub start: UnderWay,
    /// The answer when every line ends before the last piece: the most points, or the most
    /// pieces placed (see [`Objective`]).
    pub objective: Objective,
}

/// A point's worth in the key when surviving: none, so that no clear is bought with the
/// stack's safety (the survival weights were tuned with it so; points still decide between
/// lines that placed as many pieces, in the answer).
pub(crate) const SURVIVE_SCORE_WEIGHT: f64 = 0.0;

/// What a state's key is made of: the evaluation's weights, a point's worth, and the endgame.
#[derive(Clone, Debug, PartialEq)]
pub struct RankingParams {
    pub score_weight: f64,
    pub weights: Weights,
    pub policy: Policy,
}

impl RankingParams {
    /// The ranking a search takes for what it is for, where no option names another. For
    /// points: the shipped weights, score weight and endgame. For survival: the survival
    /// weights (`weights/contest-survive.json`), no score weight beyond a tie-break, and no
    /// endgame (cashing in the stack over the last pieces is what a surviving line must not
    /// do where the sequence runs on past the search).
    pub fn default_for(objective: Objective) -> RankingParams {
        match objective {
            Objective::Score => RankingParams {
                score_weight: DEFAULT_SCORE_WEIGHT,
                weights: Weights::default(),
                policy: Policy::default(),
            },
            Objective::Survive => RankingParams {
                score_weight: SURVIVE_SCORE_WEIGHT,
                weights: survive_weights(),
                policy: Policy::no_endgame(),
            },
        }
    }
}

/// The weights tuned for survival on the contest's rules: the most pieces placed on long
/// generated sequences, points left out (see `tune --objective survive`).
pub(crate) fn survive_weights() -> Weights {
    Weights::from_json(include_str!("../../../weights/contest-survive.json"))
        .expect("weights/contest-survive.json is valid")
}

/// A game already under way: the board and score after its first `index` pieces, from which
/// the search places piece number `index` on (to try other settings on the rest of a record).
/// Depths, width changes and a time budget then count from that piece.
#[derive(Clone, Debug, Default)]
pub struct UnderWay {
    pub index: usize,
    pub board: Board,
    pub score: u64,
}

/// Runs the beam over `sequence` (all of it, up to the piece limit, from `params.start`'s
/// piece on) as `params` rank it, told how by `options` (see [`search::beam_search`]; a simple
/// search: `Options::new(&width)`), in placements rather than the game's codes.
pub fn beam_search(
    sequence: &[Kind],
    params: &Params,
    options: Options<'_, Placement>,
) -> Line<Placement> {
    let (game, run) = Seam::new(sequence, params);
    let line = options.unpacking(Placement::unpack, |options| {
        search::beam_search(&game, &run, options)
    });
    Line {
        placements: line.placements.into_iter().map(Placement::unpack).collect(),
        score: line.score,
        stats: line.stats,
        width_changes: line.width_changes,
        traffic: line.traffic,
        stopped: line.stopped,
    }
}

impl<'a> Seam<'a> {
    /// The contest's game over `sequence` as `params` rank it, from `params.start`'s piece
    /// on, and where its search begins.
    pub(crate) fn new(sequence: &'a [Kind], params: &'a Params) -> (Seam<'a>, Run<Board>) {
        let first = params.start.index;
        let rest = searched(sequence, params);
        let depths = (params.rules.pieces_to_place(sequence.len())).saturating_sub(first);
        let fill =
            (params.ranking.policy.fill_plan.as_ref()).map(|plan| fill_costs(plan, rest, depths));
        let game = Seam {
            sequence: rest,
            first,
            depths,
            params,
            fill,
        };
        let run = Run {
            state: params.start.board,
            score: params.start.score,
            depths,
            planned: depths,
            objective: params.objective,
        };
        (game, run)
    }
}

/// The pieces a search sees: from `params.start`'s piece to the piece at the limit (the last
/// that can score, [`Rules::pieces_to_place`], and the one after it). Whatever a sequence file
/// holds past the piece limit is never part of the game, so nothing built for the search (the
/// fill plan's table, the pieces its weights look ahead at) spans it: a file's tail past the
/// limit leaves the record as it is.
fn searched<'a>(sequence: &'a [Kind], params: &Params) -> &'a [Kind] {
    &sequence[searched_span(sequence.len(), params)]
}

/// Where [`searched`]'s pieces lie in a sequence of `len` pieces: up to the piece at the
/// limit, which no search places but which the last piece placed sees next (so that a file
/// of exactly the limit's length is searched as before the limit cut its tail).
fn searched_span(len: usize, params: &Params) -> std::ops::Range<usize> {
    let end = match params.rules.piece_limit {
        0 => len,
        limit => len.min(limit),
    };
    params.start.index.min(end)..end
}

/// Peak memory per beam state, with a margin over what `bench/memory.sh` measures (about 600
/// bytes at 100,000 states, 460-500 at 1,000,000; bench/RESULTS.md): nodes, the trail, the
/// candidates under the prefilter's bound and the selection's buffers all grow with the
/// width, and a depth whose bound or shortlist falls short holds more for a while.
pub const BYTES_PER_STATE: u64 = 800;

/// Bytes a search of a sequence of `len` pieces under `params` holds whatever its width, for
/// the memory estimate ([`crate::cli::limits::estimated_bytes_with`]): the sequence, and
/// the fill plan's table over the pieces the search places.
///
/// The sequence counts two bytes a piece: it is parsed into a `Vec<Kind>` as long as its
/// file's text, which is held alongside it while it is read (a byte a piece in `gen`'s files).
pub fn input_bytes(len: usize, params: &Params) -> u64 {
    let depths = searched_span(len, params).len();
    let table = (params.ranking.policy.fill_plan.as_ref())
        .map_or(0, |plan| FillValues::bytes(depths, plan.cap));
    let sequence = len * (1 + std::mem::size_of::<Kind>());
    // The summary's bound: one play of the fluid model over the pieces the record covers.
    let bound_play = best_play_bytes(depths);
    (table + sequence + bound_play) as u64
}

/// The contest's game over one sequence, from piece `first` on.
pub(crate) struct Seam<'a> {
    /// The pieces the search places ([`searched`]): depth `d` places `sequence[d]`.
    sequence: &'a [Kind],
    first: usize,
    depths: usize,
    params: &'a Params,
    /// The policy's term from the fluid model, where it has one.
    fill: Option<FillCosts>,
}

/// What one depth places and how it ranks the children.
pub(crate) struct Depth {
    kind: Kind,
    /// The piece's number in the game (the rules' spawn state and piece limit need it).
    index: usize,
    rules: Rules,
    ranking: Ranking,
}

impl Game for Seam<'_> {
    type Code = u16;
    type State = Board;
    type Depth = Depth;
    type Scratch = Buffers;

    fn depth(&self, depth: usize) -> Depth {
        let p = &self.params.ranking;
        let mut ranking = Ranking::at(
            self.sequence,
            depth,
            self.depths,
            p.score_weight,
            &p.weights,
            &p.policy,
        );
        if let Some(fill) = &self.fill {
            // The children of this depth stand before the next piece.
            ranking.fill_costs = fill.costs(depth + 1, ranking.score_weight);
        }
        Depth {
            kind: self.sequence[depth],
            index: self.first + depth,
            rules: self.params.rules,
            ranking,
        }
    }

    #[inline]
    fn expand(
        &self,
        at: &Depth,
        board: &Board,
        score: u64,
        parent: u32,
        buffers: &mut Buffers,
        out: &mut Sink<u16>,
    ) -> u64 {
        let (kind, index) = (at.kind, at.index);
        let Buffers {
            placements,
            pending,
        } = buffers;
        placements_with(board, kind, index, at.rules, placements);
        let occupied = board.occupied_rows();
        for p in placements.iter() {
            let mut child = *board;
            let outcome = p.lock_over(&mut child, occupied, kind, index, at.rules);
            if outcome.game_over.is_some() {
                continue;
            }
            let child_score = score + outcome.score as u64;
            pending.push(&child, p.y as u32, child_score, parent, p.pack());
            if pending.is_full() {
                pending.flush(&at.ranking, out);
            }
        }
        placements.len() as u64
    }

    fn flush(&self, at: &Depth, buffers: &mut Buffers, out: &mut Sink<u16>) {
        buffers.pending.flush(&at.ranking, out);
    }

    #[inline]
    fn apply(&self, at: &Depth, board: &Board, placement: &u16) -> Board {
        let mut board = *board;
        Placement::unpack(*placement).lock(&mut board, at.kind, at.index, at.rules);
        board
    }
}

/// An expansion task's buffers: the placements of the state being expanded, and the children
/// waiting for their evaluation.
#[derive(Default)]
pub(crate) struct Buffers {
    placements: Placements,
    pending: Pending,
}
