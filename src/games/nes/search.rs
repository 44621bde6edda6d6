//! NES Tetris on the beam search's seam ([`crate::search::Game`]). A state is the game just
//! after a piece spawned; its children are the placements of that piece under the input
//! model, ranked by `cost(field) - score` from the field and points the lock leaves, and the
//! chosen ones are played out exactly on the plain engine, which decides the frame the next
//! piece spawns on and so the piece after it. A child's hash covers everything the play-out
//! depends on (the field and counts after the lock, the generator, the frame counter, the
//! lock frame and the presses), so children with one hash become one game. A child's code is
//! in the `code` module, and what a lock leaves (field, points, level) in `points`.

use super::cycles;
use super::ending::Ending;
use super::eval::{Rows, Weights};
use super::movegen::{placements, InputModel, Placement, Tap};
use super::record::Record;
use super::rules::{play_state, Outcome, Round};
use super::start::Start;
use crate::search::{self, DepthStats, Game, Objective, Options, Run, Sink};
use smallvec::SmallVec;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

mod code;
mod knobs;
mod points;
mod resume;
mod stream;

pub(crate) use code::NesCode;
use knobs::{count_margin, key};
use points::place;
pub use points::{clear_points, lines_to_level};
pub(crate) use resume::Kept;
pub(crate) use stream::RecordStream;

/// When the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// Stop when the level reaches this (29: the transition the community scores to), counted
    /// on past 255 as [`Round::level_count`] counts it.
    pub level: Option<u16>,
    /// Stop when this many lines are cleared.
    pub lines: Option<u32>,
    /// Stop after this many pieces.
    pub pieces: Option<u64>,
}

/// Pieces a search runs to at most when no `--pieces` bounds it: far past any stop a game
/// reaches (the level 29 transition comes within about 600 pieces from level 0).
pub(crate) const MAX_PIECES: usize = 100_000;

/// The game as the search plays it.
pub struct Seam {
    pub(crate) model: InputModel,
    pub(crate) stop: Stop,
    pub(crate) weights: Weights,
    /// Placements the engine did not play as the move generator found them (a bug: such
    /// children become dead states, and `solve` fails when there are any).
    mismatches: AtomicU64,
    /// The seeds of every child's hash, made once.
    seeds: ahash::RandomState,
}

/// A state of the beam: the game just after a piece spawned, or just after it reached the
/// stop (`done`), or a game that ended (`dead`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    game: Round,
    /// The record frame the piece spawned on (-1: the menus' last frame).
    spawn_frame: i64,
    pub(super) done: bool,
    dead: bool,
}

impl Default for State {
    fn default() -> State {
        let zero = Start {
            level: 0,
            title_wait: 0,
            rng: 0,
            spawn_count: 0,
            spawn_id: 0,
            piece: 0,
            next: 0,
            frame_counter: 0,
            fall_timer: 0,
            autorepeat_y: 0,
            vram_row: 0,
        };
        State::root(&zero)
    }
}

crate::wire_fields!(State {
    game,
    spawn_frame,
    done,
    dead
});

impl State {
    fn root(start: &Start) -> State {
        State {
            game: Round::new(start),
            spawn_frame: -1,
            done: false,
            dead: false,
        }
    }

    /// The first frame a press may be made on: the first piece's spawn frame belongs to the
    /// menus.
    fn first_press(&self) -> u16 {
        u16::from(self.spawn_frame < 0)
    }
}

/// The record found and what it scores by the search's own count.
pub struct Found {
    pub record: Record,
    /// Frames where each piece's line starts (for the record's text).
    pub piece_starts: Vec<usize>,
    pub score: u64,
    pub(crate) lines: u32,
    pub pieces: u64,
    /// Why the record ends where it does.
    pub(crate) ending: Ending,
    /// Placements the engine did not play as the move generator found them (a bug: `solve`
    /// fails when there are any).
    pub mismatches: u64,
    pub(crate) stats: DepthStats,
}

/// A hash of everything a child's play-out depends on: the field and counts its lock leaves,
/// the parent's generator and frame counter, and the presses with their lock frame.
fn child_hash(
    seeds: &ahash::RandomState,
    parent: &Round,
    after: &Rows,
    score: u64,
    lines: u32,
    level: u8,
    p: &Placement,
) -> u64 {
    let mut h = seeds.build_hasher();
    after.hash(&mut h);
    (score, lines, level, parent.pieces).hash(&mut h);
    (
        parent.rng,
        parent.spawn_count,
        parent.spawn_id,
        parent.next,
        parent.frame_counter,
    )
        .hash(&mut h);
    if parent.level >= cycles::QUIET_BELOW {
        // The clear types' counters and the next box count in the count's cycles.
        (parent.clears.map(|c| c % 10), parent.next_hidden).hash(&mut h);
    }
    (p.piece, p.x, p.y, p.lock_frame).hash(&mut h);
    for t in &p.taps {
        (t.frame, t.buttons).hash(&mut h);
    }
    h.finish()
}

impl Seam {
    pub fn new(model: InputModel, stop: Stop, weights: Weights) -> Seam {
        Seam {
            model,
            stop,
            weights,
            mismatches: AtomicU64::new(0),
            // Fixed seeds: the selection's order of equal keys follows the hash, so a hash
            // that changed from run to run would change the record.
            seeds: ahash::RandomState::with_seeds(
                0x243F_6A88_85A3_08D3,
                0x1319_8A2E_0370_7344,
                0xA409_3822_299F_31D0,
                0x082E_FA98_EC4E_6C89,
            ),
        }
    }

    fn reached(&self, game: &Round) -> bool {
        self.stop.level.is_some_and(|l| game.level_count() >= l)
            || self.stop.lines.is_some_and(|l| game.lines() >= l)
            || self.stop.pieces.is_some_and(|p| game.pieces >= p)
    }

    /// Plays a placement out on the plain engine, from the parent's spawn to the next spawn,
    /// the stop, or the end of the game; also gives the presses' record frames.
    fn play_out(&self, parent: &State, placement: &NesCode) -> State {
        let mut game = parent.game;
        let taps: SmallVec<[Tap; 16]> = placement.taps().collect();
        let mut next_tap = 0;
        if let Some(t) = taps.first().filter(|t| t.frame == 0) {
            // The spawn frame's press: read at the end of that frame, already played.
            game.held = t.buttons;
            next_tap = 1;
        }
        let dead = |game| State {
            game,
            spawn_frame: parent.spawn_frame,
            done: false,
            dead: true,
        };
        let mut frame: u16 = 0;
        loop {
            frame += 1;
            let buttons = match taps.get(next_tap) {
                Some(t) if t.frame == frame => {
                    next_tap += 1;
                    t.buttons
                }
                _ => 0,
            };
            let events = game.step(buttons);
            if game.outcome != Outcome::Playing || (game.margin as i32) < cycles::MARGIN {
                return dead(game);
            }
            if events.locked
                && (game.x, game.y, game.piece) != (placement.x, placement.y, placement.piece)
            {
                // The movegen and the engine disagree: a bug, never a record.
                self.mismatches.fetch_add(1, Ordering::Relaxed);
                return dead(game);
            }
            let state = |game, done| State {
                game,
                spawn_frame: parent.spawn_frame + frame as i64,
                done,
                dead: false,
            };
            // Every stop is judged on the frame the lock's lines and points are counted, so the
            // last piece's clear is in the record.
            if game.play_state == play_state::GOAL_CHECK && self.reached(&game) {
                return state(game, true);
            }
            if events.spawned {
                // A piece spawned into the stack tops out on its first drop: the game ends
                // with this piece's points.
                if !game.fits(game.piece, game.x, game.y) {
                    return State {
                        dead: true,
                        ..state(game, false)
                    };
                }
                return state(game, false);
            }
        }
    }

    /// Runs the search from a start, planned for `planned` pieces, as `options` say, and
    /// returns the best record (when every line tops out before the stop, the one `objective`
    /// asks for); over several processes, the record is process 0's (elsewhere it holds no
    /// frames). The record is made of the whole line: `options` hand out no decided codes.
    pub fn run(
        &self,
        start: &Start,
        (planned, objective): (usize, Objective),
        options: Options<'_, NesCode>,
    ) -> Found {
        assert!(options.decided.is_none(), "the record needs the whole line");
        let run = self.run_from(start, planned, objective);
        let line = search::beam_search(self, &run, options);
        let mut found = self.record(start, &line.placements);
        found.stats = line.stats;
        found
    }

    /// The record of a line of placement codes, played from the start.
    fn record(&self, start: &Start, line: &[NesCode]) -> Found {
        let mut stream = RecordStream::new(self, start);
        for placement in line {
            stream.piece(placement);
        }
        stream.finish().0
    }

    /// Where a search of this game begins from `start`, planned for `planned` pieces.
    pub(crate) fn run_from(
        &self,
        start: &Start,
        planned: usize,
        objective: Objective,
    ) -> Run<State> {
        Run {
            state: State::root(start),
            score: 0,
            depths: self.stop.pieces.map_or(MAX_PIECES, |p| p as usize),
            planned,
            objective,
        }
    }
}

impl Seam {
    /// Placements the engine did not play as the move generator found them (a bug).
    pub(crate) fn mismatches(&self) -> u64 {
        self.mismatches.load(Ordering::Relaxed)
    }
}

/// A placement of a state's piece as the search sees it.
pub(super) enum Child {
    /// A child of the search: its key, hash, score and code.
    Kept {
        key: f64,
        hash: u64,
        score: u64,
        code: NesCode,
    },
    /// Refused: its counting frame comes within [`cycles::MARGIN`] cycles of a failing count.
    Crashes,
}

impl Seam {
    /// Every placement of `state`'s piece (which has banked `score`), to `each`; returns the
    /// placements generated.
    #[inline]
    pub(super) fn children(&self, state: &State, score: u64, mut each: impl FnMut(Child)) -> u64 {
        if state.done || state.dead {
            return 0;
        }
        let game = &state.game;
        let rows = game.rows();
        let lines_before = game.lines();
        let all = placements(game, self.model, state.first_press());
        for (order, p) in all.iter().enumerate() {
            let (after, cleared, deep) = place(&rows, p.piece, p.x, p.y);
            let (points, level, lines) = clear_points(lines_before, game.level, cleared);
            let lock = |hidden| {
                let piece = (p.piece, hidden);
                count_margin(game, piece, &after, (cleared, deep), (level, lines))
            };
            // Below the quiet level no count comes near a failing one (a test in `cycles`).
            let margin = match level < cycles::QUIET_BELOW {
                true => cycles::FAR,
                false => lock(game.next_hidden),
            };
            if margin < cycles::MARGIN {
                match self.knobbed(state, score, p, (all.len(), order)) {
                    Some(child) => each(child),
                    None => each(Child::Crashes),
                }
                continue;
            }
            let Some(code) = NesCode::of(order, p) else {
                continue;
            };
            let score = score + points;
            each(Child::Kept {
                key: key(&after, &self.weights, level, score, margin),
                hash: child_hash(&self.seeds, game, &after, score, lines, level, p),
                score,
                code,
            });
        }
        all.len() as u64
    }
}

impl Game for Seam {
    type Code = NesCode;
    type State = State;
    type Depth = ();
    type Scratch = ();

    fn depth(&self, _depth: usize) {}

    fn expand(
        &self,
        _at: &(),
        state: &State,
        score: u64,
        parent: u32,
        _scratch: &mut (),
        out: &mut Sink<NesCode>,
    ) -> u64 {
        self.children(state, score, |child| {
            if let Child::Kept {
                key,
                hash,
                score,
                code,
            } = child
            {
                out.push(key, hash, score, parent, code);
            }
        })
    }

    fn apply(&self, _at: &(), state: &State, code: &NesCode) -> State {
        self.play_out(state, code)
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
