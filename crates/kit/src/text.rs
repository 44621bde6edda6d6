//! What every game's readers share about the text a user hands them: the byte-order mark some
//! editors write, how an error message quotes a token (short, and with what shows nothing
//! spelled out), how it names a character, JSON loading that names the field at fault, and
//! how early a record that fails is suspected of being another sequence's.

/// A record that fails by the rules within this many pieces (a piece that does not fit, or
/// locks in mid-air) is likely of another sequence: the moves were made for other pieces.
pub const FIRST_PIECES: usize = 3;

/// The byte-order mark some editors put at the start of a UTF-8 file; it is not part of the
/// text.
pub(crate) const BYTE_ORDER_MARK: char = '\u{feff}';

/// `text` without a byte-order mark at its start (one anywhere else is left to be refused).
pub fn strip_byte_order_mark(text: &str) -> &str {
    text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text)
}

/// The longest quote of a token in a message, in characters, before it is cut short: long
/// enough for any token a record really holds, short enough that garbage (a 100,000-digit
/// count, a whole record of another game on one line) keeps the message on one line.
pub(crate) const QUOTE_LENGTH: usize = 40;

/// What ends a quote that was cut short.
pub const CUT: &str = "...";

/// A token as error messages quote it: at most [`QUOTE_LENGTH`] characters, then `...`, with
/// every character that shows nothing written as its code point (`D1<U+200B>`), so that the
/// quote never looks like a valid token.
pub fn quote(word: &str) -> String {
    quote_at_most(word, QUOTE_LENGTH)
}

/// [`quote`] with the longest quote in characters given.
pub fn quote_at_most(word: &str, length: usize) -> String {
    let mut out = String::new();
    let mut shown_chars = 0;
    for c in word.chars() {
        let shown = if shows_ink(c) {
            c.to_string()
        } else {
            format!("<{}>", code_point(c))
        };
        let count = shown.chars().count();
        if shown_chars + count > length {
            out.push_str(CUT);
            break;
        }
        shown_chars += count;
        out.push_str(&shown);
    }
    out
}

/// A character as an error message names it: printable ASCII quoted; any other character also
/// with its code point, since a look-alike would read as what it is not (`'О' (U+041E)`, a
/// Cyrillic O); a character that shows nothing (a control, a space, a zero-width space) as its
/// code point alone (`U+200B`).
pub fn describe_char(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("'{c}'")
    } else if shows_ink(c) {
        format!("'{c}' ({})", code_point(c))
    } else {
        code_point(c)
    }
}

fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// Whether `c` draws something of its own where it stands. Controls, spaces, the formatting
/// characters that are invisible by design (zero-width spaces and joiners, direction marks,
/// the byte-order mark, fillers, variation selectors, tags) and combining marks (which draw on
/// their neighbour, here the quote) do not.
fn shows_ink(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_graphic();
    }
    let invisible = matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF
        // Combining marks.
        | 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF
        | 0xFE20..=0xFE2F);
    !(invisible || c.is_control() || c.is_whitespace())
}

/// A JSON file that could not be read as the struct it should hold.
#[derive(Debug)]
pub struct JsonError {
    /// Where in the value the error is (`holes`, `a.b[2]`), empty for the whole value.
    pub(crate) path: String,
    pub(crate) inner: serde_json::Error,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A file cut short (a copy that stopped, a brace left out) is a whole-file error:
        // serde's `EOF while parsing a value` names neither a field nor the file's fault.
        if self.inner.is_eof() {
            return write!(
                f,
                "the file ends before its JSON does (line {}, column {}): is it cut short?",
                self.inner.line(),
                self.inner.column()
            );
        }
        // `?` is serde_path_to_error's name for a place it could not reach.
        if self.path.is_empty() || self.path == "." || self.path == "?" {
            write!(f, "{}", self.inner)
        } else {
            write!(f, "{}: {}", self.path, self.inner)
        }
    }
}

impl std::error::Error for JsonError {}

/// Reads a `T` from JSON text (a byte-order mark at the start skipped), the error naming the
/// path of the field at fault: serde alone reports only a line and column.
pub fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    let text = strip_byte_order_mark(text);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| JsonError {
        path: e.path().to_string(),
        inner: e.into_inner(),
    })?;
    de.end().map_err(|inner| JsonError {
        path: String::new(),
        inner,
    })?;
    Ok(value)
}

/// The kind of a JSON value that is not an object, as a message names it (`None` for an
/// object): loaders of named fields refuse the rest, an array above all, which would assign
/// values by position.
pub fn not_an_object(text: &str) -> Option<&'static str> {
    let value: serde_json::Value = serde_json::from_str(strip_byte_order_mark(text)).ok()?;
    (!value.is_object()).then(|| json_kind(&value))
}

/// The kind of the value of `field` in a JSON object where it is given and is neither an
/// object nor null (`None` otherwise): for a field that holds named fields, which serde would
/// also take as an array, assigning them by position.
pub(crate) fn field_not_an_object(text: &str, field: &str) -> Option<&'static str> {
    let value: serde_json::Value = serde_json::from_str(strip_byte_order_mark(text)).ok()?;
    let value = value.get(field)?;
    (!value.is_object() && !value.is_null()).then(|| json_kind(value))
}

/// A JSON value's kind as a message names it.
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Object(_) => "an object",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
    }
}

/// A line as messages quote it: like a token (at most [`QUOTE_LENGTH`] characters, what
/// shows nothing as its code point), except that plain spaces between words stay spaces.
pub fn quote_line(line: &str) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for (i, word) in line.split(' ').enumerate() {
        let quoted = quote(word);
        let separator = usize::from(i > 0);
        // The first word is always shown, cut short by `quote` itself when long.
        if i > 0 && shown + separator + quoted.chars().count() > QUOTE_LENGTH {
            out.push(' ');
            out.push_str(CUT);
            break;
        }
        if i > 0 {
            out.push(' ');
        }
        shown += separator + quoted.chars().count();
        out.push_str(&quoted);
    }
    out
}

/// The game a record's header names (`game nes`), and the 1-based line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHeader {
    pub line: usize,
    /// The game's name as written, quoted as [`quote`] quotes a token.
    pub game: String,
}

/// The game a record's text names on its first line that holds anything but a comment (`#`
/// and what follows it), where that line is `game NAME`: every game's record but the contest's
/// starts so. The word `game` is matched in any case, since a record written `Game NES` is
/// still plainly meant for that game; a byte-order mark at the start is skipped.
pub fn game_header(text: &str) -> Option<GameHeader> {
    let (i, line) = strip_byte_order_mark(text)
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty())?;
    let mut words = line.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(key), Some(game), None) if key.eq_ignore_ascii_case("game") => Some(GameHeader {
            line: i + 1,
            game: quote(game),
        }),
        _ => None,
    }
}

/// Why a record's text has no body: no header line at all (empty or all comments), or a first
/// line that is not the header (as [`quote_line`] quotes it, with its 1-based line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MissingHeader {
    Empty,
    Other { line: usize, found: String },
}

/// The lines of a record's text after its `header` line, each with its 1-based line number:
/// a byte-order mark at the start is skipped, lines whose first non-blank character is `#`
/// are comments, trailing whitespace (and `\r`) is dropped, and so are blank lines at the end,
/// which editors leave and nobody sees.
pub(crate) fn lines_after_header<'a>(
    text: &'a str,
    header: &str,
) -> Result<Vec<(usize, &'a str)>, MissingHeader> {
    let mut lines = strip_byte_order_mark(text)
        .lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw.trim_end()))
        .filter(|(_, line)| !line.trim_start().starts_with('#'));
    match lines.next() {
        None => Err(MissingHeader::Empty),
        Some((_, line)) if line == header => {
            let mut body: Vec<(usize, &str)> = lines.collect();
            while body.last().is_some_and(|(_, line)| line.is_empty()) {
                body.pop();
            }
            Ok(body)
        }
        Some((line, found)) => Err(MissingHeader::Other {
            line,
            found: quote_line(found),
        }),
    }
}

/// What a game's record problem says, given who it is about (`piece 4 (O)`, or nothing for
/// the whole record).
pub trait Problem {
    fn describe(&self, who: &str) -> String;
    /// The problem of a text without its header line.
    fn missing_header(missing: MissingHeader) -> Self;
    /// The record's first line as the reader quotes it, where the problem is that it is not
    /// the header: another game's record, perhaps, which only the layer that knows the games
    /// can name.
    fn first_line(&self) -> Option<&str> {
        None
    }
}

/// A record error of a game whose record names each piece on a line of its own: where (line,
/// piece and its kind where known) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError<P> {
    /// 1-based line of the text.
    pub line: usize,
    /// 1-based piece number, where the error is about a piece.
    pub piece: Option<usize>,
    /// The piece's kind, where the sequence is known.
    pub(crate) kind: Option<crate::piece::Kind>,
    pub problem: P,
}

impl<P: Problem> RecordError<P> {
    /// The error of a text without its header line.
    pub(crate) fn missing_header(missing: MissingHeader) -> Self {
        let line = match missing {
            MissingHeader::Empty => 1,
            MissingHeader::Other { line, .. } => line,
        };
        RecordError {
            line,
            piece: None,
            kind: None,
            problem: P::missing_header(missing),
        }
    }

    /// The error with its piece's kind named from `sequence`, as a replay's errors name it:
    /// a record's reader knows no sequence.
    pub fn naming_kind(mut self, sequence: &[crate::piece::Kind]) -> Self {
        self.kind = self.piece.and_then(|n| sequence.get(n - 1).copied());
        self
    }

    /// The record's first line, where the error is that it is not the header
    /// ([`Problem::first_line`]).
    pub fn first_line(&self) -> Option<&str> {
        self.problem.first_line()
    }

    /// What is wrong, naming the piece and token, without the line.
    pub fn message(&self) -> String {
        let who = match (self.piece, self.kind) {
            (Some(n), Some(k)) => format!("piece {n} ({k})"),
            (Some(n), None) => format!("piece {n}"),
            (None, _) => String::new(),
        };
        self.problem.describe(&who)
    }

    /// The message as the binaries print it: `FILE:LINE: message`.
    pub fn located(&self, file: &str) -> String {
        format!("{file}:{}: {}", self.line, self.message())
    }
}

impl<P: Problem> std::fmt::Display for RecordError<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message())
    }
}

impl<P: Problem + std::fmt::Debug> std::error::Error for RecordError<P> {}

/// A count and its noun, singular for one: `plural(1, "line")` is `1 line`, `plural(3,
/// "line")` is `3 lines`. Every noun the messages count takes a plain `s`.
pub fn plural<N: std::fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Thousands separators, for figures a reader compares by eye.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// [`plural`] with the count's thousands grouped, for the pages a person reads: `10,000
/// pieces`, `1 line`.
pub fn grouped_plural(n: u64, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", grouped(n))
}

#[cfg(test)]
mod tests {
    #[test]
    fn grouped_puts_a_comma_every_three_digits() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(999), "999");
        assert_eq!(super::grouped(1_000), "1,000");
        assert_eq!(super::grouped(1_395_326), "1,395,326");
        assert_eq!(super::grouped_plural(100_000, "piece"), "100,000 pieces");
        assert_eq!(super::grouped_plural(1, "line"), "1 line");
    }

    use super::*;

    #[test]
    fn one_of_a_thing_is_singular() {
        assert_eq!(plural(1usize, "line"), "1 line");
        assert_eq!(plural(0u64, "piece"), "0 pieces");
        assert_eq!(plural(2u32, "frame"), "2 frames");
    }

    #[test]
    fn a_records_game_is_read_from_its_first_line_that_is_not_a_comment() {
        let header = |line, game: &str| {
            Some(GameHeader {
                line,
                game: game.to_string(),
            })
        };
        assert_eq!(game_header("game nes\nstart-level 19\n"), header(1, "nes"));
        assert_eq!(
            game_header("\u{feff}# mine\n\n  game olympiad  # note\n0 0\n"),
            header(3, "olympiad")
        );
        assert_eq!(game_header("Game NES\n"), header(1, "NES"));
        assert_eq!(game_header("N,C1,L1,D18\n"), None);
        assert_eq!(game_header("game\n"), None);
        assert_eq!(game_header("game nes extra\n"), None);
        assert_eq!(game_header("# only a comment\n"), None);
    }

    #[test]
    fn blank_lines_at_the_end_of_a_record_are_no_lines_of_it() {
        let body = |text| lines_after_header(text, "game g").unwrap();
        assert_eq!(body("game g\n0 0\n\n \t\n\r\n"), [(2, "0 0")]);
        assert_eq!(body("game g\n0 0\n\n# end\n\n"), [(2, "0 0")]);
        assert_eq!(body("game g\n\n0 0  \n"), [(2, ""), (3, "0 0")]);
        assert_eq!(body("game g\n\n"), []);
    }

    #[test]
    fn characters_that_are_not_plain_ascii_are_named_by_code_point() {
        assert_eq!(describe_char('X'), "'X'");
        assert_eq!(describe_char('\u{41E}'), "'\u{41E}' (U+041E)");
        assert_eq!(describe_char('\u{200B}'), "U+200B");
        assert_eq!(describe_char('\u{7}'), "U+0007");
        assert_eq!(describe_char(' '), "U+0020");
        assert_eq!(describe_char('\u{301}'), "U+0301");
        assert_eq!(describe_char('\u{1F600}'), "'\u{1F600}' (U+1F600)");
    }

    #[test]
    fn quotes_are_cut_at_forty_characters() {
        assert_eq!(quote("D1\u{200B}"), "D1<U+200B>");
        assert_eq!(quote(&"7".repeat(40)), "7".repeat(40));
        assert_eq!(
            quote(&"7".repeat(100_000)),
            format!("{}...", "7".repeat(40))
        );
        assert_eq!(
            quote(&"\u{1}".repeat(9)),
            format!("{}...", "<U+0001>".repeat(5))
        );
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Two {
        #[allow(dead_code)]
        a: f64,
        #[allow(dead_code)]
        b: f64,
    }

    #[test]
    fn json_errors_name_the_field_and_a_byte_order_mark_is_skipped() {
        assert!(from_json::<Two>("\u{feff}{\"a\": 1, \"b\": 2}").is_ok());
        let error = |text: &str| from_json::<Two>(text).unwrap_err().to_string();
        assert!(error("{\"a\": 1, \"b\": \"x\"}").starts_with("b: invalid type"));
        assert!(error("{\"a\": 1, \"b\": 1e999}").starts_with("b: number out of range"));
        assert!(error("{\"a\": 1, \"b\": 2} x").starts_with("trailing characters"));
        assert_eq!(
            error("{\"a\": 1,\n \"b\""),
            "the file ends before its JSON does (line 2, column 4): is it cut short?"
        );
        assert_eq!(not_an_object("[1, 2]"), Some("an array"));
        assert_eq!(field_not_an_object("{\"a\": [1]}", "a"), Some("an array"));
        assert_eq!(field_not_an_object("{\"a\": {}}", "a"), None);
        assert_eq!(field_not_an_object("{\"a\": null}", "a"), None);
        assert_eq!(not_an_object("\u{feff}{}"), None);
    }
}
