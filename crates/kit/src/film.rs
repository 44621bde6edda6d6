//! The replay viewer: one self-contained HTML page that plays a record back piece by piece.
//!
//! The checker stays the judge of every board the page shows. A [`Film`] is fed the checker's
//! locked pieces (each game turns its replay's steps into [`FilmPiece`]s) and [`Film::page`]
//! embeds, per piece, where it locked, its moves, the running totals and the board after it,
//! all in a few bytes: numbers as deltas from the piece before in a variable-length code of a
//! 64-letter alphabet, moves as indices into a table of the distinct texts, and boards as
//! corrections only. The page rebuilds each board by writing the piece's cells and removing
//! full rows; wherever the checker's board differs from that (an olympiad fall, a game's last
//! piece), the film carries the rows that differ, so the page shows the checker's boards
//! exactly. A 100,000-piece olympiad game takes about 0.8 MB.
//!
//! A settled cell is drawn in the colour of the piece that placed it: the script carries each
//! cell's kind down as the rows under it clear, and where a correction moved cells (a fall)
//! hands each column's kinds to its cells in order, only ever on the cells the checker's board
//! has filled.
//!
//! Under the score chart a game may have the page draw the fill at each lock ([`FillChart`]: the
//! contest's record against the fluid model's best play), with a legend (`#fill-legend`) and
//! its caption (`#fill-caption`); both charts share the x axis, the pieces, and the cursor.
//!
//! The page exposes what it shows for tests and scripts: `#piece=N` in the URL opens piece `N`,
//! `#score`, `#lines`, `#filled` and `#piece-number` hold the figures, `#position` the game's
//! "Locked at" line, `#next` the coming pieces' letters (as many as the game shows), `#field-NAME`
//! a game's own figure in the panel (the NES's level), `#board-text` the board drawn as the
//! contest's `Board::picture` draws it, and the board canvas's `data-cells` attribute the same
//! board read back from the canvas pixels, its `data-kinds` the colours read back: a settled
//! cell's kind letter, the current piece's in lower case, `*` for a row being cleared, `.` for
//! an empty cell. The next pieces' canvas has in `data-shapes` each piece as read back from its
//! pixels, in the state it spawns in (`#../###`: rows top first, `#` a cell).

mod chart;

pub use chart::{FillChart, FillLine};
use serde::Serialize;
use std::collections::HashMap;

/// The page around the data; `{{TITLE}}`, `{{FILM}}` and `{{SCRIPT}}` are filled in by
/// [`Film::page`].
const TEMPLATE: &str = include_str!("film.html");
/// The page's script, which decodes the film and draws it: the charts' part, then the rest.
const SCRIPT: &str = concat!(include_str!("film/chart.js"), include_str!("film.js"));

/// The 64 letters the film's codes are written in, six bits each (as the page's script decodes
/// them).
const ALPHABET: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/// The board's width and height as the page draws it.
const W: usize = 10;
const H: usize = 20;

/// A column of numbers, one a piece, each written as its difference from the one before.
#[derive(Clone, Debug, Default)]
struct Column {
    code: String,
    last: i64,
}

impl Column {
    fn push(&mut self, value: i64) {
        push_signed(&mut self.code, value - self.last);
        self.last = value;
    }

    /// The code, empty for a column of zeros (as the page reads a missing number).
    fn code(&self) -> &str {
        if self.code.bytes().all(|b| b == b'0') {
            ""
        } else {
            &self.code
        }
    }
}

/// `value` in five-bit groups, lowest first, one letter each; the sixth bit says another follows.
fn push_unsigned(code: &mut String, mut value: u64) {
    loop {
        let low = (value & 31) as usize;
        value >>= 5;
        let more = if value > 0 { 32 } else { 0 };
        code.push(char::from(ALPHABET[low | more]));
        if value == 0 {
            return;
        }
    }
}

/// `value` zig-zagged: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// [`zigzag`] then [`push_unsigned`].
fn push_signed(code: &mut String, value: i64) {
    push_unsigned(code, zigzag(value));
}

/// The checker's steps, kept as compactly as the page will embed them.
#[derive(Clone, Debug, Default)]
pub struct Film {
    x: Column,
    y: Column,
    state: Column,
    /// The game's own figures of each piece (see [`FilmPiece::fields`]), by name.
    fields: Vec<(&'static str, Column)>,
    score: Column,
    lines: Column,
    /// The filled cells shown less those of the board after the piece.
    filled: Column,
    moves: Vec<String>,
    /// Where each piece locked (`x`, `y`, state) and the board after it, for the corrections
    /// [`Film::page`] works out once it knows the kinds.
    placed: Vec<(i32, i32, u8, [u16; H])>,
    game_over: Option<&'static str>,
}

impl Film {
    pub fn new() -> Film {
        Film::default()
    }

    /// Number of pieces recorded so far.
    pub fn len(&self) -> usize {
        self.placed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.placed.is_empty()
    }

    /// Records one locked piece: where it locked (`state` indexes the game's offsets, see
    /// [`GamePage::offsets`]), the game's own figures of it, its moves as text, the totals after
    /// it, and the board after it as 20 rows of ten bits (x = 0 lowest), top first. Pass every
    /// piece of a replay, in order, each with the same field names.
    pub fn observe_piece(&mut self, piece: FilmPiece) {
        self.x.push(i64::from(piece.x));
        self.y.push(i64::from(piece.y));
        self.state.push(i64::from(piece.state));
        for (k, &(name, value)) in piece.fields.iter().enumerate() {
            if k == self.fields.len() {
                self.fields.push((name, Column::default()));
            }
            assert_eq!(self.fields[k].0, name, "every piece names the same fields");
            self.fields[k].1.push(value);
        }
        self.moves.push(piece.moves);
        self.score.push(piece.score as i64);
        self.lines.push(piece.lines as i64);
        let on_board: u32 = piece.rows.iter().map(|r| r.count_ones()).sum();
        let filled = piece.filled.unwrap_or(on_board);
        self.filled.push(i64::from(filled) - i64::from(on_board));
        self.placed
            .push((piece.x, piece.y, piece.state, piece.rows));
        self.game_over = piece.game_over;
    }

    /// The page for this replay, with what `game` shows around the film's figures.
    pub fn page(&self, game: GamePage) -> String {
        let (moves_table, moves) = moves_code(&self.moves);
        let data = FilmData {
            title: game.name,
            next_shown: game.next_shown,
            spawn_states: match game.spawn {
                Spawn::ByIndex => None,
                Spawn::ByKind(states) => Some(states),
            },
            panel: game.panel,
            summary: game.summary,
            offsets: &game.offsets,
            alphabet: std::str::from_utf8(ALPHABET).expect("the alphabet is ASCII"),
            pieces: self.len(),
            locked_at: game.locked_at,
            x: self.x.code(),
            y: self.y.code(),
            state: self.state.code(),
            fields: self
                .fields
                .iter()
                .map(|(n, c)| (*n, c.code.as_str()))
                .collect(),
            score: self.score.code(),
            lines: self.lines.code(),
            filled: self.filled.code(),
            moves_table,
            moves,
            fixes: self.fixes(&game.kinds, &game.offsets),
            kinds: game.kinds,
            game_over: self.game_over,
            error: game.error,
            fill_chart: game.fill_chart,
        };
        render(&data, &game.window_title)
    }

    /// The corrections to the boards the page rebuilds: for each piece after which the
    /// checker's board is not the one before with the piece's cells written and full rows
    /// removed, the gap to the piece before's correction, how many rows differ, and each such
    /// row and the bits that differ.
    fn fixes(&self, kinds: &str, offsets: &[[[(i32, i32); 4]; 4]; 7]) -> String {
        let mut code = String::new();
        let mut board = [0u16; H];
        let mut next = 0;
        let kinds = kinds.as_bytes();
        for (i, &(x, y, state, after)) in self.placed.iter().enumerate() {
            let cells = kinds
                .get(i)
                .and_then(|&k| KINDS.iter().position(|&c| c == k))
                .map_or([(0, 0); 4], |k| offsets[k][usize::from(state) % 4]);
            let predicted = predict(&board, cells.map(|(dx, dy)| (x + dx, y + dy)));
            let differ: Vec<usize> = (0..H).filter(|&r| predicted[r] != after[r]).collect();
            if !differ.is_empty() {
                push_unsigned(&mut code, (i - next) as u64);
                push_unsigned(&mut code, differ.len() as u64);
                for r in differ {
                    push_unsigned(&mut code, r as u64);
                    push_unsigned(&mut code, u64::from(predicted[r] ^ after[r]));
                }
                next = i + 1;
            }
            board = after;
        }
        code
    }
}

/// The kinds in the order of [`GamePage::offsets`].
const KINDS: &[u8; 7] = b"ILJTOSZ";

/// The board the page rebuilds after a piece: `board` with `cells` written (those inside it)
/// and its full rows removed, the rows above moving down.
fn predict(board: &[u16; H], cells: [(i32, i32); 4]) -> [u16; H] {
    let mut rows = *board;
    for (x, y) in cells {
        if (0..W as i32).contains(&x) && (0..H as i32).contains(&y) {
            rows[y as usize] |= 1 << x;
        }
    }
    let full = (1u16 << W) - 1;
    let kept: Vec<u16> = rows.iter().copied().filter(|&r| r != full).collect();
    let mut out = [0u16; H];
    out[H - kept.len()..].copy_from_slice(&kept);
    out
}

/// The distinct moves' texts, most frequent first, and each piece's index into them.
fn moves_code(moves: &[String]) -> (Vec<&str>, String) {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for m in moves {
        *counts.entry(m.as_str()).or_default() += 1;
    }
    let mut table: Vec<&str> = counts.keys().copied().collect();
    table.sort_by(|a, b| counts[b].cmp(&counts[a]).then(a.cmp(b)));
    let index: HashMap<&str, usize> = table.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let mut code = String::new();
    for m in moves {
        push_unsigned(&mut code, index[m.as_str()] as u64);
    }
    (table, code)
}

/// One locked piece, for [`Film::observe_piece`].
pub struct FilmPiece {
    /// Where the page draws the piece: `offsets[kind][state]` moved by `(x, y)`, `y` down.
    pub x: i32,
    pub y: i32,
    pub state: u8,
    /// The game's own figures of where the piece locked, by name, for its
    /// [`GamePage::locked_at`] line (the NES's orientation id and lock frame, say).
    pub fields: Vec<(&'static str, i64)>,
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
    /// How many of the coming pieces the page lists and draws, as the game shows them.
    pub next_shown: usize,
    /// The state the coming pieces are drawn in: the one each spawns in.
    pub spawn: Spawn,
    /// The game's own figures the panel shows after "Lines", one row each.
    pub panel: Vec<PanelRow>,
    /// The "Locked at" line in the game's words: `{x}`, `{y}`, `{state}` and `{name}` of each
    /// of [`FilmPiece::fields`] stand for the piece's figures (`?` where the frame has none).
    pub locked_at: &'static str,
    /// The frame after the last locked piece of an invalid record.
    pub error: Option<FilmError>,
    /// The chart of the fill at each lock the page draws under the score's, where the game
    /// gives one.
    pub fill_chart: Option<FillChart>,
}

/// The page around a film's data.
fn render(data: &FilmData, window_title: &str) -> String {
    let json = serde_json::to_string(data).expect("the film serializes");
    // '<' only occurs inside JSON strings, where \u003c means the same; without it a record's
    // text could close the script element.
    let json = json.replace('<', "\\u003c");
    let title = html_escape(window_title);
    let mut page = String::with_capacity(TEMPLATE.len() + SCRIPT.len() + json.len());
    let mut rest = TEMPLATE;
    for (slot, part) in [
        ("{{TITLE}}", &title[..]),
        ("{{FILM}}", &json),
        ("{{SCRIPT}}", SCRIPT),
    ] {
        let (head, tail) = rest.split_once(slot).expect("the template has the slot");
        page.push_str(head);
        page.push_str(part);
        rest = tail;
    }
    page.push_str(rest);
    page
}

/// How many of the coming pieces the page lists where the game shows several.
pub const NEXT_SHOWN: usize = 5;

/// The state (an index into [`GamePage::offsets`]) a piece spawns in.
#[derive(Clone, Copy, Debug)]
pub enum Spawn {
    /// Piece `n` (0-based) spawns in state `n % 4`, whatever its kind (the contest's game).
    ByIndex,
    /// Each kind spawns in one state, by kind in the page's order `ILJTOSZ`.
    ByKind([u8; 7]),
}

/// A row of the page's panel that shows one of a game's own figures
/// ([`FilmPiece::fields`]).
#[derive(Clone, Debug, Serialize)]
pub struct PanelRow {
    /// What the panel calls it ("Level").
    pub label: &'static str,
    /// The field's name among the pieces' fields; the row's value cell has the id `field-NAME`.
    pub field: &'static str,
    /// Its value at the start, before the first piece.
    pub start: i64,
}

/// What the page is fed: the codes of [`Film`], a string each.
#[derive(Serialize)]
struct FilmData<'a> {
    /// The record's path as given, the page's heading.
    title: &'a str,
    /// How many coming pieces to list.
    next_shown: usize,
    /// Each kind's spawn state in the order `ILJTOSZ`; none where piece `n` spawns in state
    /// `n % 4`.
    spawn_states: Option<[u8; 7]>,
    panel: Vec<PanelRow>,
    summary: String,
    /// Kinds of the pieces shown, as letters: piece `n` (1-based) is letter `n - 1`.
    kinds: String,
    offsets: &'a [[[(i32, i32); 4]; 4]; 7],
    alphabet: &'a str,
    /// How many pieces locked.
    pieces: usize,
    locked_at: &'a str,
    x: &'a str,
    y: &'a str,
    state: &'a str,
    fields: Vec<(&'a str, &'a str)>,
    score: &'a str,
    lines: &'a str,
    filled: &'a str,
    moves_table: Vec<&'a str>,
    moves: String,
    fixes: String,
    game_over: Option<&'a str>,
    error: Option<FilmError>,
    fill_chart: Option<FillChart>,
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

    #[test]
    fn numbers_are_written_as_few_letters() {
        let mut code = String::new();
        for v in [0, -1, 1, 15, -16, 16, 1000] {
            push_signed(&mut code, v);
        }
        assert_eq!(code, "012UVW1m-1");
    }

    #[test]
    fn the_predicted_board_removes_full_rows() {
        let mut board = [0u16; H];
        board[H - 1] = 0x3F0;
        board[H - 2] = 0x001;
        let after = predict(&board, [(0, 19), (1, 19), (2, 19), (3, 19)]);
        assert_eq!(after[H - 1], 0x001);
        assert_eq!(after[H - 2], 0);
    }
}
