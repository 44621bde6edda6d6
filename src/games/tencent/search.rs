//! The contest's game on the beam search's seam ([`crate::search::Game`]): a state is the
//! fast [`Board`], a child every placement of the depth's piece, locked and evaluated in
//! batches, keyed `evaluation(board) - score * score_weight` (the score weight of the
//! [`Policy`]'s endgame over the last pieces). What the search is for ([`Objective`]) picks
//! its answer and the ranking a search takes unless told otherwise ([`RankingParams`]).

use super::bitboard::Board;
use super::movegen::{placements_with, Placement, Placements};
use super::rules::{Kind, Rules};
use crate::kit::eval::Weights;
use crate::kit::fluid::{FillCosts, FillValues};
use crate::kit::pending::Pending;
use crate::kit::policy::{Policy, Ranking};
use crate::search::width::{Clock, Schedule, TimeBudget, WallClock};
use crate::search::{
    self, Comm, DepthStats, Game, Guide, Objective, Processes, Run, Sink, Traffic, Width,
};

/// Everything that decides what the search returns.
#[derive(Clone, Debug)]
pub struct Params {
    /// States kept at each depth (from the first; see `width_changes` and `time_budget`).
    pub beam_width: usize,
    /// Changes of the width at given depths (empty: `beam_width` throughout).
    pub width_changes: Schedule,
    /// Re-choose the width as the search goes so that it ends within this wall-clock budget
    /// (`beam_width` is then the first width; `width_changes` must be empty). The record then
    /// depends on the clock; [`Solution::width_changes`] replays it without the budget.
    pub time_budget: Option<TimeBudget>,
    pub score_weight: f64,
    pub weights: Weights,
    pub policy: Policy,
    /// The game's rules (where the rules lock pieces in mid-air, the search places such locks
    /// where they clear rows).
    pub rules: Rules,
    /// Where the search begins (default: the empty board before the first piece).
    pub start: UnderWay,
    /// The answer when every line ends before the last piece: the most points, or the most
    /// pieces placed (see [`Objective`]).
    pub objective: Objective,
}

/// How much one point lowers a state's key when scoring (key = evaluation - score x weight).
pub const DEFAULT_SCORE_WEIGHT: f64 = 0.024;

/// A point's worth in the key when surviving: none, so that no clear is bought with the
/// stack's safety (the survival weights were tuned with it so; points still decide between
/// lines that placed as many pieces, in the answer).
pub const SURVIVE_SCORE_WEIGHT: f64 = 0.0;

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
                weights: Weights::survive(),
                policy: Policy::no_endgame(),
            },
        }
    }
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

/// The search's answer: one placement per piece from the first.
#[derive(Clone, Debug)]
pub struct Solution {
    /// One placement per piece from `Params::start`'s piece on.
    pub placements: Vec<Placement>,
    /// The whole game's score, the start's included.
    pub score: u64,
    pub stats: DepthStats,
    /// The width changes the search made (those of `Params::width_changes` it reached, or the
    /// budget's): with the same `beam_width` and no budget they give the same record.
    pub width_changes: Schedule,
}

/// Runs the beam over `sequence` (all of it, up to the piece limit, from `params.start`'s
/// piece on), calling `progress` after every depth.
pub fn beam_search(
    sequence: &[Kind],
    params: &Params,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    run(sequence, params, None, &WallClock::start(), progress)
}

/// [`beam_search`] whose time budget reads `clock` instead of the wall clock (a
/// [`crate::search::width::SpeedModel`] makes a budgeted search repeatable).
pub fn beam_search_with_clock(
    sequence: &[Kind],
    params: &Params,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    run(sequence, params, None, clock, progress)
}

/// [`beam_search`] that keeps the guide's line in the beam whatever its rank and answers with
/// that line as the beam left it. Nothing in the rules depends on how a board was reached, so
/// a line of the search that meets one of the guide's boards with more points carries the gain
/// on along the guide's line: the answer is the guide with every such gain, ending on the
/// guide's board after the last piece searched, so whatever followed that board in the
/// guide's game can follow the answer too; with [`Guide::free_end`], the beam's best line at
/// the end if it scores more. Empty when the beam never held a board of the guide.
pub fn beam_search_guided(
    sequence: &[Kind],
    params: &Params,
    guide: &Guide,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    run(sequence, params, Some(guide), &WallClock::start(), progress)
}

/// [`beam_search`] that hands out the placements as they are decided (see
/// [`search::beam_search_streaming`]): `decided` receives them in order from
/// `params.start`'s piece on, and the solution's `placements` are those that follow them.
pub fn beam_search_streaming(
    sequence: &[Kind],
    params: &Params,
    progress: &mut dyn FnMut(&DepthStats),
    decided: &mut dyn FnMut(&[Placement]),
) -> Solution {
    let clock = WallClock::start();
    run_placements(sequence, params, &clock, progress, decided, Processes::One).0
}

/// [`beam_search_streaming`] over the processes of `comm`, every one calling it alike (see
/// [`search::distributed`]): process 0 receives the decided placements and answers with the
/// line; every process answers with the score and what crossed between the processes.
pub fn beam_search_distributed(
    sequence: &[Kind],
    params: &Params,
    comm: &dyn Comm,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
    decided: &mut dyn FnMut(&[Placement]),
) -> (Solution, Traffic) {
    let processes = Processes::Many(comm);
    let (solution, traffic) = run_placements(sequence, params, clock, progress, decided, processes);
    (
        solution,
        traffic.expect("a distributed search reports its traffic"),
    )
}

/// [`run_streaming`] with no guide, handing out the decided codes as placements.
fn run_placements(
    sequence: &[Kind],
    params: &Params,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
    decided: &mut dyn FnMut(&[Placement]),
    processes: Processes,
) -> (Solution, Option<Traffic>) {
    let mut unpacked = Vec::new();
    let mut decided = |codes: &[u16]| {
        unpacked.clear();
        unpacked.extend(codes.iter().map(|&c| Placement::unpack(c)));
        decided(&unpacked);
    };
    run_streaming(
        sequence,
        params,
        None,
        clock,
        progress,
        &mut decided,
        processes,
    )
}

fn run(
    sequence: &[Kind],
    params: &Params,
    guide: Option<&Guide>,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
) -> Solution {
    let mut placements = Vec::new();
    let mut decided = |codes: &[u16]| placements.extend_from_slice(codes);
    let (mut solution, _) = run_streaming(
        sequence,
        params,
        guide,
        clock,
        progress,
        &mut decided,
        Processes::One,
    );
    let tail = std::mem::take(&mut solution.placements);
    solution.placements = (placements.into_iter().map(Placement::unpack))
        .chain(tail)
        .collect();
    solution
}

fn run_streaming(
    sequence: &[Kind],
    params: &Params,
    guide: Option<&Guide>,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(&DepthStats),
    decided: &mut dyn FnMut(&[u16]),
    processes: Processes,
) -> (Solution, Option<Traffic>) {
    let (game, run) = Tencent::new(sequence, params);
    let width = params.width();
    let (line, traffic) = search::beam_search_on(
        processes, &game, &run, &width, guide, clock, progress, decided,
    );
    let solution = Solution {
        placements: line.placements.into_iter().map(Placement::unpack).collect(),
        score: line.score,
        stats: line.stats,
        width_changes: line.width_changes,
    };
    (solution, traffic)
}

impl Params {
    /// The beam's widths these parameters name.
    pub fn width(&self) -> Width {
        Width {
            beam_width: self.beam_width,
            width_changes: self.width_changes.clone(),
            time_budget: self.time_budget,
        }
    }
}

impl<'a> Tencent<'a> {
    /// The contest's game over `sequence` as `params` rank it, from `params.start`'s piece
    /// on, and where its search begins.
    pub fn new(sequence: &'a [Kind], params: &'a Params) -> (Tencent<'a>, Run<Board>) {
        let first = params.start.index;
        let rest = searched(sequence, params);
        let depths = (params.rules.pieces_to_place(sequence.len())).saturating_sub(first);
        let fill =
            (params.policy.fill_plan.as_ref()).map(|plan| FillCosts::contest(plan, rest, depths));
        let game = Tencent {
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

/// Peak memory per beam state, with a margin over what `bench/memory.sh` measures (about 800
/// to 960 bytes at widths from 100,000 to 1,000,000; bench/RESULTS.md): nodes, the trail, the
/// candidates under the prefilter's bound and the selection's buffers all grow with the width.
pub const BYTES_PER_STATE: u64 = 1_000;

/// Bytes a search of a sequence of `len` pieces under `params` holds whatever its width, for
/// the memory estimate ([`crate::cli::limits::estimated_bytes_with`]): the sequence, and
/// the fill plan's table over the pieces the search places.
///
/// The sequence counts two bytes a piece: it is parsed into a `Vec<Kind>` as long as its
/// file's text, which is held alongside it while it is read (a byte a piece in `gen`'s files).
pub fn input_bytes(len: usize, params: &Params) -> u64 {
    let depths = searched_span(len, params).len();
    let table =
        (params.policy.fill_plan.as_ref()).map_or(0, |plan| FillValues::bytes(depths, plan.cap));
    let sequence = len * (1 + std::mem::size_of::<Kind>());
    (table + sequence) as u64
}

/// The contest's game over one sequence, from piece `first` on.
pub struct Tencent<'a> {
    /// The pieces the search places ([`searched`]): depth `d` places `sequence[d]`.
    sequence: &'a [Kind],
    first: usize,
    depths: usize,
    params: &'a Params,
    /// The policy's term from the fluid model, where it has one.
    fill: Option<FillCosts>,
}

/// What one depth places and how it ranks the children.
pub struct Depth {
    kind: Kind,
    /// The piece's number in the game (the rules' spawn state and piece limit need it).
    index: usize,
    rules: Rules,
    ranking: Ranking,
}

impl Game for Tencent<'_> {
    type Code = u16;
    type State = Board;
    type Depth = Depth;
    type Scratch = Buffers;

    fn depth(&self, depth: usize) -> Depth {
        let p = self.params;
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
            rules: p.rules,
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
pub struct Buffers {
    placements: Placements,
    pending: Pending,
}
