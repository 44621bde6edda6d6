//! NES records: the controller's buttons on every frame from the first frame of the first
//! piece, as run-length text, after a header naming the start.
//!
//! ```text
//! game nes
//! start-level 19
//! title-wait 9
//! inputs
//! .*5 R . R .*30    # one token per run: buttons (or '.') and an optional *count
//! ```
//!
//! The first line that is not a comment is `game nes`; `start-level` and `title-wait` follow
//! in either order, each once, then `inputs` alone. The header is lower case, its words
//! separated by spaces or tabs. Buttons are `R` right, `L` left, `D` down, `U`
//! up, `A`, `B` and `s` select; Start is refused, since it pauses the game. Line breaks
//! between tokens mean nothing; the solver starts a line on each piece's first frame. `#`
//! starts a comment; a byte-order mark at the start is skipped.

use super::rules::button;
use super::start::{self, Start};
use crate::kit::text::{describe_char, quote, strip_byte_order_mark};
use std::fmt;

/// Letters of the buttons a record may press, with their bits.
const LETTERS: [(char, u8); 7] = [
    ('R', button::RIGHT),
    ('L', button::LEFT),
    ('D', button::DOWN),
    ('U', button::UP),
    ('A', button::A),
    ('B', button::B),
    ('s', button::SELECT),
];

/// The most frames a record may hold: about 46 hours of play, far beyond any game.
pub(crate) const MAX_FRAMES: usize = 10_000_000;

/// A parsed NES record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub start: Start,
    /// Buttons per frame.
    pub frames: Vec<u8>,
}

/// Why a record text is not a record: the line (from 1), the token where there is one (as
/// [`quote`] shows it: cut short, what shows nothing spelled out), and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub line: usize,
    pub token: Option<String>,
    pub message: String,
    /// The record's first line, where the error is that it is not the header: another game's
    /// record, perhaps, which the binaries name (they know the games).
    pub first_line: Option<String>,
}

impl RecordError {
    /// The message as the binaries print it, `FILE:LINE: ...` as every game's checker names
    /// a place.
    pub(crate) fn located(&self, file: &str) -> String {
        match &self.token {
            Some(t) => format!("{file}:{}: token '{t}': {}", self.line, self.message),
            None => format!("{file}:{}: {}", self.line, self.message),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.token {
            Some(t) => write!(f, "line {} (token '{t}'): {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

/// The text of the buttons of one frame (`.` for none).
pub(crate) fn buttons_text(buttons: u8) -> String {
    let text: String = LETTERS
        .iter()
        .filter(|(_, bit)| buttons & bit != 0)
        .map(|(c, _)| *c)
        .collect();
    if text.is_empty() {
        ".".to_string()
    } else {
        text
    }
}

fn parse_buttons(text: &str) -> Result<u8, String> {
    if text == "." {
        return Ok(0);
    }
    if text.is_empty() {
        return Err("a run needs its buttons, or '.' for none, before the '*'".to_string());
    }
    let mut bits = 0u8;
    for c in text.chars() {
        if c == 'S' {
            return Err("Start pauses the game; a record may not press it".to_string());
        }
        if c == '.' {
            return Err(
                "'.' stands alone for a frame with no button; it does not go with buttons".into(),
            );
        }
        let bit = LETTERS
            .iter()
            .find(|(l, _)| *l == c)
            .map(|(_, b)| *b)
            .ok_or_else(|| {
                format!(
                    "{} is not a button (R, L, D, U, A, B, s, or '.' for none)",
                    describe_char(c)
                )
            })?;
        if bits & bit != 0 {
            return Err(format!("{} is named twice", describe_char(c)));
        }
        bits |= bit;
    }
    Ok(bits)
}

/// Frames of buttons as a record's tokens: one per run, `*count` for runs longer than one.
pub(crate) fn runs_text(frames: &[u8]) -> String {
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < frames.len() {
        let mut j = i + 1;
        while j < frames.len() && frames[j] == frames[i] {
            j += 1;
        }
        let text = buttons_text(frames[i]);
        tokens.push(if j - i == 1 {
            text
        } else {
            format!("{text}*{}", j - i)
        });
        i = j;
    }
    tokens.join(" ")
}

/// The error of a line, at a token where there is one.
fn error_at(line: usize, token: Option<&str>, message: String) -> RecordError {
    RecordError {
        line,
        token: token.map(quote),
        message,
        first_line: None,
    }
}

/// The header's keys, as a record writes them.
const KEYS: [&str; 4] = ["game", "start-level", "title-wait", "inputs"];

/// A record's header as it is read, line by line, until `inputs`.
#[derive(Default)]
struct Header<'a> {
    level: Option<u8>,
    /// The title-wait, where it fits a number of frames (one too large has no start).
    wait: Option<u32>,
    /// The line and token of title-wait, for the error of a start the table lacks.
    wait_at: Option<(usize, &'a str)>,
    game_seen: bool,
    /// The line of `inputs`, once read: the frames follow it.
    inputs_line: Option<usize>,
    /// The line each header key was given on: a key given twice is refused, not overridden.
    seen: Vec<(&'a str, usize)>,
}

impl<'a> Header<'a> {
    /// Reads one header line (not blank, comment cut, trimmed).
    fn read(&mut self, line: &'a str, line_no: usize) -> Result<(), RecordError> {
        let (key, value) = self.key_and_value(line, line_no)?;
        self.take(key, value, line_no)
    }

    /// The key and value of a header line whose shape is right: its words, the game named
    /// first, no key given twice (noted as seen here).
    fn key_and_value(
        &mut self,
        line: &'a str,
        line_no: usize,
    ) -> Result<(&'a str, Option<&'a str>), RecordError> {
        let err = |token: Option<&str>, message: String| error_at(line_no, token, message);
        // Spaces and tabs separate a header's words; other whitespace (a vertical tab, a
        // no-break space) would make a line read as it does not look.
        if let Some(c) = line
            .chars()
            .find(|&c| c.is_whitespace() && c != ' ' && c != '\t')
        {
            return Err(err(
                None,
                format!(
                    "{} in the header: separate its words with spaces or tabs",
                    describe_char(c)
                ),
            ));
        }
        let mut words = line.split([' ', '\t']).filter(|w| !w.is_empty());
        let key = words.next().unwrap_or("");
        let value = words.next();
        let more = words.next();
        if let Some(known) = KEYS
            .iter()
            .find(|k| k.eq_ignore_ascii_case(key) && **k != key)
        {
            return Err(err(
                Some(key),
                format!("did you mean `{known}`? The header is written in lower case"),
            ));
        }
        let names_the_game = key == "game" && value.is_some();
        if !self.game_seen && !names_the_game {
            return Err(RecordError {
                first_line: Some(line.to_string()),
                ..err(
                    Some(key),
                    "an NES record starts with the line 'game nes'".into(),
                )
            });
        }
        if key == "inputs" && value.is_some() {
            return Err(err(
                Some(key),
                "'inputs' stands alone on its line; the frames start on the next line".into(),
            ));
        }
        if !KEYS.contains(&key) && read_runs(line, line_no, &mut Vec::new()).is_ok() {
            return Err(err(
                Some(key),
                "frames before the 'inputs' line: the header ends with a line 'inputs', and \
                 the frames follow it"
                    .into(),
            ));
        }
        if more.is_some() {
            return Err(err(Some(key), "this line takes one value".into()));
        }
        if let Some(&(_, first)) = self.seen.iter().find(|(k, _)| *k == key) {
            return Err(err(
                Some(key),
                format!("given twice: the header has it on line {first} already"),
            ));
        }
        self.seen.push((key, line_no));
        Ok((key, value))
    }

    /// Takes the value of one header key.
    fn take(
        &mut self,
        key: &'a str,
        value: Option<&'a str>,
        line_no: usize,
    ) -> Result<(), RecordError> {
        let err = |token: Option<&str>, message: String| error_at(line_no, token, message);
        match (key, value) {
            ("inputs", None) => self.inputs_line = Some(line_no),
            ("game", Some("nes")) => self.game_seen = true,
            ("game", Some(other)) if other.eq_ignore_ascii_case("nes") => {
                return Err(err(
                    Some(other),
                    "did you mean `game nes`? The header is written in lower case".into(),
                ));
            }
            ("game", Some(other)) => {
                return Err(RecordError {
                    first_line: Some(format!("game {other}")),
                    ..err(
                        Some(other),
                        "the record must be NES Tetris's (`game nes`)".into(),
                    )
                });
            }
            ("start-level", Some(v)) => {
                self.level = Some(
                    v.parse()
                        .ok()
                        .filter(|&l: &u8| l <= 19)
                        .ok_or_else(|| err(Some(v), "start-level must be 0..=19".into()))?,
                )
            }
            ("title-wait", Some(v)) => {
                if !v.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(err(
                        Some(v),
                        "title-wait must be a whole number of frames, 0 or more".into(),
                    ));
                }
                self.wait_at = Some((line_no, v));
                // Too large a number is left to `finish`, which names the level's range.
                self.wait = v.parse().ok();
            }
            (key @ ("start-level" | "title-wait"), None) => {
                return Err(err(
                    Some(key),
                    format!("'{key}' needs its number: '{key} N'"),
                ))
            }
            (key, _) => {
                return Err(err(
                    Some(key),
                    "expected 'game nes', 'start-level N', 'title-wait N' or 'inputs'".into(),
                ))
            }
        }
        Ok(())
    }

    /// The record of a header read to the end of the text and the frames after it.
    fn finish(self, text: &str, frames: Vec<u8>) -> Result<Record, RecordError> {
        let Some(inputs_line) = self.inputs_line else {
            return Err(RecordError {
                line: text.lines().count().max(1),
                token: None,
                message: "no 'inputs' line: an NES record is a header, 'inputs', then the frames"
                    .into(),
                first_line: None,
            });
        };
        let missing = |what: &str| RecordError {
            line: inputs_line,
            token: None,
            message: format!("the header has no '{what}' line"),
            first_line: None,
        };
        let level = self.level.ok_or_else(|| missing("start-level N"))?;
        let (wait_line, wait_text) = self.wait_at.ok_or_else(|| missing("title-wait N"))?;
        let start = match self.wait {
            Some(wait) => start::start(level, wait),
            None => Err(start::UnknownStart {
                level,
                title_wait: quote(wait_text),
            }),
        };
        let start = start.map_err(|e| RecordError {
            line: wait_line,
            token: Some(quote(wait_text)),
            message: e.to_string(),
            first_line: None,
        })?;
        Ok(Record { start, frames })
    }
}

/// Reads one line of inputs (not blank, comment cut): its runs' frames onto `frames`.
fn read_runs(line: &str, line_no: usize, frames: &mut Vec<u8>) -> Result<(), RecordError> {
    let err = |token: Option<&str>, message: String| error_at(line_no, token, message);
    for token in line.split_whitespace() {
        let (buttons, count) = match token.split_once('*') {
            Some((b, c)) => {
                let digits = !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit());
                let n: usize = c
                    .parse()
                    .ok()
                    .filter(|&n| digits && n >= 1)
                    .ok_or_else(|| {
                        err(
                            Some(token),
                            format!("'{}' is not a count of frames (1 or more)", quote(c)),
                        )
                    })?;
                (b, n)
            }
            None => (token, 1),
        };
        let bits = parse_buttons(buttons).map_err(|m| err(Some(token), m))?;
        if count > MAX_FRAMES - frames.len() {
            return Err(err(
                Some(token),
                format!("the record holds more than {MAX_FRAMES} frames"),
            ));
        }
        frames.extend(std::iter::repeat_n(bits, count));
    }
    Ok(())
}

impl Record {
    /// Parses a record's text.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let text = strip_byte_order_mark(text);
        let mut header = Header::default();
        let mut frames = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if header.inputs_line.is_none() {
                header.read(line, line_no)?;
            } else {
                read_runs(line, line_no, &mut frames)?;
            }
        }
        header.finish(text, frames)
    }

    /// The record's text: the header, then one line per piece where `piece_starts` (frame
    /// indices, increasing) say pieces begin.
    pub fn to_text(&self, piece_starts: &[usize]) -> String {
        let mut out = format!(
            "game nes\nstart-level {}\ntitle-wait {}\ninputs\n",
            self.start.level, self.start.title_wait
        );
        let mut cuts: Vec<usize> = piece_starts.iter().copied().filter(|&c| c > 0).collect();
        cuts.push(self.frames.len());
        let mut from = 0;
        for to in cuts {
            if to <= from || to > self.frames.len() {
                continue;
            }
            out.push_str(&runs_text(&self.frames[from..to]));
            out.push('\n');
            from = to;
        }
        out
    }
}
