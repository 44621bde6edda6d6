//! The olympiad's game as the search plays it: the contest's column bitboard
//! ([`Board`]: bit 0 of a column is the top row, bit 19 the floor row), a piece placed by its
//! columns' heights, full rows removed with the bitboard's row removal, and the falls of
//! connected bodies worked out on row masks only when a removal left a hole behind (a field
//! whose columns are all solid from the floor has nothing that can fall).
//!
//! The plain engine ([`super::rules::Field`]) is the reference: the tests play both side by
//! side.

use super::rules::{self, Kind, HEIGHT, WIDTH};
use crate::kit::board::{Board, ROWS, ROW_MASK};
use std::sync::OnceLock;

/// One orientation of a kind, by columns.
#[derive(Clone, Copy, Debug, Default)]
pub struct Shape {
    /// Columns spanned.
    pub width: u8,
    /// Rows spanned.
    pub(crate) height: u8,
    /// Per column: the row of its lowest cell, from the shape's bottom.
    pub(crate) bottoms: [u8; 4],
    /// Per column: its cells as board bits with the shape's bottom on the floor row (bit
    /// 19); shifted right by `y` they stand `y` rows higher.
    pub(crate) masks: [u32; 4],
}

/// Every kind's orientations, built once from the plain engine's drawings.
pub fn shapes(kind: Kind) -> &'static [Shape] {
    static SHAPES: OnceLock<Vec<Vec<Shape>>> = OnceLock::new();
    let all = SHAPES.get_or_init(|| {
        Kind::ALL
            .iter()
            .map(|&k| {
                (0..rules::orientations(k))
                    .map(|o| {
                        let cells = rules::cells(k, o).expect("listed orientation");
                        let mut s = Shape {
                            width: rules::piece_width(k, o).expect("listed orientation") as u8,
                            bottoms: [u8::MAX; 4],
                            ..Shape::default()
                        };
                        for (c, r) in cells {
                            s.height = s.height.max(r as u8 + 1);
                            s.bottoms[c] = s.bottoms[c].min(r as u8);
                            s.masks[c] |= 1 << (ROWS - 1 - r as u32);
                        }
                        s
                    })
                    .collect()
            })
            .collect()
    });
    &all[kind.index()]
}

/// How tall each column stands (rows from the floor to its highest cell).
#[inline]
pub fn heights(board: &Board) -> [u8; WIDTH] {
    board.cols.map(|c| {
        if c == 0 {
            0
        } else {
            (ROWS - c.trailing_zeros()) as u8
        }
    })
}

/// Where a placement rests: the row of the shape's bottom, or None when a cell would stand
/// above the field (the game is over).
#[inline]
pub fn rest_row(shape: &Shape, heights: &[u8; WIDTH], column: usize) -> Option<u32> {
    let mut y = 0i32;
    for dx in 0..shape.width as usize {
        y = y.max(heights[column + dx] as i32 - shape.bottoms[dx] as i32);
    }
    (y as usize + shape.height as usize <= HEIGHT).then_some(y as u32)
}

/// What settling a placement did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settled {
    pub lines: u32,
    pub chains: u32,
}

/// Writes `shape` at `column` with its bottom at row `y` and settles the board.
#[inline]
pub fn place(board: &mut Board, shape: &Shape, column: usize, y: u32) -> Settled {
    for dx in 0..shape.width as usize {
        board.cols[column + dx] |= shape.masks[dx] >> y;
    }
    // Most placements complete no row: that check stays inline in the search's loop.
    if board.full_rows() == 0 {
        return Settled::default();
    }
    settle(board)
}

/// A board's columns ANDed from the left up to each column and from each column to the right:
/// the rows a placement completes come from them and the piece's own columns, without reading
/// back the columns just written (a wide read of narrow writes waits for them to land).
pub(crate) struct Ands {
    before: [u32; WIDTH + 1],
    after: [u32; WIDTH + 1],
}

impl Ands {
    pub(crate) fn of(board: &Board) -> Ands {
        let mut ands = Ands {
            before: [ROW_MASK; WIDTH + 1],
            after: [ROW_MASK; WIDTH + 1],
        };
        for x in 0..WIDTH {
            ands.before[x + 1] = ands.before[x] & board.cols[x];
            ands.after[WIDTH - 1 - x] = ands.after[WIDTH - x] & board.cols[WIDTH - 1 - x];
        }
        ands
    }
}

/// [`place`] on a copy of the board `ands` was made of.
#[inline]
pub(crate) fn place_over(
    board: &mut Board,
    ands: &Ands,
    shape: &Shape,
    column: usize,
    y: u32,
) -> Settled {
    let end = column + shape.width as usize;
    let mut full = ands.before[column] & ands.after[end];
    for dx in 0..shape.width as usize {
        let col = board.cols[column + dx] | shape.masks[dx] >> y;
        full &= col;
        board.cols[column + dx] = col;
    }
    if full == 0 {
        return Settled::default();
    }
    settle(board)
}

/// Removes full rows, and after a removal lets the bodies fall, until no row is full.
#[inline(never)]
pub(crate) fn settle(board: &mut Board) -> Settled {
    let mut settled = Settled::default();
    loop {
        let full = board.full_rows();
        if full == 0 {
            return settled;
        }
        if settled.lines > 0 {
            settled.chains += 1;
        }
        settled.lines += full.count_ones();
        board.remove_rows(full);
        if has_hole(board) {
            fall(board);
        }
    }
}

/// Whether some column has an empty cell under a filled one.
#[inline]
fn has_hole(board: &Board) -> bool {
    board
        .cols
        .iter()
        .any(|&c| c != 0 && c != (ROW_MASK >> c.trailing_zeros()) << c.trailing_zeros())
}

/// Rows from the floor up, bit `c` for column `c`.
type Rows = [u16; HEIGHT];

fn to_rows(board: &Board) -> Rows {
    let mut rows = [0u16; HEIGHT];
    for (c, &col) in board.cols.iter().enumerate() {
        for (r, row) in rows.iter_mut().enumerate() {
            *row |= (((col >> (ROWS as usize - 1 - r)) & 1) as u16) << c;
        }
    }
    rows
}

fn to_board(rows: &Rows) -> Board {
    let mut board = Board::default();
    for (r, &row) in rows.iter().enumerate() {
        for (c, col) in board.cols.iter_mut().enumerate() {
            *col |= u32::from(row >> c & 1) << (ROWS as usize - 1 - r);
        }
    }
    board
}

/// The bodies fall, the lowest first (lowest row, then leftmost cell of that row), each as far
/// as it goes, the bodies found again after each fall: the rule of [`rules::Field`].
fn fall(board: &mut Board) {
    let mut rows = to_rows(board);
    'again: loop {
        let mut unseen = rows;
        while let Some(r) = unseen.iter().position(|&row| row != 0) {
            let seed = unseen[r] & unseen[r].wrapping_neg();
            let body = flood(&rows, r, seed);
            for (u, b) in unseen.iter_mut().zip(&body) {
                *u &= !b;
            }
            let drop = fall_distance(&rows, &body);
            if drop > 0 {
                for (row, b) in rows.iter_mut().zip(&body) {
                    *row &= !b;
                }
                for r in drop..HEIGHT {
                    rows[r - drop] |= body[r];
                }
                continue 'again;
            }
        }
        break;
    }
    *board = to_board(&rows);
}

/// The body of filled cells connected to `seed` in row `r`.
fn flood(rows: &Rows, r: usize, seed: u16) -> Rows {
    let mut body = [0u16; HEIGHT];
    body[r] = seed;
    let mask = (1u16 << WIDTH) - 1;
    loop {
        let mut changed = false;
        for r in 0..HEIGHT {
            let mut grown = body[r];
            if r > 0 {
                grown |= body[r - 1];
            }
            if r + 1 < HEIGHT {
                grown |= body[r + 1];
            }
            // Along the row, as far as filled cells reach.
            let mut grown = grown & rows[r];
            loop {
                let wider = (grown | (grown << 1) | (grown >> 1)) & mask & rows[r];
                if wider == grown {
                    break;
                }
                grown = wider;
            }
            if grown != body[r] {
                body[r] = grown;
                changed = true;
            }
        }
        if !changed {
            return body;
        }
    }
}

/// How many rows `body` falls before it would meet the floor or another cell.
fn fall_distance(rows: &Rows, body: &Rows) -> usize {
    let lowest = body.iter().position(|&b| b != 0).unwrap_or(0);
    let mut others = *rows;
    for (o, b) in others.iter_mut().zip(body) {
        *o &= !b;
    }
    let mut drop = 0;
    while drop < lowest {
        let next = drop + 1;
        if (next..HEIGHT).any(|r| body[r] & others[r - next] != 0) {
            break;
        }
        drop = next;
    }
    drop
}

/// The plain engine's field as the fast engine's board.
pub(crate) fn board_of(field: &rules::Field) -> Board {
    let mut rows = [0u16; HEIGHT];
    for (r, row) in rows.iter_mut().enumerate() {
        for c in 0..WIDTH {
            *row |= u16::from(field.filled(r, c)) << c;
        }
    }
    to_board(&rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::sequence::SplitMix64;

    /// Random games on both engines, with random fields full of holes so that bodies fall
    /// often: every placement rests, ends the game, clears and chains the same.
    #[test]
    fn the_fast_engine_plays_as_the_plain_one() {
        let mut rng = SplitMix64::new(11);
        let mut chains = 0;
        for game in 0..300 {
            let mut field = rules::Field::new();
            // A ragged start: rows with random gaps, so that clears leave bodies hanging.
            let start_rows = (game % 12) as usize;
            for r in 0..start_rows {
                for c in 0..WIDTH {
                    field.rows[r][c] = rng.below(10) < 7;
                }
            }
            let mut board = board_of(&field);
            for _ in 0..200 {
                let kind = Kind::ALL[rng.below(7) as usize];
                let o = rng.below(rules::orientations(kind) as u64) as usize;
                let shape = &shapes(kind)[o];
                let column = rng.below((WIDTH - shape.width as usize + 1) as u64) as usize;
                let plain = field.place(kind, o, column).unwrap();
                let fast = rest_row(shape, &heights(&board), column);
                match (plain, fast) {
                    (rules::Outcome::GameOver, None) => break,
                    (rules::Outcome::Placed(p), Some(y)) => {
                        let (mut over, ands) = (board, Ands::of(&board));
                        let s = place(&mut board, shape, column, y);
                        assert_eq!(place_over(&mut over, &ands, shape, column, y), s);
                        assert_eq!(over, board);
                        assert_eq!((s.lines, s.chains), (p.lines, p.chains));
                        chains += s.chains;
                    }
                    (plain, fast) => panic!("plain {plain:?}, fast rests at {fast:?}"),
                }
                assert_eq!(board, board_of(&field), "\n{}", field.picture());
            }
        }
        assert!(
            chains > 0,
            "the games made no chain: the falls were not tried"
        );
    }

    #[test]
    fn shapes_match_the_drawings() {
        let t = shapes(Kind::T)[0];
        assert_eq!((t.width, t.height), (3, 2));
        assert_eq!(t.bottoms[..3], [0, 0, 0]);
        let s = shapes(Kind::S)[1];
        assert_eq!(s.bottoms[..2], [1, 0]);
        assert_eq!(shapes(Kind::O).len(), 1);
    }
}
