//! Records that hold one line per piece of a sequence given apart (the browser game's, the
//! olympiad's): a `game NAME` header, then each piece's line in the sequence's order. What such
//! games share is kept here: reading and writing the lines, where a piece stands in the text,
//! the messages of the problems every such record can have, and the count of pieces a replay
//! has played against its sequence. How a line is read, how a piece plays and what a game scores
//! stay the game's.

use super::piece::Kind;
use super::text::{describe_char, lines_after_header, Problem, RecordError};
use std::fmt;

/// The 1-based line of the text that piece `index` (0-based) stands on in a record written
/// out: the header is line 1.
pub fn line_of_piece(index: usize) -> usize {
    index + 2
}

/// The line piece `index` came from, in a record read from text (`source_lines`), or the line
/// it would stand on in the text of a record built in memory.
pub fn source_line(source_lines: &[usize], index: usize) -> usize {
    source_lines
        .get(index)
        .copied()
        .unwrap_or(line_of_piece(index))
}

/// Reads the lines after `header`, each by `read` into one piece's entry: the entries, and the
/// 1-based line each came from. A line `read` refuses is an error naming that line and piece.
pub fn read_pieces<T, P: Problem>(
    text: &str,
    header: &str,
    mut read: impl FnMut(&str) -> Result<T, P>,
) -> Result<(Vec<T>, Vec<usize>), RecordError<P>> {
    let lines = lines_after_header(text, header).map_err(RecordError::missing_header)?;
    let mut pieces = Vec::with_capacity(lines.len());
    let mut source_lines = Vec::with_capacity(lines.len());
    for (line, text) in lines {
        let piece = read(text).map_err(|problem| RecordError {
            line,
            piece: Some(pieces.len() + 1),
            kind: None,
            problem,
        })?;
        pieces.push(piece);
        source_lines.push(line);
    }
    Ok((pieces, source_lines))
}

/// Writes a record's text: the header, then one line per piece.
pub fn write_pieces<L: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    header: &str,
    lines: impl IntoIterator<Item = L>,
) -> fmt::Result {
    writeln!(f, "{header}")?;
    for line in lines {
        writeln!(f, "{line}")?;
    }
    Ok(())
}

/// The message of a text without its header line (it is empty or all comments).
pub fn no_header(header: &str) -> String {
    format!("the record has no `{header}` line (it is empty or all comments)")
}

/// The message of a first line that is not `header`: `found` as the reader quotes it (the
/// binaries add the game it names where it is another game's record:
/// [`Problem::first_line`]).
pub fn not_the_header(found: &str, header: &str) -> String {
    format!("the first line must be `{header}`, found '{found}'")
}

/// The message of a token a line's reader refuses: `who` the piece, `name` what the token
/// stands for where its place says it (`column`), `what` is wrong and the character `found`
/// at fault, where one is.
pub fn bad_token(
    who: &str,
    number: usize,
    token: &str,
    name: Option<&str>,
    what: &str,
    found: Option<char>,
) -> String {
    let name = name.map(|name| format!(" ({name})")).unwrap_or_default();
    let found = found.map(|c| format!(", found {}", describe_char(c)));
    format!(
        "{who}, token {number} '{token}'{name}: {what}{}",
        found.unwrap_or_default()
    )
}

/// The message of a line for a piece past the sequence's end (it has `pieces`).
pub fn past_sequence(who: &str, pieces: usize) -> String {
    format!("{who}: a line past the sequence's last piece (it has {pieces})")
}

/// The message of a line after `piece`, of `kind`, ended the game; `ended` says what that
/// piece did in the game's words (`locked in a hidden row`).
pub fn after_game_over(who: &str, piece: usize, kind: Kind, ended: &str) -> String {
    format!("{who}: a line after the end of the game (piece {piece} ({kind}) {ended})")
}

/// The problems a replay finds before it plays a piece: a line with no piece of the sequence
/// left to play.
pub trait SequenceProblem: Problem {
    /// A line past the end of a sequence of `pieces`.
    fn past_sequence(pieces: usize) -> Self;
    /// A line after `piece`, of `kind`, ended the game.
    fn after_game_over(piece: usize, kind: Kind) -> Self;
}

/// How far a replay has come through its sequence: the pieces played, those placed (a piece
/// that ends the game is played, not placed) and the piece that ended the game.
#[derive(Clone, Debug)]
pub struct Turns<'a> {
    sequence: &'a [Kind],
    played: usize,
    placed: usize,
    /// The piece (1-based) that ended the game.
    over: Option<usize>,
}

impl<'a> Turns<'a> {
    pub fn new(sequence: &'a [Kind]) -> Turns<'a> {
        Turns {
            sequence,
            played: 0,
            placed: 0,
            over: None,
        }
    }

    /// The kind of the next piece, whose line is `line` of the record; an error where the
    /// game has ended or the sequence has no piece left.
    pub fn next<P: SequenceProblem>(&self, line: usize) -> Result<Kind, RecordError<P>> {
        if let Some(piece) = self.over {
            let ended = self.sequence[piece - 1];
            return Err(self.error(line, P::after_game_over(piece, ended)));
        }
        match self.sequence.get(self.played) {
            Some(&kind) => Ok(kind),
            None => Err(self.error(line, P::past_sequence(self.sequence.len()))),
        }
    }

    /// The error of the next piece, whose line is `line`: it names the piece and its kind.
    pub fn error<P>(&self, line: usize, problem: P) -> RecordError<P> {
        RecordError {
            line,
            piece: Some(self.played + 1),
            kind: self.sequence.get(self.played).copied(),
            problem,
        }
    }

    /// Counts the next piece as played: placed, or the end of the game.
    pub fn played(&mut self, game_over: bool) {
        self.played += 1;
        if game_over {
            self.over = Some(self.played);
        } else {
            self.placed += 1;
        }
    }

    /// Pieces placed so far.
    pub fn placed(&self) -> usize {
        self.placed
    }

    /// The piece (1-based) that ended the game, if one did.
    pub fn game_over(&self) -> Option<usize> {
        self.over
    }

    /// Whether every piece of the sequence has been played.
    pub fn sequence_ended(&self) -> bool {
        self.played >= self.sequence.len()
    }
}
