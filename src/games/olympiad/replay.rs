//! Replaying an olympiad record on the plain engine ([`super::rules::Field`]): what `check
//! --game olympiad` reports. [`Replay`] takes one placement at a time, so that `solve` checks
//! each placement before it prints it.

use super::record::{OwnProblem, Placement, Problem, Record, RecordError, GAME_OVER};
use super::rules::{BadPlacement, Field, Kind, Outcome};
use crate::kit::piece_lines::{source_line, EndWords, PieceReplay, Turns};
use crate::kit::scorecard::{ReplayReport, Scorecard};
use serde::{Deserialize, Serialize};

/// How a replay ended (the piece that ends the game comes to rest with a cell above the field; it is not placed).
pub use crate::kit::piece_lines::End;

/// How the olympiad's replays end, in its words.
pub(crate) const END_WORDS: EndWords = EndWords {
    sequence_ended: "every piece of the sequence placed",
    game_over: GAME_OVER,
};

/// What a valid record scores: the pieces placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub pieces_placed: usize,
    /// Rows removed.
    pub lines: u64,
    /// Rounds of removal after a placement's first: rows completed by falling cells.
    pub chains: u64,
    /// Placements that made a chain.
    pub chain_placements: u64,
    pub end: End,
    /// The field at the end.
    pub field: Field,
}

/// A replay under way, one placement at a time.
pub struct Replay<'a> {
    turns: Turns<'a>,
    field: Field,
    lines: u64,
    chains: u64,
    chain_placements: u64,
}

impl<'a> Replay<'a> {
    pub fn new(sequence: &'a [Kind]) -> Replay<'a> {
        Replay {
            turns: Turns::new(sequence),
            field: Field::new(),
            lines: 0,
            chains: 0,
            chain_placements: 0,
        }
    }

    /// Plays the next piece at `placement`; `line` is where the record holds it (messages).
    pub fn play(&mut self, placement: Placement, line: usize) -> Result<Outcome, RecordError> {
        let kind = self.turns.next(line)?;
        let orientation = placement.orientation;
        let column = placement.column;
        let outcome = self
            .field
            .place(kind, orientation as usize, column as usize)
            .map_err(|bad| {
                let own = match bad {
                    BadPlacement::Orientation { orientations } => OwnProblem::Orientation {
                        orientation,
                        orientations,
                    },
                    BadPlacement::Column { last } => OwnProblem::Column { column, last },
                };
                self.turns.error(line, Problem::Game(own))
            })?;
        self.turns.played(outcome == Outcome::GameOver);
        if let Outcome::Placed(p) = outcome {
            self.lines += u64::from(p.lines);
            self.chains += u64::from(p.chains);
            self.chain_placements += u64::from(p.chains > 0);
        }
        Ok(outcome)
    }

    /// Rows removed so far.
    pub(crate) fn lines(&self) -> u64 {
        self.lines
    }

    /// Pieces placed so far (a piece that ended the game does not count).
    pub(crate) fn pieces_placed(&self) -> usize {
        self.turns.placed()
    }

    pub fn field(&self) -> &Field {
        &self.field
    }

    /// The report of the placements played.
    pub fn finish(self) -> Report {
        let end = self.turns.end();
        Report {
            pieces_placed: self.turns.placed(),
            lines: self.lines,
            chains: self.chains,
            chain_placements: self.chain_placements,
            end,
            field: self.field,
        }
    }
}

impl PieceReplay for Replay<'_> {
    type Entry = Placement;
    type Problem = Problem;

    fn play_entry(&mut self, &placement: &Placement, line: usize) -> Result<bool, RecordError> {
        Ok(self.play(placement, line)? == Outcome::GameOver)
    }
}

/// Replays `record` on `sequence`.
pub fn replay(sequence: &[Kind], record: &Record) -> Result<Report, RecordError> {
    let mut replay = Replay::new(sequence);
    for (i, &p) in record.placements.iter().enumerate() {
        let line = source_line(&record.source_lines, i);
        replay.play(p, line)?;
    }
    Ok(replay.finish())
}

/// Parses and replays a record's text; every error names the piece's kind.
pub fn check_text(sequence: &[Kind], text: &str) -> Result<Report, RecordError> {
    replay(sequence, &parse_for(sequence, text)?)
}

/// Parses a record of `sequence`: its error names the piece's kind, as the replay's do.
pub(crate) fn parse_for(sequence: &[Kind], text: &str) -> Result<Record, RecordError> {
    Record::parse(text).map_err(|e| e.naming_kind(sequence))
}

impl ReplayReport for Report {
    /// What the replay found, in the terms every game shares: the score is the pieces placed.
    fn scorecard(&self) -> Scorecard {
        Scorecard {
            score: self.pieces_placed as u64,
            pieces_placed: self.pieces_placed as u64,
            lines: self.lines,
            end: self.end.shared(&END_WORDS),
        }
    }

    /// The olympiad's own fields of `--json`: the chains its clears made ([`Own`]).
    fn own(&self) -> serde_json::Value {
        serde_json::json!(Own {
            chains: self.chains,
            chain_placements: self.chain_placements,
        })
    }

    /// The summary `check --game olympiad` and `solve --game olympiad` print, ending in
    /// `Score = N`.
    fn summary(&self) -> String {
        format!(
            "pieces placed: {}\nlines: {}\nchain clears: {} (in {})\nend: {}\nScore = {}\n",
            self.pieces_placed,
            self.lines,
            self.chains,
            crate::kit::text::plural(self.chain_placements, "placement"),
            self.end.shared(&END_WORDS).text,
            self.pieces_placed
        )
    }
}

/// The olympiad's own fields of its `--json` report.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Own {
    /// Rounds of removal after a placement's first: rows completed by falling cells.
    pub(crate) chains: u64,
    /// Placements that made a chain.
    pub(crate) chain_placements: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(letters: &str) -> Vec<Kind> {
        crate::kit::sequence::parse_sequence(letters).unwrap()
    }

    #[test]
    fn a_record_scores_its_pieces_placed_and_clears() {
        // Horizontal Is at columns 0-3 and 4-7 and an O at 8-9 fill the floor row.
        let sequence = kinds("IIO");
        let report = check_text(&sequence, "game olympiad\n0 0\n0 4\n0 8\n").unwrap();
        assert_eq!(report.pieces_placed, 3);
        assert_eq!(report.lines, 1);
        assert_eq!(report.end, End::SequenceEnded);
        assert!(report.summary().ends_with("Score = 3\n"));
    }

    #[test]
    fn the_piece_that_ends_the_game_does_not_count_and_nothing_may_follow() {
        // Five upright Is fill column 0 to the top row; the sixth has no room.
        let sequence = kinds(&"I".repeat(8));
        let tops = "game olympiad\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n";
        let report = check_text(&sequence, tops).unwrap();
        assert_eq!(report.pieces_placed, 5);
        assert_eq!(report.end, End::GameOver { piece: 6 });
        let e = check_text(&sequence, &format!("{tops}1 5\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 8: piece 7 (I): a line after the end of the game (piece 6 (I) came to rest above the field)"
        );
    }

    #[test]
    fn placements_the_piece_cannot_take_are_errors_naming_it() {
        let sequence = kinds("OS");
        let e = |text: &str| check_text(&sequence, text).unwrap_err().to_string();
        assert_eq!(
            e("game olympiad\n1 0\n"),
            "line 2: piece 1 (O), token 1 '1': the piece has orientations 0 to 0"
        );
        assert_eq!(
            e("game olympiad\n0 9\n"),
            "line 2: piece 1 (O), token 2 '9': in that orientation its leftmost column is 0 to 8"
        );
        assert_eq!(
            e("game olympiad\n0 0\n0 0\n0 0\n"),
            "line 4: piece 3: a line past the sequence's last piece (it has 2)"
        );
        assert_eq!(
            e("game olympiad\n0 0\n0 x\n"),
            "line 3: piece 2 (S), token 2 'x' (column): expected one digit, 0 to 9, found 'x'"
        );
    }
}
