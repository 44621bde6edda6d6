//! `check` for the games whose records are checked against a sequence file alone (the browser
//! game, the olympiad's): a summary ending in `Score = N`, or one JSON object.

use crate::shared::cli::write_file;
use crate::shared::cli::{read_sequence, read_text, stdout_failed, CliError};
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use tetris_opt::games::tencent::rules::Kind;

/// What `check --game G` is asked for.
pub struct CheckOptions<'a> {
    pub sequence: &'a Path,
    pub record: &'a Path,
    pub json: bool,
    /// Where to write the viewer's page (the games that have one).
    pub html: Option<&'a Path>,
}

/// How one game checks a record's text and reports it.
pub trait PlainCheck {
    type Report;
    type Json: Serialize;
    /// Replays the text on the sequence; the error is the message naming `file`.
    fn check(sequence: &[Kind], text: &str, file: &str) -> Result<Self::Report, String>;
    fn summary(report: &Self::Report) -> String;
    fn json(report: &Self::Report) -> Self::Json;
    fn invalid(message: String) -> Self::Json;
    /// The viewer's page of the record's text, named `file` (None: the text does not parse,
    /// and the page would show nothing).
    fn page(_sequence: &[Kind], _text: &str, _file: &str) -> Option<String> {
        None
    }
}

/// Replays a record and prints its report. Returns whether the record is valid (the caller
/// picks the exit code); an invalid record's report is its error and `Score = 0`.
pub fn check<G: PlainCheck>(options: &CheckOptions) -> Result<bool, CliError> {
    let sequence = read_sequence(options.sequence)?;
    // A record that cannot be read still gets the last line scripts read, with a zero.
    let text = read_text(options.record, "record file").inspect_err(|e| {
        let mut out = std::io::stdout().lock();
        let _ = if options.json {
            let json = serde_json::to_string(&G::invalid(e.message.clone()));
            writeln!(out, "{}", json.unwrap_or_default())
        } else {
            writeln!(out, "Score = 0")
        };
    })?;
    let file = options.record.display().to_string();
    let result = G::check(&sequence, &text, &file);
    if let Some(path) = options.html {
        if let Some(page) = G::page(&sequence, &text, &file) {
            write_file("--html", path, page)?;
        }
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let printed = match (&result, options.json) {
        (Ok(report), false) => write!(out, "{}", G::summary(report)),
        (Err(message), false) => {
            writeln!(out, "error: {message}").and_then(|()| writeln!(out, "Score = 0"))
        }
        (_, true) => {
            let json = match &result {
                Ok(report) => G::json(report),
                Err(message) => G::invalid(message.clone()),
            };
            serde_json::to_string(&json)
                .map_err(std::io::Error::other)
                .and_then(|json| writeln!(out, "{json}"))
        }
    };
    printed
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failed(e, "the report"))?;
    Ok(result.is_ok())
}

/// A game's [`PlainCheck`] from its `replay` module (`check_text`, `Report::summary`,
/// `JsonReport`), and its page where it has one.
macro_rules! plain_check {
    ($(#[$doc:meta])* $name:ident, $game:ident $(, page: $page:expr)?) => {
        $(#[$doc])*
        pub struct $name;

        impl PlainCheck for $name {
            type Report = tetris_opt::games::$game::replay::Report;
            type Json = tetris_opt::games::$game::replay::JsonReport;
            fn check(sequence: &[Kind], text: &str, file: &str) -> Result<Self::Report, String> {
                tetris_opt::games::$game::replay::check_text(sequence, text)
                    .map_err(|e| e.located(file))
            }
            fn summary(report: &Self::Report) -> String {
                report.summary()
            }
            fn json(report: &Self::Report) -> Self::Json {
                Self::Json::of(report)
            }
            fn invalid(message: String) -> Self::Json {
                Self::Json::invalid(message)
            }
            $(fn page(sequence: &[Kind], text: &str, file: &str) -> Option<String> {
                let page: fn(&[Kind], &str, &str) -> Option<String> = $page;
                page(sequence, text, file)
            })?
        }
    };
}

plain_check!(
    /// The browser game's check.
    Browser,
    browser
);

plain_check!(
    /// The olympiad's check, with its viewer page.
    Olympiad,
    olympiad,
    page: |sequence, text, file| {
        let record = tetris_opt::games::olympiad::record::Record::parse(text).ok()?;
        Some(tetris_opt::games::olympiad::film::page(sequence, &record, file))
    }
);
