//! A replay's report as `check` and `solve` give it for the contest's game: in the terms every
//! game shares (the score, the pieces, the lines and how the game ended), and the contest's
//! own fields of `--json`, with `check --stats`'s breakdown where asked for.

use super::replay::{End, Report};
use super::rules::{GameOver, Rules};
use super::stats::Stats;
use crate::kit::scorecard::{self, Reason, Scorecard};

impl Report {
    /// What the replay of a record on a sequence of `pieces` pieces by `rules` found, in the
    /// terms every game shares.
    pub fn scorecard(&self, pieces: usize, rules: Rules) -> Scorecard {
        if !self.valid() {
            return Scorecard::invalid();
        }
        Scorecard {
            score: self.score,
            pieces_placed: self.pieces_locked as u64,
            lines: self.lines,
            end: self.shared_end(pieces, rules),
        }
    }

    /// How the game ended, in the terms every game shares: where the record ran out, whether
    /// the sequence did too, or the piece limit's last piece (which scores nothing) was next.
    fn shared_end(&self, pieces: usize, rules: Rules) -> scorecard::End {
        let locked = self.pieces_locked;
        match self.end {
            End::RecordEnded if locked >= pieces => {
                scorecard::End::ran_out(Reason::SequenceEnded, "every piece of the sequence locked")
            }
            End::RecordEnded if rules.is_last_piece(locked) => scorecard::End::ran_out(
                Reason::RecordEnded,
                "the record ended before the piece limit's last piece, which would score nothing",
            ),
            End::RecordEnded => {
                scorecard::End::ran_out(Reason::RecordEnded, "the record ended before the sequence")
            }
            End::GameOver { piece, reason } => {
                let why = match reason {
                    GameOver::PieceLimit => Reason::PieceLimit,
                    GameOver::SpawnBlocked | GameOver::TopOut => Reason::ToppedOut,
                };
                scorecard::End::game_over(why, piece as u64, reason.describe())
            }
            End::Invalid => scorecard::End::invalid(),
        }
    }

    /// The contest's own fields of `--json`: the clears by size, and `check --stats`'s
    /// breakdown where there is one.
    pub(crate) fn own(&self, stats: Option<&Stats>) -> serde_json::Value {
        let mut own = serde_json::json!({ "clears": self.clears });
        if let Some(stats) = stats {
            own["stats"] = serde_json::json!(stats);
        }
        own
    }
}
