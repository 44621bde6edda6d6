//! From the search's placements to a record the checker accepts, and the self-check that the
//! record scores what the search claims.

use crate::bitboard::Board;
use crate::movegen::{path_to, PathError, Placement};
use crate::record::Record;
use crate::replay::{replay_observed, ReplayOptions, Report};
use crate::rules::{Kind, Move};
use crate::stats::Stats;
use thiserror::Error;

/// Why a solution could not be turned into a trustworthy record.
#[derive(Debug, Error)]
pub enum SolveError {
    #[error("piece {piece}: {source}")]
    Path { piece: usize, source: PathError },
    #[error("the search claims {claimed} points but the rules engine scores its record {actual} ({detail})")]
    ScoreMismatch {
        claimed: u64,
        actual: u64,
        detail: String,
    },
}

/// The record playing `placements` (one per piece from the first) with shortest move lists;
/// with `judge`, placements may be in mid-air.
pub fn record_for(
    sequence: &[Kind],
    placements: &[Placement],
    piece_limit: usize,
    judge: bool,
) -> Result<Record, SolveError> {
    let mut board = Board::default();
    let mut pieces: Vec<Vec<Move>> = Vec::with_capacity(placements.len());
    for (index, (&kind, &p)) in sequence.iter().zip(placements).enumerate() {
        let moves = path_to(&board, kind, index, p, judge).map_err(|source| SolveError::Path {
            piece: index + 1,
            source,
        })?;
        pieces.push(moves);
        p.lock(&mut board, kind, index, piece_limit);
    }
    Ok(Record::from_pieces(pieces.iter().map(Vec::as_slice)))
}

/// Replays `record` on the plain rules engine (strict unless `options` say judge) and fails
/// unless it scores `claimed`; also says where the points come from (as `check --stats`).
pub fn verify(
    sequence: &[Kind],
    record: &Record,
    claimed: u64,
    options: ReplayOptions,
) -> Result<(Report, Stats), SolveError> {
    let mut stats = Stats::default();
    let report = replay_observed(sequence, record, options, &mut |step| stats.observe(step));
    if !report.valid() || report.score != claimed {
        let detail = match &report.error {
            Some(e) => e.to_string(),
            None => format!("{} pieces locked, {}", report.pieces_locked, report.end),
        };
        return Err(SolveError::ScoreMismatch {
            claimed,
            actual: report.final_score(),
            detail,
        });
    }
    Ok((report, stats))
}
