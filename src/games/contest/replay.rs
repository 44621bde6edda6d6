//! The replay checker: plays a record on the plain rules engine and reports what it scored.
//!
//! Strict mode (the default) holds a record to the game as a player could play it: every piece
//! locks at rest, nothing follows the end of the game. Judge mode reproduces the contest's web
//! replay, which locks a piece wherever its moves leave it and ignores whatever follows the end.
//! Token form and move counts are checked in both.

use crate::games::contest::record::{Record, RecordError, Token};
use crate::games::contest::rules::{
    self, Field, GameOver, Kind, Piece, Rules, Turn, MAX_MOVES_PER_PIECE,
};
use crate::kit::text::plural;
use std::fmt;

/// How a replay ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The record ran out of tokens while the game was still on.
    RecordEnded,
    /// The game ended at `piece` (1-based) for `reason`.
    GameOver { piece: usize, reason: GameOver },
    /// The record was rejected; see the report's error.
    Invalid,
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            End::RecordEnded => write!(f, "record ended"),
            End::GameOver { piece, reason } => {
                write!(f, "game over at piece {piece}: {}", reason.describe())
            }
            End::Invalid => write!(f, "invalid record"),
        }
    }
}

/// Why a record was rejected. Every such error reads in one form, the piece (1-based) and the
/// token (1-based, quoted) it concerns, then what is wrong:
///
/// ```text
/// piece 120 (token 428 'D1'): T locked in mid-air at x=4 y=1 state 3
/// piece 2 (token 5 'X3'): expected N, L, R, D or C, found 'X'
/// piece 1 (token 1 'C1'): the record must start with N
/// ```
///
/// A token that does not parse belongs to the piece of the last `N` before it (piece 1 before
/// any `N`). The one error with no token to name is an empty record: `piece 1: the record is
/// empty`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub piece: usize,
    /// The token's position and text; `None` only for an empty record.
    pub token: Option<(usize, String)>,
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "piece {}", self.piece)?;
        if let Some((n, t)) = &self.token {
            write!(f, " (token {n} '{t}')")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl From<RecordError> for ReplayError {
    fn from(e: RecordError) -> Self {
        ReplayError {
            piece: e.piece(),
            token: e.token(),
            message: e.message(),
        }
    }
}

/// What a replay found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Points scored (the true sum even when the record is invalid; see [`Report::final_score`]).
    pub score: u64,
    pub pieces_locked: usize,
    pub lines: u64,
    /// Number of 1-, 2-, 3- and 4-line clears.
    pub clears: [u64; 4],
    pub end: End,
    pub error: Option<ReplayError>,
}

impl Report {
    pub fn valid(&self) -> bool {
        self.error.is_none()
    }

    /// The score a judge gives: 0 for an invalid record.
    pub fn final_score(&self) -> u64 {
        if self.valid() {
            self.score
        } else {
            0
        }
    }
}

/// One locked piece, as shown to an observer of the replay.
pub struct Step<'a> {
    /// 0-based piece number.
    pub index: usize,
    /// The piece where it locked.
    pub piece: Piece,
    /// Whether it locked at rest (false: in mid-air, which only judge mode accepts).
    pub(crate) resting: bool,
    /// This piece's tokens, without its `N`.
    pub(crate) moves: &'a [Token],
    pub turn: Turn,
    /// The board with the piece written, before full rows are removed.
    pub written: &'a Field,
    /// The board after the turn (rows cleared).
    pub board: &'a Field,
    /// Totals after the turn.
    pub score: u64,
    pub lines: u64,
}

/// Replays `record` on `sequence`.
pub fn replay(sequence: &[Kind], record: &Record, rules: Rules) -> Report {
    replay_observed(sequence, record, rules, &mut |_| {})
}

/// Replays `record`, calling `observe` after every locked piece.
pub fn replay_observed(
    sequence: &[Kind],
    record: &Record,
    rules: Rules,
    observe: &mut dyn FnMut(&Step),
) -> Report {
    let mut replayer = Replayer::new(sequence, rules);
    if let Err(error) = first_token(record) {
        replayer.report.fail(error);
        return replayer.finish();
    }
    for span in record.piece_tokens() {
        if !replayer.piece(&record.tokens[span], observe) {
            break;
        }
    }
    replayer.finish()
}

/// A record starts with `N`, and is not empty.
fn first_token(record: &Record) -> Result<(), ReplayError> {
    match record.tokens.first() {
        Some(Token::Next) => Ok(()),
        Some(t) => Err(ReplayError {
            piece: 1,
            token: Some((1, t.to_string())),
            message: "the record must start with N".to_string(),
        }),
        None => Err(RecordError::Empty.into()),
    }
}

/// A replay fed one piece at a time, for a record checked as it is written (`solve` replays
/// each piece before it prints it); [`replay_observed`] feeds it a whole record.
pub(crate) struct Replayer<'a> {
    sequence: &'a [Kind],
    rules: Rules,
    board: Field,
    report: Report,
    /// Pieces fed so far.
    pieces: usize,
    /// Tokens fed so far: where the next piece's stand in the record, for its errors.
    tokens: usize,
    /// An error, or the end of the game under judge rules, stopped the replay.
    stopped: bool,
}

impl<'a> Replayer<'a> {
    pub(crate) fn new(sequence: &'a [Kind], rules: Rules) -> Replayer<'a> {
        Replayer {
            sequence,
            rules,
            board: Field::new(),
            report: Report {
                score: 0,
                pieces_locked: 0,
                lines: 0,
                clears: [0; 4],
                end: End::RecordEnded,
                error: None,
            },
            pieces: 0,
            tokens: 0,
            stopped: false,
        }
    }

    /// Plays the next piece, whose tokens are `tokens` (its `N` first), calling `observe`
    /// once it locks. False once the replay has stopped (the report says why); nothing fed
    /// after that counts.
    pub(crate) fn piece(&mut self, tokens: &[Token], observe: &mut dyn FnMut(&Step)) -> bool {
        if self.stopped {
            return false;
        }
        debug_assert_eq!(tokens.first(), Some(&Token::Next));
        let index = self.pieces;
        let outcome = self.play(index, tokens, observe);
        self.pieces += 1;
        self.tokens += tokens.len();
        if let Err(stop) = outcome {
            if let Some(error) = stop {
                self.report.fail(error);
            }
            self.stopped = true;
        }
        !self.stopped
    }

    /// What the replay found so far.
    pub(crate) fn report(&self) -> &Report {
        &self.report
    }

    /// What the replay found; a replay fed no piece is of an empty record.
    pub(crate) fn finish(mut self) -> Report {
        if self.pieces == 0 && self.report.error.is_none() {
            self.report.fail(RecordError::Empty.into());
        }
        self.report
    }

    /// The error of piece `number` (from 1) at its token `token` (from 0, its `N`).
    fn error(&self, number: usize, tokens: &[Token], token: usize, message: String) -> ReplayError {
        ReplayError {
            piece: number,
            token: Some((self.tokens + token + 1, tokens[token].to_string())),
            message,
        }
    }

    /// Plays piece number `index` (from 0), whose tokens are `tokens` (its `N` first). Stops
    /// the replay with an error, or (`Err(None)`) where the end of the game under judge rules
    /// ends it.
    fn play(
        &mut self,
        index: usize,
        tokens: &[Token],
        observe: &mut dyn FnMut(&Step),
    ) -> Result<(), Option<ReplayError>> {
        let (number, rules) = (index + 1, self.rules);
        if let End::GameOver { piece, reason } = self.report.end {
            if rules.locks_in_mid_air() {
                return Err(None);
            }
            let message = format!(
                "moves after the game ended (piece {piece} ended it: {})",
                reason.describe()
            );
            return Err(Some(self.error(number, tokens, 0, message)));
        }
        let moves = &tokens[1..];
        if let Some(message) = move_count_error(moves) {
            return Err(Some(self.error(number, tokens, 0, message)));
        }
        let Some(&kind) = self.sequence.get(index) else {
            let message = format!(
                "the sequence has only {}",
                plural(self.sequence.len(), "piece")
            );
            return Err(Some(self.error(number, tokens, 0, message)));
        };
        let spawned = Piece::spawn(kind, index);
        if !self.board.is_valid(&spawned) {
            self.report.end = End::GameOver {
                piece: number,
                reason: GameOver::SpawnBlocked,
            };
            if rules.locks_in_mid_air() {
                return Err(None);
            }
            let message = format!(
                "moves after the game ended (piece {number} ended it: {})",
                GameOver::SpawnBlocked.describe()
            );
            return Err(Some(self.error(number, tokens, 1, message)));
        }
        let piece = play(&self.board, spawned, moves);
        let resting = rules::is_resting(&self.board, &piece);
        if !rules.locks_in_mid_air() && !resting {
            let message = format!(
                "{kind} locked in mid-air at x={} y={} state {}",
                piece.x, piece.y, piece.state
            );
            return Err(Some(self.error(number, tokens, tokens.len() - 1, message)));
        }
        let mut written = self.board.clone();
        written.write(&piece);
        let turn = rules::lock(&mut self.board, &piece, index, rules);
        self.report.add(number, &turn);
        observe(&Step {
            index,
            piece,
            resting,
            moves,
            turn,
            written: &written,
            board: &self.board,
            score: self.report.score,
            lines: self.report.lines,
        });
        Ok(())
    }
}

/// Why a piece's moves are not a piece's: none, or more than a piece may make.
fn move_count_error(moves: &[Token]) -> Option<String> {
    let total: u64 = moves
        .iter()
        .map(|t| match t {
            Token::Moves(_, k) => *k as u64,
            Token::Next => 0,
        })
        .sum();
    if total == 0 {
        Some("a piece with no moves (each piece needs 1..=100)".to_string())
    } else if total > MAX_MOVES_PER_PIECE as u64 {
        Some(format!("{total} moves (each piece needs 1..=100)"))
    } else {
        None
    }
}

/// `piece` after its moves on `board`: a move the board refuses does nothing.
fn play(board: &Field, mut piece: Piece, moves: &[Token]) -> Piece {
    for token in moves {
        if let Token::Moves(mv, k) = *token {
            for _ in 0..k {
                let next = piece.moved(mv);
                if board.is_valid(&next) {
                    piece = next;
                }
            }
        }
    }
    piece
}

impl Report {
    /// Ends the replay with `error`.
    fn fail(&mut self, error: ReplayError) {
        self.error = Some(error);
        self.end = End::Invalid;
    }

    /// Counts piece number `number`'s lock.
    fn add(&mut self, number: usize, turn: &Turn) {
        self.pieces_locked += 1;
        self.score += turn.score;
        self.lines += turn.lines as u64;
        if turn.lines > 0 {
            self.clears[turn.lines as usize - 1] += 1;
        }
        if let Some(reason) = turn.game_over {
            self.end = End::GameOver {
                piece: number,
                reason,
            };
        }
    }
}
