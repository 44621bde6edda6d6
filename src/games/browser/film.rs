//! The viewer's page of a browser-game record ([`crate::kit::film`]): a frame per locked piece,
//! drawn where its matrix locked, with its line of moves; the page says where it locked in the
//! game's terms (the matrix's top-left row and column, its quarter turns). The plain engine
//! plays the record; an invalid record plays up to the piece it fails at, and a text that is no
//! record shows its error over the empty field.

use super::record::{Record, GAME_OVER};
use super::replay::{replay_observed, Report, Step, END_WORDS};
use super::rules::{rotated_matrix, Kind, Round, HEIGHT, WIDTH};
use crate::kit::film::{Film, FilmPiece, GamePage, Spawn, NEXT_SHOWN};
use crate::kit::text::{grouped, grouped_plural};

/// The page for the record's `text` on `sequence`; `name` is the record's path as the user
/// gave it, and `hint` what follows an error (the game whose record it is, where another's).
pub(crate) fn page(sequence: &[Kind], text: &str, name: &str, hint: &str) -> String {
    let mut film = Film::new();
    let result = Record::parse(text)
        .map_err(|e| e.naming_kind(sequence))
        .and_then(|record| {
            replay_observed(sequence, &record, |step| film.observe_piece(piece(step)))
        });
    let shown = (film.len() + 1 + NEXT_SHOWN).min(sequence.len());
    let file = std::path::Path::new(name)
        .file_name()
        .map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
    let (summary, points) = match &result {
        Ok(report) => (summary(report), report.points),
        Err(e) => (format!("invalid record: {}{hint}", e.located(name)), 0),
    };
    film.page(GamePage {
        name,
        window_title: format!(
            "{file} \u{2014} {} \u{2014} tetris-opt browser",
            grouped(points)
        ),
        summary,
        kinds: sequence[..shown].iter().map(|k| k.letter()).collect(),
        offsets: offsets(),
        next_shown: NEXT_SHOWN,
        // Every piece spawns unturned, its matrix as the game's SHAPES draw it.
        spawn: Spawn::ByKind([0; 7]),
        panel: Vec::new(),
        locked_at: "row {y}, column {x}, {state} quarter turns",
        error: None,
        fill_chart: None,
    })
}

/// The line under the heading: what `check --game browser` reports, on one line.
fn summary(report: &Report) -> String {
    format!(
        "The browser game: {} placed, {}, level {}, {} points; {}",
        grouped_plural(report.pieces_placed as u64, "piece"),
        grouped_plural(report.lines, "line"),
        grouped(report.level),
        grouped(report.points),
        report.end.shared(&END_WORDS).text
    )
}

/// One locked piece as the film keeps it.
fn piece(step: &Step) -> FilmPiece {
    FilmPiece {
        x: step.piece.col,
        y: step.piece.row,
        state: step.piece.rotation % 4,
        fields: Vec::new(),
        moves: Record::line(step.tokens),
        score: step.game.points,
        lines: step.game.lines,
        rows: rows(step.game),
        filled: None,
        game_over: step.lock.game_over.then_some(GAME_OVER),
    }
}

/// The settled cells, top row first, each row's cells as bits (column 0 lowest).
fn rows(game: &Round) -> [u16; 20] {
    const _: () = assert!(
        WIDTH == 10 && HEIGHT == 20,
        "the page draws a 10 x 20 field"
    );
    std::array::from_fn(|r| {
        (0..WIDTH as usize)
            .filter(|&c| game.field.cells[r][c])
            .fold(0u16, |row, c| row | 1 << c)
    })
}

/// Each kind's cells by quarter turns, `(dx, dy)` from the matrix's top-left cell, in the
/// viewer's kind order `ILJTOSZ`.
fn offsets() -> [[[(i32, i32); 4]; 4]; 7] {
    let mut out = [[[(0, 0); 4]; 4]; 7];
    for (k, letter) in "ILJTOSZ".chars().enumerate() {
        let kind = Kind::from_letter(letter).expect("a kind letter");
        for (turns, slot) in out[k].iter_mut().enumerate() {
            let cells = rotated_matrix(kind, turns as u8).filled();
            for (s, (r, c)) in slot.iter_mut().zip(cells) {
                *s = (c, r);
            }
        }
    }
    out
}
