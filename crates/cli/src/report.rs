//! A record's report in the one form every game gives it (docs/JSON.md): `check --json`'s
//! object, whose fields `solve --json`'s object starts with, and `check`'s report on standard
//! output, with the question a record that does not fit its sequence raises. A game gives
//! what its replay found in the terms every game shares ([`Scorecard`]) and its own fields,
//! which go under its name and nowhere else.

use super::{verdict, CliError};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};
use std::io::Write;
use std::path::Path;
use tetris_kit::scorecard::{ReplayReport, Scorecard};
use tetris_kit::text::FIRST_PIECES;

/// The version of the form, `format` in every object: a field that changes its meaning or
/// goes away raises it.
pub(crate) const FORMAT: u32 = 1;

/// A record's report in the one form.
pub(crate) struct Report<'a> {
    /// `--game`'s value, which the game's own fields are written under.
    pub game: &'a str,
    /// What the replay found, or an invalid record's error.
    pub(crate) result: Result<&'a Scorecard, &'a str>,
    /// The game's own fields: an object.
    pub(crate) own: &'a Value,
    /// Fields every game writes after the shared ones, before its own: `solve`'s run.
    pub(crate) run: Option<&'a Map<String, Value>>,
}

impl Serialize for Report<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let invalid = Scorecard::invalid();
        let (card, error) = match self.result {
            Ok(card) => (card, None),
            Err(error) => (&invalid, Some(error)),
        };
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("format", &FORMAT)?;
        map.serialize_entry("game", self.game)?;
        map.serialize_entry("valid", &error.is_none())?;
        map.serialize_entry("error", &error)?;
        map.serialize_entry("score", &card.score)?;
        map.serialize_entry("pieces_placed", &card.pieces_placed)?;
        map.serialize_entry("lines", &card.lines)?;
        map.serialize_entry("end", &card.end)?;
        for (key, value) in self.run.into_iter().flatten() {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry(self.game, self.own)?;
        map.end()
    }
}

/// The fields of the object `fields` with those of the object `more` (which win where both
/// have one): a game's own fields of `solve --json`, its report's and its run's.
pub fn joined(fields: Value, more: Value) -> Value {
    match (fields, more) {
        (Value::Object(mut fields), Value::Object(more)) => {
            fields.extend(more);
            Value::Object(fields)
        }
        (fields, _) => fields,
    }
}

/// A record `check` replayed and found valid.
pub struct Checked {
    pub scorecard: Scorecard,
    /// The game's own fields of `--json` (an object).
    pub own: Value,
    /// The game's summary, its last line `Score = N`.
    pub summary: String,
}

impl Checked {
    /// A valid record's report, as its replay gives it.
    pub(crate) fn of(report: &impl ReplayReport) -> Checked {
        Checked {
            scorecard: report.scorecard(),
            own: report.own(),
            summary: report.summary(),
        }
    }
}

/// Writes `check`'s report of a record of `game` (an invalid one: its error) to `out`: one
/// line of JSON, or the summary; an invalid record's is its error and `Score = 0`.
pub fn write_check(
    out: &mut impl Write,
    game: &str,
    json: bool,
    checked: Result<&Checked, &str>,
) -> std::io::Result<()> {
    if json {
        let nothing = Value::Object(Map::new());
        let report = Report {
            game,
            result: checked.map(|c| &c.scorecard),
            own: checked.map_or(&nothing, |c| &c.own),
            run: None,
        };
        let line = serde_json::to_string(&report).map_err(std::io::Error::other)?;
        return writeln!(out, "{line}");
    }
    match checked {
        Ok(checked) => write!(out, "{}", checked.summary),
        Err(error) => writeln!(out, "error: {error}\nScore = 0"),
    }
}

/// [`write_check`] to standard output, and `check`'s exit: 0 for a valid record, 1 for an
/// invalid one.
pub fn print_check(
    game: &str,
    json: bool,
    checked: Result<&Checked, &str>,
) -> Result<(), CliError> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let printed = write_check(&mut out, game, json, checked).and_then(|()| out.flush());
    verdict(printed, checked.is_ok())
}

/// What a replay's error at piece `piece` (from 1) of a record adds where the record does
/// not fit `sequence`, of `pieces` pieces: it fails at its first pieces, or goes on past the
/// sequence's last (which the error says already). Only for a record that parsed: one that
/// does not is wrong whatever the sequence.
pub fn misfit_hint(piece: usize, sequence: &Path, pieces: usize) -> Option<String> {
    let question = format!("is {} the sequence it was made for?", sequence.display());
    if piece <= FIRST_PIECES {
        Some(format!(
            " (the record fails at its first pieces: {question})"
        ))
    } else if piece > pieces {
        Some(format!(" ({question})"))
    } else {
        None
    }
}
