//! The replay viewer: one self-contained HTML page that plays a record back piece by piece.
//!
//! The checker stays the only judge: the page replays nothing itself. A [`Film`] is fed the
//! checker's steps (it is the `observe` callback of [`replay_observed`]) and [`Film::page`]
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
//! pieces' letters, `#board-text` the board drawn as [`Board::picture`] draws it, and the board
//! canvas's `data-cells` attribute the same board read back from the canvas pixels, its
//! `data-kinds` the colours read back: a settled cell's kind letter, the current piece's in
//! lower case, `*` for a row being cleared, `.` for an empty cell.

use crate::games::tencent::record::{Record, Token};
use crate::games::tencent::replay::{replay_observed, Report, Step};
use crate::games::tencent::rules::{Board, Kind, LockMode, Piece, Rules, HEIGHT, OFFSETS, WIDTH};
use serde::Serialize;

/// The page around the data; `{{TITLE}}` and `{{FILM}}` are filled in by [`Film::page`].
const TEMPLATE: &str = include_str!("viewer.html");

/// The 64 letters a board row is written in, six bits each (as the page's script decodes them).
const ALPHABET: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

const _: () = assert!(WIDTH <= 12, "a row must fit the two letters of its code");

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

    /// Records one locked piece; pass it every step of a replay, in order.
    pub fn observe(&mut self, step: &Step) {
        debug_assert_eq!(step.index, self.len(), "steps must come in order");
        self.x.push(step.piece.x);
        self.y.push(step.piece.y);
        self.states.push(char::from(b'0' + step.piece.state));
        self.moves.push(tokens_text(step.moves));
        self.score.push(step.score);
        self.lines.push(step.lines);
        self.filled.push(step.turn.filled);
        self.boards.push_str(&encode_board(step.board));
        self.game_over = step.turn.game_over.map(|reason| reason.describe());
    }

    /// Records one locked piece of another game (NES Tetris): where it locked (`state` indexes
    /// the game's offsets, see [`Film::page_for_game`]), its input as text, the totals after
    /// it, and the field after it as 20 rows of ten bits, top first.
    pub fn observe_piece(&mut self, piece: FilmPiece) {
        self.x.push(piece.x);
        self.y.push(piece.y);
        self.states.push(char::from(b'0' + piece.state));
        self.moves.push(piece.moves);
        self.score.push(piece.score);
        self.lines.push(piece.lines);
        self.filled
            .push(piece.rows.iter().map(|r| r.count_ones()).sum());
        self.boards.push_str(&encode_rows(&piece.rows));
        self.game_over = piece.game_over;
    }

    /// The page for a replay of another game: `kinds` holds the letter of every locked piece
    /// and the coming ones, `offsets` each kind's cells (`(dx, dy)`) by state in the page's
    /// kind order `ILJTOSZ`.
    pub fn page_for_game(&self, game: GamePage) -> String {
        let around = Around {
            title: game.name,
            summary: game.summary,
            kinds: game.kinds,
            offsets: &game.offsets,
            error: None,
        };
        render(&self.data(around), &game.window_title)
    }

    /// The page's data: this film's figures inside what the page shows around them.
    fn data<'a>(&'a self, around: Around<'a>) -> FilmData<'a> {
        FilmData {
            title: around.title,
            next_shown: NEXT_SHOWN,
            summary: around.summary,
            kinds: around.kinds,
            offsets: around.offsets,
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
            error: around.error,
        }
    }

    /// The page for this replay. `record` is the parsed record (`None` when it did not parse),
    /// `rules` and `report` those of the replay that filled this film, `name` the record's path
    /// as the user gave it: the page's heading, and its file name with the score the window's
    /// title (`moves.txt — 1,440,290 — tetris-opt`).
    pub fn page(
        &self,
        sequence: &[Kind],
        record: Option<&Record>,
        rules: Rules,
        report: &Report,
        name: &str,
    ) -> String {
        let error = report.error.as_ref().map(|e| {
            // The frame after the last locked piece: the failing piece for a replay error;
            // for a record that did not parse, the start (the message names the piece).
            let piece = self.len() + 1;
            let tokens = record.map_or(&[][..], |r| piece_tokens(r, piece));
            FilmError {
                piece,
                message: e.to_string(),
                moves: tokens_text(tokens),
                at: record
                    .and_then(|r| failed_piece(sequence, r, rules, piece))
                    .map(|p| [p.x, p.y, p.state as i32]),
            }
        });
        // The current piece and the next ones the page lists, up to the last frame's.
        let shown = (self.len() + 1 + NEXT_SHOWN).min(sequence.len());
        let around = Around {
            title: name,
            summary: summary(report, rules),
            kinds: sequence[..shown].iter().map(|k| k.letter()).collect(),
            offsets: &OFFSETS,
            error,
        };
        render(&self.data(around), &window_title(name, report))
    }
}

/// What a page shows around a film's figures: the heading, the summary, the pieces' letters,
/// their shapes and the error of an invalid record.
struct Around<'a> {
    title: &'a str,
    summary: String,
    kinds: String,
    offsets: &'a [[[(i32, i32); 4]; 4]; 7],
    error: Option<FilmError>,
}

/// One locked piece of another game, for [`Film::observe_piece`].
pub struct FilmPiece {
    pub x: i32,
    pub y: i32,
    pub state: u8,
    pub moves: String,
    pub score: u64,
    pub lines: u64,
    pub rows: [u16; 20],
    pub game_over: Option<&'static str>,
}

/// What the page of another game shows around the film, for [`Film::page_for_game`].
pub struct GamePage<'a> {
    pub name: &'a str,
    pub window_title: String,
    pub summary: String,
    pub kinds: String,
    pub offsets: [[[(i32, i32); 4]; 4]; 7],
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

/// The window's title: the record's file name, its score and the tool.
fn window_title(name: &str, report: &Report) -> String {
    let file = match std::path::Path::new(name).file_name() {
        _ if name == "-" => "standard input".into(),
        Some(file) => file.to_string_lossy(),
        None => name.into(),
    };
    let score = crate::games::tencent::stats::grouped(report.final_score());
    let invalid = if report.valid() {
        ""
    } else {
        " (invalid record)"
    };
    format!("{file} \u{2014} {score}{invalid} \u{2014} tetris-opt")
}

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
struct FilmError {
    /// 1-based number of the piece the frame shows: the one after the last locked piece.
    piece: usize,
    message: String,
    moves: String,
    /// Where the piece's moves leave it (`[x, y, state]`) when it got that far, e.g. in mid-air.
    at: Option<[i32; 3]>,
}

/// A board as 20 rows, top first, each row's cells as bits (x = 0 lowest) written in two letters.
pub fn encode_board(board: &Board) -> String {
    let rows: Vec<u16> = (0..HEIGHT)
        .map(|y| {
            (0..WIDTH)
                .filter(|&x| board.filled(x, y))
                .fold(0u16, |row, x| row | 1 << x)
        })
        .collect();
    encode_rows(&rows)
}

/// Rows of ten bits (x = 0 lowest), top first, as [`encode_board`] writes a board.
fn encode_rows(rows: &[u16]) -> String {
    let mut code = String::with_capacity(2 * rows.len());
    for &row in rows {
        let row = row as usize;
        code.push(char::from(ALPHABET[row >> 6]));
        code.push(char::from(ALPHABET[row & 63]));
    }
    code
}

/// The inverse of [`encode_board`]; `None` for anything it did not write.
pub fn decode_board(code: &str) -> Option<Board> {
    let digits: Vec<usize> = code
        .bytes()
        .map(|b| ALPHABET.iter().position(|&a| a == b))
        .collect::<Option<_>>()?;
    if digits.len() != 2 * HEIGHT as usize {
        return None;
    }
    let mut board = Board::new();
    for (y, pair) in digits.chunks(2).enumerate() {
        let row = pair[0] << 6 | pair[1];
        if row >> WIDTH != 0 {
            return None;
        }
        for x in 0..WIDTH {
            board.set(x, y as i32, row >> x & 1 == 1);
        }
    }
    Some(board)
}

/// The tokens of piece `number` (1-based), without its `N`.
fn piece_tokens(record: &Record, number: usize) -> &[Token] {
    match record.piece_tokens().get(number.wrapping_sub(1)) {
        Some(span) => &record.tokens[span.start + 1..span.end],
        None => &[],
    }
}

/// Where the checker's failing piece would have locked. The checker stops before locking it; the
/// web replay's rules (judge mode) lock it wherever its moves leave it, which is what a mid-air
/// error needs to show. Errors that stop the piece earlier (move counts, the end of the game)
/// have no such place.
fn failed_piece(sequence: &[Kind], record: &Record, rules: Rules, number: usize) -> Option<Piece> {
    // Everything up to the N of the piece after it.
    let end = (record.piece_tokens().get(number)).map_or(record.tokens.len(), |span| span.start);
    let head = Record {
        tokens: record.tokens[..end].to_vec(),
    };
    let judge = rules.with_lock(LockMode::Judge);
    let mut found = None;
    replay_observed(sequence, &head, judge, &mut |step| {
        if step.index + 1 == number {
            found = Some(step.piece);
        }
    });
    found
}

fn tokens_text(tokens: &[Token]) -> String {
    let words: Vec<String> = tokens.iter().map(Token::to_string).collect();
    words.join(",")
}

/// The one line the page shows under its title, in the checker's words.
fn summary(report: &Report, rules: Rules) -> String {
    let mode = format!("{} mode", rules.mode_name());
    match &report.error {
        Some(e) => format!("invalid record ({mode}): {e}. Score = 0"),
        None => format!(
            "{} pieces locked, {} lines, {} ({mode}). Score = {}",
            report.pieces_locked, report.lines, report.end, report.score
        ),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_code_round_trips() {
        let board = Board::from_picture(
            "
            #.........
            .........#
            ##########
            #.#.#.#.#.",
        );
        let code = encode_board(&board);
        assert_eq!(code.len(), 40);
        assert_eq!(&code[32..], "0180F_5L");
        assert_eq!(decode_board(&code), Some(board));
        assert_eq!(encode_board(&Board::new()), "0".repeat(40));
        assert_eq!(decode_board("0"), None);
        assert_eq!(decode_board(&format!("{}G0", "0".repeat(38))), None);
    }

    #[test]
    fn piece_tokens_finds_each_piece() {
        let record = Record::parse("N,C1,L1,D18,N,R1,D19,N,D1").unwrap();
        assert_eq!(tokens_text(piece_tokens(&record, 1)), "C1,L1,D18");
        assert_eq!(tokens_text(piece_tokens(&record, 2)), "R1,D19");
        assert_eq!(tokens_text(piece_tokens(&record, 3)), "D1");
        assert_eq!(piece_tokens(&record, 4), &[][..]);
        assert_eq!(piece_tokens(&record, 0), &[][..]);
    }

    #[test]
    fn page_is_self_contained_and_escapes_the_record() {
        let sequence = crate::sequence::contest_sequence(crate::sequence::CONTEST_SEED, 10);
        let record = Record::parse("N,C1,L1,D18,N,D1").unwrap();
        let mut film = Film::new();
        let report = replay_observed(&sequence, &record, Rules::default(), &mut |s| {
            film.observe(s)
        });
        assert_eq!(film.len(), 1);
        let page = film.page(
            &sequence,
            Some(&record),
            Rules::default(),
            &report,
            "</script><b>/moves<&>.txt",
        );
        assert!(!page.contains("</script><b>"));
        assert!(
            page.contains("\\u003c/script>\\u003cb>"),
            "the heading is in the data"
        );
        // The window's title: the file name, escaped, and the score of an invalid record.
        let title =
            "<title>moves&lt;&amp;&gt;.txt \u{2014} 0 (invalid record) \u{2014} tetris-opt</title>";
        assert!(page.contains(title));
        assert!(!page.contains("{{"));
        for external in ["http:", "https:", "src=", "href=", "@import", "url("] {
            assert!(!page.contains(external), "the page mentions {external}");
        }
        // Piece 2 (an I in state 1 at spawn) is dropped one row and left in mid-air.
        assert!(page.contains(r#""at":[4,1,1]"#), "{page}");
    }
}
