//! NES Tetris under mutation: its record grammar, the form its record errors must have, and a
//! case through its reader and replay.

use super::findings::{library_case, one_visible_line, progress, wrong, Finding, Tally};
use super::mutate::{mutate, Grammar, Rng};
use super::starts::nes_starts;
use tetris_opt::games::nes;

pub(super) const NES: Grammar = Grammar {
    tokens: &[
        "game nes",
        "game contest",
        "start-level 19",
        "start-level 0",
        "start-level 20",
        "title-wait 0",
        "title-wait 9",
        "title-wait 255",
        "title-wait 256",
        "inputs",
        "inputs 3",
        ".",
        ".*5",
        "R",
        "L",
        "D*4",
        "AB",
        "BD*18",
        "s",
        "U",
        "S",
        "RR",
        "*3",
        "D*",
        ".*0",
        ".*9999999",
        "L*10000001",
        "# comment",
        "game",
        "start-level",
    ],
};

/// The text a quote of [`tetris_opt::kit::text::quote`] shows: its code points (`<U+200B>`) as the
/// characters, without the `...` of a quote cut short.
fn unquote(quote: &str) -> String {
    let shown = quote
        .strip_suffix(tetris_opt::kit::text::CUT)
        .unwrap_or(quote);
    let mut out = String::new();
    let mut rest = shown;
    while let Some(at) = rest.find("<U+") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let code = after.find('>').and_then(|end| {
            let c = u32::from_str_radix(&after[..end], 16)
                .ok()
                .and_then(char::from_u32)?;
            Some((c, end))
        });
        match code {
            Some((c, end)) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push_str("<U+");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Holds an NES record's error to its form (`FILE: line N (token 'T'): message` at the
/// binary): a line of the text, the token on that line, one visible line.
fn check_nes_error(e: &nes::record::RecordError, text: &str) -> Result<(), Finding> {
    let message = e.to_string();
    one_visible_line(&message)?;
    let lines = text.lines().count().max(1);
    if e.line == 0 || e.line > lines {
        return wrong(format!(
            "line {} named, the text has {lines}: {message:?}",
            e.line
        ));
    }
    if let Some(token) = &e.token {
        let line = text.lines().nth(e.line - 1).unwrap_or("");
        if token.is_empty() || !line.contains(unquote(token).as_str()) {
            return wrong(format!(
                "token {token:?} is not on line {}: {message:?}",
                e.line
            ));
        }
    }
    if e.message.is_empty() {
        return wrong("an error without a message");
    }
    one_visible_line(&message)?;
    Ok(())
}

/// Reads and replays one NES record as `check --game nes` does; true when it is valid. With
/// `views`, also the FM2 movie `--fm2` writes.
fn nes_case(text: &str, views: bool) -> Result<bool, Finding> {
    let record = match nes::record::Record::parse(text) {
        Ok(record) => record,
        Err(e) => return check_nes_error(&e, text).map(|()| false),
    };
    let printed = record.to_text(&[]);
    if nes::record::Record::parse(&printed).as_ref() != Ok(&record) {
        return wrong("the record does not read back from its own text");
    }
    if views {
        let _ = nes::fm2::movie(&record);
    }
    let mut locks = 0u64;
    let report = nes::replay::replay_observed(&record, |game, events| {
        if events.locked {
            locks += 1;
            let _ = nes::replay::describe_lock(game, 0);
        }
    });
    if report.frames + report.unplayed_frames != record.frames.len() as u64 {
        return wrong(format!(
            "{} frames played and {} unplayed of {}",
            report.frames,
            report.unplayed_frames,
            record.frames.len()
        ));
    }
    if report.rom_score > report.score || report.rom_score > 999_999 {
        return wrong(format!(
            "ROM score {} of {}",
            report.rom_score, report.score
        ));
    }
    Ok(true)
}

pub(super) fn fuzz_nes(first: u64, cases: u64) -> Tally {
    let starts = nes_starts();
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(2, case);
        let i = rng.below(starts.len());
        let text = mutate(&mut rng, &starts[i], starts, &NES);
        let views = rng.one_in(8);
        let outcome = library_case(|| nes_case(&text, views));
        tally.record(case, &text, outcome);
        progress("nes", case - first, cases);
    }
    tally
}
