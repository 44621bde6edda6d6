//! The solver's placement search for the browser game, on the contest's column bitboard
//! ([`Board`]: bit `y` of a column is row `y`, bit 0 the top visible row).
//!
//! A breadth-first search over (rotation, column, row) of the piece's matrix from its spawn,
//! with the moves of the rules (rotate, left, right, down; no kicks), so tucks and spins are
//! found. Collisions are read from a map built once per call: per rotation and column of the
//! matrix, a `u32` whose bit `ry` says the matrix collides with its top row at `ry - 2`
//! (rows shifted by the two hidden rows, so every index is non-negative). Every buffer lives
//! in [`MoveGen`] and is reused: a call allocates nothing beyond growing `out`.
//!
//! The plain engine in [`super::rules`] is the reference; `tests/it/browser.rs` holds this search
//! to an exhaustive search on it.

use super::rules::{self, Kind, Move, Piece};
use crate::kit::board::{Board, COLS};

/// Hidden rows above the field; a matrix row `row` is index `row + HIDDEN` here.
const HIDDEN: u32 = rules::HIDDEN_ROWS as u32;
/// Matrix columns: a matrix may stand up to 3 columns left of the field (its empty columns
/// off the field), so column `col` is index `col + COL_OFFSET`.
const COL_OFFSET: i32 = 3;
/// Matrix column indices: -3..=9.
const MATRIX_COLS: usize = COLS + COL_OFFSET as usize;
/// Matrix row indices per column and rotation (22 used, one `u32` of bits).
const ROW_SLOTS: usize = 32;
/// States: rotation, column, row.
const STATES: usize = 4 * MATRIX_COLS * ROW_SLOTS;
/// The rows below the floor, set in every extended column so that the floor collides.
const FLOOR: u32 = !0 << (rules::HEIGHT as u32 + HIDDEN);
/// No parent: the spawn.
const NONE: u16 = u16::MAX;

const _: () = assert!(
    STATES <= NONE as usize,
    "state ids must fit a u16 below NONE"
);
const _: () = assert!(
    rules::HEIGHT as u32 + HIDDEN + 4 < 32,
    "rows must fit a u32"
);

/// One kind in one rotation, laid out by columns of its matrix.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// Per filled matrix column: `(dc, mask)`, bit `dr` of `mask` per filled cell.
    columns: [(u8, u32); 4],
    width: u8,
    /// The union of the column masks: the matrix rows that hold cells.
    rows: u32,
    /// The first rotation whose cells are these up to a shift, and the shift: the top-left of
    /// the cells' bounding box within the matrix. Equal (canon, box position) means equal cells.
    canon: u8,
    top: u8,
    left: u8,
}

const fn build_shape(m: &rules::Matrix) -> Shape {
    let mut columns = [(0u8, 0u32); 4];
    let mut width = 0usize;
    let mut rows = 0u32;
    let mut top = 4u8;
    let mut left = 4u8;
    let mut c = 0;
    while c < m.size {
        let mut mask = 0u32;
        let mut r = 0;
        while r < m.size {
            if m.cells[r][c] {
                mask |= 1 << r;
                if (r as u8) < top {
                    top = r as u8;
                }
            }
            r += 1;
        }
        if mask != 0 {
            columns[width] = (c as u8, mask);
            width += 1;
            rows |= mask;
            if (c as u8) < left {
                left = c as u8;
            }
        }
        c += 1;
    }
    Shape {
        columns,
        width: width as u8,
        rows,
        canon: 0,
        top,
        left,
    }
}

/// The cells of a shape moved to the top-left of the matrix, as column masks.
const fn normalized(s: &Shape) -> [u32; 4] {
    let mut out = [0u32; 4];
    let mut i = 0;
    while i < s.width as usize {
        let (dc, mask) = s.columns[i];
        out[(dc - s.left) as usize] = mask >> s.top;
        i += 1;
    }
    out
}

const fn build_shapes() -> [[Shape; 4]; 7] {
    let mut out = [[build_shape(&rules::matrix(Kind::O)); 4]; 7];
    let mut k = 0;
    while k < 7 {
        let kind = Kind::ALL[k];
        let mut r = 0;
        while r < 4 {
            let mut s = build_shape(&rules::rotated_matrix(kind, r as u8));
            let cells = normalized(&s);
            let mut earlier = 0;
            s.canon = r as u8;
            while earlier < r {
                let e = normalized(&out[k][earlier]);
                if e[0] == cells[0] && e[1] == cells[1] && e[2] == cells[2] && e[3] == cells[3] {
                    s.canon = earlier as u8;
                    break;
                }
                earlier += 1;
            }
            out[k][r] = s;
            r += 1;
        }
        k += 1;
    }
    out
}

static SHAPES: [[Shape; 4]; 7] = build_shapes();

/// A final resting state of a piece: where a down is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Quarter turns from the spawn matrix (0..=3).
    pub rotation: u8,
    /// The field position of the matrix's top-left cell (row -2 is the top hidden row).
    pub row: i8,
    pub col: i8,
    /// The board after the lock and the removal of full rows (unchanged when the game ends).
    pub board: Board,
    pub lines: u32,
    /// A cell was in a hidden row: the piece is not placed and the game is over.
    pub game_over: bool,
    /// Length of the shortest path, its locking `D` included.
    pub moves: u16,
    /// The search state it locked from, for [`MoveGen::path`].
    state: u16,
    /// The call of [`MoveGen::placements`] that found it.
    call: u32,
}

/// The placement search with its buffers (about 14 KiB; keep one per thread).
#[derive(Clone)]
pub struct MoveGen {
    /// Per rotation and matrix column: bit `ry` set where the matrix collides.
    collides: [u32; 4 * MATRIX_COLS],
    /// Per rotation and matrix column: bit `ry` set where the search has been.
    visited: [u32; 4 * MATRIX_COLS],
    /// Per cell shape (canonical rotation) and box row: bit per box column already placed.
    placed: [u16; 4 * ROW_SLOTS],
    parent: [u16; STATES],
    via: [Move; STATES],
    depth: [u16; STATES],
    queue: [u16; STATES],
    call: u32,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen::new()
    }
}

#[inline(always)]
fn state_id(rotation: usize, cx: usize, ry: u32) -> u16 {
    (((rotation * MATRIX_COLS + cx) * ROW_SLOTS) as u32 + ry) as u16
}

impl MoveGen {
    pub fn new() -> MoveGen {
        MoveGen {
            collides: [0; 4 * MATRIX_COLS],
            visited: [0; 4 * MATRIX_COLS],
            placed: [0; 4 * ROW_SLOTS],
            parent: [NONE; STATES],
            via: [Move::Down; STATES],
            depth: [0; STATES],
            queue: [0; STATES],
            call: 0,
        }
    }

    /// Every distinct final resting state of `kind` on `board` reachable from its spawn by
    /// legal moves, into `out` (cleared first), in order of their shortest paths: fewest
    /// moves, and among equally short paths the first in a breadth-first search that tries
    /// U, L, R, D in that order from each state. States whose cells are the same (rotations
    /// of O, I, S and Z) count once, with the shortest path. An O never rotates (its turn
    /// changes nothing).
    pub fn placements(&mut self, board: &Board, kind: Kind, out: &mut Vec<Placement>) {
        out.clear();
        self.call = self.call.wrapping_add(1);
        let shapes = &SHAPES[kind.index()];
        let rotations = if kind == Kind::O { 1 } else { 4 };
        let mut ext = [0u32; COLS];
        for (e, &c) in ext.iter_mut().zip(&board.cols) {
            *e = (c << HIDDEN) | FLOOR;
        }
        for (r, shape) in shapes.iter().enumerate().take(rotations) {
            for cx in 0..MATRIX_COLS {
                self.collides[r * MATRIX_COLS + cx] = collisions(shape, cx, &ext);
            }
        }
        self.visited = [0; 4 * MATRIX_COLS];
        self.placed = [0; 4 * ROW_SLOTS];

        let spawn = Piece::spawn(kind);
        let spawn_cx = (spawn.col + COL_OFFSET) as usize;
        let spawn_ry = (spawn.row + HIDDEN as i32) as u32;
        let start = state_id(0, spawn_cx, spawn_ry);
        self.visited[spawn_cx] |= 1 << spawn_ry;
        self.parent[start as usize] = NONE;
        self.depth[start as usize] = 0;
        self.queue[0] = start;
        let (mut head, mut tail) = (0usize, 1usize);

        while head < tail {
            let s = self.queue[head];
            head += 1;
            let ry = s as u32 % ROW_SLOTS as u32;
            let rc = s as usize / ROW_SLOTS;
            let (r, cx) = (rc / MATRIX_COLS, rc % MATRIX_COLS);
            let mut visit = |gen: &mut MoveGen, r2: usize, cx2: usize, ry2: u32, mv: Move| {
                let slot = r2 * MATRIX_COLS + cx2;
                if (gen.collides[slot] | gen.visited[slot]) >> ry2 & 1 == 0 {
                    gen.visited[slot] |= 1 << ry2;
                    let t = state_id(r2, cx2, ry2) as usize;
                    gen.parent[t] = s;
                    gen.via[t] = mv;
                    gen.depth[t] = gen.depth[s as usize] + 1;
                    gen.queue[tail] = t as u16;
                    tail += 1;
                }
            };
            if rotations > 1 {
                visit(self, (r + 1) & 3, cx, ry, Move::Rotate);
            }
            if cx > 0 {
                visit(self, r, cx - 1, ry, Move::Left);
            }
            if cx + 1 < MATRIX_COLS {
                visit(self, r, cx + 1, ry, Move::Right);
            }
            if self.collides[rc] >> (ry + 1) & 1 == 0 {
                visit(self, r, cx, ry + 1, Move::Down);
            } else {
                self.lock(board, &shapes[r], (r, cx, ry), s, out);
            }
        }
    }

    /// Adds the lock of the state `s` = `(r, cx, ry)` unless its cells were placed already.
    #[inline]
    fn lock(
        &mut self,
        board: &Board,
        shape: &Shape,
        (r, cx, ry): (usize, usize, u32),
        s: u16,
        out: &mut Vec<Placement>,
    ) {
        let box_row = ry as usize + shape.top as usize;
        let box_col = cx + shape.left as usize - COL_OFFSET as usize;
        let seen = &mut self.placed[shape.canon as usize * ROW_SLOTS + box_row];
        if *seen >> box_col & 1 == 1 {
            return;
        }
        *seen |= 1 << box_col;
        let mut after = *board;
        let game_over = (shape.rows << ry) & ((1 << HIDDEN) - 1) != 0;
        let mut lines = 0;
        if !game_over {
            for &(dc, mask) in &shape.columns[..shape.width as usize] {
                let c = cx + dc as usize - COL_OFFSET as usize;
                after.cols[c] |= (mask << ry) >> HIDDEN;
            }
            let full = after.full_rows();
            lines = full.count_ones();
            after.remove_rows(full);
        }
        out.push(Placement {
            rotation: r as u8,
            row: (ry as i32 - HIDDEN as i32) as i8,
            col: (cx as i32 - COL_OFFSET) as i8,
            board: after,
            lines,
            game_over,
            moves: self.depth[s as usize] + 1,
            state: s,
            call: self.call,
        });
    }

    /// The shortest path of `placement`, its locking `D` last, into `out` (cleared first).
    /// `placement` must come from this generator's latest call of [`MoveGen::placements`].
    pub fn path(&self, placement: &Placement, out: &mut Vec<Move>) {
        assert_eq!(
            placement.call, self.call,
            "a placement's path is kept only until the next call of placements"
        );
        out.clear();
        out.push(Move::Down);
        let mut s = placement.state;
        while self.parent[s as usize] != NONE {
            out.push(self.via[s as usize]);
            s = self.parent[s as usize];
        }
        out.reverse();
    }
}

/// The fast board of a plain engine's field.
pub fn board_of(field: &rules::Field) -> Board {
    let mut board = Board::default();
    for (row, cells) in field.cells.iter().enumerate() {
        for (col, &filled) in cells.iter().enumerate() {
            if filled {
                board.cols[col] |= 1 << row;
            }
        }
    }
    board
}

/// The plain engine's field of a fast board.
pub fn field_of(board: &Board) -> rules::Field {
    let mut field = rules::Field::new();
    for (row, cells) in field.cells.iter_mut().enumerate() {
        for (col, cell) in cells.iter_mut().enumerate() {
            *cell = board.cols[col] >> row & 1 == 1;
        }
    }
    field
}

/// The collision bits of `shape` with its matrix at column index `cx`: bit `ry` set where a
/// cell would leave the columns, fall below the floor or overlap a settled cell.
#[inline(always)]
fn collisions(shape: &Shape, cx: usize, ext: &[u32; COLS]) -> u32 {
    let mut bits = 0;
    for &(dc, mask) in &shape.columns[..shape.width as usize] {
        let c = cx as i32 + dc as i32 - COL_OFFSET;
        if !(0..COLS as i32).contains(&c) {
            return !0;
        }
        let column = ext[c as usize];
        let mut m = mask;
        while m != 0 {
            bits |= column >> m.trailing_zeros();
            m &= m - 1;
        }
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_cells_share_a_canonical_rotation() {
        let canon = |k: Kind| -> Vec<u8> { SHAPES[k.index()].iter().map(|s| s.canon).collect() };
        assert_eq!(canon(Kind::O), [0, 0, 0, 0]);
        assert_eq!(canon(Kind::I), [0, 1, 0, 1]);
        assert_eq!(canon(Kind::S), [0, 1, 0, 1]);
        assert_eq!(canon(Kind::Z), [0, 1, 0, 1]);
        assert_eq!(canon(Kind::T), [0, 1, 2, 3]);
        assert_eq!(canon(Kind::J), [0, 1, 2, 3]);
        assert_eq!(canon(Kind::L), [0, 1, 2, 3]);
    }
}
