//! The plain engine of the browser game: the rules of `docs/BROWSER.md` written as plainly as
//! possible.
//!
//! This is the oracle. The record checker replays on it and the fast move generator of the
//! solver is tested against it, so it favours being obviously right over being fast: the field
//! is a 20 x 10 grid of booleans, a piece is a square matrix with the field position of its
//! top-left cell, and each move is its own function.

pub use crate::kit::piece::Kind;
use std::fmt;

/// Field width in columns (0..9, left to right).
pub const WIDTH: i32 = 10;
/// Visible rows (0..19, top to bottom; row 19 is the floor row).
pub const HEIGHT: i32 = 20;
/// Rows above the field (-2 and -1) where pieces spawn; they never hold settled cells.
pub(crate) const HIDDEN_ROWS: i32 = 2;
/// Points for each cleared line.
pub(crate) const POINTS_PER_LINE: u64 = 10;
/// Points per level: level = points / 100 + 1.
pub(crate) const POINTS_PER_LEVEL: u64 = 100;

/// The largest matrix side (the I piece's).
pub(crate) const MAX_SIZE: usize = 4;

/// A piece's square matrix: `cells[row][col]` for `row, col < size`, the rest always empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Matrix {
    pub(crate) size: usize,
    pub(crate) cells: [[bool; MAX_SIZE]; MAX_SIZE],
}

impl Matrix {
    /// A matrix from rows of 0 and 1.
    pub(crate) const fn from_rows<const N: usize>(rows: [[u8; N]; N]) -> Matrix {
        let mut cells = [[false; MAX_SIZE]; MAX_SIZE];
        let mut r = 0;
        while r < N {
            let mut c = 0;
            while c < N {
                cells[r][c] = rows[r][c] == 1;
                c += 1;
            }
            r += 1;
        }
        Matrix { size: N, cells }
    }

    /// The matrix turned a quarter clockwise within its square: `rotated[r][c] = m[size-1-c][r]`.
    pub(crate) const fn rotated(&self) -> Matrix {
        let mut cells = [[false; MAX_SIZE]; MAX_SIZE];
        let mut r = 0;
        while r < self.size {
            let mut c = 0;
            while c < self.size {
                cells[r][c] = self.cells[self.size - 1 - c][r];
                c += 1;
            }
            r += 1;
        }
        Matrix {
            size: self.size,
            cells,
        }
    }

    /// The filled cells as `(row, col)` within the matrix, row by row.
    pub fn filled(&self) -> Vec<(i32, i32)> {
        let mut out = Vec::with_capacity(4);
        for r in 0..self.size {
            for c in 0..self.size {
                if self.cells[r][c] {
                    out.push((r as i32, c as i32));
                }
            }
        }
        out
    }
}

/// The matrix a new piece of `kind` starts with.
pub(crate) const fn matrix(kind: Kind) -> Matrix {
    match kind {
        Kind::I => Matrix::from_rows([[0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]]),
        Kind::J => Matrix::from_rows([[1, 0, 0], [1, 1, 1], [0, 0, 0]]),
        Kind::L => Matrix::from_rows([[0, 0, 1], [1, 1, 1], [0, 0, 0]]),
        Kind::O => Matrix::from_rows([[1, 1], [1, 1]]),
        Kind::S => Matrix::from_rows([[0, 1, 1], [1, 1, 0], [0, 0, 0]]),
        Kind::Z => Matrix::from_rows([[1, 1, 0], [0, 1, 1], [0, 0, 0]]),
        Kind::T => Matrix::from_rows([[0, 1, 0], [1, 1, 1], [0, 0, 0]]),
    }
}

/// The matrix of `kind` turned `rotation` quarters clockwise from its start.
pub const fn rotated_matrix(kind: Kind, rotation: u8) -> Matrix {
    let mut m = matrix(kind);
    let mut i = 0;
    while i < rotation % 4 {
        m = m.rotated();
        i += 1;
    }
    m
}

/// A falling piece: its matrix and where the matrix's top-left cell is on the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: Kind,
    /// Quarter turns clockwise since it spawned, modulo 4.
    pub rotation: u8,
    pub matrix: Matrix,
    pub row: i32,
    pub col: i32,
}

impl Piece {
    /// A new piece: column `5 - ceil(size / 2)`, row -1 for I and -2 for the others.
    pub fn spawn(kind: Kind) -> Piece {
        let matrix = matrix(kind);
        let size = matrix.size as i32;
        Piece {
            kind,
            rotation: 0,
            matrix,
            row: if kind == Kind::I { -1 } else { -2 },
            col: WIDTH / 2 - (size + 1) / 2,
        }
    }

    /// The field cells `(row, col)` the piece covers.
    pub fn cells(&self) -> Vec<(i32, i32)> {
        (self.matrix.filled().into_iter())
            .map(|(r, c)| (self.row + r, self.col + c))
            .collect()
    }

    /// Whether any of its cells is in a hidden row.
    pub(crate) fn in_hidden_rows(&self) -> bool {
        self.cells().iter().any(|&(r, _)| r < 0)
    }
}

/// One move of the player (or of gravity, which is a `Down`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Left,
    Right,
    Down,
    Rotate,
}

impl Move {
    pub const ALL: [Move; 4] = [Move::Left, Move::Right, Move::Down, Move::Rotate];

    /// The record's letter: `L`, `R`, `D`, `U`.
    pub(crate) fn letter(self) -> char {
        match self {
            Move::Left => 'L',
            Move::Right => 'R',
            Move::Down => 'D',
            Move::Rotate => 'U',
        }
    }

    /// The move a record letter names (upper case only, as the page writes them).
    pub(crate) fn from_letter(c: char) -> Option<Move> {
        Some(match c {
            'L' => Move::Left,
            'R' => Move::Right,
            'D' => Move::Down,
            'U' => Move::Rotate,
            _ => return None,
        })
    }
}

/// The settled cells: `cells[row][col]`, row 0 at the top.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Field {
    pub cells: [[bool; WIDTH as usize]; HEIGHT as usize],
}

impl Field {
    pub fn new() -> Field {
        Field::default()
    }

    /// Whether a visible cell is settled (cells outside the field are not).
    pub(crate) fn filled(&self, row: i32, col: i32) -> bool {
        (0..HEIGHT).contains(&row) && (0..WIDTH).contains(&col) && {
            self.cells[row as usize][col as usize]
        }
    }

    /// Whether `piece` may stand where it is: every cell inside columns 0..9, not below row
    /// 19, and, in a visible row, not on a settled cell.
    pub fn fits(&self, piece: &Piece) -> bool {
        piece
            .cells()
            .into_iter()
            .all(|(row, col)| (0..WIDTH).contains(&col) && row < HEIGHT && !self.filled(row, col))
    }

    /// The field as text, row 0 first: `#` settled, `.` empty, `@` a cell of `piece`.
    pub(crate) fn picture(&self, piece: Option<&Piece>) -> String {
        let marked = piece.map(Piece::cells).unwrap_or_default();
        let mut out = String::new();
        for row in 0..HEIGHT {
            for col in 0..WIDTH {
                out.push(if marked.contains(&(row, col)) {
                    '@'
                } else if self.filled(row, col) {
                    '#'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.picture(None))
    }
}

/// What a lock did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    /// Lines cleared (0 when the game ended).
    pub lines: u32,
    /// The piece had a cell in a hidden row: it was not placed and the game is over.
    pub game_over: bool,
}

/// What one move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The piece moved or turned.
    Moved,
    /// A left, right or rotate was refused: nothing changed.
    Refused,
    /// A down was refused: the piece locked.
    Locked(Lock),
}

/// A browser game under way: the field, the points and lines so far, and whether it has ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub field: Field,
    pub points: u64,
    pub lines: u64,
    pub over: bool,
}

impl Round {
    pub fn new() -> Round {
        Round::default()
    }

    /// The level the points give: `points / 100 + 1`.
    pub fn level(&self) -> u64 {
        level(self.points)
    }

    /// Plays one move of `piece`.
    pub fn play(&mut self, piece: &mut Piece, mv: Move) -> Outcome {
        match mv {
            Move::Left => self.shift(piece, -1),
            Move::Right => self.shift(piece, 1),
            Move::Rotate => self.rotate(piece),
            Move::Down => self.down(piece),
        }
    }

    /// Left (`dx = -1`) or right (`dx = 1`), unless the new position does not fit.
    pub fn shift(&self, piece: &mut Piece, dx: i32) -> Outcome {
        let moved = Piece {
            col: piece.col + dx,
            ..*piece
        };
        self.take(piece, moved)
    }

    /// A quarter turn clockwise in place, unless the turned matrix does not fit (no kicks).
    pub fn rotate(&self, piece: &mut Piece) -> Outcome {
        let turned = Piece {
            matrix: piece.matrix.rotated(),
            rotation: (piece.rotation + 1) % 4,
            ..*piece
        };
        self.take(piece, turned)
    }

    /// Down one row; where that does not fit, the piece locks where it is.
    pub fn down(&mut self, piece: &mut Piece) -> Outcome {
        let lowered = Piece {
            row: piece.row + 1,
            ..*piece
        };
        if self.field.fits(&lowered) {
            *piece = lowered;
            Outcome::Moved
        } else {
            Outcome::Locked(self.lock(piece))
        }
    }

    fn take(&self, piece: &mut Piece, candidate: Piece) -> Outcome {
        if self.field.fits(&candidate) {
            *piece = candidate;
            Outcome::Moved
        } else {
            Outcome::Refused
        }
    }

    /// Locks `piece`: a cell in a hidden row ends the game and the piece is not placed;
    /// otherwise its cells settle (ORed in, even over settled cells), full rows are removed and
    /// the lines scored.
    pub(crate) fn lock(&mut self, piece: &Piece) -> Lock {
        if piece.in_hidden_rows() {
            self.over = true;
            return Lock {
                lines: 0,
                game_over: true,
            };
        }
        for (row, col) in piece.cells() {
            self.field.cells[row as usize][col as usize] = true;
        }
        let lines = self.clear_rows();
        self.lines += u64::from(lines);
        self.points += u64::from(lines) * POINTS_PER_LINE;
        Lock {
            lines,
            game_over: false,
        }
    }

    /// Removes full rows from the bottom up: a full row goes, everything above moves down one
    /// row, and the same row is checked again.
    fn clear_rows(&mut self) -> u32 {
        let mut lines = 0;
        let mut row = HEIGHT - 1;
        while row >= 0 {
            if self.field.cells[row as usize].iter().all(|&c| c) {
                for r in (1..=row as usize).rev() {
                    self.field.cells[r] = self.field.cells[r - 1];
                }
                self.field.cells[0] = [false; WIDTH as usize];
                lines += 1;
            } else {
                row -= 1;
            }
        }
        lines
    }
}

/// The level `points` give.
pub fn level(points: u64) -> u64 {
    points / POINTS_PER_LEVEL + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_turns_give_the_matrix_back_and_one_turn_follows_the_formula() {
        for kind in Kind::ALL {
            let m = matrix(kind);
            assert_eq!(rotated_matrix(kind, 4), m);
            let t = m.rotated();
            for r in 0..m.size {
                for c in 0..m.size {
                    assert_eq!(t.cells[r][c], m.cells[m.size - 1 - c][r]);
                }
            }
            assert_eq!(m.filled().len(), 4, "{kind}");
        }
    }
}
