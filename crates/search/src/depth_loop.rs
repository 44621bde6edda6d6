//! The one depth loop of the search, wherever its states are held ([`Holder`]): each depth
//! expands the states, selects the next ones, chooses the answer's state, reports, and offers
//! a snapshot; a search resumed from a snapshot goes on from where it left the loop.

use super::checkpoint::{self, Checkpoints, HeldBeam, Snapshot, View};
use super::code::Code;
use super::comm;
use super::expand::{Node, Step};
use super::game::Game;
use super::guided::Guide;
use super::held::{self, Holder, Selection};
use super::options::Options;
use super::run::{DepthStats, Line, Objective, Run, Width};
use super::trail::{Best, Trail};
use super::width::{Clock, WallClock, WidthPlan};
use std::time::Instant;

/// The state a search begins from.
pub(crate) fn start<S: Copy>(run: &Run<S>) -> Node<S> {
    Node {
        state: run.state,
        score: run.score,
        trail: 0,
    }
}

/// Where the depth loop stands between two depths: the depths done, the state the answer
/// ends on so far (None before any piece), the statistics and the trail.
pub(crate) struct Course<C: Code> {
    done: usize,
    best: Option<Best>,
    stats: DepthStats,
    trail: Trail<C>,
}

/// The loop's course where a snapshot left it, with the width plan's position and the time
/// its clock read (the holder's states are in the holder).
pub(crate) struct Resumed<C: Code> {
    course: Course<C>,
    plan: crate::width::PlanState,
    seconds: f64,
}

impl<S: Copy, C: Code> Snapshot<S, C> {
    /// The loop's course as the snapshot left it, and the holder's beam.
    pub(crate) fn resumed(self) -> (Resumed<C>, HeldBeam<S, C>) {
        let resumed = Resumed {
            course: Course {
                done: self.done,
                best: self.best,
                stats: self.stats,
                trail: self.trail,
            },
            plan: self.plan,
            seconds: self.seconds,
        };
        (resumed, self.beam)
    }
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
pub(crate) fn depths<G: Game>(
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
    let mut ended = Ended::Finished;

    for depth in first..depth_count {
        let started = Instant::now();
        let (width, share) = held.width(widths.at_depth(depth));
        let at = game.depth(depth);
        let step = Step::at(game, &at, guide, depth);
        let expanded = held.expand(&step, share, &mut trail, &mut best, &mut decided);
        stats.expanded += expanded.states;
        stats.placements += expanded.placements;
        let expand_done = Instant::now();
        if expanded.children == 0 {
            // Every child of this depth ends the game: the best line ended before it.
            ended = Ended::Died;
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
            let stopped = offer(checkpoints, held, done, |beam| View {
                done,
                depths: depth_count,
                best,
                stats: &stats,
                plan: widths.state(schedule),
                seconds: now,
                trail: &trail,
                beam,
            });
            if stopped {
                ended = Ended::Stopped;
                break;
            }
        }
    }
    let (placements, score) = ended.answer(held, &mut trail, best, run);
    Line {
        placements,
        score,
        stats,
        width_changes: widths.changes(),
        traffic: None,
        stopped: ended == Ended::Stopped,
    }
}

/// How the depth loop ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ended {
    /// Every depth searched (or none to search).
    Finished,
    /// Every child of a depth ended the game.
    Died,
    /// Its checkpoints asked it to stop after a snapshot.
    Stopped,
}

impl Ended {
    /// The answer's codes from the first depth not yet decided, and its score ([`answer`]); a
    /// search that stopped answers with none.
    fn answer<G: Game>(
        self,
        held: &mut impl Holder<G>,
        trail: &mut Trail<G::Code>,
        best: Option<Best>,
        run: &Run<G::State>,
    ) -> (Vec<G::Code>, u64) {
        match self {
            Ended::Stopped => (Vec::new(), 0),
            _ => {
                let whole = self == Ended::Finished && run.depths > 0;
                answer(held, trail, best, run.score, whole)
            }
        }
    }
}

impl<'a, G: Game> Step<'a, G> {
    /// Depth `depth`'s step, made at `at`, with the guide's board there.
    fn at(game: &'a G, at: &'a G::Depth, guide: Option<&Guide>, depth: usize) -> Self {
        Step {
            game,
            at,
            guide_board: guide.and_then(|g| g.boards.get(depth)).copied(),
        }
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

/// Offers `checkpoints` a snapshot after `done` depths: where it wants one (process 0's wish,
/// over several processes) and the holder takes them, the snapshot `view` makes of the
/// holder's beam. Whether the search stops there (process 0's answer).
fn offer<'a, G: Game, H: Holder<G>>(
    checkpoints: &mut dyn Checkpoints,
    held: &'a H,
    done: usize,
    view: impl FnOnce(held::Beamed<'a, G::State, G::Code>) -> View<'a, G::State, G::Code>,
) -> bool
where
    G::State: 'a,
    G::Code: 'a,
{
    let Some(beam) = held.snapshot() else {
        return false;
    };
    let comm = held.comm();
    let due = u64::from(checkpoints.due(done));
    if comm::from_root(comm, &[due])[0] == 0 {
        return false;
    }
    let view = view(beam);
    let write = |out: &mut dyn std::io::Write| view.encode(out);
    let snapshotter = checkpoint::Snapshotter {
        write: &write,
        comm,
    };
    let stop = u64::from(checkpoints.take(done, snapshotter));
    comm::from_root(comm, &[stop])[0] == 1
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
