//! What a replay found, in the terms every game shares: the score, the pieces placed, the lines
//! and how the game ended. Each game's replay gives its report in these terms; `check` and
//! `solve` write them as the fields every game's `--json` has (docs/JSON.md) and as the
//! summary's `end:` line.

use serde::{Deserialize, Serialize};

/// Why a game ended, one word for each way in every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Every piece of the sequence was played.
    SequenceEnded,
    /// The record ran out with the game still going.
    RecordEnded,
    /// A piece had no room: it spawned into the stack, or came to rest out of the field.
    ToppedOut,
    /// The last piece the piece limit allows ended the game (the contest's rules).
    PieceLimit,
    /// A lock that may crash the game's hardware ended it (NES).
    Crashed,
    /// The record is invalid: nothing it did counts.
    Invalid,
}

/// How a game ended: the reason, the piece that ended it, and the same in a sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    pub reason: Reason,
    /// The piece (from 1) that ended the game; none where the record or the sequence ran out,
    /// or the record is invalid.
    pub(crate) piece: Option<u64>,
    /// The end as the summary's `end:` line says it, in the game's words.
    pub text: String,
}

impl End {
    /// An end no piece caused (the record or the sequence ran out), said as `text`.
    pub fn ran_out(reason: Reason, text: impl Into<String>) -> End {
        End {
            reason,
            piece: None,
            text: text.into(),
        }
    }

    /// The game ended by piece `piece` (from 1), for `why` (`it spawned into the stack`).
    pub fn game_over(reason: Reason, piece: u64, why: &str) -> End {
        End {
            reason,
            piece: Some(piece),
            text: format!("game over at piece {piece}: {why}"),
        }
    }

    /// The end of an invalid record.
    pub fn invalid() -> End {
        End::ran_out(Reason::Invalid, "invalid record")
    }
}

/// What a replay found, as every game reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scorecard {
    /// The score `Score = N` gives (0 for an invalid record).
    pub score: u64,
    /// The pieces placed, as the game's rules count them.
    pub pieces_placed: u64,
    /// Rows cleared.
    pub lines: u64,
    pub end: End,
}

impl Scorecard {
    /// An invalid record's: nothing scored, nothing placed.
    pub fn invalid() -> Scorecard {
        Scorecard {
            score: 0,
            pieces_placed: 0,
            lines: 0,
            end: End::invalid(),
        }
    }
}

/// A replay's report as `check` and `solve` give it: the terms every game shares, the game's
/// own fields and its summary.
pub trait ReplayReport {
    /// What the replay found, in the terms every game shares.
    fn scorecard(&self) -> Scorecard;
    /// The game's own fields of `--json`: an object.
    fn own(&self) -> serde_json::Value;
    /// The summary `check` and `solve` print, its last line `Score = N`.
    fn summary(&self) -> String;
}
