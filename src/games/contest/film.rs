//! The contest's replay page: its checker's steps as the kit's [`Film`], and the page around
//! them (the heading, the summary in the checker's words, the failing piece of an invalid record,
//! and the chart of the fill at each lock against the fluid model's optimal play).

use crate::games::contest::record::{Record, Token};
use crate::games::contest::replay::{replay_observed, Report, Step};
use crate::games::contest::rules::{Field, Kind, LockMode, Piece, Rules, HEIGHT, OFFSETS, WIDTH};
use crate::games::contest::stats::Stats;
use crate::kit::film::{
    FillChart, FillLine, Film, FilmError, FilmPiece, GamePage, Spawn, NEXT_SHOWN,
};
use crate::kit::fluid::FluidLock;
use crate::kit::text::{grouped, grouped_plural};

/// One step of the checker's replay as the film keeps it; pass it every step, in order.
pub fn piece(step: &Step) -> FilmPiece {
    FilmPiece {
        x: step.piece.x,
        y: step.piece.y,
        state: step.piece.state,
        fields: Vec::new(),
        moves: tokens_text(step.moves),
        score: step.score,
        lines: step.lines,
        rows: rows(step.board),
        filled: Some(step.turn.filled),
        game_over: step.turn.game_over.map(|reason| reason.describe()),
    }
}

/// One step of the checker's replay as the fill chart draws it: the cells counted for its
/// score (the piece written, full rows in place) and the rows it cleared.
pub fn lock(step: &Step) -> FluidLock {
    FluidLock {
        filled: step.turn.filled,
        rows: step.turn.lines,
    }
}

/// The chart of the fill at each lock: the record's `locks` ([`lock`] of every step), against
/// `play`, the fluid model's optimal play at the record's fullest board that `stats` bounds
/// the record by ([`Stats::bound`]), or alone where the model has none.
pub fn fill_chart(locks: &[FluidLock], stats: &Stats, play: Option<&[FluidLock]>) -> FillChart {
    let record = FillLine::new("record", locks);
    let what = "The record's fill at each lock (the cells on the board with the piece written, \
                before its clear)";
    let cap = stats.fullest;
    let pieces = grouped(stats.fluid_bound_pieces as u64);
    match (play, stats.fluid_bound) {
        (Some(play), Some(bound)) => FillChart {
            caption: format!(
                "{what} against the fluid model's optimal play at its cap of {cap} cells, which \
                 scores the fluid bound of {} over pieces 1-{pieces}.",
                grouped(bound)
            ),
            cap: Some(cap),
            lines: vec![record, FillLine::new("fluid optimum", play)],
        },
        _ => FillChart {
            caption: format!(
                "{what}, alone: no play of the fluid model over pieces 1-{pieces} keeps within \
                 the record's fullest board, {cap} cells, so there is no optimal play to draw."
            ),
            cap: None,
            lines: vec![record],
        },
    }
}

/// The page for a replay. `record` is the parsed record (`None` when it did not parse),
/// `rules` and `report` those of the replay that filled `film`, `name` the record's path as the
/// user gave it: the page's heading, and its file name with the score the window's title
/// (`moves.txt — 1,441,432 — tetris-opt`). `fill_chart` is drawn under the score's.
pub fn page(
    film: &Film,
    sequence: &[Kind],
    record: Option<&Record>,
    rules: Rules,
    report: &Report,
    name: &str,
    fill_chart: Option<FillChart>,
) -> String {
    let error = report.error.as_ref().map(|e| {
        // The frame after the last locked piece: the failing piece for a replay error; for a
        // record that did not parse, the start (the message names the piece).
        let piece = film.len() + 1;
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
    let shown = (film.len() + 1 + NEXT_SHOWN).min(sequence.len());
    film.page(GamePage {
        name,
        window_title: window_title(name, report),
        summary: summary(report, rules, sequence.len()),
        kinds: sequence[..shown].iter().map(|k| k.letter()).collect(),
        offsets: OFFSETS,
        next_shown: NEXT_SHOWN,
        spawn: Spawn::ByIndex,
        panel: Vec::new(),
        locked_at: "x={x} y={y} state {state}",
        error,
        fill_chart,
    })
}

const _: () = assert!(
    WIDTH <= 12 && HEIGHT == 20,
    "a row must fit the two letters of its code"
);

/// A board as 20 rows, top first, each row's cells as bits (x = 0 lowest).
fn rows(board: &Field) -> [u16; 20] {
    std::array::from_fn(|y| {
        (0..WIDTH)
            .filter(|&x| board.filled(x, y as i32))
            .fold(0u16, |row, x| row | 1 << x)
    })
}

/// A board as the page stores it (its rows' code, held to its inverse by the tests).
#[cfg(test)]
fn encode_board(board: &Field) -> String {
    crate::kit::film::encode_rows(&rows(board))
}

/// The inverse of [`encode_board`]; `None` for anything it did not write.
#[cfg(test)]
fn decode_board(code: &str) -> Option<Field> {
    let rows = crate::kit::film::decode_rows(code)?;
    if rows.len() != HEIGHT as usize || rows.iter().any(|&row| row >> WIDTH != 0) {
        return None;
    }
    let mut board = Field::new();
    for (y, row) in rows.iter().enumerate() {
        for x in 0..WIDTH {
            board.set(x, y as i32, row >> x & 1 == 1);
        }
    }
    Some(board)
}

/// The window's title: the record's file name, its score and the tool.
fn window_title(name: &str, report: &Report) -> String {
    let file = match std::path::Path::new(name).file_name() {
        _ if name == "-" => "standard input".into(),
        Some(file) => file.to_string_lossy(),
        None => name.into(),
    };
    let score = grouped(report.final_score());
    let invalid = if report.valid() {
        ""
    } else {
        " (invalid record)"
    };
    format!("{file} \u{2014} {score}{invalid} \u{2014} tetris-opt")
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
fn summary(report: &Report, rules: Rules, pieces: usize) -> String {
    let mode = format!("{} mode", rules.mode_name());
    match &report.error {
        Some(e) => format!("invalid record ({mode}): {e}. Score = 0"),
        None => format!(
            "{} locked, {}, {} ({mode}). Score = {}",
            grouped_plural(report.pieces_locked as u64, "piece"),
            grouped_plural(report.lines, "line"),
            report.scorecard(pieces, rules).end.text,
            grouped(report.score)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_code_round_trips() {
        let board = Field::from_picture(
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
        assert_eq!(encode_board(&Field::new()), "0".repeat(40));
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
        let sequence =
            crate::games::contest::contest_sequence(crate::games::contest::CONTEST_SEED, 10);
        let record = Record::parse("N,C1,L1,D18,N,D1").unwrap();
        let mut film = Film::new();
        let report = replay_observed(&sequence, &record, Rules::default(), &mut |s| {
            film.observe_piece(piece(s))
        });
        assert_eq!(film.len(), 1);
        let page = page(
            &film,
            &sequence,
            Some(&record),
            Rules::default(),
            &report,
            "</script><b>/moves<&>.txt",
            None,
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
