//! `check --game browser --html` as a user reads it in headless Chromium: the "Next" pieces are
//! drawn as the game spawns them (I flat, J as `#../###`), the same as the playable page's
//! preview and the rules' spawn matrix, read back from the canvas's pixels.

use crate::common::film::shape_picture;
use crate::common::{attribute, chromium, dump_dom, element_text, exe, opening_tag, Scratch};
use tetris_opt::games::browser::rules::{rotated_matrix, Kind};

/// The spawn shape of a kind of the browser game: its unturned matrix's cells.
fn spawn_shape(letter: char) -> String {
    let kind = Kind::from_letter(letter).expect("a kind letter");
    let cells: Vec<(i32, i32)> = (rotated_matrix(kind, 0).filled().into_iter())
        .map(|(row, col)| (col, row))
        .collect();
    shape_picture(&cells)
}

#[test]
fn the_viewer_draws_the_next_pieces_as_they_spawn() {
    let dir = Scratch::new("browser-viewer-next");
    let sequence = dir.file("seq.txt", "IIOTJLSZI\n");
    let record = dir.file("rec.txt", "game browser\nL3 D20\nR D20\nR4 D21\n");
    let page = dir.dir.join("page.html");
    let out = exe(
        env!("CARGO_BIN_EXE_check"),
        &[
            "--game",
            "browser",
            sequence.to_str().unwrap(),
            record.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    // What the game spawns, by the rules and as a player sees it.
    assert_eq!(spawn_shape('I'), "####");
    assert_eq!(spawn_shape('J'), "#../###");
    let Some(browser) = chromium("browser viewer browser test") else {
        return;
    };
    for (piece, next) in [(0, "IIOTJ"), (2, "OTJLS"), (3, "TJLSZ")] {
        let dom = dump_dom(&browser, &page, &format!("#piece={piece}"));
        let letters: Vec<String> = next.chars().map(String::from).collect();
        assert_eq!(
            element_text(&dom, "next"),
            letters.join(" "),
            "piece {piece}"
        );
        let drawn = attribute(opening_tag(&dom, "next-canvas"), "data-shapes");
        let spawned: Vec<String> = next.chars().map(spawn_shape).collect();
        assert_eq!(drawn, spawned.join(" "), "the next pieces at piece {piece}");
    }
}
