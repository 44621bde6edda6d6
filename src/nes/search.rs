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
}

fn rows_of(game: &NesGame) -> Rows {
    let mut rows = [0u16; 20];
    for (r, row) in rows.iter_mut().enumerate() {
        for c in 0..10 {
            if game.filled(r, c) {
                *row |= 1 << c;
            }
        }
    }
    rows
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
    fn play_out(&self, parent: &State, index: u32, child: &Child) -> Option<State> {
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
                panic!("NES movegen placement not played as found");
            }
            if self.reached(&game)
                && game.play_state != play_state::ACTIVE
                && (events.rows_cleared > 0 || self.stop.pieces.is_some_and(|p| game.pieces >= p))
            {
                return Some(State {
                    game,
                    spawn_frame: parent.spawn_frame + frame as i64,
                    parent: index,
                    taps: taps.clone(),
                    done: true,
                });
            }
            if events.spawned {
                // A piece spawned into the stack tops out on its first drop: worthless.
                if !game.fits(game.piece, game.x, game.y) {
                    return None;
                }
                return Some(State {
                    game,
                    spawn_frame: parent.spawn_frame + frame as i64,
                    parent: index,
                    taps: taps.clone(),
                    done: false,
                });
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
        };
        let mut depths: Vec<Vec<State>> = vec![vec![root]];
        let mut best_done: Option<(u64, usize, usize)> = None;
        loop {
            let beam = depths.last().expect("the root depth");
            if beam.is_empty() {
                break;
            }
            let first_press = if depths.len() == 1 { 1 } else { 0 };
            let mut children: Vec<Child> = beam
                .par_iter()
                .enumerate()
                .filter(|(_, s)| !s.done)
                .flat_map_iter(|(i, s)| {
                    let rows = rows_of(&s.game);
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
                    .map(|c| self.play_out(&beam[c.parent as usize], c.parent, c))
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
            let depth = depths.len();
            // Finished games leave the beam; the best of them is kept.
            for (i, s) in next.iter().enumerate() {
                if s.done {
                    let score = s.game.score.uncapped();
                    if best_done.is_none_or(|(b, _, _)| score > b) {
                        best_done = Some((score, depth, i));
                    }
                }
            }
            let best_live = next
                .iter()
                .filter(|s| !s.done)
                .map(|s| s.game.score.uncapped())
                .max();
            progress(
                depth as u64,
                next.iter().filter(|s| !s.done).count(),
                best_live.unwrap_or(0),
            );
            let all_done = next.iter().all(|s| s.done);
            depths.push(next);
            if all_done {
                break;
            }
            // Once a finished game beats every live one by more than a four-line clear can
            // make up at level 29, nothing left can win.
            if let (Some((b, _, _)), Some(l)) = (best_done, best_live) {
                if b > l + 1200 * 40 {
                    break;
                }
            }
        }
        self.backtrack(start, &depths, best_done)
    }

    /// The record of the best finished game, or of the best live state of the last depth.
    fn backtrack(
        &self,
        start: &Start,
        depths: &[Vec<State>],
        best_done: Option<(u64, usize, usize)>,
    ) -> Found {
        let (mut depth, mut index) = match best_done {
            Some((_, d, i)) => (d, i),
            None => {
                let d = depths.iter().rposition(|b| !b.is_empty()).unwrap_or(0);
                let i = (0..depths[d].len())
                    .max_by_key(|&i| (depths[d][i].game.score.uncapped(), std::cmp::Reverse(i)))
                    .unwrap_or(0);
                (d, i)
            }
        };
        let last = &depths[depth][index];
        let end_frame = last.spawn_frame.max(0) as usize;
        let mut frames = vec![0u8; end_frame + 1];
        let mut piece_starts = Vec::new();
        let (score, lines, pieces) = (
            last.game.score.uncapped(),
            last.game.lines(),
            last.game.pieces,
        );
        while depth > 0 {
            let s = &depths[depth][index];
            let parent = &depths[depth - 1][s.parent as usize];
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
            score,
            lines,
            pieces,
            reached_stop: best_done.is_some(),
        }
    }
}
