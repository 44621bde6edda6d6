//! Move records: parsing and printing the contest's token list (`N`, `Lk`, `Rk`, `Dk`, `Ck`).
//!
//! Parsing only checks the form of each token; whether the moves make sense for the game (the
//! record starts with `N`, 1..=100 moves per piece, locks at rest) is the replay's business, so
//! that its errors can name the piece.

use crate::rules::Move;
use std::fmt;
use thiserror::Error;

/// One token of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// Spawn the next piece.
    Next,
    /// A move repeated `count` times (`count >= 1` in a well-formed record).
    Moves(Move, u32),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Next => write!(f, "N"),
            Token::Moves(m, k) => write!(f, "{}{}", m.letter(), k),
        }
    }
}

/// A whole record: a flat list of tokens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub tokens: Vec<Token>,
}

/// A token that is not of the record's form.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    #[error("token {number} '{token}': {problem}")]
    BadToken {
        /// 1-based position of the token in the record.
        number: usize,
        token: String,
        problem: &'static str,
    },
    #[error("the record is empty")]
    Empty,
}

impl Record {
    /// Parses tokens separated by commas and/or whitespace (one piece per line is fine).
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut tokens = Vec::new();
        let words = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty());
        for (i, word) in words.enumerate() {
            tokens.push(parse_token(word).map_err(|problem| RecordError::BadToken {
                number: i + 1,
                token: shorten(word),
                problem,
            })?);
        }
        if tokens.is_empty() {
            return Err(RecordError::Empty);
        }
        Ok(Record { tokens })
    }

    /// Builds a record from one move list per piece, merging runs of the same move.
    pub fn from_pieces<'a>(pieces: impl IntoIterator<Item = &'a [Move]>) -> Record {
        let mut tokens = Vec::new();
        for moves in pieces {
            tokens.push(Token::Next);
            for &m in moves {
                match tokens.last_mut() {
                    Some(Token::Moves(last, k)) if *last == m => *k += 1,
                    _ => tokens.push(Token::Moves(m, 1)),
                }
            }
        }
        Record { tokens }
    }

    /// Number of `N` tokens.
    pub fn piece_count(&self) -> usize {
        self.tokens.iter().filter(|t| **t == Token::Next).count()
    }

    /// Each piece's tokens as a range of `tokens`: from its `N` to the next piece's `N` (or the
    /// end). Tokens before the first `N` belong to no piece. The one place a record is split
    /// into pieces: the replay, the viewer, `solve --from-record`, merge and polish all use it.
    pub fn piece_tokens(&self) -> Vec<std::ops::Range<usize>> {
        let starts: Vec<usize> = (self.tokens.iter().enumerate())
            .filter(|&(_, &t)| t == Token::Next)
            .map(|(i, _)| i)
            .collect();
        let ends = starts.iter().skip(1).copied().chain([self.tokens.len()]);
        starts.iter().zip(ends).map(|(&s, e)| s..e).collect()
    }
}

impl fmt::Display for Record {
    /// The contest's single-line comma form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.tokens.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

fn parse_token(word: &str) -> Result<Token, &'static str> {
    let mut chars = word.chars();
    let first = chars.next().expect("split never yields empty words");
    let count = chars.as_str();
    if first == 'N' {
        return if count.is_empty() {
            Ok(Token::Next)
        } else {
            Err("N never carries a count")
        };
    }
    let Some(mv) = Move::from_letter(first) else {
        return Err("expected N, L, R, D or C");
    };
    if count.is_empty() {
        return Err("a move needs a count");
    }
    if !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err("the count must be a decimal number");
    }
    // Anything over u32 is far past the 100-move limit; report it as too large rather than
    // letting it wrap.
    let k: u32 = count.parse().map_err(|_| "the count is too large")?;
    if k == 0 {
        return Err("a count must be at least 1");
    }
    Ok(Token::Moves(mv, k))
}

/// Error messages quote the token; garbage can be long, so keep the quote to one short line.
fn shorten(word: &str) -> String {
    let printable: String = word
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if printable.chars().count() > 24 {
        let head: String = printable.chars().take(24).collect();
        format!("{head}...")
    } else {
        printable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_layouts() {
        let a = Record::parse("N,C1,L1,D18,N,R1,D19").unwrap();
        let b = Record::parse("N C1 L1 D18\nN R1, D19\n").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "N,C1,L1,D18,N,R1,D19");
        assert_eq!(a.piece_count(), 2);
    }

    #[test]
    fn rejects_malformed_tokens() {
        let problem = |text: &str| match Record::parse(text) {
            Err(RecordError::BadToken {
                number, problem, ..
            }) => (number, problem),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(problem("N,D1,X3").0, 3);
        assert_eq!(problem("N,D").1, "a move needs a count");
        assert_eq!(problem("N,D0").1, "a count must be at least 1");
        assert_eq!(problem("N2,D1").1, "N never carries a count");
        assert_eq!(problem("N,D1x").1, "the count must be a decimal number");
        assert_eq!(problem("N,D99999999999").1, "the count is too large");
        assert_eq!(problem("N,d1").1, "expected N, L, R, D or C");
        assert_eq!(Record::parse(" \n,"), Err(RecordError::Empty));
    }

    #[test]
    fn piece_tokens_splits_at_each_n() {
        let record = Record::parse("D1,N,C1,L1,D18,N,N,D1").unwrap();
        assert_eq!(record.piece_tokens(), [1..5, 5..6, 6..8]);
        assert_eq!(Record::parse("D1").unwrap().piece_tokens(), []);
        assert_eq!(Record::default().piece_tokens(), []);
    }

    #[test]
    fn from_pieces_merges_runs() {
        use Move::*;
        let r = Record::from_pieces([&[Rotate, Left, Left, Down][..], &[Down][..]]);
        assert_eq!(r.to_string(), "N,C1,L2,D1,N,D1");
    }
}
