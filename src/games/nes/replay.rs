//! Replaying an NES record on the plain engine: the report `check --game nes` prints, and the
//! snapshots the oracle test compares with the ROM's RAM.

use super::record::Record;
use super::rules::{play_state, Events, Outcome, Round};
use super::tables::kind_letter;
use crate::kit::scorecard::{self, Reason, Scorecard};
use serde::Serialize;

/// The state after a piece spawns (or at the end), in the fields the oracle reads from RAM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    /// The record's frame (from 0) at whose end this state holds.
    pub frame: u64,
    /// The score the ROM shows (999,999 at most).
    pub score: u64,
    pub lines: u32,
    pub level: u8,
    /// The active piece's and the next piece's orientation ids.
    pub piece: u8,
    pub next: u8,
    /// The field, row by row from the top: '#' filled, '.' empty.
    pub board: String,
}

impl Snapshot {
    pub(crate) fn of(game: &Round, frame: u64) -> Snapshot {
        let board = (0..200)
            .map(|i| {
                if game.filled(i / 10, i % 10) {
                    '#'
                } else {
                    '.'
                }
            })
            .collect();
        Snapshot {
            frame,
            score: game.score.rom(),
            lines: game.lines(),
            level: game.level,
            piece: game.piece,
            next: game.next,
            board,
        }
    }
}

/// How a replay ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A piece spawned into the stack and locked there.
    ToppedOut,
    /// A lock whose count the cycle model cannot call safe (`cycles::margin` below 0): the ROM
    /// may crash, stall or garble the screen there.
    Crashed,
    /// The record's frames ran out with the game still going.
    RecordEnded,
}

/// The game at a level-up: at level 29 the "transition" the community counts to, or one of
/// the [`MILESTONES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Transition {
    pub(crate) frame: u64,
    pub(crate) score: u64,
    pub lines: u32,
    pub(crate) pieces: u64,
}

/// The levels past the transition the community marks: the "double killscreen", the first
/// level the ROM can crash on, and the level counter's wrap (256 counted past 255).
pub(crate) const MILESTONES: [u16; 3] = [39, 155, 256];

/// The game when its level first reached one of [`MILESTONES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Milestone {
    pub(crate) level: u16,
    #[serde(flatten)]
    pub(crate) at: Transition,
}

/// What a record scores. Serialized, NES's own fields of `--json`: the score, the lines, the
/// pieces and the end are the fields every game has ([`Report::scorecard`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The score without the ROM's cap (the targets' measure).
    #[serde(skip)]
    pub score: u64,
    /// The score the ROM shows: capped at 999,999.
    pub rom_score: u64,
    #[serde(skip)]
    pub lines: u32,
    pub level: u8,
    /// The level counted on past 255 (256: the counter's first wrap to 0).
    pub level_count: u16,
    #[serde(skip)]
    pub pieces: u64,
    /// Clears of 1, 2, 3 and 4 rows.
    pub clears: [u64; 4],
    /// Frames played (the game's, which stop at a top-out).
    pub frames: u64,
    #[serde(skip)]
    pub end: End,
    /// Frames of the record after the game ended, which nothing reads.
    pub unplayed_frames: u64,
    pub transition: Option<Transition>,
    /// The [`MILESTONES`] the game reached.
    pub(crate) milestones: Vec<Milestone>,
    /// The smallest margin of the game's counts ([`crate::games::nes::cycles::margin`];
    /// [`crate::games::nes::cycles::FAR`]: none came near a failing count).
    pub margin: i16,
}

impl Report {
    /// What the record scored, in the terms every game shares: the score uncapped.
    pub(crate) fn scorecard(&self) -> Scorecard {
        Scorecard {
            score: self.score,
            pieces_placed: self.pieces,
            lines: u64::from(self.lines),
            end: self.shared_end(),
        }
    }

    /// How the game ended, in the terms every game shares: a top-out by the piece after the
    /// last placed, a crash by the last placed.
    fn shared_end(&self) -> scorecard::End {
        match self.end {
            End::RecordEnded => scorecard::End::ran_out(
                Reason::RecordEnded,
                "the record ended with the game still going",
            ),
            End::ToppedOut => scorecard::End::game_over(
                Reason::ToppedOut,
                self.pieces + 1,
                "topped out (it spawned into the stack)",
            ),
            End::Crashed => scorecard::End::game_over(
                Reason::Crashed,
                self.pieces,
                &format!(
                    "its lock's cycles may crash the ROM or delay its next piece (level {}, see docs/NES.md)",
                    self.level
                ),
            ),
        }
    }

    /// The level as every summary words it: the ROM's, and past the counter's wrap the count
    /// too (`0 (256 counted past 255)`).
    pub(crate) fn level_text(&self) -> String {
        match self.level_count {
            256.. => format!("{} ({} counted past 255)", self.level, self.level_count),
            _ => self.level.to_string(),
        }
    }
}

/// Replays a record, calling `observe` after every frame with the game and that frame's events.
pub fn replay_observed(record: &Record, mut observe: impl FnMut(&Round, &Events)) -> Report {
    let mut game = Round::new(&record.start);
    let mut transition = None;
    let mut milestones = Vec::new();
    let mut played = 0u64;
    for &buttons in &record.frames {
        if game.outcome != Outcome::Playing {
            break;
        }
        let events = game.step(buttons);
        played += 1;
        if events.level_up {
            let at = Transition {
                frame: played - 1,
                score: game.score.uncapped(),
                lines: game.lines(),
                pieces: game.pieces,
            };
            if game.level == 29 && transition.is_none() {
                transition = Some(at);
            }
            let level = game.level_count();
            if MILESTONES.contains(&level) {
                milestones.push(Milestone { level, at });
            }
        }
        observe(&game, &events);
    }
    Report {
        score: game.score.uncapped(),
        rom_score: game.score.rom(),
        lines: game.lines(),
        level: game.level,
        level_count: game.level_count(),
        pieces: game.pieces + u64::from(lock_pending(&game)),
        clears: game.clears,
        frames: played,
        end: match game.outcome {
            Outcome::ToppedOut => End::ToppedOut,
            Outcome::Crashed => End::Crashed,
            Outcome::Playing => End::RecordEnded,
        },
        unplayed_frames: record.frames.len() as u64 - played,
        transition,
        milestones,
        margin: game.margin,
    }
}

/// Whether the active piece has locked (its lock frame has passed, so `--trace` showed it) but
/// the game has not written it into the field yet: it does so on a later frame, once the screen
/// has caught up, and a record may end before. Such a piece counts as locked; a piece that
/// does not fit where it stopped tops the game out instead.
pub(crate) fn lock_pending(game: &Round) -> bool {
    game.outcome == Outcome::Playing
        && game.play_state == play_state::LOCK
        && game.fits(game.piece, game.x, game.y)
}

/// Replays a record and keeps a snapshot at every spawn and one at the end: what the oracle
/// test holds against the ROM.
pub fn snapshots(record: &Record) -> (Report, Vec<Snapshot>) {
    let mut shots = Vec::new();
    let mut frame = 0u64;
    let mut last = None;
    let report = replay_observed(record, |game, events| {
        if events.spawned {
            shots.push(Snapshot::of(game, frame));
        }
        if frame + 1 == record.frames.len() as u64 || game.outcome != Outcome::Playing {
            // The game's last frame: the record's, or the top-out's.
            last = Some(Snapshot::of(game, frame));
        }
        frame += 1;
    });
    // A record of no frames ends where it starts.
    shots.push(last.unwrap_or_else(|| Snapshot::of(&Round::new(&record.start), 0)));
    (report, shots)
}

/// A line of `check --game nes --trace`: a piece as it locks.
pub fn describe_lock(game: &Round, frame: u64) -> String {
    format!(
        "piece {} {} (orientation {}) locks at x={} y={} on frame {frame}; score {}, lines {}, level {}",
        game.pieces + 1,
        kind_letter(game.piece),
        game.piece,
        game.x,
        game.y,
        game.score.uncapped(),
        game.lines(),
        game.level
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_past_the_wrap_is_worded_with_its_count() {
        let mut report = Report {
            score: 0,
            rom_score: 0,
            lines: 0,
            level: 255,
            level_count: 255,
            pieces: 0,
            clears: [0; 4],
            frames: 0,
            end: End::RecordEnded,
            unplayed_frames: 0,
            transition: None,
            milestones: Vec::new(),
            margin: crate::games::nes::cycles::FAR as i16,
        };
        assert_eq!(report.level_text(), "255");
        (report.level, report.level_count) = (0, 256);
        assert_eq!(report.level_text(), "0 (256 counted past 255)");
    }
}
