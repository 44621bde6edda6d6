//! The viewer's page of an olympiad record ([`crate::kit::film`]): a frame per placement, the
//! piece drawn where it came to rest on the field before it, the next frame the field after
//! the removals and falls; each frame's text says what the placement removed and whether
//! bodies fell. The plain engine plays the record; an invalid record plays up to the piece
//! it fails at, and a text that is no record shows its error over the empty field.

use super::record::{Placement, Record, RecordError};
use super::replay::{Replay, Report, END_WORDS};
use super::rules::{cells, orientations, Kind, Outcome, HEIGHT, WIDTH};
use crate::kit::film::{Film, FilmPiece, GamePage, Spawn, NEXT_SHOWN};
use crate::kit::piece_lines::source_line;
use crate::kit::text::grouped_plural;

/// The page for `record` on `sequence`, or for the error of a text that is no record; `name`
/// is the record's path as the user gave it, and `hint` what follows the error (the game whose
/// record it is, where another's).
pub fn page(
    sequence: &[Kind],
    record: Result<&Record, &RecordError>,
    name: &str,
    hint: &str,
) -> String {
    let mut film = Film::new();
    let mut kinds = String::new();
    let mut replay = Replay::new(sequence);
    let none = Record::default();
    let (record, mut error) = match record {
        Ok(record) => (record, None),
        Err(e) => (&none, Some(e.clone())),
    };
    for (i, &p) in record.placements.iter().enumerate() {
        let kind = sequence.get(i).copied();
        let bottom = kind
            .and_then(|k| cells(k, p.orientation as usize))
            .map(|shape| {
                let last = WIDTH.saturating_sub(shape.iter().map(|c| c.0).max().unwrap_or(0) + 1);
                replay
                    .field()
                    .rest_row(&shape, (p.column as usize).min(last))
            });
        let line = source_line(&record.source_lines, i);
        let outcome = match replay.play(p, line) {
            Ok(outcome) => outcome,
            Err(e) => {
                error = Some(e);
                break;
            }
        };
        let (Some(kind), Some(bottom)) = (kind, bottom) else {
            unreachable!("a placement the replay took has a kind and a shape");
        };
        film.observe_piece(FilmPiece {
            x: i32::from(p.column),
            y: (HEIGHT - 1) as i32 - bottom as i32,
            state: p.orientation,
            fields: Vec::new(),
            moves: describe(p, &outcome),
            score: replay.pieces_placed() as u64,
            lines: replay.lines(),
            rows: replay.field().row_bits(),
            filled: None,
            game_over: (outcome == Outcome::GameOver)
                .then_some("the piece came to rest above the field"),
        });
        kinds.push(kind.letter());
    }
    kinds.extend(sequence[kinds.len()..].iter().take(8).map(|k| k.letter()));
    let report = replay.finish();
    let summary = match &error {
        Some(e) => format!("invalid record: {}{hint}", e.located(name)),
        None => summary(&report),
    };
    let file = std::path::Path::new(name)
        .file_name()
        .map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
    film.page(GamePage {
        name,
        window_title: format!(
            "{file} \u{2014} {} \u{2014} tetris-opt olympiad",
            grouped_plural(report.pieces_placed as u64, "piece")
        ),
        summary,
        kinds,
        offsets: offsets(),
        next_shown: NEXT_SHOWN,
        // A piece has no spawn: the player picks its orientation; the coming ones are drawn
        // in their first.
        spawn: Spawn::ByKind([0; 7]),
        panel: Vec::new(),
        locked_at: "orientation {state}, column {x}",
        error: None,
        fill_chart: None,
    })
}

/// The page's line for a valid record.
fn summary(report: &Report) -> String {
    format!(
        "The olympiad's game: {} placed, {}, {}; {}",
        grouped_plural(report.pieces_placed as u64, "piece"),
        grouped_plural(report.lines, "line"),
        grouped_plural(report.chains, "chain clear"),
        report.end.shared(&END_WORDS).text
    )
}

/// A frame's text: the placement, then what it removed and what fell.
fn describe(p: Placement, outcome: &Outcome) -> String {
    let mut text = format!("orientation {}, column {}", p.orientation, p.column);
    match outcome {
        Outcome::GameOver => text.push_str(": above the field"),
        Outcome::Placed(placed) if placed.lines > 0 => {
            let count = |n: u32, one: &str, many: &str| match n {
                1 => format!("1 {one}"),
                n => format!("{n} {many}"),
            };
            text.push_str(&format!(": {} removed", count(placed.lines, "row", "rows")));
            if placed.falls > 0 {
                let bodies = count(placed.falls, "body", "bodies");
                text.push_str(&format!(", {bodies} fell"));
            }
            if placed.chains > 0 {
                let chains = count(placed.chains, "chain clear", "chain clears");
                text.push_str(&format!(", {chains}"));
            }
        }
        Outcome::Placed(_) => {}
    }
    text
}

/// Each orientation's cells as the viewer draws them, from the piece's place (its leftmost
/// column, its bottom row counted from the top): `(dx, dy)` with `dy` upward negative, by kind
/// in the viewer's order `ILJTOSZ`, then by orientation (a kind's missing orientations repeat
/// its first).
fn offsets() -> [[[(i32, i32); 4]; 4]; 7] {
    let mut out = [[[(0, 0); 4]; 4]; 7];
    for (k, letter) in "ILJTOSZ".chars().enumerate() {
        let kind = Kind::from_letter(letter).expect("a kind letter");
        for (o, slot) in out[k].iter_mut().enumerate() {
            let o = if o < orientations(kind) { o } else { 0 };
            let cells = cells(kind, o).expect("listed orientation");
            for (s, (c, r)) in slot.iter_mut().zip(cells) {
                *s = (c as i32, -(r as i32));
            }
        }
    }
    out
}
