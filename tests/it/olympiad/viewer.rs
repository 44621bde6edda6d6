//! The olympiad's viewer page (`check --game olympiad --html`) on a long game: a few bytes a
//! piece, and each piece's "Locked at" line in the record's own terms.

use crate::common::film::{column, film_of, locked_at};
use crate::common::{chromium, dump_dom, element_text, exe, Scratch};

const GEN: &str = env!("CARGO_BIN_EXE_gen");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");

/// 100,000 pieces: the page stays under 1.5 MB (the film takes a few bytes a piece), says
/// where each piece locked as the record writes it (orientation, column), and the page in a
/// browser shows a piece deep in the game with its figures.
#[test]
fn a_100000_piece_page_is_small_and_speaks_the_records_terms() {
    let scratch = Scratch::new("olympiad-viewer");
    let text = exe(
        GEN,
        &["--game", "olympiad", "--seed", "1", "--count", "100000"],
    );
    assert_eq!(text.code, Some(0), "{text:#?}");
    let seq = scratch.file("s.txt", &text.stdout).display().to_string();
    let solved = exe(SOLVE, &["--game", "olympiad", &seq]);
    assert_eq!(solved.code, Some(0), "{solved:#?}");
    let record = scratch.file("r.txt", &solved.stdout).display().to_string();
    let page = scratch.dir.join("v.html");
    let page_arg = page.display().to_string();
    let checked = exe(
        CHECK,
        &["--game", "olympiad", &seq, &record, "--html", &page_arg],
    );
    assert_eq!(checked.code, Some(0), "{checked:#?}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.len() < 1_500_000,
        "the 100,000-piece page takes {} bytes",
        html.len()
    );
    let film = film_of(&html);
    assert_eq!(film["pieces"], 100_000);
    let placements: Vec<&str> = solved.stdout.lines().skip(1).collect();
    for n in [1, 2, 777, 50_000, 100_000] {
        let (orientation, column) = placements[n - 1].split_once(' ').unwrap();
        assert_eq!(
            locked_at(&film, n),
            format!("orientation {orientation}, column {column}"),
            "piece {n}"
        );
    }
    assert_eq!(column(&film, "score")[99_999], 100_000);
    let Some(browser) = chromium("olympiad viewer browser test") else {
        return;
    };
    let dom = dump_dom(&browser, &page, "#piece=99999");
    assert_eq!(element_text(&dom, "piece-number"), "99999");
    assert_eq!(element_text(&dom, "score"), "99,999");
    assert_eq!(element_text(&dom, "position"), locked_at(&film, 99_999));
    let board = element_text(&dom, "board-text");
    assert_eq!(board.matches('@').count(), 4, "{board}");
}
