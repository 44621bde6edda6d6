//! The NES beam search: every state of a depth expanded by its placements, the children ranked
//! by `cost(field) - score`, the best of them played out exactly on the plain engine (which
//! decides the frame the next piece spawns on, and so the piece after it), exact duplicates
//! dropped, the best `width` kept. The result is deterministic whatever the thread count: the
//! children are ranked by a total order and every step in parallel is a pure map.

use super::engine::{play_state, NesGame, Outcome};
use super::eval::{cost, NesWeights, Rows, FULL};
use super::movegen::{placements, InputModel, Tap};
use super::record::NesRecord;
use super::start::Start;
use super::tables::{ORIENTATIONS, POINTS};
use ahash::AHashSet;
use rayon::prelude::*;
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

/// When the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// Stop when the level reaches this (29: the transition the community scores to).
    pub level: Option<u8>,
    /// Stop when this many lines are cleared.
    pub lines: Option<u32>,
    /// Stop after this many pieces.
    pub pieces: Option<u64>,
}

/// The search's settings.
#[derive(Clone, Debug)]
pub struct NesSearch {
    pub width: usize,
    pub model: InputModel,
    pub stop: Stop,
    pub weights: NesWeights,
}

/// A state of the beam: the game just after a piece spawned.
#[derive(Clone)]
struct State {
    game: NesGame,
    /// The record frame the piece spawned on (-1: the menus' last frame).
    spawn_frame: i64,
    /// Index of the parent in the previous depth and the presses of the piece that led here.
    parent: u32,
    taps: SmallVec<[Tap; 6]>,
    /// Whether the game reached the stop during this piece.
    done: bool,
    /// The state's index in its depth's trail (which also holds the finished states).
    trail_index: u32,
}

/// How a state was reached, all the trail keeps of it.
struct Link {
    parent: u32,
    taps: SmallVec<[Tap; 6]>,
    spawn_frame: i64,
    done: bool,
}

impl Link {
    fn of(s: &State) -> Link {
        Link {
            parent: s.parent,
            taps: s.taps.clone(),
            spawn_frame: s.spawn_frame,
            done: s.done,
        }
    }
}

/// A state a record may end on, with what it scores.
#[derive(Clone, Copy)]
struct Ending {
    depth: usize,
    index: usize,
    score: u64,
    lines: u32,
    pieces: u64,
}

impl Ending {
    fn of(s: &State, depth: usize, index: usize) -> Ending {
        Ending {
            depth,
            index,
            score: s.game.score.uncapped(),
            lines: s.game.lines(),
            pieces: s.game.pieces,
        }
    }
}

/// A child before it is played out: its key and how to make it.
struct Child {
    key: f64,
    parent: u32,
    order: u32,
    placement: super::movegen::Placement,
}

/// The record found and what it scores by the search's own count.
pub struct Found {
    pub record: NesRecord,
    /// Frames where each piece's line starts (for the record's text).
    pub piece_starts: Vec<usize>,
    pub score: u64,
    pub lines: u32,
    pub pieces: u64,
    pub reached_stop: bool,
    /// Placements the engine did not play as the move generator found them (a bug: such
    /// children are dropped, and `solve` fails when there are any).
    pub mismatches: u64,
}

/// The field after a piece locks there and full rows go; returns the rows cleared.
fn place(rows: &Rows, piece: u8, x: i8, y: i8) -> (Rows, usize) {
    let mut placed = *rows;
    for &(dy, dx) in &ORIENTATIONS[piece as usize] {
        let r = y + dy;
        if (0..20).contains(&r) {
            placed[r as usize] |= 1 << (x + dx);
        }
    }
    let mut out = [0u16; 20];
    let mut k = 20;
    let mut cleared = 0;
    for r in (0..20).rev() {
        if placed[r] == FULL {
            cleared += 1;
        } else {
            k -= 1;
            out[k] = placed[r];
        }
    }
    (out, cleared)
}

/// Points and the level after a clear, by the ROM's rules (lines counted one at a time, the
/// level passing when the count's tens, read as BCD, pass it; points at the new level).
pub fn clear_points(lines: u32, level: u8, rows: usize) -> (u64, u8, u32) {
    let mut level = level;
    let mut lines = lines;
    for _ in 0..rows {
        lines += 1;
        if lines.is_multiple_of(10) {
            let tens = (((lines / 100) << 4) | ((lines / 10) % 10)) as u8;
            if (level.wrapping_sub(tens) as i8) < 0 {
                level += 1;
            }
        }
    }
    (POINTS[rows] * (level as u64 + 1), level, lines)
}

fn state_hash(game: &NesGame) -> u64 {
    let mut h = ahash::AHasher::default();
    game.cells[..200].hash(&mut h);
    (
        game.rng,
        game.spawn_count,
        game.spawn_id,
        game.next,
        game.piece,
    )
        .hash(&mut h);
    (
        game.frame_counter,
        game.level,
        game.lines_bcd,
        game.score.uncapped(),
    )
        .hash(&mut h);
    h.finish()
}

impl NesSearch {
    fn reached(&self, game: &NesGame) -> bool {
        self.stop.level.is_some_and(|l| game.level >= l)
            || self.stop.lines.is_some_and(|l| game.lines() >= l)
            || self.stop.pieces.is_some_and(|p| game.pieces >= p)
    }

    /// Plays a placement out on the plain engine, from the parent's spawn to the next spawn,
    /// the stop, or the top-out.
    fn play_out(&self, parent: &State, child: &Child, mismatches: &AtomicU64) -> Option<State> {
        let index = parent.trail_index;
        let mut game = parent.game.clone();
        let taps = &child.placement.taps;
        let mut next_tap = 0;
        if let Some(t) = taps.first().filter(|t| t.frame == 0) {
            // The spawn frame's press: read at the end of that frame, already played.
            game.held = t.buttons;
            next_tap = 1;
        }
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
            if game.outcome == Outcome::ToppedOut {
                return None;
            }
            if events.locked
                && (game.x, game.y, game.piece)
                    != (child.placement.x, child.placement.y, child.placement.piece)
            {
                // The movegen and the engine disagree: a bug, never a record.
                mismatches.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            // Every stop is judged on the frame the lock's lines and points are counted, so the
            // last piece's clear is in the record.
            let state = |game, done| State {
                game,
                spawn_frame: parent.spawn_frame + frame as i64,
                parent: index,
                taps: taps.clone(),
                done,
                trail_index: 0,
            };
            if game.play_state == play_state::GOAL_CHECK && self.reached(&game) {
                return Some(state(game, true));
            }
            if events.spawned {
                // A piece spawned into the stack tops out on its first drop: worthless.
                if !game.fits(game.piece, game.x, game.y) {
                    return None;
                }
                return Some(state(game, false));
            }
        }
    }

    /// Runs the search from a start and returns the best record.
    pub fn run(&self, start: &Start, mut progress: impl FnMut(u64, usize, u64)) -> Found {
        let root = State {
            game: NesGame::new(start),
            spawn_frame: -1,
            parent: u32::MAX,
            taps: SmallVec::new(),
            done: false,
            trail_index: 0,
        };
        // Past depths keep only how each state was reached; the current one keeps its games.
        let mut trail: Vec<Vec<Link>> = vec![vec![Link::of(&root)]];
        let mut beam = vec![root];
        let mut best_done: Option<Ending> = None;
        let mut best_live = Ending::of(&beam[0], 0, 0);
        let mismatches = AtomicU64::new(0);
        while !beam.is_empty() {
            let first_press = if trail.len() == 1 { 1 } else { 0 };
            let mut children: Vec<Child> = beam
                .par_iter()
                .enumerate()
                .flat_map_iter(|(i, s)| {
                    let rows = s.game.rows();
                    let lines = s.game.lines();
                    let level = s.game.level;
                    let score = s.game.score.uncapped();
                    placements(&s.game, self.model, first_press)
                        .into_iter()
                        .enumerate()
                        .map(move |(order, p)| {
                            let (after, cleared) = place(&rows, p.piece, p.x, p.y);
                            let (points, _, _) = clear_points(lines, level, cleared);
                            let key = cost(&after, &self.weights) - (score + points) as f64;
                            Child {
                                key,
                                parent: i as u32,
                                order: order as u32,
                                placement: p,
                            }
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            children.sort_by(|a, b| {
                a.key
                    .total_cmp(&b.key)
                    .then(a.parent.cmp(&b.parent))
                    .then(a.order.cmp(&b.order))
            });
            let mut next: Vec<State> = Vec::with_capacity(self.width);
            let mut seen = AHashSet::new();
            let mut from = 0;
            while next.len() < self.width && from < children.len() {
                let to = (from + 2 * (self.width - next.len())).min(children.len());
                let played: Vec<Option<State>> = children[from..to]
                    .par_iter()
                    .map(|c| self.play_out(&beam[c.parent as usize], c, &mismatches))
                    .collect();
                for s in played.into_iter().flatten() {
                    if next.len() >= self.width {
                        break;
                    }
                    if seen.insert(state_hash(&s.game)) {
                        next.push(s);
                    }
                }
                from = to;
            }
            let depth = trail.len();
            trail.push(next.iter().map(Link::of).collect());
            // Finished games leave the beam; the best of them is kept.
            for (i, s) in next.iter().enumerate() {
                if s.done && best_done.is_none_or(|b| s.game.score.uncapped() > b.score) {
                    best_done = Some(Ending::of(s, depth, i));
                }
            }
            next.retain(|s| !s.done);
            // The retain moved the live states: their trail entries are found by the index
            // each carries.
            let live: Vec<u32> = (0..trail[depth].len() as u32)
                .filter(|&i| !trail[depth][i as usize].done)
                .collect();
            if let Some((k, s)) = next
                .iter()
                .enumerate()
                .max_by_key(|(k, s)| (s.game.score.uncapped(), std::cmp::Reverse(*k)))
            {
                best_live = Ending::of(s, depth, live[k] as usize);
            }
            progress(depth as u64, next.len(), best_live.score);
            // Once a finished game beats every live one by more than a four-line clear can
            // make up at level 29, nothing left can win.
            let live_best = next.iter().map(|s| s.game.score.uncapped()).max();
            if let (Some(b), Some(l)) = (best_done, live_best) {
                if b.score > l + 1200 * 40 {
                    break;
                }
            }
            // The children's parent indices count the states of this depth as the trail holds
            // them, so the live states keep theirs through the retain.
            beam = next;
            for (k, s) in beam.iter_mut().enumerate() {
                s.trail_index = live[k];
            }
        }
        let mut found = self.backtrack(start, &trail, best_done.unwrap_or(best_live));
        found.reached_stop = best_done.is_some();
        found.mismatches = mismatches.into_inner();
        found
    }

    /// The record of a state, from the trail.
    fn backtrack(&self, start: &Start, trail: &[Vec<Link>], end: Ending) -> Found {
        let (mut depth, mut index) = (end.depth, end.index);
        let end_frame = trail[depth][index].spawn_frame.max(0) as usize;
        let mut frames = vec![0u8; end_frame + 1];
        let mut piece_starts = Vec::new();
        while depth > 0 {
            let s = &trail[depth][index];
            let parent = &trail[depth - 1][s.parent as usize];
            for t in &s.taps {
                let f = parent.spawn_frame + t.frame as i64;
                frames[f as usize] = t.buttons;
            }
            piece_starts.push(parent.spawn_frame.max(0) as usize);
            index = s.parent as usize;
            depth -= 1;
        }
        piece_starts.reverse();
        Found {
            record: NesRecord {
                start: *start,
                frames,
            },
            piece_starts,
            score: end.score,
            lines: end.lines,
            pieces: end.pieces,
            reached_stop: false,
            mismatches: 0,
        }
    }
}
