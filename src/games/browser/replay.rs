//! Replaying a browser-game record on the plain engine: what `check --game browser` reports,
//! and each locked piece for an observer (a trace, a test).

use super::record::{OwnProblem, Problem, Record, RecordError, Token, GAME_OVER};
use super::rules::{Kind, Lock, Outcome, Piece, Round};
use crate::kit::piece_lines::{source_line, EndWords, PieceReplay, Turns};
use crate::kit::scorecard::{ReplayReport, Scorecard};
use serde::{Deserialize, Serialize};

/// How a replay ended (the piece that ends the game locks with a cell in a hidden row; it is not placed).
pub use crate::kit::piece_lines::End;

/// How the browser game's replays end, in its words.
pub(crate) const END_WORDS: EndWords = EndWords {
    sequence_ended: "every piece of the sequence locked",
    game_over: GAME_OVER,
};

/// What a valid record scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Pieces whose cells settled (a piece that ends the game does not count).
    pub pieces_placed: usize,
    pub lines: u64,
    /// Locks that cleared 1, 2, 3 and 4 lines.
    pub clears: [u64; 4],
    pub points: u64,
    pub level: u64,
    pub end: End,
    /// The settled cells at the end.
    pub game: Round,
}

/// One locked piece, as an observer of the replay sees it.
pub(crate) struct Step<'a> {
    /// The piece where it locked.
    pub piece: Piece,
    pub(crate) tokens: &'a [Token],
    pub(crate) lock: Lock,
    /// The game after the lock (field, points, lines).
    pub(crate) game: &'a Round,
}

/// Replays `record` on `sequence`.
pub fn replay(sequence: &[Kind], record: &Record) -> Result<Report, RecordError> {
    replay_observed(sequence, record, |_| {})
}

/// Parses and replays a record's text; every error names the piece's kind.
pub fn check_text(sequence: &[Kind], text: &str) -> Result<Report, RecordError> {
    let record = Record::parse(text).map_err(|e| e.naming_kind(sequence))?;
    replay(sequence, &record)
}

/// [`replay`], calling `observe` after each lock.
pub(crate) fn replay_observed(
    sequence: &[Kind],
    record: &Record,
    mut observe: impl FnMut(&Step),
) -> Result<Report, RecordError> {
    let mut replayer = Replayer::new(sequence);
    for (index, tokens) in record.pieces.iter().enumerate() {
        let line = source_line(&record.source_lines, index);
        let (piece, lock) = replayer.piece(tokens, line)?;
        observe(&Step {
            piece,
            tokens,
            lock,
            game: &replayer.game,
        });
    }
    Ok(replayer.finish())
}

/// A replay under way, one piece's line at a time (`solve` checks each piece before it writes
/// it).
pub(crate) struct Replayer<'a> {
    turns: Turns<'a>,
    game: Round,
    clears: [u64; 4],
}

impl<'a> Replayer<'a> {
    pub(crate) fn new(sequence: &'a [Kind]) -> Replayer<'a> {
        Replayer {
            turns: Turns::new(sequence),
            game: Round::new(),
            clears: [0; 4],
        }
    }

    /// Plays the next piece's `tokens` (on line `line` of the record, for messages).
    pub(crate) fn piece(
        &mut self,
        tokens: &[Token],
        line: usize,
    ) -> Result<(Piece, Lock), RecordError> {
        let kind = self.turns.next(line)?;
        let (piece, lock) = play_line(&mut self.game, kind, tokens)
            .map_err(|problem| self.turns.error(line, problem))?;
        self.turns.played(lock.game_over);
        if !lock.game_over && lock.lines > 0 {
            self.clears[lock.lines as usize - 1] += 1;
        }
        Ok((piece, lock))
    }

    /// The game as the pieces played left it.
    pub(crate) fn game(&self) -> &Round {
        &self.game
    }

    /// The report of the pieces played.
    pub(crate) fn finish(self) -> Report {
        let end = self.turns.end();
        Report {
            pieces_placed: self.turns.placed(),
            lines: self.game.lines,
            clears: self.clears,
            points: self.game.points,
            level: self.game.level(),
            end,
            game: self.game,
        }
    }
}

impl PieceReplay for Replayer<'_> {
    type Entry = Vec<Token>;
    type Problem = Problem;

    fn play_entry(&mut self, tokens: &Vec<Token>, line: usize) -> Result<bool, RecordError> {
        Ok(self.piece(tokens, line)?.1.game_over)
    }
}

/// Plays one piece's line: it must end exactly at the piece's lock.
fn play_line(game: &mut Round, kind: Kind, tokens: &[Token]) -> Result<(Piece, Lock), Problem> {
    let mut piece = Piece::spawn(kind);
    for (k, token) in tokens.iter().enumerate() {
        for at in 1..=token.count {
            let Outcome::Locked(lock) = game.play(&mut piece, token.mv) else {
                continue;
            };
            let next = tokens.get(k + 1);
            if at < token.count || next.is_some() {
                return Err(Problem::Game(OwnProblem::LockedEarly {
                    number: k + 1,
                    token: token.to_string(),
                    at,
                    count: token.count,
                    next: next.map(Token::to_string),
                }));
            }
            return Ok((piece, lock));
        }
    }
    Err(Problem::Game(OwnProblem::NoLock {
        row: piece.row,
        col: piece.col,
    }))
}

impl ReplayReport for Report {
    /// What the replay found, in the terms every game shares: the score is the points.
    fn scorecard(&self) -> Scorecard {
        Scorecard {
            score: self.points,
            pieces_placed: self.pieces_placed as u64,
            lines: self.lines,
            end: self.end.shared(&END_WORDS),
        }
    }

    /// The browser game's own fields of `--json`: its clears and level ([`Own`]).
    fn own(&self) -> serde_json::Value {
        serde_json::json!(Own {
            clears: self.clears,
            level: self.level,
        })
    }

    /// The summary `check --game browser` and `solve --game browser` print, ending in
    /// `Score = N`.
    fn summary(&self) -> String {
        let [c1, c2, c3, c4] = self.clears;
        format!(
            "pieces placed: {}\nlines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4})\n\
             level: {}\nend: {}\nScore = {}\n",
            self.pieces_placed,
            self.lines,
            self.level,
            self.end.shared(&END_WORDS).text,
            self.points
        )
    }
}

/// The browser game's own fields of its `--json` report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Own {
    /// Locks that cleared 1, 2, 3 and 4 lines.
    pub(crate) clears: [u64; 4],
    pub(crate) level: u64,
}
