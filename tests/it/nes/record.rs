//! The NES record text: every parse error names its line and token, and printing then parsing
//! gives the frames back.

use super::{fixture, start_19_9, HEADER};
use proptest::prelude::*;
use tetris_opt::games::nes::record::{Record, RecordError};
use tetris_opt::games::nes::rules::button;
use tetris_opt::games::nes::start::{max_wait, start, Start};

/// The error of parsing `text`, which must not parse.
fn parse_error(text: &str) -> RecordError {
    match Record::parse(text) {
        Err(e) => e,
        Ok(r) => panic!("{text:?} parsed, {} frames", r.frames.len()),
    }
}

/// Asserts the error names `line` and `token` (in its fields and in its text) and that its
/// message holds `what`.
fn assert_names(e: &RecordError, line: usize, token: Option<&str>, what: &str) {
    assert_eq!(e.line, line, "{e}");
    assert_eq!(e.token.as_deref(), token, "{e}");
    let text = e.to_string();
    assert!(text.starts_with(&format!("line {line}")), "{text}");
    if let Some(t) = token {
        assert!(text.contains(&format!("(token '{t}')")), "{text}");
    }
    assert!(e.message.contains(what), "{what:?} not in {text:?}");
}

#[test]
fn a_letter_that_is_no_button_is_refused_with_its_line_and_token() {
    let e = parse_error(&format!("{HEADER}.*5 R\n. RX .\n"));
    assert_names(&e, 6, Some("RX"), "'X' is not a button");
    // Button letters are case-sensitive: 'r' is no button, 's' is Select.
    let e = parse_error(&format!("{HEADER}r\n"));
    assert_names(&e, 5, Some("r"), "'r' is not a button");
    assert!(Record::parse(&format!("{HEADER}s\n")).is_ok());
}

#[test]
fn start_is_refused_since_it_pauses_the_game() {
    let e = parse_error(&format!("{HEADER}. . S\n"));
    assert_names(&e, 5, Some("S"), "Start pauses the game");
    let e = parse_error(&format!("{HEADER}.\n\nRS*3\n"));
    assert_names(&e, 7, Some("RS*3"), "Start pauses the game");
}

#[test]
fn a_button_named_twice_in_one_token_is_refused() {
    let e = parse_error(&format!("{HEADER}RR\n"));
    assert_names(&e, 5, Some("RR"), "'R' is named twice");
    let e = parse_error(&format!("{HEADER}. LAL*4\n"));
    assert_names(&e, 5, Some("LAL*4"), "'L' is named twice");
}

#[test]
fn a_count_that_is_not_one_or_more_frames_is_refused() {
    for (token, count) in [
        ("R*0", "0"),
        ("R*x", "x"),
        ("R*", ""),
        (".*-1", "-1"),
        ("R*2*3", "2*3"),
        ("R*1.5", "1.5"),
    ] {
        let e = parse_error(&format!("{HEADER}.\n{token}\n"));
        assert_names(
            &e,
            6,
            Some(token),
            &format!("'{count}' is not a count of frames"),
        );
    }
}

#[test]
fn a_header_without_inputs_is_refused() {
    let e = parse_error("game nes\nstart-level 19\ntitle-wait 9\n");
    assert_names(&e, 3, None, "no 'inputs' line");
    let e = parse_error("");
    assert_names(&e, 1, None, "no 'inputs' line");
}

#[test]
fn a_header_without_start_level_or_title_wait_is_refused() {
    let e = parse_error("game nes\ntitle-wait 9\ninputs\n.\n");
    assert_names(&e, 3, None, "no 'start-level N' line");
    let e = parse_error("game nes\nstart-level 19\ninputs\n.\n");
    assert_names(&e, 3, None, "no 'title-wait N' line");
}

#[test]
fn an_unknown_header_key_is_refused_with_its_token() {
    let e = parse_error("game nes\nstart-level 19\nlevel 19\ntitle-wait 9\ninputs\n");
    assert_names(&e, 3, Some("level"), "expected 'game nes'");
    // A key without its value is no key either.
    let e = parse_error("game\nstart-level 19\ntitle-wait 9\ninputs\n");
    assert_names(&e, 1, Some("game"), "starts with the line 'game nes'");
    let e = parse_error("game nes\nstart-level 19 20\ntitle-wait 9\ninputs\n");
    assert_names(&e, 2, Some("start-level"), "takes one value");
}

#[test]
fn bad_header_values_are_refused_with_their_token() {
    let e = parse_error("game nes\nstart-level 20\ntitle-wait 9\ninputs\n");
    assert_names(&e, 2, Some("20"), "start-level must be 0..=19");
    let e = parse_error("game nes\nstart-level x\ntitle-wait 9\ninputs\n");
    assert_names(&e, 2, Some("x"), "start-level must be 0..=19");
    let e = parse_error("game nes\nstart-level 19\ntitle-wait -1\ninputs\n");
    assert_names(&e, 3, Some("-1"), "title-wait must be a whole number");
}

#[test]
fn an_unknown_start_is_refused_naming_the_level_and_the_waits_known() {
    let e = parse_error("game nes\nstart-level 19\ntitle-wait 99999\ninputs\n.\n");
    // The header's own lines (1-4): the start is known only once the header is read.
    assert!((1..=4).contains(&e.line), "{e}");
    for part in ["level 19", "title-wait 99999", "0..=255"] {
        assert!(e.message.contains(part), "{part:?} not in {e}");
    }
    let e = parse_error("game nes\nstart-level 0\ntitle-wait 32\ninputs\n");
    assert!(e.message.contains("0..=31"), "{e}");
}

#[test]
fn an_unknown_start_names_the_title_wait_line_and_token() {
    let e = parse_error("game nes\nstart-level 19\ntitle-wait 99999\ninputs\n.\n");
    assert_names(&e, 3, Some("99999"), "no start is known for level 19");
}

#[test]
fn a_game_other_than_nes_is_refused() {
    let e = parse_error("game tencent\nstart-level 19\ntitle-wait 9\ninputs\n");
    assert_names(
        &e,
        1,
        Some("tencent"),
        "the record must be NES Tetris's (`game nes`)",
    );
    let e = parse_error("# a comment\n\ngame NES\nstart-level 19\ntitle-wait 9\ninputs\n");
    assert_names(
        &e,
        3,
        Some("NES"),
        "did you mean `game nes`? The header is written in lower case",
    );
    // A record of another game keeps its first line, for the binaries to name that game.
    let e = parse_error("game olympiad\n0 0\n");
    assert_names(&e, 1, Some("olympiad"), "the record must be NES Tetris's");
    assert_eq!(e.first_line.as_deref(), Some("game olympiad"));
}

#[test]
fn a_huge_count_is_an_error_not_a_panic() {
    let text = format!("{HEADER}. R*18446744073709551615\n");
    let parsed = std::panic::catch_unwind(|| Record::parse(&text));
    let e = parsed
        .expect("parse must not panic")
        .expect_err("the record holds more frames than the limit");
    assert_names(&e, 5, Some("R*18446744073709551615"), "more than");
}

#[test]
fn a_count_beyond_the_frame_limit_is_refused() {
    let e = parse_error(&format!("{HEADER}.*10000000 R\n"));
    assert_names(&e, 5, Some("R"), "more than 10000000 frames");
    let e = parse_error(&format!("{HEADER}R*10000001\n"));
    assert_names(&e, 5, Some("R*10000001"), "more than");
}

#[test]
fn a_count_without_buttons_is_refused() {
    let e = parse_error(&format!("{HEADER}*5\n"));
    assert_eq!((e.line, e.token.as_deref()), (5, Some("*5")), "{e}");
}

#[test]
fn comments_blank_lines_and_line_breaks_mean_nothing() {
    let a = Record::parse(&format!("{HEADER}.*3 R . RA*2 L\n")).unwrap();
    let b = Record::parse(
        "# made by hand\n\ngame nes   # the game\n start-level 19\ntitle-wait 9\r\ninputs\n.*3\n\nR # right\n. RA*2\r\nL\n",
    )
    .unwrap();
    assert_eq!(a, b);
    use button::*;
    assert_eq!(a.frames, [0, 0, 0, RIGHT, 0, RIGHT | A, RIGHT | A, LEFT]);
    assert_eq!(a.start, start_19_9());
}

#[test]
fn every_letter_reads_as_its_button() {
    let r = Record::parse(&format!("{HEADER}R L D U A B s RLDUABs sBAUDLR .\n")).unwrap();
    use button::*;
    let all = RIGHT | LEFT | DOWN | UP | A | B | SELECT;
    assert_eq!(r.frames, [RIGHT, LEFT, DOWN, UP, A, B, SELECT, all, all, 0]);
}

#[test]
fn the_fixture_prints_back_to_frames_that_parse_the_same() {
    let record = fixture();
    let text = record.to_text(&[]);
    assert_eq!(Record::parse(&text).unwrap(), record);
    // Without cuts: the header then one line of frames.
    assert_eq!(text.lines().count(), 5);
}

/// Buttons a record may press: anything but Start.
fn buttons() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => Just(0u8),
        1 => Just(button::RIGHT),
        1 => Just(button::LEFT | button::A),
        2 => any::<u8>().prop_map(|b| b & !button::START),
    ]
}

/// A start from the table (levels 0..=17 hold title-waits 0..=31, 18 and 19 hold 0..=255).
fn table_start() -> impl Strategy<Value = Start> {
    (0u8..=19)
        .prop_flat_map(|level| {
            (
                Just(level),
                0..=max_wait(level).expect("every level has waits"),
            )
        })
        .prop_map(|(level, wait)| start(level, wait).expect("a wait the table holds"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn to_text_then_parse_gives_the_frames_back(
        start in table_start(),
        runs in prop::collection::vec((buttons(), 1usize..40), 0..60),
        cuts in prop::collection::vec(0usize..2500, 0..30),
    ) {
        let frames: Vec<u8> = runs
            .iter()
            .flat_map(|&(b, n)| std::iter::repeat_n(b, n))
            .collect();
        let record = Record { start, frames };
        // Cuts as given: unsorted, repeated, 0 and past the end are all harmless.
        let text = record.to_text(&cuts);
        prop_assert_eq!(Record::parse(&text).unwrap(), record.clone());
        // Increasing cuts inside the frames: one line per piece.
        let mut sorted: Vec<usize> = cuts
            .iter()
            .copied()
            .filter(|&c| c > 0 && c < record.frames.len())
            .collect();
        sorted.sort_unstable();
        sorted.dedup();
        let text = record.to_text(&sorted);
        prop_assert_eq!(Record::parse(&text).unwrap(), record.clone());
        let lines: Vec<&str> = text.lines().skip(4).collect();
        let expected = if record.frames.is_empty() { 0 } else { sorted.len() + 1 };
        prop_assert_eq!(lines.len(), expected, "{}", text);
        // Each line holds exactly the frames between its cuts.
        let mut bounds = vec![0];
        bounds.extend(&sorted);
        bounds.push(record.frames.len());
        for (line, w) in lines.iter().zip(bounds.windows(2)) {
            let one = Record::parse(&format!("{HEADER}{line}\n")).unwrap();
            prop_assert_eq!(&one.frames[..], &record.frames[w[0]..w[1]]);
        }
    }
}
