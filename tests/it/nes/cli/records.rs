//! NES records as `check --game nes` reads them: a byte order mark, the header's lines, characters
//! that are no buttons, long tokens quoted cut short, and a record ending on a lock frame.

use super::checking::plain_last_line;
use super::{check, fixture, json_of, HEADER};
use crate::common::{manifest_dir, Scratch};
use std::path::Path;

/// The error line `check --game nes` prints for a record that does not parse (exit 1, then
/// `Score = 0`), without `error: FILE:`: the line, then what is wrong (`5: token 'S': ...`).
fn parse_error(scratch: &Scratch, name: &str, text: &str) -> String {
    let path = scratch.file(name, text);
    let r = check(&[&path]);
    r.assert_no_panic();
    assert_eq!(r.code, Some(1), "{name}: {r:#?}");
    assert_eq!(r.last_line(), "Score = 0", "{name}: {r:#?}");
    let first = r.stdout.lines().next().unwrap_or("");
    first
        .strip_prefix(&format!("error: {}:", path.display()))
        .unwrap_or_else(|| panic!("{name}: the error names the file: {r:#?}"))
        .to_string()
}

#[test]
fn a_record_may_start_with_a_byte_order_mark() {
    let scratch = Scratch::new("nes-bom");
    let text = std::fs::read_to_string(fixture()).unwrap();
    let path = scratch.file("bom.txt", format!("\u{feff}{text}"));
    let r = check(&[&path]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(r.last_line(), plain_last_line(&fixture()));
}

/// A record without its `game nes` line was read, and a header key given twice took its last
/// value.
#[test]
fn the_header_starts_with_game_nes_and_names_each_key_once() {
    let scratch = Scratch::new("nes-header");
    let error = parse_error(
        &scratch,
        "nogame.txt",
        "start-level 19\ntitle-wait 9\ninputs\n.\n",
    );
    assert_eq!(
        error,
        "1: token 'start-level': an NES record starts with the line 'game nes'"
    );
    let error = parse_error(
        &scratch,
        "twice.txt",
        "game nes\nstart-level 19\ntitle-wait 9\n# again\nstart-level 18\ninputs\n.\n",
    );
    assert_eq!(
        error,
        "5: token 'start-level': given twice: the header has it on line 2 already"
    );
    let error = parse_error(&scratch, "game.txt", &format!("game nes\n{HEADER}"));
    assert_eq!(
        error,
        "2: token 'game': given twice: the header has it on line 1 already"
    );
}

/// `'​' is not a button` showed nothing where the character is, and `'.' is not a button
/// (..., or '.' for none)` contradicted itself.
#[test]
fn characters_that_are_not_buttons_are_named_truly() {
    let scratch = Scratch::new("nes-chars");
    let error = parse_error(&scratch, "zwsp.txt", &format!("{HEADER}R\u{200B}\n"));
    assert_eq!(
        error,
        "5: token 'R<U+200B>': U+200B is not a button (R, L, D, U, A, B, s, or '.' for none)"
    );
    let error = parse_error(&scratch, "cyrillic.txt", &format!("{HEADER}\u{41C}\n"));
    assert!(
        error.contains("'\u{41C}' (U+041C) is not a button"),
        "{error}"
    );
    let error = parse_error(&scratch, "dot.txt", &format!("{HEADER}R.\n"));
    assert_eq!(
        error,
        "5: token 'R.': '.' stands alone for a frame with no button; it does not go with buttons"
    );
}

/// A 100,000-digit count was echoed twice in a 200 KB message, and a contest record given to
/// `check --game nes` printed all of its 108 KB.
#[test]
fn long_tokens_are_quoted_cut_short() {
    let scratch = Scratch::new("nes-long");
    let digits = "7".repeat(100_000);
    let error = parse_error(&scratch, "count.txt", &format!("{HEADER}R*{digits}\n"));
    let cut = format!("{}...", "7".repeat(38));
    assert_eq!(
        error,
        format!(
            "5: token 'R*{cut}': '{}...' is not a count of frames (1 or more)",
            "7".repeat(40)
        )
    );
    let contest =
        std::fs::read_to_string(manifest_dir().join("tests/fixtures/public-record-1395326.txt"))
            .unwrap();
    let error = parse_error(&scratch, "contest.txt", &contest);
    assert!(error.len() < 300, "{error}");
    assert!(error.starts_with("1: token '"), "{error}");
    assert!(
        error.contains(
            "...': an NES record starts with the line 'game nes'; that is a record of the \
             contest's game"
        ),
        "{error}"
    );
}

/// A record that ended on a piece's lock frame: `--trace` showed the lock, while the summary,
/// `--json` and `--html` counted one piece fewer (the game writes a piece into the field a few
/// frames after it locks).
#[test]
fn a_record_ending_on_a_lock_frame_counts_that_piece_everywhere() {
    let scratch = Scratch::new("nes-lock-end");
    let long = scratch.file("long.txt", format!("{HEADER}.*300\n"));
    let trace = check(&[&"--trace", &long]);
    let second = trace
        .stdout
        .lines()
        .find(|l| l.starts_with("piece 2 "))
        .unwrap_or_else(|| panic!("a second lock: {trace:#?}"));
    let frame: usize = second
        .split(" on frame ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|f| f.parse().ok())
        .unwrap_or_else(|| panic!("a frame in {second:?}"));
    // Frames from 0: the record's last frame is the lock's.
    let path = scratch.file("r.txt", format!("{HEADER}.*{}\n", frame + 1));

    let trace = check(&[&"--trace", &path]);
    assert_eq!(trace.code, Some(0), "{trace:#?}");
    let locks = trace
        .stdout
        .lines()
        .filter(|l| l.starts_with("piece "))
        .count();
    assert_eq!(locks, 2, "{}", trace.stdout);
    assert!(
        trace.stdout.contains("pieces locked: 2\n"),
        "{}",
        trace.stdout
    );
    let plain = check(&[&path]);
    assert!(plain.stdout.contains("pieces locked: 2\n"), "{plain:#?}");
    let json = check(&[&"--json", &path]);
    assert_eq!(json_of(&json)["pieces_placed"], 2, "{json:#?}");
    let page_of = |record: &Path| {
        let page = scratch.dir.join("r.html");
        let html = check(&[&"--html", &page, &record]);
        assert_eq!(html.code, Some(0), "{html:#?}");
        std::fs::read_to_string(&page).unwrap()
    };
    let page = page_of(&path);
    assert!(page.contains("NES Tetris: 2 pieces"), "the page's summary");
    // The film holds both pieces: one more than a record ending the frame before the lock.
    let before = scratch.file("before.txt", format!("{HEADER}.*{frame}\n"));
    let film_pieces = |page: &str| {
        let count = page.split("\"pieces\":").nth(1).expect("the film's count");
        let digits = count.find(|c: char| !c.is_ascii_digit()).unwrap();
        count[..digits].parse::<usize>().unwrap()
    };
    assert_eq!(film_pieces(&page), film_pieces(&page_of(&before)) + 1);
}

/// `game NES` was refused as another game's record, a record without its `inputs` line
/// called its first frames an unknown key, `title-wait 4294967296` was "not a whole number",
/// and a vertical tab between a header's words went unseen: each header slip is named, at its
/// line.
#[test]
fn header_slips_are_named_at_their_line() {
    let scratch = Scratch::new("nes-header-slips");
    for (name, text, expected) in [
        (
            "case.txt",
            "game NES\nstart-level 19\ntitle-wait 9\ninputs\n.\n",
            "1: token 'NES': did you mean `game nes`? The header is written in lower case",
        ),
        (
            "key-case.txt",
            "# mine\ngame nes\nTitle-Wait 9\nstart-level 19\ninputs\n.\n",
            "3: token 'Title-Wait': did you mean `title-wait`? The header is written in lower case",
        ),
        (
            "no-inputs.txt",
            "game nes\nstart-level 19\ntitle-wait 9\n.*5 R\nL .\n",
            "4: token '.*5': frames before the 'inputs' line: the header ends with a line \
             'inputs', and the frames follow it",
        ),
        (
            "inputs-and-frames.txt",
            "game nes\nstart-level 19\ntitle-wait 9\ninputs .*5 R\n",
            "4: token 'inputs': 'inputs' stands alone on its line; the frames start on the next \
             line",
        ),
        (
            "no-inputs-at-all.txt",
            "game nes\nstart-level 19\ntitle-wait 9\n",
            "3: no 'inputs' line: an NES record is a header, 'inputs', then the frames",
        ),
        (
            "huge-wait.txt",
            "game nes\nstart-level 19\ntitle-wait 4294967296\ninputs\n.\n",
            "3: token '4294967296': no start is known for level 19 with title-wait 4294967296: \
             level 19 has title-wait 0..=255",
        ),
        (
            "negative-wait.txt",
            "game nes\nstart-level 19\ntitle-wait -1\ninputs\n.\n",
            "3: token '-1': title-wait must be a whole number of frames, 0 or more",
        ),
        (
            "no-wait.txt",
            "game nes\nstart-level 19\ntitle-wait\ninputs\n.\n",
            "3: token 'title-wait': 'title-wait' needs its number: 'title-wait N'",
        ),
        (
            "vertical-tab.txt",
            "game nes\nstart-level\u{b}19\ntitle-wait 9\ninputs\n.\n",
            "2: U+000B in the header: separate its words with spaces or tabs",
        ),
        (
            "no-break-space.txt",
            "game\u{a0}nes\nstart-level 19\ntitle-wait 9\ninputs\n.\n",
            "1: U+00A0 in the header: separate its words with spaces or tabs",
        ),
    ] {
        assert_eq!(parse_error(&scratch, name, text), expected, "{name}");
    }
    // Tabs between words and whitespace at a line's end are what a user writes.
    let path = scratch.file(
        "tabs.txt",
        "game nes \u{c}\nstart-level\t19\ntitle-wait 9\t# mine\ninputs\n.\n",
    );
    let r = check(&[&path]);
    assert_eq!(r.code, Some(0), "{r:#?}");
}
