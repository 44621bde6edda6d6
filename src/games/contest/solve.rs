//! From the search's placements to a record the checker accepts, and the self-check that the
//! record scores what the search claims: whole ([`record_from`], [`verify`]), or piece by
//! piece as the search decides them ([`RecordStream`]), so that a record of any length is
//! written without being held.

use crate::games::contest::bitboard::{Board, ContestBoard};
use crate::games::contest::movegen::{path_to, PathError, Placement};
use crate::games::contest::record::{Record, Token};
use crate::games::contest::replay::{replay_observed, End, Replayer, Report};
use crate::games::contest::rules::{Kind, Move, Rules};
use crate::games::contest::search::UnderWay;
use crate::games::contest::stats::Stats;
use crate::kit::text::plural;
use std::fmt::Write as _;
use std::io::Write;
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
    #[error("the rules engine rejects the search's record: {detail}")]
    Rejected { detail: String },
    #[error("cannot write the record: {0}")]
    Write(#[source] std::io::Error),
}

/// The record playing `placements` (one per piece from the first) with shortest move lists;
/// where the rules lock pieces in mid-air, placements may be in mid-air.
pub fn record_for(
    sequence: &[Kind],
    placements: &[Placement],
    rules: Rules,
) -> Result<Record, SolveError> {
    record_from(sequence, &UnderWay::default(), placements, rules)
}

/// The tokens that play `placements` (one per piece from `start`'s piece on) from `start`'s
/// board: what follows the start's own record.
pub fn record_from(
    sequence: &[Kind],
    start: &UnderWay,
    placements: &[Placement],
    rules: Rules,
) -> Result<Record, SolveError> {
    let mut board = start.board;
    let mut pieces: Vec<Vec<Move>> = Vec::with_capacity(placements.len());
    let rest = sequence.iter().enumerate().skip(start.index);
    for ((index, &kind), &p) in rest.zip(placements) {
        let moves = path_to(&board, kind, index, p, rules).map_err(|source| SolveError::Path {
            piece: index + 1,
            source,
        })?;
        pieces.push(moves);
        p.lock(&mut board, kind, index, rules);
    }
    Ok(Record::from_pieces(pieces.iter().map(Vec::as_slice)))
}

/// Why a record cannot be continued from a given piece.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum UnderWayError {
    #[error("the record has only {}, fewer than the {wanted} to keep", plural(*have, "piece"))]
    TooShort { have: usize, wanted: usize },
    #[error("the record does not replay up to piece {wanted}: {detail}")]
    Invalid { wanted: usize, detail: String },
}

/// The first `pieces` pieces of `record`, replayed by `rules`, as the start of a search that plays the rest of the game: the board and score they
/// leave, and their tokens, which the search's own follow.
pub fn start_from(
    sequence: &[Kind],
    record: &Record,
    pieces: usize,
    rules: Rules,
) -> Result<(UnderWay, Record), UnderWayError> {
    if pieces == 0 {
        return Ok((UnderWay::default(), Record::default()));
    }
    let have = record.piece_count();
    if have < pieces {
        return Err(UnderWayError::TooShort {
            have,
            wanted: pieces,
        });
    }
    // The prefix ends with the last token of piece `pieces` (1-based).
    let cut = record.piece_tokens()[pieces - 1].end;
    let prefix = Record {
        tokens: record.tokens[..cut].to_vec(),
    };
    let mut board = Board::default();
    let report = replay_observed(sequence, &prefix, rules, &mut |step| {
        board = Board::from_field(step.board)
    });
    let detail = match (&report.error, report.end) {
        (Some(e), _) => e.to_string(),
        (None, End::RecordEnded) if report.pieces_locked == pieces => {
            let start = UnderWay {
                index: pieces,
                board,
                score: report.score,
            };
            return Ok((start, prefix));
        }
        (None, end) => format!("{} locked, {end}", plural(report.pieces_locked, "piece")),
    };
    Err(UnderWayError::Invalid {
        wanted: pieces,
        detail,
    })
}

/// Replays `record` on the plain rules engine (by `rules`) and fails
/// unless it scores `claimed`; also says where the points come from (as `check --stats`).
pub(crate) fn verify(
    sequence: &[Kind],
    record: &Record,
    claimed: u64,
    rules: Rules,
) -> Result<(Report, Stats), SolveError> {
    let mut stats = Stats::default();
    let report = replay_observed(sequence, record, rules, &mut |step| stats.observe(step));
    // As `check --stats`: the bound of the pieces the record covers.
    let covered = &sequence[..record.piece_count().min(sequence.len())];
    stats.bound(covered, rules.pieces_to_place(covered.len()));
    scores(&report, claimed)?;
    Ok((report, stats))
}

/// Refuses a replay that is invalid or scores other than the search `claimed`.
fn scores(report: &Report, claimed: u64) -> Result<(), SolveError> {
    if report.valid() && report.score == claimed {
        return Ok(());
    }
    let detail = match &report.error {
        Some(e) => e.to_string(),
        None => format!(
            "{} locked, {}",
            plural(report.pieces_locked, "piece"),
            report.end
        ),
    };
    Err(SolveError::ScoreMismatch {
        claimed,
        actual: report.final_score(),
        detail,
    })
}

/// A record streamed as its placements come (a textbook's streaming encoder), in the
/// contest's single-line comma form (as `Record`'s `Display`), each piece's tokens replayed on
/// the plain rules engine before they are written: what [`record_from`] then [`verify`] do,
/// for a record never held whole.
pub(crate) struct RecordStream<'a, W: Write> {
    sequence: &'a [Kind],
    rules: Rules,
    /// The fast board the next piece's moves are found on.
    board: Board,
    /// The next piece's index in the sequence.
    index: usize,
    replayer: Replayer<'a>,
    stats: Stats,
    out: W,
    /// Whether a token was written: every later one follows a comma.
    started: bool,
}

impl<'a, W: Write> RecordStream<'a, W> {
    /// A writer of a record that begins with `kept`, the record of `start` (see
    /// [`start_from`]), which it replays and writes first.
    pub(crate) fn new(
        sequence: &'a [Kind],
        rules: Rules,
        start: &UnderWay,
        kept: &Record,
        out: W,
    ) -> Result<Self, SolveError> {
        let mut writer = RecordStream {
            sequence,
            rules,
            board: start.board,
            index: start.index,
            replayer: Replayer::new(sequence, rules),
            stats: Stats::default(),
            out,
            started: false,
        };
        for span in kept.piece_tokens() {
            writer.piece(&kept.tokens[span])?;
        }
        Ok(writer)
    }

    /// Replays and writes the next pieces, placed at `placements` (one per piece, in order).
    pub(crate) fn placements(&mut self, placements: &[Placement]) -> Result<(), SolveError> {
        for &p in placements {
            let index = self.index;
            let Some(&kind) = self.sequence.get(index) else {
                let detail = format!(
                    "the sequence has only {}",
                    plural(self.sequence.len(), "piece")
                );
                return Err(SolveError::Rejected { detail });
            };
            let moves = path_to(&self.board, kind, index, p, self.rules).map_err(|source| {
                SolveError::Path {
                    piece: index + 1,
                    source,
                }
            })?;
            p.lock(&mut self.board, kind, index, self.rules);
            self.index += 1;
            let record = Record::from_pieces([moves.as_slice()]);
            self.piece(&record.tokens)?;
        }
        Ok(())
    }

    /// Ends the record (its newline) once the replay of all of it scores `claimed`, as
    /// [`verify`] does; says where the points came from.
    pub(crate) fn finish(mut self, claimed: u64) -> Result<(Report, Stats), SolveError> {
        let report = self.replayer.finish();
        scores(&report, claimed)?;
        self.out
            .write_all(b"\n")
            .and_then(|()| self.out.flush())
            .map_err(SolveError::Write)?;
        // As `check --stats`: the bound of the pieces the record covers.
        let covered = &self.sequence[..self.index.min(self.sequence.len())];
        self.stats
            .bound(covered, self.rules.pieces_to_place(covered.len()));
        Ok((report, self.stats))
    }

    /// Replays one piece's tokens (its `N` first), then writes them in one write (so that a
    /// writer that counts writes counts pieces, and never holds part of one).
    fn piece(&mut self, tokens: &[Token]) -> Result<(), SolveError> {
        let stats = &mut self.stats;
        if !self.replayer.piece(tokens, &mut |step| stats.observe(step)) {
            let report = self.replayer.report();
            let detail = match &report.error {
                Some(e) => e.to_string(),
                None => report.end.to_string(),
            };
            return Err(SolveError::Rejected { detail });
        }
        let mut text = String::new();
        for t in tokens {
            let comma = if self.started { "," } else { "" };
            // Writing to a String cannot fail.
            let _ = write!(text, "{comma}{t}");
            self.started = true;
        }
        self.out
            .write_all(text.as_bytes())
            .map_err(SolveError::Write)
    }
}
