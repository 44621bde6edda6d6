//! What the search holds for each state of a full beam, by structure and from the game's own
//! types: a game whose state or code is larger than the contest's (on which the search's
//! bytes per state were measured) scales its memory estimate with these.

use crate::candidates::Candidate;
use crate::expand::Node;
use crate::game::Game;
use crate::trail::{TrailEntry, GC_INTERVAL};
use std::mem::size_of;

/// Trail levels a state's entries may take at once: compaction runs every [`GC_INTERVAL`]
/// depths, and keeps the levels of the last interval.
pub(crate) const TRAIL_LEVELS: usize = 2 * GC_INTERVAL;

/// Bytes per state of a full beam in the structures whose size follows the game's types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerState {
    /// A node (the state, its score and its trail index): the beam holds two arrays of them,
    /// the parents and the frontier built from them.
    pub node: u64,
    /// A child kept as a candidate (its key, hash, score, parent and code), both under the
    /// expansion's bound and among the chosen.
    pub(crate) candidate: u64,
    /// A trail entry (the parent and the code), one per state for each of up to
    /// [`TRAIL_LEVELS`] levels.
    pub trail_entry: u64,
}

impl PerState {
    /// The sizes for game `G`.
    pub fn of<G: Game>() -> PerState {
        let bytes = |n: usize| n as u64;
        PerState {
            node: bytes(size_of::<Node<G::State>>()),
            candidate: bytes(size_of::<Candidate<G::Code>>()),
            trail_entry: bytes(size_of::<TrailEntry<G::Code>>()),
        }
    }
}

/// The sizes of the game the search's peak bytes per state were measured on (the contest's:
/// a 40-byte board, a 2-byte code; bench/RESULTS.md, "Memory per state").
pub(crate) const MEASURED_ON: PerState = PerState {
    node: 52,
    candidate: 32,
    trail_entry: 6,
};

/// The peak bytes per state measured there, with its margin: the contest peaks at up to about
/// 690, and the margin covers a game whose trail converges more slowly (NES Tetris: 2,730
/// bytes a state at 50,000 states, against an estimate of 2,888; bench/RESULTS.md).
pub(crate) const MEASURED_BYTES: u64 = 1_000;

/// Candidates per state of the beam at the peak, with a margin: the children kept under the
/// expansion's bound, the copies the selection's boards carry and the chosen ones (the
/// contest: about 2.8, 1.7 and 1 of 32-byte candidates).
pub(crate) const CANDIDATES_PER_STATE: u64 = 8;

impl PerState {
    /// Bytes these structures hold per state of a full beam at the peak.
    pub fn held(&self) -> u64 {
        2 * self.node
            + CANDIDATES_PER_STATE * self.candidate
            + TRAIL_LEVELS as u64 * self.trail_entry
    }

    /// Peak bytes per state of a game with these sizes: the measured figure, and what these
    /// structures hold beyond the measured game's (the rest of the peak, the selection's
    /// tables and the allocator's share, is about the same for any game).
    pub fn estimate(&self) -> u64 {
        MEASURED_BYTES + self.held().saturating_sub(MEASURED_ON.held())
    }
}
