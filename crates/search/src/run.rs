//! What a search is asked and what it answers: the run ([`Run`]: where it starts, how deep,
//! for what [`Objective`]), its width ([`Width`]), and its answer ([`Line`], with each
//! depth's [`DepthStats`] and the [`Traffic`] of a distributed search).

use crate::comm::ThreadLevel;
use crate::width::{self, Schedule, TimeBudget};
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
    pub(crate) fn add(&mut self, at: [Instant; 3]) {
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
/// What crossed between the processes of a search (this process's share).
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Traffic {
    pub processes: usize,
    /// Seconds spent in the exchanges, waiting for the slowest process included.
    pub seconds: f64,
    /// Bytes sent to other processes.
    pub bytes: u64,
    /// Children sent to their owners (to this process included).
    pub children: u64,
    /// Bytes of one child on the wire.
    pub bytes_per_child: usize,
    /// The most states this process held at one depth.
    pub most_states: usize,
    /// The thread support MPI provides, where the processes are an MPI job's.
    pub thread_level: Option<ThreadLevel>,
}
