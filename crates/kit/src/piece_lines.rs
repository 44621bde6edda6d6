//! Records that hold one line per piece of a sequence given apart (the browser game's, the
//! olympiad's): a `game NAME` header, then each piece's line in the sequence's order. What such
//! games share is kept here: reading and writing the lines, where a piece stands in the text,
//! the problems every such record can have and their messages, and the count of pieces a replay
//! has played against its sequence and how its replay ended. How a line is read, how a piece
//! plays and what a game scores stay the game's.

use super::piece::Kind;
use super::scorecard::{self, Reason};
use super::text::{describe_char, lines_after_header, MissingHeader};
use super::text::{Problem, RecordError};
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

/// What is wrong with a record of piece lines: what every such record can have, or what the
/// game's own rules find (`G`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineProblem<G> {
    /// No header line: the text is empty or all comments.
    Empty,
    /// The first line that is not a comment is not the header.
    Header { found: String },
    /// A token the line's reader refuses.
    Token {
        /// 1-based position of the token in its line.
        number: usize,
        token: String,
        what: &'static str,
        /// The character at fault, where one is.
        found: Option<char>,
    },
    /// A line for a piece past the sequence's end.
    PastSequence { pieces: usize },
    /// A line after the piece that ended the game.
    AfterGameOver { piece: usize, kind: Kind },
    /// What the game's own rules find.
    Game(G),
}

/// A game's own problems with a record of piece lines, and its words for the shared ones.
pub trait GameProblem {
    /// The record's first line (`game browser`).
    const HEADER: &'static str;
    /// What the piece that ends the game does (`locked in a hidden row`).
    const GAME_OVER: &'static str;
    /// What token `number` of a line stands for, where its place says it (`column`).
    fn token_name(_number: usize) -> Option<&'static str> {
        None
    }
    /// The problem's message, `who` the piece it is about.
    fn describe(&self, who: &str) -> String;
}

impl<G: GameProblem> Problem for LineProblem<G> {
    fn missing_header(missing: MissingHeader) -> Self {
        match missing {
            MissingHeader::Empty => LineProblem::Empty,
            MissingHeader::Other { found, .. } => LineProblem::Header { found },
        }
    }

    fn first_line(&self) -> Option<&str> {
        match self {
            LineProblem::Header { found } => Some(found),
            _ => None,
        }
    }

    fn describe(&self, who: &str) -> String {
        let header = G::HEADER;
        match self {
            LineProblem::Empty => {
                format!("the record has no `{header}` line (it is empty or all comments)")
            }
            // The binaries add the game a first line names, where it is another game's
            // record ([`Problem::first_line`]).
            LineProblem::Header { found } => {
                format!("the first line must be `{header}`, found '{found}'")
            }
            LineProblem::Token {
                number,
                token,
                what,
                found,
            } => {
                let name = G::token_name(*number).map(|name| format!(" ({name})"));
                let found = found.map(|c| format!(", found {}", describe_char(c)));
                format!(
                    "{who}, token {number} '{token}'{}: {what}{}",
                    name.unwrap_or_default(),
                    found.unwrap_or_default()
                )
            }
            LineProblem::PastSequence { pieces } => {
                format!("{who}: a line past the sequence's last piece (it has {pieces})")
            }
            LineProblem::AfterGameOver { piece, kind } => format!(
                "{who}: a line after the end of the game (piece {piece} ({kind}) {})",
                G::GAME_OVER
            ),
            LineProblem::Game(problem) => problem.describe(who),
        }
    }
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
    pub fn next<G>(&self, line: usize) -> Result<Kind, RecordError<LineProblem<G>>> {
        if let Some(piece) = self.over {
            let kind = self.sequence[piece - 1];
            return Err(self.error(line, LineProblem::AfterGameOver { piece, kind }));
        }
        match self.sequence.get(self.played) {
            Some(&kind) => Ok(kind),
            None => Err(self.error(
                line,
                LineProblem::PastSequence {
                    pieces: self.sequence.len(),
                },
            )),
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

    /// Whether every piece of the sequence has been played.
    pub(crate) fn sequence_ended(&self) -> bool {
        self.played >= self.sequence.len()
    }

    /// How the replay ended, with the pieces played so far its last.
    pub fn end(&self) -> End {
        match self.over {
            Some(piece) => End::GameOver { piece },
            None if self.sequence_ended() => End::SequenceEnded,
            None => End::RecordEnded,
        }
    }
}

/// How a replay of a record of piece lines ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every piece of the sequence was played.
    SequenceEnded,
    /// The record has fewer lines than the sequence has pieces: the game stops there.
    RecordEnded,
    /// This piece (1-based) ended the game; it was not placed.
    GameOver { piece: usize },
}

/// A game's words for how its replays end, as the summary's `end:` line says it.
pub struct EndWords {
    /// What every piece of the sequence did (`every piece of the sequence locked`).
    pub sequence_ended: &'static str,
    /// What the piece that ended the game did (`locked in a hidden row`).
    pub game_over: &'static str,
}

impl End {
    /// The end in the terms every game shares, in the game's `words`.
    pub fn shared(self, words: &EndWords) -> scorecard::End {
        match self {
            End::SequenceEnded => {
                scorecard::End::ran_out(Reason::SequenceEnded, words.sequence_ended)
            }
            End::RecordEnded => {
                scorecard::End::ran_out(Reason::RecordEnded, "the record ended before the sequence")
            }
            End::GameOver { piece } => scorecard::End::game_over(
                Reason::ToppedOut,
                piece as u64,
                &format!("it {}", words.game_over),
            ),
        }
    }
}

/// A replay of a record of piece lines under way, one piece's line at a time: what `solve`
/// checks each piece it writes with, and what its `--from-record` replays the kept pieces on.
pub trait PieceReplay {
    /// What a piece's line holds (its moves, its placement).
    type Entry;
    /// What is wrong with a record of the game.
    type Problem: Problem;
    /// Plays the next piece's `entry`, which stands on line `line` of the record: whether it
    /// ended the game.
    fn play_entry(
        &mut self,
        entry: &Self::Entry,
        line: usize,
    ) -> Result<bool, RecordError<Self::Problem>>;
}
