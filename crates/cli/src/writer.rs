//! A game's record as `solve` writes it ([`Writer`]): each piece replayed on the game's plain
//! engine before its text goes out, the whole judged at the end ([`Verdict`]), and what the
//! games whose records are a line a piece share ([`LinesOut`], [`end_lines`]).

use super::interrupt::RecordOut;
use super::{stdout_failed, CliError};
use tetris_kit::piece_lines::PieceReplay;
use tetris_kit::scorecard::{ReplayReport, Scorecard};
use tetris_search::Line;

/// A game's record as the search decides it: each piece replayed on the plain engine before
/// its text goes out, and the whole checked against what the search claims at the end.
pub trait Writer {
    /// The search's name of a placement.
    type Code;
    /// Writes the header and the pieces kept from `--from-record`.
    fn start(&mut self, out: &RecordOut) -> Result<(), CliError>;
    /// Replays and writes the next pieces decided, placed at `codes` (one per piece).
    fn pieces(&mut self, codes: &[Self::Code], out: &RecordOut) -> Result<(), CliError>;
    /// The pieces the run is expected to end with, from the game's own counts of what the
    /// pieces written so far left (`None`: the plan's total stands).
    fn expected_pieces(&self) -> Option<u64> {
        None
    }
    /// Replays and writes the line's last pieces, ends the record, and checks that the plain
    /// engine scores all of it as the search claims (`line.score`).
    fn finish(self, line: &Line<Self::Code>, out: &RecordOut) -> Result<Verdict, CliError>;
}

/// What the plain engine says of a finished record.
pub struct Verdict {
    /// The game's lines of the summary, the last `Score = N`.
    pub summary: String,
    /// What the replay found, in the terms every game shares.
    pub scorecard: Scorecard,
    /// The game's own fields of `--json`, written under its name (an object).
    pub own: serde_json::Value,
}

impl Verdict {
    /// The verdict of a record the plain engine replayed to the score the search claims, as
    /// its replay reports it.
    pub fn same_score(report: &impl ReplayReport) -> Verdict {
        Verdict {
            summary: format!(
                "checked by the rules engine: record valid, same score\n{}",
                report.summary()
            ),
            scorecard: report.scorecard(),
            own: report.own(),
        }
    }
}

/// Ends a record whose pieces each end their own line (every game's but the contest's).
pub fn end_lines(out: &RecordOut) -> Result<(), CliError> {
    out.end("").map_err(|e| stdout_failed(e, "the record"))
}

/// A record of a header line, then a line a piece (the browser game's, the olympiad's), as
/// its writer writes it: each piece replayed, given its line's number, before its line goes
/// out.
#[derive(Default)]
pub struct LinesOut {
    /// Lines written, the header's included.
    lines: usize,
}

impl LinesOut {
    /// Writes the header line.
    pub fn header(&mut self, out: &RecordOut, header: &str) -> Result<(), CliError> {
        self.lines += 1;
        (out.header(&format!("{header}\n"))).map_err(|e| stdout_failed(e, "the record"))
    }

    /// Replays the next piece with `replay` (given its line's number) and writes `line`.
    pub(crate) fn piece<E: std::fmt::Display>(
        &mut self,
        out: &RecordOut,
        replay: impl FnOnce(usize) -> Result<(), E>,
        line: impl std::fmt::Display,
    ) -> Result<(), CliError> {
        self.lines += 1;
        replay(self.lines)
            .map_err(|e| CliError::internal(format!("the solver's record does not replay: {e}")))?;
        (out.piece(format_args!("{line}\n"))).map_err(|e| stdout_failed(e, "the record"))
    }

    /// Replays each of `entries` on `replay` and writes its line, as `line` writes it.
    pub fn pieces<R: PieceReplay, L: std::fmt::Display>(
        &mut self,
        out: &RecordOut,
        replay: &mut R,
        entries: &[R::Entry],
        line: impl Fn(&R::Entry) -> L,
    ) -> Result<(), CliError> {
        for entry in entries {
            let played = |number| replay.play_entry(entry, number).map(|_| ());
            self.piece(out, played, line(entry))?;
        }
        Ok(())
    }
}
