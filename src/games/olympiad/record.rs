//! Records of the olympiad's game: a `game olympiad` line, then one line per piece with two
//! numbers, the piece's orientation and the column of its leftmost cell (both from 0; see
//! [`super::rules::pictures`] for the orientations).
//!
//! Parsing checks the form of the text; whether an orientation and column exist for the
//! piece is the replay's business (it needs the sequence). Both report a [`RecordError`]
//! naming the line, the piece and the token.

use crate::kit::piece_lines::{line_of_piece, read_pieces, write_pieces, GameProblem, LineProblem};
use crate::kit::text::quote;
use std::fmt;

/// The first line of every record.
pub const HEADER: &str = "game olympiad";
/// What the piece that ends the game does, as the messages and the report say it.
pub(crate) const GAME_OVER: &str = "came to rest above the field";

/// One piece's placement: an orientation of its kind and its leftmost column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placement {
    pub orientation: u8,
    pub column: u8,
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.orientation, self.column)
    }
}

/// A whole record: each piece's placement, and the line of the text it is on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub placements: Vec<Placement>,
    /// 1-based line of the text per piece (for messages); a record built in memory has the
    /// lines its text would have.
    pub source_lines: Vec<usize>,
}

/// What is wrong with a record: its form, or how it plays ([`OwnProblem`]).
pub type Problem = LineProblem<OwnProblem>;

/// What is wrong with a record by the olympiad's own rules: a line that is not an
/// orientation and a column, or a placement the piece cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OwnProblem {
    /// A piece's line with fewer than two numbers (`found` of them).
    Missing { found: usize },
    /// A piece's line with a third token.
    Extra { token: String },
    /// An orientation the piece's kind does not have.
    Orientation {
        orientation: u8,
        orientations: usize,
    },
    /// A column that puts part of the piece outside the field.
    Column { column: u8, last: usize },
}

/// A record error of this game.
pub type RecordError = crate::kit::text::RecordError<Problem>;

impl GameProblem for OwnProblem {
    const HEADER: &'static str = HEADER;
    const GAME_OVER: &'static str = GAME_OVER;

    /// Token 1 is the orientation, token 2 the column.
    fn token_name(number: usize) -> Option<&'static str> {
        Some(if number == 1 { "orientation" } else { "column" })
    }

    fn describe(&self, who: &str) -> String {
        match self {
            OwnProblem::Missing { found } => format!(
                "{who}: expected an orientation and a column, found {}",
                match found {
                    0 => "an empty line".to_string(),
                    _ => "only one number".to_string(),
                }
            ),
            OwnProblem::Extra { token } => {
                format!("{who}, token 3 '{token}': a line holds only an orientation and a column")
            }
            OwnProblem::Orientation {
                orientation,
                orientations,
            } => format!(
                "{who}, token 1 '{orientation}': the piece has orientations 0 to {}",
                orientations - 1
            ),
            OwnProblem::Column { column, last } => format!(
                "{who}, token 2 '{column}': in that orientation its leftmost column is 0 to {last}"
            ),
        }
    }
}

impl Record {
    /// Parses a record's text. A byte-order mark at the start is skipped; lines whose first
    /// non-blank character is `#` are comments; trailing whitespace (and `\r`) is ignored.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let (placements, source_lines) = read_pieces(text, HEADER, parse_line)?;
        Ok(Record {
            placements,
            source_lines,
        })
    }

    /// Appends a piece's placement on the line its text would have.
    pub fn push(&mut self, placement: Placement) {
        self.source_lines.push(line_of_piece(self.placements.len()));
        self.placements.push(placement);
    }
}

impl fmt::Display for Record {
    /// The record's text: the header, then one line per piece.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_pieces(f, HEADER, &self.placements)
    }
}

fn parse_line(line: &str) -> Result<Placement, Problem> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    if words.len() < 2 {
        return Err(Problem::Game(OwnProblem::Missing { found: words.len() }));
    }
    if let Some(extra) = words.get(2) {
        return Err(Problem::Game(OwnProblem::Extra {
            token: quote(extra),
        }));
    }
    let number = |k: usize| {
        let word = words[k];
        let problem = |what, found| Problem::Token {
            number: k + 1,
            token: quote(word),
            what,
            found,
        };
        if let Some(c) = word.chars().find(|c| !c.is_ascii_digit()) {
            return Err(problem("expected one digit, 0 to 9", Some(c)));
        }
        match word.as_bytes() {
            &[digit] => Ok(digit - b'0'),
            _ => Err(problem("expected one digit, 0 to 9", None)),
        }
    };
    Ok(Placement {
        orientation: number(0)?,
        column: number(1)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_with_comments_and_line_numbers() {
        let text = "\u{feff}# a comment\ngame olympiad\n0 3\n  # another\n1 9\r\n";
        let r = Record::parse(text).unwrap();
        assert_eq!(r.to_string(), "game olympiad\n0 3\n1 9\n");
        assert_eq!(r.source_lines, [3, 5]);
        assert_eq!(
            Record::parse(&r.to_string()).unwrap().placements,
            r.placements
        );
    }

    #[test]
    fn errors_name_the_line_piece_and_token() {
        let e = |text: &str| Record::parse(text).unwrap_err().to_string();
        assert_eq!(
            e(""),
            "line 1: the record has no `game olympiad` line (it is empty or all comments)"
        );
        assert_eq!(
            e("game browser\n"),
            "line 1: the first line must be `game olympiad`, found 'game browser'"
        );
        let other = Record::parse("game browser\n").unwrap_err();
        assert_eq!(other.first_line(), Some("game browser"));
        assert_eq!(
            e("game olympiad\n0 3\n1 x\n"),
            "line 3: piece 2, token 2 'x' (column): expected one digit, 0 to 9, found 'x'"
        );
        assert_eq!(
            e("game olympiad\n12 3\n"),
            "line 2: piece 1, token 1 '12' (orientation): expected one digit, 0 to 9"
        );
        assert_eq!(
            e("game olympiad\n0 99999999999999999999\n"),
            "line 2: piece 1, token 2 '99999999999999999999' (column): expected one digit, 0 \
             to 9"
        );
        assert_eq!(
            e("game olympiad\n00 3\n"),
            "line 2: piece 1, token 1 '00' (orientation): expected one digit, 0 to 9"
        );
        // Spaces or tabs between the digits, as docs/OLYMPIAD.md says.
        let r = Record::parse("game olympiad\n0 3\n1\t9\n 2 \t 0\n").unwrap();
        assert_eq!(r.to_string(), "game olympiad\n0 3\n1 9\n2 0\n");
        assert_eq!(
            e("game olympiad\n0\n"),
            "line 2: piece 1: expected an orientation and a column, found only one number"
        );
        assert_eq!(
            e("game olympiad\n0 3\n\n1 2\n"),
            "line 3: piece 2: expected an orientation and a column, found an empty line"
        );
        // Blank lines at the end are no pieces.
        let r = Record::parse("game olympiad\n0 3\n\n \n").unwrap();
        assert_eq!(r.placements.len(), 1);
        assert_eq!(
            e("game olympiad\n0 3 4\n"),
            "line 2: piece 1, token 3 '4': a line holds only an orientation and a column"
        );
    }
}
