//! `check` on records it must refuse: every kind of malformed record (exit 1, or 2 for a file
//! that is not text; one error line naming the piece and token; `Score = 0` last; never a panic),
//! the error form `check --help` documents, and unusable input files.

use super::{assert_invalid, assert_one_error_line, check, json_report, CHECK, OPENING};
use crate::common::{public_record, run, tencent_input, Scratch};

#[test]
fn rejects_a_bad_token() {
    assert_invalid(
        "N,C1,X1,D18",
        &[],
        &["piece 1 (token 3 'X1'): expected N, L, R, D or C, found 'X'"],
    );
}

#[test]
fn rejects_a_move_without_a_count() {
    assert_invalid(
        "N,C1,L,D18",
        &[],
        &["piece 1 (token 3 'L'): a move needs a count"],
    );
}

#[test]
fn rejects_a_count_of_0() {
    assert_invalid(
        "N,C1,L1,D0",
        &[],
        &["piece 1 (token 4 'D0'): a count must be at least 1"],
    );
}

#[test]
fn rejects_a_piece_with_101_moves() {
    assert_invalid("N,C1,L1,D18,L81", &[], &["piece 1", "101 moves"]);
    // 100 is fine.
    assert_eq!(check("N,C1,L1,D18,L80", &[]).code, Some(0));
}

#[test]
fn rejects_a_lock_in_mid_air_unless_judging() {
    assert_invalid("N,C1,L1,D17", &[], &["piece 1", "mid-air"]);
    let judged = check("N,C1,L1,D17", &["--judge"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert_eq!(judged.last_line(), "Score = 0");
}

#[test]
fn rejects_a_record_not_starting_with_n() {
    assert_invalid(
        "C1,L1,D18",
        &[],
        &["piece 1 (token 1 'C1'): the record must start with N"],
    );
}

/// The form scripts can rely on is in `check --help`.
#[test]
fn help_documents_the_error_form() {
    let help = run(CHECK, &[&"--help"]);
    assert_eq!(help.code, Some(0), "{help:#?}");
    let text = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("The contest's is of the form `piece N (token T 'X'): message`"),
        "{}",
        help.stdout
    );
    assert!(text.contains("`error: piece 1: the record is empty`"));
    assert!(text.contains("their errors name the file and the line first"));
}

/// A token that does not parse is placed in its piece, as the replay's errors are.
#[test]
fn a_token_that_does_not_parse_names_its_piece() {
    assert_invalid(
        "N,C1,L1,D18,N,R1,D+19",
        &[],
        &["piece 2 (token 7 'D+19'): the count must be a decimal number, found '+'"],
    );
    assert_invalid(
        "N,D19,N2,D19",
        &[],
        &["piece 2 (token 3 'N2'): N never carries a count"],
    );
}

#[test]
fn rejects_n_with_a_number() {
    assert_invalid(
        "N1,C1,L1,D18",
        &[],
        &["piece 1 (token 1 'N1'): N never carries a count"],
    );
}

#[test]
fn rejects_an_empty_file() {
    assert_invalid("", &[], &["piece 1: the record is empty"]);
    assert_invalid(" \n", &[], &["piece 1: the record is empty"]);
}

/// Not UTF-8 at all: 0xFF can never appear in UTF-8.
const BINARY: &[u8] = b"\xff\xfeN,\x00\x9f\x80D1\n\xc3";

#[test]
fn a_record_file_that_is_not_text_is_unusable() {
    let run = check(BINARY, &[]);
    assert_one_error_line(&run, 2, &["record file", "is not text"]);
}

/// A file that is not text is read as no record: no score is given, as none was judged.
#[test]
fn a_record_file_that_is_not_text_gets_no_score() {
    for args in [&[][..], &["--json"]] {
        let run = check(BINARY, args);
        assert_eq!(run.code, Some(2));
        assert_eq!(run.stdout, "", "{run:#?}");
    }
}

#[test]
fn garbage_that_is_text_is_an_invalid_record_on_one_line() {
    // Control characters and a line separator inside a token must not break the error line.
    let garbage = "N,D1\u{0}\u{7}\r\u{1b}[2J\u{2028}xyz";
    assert_invalid(garbage, &[], &["piece 1 (token 2 "]);
}

#[test]
fn rejects_moves_after_the_game_ended_unless_judging() {
    // With a limit of 2 the second piece ends the game; the third follows the end.
    assert_invalid(
        OPENING,
        &["--piece-limit", "2"],
        &["piece 3", "moves after the game ended"],
    );
    let judged = check(OPENING, &["--piece-limit", "2", "--judge"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert!(judged
        .stdout
        .contains("end: game over at piece 2: piece limit reached"));
    assert_eq!(judged.last_line(), "Score = 0");
}

#[test]
fn rejects_a_10001st_piece_on_the_contest_sequence() {
    let text = public_record();
    let over = format!("{},N,D20,N,D20", text.trim());
    assert_invalid(
        over.as_str(),
        &[],
        &["piece 10001", "moves after the game ended"],
    );
    let judged = check(&over, &["--judge"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert_eq!(judged.last_line(), "Score = 1395326");
}

/// The public record with its `index`-th token (0-based) replaced by `token`.
fn with_token(text: &str, index: usize, token: &str) -> String {
    let mut tokens: Vec<&str> = text.trim().split(',').collect();
    tokens[index] = token;
    tokens.join(",")
}

#[test]
fn errors_deep_in_the_public_record_name_their_token_and_piece() {
    let text = public_record();
    let tokens: Vec<&str> = text.trim().split(',').collect();
    // Token 5000 (1-based) replaced by garbage.
    let bad = with_token(&text, 4_999, "Q7");
    let piece = tokens[..4_999].iter().filter(|t| **t == "N").count();
    assert_invalid(
        bad.as_str(),
        &[],
        &[&format!(
            "piece {piece} (token 5000 'Q7'): expected N, L, R, D or C, found 'Q'"
        )],
    );

    // The first piece locks one row higher in mid-air (its D18 lands it; D17 does not); the
    // judge accepts that and plays on.
    assert_eq!(tokens[3], "D18");
    let raised = with_token(&text, 3, "D17");
    assert_invalid(
        raised.as_str(),
        &[],
        &["piece 1 (token 4 'D17')", "mid-air"],
    );
    let judged = check(&raised, &["--judge", "--json"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert_eq!(json_report(&judged)["valid"], true);

    // The last piece given 101 moves.
    let last_n = tokens.iter().rposition(|t| *t == "N").unwrap();
    let piece = tokens.iter().filter(|t| **t == "N").count();
    let moves: u32 = tokens[last_n + 1..]
        .iter()
        .map(|t| t[1..].parse::<u32>().unwrap())
        .sum();
    let padded = format!("{},L{}", text.trim(), 101 - moves);
    assert_invalid(
        padded.as_str(),
        &[],
        &[&format!("piece {piece} "), "101 moves"],
    );
}

#[test]
fn a_missing_file_is_unusable() {
    let scratch = Scratch::new("missing");
    let absent = scratch.dir.join("no-such-file.txt");
    let record = scratch.file("record.txt", OPENING);
    let run1 = run(CHECK, &[&absent, &record]);
    assert_one_error_line(&run1, 2, &["cannot read sequence file", "no-such-file.txt"]);
    let input = tencent_input();
    let run2 = run(CHECK, &[&input, &absent]);
    assert_one_error_line(&run2, 2, &["cannot read record file", "no-such-file.txt"]);
}

#[test]
fn a_sequence_with_a_bad_letter_is_unusable_and_the_error_names_line_and_column() {
    let scratch = Scratch::new("badseq");
    let sequence = scratch.file("seq.txt", "# a comment\nZIO\nSLX\n");
    let record = scratch.file("record.txt", OPENING);
    let run = run(CHECK, &[&sequence, &record]);
    assert_one_error_line(&run, 2, &["seq.txt", "line 3, column 3", "'X'"]);
    assert_eq!(run.stdout, "");
}

/// Some editors start a UTF-8 file with a byte-order mark; it is not part of the text.
#[test]
fn a_byte_order_mark_at_the_start_of_either_file_is_skipped() {
    let scratch = Scratch::new("bom");
    let sequence = scratch.file("seq.txt", "\u{feff}ZIOSL\n");
    let record = scratch.file("record.txt", format!("\u{feff}{OPENING}\n"));
    let r = run(CHECK, &[&sequence, &record]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(r.stdout.contains("pieces locked: 3"), "{r:#?}");
    assert_eq!(r.last_line(), "Score = 0");
}

/// A look-alike (a Cyrillic or Greek letter for a Latin one) or an invisible character (a
/// zero-width space) reads as what it is not; the error names it by code point.
#[test]
fn look_alike_and_invisible_characters_are_named_by_code_point() {
    // A Cyrillic C (U+0421) for the rotation.
    assert_invalid(
        "N,\u{421}1,L1,D18",
        &[],
        &["piece 1 (token 2 '\u{421}1'): expected N, L, R, D or C, found '\u{421}' (U+0421)"],
    );
    // A zero-width space inside a count: the quote shows it too.
    assert_invalid(
        "N,C1,L1,D1\u{200B}8",
        &[],
        &["piece 1 (token 4 'D1<U+200B>8'): the count must be a decimal number, found U+200B"],
    );
    // A byte-order mark that is not at the start (two files joined) is a character like any.
    assert_invalid(
        format!("{OPENING},\u{feff}N,D1").as_str(),
        &[],
        &["piece 3 (token 11 '<U+FEFF>N'): expected N, L, R, D or C, found U+FEFF"],
    );

    let scratch = Scratch::new("look-alike");
    let record = scratch.file("record.txt", OPENING);
    for (text, named) in [
        (
            "ZI\u{41E}S\n",
            "column 3: '\u{41E}' (U+041E) is not a piece letter",
        ),
        ("ZIO\u{200B}S\n", "column 4: U+200B is not a piece letter"),
        ("ZIO\u{1b}S\n", "column 4: U+001B is not a piece letter"),
    ] {
        let sequence = scratch.file("seq.txt", text);
        let r = run(CHECK, &[&sequence, &record]);
        assert_one_error_line(&r, 2, &["seq.txt", "line 1", named]);
    }
}
