//! The replay viewer: one self-contained HTML page that plays a record back piece by piece.
//!
//! The checker stays the only judge: the page replays nothing itself. A [`Film`] is fed the
//! checker's locked pieces (each game turns its replay's steps into [`FilmPiece`]s) and
//! [`Film::page`]
//! embeds, per piece, the board after the turn, where the piece locked, its moves and the running
//! totals; the page's script only decodes and draws them. A board is packed as 20 rows of 10
//! bits, two characters of a 64-letter alphabet per row, so the 10,000 pieces of a full game
//! take about 400 KB and the whole page stays under a megabyte with no network access at all.
//! A settled cell is drawn in the colour of the piece that placed it: the script carries each
//! cell's kind down as the rows under it clear, but only where the turn cleared lines by the
//! checker's count, and only on the cells the checker's board has filled.
//!
//! The page exposes what it shows for tests and scripts: `#piece=N` in the URL opens piece `N`,
//! `#score`, `#lines`, `#filled` and `#piece-number` hold the figures, `#next` the coming
//! pieces' letters, `#board-text` the board drawn as the contest's
//! `Board::picture` draws it, and the board
//! canvas's `data-cells` attribute the same board read back from the canvas pixels, its
//! `data-kinds` the colours read back: a settled cell's kind letter, the current piece's in
//! lower case, `*` for a row being cleared, `.` for an empty cell.

use serde::Serialize;

/// The page around the data; `{{TITLE}}` and `{{FILM}}` are filled in by [`Film::page`].
const TEMPLATE: &str = include_str!("film.html");

/// The 64 letters a board row is written in, six bits each (as the page's script decodes them).
const ALPHABET: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/// The checker's steps, kept as compactly as the page will embed them.
#[derive(Clone, Debug, Default)]
pub struct Film {
    x: Vec<i32>,
    y: Vec<i32>,
    states: String,
    moves: Vec<String>,
    score: Vec<u64>,
    lines: Vec<u64>,
    filled: Vec<u32>,
    /// The board after each turn, [`encode_board`] after [`encode_board`].
    boards: String,
    game_over: Option<&'static str>,
}

impl Film {
    pub fn new() -> Film {
        Film::default()
    }

    /// Number of pieces recorded so far.
    pub fn len(&self) -> usize {
        self.score.len()
    }

    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    /// Records one locked piece: where it locked (`state` indexes the game's offsets, see
    /// [`GamePage::offsets`]), its moves as text, the totals after it, and the board after it
    /// as 20 rows of ten bits (x = 0 lowest), top first. Pass every piece of a replay, in order.
    pub fn observe_piece(&mut self, piece: FilmPiece) {
        self.x.push(piece.x);
        self.y.push(piece.y);
        self.states.push(char::from(b'0' + piece.state));
        self.moves.push(piece.moves);
        self.score.push(piece.score);
        self.lines.push(piece.lines);
        let on_board = || piece.rows.iter().map(|r| r.count_ones()).sum();
        self.filled.push(piece.filled.unwrap_or_else(on_board));
        self.boards.push_str(&encode_rows(&piece.rows));
        self.game_over = piece.game_over;
    }

    /// The page for this replay, with what `game` shows around the film's figures.
    pub fn page(&self, game: GamePage) -> String {
        let data = FilmData {
            title: game.name,
            next_shown: NEXT_SHOWN,
            summary: game.summary,
            kinds: game.kinds,
            offsets: &game.offsets,
            alphabet: std::str::from_utf8(ALPHABET).expect("the alphabet is ASCII"),
            x: &self.x,
            y: &self.y,
            states: &self.states,
            moves: &self.moves,
            score: &self.score,
            lines: &self.lines,
            filled: &self.filled,
            boards: &self.boards,
            game_over: self.game_over,
            error: game.error,
        };
        render(&data, &game.window_title)
    }
}

/// One locked piece, for [`Film::observe_piece`].
pub struct FilmPiece {
    pub x: i32,
    pub y: i32,
    pub state: u8,
    pub moves: String,
    pub score: u64,
    pub lines: u64,
    pub rows: [u16; 20],
    /// The filled cells the page shows: the game's count where it has one (the contest's,
    /// at the moment its clear scores), else the board's.
    pub filled: Option<u32>,
    pub game_over: Option<&'static str>,
}

/// What a page shows around a film's figures, for [`Film::page`].
pub struct GamePage<'a> {
    /// The heading: the record's path as the user gave it.
    pub name: &'a str,
    pub window_title: String,
    /// The one line under the heading, in the checker's words.
    pub summary: String,
    /// The letter of every locked piece and of the coming ones: piece `n` (1-based) is letter
    /// `n - 1`.
    pub kinds: String,
    /// Each kind's cells (`(dx, dy)`) by state, in the page's kind order `ILJTOSZ`.
    pub offsets: [[[(i32, i32); 4]; 4]; 7],
    /// The frame after the last locked piece of an invalid record.
    pub error: Option<FilmError>,
}

/// The page around a film's data.
fn render(data: &FilmData, window_title: &str) -> String {
    let json = serde_json::to_string(data).expect("the film serializes");
    // '<' only occurs inside JSON strings, where \u003c means the same; without it a record's
    // text could close the script element.
    let json = json.replace('<', "\\u003c");
    let (head, rest) = TEMPLATE
        .split_once("{{TITLE}}")
        .expect("the template has a title slot");
    let (middle, tail) = rest
        .split_once("{{FILM}}")
        .expect("the template has a film slot");
    let title = html_escape(window_title);
    let mut page = String::with_capacity(TEMPLATE.len() + title.len() + json.len());
    for part in [head, &title, middle, &json, tail] {
        page.push_str(part);
    }
    page
}

/// How many of the coming pieces the page lists.
pub const NEXT_SHOWN: usize = 5;

/// What the page is fed, one array per figure so the numbers stay small.
#[derive(Serialize)]
struct FilmData<'a> {
    /// The record's path as given, the page's heading.
    title: &'a str,
    /// How many coming pieces to list.
    next_shown: usize,
    summary: String,
    /// Kinds of the pieces shown, as letters: piece `n` (1-based) is letter `n - 1`.
    kinds: String,
    offsets: &'a [[[(i32, i32); 4]; 4]; 7],
    alphabet: &'a str,
    x: &'a [i32],
    y: &'a [i32],
    states: &'a str,
    moves: &'a [String],
    score: &'a [u64],
    lines: &'a [u64],
    filled: &'a [u32],
    boards: &'a str,
    game_over: Option<&'a str>,
    error: Option<FilmError>,
}

/// The frame after the last locked piece of an invalid record.
#[derive(Serialize)]
pub struct FilmError {
    /// 1-based number of the piece the frame shows: the one after the last locked piece.
    pub piece: usize,
    pub message: String,
    pub moves: String,
    /// Where the piece's moves leave it (`[x, y, state]`) when it got that far, e.g. in mid-air.
    pub at: Option<[i32; 3]>,
}

/// Rows of at most twelve bits (x = 0 lowest), top first, two letters each.
pub fn encode_rows(rows: &[u16]) -> String {
    let mut code = String::with_capacity(2 * rows.len());
    for &row in rows {
        let row = row as usize;
        code.push(char::from(ALPHABET[row >> 6]));
        code.push(char::from(ALPHABET[row & 63]));
    }
    code
}

fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The inverse of [`encode_rows`]; `None` for anything it did not write.
pub fn decode_rows(code: &str) -> Option<Vec<u16>> {
    let digits: Vec<usize> = code
        .bytes()
        .map(|b| ALPHABET.iter().position(|&a| a == b))
        .collect::<Option<_>>()?;
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    Some(
        digits
            .chunks(2)
            .map(|pair| (pair[0] << 6 | pair[1]) as u16)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let rows = [0, 1, 0x3FF, 0x155, 0xFFF];
        let code = encode_rows(&rows);
        assert_eq!(code, "0001F_5L__");
        assert_eq!(decode_rows(&code).as_deref(), Some(&rows[..]));
        assert_eq!(decode_rows("0"), None);
        assert_eq!(decode_rows("0!"), None);
    }
}
