//! Move records: parsing and printing the contest's token list (`N`, `Lk`, `Rk`, `Dk`, `Ck`).
//!
//! Parsing only checks the form of each token; whether the moves make sense for the game (the
//! record starts with `N`, 1..=100 moves per piece, locks at rest) is the replay's business, so
//! that its errors can name the piece.

use crate::games::contest::rules::Move;
use crate::kit::text::{describe_char, quote, strip_byte_order_mark};
use std::fmt;

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

/// A record that is not of the record's form. Its message has the replay's form
/// (`piece N (token T 'X'): message`, see [`crate::games::contest::replay::ReplayError`]): a bad token's piece
/// is the one it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    BadToken {
        /// 1-based number of the piece the token belongs to: the `N` tokens up to it (a
        /// malformed `N` such as `N2` starts its piece too; tokens before the first `N` count
        /// with piece 1, where the record must start).
        piece: usize,
        /// 1-based position of the token in the record.
        number: usize,
        /// The token as quoted in messages: shortened, invisible characters as code points.
        token: String,
        problem: &'static str,
        /// The character the problem is about, where it is about one.
        found: Option<char>,
    },
    Empty,
}

impl RecordError {
    /// The 1-based piece the error is about.
    pub(crate) fn piece(&self) -> usize {
        match self {
            RecordError::BadToken { piece, .. } => *piece,
            RecordError::Empty => 1,
        }
    }

    /// The token it is about (1-based position and quote); none for an empty record.
    pub(crate) fn token(&self) -> Option<(usize, String)> {
        match self {
            RecordError::BadToken { number, token, .. } => Some((*number, token.clone())),
            RecordError::Empty => None,
        }
    }

    /// What is wrong, without where.
    pub fn message(&self) -> String {
        match self {
            RecordError::BadToken {
                problem,
                found: Some(c),
                ..
            } => format!("{problem}, found {}", describe_char(*c)),
            RecordError::BadToken { problem, .. } => problem.to_string(),
            RecordError::Empty => "the record is empty".to_string(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "piece {}", self.piece())?;
        if let Some((number, token)) = self.token() {
            write!(f, " (token {number} '{token}')")?;
        }
        write!(f, ": {}", self.message())
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// Parses tokens separated by commas and/or whitespace (one piece per line is fine); a
    /// byte-order mark at the start is skipped.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let text = strip_byte_order_mark(text);
        let mut tokens = Vec::new();
        let words = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty());
        let mut pieces = 0;
        for (i, word) in words.enumerate() {
            pieces += usize::from(word.starts_with('N'));
            let token = parse_token(word).map_err(|(problem, found)| RecordError::BadToken {
                piece: pieces.max(1),
                number: i + 1,
                token: quote(word),
                problem,
                found,
            })?;
            tokens.push(token);
        }
        if tokens.is_empty() {
            return Err(RecordError::Empty);
        }
        Ok(Record { tokens })
    }

    /// Builds a record from one move list per piece, merging runs of the same move.
    pub(crate) fn from_pieces<'a>(pieces: impl IntoIterator<Item = &'a [Move]>) -> Record {
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

/// A problem with a token, and the character it is about (if one).
type TokenProblem = (&'static str, Option<char>);

fn parse_token(word: &str) -> Result<Token, TokenProblem> {
    let mut chars = word.chars();
    let first = chars.next().expect("split never yields empty words");
    let count = chars.as_str();
    if first == 'N' {
        return if count.is_empty() {
            Ok(Token::Next)
        } else {
            Err(("N never carries a count", None))
        };
    }
    let Some(mv) = Move::from_letter(first) else {
        return Err(("expected N, L, R, D or C", Some(first)));
    };
    if count.is_empty() {
        return Err(("a move needs a count", None));
    }
    if let Some(c) = count.chars().find(|c| !c.is_ascii_digit()) {
        return Err(("the count must be a decimal number", Some(c)));
    }
    // Anything over u32 is far past the 100-move limit; report it as too large rather than
    // letting it wrap.
    let k: u32 = count
        .parse()
        .map_err(|_| ("the count is too large", None))?;
    if k == 0 {
        return Err(("a count must be at least 1", None));
    }
    Ok(Token::Moves(mv, k))
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
    fn a_bad_token_is_placed_in_its_piece() {
        let message = |text: &str| Record::parse(text).unwrap_err().to_string();
        assert_eq!(
            message("N,D1,N,R1,X3"),
            "piece 2 (token 5 'X3'): expected N, L, R, D or C, found 'X'"
        );
        // A malformed N starts its piece; tokens before the first N count with piece 1.
        assert!(message("N,D19,N2,D19").starts_with("piece 2 (token 3 'N2'): "));
        assert!(message("N1,D19").starts_with("piece 1 (token 1 'N1'): "));
        assert!(message("D0,N").starts_with("piece 1 (token 1 'D0'): "));
        assert_eq!(message(""), "piece 1: the record is empty");
    }

    #[test]
    fn piece_tokens_splits_at_each_n() {
        let record = Record::parse("D1,N,C1,L1,D18,N,N,D1").unwrap();
        assert_eq!(record.piece_tokens(), [1..5, 5..6, 6..8]);
        assert_eq!(Record::parse("D1").unwrap().piece_tokens(), []);
        assert_eq!(Record::default().piece_tokens(), []);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_at_the_start_only() {
        let plain = Record::parse("N,D19").unwrap();
        assert_eq!(Record::parse("\u{feff}N,D19"), Ok(plain));
        let err = Record::parse("N,D19,\u{feff}N").unwrap_err();
        assert_eq!(
            err.to_string(),
            "piece 1 (token 3 '<U+FEFF>N'): expected N, L, R, D or C, found U+FEFF"
        );
    }

    #[test]
    fn from_pieces_merges_runs() {
        use Move::*;
        let r = Record::from_pieces([&[Rotate, Left, Left, Down][..], &[Down][..]]);
        assert_eq!(r.to_string(), "N,C1,L2,D1,N,D1");
    }
}
