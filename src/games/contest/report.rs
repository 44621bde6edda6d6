//! What `check --json` prints for the contest's game: the report of a replay in a stable
//! machine-readable form, with `check --stats`'s breakdown where asked for.

use super::replay::Report;
use super::stats::Stats;
use serde::Serialize;

/// The machine-readable report printed by `check --json`.
#[derive(Clone, Debug, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct JsonReport {
    pub score: u64,
    pub pieces_locked: usize,
    pub lines: u64,
    pub clears: [u64; 4],
    pub end: String,
    pub valid: bool,
    pub error: Option<String>,
    /// `check --stats`: where the points come from (absent without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
}

impl Report {
    /// The `--json` form of the report.
    pub fn to_json(&self) -> JsonReport {
        JsonReport {
            score: self.final_score(),
            pieces_locked: self.pieces_locked,
            lines: self.lines,
            clears: self.clears,
            end: self.end.to_string(),
            valid: self.valid(),
            error: self.error.as_ref().map(|e| e.to_string()),
            stats: None,
        }
    }
}
