//! The contest's pieces on the kit's column board ([`crate::kit::board`]): shapes laid out for
//! column arithmetic, locking with the contest's scoring, and conversions to and from the plain
//! engine's board.

use crate::games::contest::rules::{self, Kind, Piece, Rules, CLEAR_MULTIPLIER};
pub use crate::kit::board::{
    hash_finish, hash_step, remove_rows_from_column, remove_rows_portable, Board, COLS, HASH_SEED,
    ROWS, ROW_MASK,
};

const _: () = assert!(
    COLS == rules::WIDTH as usize && ROWS == rules::HEIGHT as u32,
    "the kit's board is the contest's 10 x 20"
);
const _: () = assert!(
    crate::kit::eval::SPAWN_X == rules::SPAWN.0 as usize,
    "the kit's evaluation knows the contest's spawn column"
);

/// The contest's plain board and pieces on the kit's board: a trait of the contest's, so that
/// the kit's `Board` keeps its own methods in its own module and a reader sees where these come
/// from (`use ...::bitboard::ContestBoard`).
pub trait ContestBoard {
    /// Converts from the plain engine's board.
    fn from_field(field: &rules::Field) -> Self;
    /// Converts to the plain engine's board.
    fn to_field(&self) -> rules::Field;
    /// Writes `kind` in `state` with its center at `(x, y)` (cells above the top are lost).
    fn write(&mut self, kind: Kind, state: u8, x: usize, y: u32);
}

impl ContestBoard for Board {
    fn from_field(board: &rules::Field) -> Board {
        let mut b = Board::default();
        for x in 0..COLS {
            for y in 0..ROWS {
                if board.filled(x as i32, y as i32) {
                    b.cols[x] |= 1 << y;
                }
            }
        }
        b
    }

    fn to_field(&self) -> rules::Field {
        let mut b = rules::Field::new();
        for x in 0..COLS {
            for y in 0..ROWS {
                if self.cols[x] >> y & 1 == 1 {
                    b.set(x as i32, y as i32, true);
                }
            }
        }
        b
    }

    /// All ten columns at once from a table, rather than one covered column at a time: the
    /// board is read back as a vector right after, and narrow stores followed by a wide load
    /// of the same memory stall the load until the stores retire.
    #[inline(always)]
    fn write(&mut self, kind: Kind, state: u8, x: usize, y: u32) {
        let masks = &PLACED[kind.index()][state as usize][x];
        // A mask uses bits 0..=4 and y <= 19, so the left shift stays inside the u32; the right
        // shift drops the cells above the top.
        for (c, &m) in self.cols.iter_mut().zip(masks) {
            *c |= (m << y) >> SHAPE_Y_OFFSET;
        }
    }
}

/// Row offset added to every cell's `dy` so that shape masks have no negative shifts.
pub(crate) const SHAPE_Y_OFFSET: u32 = 2;

/// One kind in one state, laid out for column arithmetic.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Per covered column: `(dx, mask)` where `mask` has bit `dy + SHAPE_Y_OFFSET` per cell.
    pub(crate) columns: [(i8, u32); 4],
    /// Number of used entries in `columns`.
    pub width: u8,
    /// The rows the piece covers: the union of the column masks.
    pub(crate) rows: u32,
    /// Smallest and largest `dx`: the center's x may range over `-min_dx ..= 9 - max_dx`.
    pub(crate) min_dx: i8,
    pub(crate) max_dx: i8,
}

const fn build_shape(offsets: [(i32, i32); 4]) -> Shape {
    let mut columns = [(0i8, 0u32); 4];
    let mut width = 0usize;
    let mut min_dx = 0i8;
    let mut max_dx = 0i8;
    let mut rows = 0u32;
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = offsets[i];
        let bit = 1u32 << (dy + SHAPE_Y_OFFSET as i32);
        rows |= bit;
        let mut j = 0;
        let mut found = false;
        while j < width {
            if columns[j].0 as i32 == dx {
                columns[j].1 |= bit;
                found = true;
            }
            j += 1;
        }
        if !found {
            columns[width] = (dx as i8, bit);
            width += 1;
        }
        if (dx as i8) < min_dx {
            min_dx = dx as i8;
        }
        if (dx as i8) > max_dx {
            max_dx = dx as i8;
        }
        i += 1;
    }
    Shape {
        columns,
        width: width as u8,
        rows,
        min_dx,
        max_dx,
    }
}

const fn build_shapes() -> [[Shape; 4]; 7] {
    let empty = Shape {
        columns: [(0, 0); 4],
        width: 0,
        rows: 0,
        min_dx: 0,
        max_dx: 0,
    };
    let mut out = [[empty; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 4 {
            out[k][s] = build_shape(rules::OFFSETS[k][s]);
            s += 1;
        }
        k += 1;
    }
    out
}

/// Every kind and state, derived at compile time from the rules' offset table.
pub(crate) static SHAPES: [[Shape; 4]; 7] = build_shapes();

/// Per kind, state and center column: the piece's cells in each board column, as bits at
/// `dy + SHAPE_Y_OFFSET` (center row 0); shifting by the center row places them. Columns a
/// center cannot take (the piece would leave the board) are never used.
static PLACED: [[[[u32; COLS]; COLS]; 4]; 7] = build_placed();

const fn build_placed() -> [[[[u32; COLS]; COLS]; 4]; 7] {
    let mut out = [[[[0u32; COLS]; COLS]; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 4 {
            let shape = &SHAPES[k][s];
            let mut x = 0;
            while x < COLS {
                let mut i = 0;
                while i < shape.width as usize {
                    let (dx, mask) = shape.columns[i];
                    let col = x as i32 + dx as i32;
                    if col >= 0 && col < COLS as i32 {
                        out[k][s][x][col as usize] = mask;
                    }
                    i += 1;
                }
                x += 1;
            }
            s += 1;
        }
        k += 1;
    }
    out
}

/// The shape of `kind` in `state`.
#[inline]
pub(crate) fn shape(kind: Kind, state: u8) -> &'static Shape {
    &SHAPES[kind.index()][state as usize]
}

/// The state whose cells equal those of `state` and that the search uses to name them: states
/// that look alike (I, S, Z: 0 and 2, 1 and 3; O: all four) give the same boards.
#[inline]
pub fn canonical_state(kind: Kind, state: u8) -> u8 {
    match kind {
        Kind::O => 0,
        Kind::I | Kind::S | Kind::Z => state & 1,
        _ => state,
    }
}

/// What locking a piece on a fast board did; mirrors [`rules::Turn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub lines: u32,
    pub score: u32,
    pub game_over: Option<rules::GameOver>,
}

/// Locks `kind` in `state` at center `(x, y)` as piece `index` with the rules' steps 3-7.
#[inline(always)]
pub fn lock(
    board: &mut Board,
    kind: Kind,
    state: u8,
    x: usize,
    y: u32,
    index: usize,
    rules: Rules,
) -> Outcome {
    let occupied = board.occupied_rows();
    lock_over(board, occupied, kind, (state, x, y), index, rules)
}

/// [`lock`] on a board whose [`Board::occupied_rows`] are `occupied` (the search locks every
/// placement of a state on the same board): the top-out check is then the piece's rows added
/// to them, not a reduction over the ten columns of the new board, which every placement would
/// wait for.
#[inline(always)]
pub(crate) fn lock_over(
    board: &mut Board,
    occupied: u32,
    kind: Kind,
    (state, x, y): (u8, usize, u32),
    index: usize,
    rules: Rules,
) -> Outcome {
    board.write(kind, state, x, y);
    // The same shifts as `write`'s, on the union of the piece's columns (a placement never
    // leaves the board sideways, so all of them are written).
    let rows = (shape(kind, state).rows << y) >> SHAPE_Y_OFFSET;
    if occupied | rows == ROW_MASK {
        return Outcome {
            lines: 0,
            score: 0,
            game_over: Some(rules::GameOver::TopOut),
        };
    }
    if rules.is_last_piece(index) {
        return Outcome {
            lines: 0,
            score: 0,
            game_over: Some(rules::GameOver::PieceLimit),
        };
    }
    let full = board.full_rows();
    let lines = full.count_ones();
    let score = if lines > 0 {
        board.filled_cells() * CLEAR_MULTIPLIER[lines as usize] as u32
    } else {
        0
    };
    board.remove_rows(full);
    Outcome {
        lines,
        score,
        game_over: None,
    }
}

/// The plain engine's piece for a fast-engine placement.
pub fn piece_at(kind: Kind, state: u8, x: usize, y: u32) -> Piece {
    Piece {
        kind,
        state,
        x: x as i32,
        y: y as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contest::rules::ContestKind;

    #[test]
    fn row_removal_matches_portable_version() {
        let mut seed = 1u64;
        for _ in 0..10_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let col = (seed >> 20) as u32 & ROW_MASK;
            let full = (seed >> 40) as u32 & ROW_MASK & (seed >> 7) as u32;
            let expected = remove_rows_portable(col, full);
            assert_eq!(remove_rows_from_column(col, full), expected);
            // Reference: rebuild the column bit by bit.
            let mut slow = 0u32;
            let mut dst = ROWS as i32 - 1;
            for y in (0..ROWS as i32).rev() {
                if full >> y & 1 == 0 {
                    slow |= (col >> y & 1) << dst;
                    dst -= 1;
                }
            }
            assert_eq!(expected, slow, "col {col:b} full {full:b}");
        }
    }

    #[test]
    fn shapes_have_the_rules_cells() {
        for kind in Kind::ALL {
            for state in 0..4u8 {
                let s = shape(kind, state);
                let mut cells = Vec::new();
                for &(dx, mask) in &s.columns[..s.width as usize] {
                    for b in 0..32i32 {
                        if mask >> b & 1 == 1 {
                            cells.push((dx as i32, b - SHAPE_Y_OFFSET as i32));
                        }
                    }
                }
                cells.sort();
                let mut expected = kind.offsets(state).to_vec();
                expected.sort();
                assert_eq!(cells, expected, "{kind} {state}");
                let canon = canonical_state(kind, state);
                let mut canon_cells = kind.offsets(canon).to_vec();
                canon_cells.sort();
                assert_eq!(canon_cells, expected, "{kind} {state} ~ {canon}");
            }
        }
    }
}
