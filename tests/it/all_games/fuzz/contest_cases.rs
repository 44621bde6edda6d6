//! The contest's game (contest) under mutation: its record and sequence grammars, the forms
//! its record and sequence errors must have, and a case through its readers and replays.

use super::findings::{library_case, one_visible_line, progress, wrong, Finding, Tally};
use super::mutate::{mutate, Grammar, Rng};
use super::starts::contest_starts;
use tetris_opt::games::contest;
use tetris_opt::games::contest::record::Record;
use tetris_opt::games::contest::replay::{replay_observed, End, ReplayError};
use tetris_opt::games::contest::rules::{Kind, LockMode, Rules};
use tetris_opt::games::contest::stats::Stats;
use tetris_opt::kit::film::Film;
use tetris_opt::kit::scorecard::Reason;
use tetris_opt::kit::sequence::{parse_sequence, SequenceError};
use tetris_opt::kit::text::quote_at_most;

pub(super) const TENCENT: Grammar = Grammar {
    tokens: &[
        "N",
        "N",
        "D1",
        "D19",
        "D18",
        "L1",
        "L4",
        "R1",
        "R5",
        "C1",
        "C3",
        "D100",
        "D101",
        "L0",
        "N1",
        "N2",
        "X3",
        "d1",
        "D",
        "C",
        "DD1",
        "D1D1",
        "N,N",
        "D01",
        "D4294967296",
        "D-1",
    ],
};

pub(super) const SEQUENCE: Grammar = Grammar {
    tokens: &[
        "I",
        "L",
        "J",
        "T",
        "O",
        "S",
        "Z",
        "i",
        "z",
        "X",
        "0",
        "# comment",
        "#",
        "IJLOSTZ",
    ],
};

/// The words of a record as its format splits them (commas and/or whitespace; a byte-order
/// mark at the start is not part of the text).
fn contest_words(text: &str) -> Vec<&str> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Holds an invalid record's error to its documented form (`check --help`): `piece N (token T
/// 'X'): message`, N the piece token T belongs to and X that token as the record writes it (or
/// as the replay names it), or `piece 1: the record is empty` for a record of no token.
fn check_contest_error(e: &ReplayError, words: &[&str]) -> Result<(), Finding> {
    let message = e.to_string();
    one_visible_line(&message)?;
    let Some((number, quote)) = &e.token else {
        if message == "piece 1: the record is empty" && words.is_empty() {
            return Ok(());
        }
        return wrong(format!("no token named: {message:?}"));
    };
    let expected = format!("piece {} (token {number} '{quote}'): ", e.piece);
    if !message.starts_with(&expected) || e.message.is_empty() {
        return wrong(format!(
            "not of the form `piece N (token T 'X'): ...`: {message:?}"
        ));
    }
    let Some(word) = number.checked_sub(1).and_then(|i| words.get(i)) else {
        return wrong(format!(
            "token {number} named, the record has {} tokens: {message:?}",
            words.len()
        ));
    };
    let piece = words[..*number]
        .iter()
        .filter(|w| w.starts_with('N'))
        .count()
        .max(1);
    if e.piece != piece {
        return wrong(format!(
            "token {number} belongs to piece {piece}, the error names piece {}: {message:?}",
            e.piece
        ));
    }
    // The quote is the token as written, or (for a replay error) the same token as printed.
    let same_token =
        || matches!((Record::parse(word), Record::parse(quote)), (Ok(a), Ok(b)) if a == b);
    if *quote != quote_at_most(word, 40) && !same_token() {
        return wrong(format!(
            "token {number} is {word:?}, the error quotes {quote:?}"
        ));
    }
    Ok(())
}

/// Holds a sequence file's error to its form: `line L, column C: ...` naming the character
/// there, or that it holds no pieces.
pub(super) fn check_sequence_error(e: &SequenceError, text: &str) -> Result<(), Finding> {
    let message = e.to_string();
    one_visible_line(&message)?;
    match e {
        SequenceError::Empty => Ok(()),
        SequenceError::BadCharacter {
            line,
            column,
            found,
        } => {
            let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
            let there = (line.checked_sub(1).and_then(|l| text.lines().nth(l)))
                .and_then(|l| column.checked_sub(1).and_then(|c| l.chars().nth(c)));
            if there != Some(*found) {
                return wrong(format!(
                    "line {line}, column {column} holds {there:?}, the error names {found:?}"
                ));
            }
            Ok(())
        }
    }
}

/// The rules a record is replayed by: strict, judge, and strict with a short piece limit.
const TENCENT_RULES: [Rules; 3] = [
    Rules {
        piece_limit: 10_000,
        lock: LockMode::Strict,
    },
    Rules {
        piece_limit: 10_000,
        lock: LockMode::Judge,
    },
    Rules {
        piece_limit: 12,
        lock: LockMode::Strict,
    },
];

/// Reads and replays one record as `check` does; true when some rules find it valid.
///
/// With `views`, also what `check --trace --stats --html` make of each step: the board's
/// picture, the breakdown and the viewer's page.
fn contest_case(sequence: &[Kind], text: &str, views: bool) -> Result<bool, Finding> {
    let words = contest_words(text);
    let record = match Record::parse(text) {
        Ok(record) => record,
        Err(e) => {
            check_contest_error(&ReplayError::from(e.clone()), &words)?;
            if e.to_string() != ReplayError::from(e).to_string() {
                return wrong("a parse error reads differently as a replay error");
            }
            return Ok(false);
        }
    };
    let printed = record.to_string();
    if Record::parse(&printed).as_ref() != Ok(&record) {
        return wrong(format!(
            "the record does not read back from its own text {printed:?}"
        ));
    }
    let mut valid = false;
    for rules in TENCENT_RULES {
        let mut observed = 0;
        let mut film = Film::new();
        let mut locks = Vec::new();
        let mut stats = Stats::default();
        let report = replay_observed(sequence, &record, rules, &mut |step| {
            observed += 1;
            if views {
                let _ = step.written.picture(Some(&step.piece));
                film.observe_piece(contest::film::piece(step));
                locks.push(contest::film::lock(step));
                stats.observe(step);
            }
        });
        if observed != report.pieces_locked {
            return wrong("the observer saw a different number of pieces than the report");
        }
        if views {
            // The fill chart of the record's locks alone: the fluid model's play beside them is
            // held by the chart's own tests (contest::fill_chart).
            let chart = contest::film::fill_chart(&locks, &stats, None);
            let _ = contest::film::page(
                &film,
                sequence,
                Some(&record),
                rules,
                &report,
                "record.txt",
                Some(chart),
            );
            let _ = stats.to_string();
        }
        match &report.error {
            Some(e) => {
                check_contest_error(e, &words)?;
                if report.end != End::Invalid || report.final_score() != 0 {
                    return wrong(format!(
                        "an invalid record ends {} scoring {}",
                        report.end,
                        report.final_score()
                    ));
                }
            }
            None => {
                valid = true;
                if report.end == End::Invalid || report.pieces_locked > record.piece_count() {
                    return wrong(format!("a valid record ends {}", report.end));
                }
            }
        }
        let card = report.scorecard(sequence.len(), rules);
        let refused = card.end.reason == Reason::Invalid;
        if refused == report.valid() || card.score != report.final_score() {
            return wrong("the scorecard disagrees with the report");
        }
    }
    Ok(valid)
}

/// A sequence file read as `check` reads it, and a record replayed on it.
fn contest_sequence_case(text: &str, record: &str) -> Result<bool, Finding> {
    match parse_sequence(text) {
        Ok(sequence) => contest_case(&sequence, record, false),
        Err(e) => check_sequence_error(&e, text).map(|()| false),
    }
}

/// Runs `cases` library cases of the contest's game from case `first`.
pub(super) fn fuzz_contest(first: u64, cases: u64) -> Tally {
    let starts = contest_starts();
    let sequences: Vec<Vec<Kind>> = starts
        .iter()
        .map(|s| parse_sequence(&s.sequence).unwrap())
        .collect();
    let records: Vec<String> = starts.iter().map(|s| s.record.clone()).collect();
    let sequence_texts: Vec<String> = starts.iter().map(|s| s.sequence.clone()).collect();
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(1, case);
        let i = rng.below(starts.len());
        if rng.one_in(6) {
            let text = mutate(&mut rng, &sequence_texts[i], &sequence_texts, &SEQUENCE);
            let outcome = library_case(|| contest_sequence_case(&text, &records[i]));
            tally.record(case, &format!("sequence file {text:?}"), outcome);
        } else {
            let text = mutate(&mut rng, &records[i], &records, &TENCENT);
            let views = rng.one_in(8);
            let outcome = library_case(|| contest_case(&sequences[i], &text, views));
            tally.record(case, &text, outcome);
        }
        progress("contest", case - first, cases);
    }
    tally
}
