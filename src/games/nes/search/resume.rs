//! A search that goes on from a record's first pieces (`solve --from-record`): the record's
//! frames played on the plain engine up to the spawn of the first piece not kept, so that the
//! search starts from the very state its own play-out of those pieces would have left.

use super::{Seam, State};
use crate::games::nes::record::Record;
use crate::games::nes::replay::lock_pending;
use crate::games::nes::rules::{play_state, Outcome};
use crate::search::{Objective, Run};
use thiserror::Error;

/// Idle frames a record cut after a whole piece may lack between its last frame and the next
/// piece's spawn: the lock, a clear's animation and the spawn's delay take well under this.
const MAX_IDLE_TO_SPAWN: usize = 256;

/// A record's first pieces, kept: the state the search goes on from and the frames that lead
/// there.
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    pub(super) state: State,
    /// The kept pieces' frames, up to the frame the next piece spawns on (not included: its
    /// press, if any, is the next piece's).
    pub(super) frames: Vec<u8>,
    /// The frame each kept piece spawned on (the first piece's is 0).
    pub(super) piece_starts: Vec<usize>,
}

/// Why a record's first pieces cannot be kept.
#[derive(Debug, Error, PartialEq, Eq)]
pub(crate) enum KeptError {
    /// The record ends, or its game does, before the pieces to keep.
    #[error("the record holds only {have} whole pieces, fewer than the {wanted} to keep")]
    TooShort { have: u64, wanted: usize },
    /// The game reaches the search's stop within the kept pieces.
    #[error("the game reaches its stop within the first {0} pieces: nothing is left to search")]
    Stopped(usize),
}

impl Kept {
    /// Pieces kept.
    pub(crate) fn pieces(&self) -> usize {
        self.piece_starts.len()
    }
}

impl Seam {
    /// The first `pieces` pieces of `record`, played on the plain engine as the search plays
    /// its own: every frame as recorded, and the spawn frame of the next piece idle (the search
    /// presses on it when it plays that piece). A record cut right after a piece's line (as an
    /// interrupted `solve` leaves it) may end before that spawn: the frames up to it are idle.
    pub(crate) fn kept(&self, record: &Record, pieces: usize) -> Result<Kept, KeptError> {
        let mut state = State::root(&record.start);
        let mut piece_starts = Vec::new();
        if pieces == 0 {
            let frames = Vec::new();
            return Ok(Kept {
                state,
                frames,
                piece_starts,
            });
        }
        piece_starts.push(0);
        let idle = std::iter::repeat_n(&0, MAX_IDLE_TO_SPAWN);
        for (frame, &buttons) in record.frames.iter().chain(idle).enumerate() {
            let game = &mut state.game;
            let recorded = frame < record.frames.len();
            if !recorded && game.play_state == play_state::ACTIVE {
                break;
            }
            let before = *game;
            let events = game.step(buttons);
            if game.outcome != Outcome::Playing {
                break;
            }
            if game.play_state == play_state::GOAL_CHECK && self.reached(game) {
                return Err(KeptError::Stopped(pieces));
            }
            if !events.spawned {
                continue;
            }
            if !game.fits(game.piece, game.x, game.y) {
                break;
            }
            if piece_starts.len() < pieces {
                piece_starts.push(frame);
                continue;
            }
            *game = before;
            game.step(0);
            state.spawn_frame = frame as i64;
            let mut frames = record.frames[..frame.min(record.frames.len())].to_vec();
            frames.resize(frame, 0);
            return Ok(Kept {
                state,
                frames,
                piece_starts,
            });
        }
        let game = &state.game;
        Err(KeptError::TooShort {
            have: game.pieces + u64::from(lock_pending(game)),
            wanted: pieces,
        })
    }

    /// Where a search of this game begins after `kept`, planned for `planned` pieces in all.
    pub(crate) fn run_after(
        &self,
        kept: &Kept,
        planned: usize,
        objective: Objective,
    ) -> Run<State> {
        let pieces = kept.pieces();
        Run {
            state: kept.state,
            score: kept.state.game.score.uncapped(),
            depths: (self.stop.pieces.map_or(super::MAX_PIECES, |p| p as usize))
                .saturating_sub(pieces),
            planned: planned.saturating_sub(pieces).max(1),
            objective,
        }
    }
}
