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

use crate::width::{Clock, Schedule, TimeBudget, WallClock, WidthPlan};
use checkpoint::{Snapshot, View};
use expand::{Node, Step};
use held::{Holder, InProcess, Selection};
use serde::Serialize;
use std::time::Instant;
use trail::{Best, Trail};

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
            let snapshot = Snapshot::decode(bytes, run.depths)
                .expect("a snapshot checked before the search (checkpoint::summary)");
            let at = game.depth(snapshot.done - 1);
            let mut held = InProcess::resumed(snapshot.parents, snapshot.chosen, at, width);
            let resumed = Resumed {
                course: Course {
                    done: snapshot.done,
                    best: snapshot.best,
                    stats: snapshot.stats,
                    trail: snapshot.trail,
                },
                plan: snapshot.plan,
                seconds: snapshot.seconds,
            };
            depths(game, run, options, &mut held, Some(resumed))
        }
        Processes::Many(comm) => {
            assert!(options.guide.is_none(), "a distributed search has no guide");
            assert!(
                options.checkpoints.is_none() && options.resume.is_none(),
                "a distributed search takes no snapshot"
            );
            distributed::search(game, run, comm, options)
        }
    }
}

/// The state a search begins from.
fn start<S: Copy>(run: &Run<S>) -> Node<S> {
    Node {
        state: run.state,
        score: run.score,
        trail: 0,
    }
}

/// Where the depth loop stands between two depths: the depths done, the state the answer
/// ends on so far (None before any piece), the statistics and the trail.
struct Course<C: Code> {
    done: usize,
    best: Option<Best>,
    stats: DepthStats,
    trail: Trail<C>,
}

/// The loop's course where a snapshot left it, with the width plan's position and the time
/// its clock read (the holder's states are in the holder).
struct Resumed<C: Code> {
    course: Course<C>,
    plan: checkpoint::PlanState,
    seconds: f64,
}

/// A clock that goes on from where a resumed search's clock stood.
struct Since<'a> {
    clock: &'a dyn Clock,
    offset: f64,
}

impl Clock for Since<'_> {
    fn seconds(&self, expanded: u64) -> f64 {
        self.clock.seconds(expanded) + self.offset
    }
}

/// The one depth loop, wherever `held` holds the states: each depth expands them, selects the
/// next ones, chooses the answer's state and reports; the line is rebuilt from the trail at
/// the end (on process 0: elsewhere its placements are empty). With no `options.decided`, the
/// trail keeps the whole answer to the end (what the tests hold the streaming search against).
fn depths<G: Game>(
    game: &G,
    run: &Run<G::State>,
    options: Options<'_, G::Code>,
    held: &mut impl Holder<G>,
    resumed: Option<Resumed<G::Code>>,
) -> Line<G::Code> {
    let (width, guide) = (options.width, options.guide);
    let (mut progress, mut checkpoints) = (options.progress, options.checkpoints);
    let wall = WallClock::start();
    let clock = options.clock.unwrap_or(&wall);
    let (schedule, mut widths) = (&width.width_changes, width.plan());
    let depth_count = run.depths;
    // Where the answer may become no line at all (guided, surviving: a depth that loses the
    // guide's board forgets it), nothing is decided before the end.
    let surviving_guide = guide.is_some() && run.objective == Objective::Survive;
    let mut decided = options.decided.filter(|_| !surviving_guide);
    let (course, clock) = Course::start(resumed, &mut widths, clock);
    let Course {
        done: first,
        mut best,
        mut stats,
        mut trail,
    } = course;
    let mut finished = true;

    for depth in first..depth_count {
        let started = Instant::now();
        let (width, share) = held.width(widths.at_depth(depth));
        let at = game.depth(depth);
        let step = Step {
            game,
            at: &at,
            guide_board: guide.and_then(|g| g.boards.get(depth)).copied(),
        };
        let expanded = held.expand(&step, share, &mut trail, &mut best, &mut decided);
        stats.expanded += expanded.states;
        stats.placements += expanded.placements;
        let expand_done = Instant::now();
        if expanded.children == 0 {
            // Every child of this depth ends the game: the best line ended before it.
            finished = false;
            break;
        }
        let chosen = held.select(&step, width, depth);
        let selected = Instant::now();
        let last = depth + 1 == depth_count;
        best = next_best(best, &chosen, run.objective, guide, last);
        held.advance(at, &mut trail, &mut best, &mut decided);
        stats.after_depth(depth, best, chosen.size, [started, expand_done, selected]);
        let now = clock.seconds(stats.expanded);
        widths.after_depth(depth + 1, run.planned, stats.expanded, now);
        stats.late = widths.late();
        if let Some(progress) = progress.as_mut().filter(|_| held.comm().rank() == 0) {
            progress(&stats);
        }
        let done = depth + 1;
        if let Some(checkpoints) = checkpoints.as_deref_mut().filter(|_| !last) {
            offer(checkpoints, held, done, |beam| View {
                done,
                depths: depth_count,
                best,
                stats: &stats,
                plan: widths.state(schedule),
                seconds: now,
                trail: &trail,
                beam,
            });
        }
    }
    let whole = finished && depth_count > 0;
    let (placements, score) = answer(held, &mut trail, best, run.score, whole);
    Line {
        placements,
        score,
        stats,
        width_changes: widths.changes(),
        traffic: None,
    }
}

/// The answer's codes, from the first depth not yet decided, and its score: the line to
/// `best` (None: no piece placed, and the run's own score), once the trail holds the last
/// depth's steps where the search got there (`whole`).
fn answer<G: Game>(
    held: &mut impl Holder<G>,
    trail: &mut Trail<G::Code>,
    best: Option<Best>,
    score: u64,
    whole: bool,
) -> (Vec<G::Code>, u64) {
    if whole {
        held.finish(trail);
    }
    match best {
        Some(b) => (trail.line_to(b, held.comm()), b.score),
        None => (Vec::new(), score),
    }
}

impl Width {
    /// The plan of this width's depths, checked.
    fn plan(&self) -> WidthPlan<'_> {
        assert!(
            self.beam_width > 0 && self.width_changes.0.iter().all(|&(_, w)| w > 0),
            "beam width must be positive"
        );
        WidthPlan::new(self.beam_width, &self.width_changes, self.time_budget)
    }
}

impl DepthStats {
    /// After depth `depth`, whose selection kept `size` states and whose answer so far ends
    /// at `best`, timed at its start, after its expansion and after its selection.
    fn after_depth(&mut self, depth: usize, best: Option<Best>, size: usize, at: [Instant; 3]) {
        self.pieces = depth + 1;
        self.best_score = best.map_or(0, |b| b.score);
        self.beam_size = size;
        self.seconds.add(at);
    }
}

impl<C: Code> Course<C> {
    /// Where a search begins: before its first depth, or where a snapshot left it (the width
    /// plan put back where it was then, and the clock going on from its reading then).
    fn start<'a>(
        resumed: Option<Resumed<C>>,
        widths: &mut WidthPlan,
        clock: &'a dyn Clock,
    ) -> (Course<C>, Since<'a>) {
        let Some(r) = resumed else {
            return (Course::new(), Since { clock, offset: 0.0 });
        };
        widths.resume(r.plan);
        let offset = r.seconds - clock.seconds(r.course.stats.expanded);
        (r.course, Since { clock, offset })
    }

    /// A search's course before its first depth.
    fn new() -> Course<C> {
        Course {
            done: 0,
            best: None,
            stats: DepthStats::default(),
            trail: Trail::new(),
        }
    }
}

/// Offers `checkpoints` a snapshot after `done` depths: where it wants one and the holder takes
/// them, the snapshot `view` makes of the holder's beam.
fn offer<'a, G: Game, H: Holder<G>>(
    checkpoints: &mut dyn Checkpoints,
    held: &'a H,
    done: usize,
    view: impl FnOnce(held::Beamed<'a, G>) -> View<'a, G::State, G::Code>,
) where
    G::State: 'a,
    G::Code: 'a,
{
    if let Some(beam) = held.snapshot().filter(|_| checkpoints.due(done)) {
        let view = view(beam);
        let write = |out: &mut dyn std::io::Write| view.encode(out);
        checkpoints.take(done, checkpoint::Snapshotter { write: &write });
    }
}

/// The state the answer ends on after a depth chose `chosen`, `best` before it: the guide's
/// state where one was kept, and, where the answer may end anywhere, the highest score of any
/// depth (on equal scores the later depth, then the one order's best: [`Order`]); surviving,
/// a line that goes deeper beats every line that ended before it. A search that reaches its
/// last depth unguided answers with the best state of that depth: asked for N pieces, a user
/// gets N, not a shorter line that banked more.
fn next_best(
    best: Option<Best>,
    chosen: &Selection,
    objective: Objective,
    guide: Option<&Guide>,
    last: bool,
) -> Option<Best> {
    if last && guide.is_none() {
        return Some(chosen.top);
    }
    let kept = match objective {
        Objective::Survive if chosen.on_guide.is_none() => None,
        _ => best,
    };
    let may_end_anywhere = guide.is_none_or(|g| g.free_end && last);
    let best = chosen.on_guide.or(kept);
    let top = chosen.top;
    // The guide's own state keeps its place against an equal score.
    let beats = |b: Best| match chosen.on_guide {
        Some(_) => top.score > b.score,
        None => top.score >= b.score,
    };
    if may_end_anywhere && best.is_none_or(beats) {
        return Some(top);
    }
    best
}
