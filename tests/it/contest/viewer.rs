//! The replay viewer as a user meets it: `check --html` writes a page, a real browser (headless
//! Chromium) opens it at `#piece=N`, and what the page shows there must be what the checker
//! computed at that piece: the score, the lines, the filled cells and the board, both as the
//! page's text and as read back from the canvas pixels; each settled cell in the colour of the
//! piece that placed it; the next five pieces; the file name and score in the window's title.
//!
//! Without Chromium the browser tests say so and pass, except under CI (`CI=true`), where a
//! missing browser is a failure. `CHROMIUM=/path/to/chromium` picks the browser.

use crate::common::{attribute, chromium, element_text, manifest_dir, opening_tag, unescape};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tetris_opt::games::contest::record::Record;
use tetris_opt::games::contest::replay::replay_observed;
use tetris_opt::games::contest::rules::Rules;
use tetris_opt::games::contest::rules::{Field, Kind, Move, Piece, HEIGHT, WIDTH};
use tetris_opt::kit::sequence::parse_sequence;

fn sequence_path() -> PathBuf {
    manifest_dir().join("inputs/tencent.txt")
}

fn sequence() -> Vec<Kind> {
    let text = std::fs::read_to_string(sequence_path()).expect("inputs/tencent.txt");
    parse_sequence(&text).expect("the contest sequence parses")
}

use crate::common::public_record;

/// The public record with piece `number`'s moves replaced by a single `D1`, which leaves it in
/// mid-air one row under its spawn position.
fn record_dropping_piece_in_mid_air(number: usize) -> String {
    let record = public_record();
    let tokens: Vec<&str> = record.trim().split(',').map(str::trim).collect();
    let starts: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i] == "N").collect();
    let mut out: Vec<&str> = tokens[..=starts[number - 1]].to_vec();
    out.push("D1");
    out.extend_from_slice(&tokens[starts[number]..]);
    out.join(",")
}

/// What the checker knows after one piece.
#[derive(Debug)]
struct Expected {
    score: u64,
    lines: u64,
    filled: u32,
    /// The board with the piece written and marked `@`, as `check --trace` draws it.
    picture: String,
    /// The board after the turn.
    board: Field,
}

fn expected_steps(record: &str) -> Vec<Expected> {
    let record = Record::parse(record).expect("the record parses");
    let mut steps = Vec::new();
    replay_observed(&sequence(), &record, Rules::default(), &mut |step| {
        steps.push(Expected {
            score: step.score,
            lines: step.lines,
            filled: step.turn.filled,
            picture: step.written.picture(Some(&step.piece)),
            board: step.board.clone(),
        })
    });
    steps
}

/// The colours of each frame as the page's `data-kinds` reads them back: the frame of piece `n`
/// shows the cells settled before it, each in the kind of the piece that placed it (carried
/// down as rows clear), the piece in play in lower case, and `*` for a row it completes.
/// Worked out here from the checker's steps, apart from the page's script.
fn expected_kinds(record: &str) -> Vec<String> {
    let record = Record::parse(record).expect("the record parses");
    let cell = |x: i32, y: i32| (y * WIDTH + x) as usize;
    let mut owners: Vec<Option<Kind>> = vec![None; (WIDTH * HEIGHT) as usize];
    let mut frames = Vec::new();
    replay_observed(&sequence(), &record, Rules::default(), &mut |step| {
        let mine = step.piece.cells();
        let full = |y: i32| (0..WIDTH).all(|x| step.written.filled(x, y));
        let rows: Vec<String> = (0..HEIGHT)
            .map(|y| {
                (0..WIDTH)
                    .map(|x| {
                        if mine.contains(&(x, y)) {
                            step.piece.kind.letter().to_ascii_lowercase()
                        } else if !step.written.filled(x, y) {
                            '.'
                        } else if full(y) {
                            '*'
                        } else {
                            owners[cell(x, y)].map_or('?', Kind::letter)
                        }
                    })
                    .collect()
            })
            .collect();
        frames.push(rows.join("/"));

        for (x, y) in mine {
            if y >= 0 {
                owners[cell(x, y)] = Some(step.piece.kind);
            }
        }
        if step.turn.lines > 0 {
            let kept: Vec<i32> = (0..HEIGHT).filter(|&y| !full(y)).collect();
            let mut fallen = vec![None; owners.len()];
            for (to, &y) in (0..HEIGHT).rev().zip(kept.iter().rev()) {
                for x in 0..WIDTH {
                    fallen[cell(x, to)] = owners[cell(x, y)];
                }
            }
            owners = fallen;
        }
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                assert_eq!(owners[cell(x, y)].is_some(), step.board.filled(x, y));
            }
        }
    });
    frames
}

/// The letters of pieces `n + 1 ..= n + 5` (the five after piece `n`), as `#next` lists them.
fn next_five(n: usize) -> String {
    let sequence = sequence();
    let letters: Vec<String> = sequence[n.min(sequence.len())..(n + 5).min(sequence.len())]
        .iter()
        .map(|k| k.letter().to_string())
        .collect();
    letters.join(" ")
}

/// A file of the test's own under Cargo's scratch directory; pages stay there for a look after
/// a failure.
fn scratch(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("viewer-{name}"))
}

/// Runs `check INPUT RECORD --html PAGE` on `record` and returns the page's path and the output.
fn write_page(record: &str, name: &str) -> (PathBuf, Output) {
    let record_path = scratch(&format!("{name}.txt"));
    std::fs::write(&record_path, record).unwrap();
    let page = scratch(&format!("{name}.html"));
    let output = Command::new(env!("CARGO_BIN_EXE_check"))
        .arg(sequence_path())
        .arg(&record_path)
        .arg("--html")
        .arg(&page)
        .output()
        .expect("check runs");
    assert!(page.is_file(), "check wrote no page: {output:?}");
    (page, output)
}

/// The page's DOM after its script ran, opened at `#piece=N`.
fn dump_dom(browser: &Path, page: &Path, piece: usize) -> String {
    let dom = crate::common::dump_dom(browser, page, &format!("#piece={piece}"));
    assert!(
        dom.contains("id=\"board-text\""),
        "the page at piece {piece} has no board"
    );
    dom
}

/// What the page shows, read from its DOM.
#[derive(Debug)]
struct Shown {
    piece_number: usize,
    score: u64,
    lines: u64,
    filled: u32,
    board_text: String,
    /// The canvas read back pixel by pixel, rows joined by '/'.
    canvas_cells: String,
    /// The canvas's colours read back: kinds of settled cells, the piece in play in lower case.
    canvas_kinds: String,
    /// The next pieces' letters.
    next: String,
    /// The window's title.
    title: String,
    /// The error box's text when it is visible.
    error: Option<String>,
}

fn read_page(dom: &str) -> Shown {
    let number = |id: &str| -> u64 {
        let text = element_text(dom, id).replace(',', "");
        text.parse()
            .unwrap_or_else(|_| panic!("#{id} shows '{text}', not a number"))
    };
    let error_tag = opening_tag(dom, "error");
    Shown {
        piece_number: number("piece-number") as usize,
        score: number("score"),
        lines: number("lines"),
        filled: number("filled") as u32,
        board_text: element_text(dom, "board-text"),
        canvas_cells: attribute(opening_tag(dom, "board"), "data-cells"),
        canvas_kinds: attribute(opening_tag(dom, "board"), "data-kinds"),
        next: element_text(dom, "next"),
        title: window_title(dom),
        error: (!error_tag.contains(" hidden")).then(|| element_text(dom, "error")),
    }
}

fn window_title(dom: &str) -> String {
    let start = dom.find("<title>").expect("a <title>") + "<title>".len();
    let end = start + dom[start..].find("</title>").unwrap();
    unescape(&dom[start..end])
}

/// A `Field::picture` drawing in the canvas read-back's form: rows joined by '/', no walls.
fn cells_of(picture: &str) -> String {
    let rows: Vec<&str> = picture.lines().map(|l| l.trim_matches('|')).collect();
    rows.join("/")
}

fn assert_shows(shown: &Shown, piece: usize, expected: &Expected) {
    assert_eq!(shown.piece_number, piece);
    assert_eq!(shown.score, expected.score, "score at piece {piece}");
    assert_eq!(shown.lines, expected.lines, "lines at piece {piece}");
    assert_eq!(
        shown.filled, expected.filled,
        "filled cells at piece {piece}"
    );
    assert_eq!(
        shown.board_text, expected.picture,
        "board text at piece {piece}"
    );
    assert_eq!(
        shown.canvas_cells,
        cells_of(&expected.picture),
        "canvas pixels at piece {piece}"
    );
    assert_eq!(shown.error, None);
}

#[test]
fn the_page_shows_the_checkers_score_and_board() {
    let record = public_record();
    let (page, output) = write_page(&record, "public");
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).ends_with("Score = 1395326\n"));
    let Some(browser) = chromium("viewer browser test") else {
        return;
    };
    let expected = expected_steps(&record);
    assert_eq!(expected.len(), 9_999);
    let kinds = expected_kinds(&record);
    // The first piece after a four-line clear past piece 1,000: colours that fell four rows.
    let after_clear = (1_000..9_999)
        .find(|&i| expected[i].lines - expected[i - 1].lines == 4)
        .unwrap()
        + 2;
    for piece in [1, 500, after_clear, 5_000, 9_999] {
        let shown = read_page(&dump_dom(&browser, &page, piece));
        assert_shows(&shown, piece, &expected[piece - 1]);
        assert_eq!(
            shown.canvas_kinds,
            kinds[piece - 1],
            "colours at piece {piece}"
        );
        assert_eq!(shown.next, next_five(piece), "next pieces at piece {piece}");
        assert_eq!(
            shown.title,
            "viewer-public.txt \u{2014} 1,395,326 \u{2014} tetris-opt"
        );
    }
    // The colours are the kinds': a board of the middle game holds several.
    let settled: std::collections::BTreeSet<char> = kinds[4_999]
        .chars()
        .filter(char::is_ascii_uppercase)
        .collect();
    assert!(settled.len() >= 4, "{settled:?}");
    // The start (an empty board) and a piece past the end (the last piece).
    let start = read_page(&dump_dom(&browser, &page, 0));
    assert_eq!((start.piece_number, start.score), (0, 0));
    assert_eq!(start.board_text, Field::new().picture(None));
    assert_eq!(start.next, next_five(0));
    let past_dom = dump_dom(&browser, &page, 20_000);
    let past = read_page(&past_dom);
    assert_shows(&past, 9_999, &expected[9_998]);
    assert_eq!(element_text(&past_dom, "piece-number"), "9,999");
    assert_eq!(element_text(&past_dom, "piece-count"), "9,999");
    // Opened with no piece asked for: the last piece, the record's result.
    let opened = read_page(&crate::common::dump_dom(&browser, &page, ""));
    assert_shows(&opened, 9_999, &expected[9_998]);
}

#[test]
fn an_invalid_record_plays_up_to_its_error() {
    let record = record_dropping_piece_in_mid_air(120);
    let (page, output) = write_page(&record, "mid-air");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let Some(browser) = chromium("viewer browser test") else {
        return;
    };
    let expected = expected_steps(&record);
    assert_eq!(expected.len(), 119);

    let before = read_page(&dump_dom(&browser, &page, 119));
    assert_shows(&before, 119, &expected[118]);

    // The failing piece is drawn where its moves leave it, on the board piece 119 left.
    let failing = read_page(&dump_dom(&browser, &page, 120));
    let kind = sequence()[119];
    let piece = Piece::spawn(kind, 119).moved(Move::Down);
    let board = &expected[118].board;
    assert!(board.is_valid(&piece));
    let picture = board.picture(Some(&piece));
    assert_eq!(failing.piece_number, 120);
    assert_eq!(failing.score, expected[118].score);
    assert_eq!(failing.lines, expected[118].lines);
    assert_eq!(failing.board_text, picture);
    assert_eq!(failing.canvas_cells, cells_of(&picture));
    assert_eq!(failing.next, next_five(120));
    assert_eq!(
        failing.title,
        "viewer-mid-air.txt \u{2014} 0 (invalid record) \u{2014} tetris-opt"
    );
    let error = failing.error.expect("the error is shown at piece 120");
    assert!(
        error.contains("piece 120") && error.contains("mid-air"),
        "{error}"
    );
    // Nothing lies past the error.
    assert_eq!(read_page(&dump_dom(&browser, &page, 121)).piece_number, 120);
}

/// The window's title is in the page as written, before any script runs; the headline groups
/// its numbers as the panel and the title do.
#[test]
fn the_title_names_the_file_and_the_score() {
    let (page, _) = write_page(&public_record(), "titled");
    let html = std::fs::read_to_string(&page).unwrap();
    let headline = crate::common::film::film_of(&html)["summary"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(headline.starts_with("9,999 pieces locked, "), "{headline}");
    assert!(headline.ends_with(". Score = 1,395,326"), "{headline}");
    assert!(
        html.contains("<title>viewer-titled.txt \u{2014} 1,395,326 \u{2014} tetris-opt</title>"),
        "{}",
        &html[..html.find("</title>").unwrap_or(0) + 8]
    );
}

#[test]
fn the_full_game_page_is_self_contained_and_small() {
    let record = public_record();
    let (page, _) = write_page(&record, "size");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.len() < 1_500_000,
        "the 10,000-piece page takes {} bytes",
        html.len()
    );
    for external in ["http:", "https:", "src=", "href=", "@import", "url("] {
        assert!(!html.contains(external), "the page refers to {external}");
    }
}

#[test]
fn an_unparsable_record_still_gets_a_page() {
    let (page, output) = write_page("N,D1,X3", "unparsable");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("token 3 'X3'"),
        "the page names the bad token"
    );
}

#[test]
fn the_terminal_trace_marks_the_piece() {
    let record = public_record();
    let record_path = scratch("trace.txt");
    std::fs::write(&record_path, &record).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_check"))
        .arg(sequence_path())
        .arg(&record_path)
        .args(["--trace", "--at", "500"])
        .output()
        .expect("check runs");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut lines = stdout.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("piece 500 T "), "{header}");
    assert!(header.ends_with("score 64624, lines 184"), "{header}");
    let picture: String = lines.take(20).map(|l| format!("{l}\n")).collect();
    assert_eq!(picture, expected_steps(&record)[499].picture);
    assert!(stdout.ends_with("Score = 1395326\n"));
}
