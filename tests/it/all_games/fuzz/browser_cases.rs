//! The browser game under mutation: its record grammar, the form its record errors must have,
//! and a case through its readers and replay.

use super::contest_cases::{check_sequence_error, SEQUENCE};
use super::findings::{library_case, one_visible_line, progress, wrong, Finding, Tally};
use super::mutate::{mutate, Grammar, Rng};
use super::starts::browser_starts;
use tetris_opt::games::browser;
use tetris_opt::games::contest::rules::Kind;
use tetris_opt::kit::scorecard::ReplayReport;
use tetris_opt::kit::sequence::parse_sequence;
use tetris_opt::kit::text::quote_at_most;

pub(super) const BROWSER: Grammar = Grammar {
    tokens: &[
        "game browser",
        "game  browser",
        "Game browser",
        "game browser x",
        "L",
        "R",
        "D",
        "U",
        "D18",
        "D19",
        "R999",
        "D1000",
        "L0",
        "D01",
        "X",
        "U4",
        "",
        "# comment",
        "D65536",
        "L\u{200B}",
    ],
};

/// Holds a browser record's error to its form (`FILE:LINE: message` at the binary): a line of
/// the text, the piece and its kind named where the sequence has it, a token as written.
fn check_browser_error(
    e: &browser::record::RecordError,
    sequence: &[Kind],
    text: &str,
) -> Result<(), Finding> {
    let message = e.to_string();
    one_visible_line(&message)?;
    let lines = text.lines().count().max(1);
    if e.line == 0 || e.line > lines {
        return wrong(format!(
            "line {} named, the text has {lines}: {message:?}",
            e.line
        ));
    }
    if e.located("f") != format!("f:{}: {}", e.line, e.message()) {
        return wrong(format!(
            "not of the form `FILE:LINE: ...`: {:?}",
            e.located("f")
        ));
    }
    if let Some(n) = e.piece {
        let who = match sequence.get(n.wrapping_sub(1)) {
            Some(kind) => format!("piece {n} ({kind})"),
            None => format!("piece {n}"),
        };
        if !e.message().starts_with(&who) {
            return wrong(format!(
                "the message does not start with {who:?}: {message:?}"
            ));
        }
    }
    if let browser::record::Problem::Token { number, token, .. } = &e.problem {
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        // The reader drops what ends a line (spaces, `\r`) before it splits it.
        let line = text.lines().nth(e.line - 1).unwrap_or("").trim_end();
        let word = number
            .checked_sub(1)
            .and_then(|k| line.split_ascii_whitespace().nth(k));
        if word.map(|w| quote_at_most(w, 40)).as_ref() != Some(token) {
            return wrong(format!(
                "token {number} of line {} is {word:?}, the error quotes {token:?}",
                e.line
            ));
        }
    }
    Ok(())
}

/// Reads and replays one browser record as `check --game browser` does.
fn browser_case(sequence: &[Kind], text: &str) -> Result<bool, Finding> {
    let report = match browser::replay::check_text(sequence, text) {
        Ok(report) => report,
        Err(e) => return check_browser_error(&e, sequence, text).map(|()| false),
    };
    let record = browser::record::Record::parse(text)
        .map_err(|e| Finding::Wrong(format!("check_text accepts a record parse refuses: {e}")))?;
    let printed = record.to_string();
    match browser::record::Record::parse(&printed) {
        Ok(again) if again.pieces == record.pieces => {}
        _ => {
            return wrong(format!(
                "the record does not read back from its own text {printed:?}"
            ))
        }
    }
    if report.pieces_placed > record.pieces.len() {
        return wrong(format!(
            "{} pieces placed by {} lines",
            report.pieces_placed,
            record.pieces.len()
        ));
    }
    let card = report.scorecard();
    if card.score != report.points || card.pieces_placed != report.pieces_placed as u64 {
        return wrong("the scorecard disagrees with the report");
    }
    Ok(true)
}

fn browser_sequence_case(text: &str, record: &str) -> Result<bool, Finding> {
    match parse_sequence(text) {
        Ok(sequence) => browser_case(&sequence, record),
        Err(e) => check_sequence_error(&e, text).map(|()| false),
    }
}

pub(super) fn fuzz_browser(first: u64, cases: u64) -> Tally {
    let starts = browser_starts();
    let sequences: Vec<Vec<Kind>> = starts
        .iter()
        .map(|s| parse_sequence(&s.sequence).unwrap())
        .collect();
    let records: Vec<String> = starts.iter().map(|s| s.record.clone()).collect();
    let sequence_texts: Vec<String> = starts.iter().map(|s| s.sequence.clone()).collect();
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(3, case);
        let i = rng.below(starts.len());
        if rng.one_in(6) {
            let text = mutate(&mut rng, &sequence_texts[i], &sequence_texts, &SEQUENCE);
            let outcome = library_case(|| browser_sequence_case(&text, &records[i]));
            tally.record(case, &format!("sequence file {text:?}"), outcome);
        } else {
            let text = mutate(&mut rng, &records[i], &records, &BROWSER);
            let outcome = library_case(|| browser_case(&sequences[i], &text));
            tally.record(case, &text, outcome);
        }
        progress("browser", case - first, cases);
    }
    tally
}
