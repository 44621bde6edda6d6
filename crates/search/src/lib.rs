//! The beam search over a whole game, written once for every game (the [`Game`] seam): the
//! crate `tetris-search`, the bottom layer of the optimizer. It knows no Tetris: it depends on
//! neither the kit (`tetris-kit`) nor a game nor the command line, and cargo holds that, since
//! none of them is among its dependencies. Its tests, too, need nothing above it.
//!
//! Each depth places one piece. Every state of the beam is expanded in parallel into all its
//! children ([`expand`]), each ranked by the game's key (lower is better); duplicate states
//! (by the game's hash) are dropped and the best `beam_width` survive ([`select`]). A state
//! keeps only the game's state, its score and an index into the [`trail`], from which the
//! winning line is rebuilt at the end. [`guided`] keeps a given line in the beam, for
//! `polish`; the width along the way comes from [`width`].
//!
//! One call runs every search: [`beam_search`], told how by one [`Options`]. The trail hands
//! out the answer's first placements as soon as every line that may still become the answer
//! shares them, and forgets them: a caller that takes them ([`Options::decided`]) gets them as
//! they come, so that a search of a million pieces holds only its undecided tail (a few
//! compaction intervals of the beam, and the stretch back to a best state pinned at an earlier
//! depth); otherwise the search collects them into the answer's line.
//!
//! The search is deterministic: candidates are produced in beam order whatever the thread count,
//! and every tie is broken by the search's one order ([`Order`]), which never depends on where a
//! state sits: the distributed search ([`distributed`]) follows it too, and answers with the
//! same line for any number of processes, one included.

mod candidates;
pub mod checkpoint;
#[cfg(test)]
mod checkpoint_tests;
mod code;
pub mod comm;
mod depth_loop;
pub mod distributed;
mod expand;
mod game;
mod guided;
mod held;
#[cfg(feature = "mpi")]
pub mod mpi;
mod options;
mod select;
pub mod sizes;
#[cfg(test)]
mod streaming_tests;
#[cfg(test)]
mod test_rng;
mod trail;
pub mod width;
pub mod wire;

pub use candidates::Order;
pub use checkpoint::Checkpoints;
pub use code::Code;
pub use comm::Comm;
pub use distributed::Traffic;
pub use game::{Game, Sink};
pub use guided::Guide;
pub use options::{Decided, Options, Processes};
pub use wire::Wire;

use crate::width::{Schedule, TimeBudget};
use checkpoint::Snapshot;
use depth_loop::{depths, start};
use held::InProcess;
use serde::Serialize;
use std::time::Instant;

/// How wide the beam is and how long it runs: what the search needs beyond the game.
#[derive(Clone, Debug)]
pub struct Width {
    /// States kept at each depth (from the first; see `width_changes` and `time_budget`).
    pub beam_width: usize,
    /// Changes of the width at given depths (empty: `beam_width` throughout).
    pub width_changes: Schedule,
    /// Re-choose the width as the search goes so that it ends within this wall-clock budget
    /// (`beam_width` is then the first width; `width_changes` must be empty). The record then
    /// depends on the clock; [`Line::width_changes`] replays it without the budget.
    pub time_budget: Option<TimeBudget>,
}

impl Width {
    /// A beam of `beam_width` throughout, with no budget.
    pub fn fixed(beam_width: usize) -> Width {
        Width {
            beam_width,
            width_changes: Schedule::default(),
            time_budget: None,
        }
    }
}

/// Where a search begins: a game's state and the score banked so far, and how many depths
/// (pieces) to search from it.
#[derive(Clone, Debug)]
pub struct Run<S> {
    pub state: S,
    pub score: u64,
    /// Depths searched at most (the game may end sooner).
    pub depths: usize,
    /// Depths a time budget plans the widths for: `depths`, or where a game usually ends
    /// before its bound, the length it is expected to have.
    pub planned: usize,
    /// What the answer is when no line places every piece.
    pub objective: Objective,
}

impl<S> Run<S> {
    /// A whole game from `state` with nothing banked: `depths` pieces, all planned for.
    pub fn whole_game(state: S, depths: usize, objective: Objective) -> Run<S> {
        Run {
            state,
            score: 0,
            depths,
            planned: depths,
            objective,
        }
    }
}

/// What a search is for; decides its answer when every line ends before the last piece (a
/// line that places every piece wins either way, the best score among them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// The line that banked the most points, wherever it ended.
    #[default]
    Score,
    /// The line that placed the most pieces, then the most points.
    Survive,
}

/// What the search reports after each depth.
#[derive(Clone, Copy, Debug, Default)]
pub struct DepthStats {
    /// Pieces placed so far (depth + 1).
    pub pieces: usize,
    /// The highest score of any state kept so far, at any depth (guided: the guide's line).
    pub best_score: u64,
    pub beam_size: usize,
    /// Placements generated and evaluated so far.
    pub placements: u64,
    /// States expanded so far.
    pub expanded: u64,
    /// The first estimate of a time budget that found its deadline out of reach even for a
    /// beam of one state (None: none did, or no budget).
    pub late: Option<width::Late>,
    /// Wall time so far in each phase of a depth: generating and evaluating the children
    /// (including building the last selection's boards, which the expansion tasks do),
    /// selecting the next beam, and the bookkeeping around it (trail, its compaction, best
    /// state).
    pub seconds: PhaseSeconds,
}

/// Wall seconds per phase of the search (see [`DepthStats::seconds`]).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct PhaseSeconds {
    pub expand: f64,
    pub select: f64,
    pub advance: f64,
}

impl PhaseSeconds {
    /// Adds a depth that started at `at[0]`, ended its expansion at `at[1]` and its selection
    /// at `at[2]`, and the rest of its bookkeeping up to now.
    fn add(&mut self, at: [Instant; 3]) {
        self.expand += (at[1] - at[0]).as_secs_f64();
        self.select += (at[2] - at[1]).as_secs_f64();
        self.advance += at[2].elapsed().as_secs_f64();
    }
}

/// The search's answer: the line of play it ends on.
#[derive(Clone, Debug)]
pub struct Line<C> {
    /// The game's code of each piece's placement from the run's first on.
    pub placements: Vec<C>,
    /// The whole game's score, the run's start included.
    pub score: u64,
    pub stats: DepthStats,
    /// The width changes the search made (those of `Width::width_changes` it reached, or the
    /// budget's): with the same `beam_width` and no budget they give the same line.
    pub width_changes: Schedule,
    /// What crossed between the processes, where the search ran over several (this process's
    /// share).
    pub traffic: Option<Traffic>,
    /// The search stopped after a snapshot, as its [`Checkpoints`] asked: the line has no
    /// placement and no score of its own (the snapshot goes on from there).
    pub stopped: bool,
}

/// Runs the beam over `run.depths` pieces of `game` from `run`'s state, as `options` say. The
/// answer is the best line of the last depth when the beam gets there (every piece placed),
/// else, by `run.objective`, the line that banked the most before every child ended the game
/// or the best of those that went furthest. With a guide, the guide's line is kept in the beam
/// whatever its rank and the answer is that line as the beam left it (see [`Guide`]).
///
/// The search hands out the answer's codes as they are decided, to [`Options::decided`] where
/// the caller takes them (its line then holds only those that follow), else into the line. The
/// line is the same either way, and over any number of processes.
pub fn beam_search<G: Game>(
    game: &G,
    run: &Run<G::State>,
    options: Options<'_, G::Code>,
) -> Line<G::Code> {
    if options.decided.is_some() {
        return on(game, run, options);
    }
    let mut placements = Vec::new();
    let mut collect = |codes: &[G::Code]| placements.extend_from_slice(codes);
    let (options, _) = options.recoded();
    let mut line = on(game, run, options.decided(&mut collect));
    placements.append(&mut line.placements);
    line.placements = placements;
    line
}

/// The search where `options.processes` says (no guide over several processes).
fn on<G: Game>(game: &G, run: &Run<G::State>, options: Options<'_, G::Code>) -> Line<G::Code> {
    match options.processes {
        Processes::One => {
            let width = options.width.beam_width;
            let Some(bytes) = options.resume else {
                let mut held = InProcess::new(start(run), width);
                return depths(game, run, options, &mut held, None);
            };
            let snapshot = Snapshot::decode(bytes, run.depths, checkpoint::Place::ONE)
                .expect("a snapshot checked before the search (checkpoint::summary)");
            let at = game.depth(snapshot.done - 1);
            let (resumed, beam) = snapshot.resumed();
            let mut held = InProcess::resumed(beam.parents, beam.chosen, at, width);
            depths(game, run, options, &mut held, Some(resumed))
        }
        Processes::Many(comm) => {
            assert!(options.guide.is_none(), "a distributed search has no guide");
            distributed::search(game, run, comm, options)
        }
    }
}
