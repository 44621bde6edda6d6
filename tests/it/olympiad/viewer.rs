//! The olympiad's viewer page (`check --game olympiad --html`) on a long game: a few bytes a
//! piece, each piece's "Locked at" line in the record's own terms, and its counts grouped by
//! thousands wherever the page shows them.

use crate::common::film::{column, film_of, locked_at};
use crate::common::{chromium, dump_dom, element_text, exe, Scratch};
use tetris_opt::games::olympiad::record::Placement;
use tetris_opt::games::olympiad::replay::Replay;
use tetris_opt::games::olympiad::rules::{Kind, Outcome};
use tetris_opt::kit::text::grouped;

/// The field after each piece (20 rows of bits, top first), played by the library, and the
/// pieces after which bodies fell.
fn fields(kinds: &str, placements: &[&str]) -> (Vec<[u16; 20]>, Vec<usize>) {
    let sequence: Vec<Kind> = kinds.chars().filter_map(Kind::from_letter).collect();
    let mut replay = Replay::new(&sequence);
    let (mut after, mut fell) = (Vec::new(), Vec::new());
    for (i, line) in placements.iter().enumerate() {
        let (o, c) = line.split_once(' ').unwrap();
        let p = Placement {
            orientation: o.parse().unwrap(),
            column: c.parse().unwrap(),
        };
        match replay.play(p, i + 2).expect("the record replays") {
            Outcome::Placed(placed) if placed.falls > 0 => fell.push(i + 1),
            _ => {}
        }
        after.push(replay.field().row_bits());
    }
    (after, fell)
}

/// A board text without the piece in play, as rows of bits (top first).
fn settled(board: &str) -> Vec<u16> {
    board
        .lines()
        .map(|l| {
            (l.trim_matches('|').chars().enumerate())
                .filter(|&(_, c)| c == '#')
                .fold(0, |row, (x, _)| row | 1 << x)
        })
        .collect()
}

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
    assert!(
        html.contains("\u{2014} 100,000 pieces \u{2014}"),
        "the window's title"
    );
    let headline = film["summary"].as_str().unwrap();
    assert!(headline.contains("100,000 pieces placed"), "{headline}");
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
    let sequence = std::fs::read_to_string(&seq).unwrap();
    let kinds: String = sequence.lines().filter(|l| !l.starts_with('#')).collect();
    let (after, fell) = fields(&kinds, &placements);
    // The piece after a fall deep in the game (the board the page corrected), and the last.
    let past_fall = fell.iter().find(|&&n| n > 70_000).expect("a fall") + 1;
    for n in [past_fall, 99_999] {
        let dom = dump_dom(&browser, &page, &format!("#piece={n}"));
        // Numbers a person reads are grouped, in the panel and in the headline alike.
        assert_eq!(element_text(&dom, "piece-number"), grouped(n as u64));
        assert_eq!(element_text(&dom, "piece-count"), "100,000");
        let headline = element_text(&dom, "summary");
        assert!(headline.contains("100,000 pieces placed"), "{headline}");
        assert_eq!(element_text(&dom, "position"), locked_at(&film, n));
        let board = element_text(&dom, "board-text");
        assert_eq!(board.matches('@').count(), 4, "{board}");
        assert_eq!(settled(&board), after[n - 2], "the board before piece {n}");
    }
}
