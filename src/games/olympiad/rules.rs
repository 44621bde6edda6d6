//! The olympiad's game as the checker plays it (`docs/OLYMPIAD.md`), written plainly: a grid
//! of cells, a piece dropped straight down its columns, full rows removed, and after a removal
//! the cells left falling as connected bodies, found by a breadth-first walk.
//!
//! Rows count from the bottom (row 0 is the floor row), columns from the left.

pub use crate::kit::piece::Kind;
use std::collections::VecDeque;

/// Columns of the field.
pub const WIDTH: usize = 10;
/// Rows of the field; a piece with a cell above them ends the game.
pub const HEIGHT: usize = 20;

/// Each kind's orientations, drawn top row first (`#` a cell). Orientation 0 is the first
/// drawing; each next one is the last turned a quarter clockwise. Only distinct shapes are
/// listed: O has one, I, S and Z two, J, L and T four.
pub(crate) fn pictures(kind: Kind) -> &'static [&'static [&'static str]] {
    match kind {
        Kind::I => &[&["####"], &["#", "#", "#", "#"]],
        Kind::O => &[&["##", "##"]],
        Kind::S => &[&[".##", "##."], &["#.", "##", ".#"]],
        Kind::Z => &[&["##.", ".##"], &[".#", "##", "#."]],
        Kind::T => &[
            &[".#.", "###"],
            &["#.", "##", "#."],
            &["###", ".#."],
            &[".#", "##", ".#"],
        ],
        Kind::J => &[
            &["#..", "###"],
            &["##", "#.", "#."],
            &["###", "..#"],
            &[".#", ".#", "##"],
        ],
        Kind::L => &[
            &["..#", "###"],
            &["#.", "#.", "##"],
            &["###", "#.."],
            &["##", ".#", ".#"],
        ],
    }
}

/// How many orientations `kind` has.
pub fn orientations(kind: Kind) -> usize {
    pictures(kind).len()
}

/// The cells of `kind` in `orientation` as `(column, row)` from the bottom-left corner of its
/// drawing (both from 0, rows upward), or None for an orientation the kind does not have.
pub fn cells(kind: Kind, orientation: usize) -> Option<Vec<(usize, usize)>> {
    let picture = pictures(kind).get(orientation)?;
    let height = picture.len();
    let mut cells = Vec::with_capacity(4);
    for (top_row, line) in picture.iter().enumerate() {
        for (column, c) in line.chars().enumerate() {
            if c == '#' {
                cells.push((column, height - 1 - top_row));
            }
        }
    }
    Some(cells)
}

/// How many columns `kind` spans in `orientation`.
pub fn piece_width(kind: Kind, orientation: usize) -> Option<usize> {
    pictures(kind).get(orientation).map(|p| p[0].len())
}

/// Why a placement cannot be played at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadPlacement {
    /// The kind has no such orientation (it has `orientations`).
    Orientation { orientations: usize },
    /// The piece's leftmost column is not in `0..=last` (the piece would leave the field).
    Column { last: usize },
}

/// What a placement did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placed {
    /// Rows removed, over every round.
    pub lines: u32,
    /// Rounds of removal after the first: rows that became full only after the cells fell.
    pub chains: u32,
    /// Bodies that fell (each fall of a body counted once).
    pub falls: u32,
}

/// What dropping a piece came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Placed(Placed),
    /// The piece came to rest with a cell above the field: the game is over and the piece
    /// does not count (the field is as it was).
    GameOver,
}

/// The field: `rows[r][c]` is the cell at row `r` (from the bottom) and column `c`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Field {
    pub rows: Vec<[bool; WIDTH]>,
}

impl Field {
    pub fn new() -> Field {
        Field {
            rows: vec![[false; WIDTH]; HEIGHT],
        }
    }

    pub fn filled(&self, row: usize, column: usize) -> bool {
        self.rows[row][column]
    }

    pub fn filled_cells(&self) -> usize {
        self.rows.iter().flatten().filter(|&&c| c).count()
    }

    /// Drops `kind` in `orientation` with its leftmost cell in `column` and settles the field.
    pub fn place(
        &mut self,
        kind: Kind,
        orientation: usize,
        column: usize,
    ) -> Result<Outcome, BadPlacement> {
        let cells = cells(kind, orientation).ok_or(BadPlacement::Orientation {
            orientations: orientations(kind),
        })?;
        let width = piece_width(kind, orientation).expect("the orientation exists");
        let last = WIDTH - width;
        if column > last {
            return Err(BadPlacement::Column { last });
        }
        let bottom = self.rest_row(&cells, column);
        if cells.iter().any(|&(_, r)| bottom + r >= HEIGHT) {
            return Ok(Outcome::GameOver);
        }
        for &(c, r) in &cells {
            self.rows[bottom + r][column + c] = true;
        }
        Ok(Outcome::Placed(self.settle()))
    }

    /// The row where a piece of `cells` dropped at `column` comes to rest (its bottom row;
    /// rows at or above [`HEIGHT`] are above the field): it enters above the field and moves
    /// down one row at a time while every cell of the next row down is inside the field and
    /// empty.
    pub fn rest_row(&self, cells: &[(usize, usize)], column: usize) -> usize {
        let mut bottom = HEIGHT;
        let fits = |bottom: usize| {
            cells.iter().all(|&(c, r)| {
                let row = bottom + r;
                row >= HEIGHT || !self.rows[row][column + c]
            })
        };
        while bottom > 0 && fits(bottom - 1) {
            bottom -= 1;
        }
        bottom
    }

    /// The field as the viewer takes it: 20 rows top first, bit `c` for column `c`.
    pub fn row_bits(&self) -> [u16; HEIGHT] {
        let mut bits = [0u16; HEIGHT];
        for (top, b) in bits.iter_mut().enumerate() {
            let row = &self.rows[HEIGHT - 1 - top];
            *b = (0..WIDTH).filter(|&c| row[c]).map(|c| 1 << c).sum();
        }
        bits
    }

    /// Removes full rows; after a removal lets the cells fall as connected bodies and removes
    /// again, until no row is full.
    fn settle(&mut self) -> Placed {
        let mut placed = Placed::default();
        let mut round = 0;
        loop {
            let removed = self.remove_full_rows();
            if removed == 0 {
                return placed;
            }
            placed.lines += removed;
            if round > 0 {
                placed.chains += 1;
            }
            round += 1;
            while self.drop_one_body() {
                placed.falls += 1;
            }
        }
    }

    /// Removes the full rows; the rows above each move down. Returns how many were removed.
    fn remove_full_rows(&mut self) -> u32 {
        let before = self.rows.len();
        self.rows.retain(|row| !row.iter().all(|&c| c));
        let removed = before - self.rows.len();
        self.rows.resize(HEIGHT, [false; WIDTH]);
        removed as u32
    }

    /// The connected bodies of filled cells (cells sharing a side), each as its cells, in the
    /// order of their lowest cell (lowest row first, then leftmost column): the order in which
    /// a scan of the rows from the bottom, each from the left, first meets them.
    pub(crate) fn bodies(&self) -> Vec<Vec<(usize, usize)>> {
        let mut seen = [[false; WIDTH]; HEIGHT];
        let mut bodies = Vec::new();
        for row in 0..HEIGHT {
            for column in 0..WIDTH {
                if !self.rows[row][column] || seen[row][column] {
                    continue;
                }
                let mut body = Vec::new();
                let mut queue = VecDeque::from([(row, column)]);
                seen[row][column] = true;
                while let Some((r, c)) = queue.pop_front() {
                    body.push((r, c));
                    let mut next = Vec::with_capacity(4);
                    if r > 0 {
                        next.push((r - 1, c));
                    }
                    if r + 1 < HEIGHT {
                        next.push((r + 1, c));
                    }
                    if c > 0 {
                        next.push((r, c - 1));
                    }
                    if c + 1 < WIDTH {
                        next.push((r, c + 1));
                    }
                    for (nr, nc) in next {
                        if self.rows[nr][nc] && !seen[nr][nc] {
                            seen[nr][nc] = true;
                            queue.push_back((nr, nc));
                        }
                    }
                }
                bodies.push(body);
            }
        }
        bodies
    }

    /// Drops the first body (in [`Field::bodies`]' order) that can fall, as far as it falls.
    /// Returns whether one fell.
    fn drop_one_body(&mut self) -> bool {
        for body in self.bodies() {
            let mut fall = 0;
            while self.can_move_down(&body, fall + 1) {
                fall += 1;
            }
            if fall > 0 {
                for &(r, c) in &body {
                    self.rows[r][c] = false;
                }
                for &(r, c) in &body {
                    self.rows[r - fall][c] = true;
                }
                return true;
            }
        }
        false
    }

    /// Whether `body` moved down `by` rows lands on the floor or above it on cells that are
    /// empty or its own.
    fn can_move_down(&self, body: &[(usize, usize)], by: usize) -> bool {
        body.iter()
            .all(|&(r, c)| r >= by && (!self.rows[r - by][c] || body.contains(&(r - by, c))))
    }

    /// The field as text, top row first: `#` filled, `.` empty.
    pub fn picture(&self) -> String {
        let mut text = String::new();
        for row in self.rows.iter().rev() {
            text.extend(row.iter().map(|&c| if c { '#' } else { '.' }));
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field from a picture, top row first, standing on the floor.
    fn field(picture: &[&str]) -> Field {
        let mut f = Field::new();
        for (i, line) in picture.iter().rev().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                f.rows[i][c] = ch == '#';
            }
        }
        f
    }

    #[test]
    fn every_orientation_has_four_cells_from_the_corner() {
        for kind in Kind::ALL {
            for o in 0..orientations(kind) {
                let cells = cells(kind, o).unwrap();
                assert_eq!(cells.len(), 4, "{kind:?} {o}");
                assert_eq!(cells.iter().map(|c| c.0).min(), Some(0));
                assert_eq!(cells.iter().map(|c| c.1).min(), Some(0));
            }
        }
        assert_eq!(
            Kind::ALL.map(orientations),
            [2, 4, 4, 4, 1, 2, 2],
            "I L J T O S Z"
        );
    }

    #[test]
    fn a_piece_drops_straight_past_an_overhang_it_cannot_reach_under() {
        let mut f = field(&["##........", "..........", "#........."]);
        // A vertical I in column 1 stops on the overhang's cell at row 2.
        assert_eq!(
            f.place(Kind::I, 1, 1),
            Ok(Outcome::Placed(Placed::default()))
        );
        assert!((3..7).all(|r| f.filled(r, 1)));
        assert!(!f.filled(1, 1) && !f.filled(0, 1));
    }

    #[test]
    fn a_cell_above_the_field_ends_the_game_and_changes_nothing() {
        let mut f = Field::new();
        for r in 0..17 {
            f.rows[r][0] = true;
        }
        let before = f.clone();
        // A vertical I on a column 17 high would take rows 17-20.
        assert_eq!(f.place(Kind::I, 1, 0), Ok(Outcome::GameOver));
        assert_eq!(f, before);
        // An O on a column 18 high takes rows 18-19, the field's last two: it fits.
        let mut g = Field::new();
        for r in 0..18 {
            g.rows[r][5] = true;
        }
        assert_eq!(
            g.place(Kind::O, 0, 5),
            Ok(Outcome::Placed(Placed::default()))
        );
        assert!(g.filled(19, 5) && g.filled(18, 6));
    }

    #[test]
    fn orientation_and_column_out_of_range_are_refused() {
        let mut f = Field::new();
        assert_eq!(
            f.place(Kind::O, 1, 0),
            Err(BadPlacement::Orientation { orientations: 1 })
        );
        assert_eq!(
            f.place(Kind::I, 0, 7),
            Err(BadPlacement::Column { last: 6 })
        );
        assert!(f.place(Kind::I, 1, 9).is_ok());
    }

    /// The bottom `n` rows, bottom first.
    fn bottom(f: &Field, n: usize) -> Vec<String> {
        f.picture()
            .lines()
            .rev()
            .take(n)
            .map(String::from)
            .collect()
    }

    /// After a clear, a cell left hanging over a gap falls to the floor as a body of its own;
    /// the row it lands in is not full, so there is no second round.
    #[test]
    fn a_body_left_hanging_after_a_clear_falls() {
        let mut f = field(&["#########.", "#........#", "..########"]);
        // A vertical I in column 9 takes rows 2-5 and completes row 2.
        let placed = f.place(Kind::I, 1, 9).unwrap();
        assert_eq!(
            placed,
            Outcome::Placed(Placed {
                lines: 1,
                chains: 0,
                falls: 1
            })
        );
        // The cell at row 1, column 0 fell to the floor; column 9 (its cell at row 1 and the
        // I's three left) stands on row 0.
        assert_eq!(
            bottom(&f, 5),
            [
                "#.########",
                ".........#",
                ".........#",
                ".........#",
                ".........#"
            ]
        );
    }

    /// A body freed by a clear falls two rows, completes the floor row, and that row is
    /// removed in a second round: a chain.
    #[test]
    fn a_fall_completes_a_row_for_a_second_round() {
        let mut f = field(&["####.#####", "....#.....", "####..####", "####.#####"]);
        // A vertical I in column 4 stands on the lone cell at row 2 and completes row 3.
        // After row 3 goes, the I's rest and the lone cell are one body (column 4, rows
        // 2-5), with nothing under it down to the floor: it falls to rows 0-3, row 0 is full.
        let placed = f.place(Kind::I, 1, 4).unwrap();
        assert_eq!(
            placed,
            Outcome::Placed(Placed {
                lines: 2,
                chains: 1,
                falls: 1
            })
        );
        assert_eq!(
            bottom(&f, 4),
            ["#####.####", "....#.....", "....#.....", ".........."]
        );
    }
}
