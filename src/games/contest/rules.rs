//! The plain rules engine: the game of `docs/RULES.md` written as plainly as possible.
//!
//! This is the oracle. The replay checker runs on it and the fast bitboard engine of the solver
//! is tested against it, so it favours being obviously right over being fast: the board is a
//! 20 x 10 grid of booleans, a piece is a center plus four offsets, and every step of a turn is
//! its own function named after the rule it implements.

use std::fmt;

/// Field width in columns (x = 0..9, left to right).
pub const WIDTH: i32 = 10;
/// Field height in rows (y = 0..19, top to bottom: row 0 is the top, row 19 the floor row).
pub const HEIGHT: i32 = 20;
/// The contest's default piece limit: the 10,000th piece scores nothing and ends the game.
pub const DEFAULT_PIECE_LIMIT: usize = 10_000;
/// The most moves one piece may carry in a record.
pub const MAX_MOVES_PER_PIECE: u32 = 100;
/// Spawn center of every piece.
pub const SPAWN: (i32, i32) = (4, 0);

/// Score multiplier `k(n)` for `n` full rows; the turn scores `filled_cells * k(n)`.
pub const CLEAR_MULTIPLIER: [u64; 5] = [0, 1, 3, 6, 10];

pub use crate::kit::piece::Kind;

/// The contest's shapes: the kit's kinds in the rotation states of RULES.md. A trait of the
/// contest's, as [`ContestBoard`](crate::games::contest::bitboard::ContestBoard) is, so that
/// the kit's `Kind` keeps its own methods and a reader sees where these come from
/// (`use ...::rules::ContestKind`).
pub trait ContestKind {
    /// Cell offsets `(dx, dy)` of this kind in rotation state `state` (0..3).
    fn offsets(self, state: u8) -> [(i32, i32); 4];
}

impl ContestKind for Kind {
    fn offsets(self, state: u8) -> [(i32, i32); 4] {
        OFFSETS[self.index()][state as usize % 4]
    }
}

/// The table of RULES.md, transcribed row by row (kind) and column by column (state).
pub(crate) const OFFSETS: [[[(i32, i32); 4]; 4]; 7] = [
    // I
    [
        [(0, 0), (0, -1), (0, -2), (0, 1)],
        [(0, 0), (1, 0), (2, 0), (-1, 0)],
        [(0, 0), (0, -1), (0, -2), (0, 1)],
        [(0, 0), (1, 0), (2, 0), (-1, 0)],
    ],
    // L
    [
        [(0, 0), (0, -1), (0, -2), (1, 0)],
        [(0, 0), (1, 0), (2, 0), (0, 1)],
        [(0, 0), (-1, 0), (0, 1), (0, 2)],
        [(0, 0), (0, -1), (-1, 0), (-2, 0)],
    ],
    // J
    [
        [(0, 0), (0, -1), (0, -2), (-1, 0)],
        [(0, 0), (0, -1), (1, 0), (2, 0)],
        [(0, 0), (1, 0), (0, 1), (0, 2)],
        [(0, 0), (-1, 0), (-2, 0), (0, 1)],
    ],
    // T
    [
        [(0, 0), (1, 0), (0, 1), (-1, 0)],
        [(0, 0), (0, -1), (0, 1), (-1, 0)],
        [(0, 0), (0, -1), (1, 0), (-1, 0)],
        [(0, 0), (0, -1), (1, 0), (0, 1)],
    ],
    // O
    [
        [(0, 0), (0, -1), (1, -1), (1, 0)],
        [(0, 0), (0, -1), (1, -1), (1, 0)],
        [(0, 0), (0, -1), (1, -1), (1, 0)],
        [(0, 0), (0, -1), (1, -1), (1, 0)],
    ],
    // S
    [
        [(0, 0), (0, -1), (1, -1), (-1, 0)],
        [(0, 0), (-1, 0), (-1, -1), (0, 1)],
        [(0, 0), (0, -1), (1, -1), (-1, 0)],
        [(0, 0), (-1, 0), (-1, -1), (0, 1)],
    ],
    // Z
    [
        [(0, 0), (0, -1), (1, 0), (-1, -1)],
        [(0, 0), (0, -1), (-1, 1), (-1, 0)],
        [(0, 0), (0, -1), (1, 0), (-1, -1)],
        [(0, 0), (0, -1), (-1, 1), (-1, 0)],
    ],
];

/// A piece on the board: kind, rotation state and center.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: Kind,
    pub state: u8,
    pub x: i32,
    pub y: i32,
}

impl Piece {
    /// Piece number `index` (0-based) as it spawns: center (4, 0), state `index mod 4`.
    pub fn spawn(kind: Kind, index: usize) -> Piece {
        Piece {
            kind,
            state: (index % 4) as u8,
            x: SPAWN.0,
            y: SPAWN.1,
        }
    }

    /// The four board cells `(x, y)` this piece covers.
    pub fn cells(&self) -> [(i32, i32); 4] {
        self.kind
            .offsets(self.state)
            .map(|(dx, dy)| (self.x + dx, self.y + dy))
    }

    /// The piece after `mv`, whether or not that position is valid.
    pub fn moved(&self, mv: Move) -> Piece {
        let mut p = *self;
        match mv {
            Move::Left => p.x -= 1,
            Move::Right => p.x += 1,
            Move::Down => p.y += 1,
            Move::Rotate => p.state = (p.state + 1) % 4,
        }
        p
    }
}

/// One move of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `L`: x - 1.
    Left,
    /// `R`: x + 1.
    Right,
    /// `D`: y + 1.
    Down,
    /// `C`: next rotation state, same center.
    Rotate,
}

impl Move {
    pub const ALL: [Move; 4] = [Move::Left, Move::Right, Move::Down, Move::Rotate];

    pub(crate) fn letter(self) -> char {
        match self {
            Move::Left => 'L',
            Move::Right => 'R',
            Move::Down => 'D',
            Move::Rotate => 'C',
        }
    }

    pub(crate) fn from_letter(c: char) -> Option<Move> {
        Some(match c {
            'L' => Move::Left,
            'R' => Move::Right,
            'D' => Move::Down,
            'C' => Move::Rotate,
            _ => return None,
        })
    }
}

/// The 10 x 20 board as a grid of filled cells, `rows[y][x]`.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Field {
    rows: [[bool; WIDTH as usize]; HEIGHT as usize],
}

impl Field {
    pub fn new() -> Field {
        Field::default()
    }

    /// Whether the cell `(x, y)` is filled; cells outside the grid read as empty.
    pub fn filled(&self, x: i32, y: i32) -> bool {
        (0..WIDTH).contains(&x) && (0..HEIGHT).contains(&y) && self.rows[y as usize][x as usize]
    }

    /// Sets one cell; used by tests and by tools that build boards by hand.
    pub fn set(&mut self, x: i32, y: i32, filled: bool) {
        assert!((0..WIDTH).contains(&x) && (0..HEIGHT).contains(&y));
        self.rows[y as usize][x as usize] = filled;
    }

    /// RULES.md, "valid": every cell inside the side walls, not below the floor, and either above
    /// the board or on an empty cell.
    pub fn is_valid(&self, piece: &Piece) -> bool {
        piece
            .cells()
            .iter()
            .all(|&(x, y)| (0..WIDTH).contains(&x) && y < HEIGHT && (y < 0 || !self.filled(x, y)))
    }

    /// Writes the piece into the board; cells above the top are lost.
    pub fn write(&mut self, piece: &Piece) {
        for (x, y) in piece.cells() {
            if y >= 0 {
                self.rows[y as usize][x as usize] = true;
            }
        }
    }

    /// Rows whose every cell is filled, top to bottom.
    pub fn full_rows(&self) -> Vec<i32> {
        (0..HEIGHT)
            .filter(|&y| self.rows[y as usize].iter().all(|&c| c))
            .collect()
    }

    /// Number of filled cells on the board.
    pub fn filled_cells(&self) -> u32 {
        self.rows.iter().flatten().filter(|&&c| c).count() as u32
    }

    /// Whether every one of the 20 rows holds at least one filled cell (the top-out condition).
    pub fn every_row_occupied(&self) -> bool {
        self.rows.iter().all(|row| row.iter().any(|&c| c))
    }

    /// Removes the full rows; what was above them moves down, empty rows enter at the top.
    /// Nothing else falls. Returns the number of rows removed.
    pub fn clear_full_rows(&mut self) -> u32 {
        let kept: Vec<[bool; WIDTH as usize]> = self
            .rows
            .iter()
            .filter(|row| !row.iter().all(|&c| c))
            .copied()
            .collect();
        let removed = HEIGHT as usize - kept.len();
        let mut rows = [[false; WIDTH as usize]; HEIGHT as usize];
        rows[removed..].copy_from_slice(&kept);
        self.rows = rows;
        removed as u32
    }

    /// Parses a board drawn as text: one line per row, `#` or `X` filled, anything else empty.
    /// Lines are aligned to the floor, so a drawing of 3 lines describes rows 17..19.
    pub fn from_picture(picture: &str) -> Field {
        let lines: Vec<&str> = picture
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert!(
            lines.len() <= HEIGHT as usize,
            "picture taller than the board"
        );
        let mut board = Field::new();
        let top = HEIGHT as usize - lines.len();
        for (i, line) in lines.iter().enumerate() {
            for (x, c) in line.chars().take(WIDTH as usize).enumerate() {
                board.rows[top + i][x] = c == '#' || c == 'X';
            }
        }
        board
    }

    /// The board drawn with `piece` (if any) marked as `@`, one row per line.
    pub fn picture(&self, piece: Option<&Piece>) -> String {
        let cells = piece.map(|p| p.cells());
        let mut out = String::with_capacity(((WIDTH + 3) * HEIGHT) as usize);
        for y in 0..HEIGHT {
            out.push('|');
            for x in 0..WIDTH {
                let marked = cells.is_some_and(|c| c.contains(&(x, y)));
                out.push(if marked {
                    '@'
                } else if self.filled(x, y) {
                    '#'
                } else {
                    '.'
                });
            }
            out.push_str("|\n");
        }
        out
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.picture(None))
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// The piece could not appear at its spawn position.
    SpawnBlocked,
    /// After writing the piece every row held a filled cell; the piece scored nothing.
    TopOut,
    /// The piece was the last one the piece limit allows; it scored nothing.
    PieceLimit,
}

impl GameOver {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            GameOver::SpawnBlocked => "spawn position blocked",
            GameOver::TopOut => "top-out (every row occupied)",
            GameOver::PieceLimit => "piece limit reached",
        }
    }
}

/// What locking one piece did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Rows cleared (0 when the turn ended the game).
    pub lines: u32,
    /// Filled cells counted for the score (after writing, before clearing).
    pub filled: u32,
    /// Points this turn scored.
    pub score: u64,
    /// Set when this turn ended the game.
    pub game_over: Option<GameOver>,
}

/// Where a piece may lock, and so what a record may do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LockMode {
    /// The game as a player could play it: every piece locks at rest, and nothing may follow
    /// the end of the game.
    #[default]
    Strict,
    /// The contest's web replay: a piece locks wherever its moves leave it, even in mid-air,
    /// and whatever follows the end of the game is ignored.
    Judge,
}

/// The rules a game is played by beyond the fixed ones (board, pieces, scoring): one value that
/// the checker, the search and every tool take, so that a game's variants are chosen in one
/// place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The piece whose number reaches this limit scores nothing and ends the game; 0 = no limit.
    pub piece_limit: usize,
    pub lock: LockMode,
}

impl Default for Rules {
    /// The contest's rules, strict.
    fn default() -> Self {
        Rules {
            piece_limit: DEFAULT_PIECE_LIMIT,
            lock: LockMode::Strict,
        }
    }
}

impl Rules {
    /// The contest's rules as its web replay plays them.
    pub fn judge() -> Rules {
        Rules::default().with_lock(LockMode::Judge)
    }

    /// These rules with another lock mode (the same piece limit).
    pub(crate) fn with_lock(self, lock: LockMode) -> Rules {
        Rules { lock, ..self }
    }

    /// These rules with another piece limit.
    pub fn with_piece_limit(self, piece_limit: usize) -> Rules {
        Rules {
            piece_limit,
            ..self
        }
    }

    /// Whether a piece may lock where it could still fall.
    #[inline]
    pub(crate) fn locks_in_mid_air(self) -> bool {
        self.lock == LockMode::Judge
    }

    /// Whether piece number `index` (0-based) is the one the limit stops at: it scores nothing.
    #[inline(always)]
    pub(crate) fn is_last_piece(self, index: usize) -> bool {
        self.piece_limit != 0 && index + 1 >= self.piece_limit
    }

    /// How many pieces of a sequence of `len` can be locked and score: the piece at the limit
    /// scores nothing, so a search never places it.
    pub(crate) fn pieces_to_place(self, len: usize) -> usize {
        if self.piece_limit == 0 {
            len
        } else {
            len.min(self.piece_limit - 1)
        }
    }

    /// "strict" or "judge", as the tools' summaries name the mode.
    pub(crate) fn mode_name(self) -> &'static str {
        match self.lock {
            LockMode::Strict => "strict",
            LockMode::Judge => "judge",
        }
    }
}

/// Locks `piece` on `board` as piece number `index` (0-based) and applies steps 3-7 of a turn:
/// write, top-out check, limit check, score, clear.
pub fn lock(board: &mut Field, piece: &Piece, index: usize, rules: Rules) -> Turn {
    board.write(piece);
    let game_over = if board.every_row_occupied() {
        Some(GameOver::TopOut)
    } else if rules.is_last_piece(index) {
        Some(GameOver::PieceLimit)
    } else {
        None
    };
    if game_over.is_some() {
        return Turn {
            lines: 0,
            filled: board.filled_cells(),
            score: 0,
            game_over,
        };
    }
    let full = board.full_rows().len();
    let filled = board.filled_cells();
    let score = filled as u64 * CLEAR_MULTIPLIER[full];
    let lines = board.clear_full_rows();
    Turn {
        lines,
        filled,
        score,
        game_over: None,
    }
}

/// Whether `piece` rests: moving it down would be invalid.
pub fn is_resting(board: &Field, piece: &Piece) -> bool {
    !board.is_valid(&piece.moved(Move::Down))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_moves_rows_down_without_cascade() {
        let mut b = Field::from_picture(
            "
            #.........
            ##########
            .#........
            ##########",
        );
        assert_eq!(b.full_rows(), vec![17, 19]);
        assert_eq!(b.clear_full_rows(), 2);
        assert_eq!(
            b,
            Field::from_picture(
                "
                #.........
                .#........"
            )
        );
    }
}
