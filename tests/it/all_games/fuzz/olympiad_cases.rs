//! The olympiad's game under mutation: its record grammar, the forms its errors and reports
//! must have, a case through its readers and replay, and games of random placements played on
//! its plain and bitboard engines side by side.

use super::contest_cases::{check_sequence_error, SEQUENCE};
use super::findings::{library_case, one_visible_line, progress, wrong, Finding, Tally};
use super::mutate::{mutate, Grammar, Rng};
use super::starts::olympiad_starts;
use tetris_opt::games::contest::bitboard::{Board, ROWS};
use tetris_opt::games::olympiad;
use tetris_opt::kit::scorecard::{Reason, ReplayReport};
use tetris_opt::kit::sequence::parse_sequence;

pub(super) const OLYMPIAD: Grammar = Grammar {
    tokens: &[
        "game olympiad",
        "game  olympiad",
        "Game olympiad",
        "game olympiad x",
        "game browser",
        "0 0",
        "0 8",
        "1 9",
        "3 6",
        "2 7",
        "1 0",
        "9 9",
        "4 0",
        "0 10",
        "10 0",
        "00 1",
        "0",
        "1",
        "0 0 0",
        "x",
        "-1 2",
        "+1 2",
        "0\t3",
        "0\u{A0}3",
        "0 \u{200B}",
        "# comment",
        "",
    ],
};

/// The olympiad's kinds as the sequence reader gives them.
type OlympiadKind = olympiad::rules::Kind;

/// Holds an olympiad record's error to its documented form (`line N: piece P (K), token T 'x':
/// message`, `FILE:LINE: ...` at the binary): one visible line, a line of the text, the piece
/// that line is for and its kind where the sequence has it, the token as written.
fn check_olympiad_error(
    e: &olympiad::record::RecordError,
    sequence: &[OlympiadKind],
    text: &str,
) -> Result<(), Finding> {
    use olympiad::record::{OwnProblem, Problem};
    let message = e.to_string();
    one_visible_line(&message)?;
    if message != format!("line {}: {}", e.line, e.message())
        || e.located("f") != format!("f:{}: {}", e.line, e.message())
    {
        return wrong(format!(
            "not of the form `line N: ...` / `FILE:LINE: ...`: {message:?} / {:?}",
            e.located("f")
        ));
    }
    // The reader's view of the text: a byte-order mark skipped, lines as `str::lines` splits
    // them with what ends them dropped, comments skipped.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    if e.line == 0 || e.line > lines.len().max(1) {
        return wrong(format!(
            "line {} named, the text has {}: {message:?}",
            e.line,
            lines.len()
        ));
    }
    let line = lines.get(e.line - 1).copied().unwrap_or("");
    let read: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim_start().starts_with('#'))
        .collect();
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some(n) = e.piece else {
        return match &e.problem {
            Problem::Empty if read.is_empty() && e.line == 1 => Ok(()),
            Problem::Header { found }
                if read.first() == Some(&(e.line - 1))
                    && line != olympiad::record::HEADER
                    && *found == tetris_opt::kit::text::quote_line(line) =>
            {
                Ok(())
            }
            _ => wrong(format!("no piece named: {message:?}")),
        };
    };
    // Line 1 of what is read is the header; piece n is on the line after n others.
    if read.get(n) != Some(&(e.line - 1)) {
        return wrong(format!(
            "line {} is not the line of piece {n}: {message:?}",
            e.line
        ));
    }
    let kind = sequence.get(n.wrapping_sub(1)).copied();
    let who = match kind {
        Some(kind) => format!("piece {n} ({kind})"),
        None => format!("piece {n}"),
    };
    let rest = e.message();
    let Some(after) = rest.strip_prefix(&who) else {
        return wrong(format!(
            "the message does not start with {who:?}: {message:?}"
        ));
    };
    if !after.starts_with(", token ") && !after.starts_with(": ") {
        return wrong(format!(
            "{who:?} is not followed by a token or `: `: {message:?}"
        ));
    }
    // The token the error names, as the line holds it.
    let named = |number: usize, shown: &str| {
        let word = words.get(number - 1).copied();
        if word.map(tetris_opt::kit::text::quote).as_deref() != Some(shown)
            || !after.starts_with(&format!(", token {number} '{shown}'"))
        {
            return wrong(format!(
                "token {number} of line {} is {word:?}, the error quotes {shown:?}: {message:?}",
                e.line
            ));
        }
        Ok(())
    };
    match &e.problem {
        Problem::Token { number, token, .. } if (1..=2).contains(number) => named(*number, token),
        Problem::Game(OwnProblem::Extra { token }) => named(3, token),
        Problem::Game(OwnProblem::Missing { found }) if *found == words.len() && *found < 2 => {
            Ok(())
        }
        Problem::Game(OwnProblem::Orientation {
            orientation,
            orientations,
        }) => {
            let real = kind.map(olympiad::rules::orientations);
            if real != Some(*orientations) || usize::from(*orientation) < *orientations {
                return wrong(format!(
                    "orientation {orientation} refused for {kind:?} of {real:?}: {message:?}"
                ));
            }
            named(1, &orientation.to_string())
        }
        Problem::Game(OwnProblem::Column { column, last }) => {
            let o = words.first().and_then(|w| w.parse::<usize>().ok());
            let width = kind
                .zip(o)
                .and_then(|(k, o)| olympiad::rules::piece_width(k, o));
            if width.map(|w| olympiad::rules::WIDTH - w) != Some(*last)
                || usize::from(*column) <= *last
            {
                return wrong(format!(
                    "column {column} refused with last {last} for {kind:?} in {o:?}: {message:?}"
                ));
            }
            named(2, &column.to_string())
        }
        Problem::PastSequence { pieces } if *pieces == sequence.len() && n == pieces + 1 => Ok(()),
        Problem::AfterGameOver { piece, kind: ended }
            if *piece + 1 == n && sequence.get(piece - 1) == Some(ended) =>
        {
            Ok(())
        }
        problem => wrong(format!("{problem:?} does not fit the line: {message:?}")),
    }
}

/// Holds a valid record's report to itself and to the record: the score is the pieces placed,
/// the end agrees with how many lines the record has, the field keeps the cells placed less
/// the rows removed and holds no full row.
fn check_olympiad_report(
    report: &olympiad::replay::Report,
    sequence: &[OlympiadKind],
    lines: usize,
) -> Result<(), Finding> {
    use olympiad::replay::End;
    let placed = report.pieces_placed;
    let ends_right = match report.end {
        End::GameOver { piece } => piece == lines && placed + 1 == piece,
        End::SequenceEnded => lines == sequence.len() && placed == lines,
        End::RecordEnded => lines < sequence.len() && placed == lines,
    };
    if !ends_right {
        return wrong(format!(
            "{placed} pieces placed by {lines} lines of {} pieces, the end: {:?}",
            sequence.len(),
            report.end
        ));
    }
    let card = report.scorecard();
    if card.score != placed as u64
        || card.pieces_placed != placed as u64
        || (card.end.reason == Reason::ToppedOut) != matches!(report.end, End::GameOver { .. })
    {
        return wrong(format!("the scorecard disagrees with the report: {card:?}"));
    }
    if !report.summary().ends_with(&format!("\nScore = {placed}\n")) {
        return wrong(format!("the summary does not end in `Score = {placed}`"));
    }
    let cells = 4 * placed as i64 - 10 * report.lines as i64;
    let field = &report.field;
    if field.filled_cells() as i64 != cells {
        return wrong(format!(
            "{} cells on the field after {placed} pieces and {} rows removed",
            field.filled_cells(),
            report.lines
        ));
    }
    if field.rows.iter().any(|row| row.iter().all(|&c| c)) {
        return wrong(format!("a full row is left:\n{}", field.picture()));
    }
    if report.lines < report.chains + report.chain_placements
        || report.chain_placements > placed as u64
    {
        return wrong(format!(
            "{} rows removed with {} chain clears in {} placements",
            report.lines, report.chains, report.chain_placements
        ));
    }
    Ok(())
}

/// Reads and replays one olympiad record as `check --game olympiad` does; true when it is
/// valid. With `views`, also the viewer's page `--html` writes.
fn olympiad_case(sequence: &[OlympiadKind], text: &str, views: bool) -> Result<bool, Finding> {
    use olympiad::record::Record;
    let checked = olympiad::replay::check_text(sequence, text);
    if views {
        let _ = olympiad::film::page(sequence, Record::parse(text).as_ref(), "record.txt", "");
    }
    let report = match checked {
        Ok(report) => report,
        Err(e) => return check_olympiad_error(&e, sequence, text).map(|()| false),
    };
    let record = Record::parse(text)
        .map_err(|e| Finding::Wrong(format!("check_text accepts a record parse refuses: {e}")))?;
    let again = olympiad::replay::replay(sequence, &record);
    if again.as_ref() != Ok(&report) {
        return wrong(format!(
            "parse and replay disagree with check_text: {again:?}"
        ));
    }
    let printed = record.to_string();
    match Record::parse(&printed) {
        Ok(read) if read.placements == record.placements => {
            if olympiad::replay::replay(sequence, &read).as_ref() != Ok(&report) {
                return wrong("the record's own text replays differently");
            }
        }
        _ => {
            return wrong(format!(
                "the record does not read back from its own text {printed:?}"
            ))
        }
    }
    check_olympiad_report(&report, sequence, record.placements.len())?;
    Ok(true)
}

fn olympiad_sequence_case(text: &str, record: &str) -> Result<bool, Finding> {
    match parse_sequence(text) {
        Ok(sequence) => olympiad_case(&sequence, record, false),
        Err(e) => check_sequence_error(&e, text).map(|()| false),
    }
}

pub(super) fn fuzz_olympiad(first: u64, cases: u64) -> Tally {
    let starts = olympiad_starts();
    let sequences: Vec<Vec<OlympiadKind>> = starts
        .iter()
        .map(|s| parse_sequence(&s.sequence).unwrap())
        .collect();
    let records: Vec<String> = starts.iter().map(|s| s.record.clone()).collect();
    let sequence_texts: Vec<String> = starts.iter().map(|s| s.sequence.clone()).collect();
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(4, case);
        let i = rng.below(starts.len());
        if rng.one_in(6) {
            let text = mutate(&mut rng, &sequence_texts[i], &sequence_texts, &SEQUENCE);
            let outcome = library_case(|| olympiad_sequence_case(&text, &records[i]));
            tally.record(case, &format!("sequence file {text:?}"), outcome);
        } else {
            let text = mutate(&mut rng, &records[i], &records, &OLYMPIAD);
            let views = rng.one_in(8);
            let outcome = library_case(|| olympiad_case(&sequences[i], &text, views));
            tally.record(case, &text, outcome);
        }
        progress("olympiad", case - first, cases);
    }
    tally
}

/// The fast engine's board of a plain field.
fn olympiad_board(field: &olympiad::rules::Field) -> Board {
    let mut board = Board::default();
    for (c, col) in board.cols.iter_mut().enumerate() {
        for r in 0..olympiad::rules::HEIGHT {
            *col |= u32::from(field.filled(r, c)) << (ROWS - 1 - r as u32);
        }
    }
    board
}

/// One game of random placements on both engines from case `case`'s generator: where each
/// piece rests, whether it ends the game, the rows and chains it removes and the field after it
/// must be the same, and the plain engine must refuse what does not fit as the record's errors
/// say. True when a body fell in the game (the falls were compared, not only the drops).
///
/// A third of the games start on an empty field; the others on rows with random gaps (no full
/// row), so that removals leave bodies hanging. Most pieces go where [`best_place`] puts them,
/// so that games last and rows fill; the others anywhere, leaving overhangs to fall.
fn olympiad_engines_case(rng: &mut Rng) -> Result<bool, Finding> {
    use olympiad::bitboard;
    use olympiad::rules::{self, BadPlacement, Field, Outcome, WIDTH};
    let mut field = Field::new();
    if !rng.one_in(3) {
        let density = 5 + rng.below(5);
        for r in 0..rng.below(16) {
            for c in 0..WIDTH {
                field.rows[r][c] = rng.below(10) < density;
            }
            if field.rows[r].iter().all(|&c| c) {
                field.rows[r][rng.below(WIDTH)] = false;
            }
        }
    }
    let mut board = olympiad_board(&field);
    let mut fell = false;
    // Out of 20 placements, how many go anywhere rather than to the best place.
    let noise = rng.below(8);
    for n in 1..=300 {
        let kind = OlympiadKind::ALL[rng.below(7)];
        let shapes = bitboard::shapes(kind);
        if shapes.len() != rules::orientations(kind) {
            return wrong(format!("{kind}: {} shapes", shapes.len()));
        }
        // Now and then a placement the piece cannot take: refused, the field untouched.
        if rng.one_in(40) {
            let o = rng.below(6);
            let column = rng.below(WIDTH + 3);
            let expected = match rules::piece_width(kind, o) {
                None => Some(BadPlacement::Orientation {
                    orientations: rules::orientations(kind),
                }),
                Some(w) if column + w > WIDTH => Some(BadPlacement::Column { last: WIDTH - w }),
                Some(_) => None,
            };
            if let Some(expected) = expected {
                let before = field.clone();
                let got = field.place(kind, o, column);
                if got != Err(expected) || field != before {
                    return wrong(format!(
                        "piece {n} ({kind}) at orientation {o}, column {column}: {got:?}, expected {expected:?}"
                    ));
                }
                continue;
            }
        }
        let (o, column) = if rng.below(20) < noise {
            let o = rng.below(shapes.len());
            (o, rng.below(WIDTH - shapes[o].width as usize + 1))
        } else {
            best_place(&field, kind, rng)
        };
        let shape = &shapes[o];
        let before = field.picture();
        let plain = field.place(kind, o, column);
        let fast = bitboard::rest_row(shape, &bitboard::heights(&board), column);
        let what =
            || format!("piece {n} ({kind}) at orientation {o}, column {column} on\n{before}");
        match (plain, fast) {
            (Ok(Outcome::GameOver), None) => return Ok(fell),
            (Ok(Outcome::Placed(p)), Some(y)) => {
                let s = bitboard::place(&mut board, shape, column, y);
                if (s.lines, s.chains) != (p.lines, p.chains) {
                    return wrong(format!(
                        "{}: plain removes {} rows in {} chains, fast {} in {}",
                        what(),
                        p.lines,
                        p.chains,
                        s.lines,
                        s.chains
                    ));
                }
                fell |= p.falls > 0;
                if board != olympiad_board(&field) {
                    return wrong(format!(
                        "{}: the fields differ after it; plain\n{}",
                        what(),
                        field.picture()
                    ));
                }
            }
            (plain, fast) => {
                return wrong(format!(
                    "{}: plain {plain:?}, fast rests at {fast:?}",
                    what()
                ))
            }
        }
    }
    Ok(fell)
}

/// Where a piece leaves the fewest empty cells under it, then rests lowest (ties broken at
/// random): a plain player that keeps a game going for hundreds of pieces.
fn best_place(field: &olympiad::rules::Field, kind: OlympiadKind, rng: &mut Rng) -> (usize, usize) {
    use olympiad::rules::{self, HEIGHT, WIDTH};
    let height = |c: usize| {
        (0..HEIGHT)
            .rev()
            .find(|&r| field.filled(r, c))
            .map_or(0, |r| r + 1)
    };
    let heights: Vec<usize> = (0..WIDTH).map(height).collect();
    let mut best = (usize::MAX, 0, 0);
    for o in 0..rules::orientations(kind) {
        let cells = rules::cells(kind, o).expect("listed orientation");
        let width = rules::piece_width(kind, o).expect("listed orientation");
        for column in 0..=WIDTH - width {
            let rest = field.rest_row(&cells, column);
            let mut gaps = 0;
            for dx in 0..width {
                let bottom = cells.iter().filter(|c| c.0 == dx).map(|c| c.1).min();
                gaps += rest + bottom.unwrap_or(0) - heights[column + dx];
            }
            let top = rest + cells.iter().map(|c| c.1).max().unwrap_or(0);
            let key = (gaps * 4 + top) * 8 + rng.below(8);
            if key < best.0 {
                best = (key, o, column);
            }
        }
    }
    (best.1, best.2)
}

pub(super) fn fuzz_olympiad_engines(first: u64, cases: u64) -> Tally {
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(5, case);
        let outcome = library_case(|| olympiad_engines_case(&mut rng));
        tally.record(case, "a game of random placements", outcome);
        progress("olympiad engines", case - first, cases);
    }
    tally
}
