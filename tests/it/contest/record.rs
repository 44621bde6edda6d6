//! Move records: every way a record's text can be malformed, and printing then parsing a record
//! gives it back unchanged.

use proptest::prelude::*;
use tetris_opt::games::contest::record::{Record, RecordError, Token};
use tetris_opt::games::contest::replay::replay;
use tetris_opt::games::contest::rules::Rules;
use tetris_opt::games::contest::rules::{Kind, Move};

/// The error of parsing `text`, which must be a `BadToken`, as (token number, token, problem).
fn bad_token(text: &str) -> (usize, String, &'static str) {
    match Record::parse(text) {
        Err(RecordError::BadToken {
            number,
            token,
            problem,
            ..
        }) => (number, token, problem),
        other => panic!("{text:?} parsed as {other:?}"),
    }
}

fn owned(number: usize, token: &str, problem: &'static str) -> (usize, String, &'static str) {
    (number, token.to_string(), problem)
}

#[test]
fn a_token_that_is_not_n_l_r_d_or_c_is_rejected() {
    assert_eq!(
        bad_token("N,C1,X1,D18"),
        owned(3, "X1", "expected N, L, R, D or C")
    );
    // Move letters are upper case only.
    assert_eq!(
        bad_token("N,d18"),
        owned(2, "d18", "expected N, L, R, D or C")
    );
    assert_eq!(
        bad_token("N,D1;N,D1"),
        owned(2, "D1;N", "the count must be a decimal number")
    );
}

#[test]
fn a_move_without_a_count_is_rejected() {
    assert_eq!(
        bad_token("N,C1,L,D18"),
        owned(3, "L", "a move needs a count")
    );
    assert_eq!(
        bad_token("N,D-1"),
        owned(2, "D-1", "the count must be a decimal number")
    );
    assert_eq!(
        bad_token("N,D+1"),
        owned(2, "D+1", "the count must be a decimal number")
    );
}

#[test]
fn a_count_of_0_is_rejected() {
    assert_eq!(
        bad_token("N,C1,L1,D0"),
        owned(4, "D0", "a count must be at least 1")
    );
    assert_eq!(
        bad_token("N,R00"),
        owned(2, "R00", "a count must be at least 1")
    );
}

#[test]
fn n_with_a_number_is_rejected() {
    assert_eq!(
        bad_token("N1,C1,L1,D18"),
        owned(1, "N1", "N never carries a count")
    );
    assert_eq!(
        bad_token("N,D19,N2,D19"),
        owned(3, "N2", "N never carries a count")
    );
}

#[test]
fn an_empty_record_is_rejected() {
    for text in ["", " ", "\n", ",,,", " , \n\t,"] {
        assert_eq!(Record::parse(text), Err(RecordError::Empty), "{text:?}");
    }
}

#[test]
fn a_record_not_starting_with_n_parses_but_does_not_replay() {
    // The form of each token is fine, so parsing accepts it; the replay names the first token.
    let record = Record::parse("C1,L1,D18").unwrap();
    let report = replay(&[Kind::Z], &record, Rules::default());
    assert_eq!(report.final_score(), 0);
    let error = report.error.expect("rejected");
    assert_eq!(error.piece, 1);
    assert_eq!(error.token, Some((1, "C1".to_string())));
    assert_eq!(error.message, "the record must start with N");
    assert_eq!(
        error.to_string(),
        "piece 1 (token 1 'C1'): the record must start with N"
    );
}

#[test]
fn every_error_names_its_piece_and_token() {
    let parse = |text: &str| Record::parse(text).unwrap_err().to_string();
    assert_eq!(
        parse("N,D19,N,R1,D+19"),
        "piece 2 (token 5 'D+19'): the count must be a decimal number, found '+'"
    );
    assert_eq!(parse(" \n"), "piece 1: the record is empty");
    // The replay gives an empty record (one built in code) the same message.
    let report = replay(&[Kind::Z], &Record::default(), Rules::default());
    assert_eq!(
        report.error.map(|e| e.to_string()).as_deref(),
        Some("piece 1: the record is empty")
    );
}

#[test]
fn long_garbage_is_quoted_on_one_short_line() {
    let garbage = format!("N,D1{}", "\u{1}x".repeat(100));
    let (number, token, problem) = bad_token(&garbage);
    assert_eq!((number, problem), (2, "the count must be a decimal number"));
    assert!(!token.chars().any(char::is_control), "{token:?}");
    assert!(token.chars().count() <= 43, "{token:?}");
}

fn any_token() -> impl Strategy<Value = Token> {
    let moves = (
        prop::sample::select(Move::ALL.to_vec()),
        prop_oneof![1u32..=100, 1u32..=u32::MAX],
    )
        .prop_map(|(m, k)| Token::Moves(m, k));
    prop_oneof![1 => Just(Token::Next), 3 => moves]
}

/// Records of the contest's form: `N` first, then any tokens with counts of at least 1.
fn any_record() -> impl Strategy<Value = Record> {
    prop::collection::vec(any_token(), 0..60).prop_map(|rest| {
        let mut tokens = vec![Token::Next];
        tokens.extend(rest);
        Record { tokens }
    })
}

proptest! {
    #[test]
    fn a_printed_record_parses_back_to_itself(record in any_record()) {
        let text = record.to_string();
        prop_assert!(!text.contains(' ') && !text.ends_with(','));
        prop_assert_eq!(Record::parse(&text), Ok(record));
    }

    #[test]
    fn any_mix_of_commas_and_whitespace_separates_tokens(
        record in any_record(),
        separators in prop::collection::vec(
            prop::sample::select(vec![",", " ", "\n", ", ", ",\r\n", "\t,"]), 60),
    ) {
        let mut text = String::new();
        for (i, token) in record.tokens.iter().enumerate() {
            if i > 0 {
                text.push_str(separators[(i - 1) % separators.len()]);
            }
            text.push_str(&token.to_string());
        }
        prop_assert_eq!(Record::parse(&text), Ok(record));
    }
}
