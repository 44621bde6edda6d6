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

mod bytes;
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
mod run;
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
pub use game::{Decided, Game, Sink};
pub use guided::Guide;
pub use options::{Options, Processes};
pub use run::{DepthStats, Line, Objective, PhaseSeconds, Run, Traffic, Width};
pub use wire::Wire;

use checkpoint::Snapshot;
use depth_loop::{depths, start};
use held::InProcess;

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
            let Some(bytes) = options.resume else {
                let mut held = InProcess::new(start(run));
                return depths(game, run, options, &mut held, None);
            };
            let snapshot = Snapshot::decode(bytes, run.depths, crate::comm::Place::ONE)
                .expect("a snapshot checked before the search (checkpoint::summary)");
            let at = game.depth(snapshot.done - 1);
            let (resumed, beam) = snapshot.resumed();
            let mut held = InProcess::resumed(beam.parents, beam.chosen, at);
            depths(game, run, options, &mut held, Some(resumed))
        }
        Processes::Many(comm) => {
            assert!(options.guide.is_none(), "a distributed search has no guide");
            distributed::search(game, run, comm, options)
        }
    }
}
