//! Records of the browser game: a `game browser` line, then one line of moves per piece
//! (`L`, `R`, `D`, `U`, each optionally followed by a count 1..=999), ending at its lock.
//!
//! Parsing checks the form of the text; whether each line ends exactly at its piece's lock is
//! the replay's business (it needs the sequence). Both report a [`RecordError`] that names the
//! line, the piece and the token.

use super::rules::Move;
use crate::kit::piece_lines::{line_of_piece, read_pieces, write_pieces, GameProblem, LineProblem};
use crate::kit::text::quote;
use std::fmt;

/// The first line of every record.
pub(crate) const HEADER: &str = "game browser";
/// What the piece that ends the game does, as the messages and the report say it.
pub(crate) const GAME_OVER: &str = "locked in a hidden row";
/// The largest count one token carries.
pub(crate) const MAX_COUNT: u16 = 999;

/// One token: a move and how many times it is played in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    pub mv: Move,
    /// 1..=[`MAX_COUNT`].
    pub count: u16,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 1 {
            write!(f, "{}", self.mv.letter())
        } else {
            write!(f, "{}{}", self.mv.letter(), self.count)
        }
    }
}

/// A whole record: each piece's tokens, and the line of the text each piece's moves are on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub pieces: Vec<Vec<Token>>,
    /// 1-based line of the text per piece (for messages); a record built in memory has the
    /// lines its text would have.
    pub source_lines: Vec<usize>,
}

/// What is wrong with a record: its form, or how its moves play ([`OwnProblem`]).
pub type Problem = LineProblem<OwnProblem>;

/// What is wrong with a record by the browser game's own rules: how a piece's moves play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OwnProblem {
    /// The moves end with the piece still falling.
    NoLock { row: i32, col: i32 },
    /// The piece locked before the line's last move.
    LockedEarly {
        number: usize,
        token: String,
        /// The move of the token at which it locked and the token's count (equal when it
        /// locked at the token's last move).
        at: u16,
        count: u16,
        /// The next token, when the lock was at the last move of its token.
        next: Option<String>,
    },
}

/// A record error of this game.
pub type RecordError = crate::kit::text::RecordError<Problem>;

impl GameProblem for OwnProblem {
    const HEADER: &'static str = HEADER;
    const GAME_OVER: &'static str = GAME_OVER;

    fn describe(&self, who: &str) -> String {
        match self {
            OwnProblem::NoLock { row, col } => format!(
                "{who} does not lock: its moves end with it at row {row}, column {col}"
            ),
            OwnProblem::LockedEarly {
                number,
                token,
                at,
                count,
                next,
            } => match next {
                Some(next) if at == count => format!(
                    "{who} locked at token {number} '{token}'; the line goes on with '{next}'"
                ),
                _ => format!(
                    "{who} locked at token {number} '{token}' (its move {at} of {count}); the line goes on with the rest of it"
                ),
            },
        }
    }
}

impl Record {
    /// Parses a record's text. A byte-order mark at the start is skipped; lines whose first
    /// non-blank character is `#` are comments; trailing whitespace (and `\r`) is ignored.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let (pieces, source_lines) = read_pieces(text, HEADER, parse_line)?;
        Ok(Record {
            pieces,
            source_lines,
        })
    }

    /// A record from each piece's moves, runs of one move merged into tokens of at most
    /// [`MAX_COUNT`].
    pub fn from_moves<'a>(pieces: impl IntoIterator<Item = &'a [Move]>) -> Record {
        let mut record = Record::default();
        for moves in pieces {
            record.push(Record::tokens(moves));
        }
        record
    }

    /// One piece's moves as tokens, runs of one move merged into tokens of at most
    /// [`MAX_COUNT`].
    pub(crate) fn tokens(moves: &[Move]) -> Vec<Token> {
        let mut tokens: Vec<Token> = Vec::new();
        for &mv in moves {
            match tokens.last_mut() {
                Some(last) if last.mv == mv && last.count < MAX_COUNT => last.count += 1,
                _ => tokens.push(Token { mv, count: 1 }),
            }
        }
        tokens
    }

    /// A piece's line of text: its tokens separated by spaces.
    pub(crate) fn line(tokens: &[Token]) -> String {
        let words: Vec<String> = tokens.iter().map(Token::to_string).collect();
        words.join(" ")
    }

    /// Appends a piece's tokens on the line its text would have.
    pub fn push(&mut self, tokens: Vec<Token>) {
        self.source_lines.push(line_of_piece(self.pieces.len()));
        self.pieces.push(tokens);
    }
}

impl fmt::Display for Record {
    /// The record's text: the header, then one line per piece, tokens separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_pieces(
            f,
            HEADER,
            self.pieces.iter().map(|tokens| Record::line(tokens)),
        )
    }
}

/// One piece's line of tokens.
fn parse_line(line: &str) -> Result<Vec<Token>, Problem> {
    (line.split_ascii_whitespace().enumerate())
        .map(|(k, word)| {
            parse_token(word).map_err(|(what, found)| Problem::Token {
                number: k + 1,
                token: quote(word),
                what,
                found,
            })
        })
        .collect()
}

/// A problem with a token, and the character it is about (if one).
type TokenProblem = (&'static str, Option<char>);

fn parse_token(word: &str) -> Result<Token, TokenProblem> {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return Err(("an empty token", None));
    };
    let Some(mv) = Move::from_letter(first) else {
        return Err(("expected L, R, D or U", Some(first)));
    };
    let digits = chars.as_str();
    if digits.is_empty() {
        return Ok(Token { mv, count: 1 });
    }
    if let Some(c) = digits.chars().find(|c| !c.is_ascii_digit()) {
        return Err(("the count must be a decimal number", Some(c)));
    }
    if digits.starts_with('0') {
        return Err(("a count is 1 to 999, written without leading zeros", None));
    }
    match digits.parse::<u16>() {
        Ok(count) if digits.len() <= 3 => Ok(Token { mv, count }),
        _ => Err(("a count is at most 999", None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_print_without_a_count_of_one() {
        let r = Record::parse("game browser\nU R1 R D18\nL3 D19\n").unwrap();
        assert_eq!(r.to_string(), "game browser\nU R R D18\nL3 D19\n");
        assert_eq!(r.source_lines, [2, 3]);
    }
}
