//! `check --game browser`: a summary ending in `Score = N`, or one JSON object.

use crate::shared::cli::{read_sequence, read_text, stdout_failed, CliError};
use std::io::Write;
use std::path::Path;
use tetris_opt::games::browser::replay::{check_text, JsonReport};

/// What `check --game browser` is asked for.
pub struct CheckOptions<'a> {
    pub sequence: &'a Path,
    pub record: &'a Path,
    pub json: bool,
}

/// Replays a record and prints its report. Returns whether the record is valid (the caller
/// picks the exit code); an invalid record's report is its error and `Score = 0`.
pub fn check(options: &CheckOptions) -> Result<bool, CliError> {
    let sequence = read_sequence(options.sequence)?;
    // A record that cannot be read still gets the last line scripts read, with a zero.
    let text = read_text(options.record, "record file").inspect_err(|e| {
        let mut out = std::io::stdout().lock();
        let _ = if options.json {
            let json = serde_json::to_string(&JsonReport::invalid(e.message.clone()));
            writeln!(out, "{}", json.unwrap_or_default())
        } else {
            writeln!(out, "Score = 0")
        };
    })?;
    let result =
        check_text(&sequence, &text).map_err(|e| e.located(&options.record.display().to_string()));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let printed = match (&result, options.json) {
        (Ok(report), false) => write!(out, "{}", report.summary()),
        (Err(message), false) => {
            writeln!(out, "error: {message}").and_then(|()| writeln!(out, "Score = 0"))
        }
        (_, true) => {
            let json = match &result {
                Ok(report) => JsonReport::of(report),
                Err(message) => JsonReport::invalid(message.clone()),
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
