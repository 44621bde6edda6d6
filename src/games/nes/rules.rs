//! The plain NES engine: the game as the ROM plays it, one frame at a time.
//!
//! This is the oracle of the NES side, as `tencent::rules` is the contest's: the checker
//! replays on it and every solver record is replayed on it before it is printed. It keeps the
//! ROM's own variables (`docs/NES.md` names each one's RAM address) and runs, per frame, what
//! the ROM runs: the game logic on the buttons read at the end of the previous frame, then the
//! vertical blank, which copies four playfield rows to the screen, steps the random number
//! generator, counts the frame and reads the controller.

use super::crash;
use super::start::Start;
use super::tables::{frames_per_drop, EMPTY_TILE, ORIENTATIONS, ROTATE_A, ROTATE_B, SPAWN_TABLE};
use crate::search::wire::Wire;

pub use super::score::BcdScore;

pub use super::tables::button;

/// The ROM's play states (`playState`, $0048).
pub mod play_state {
    pub const ACTIVE: u8 = 1;
    pub const LOCK: u8 = 2;
    pub const CHECK_ROWS: u8 = 3;
    pub const CLEAR_ANIMATION: u8 = 4;
    pub const UPDATE_LINES: u8 = 5;
    pub const GOAL_CHECK: u8 = 6;
    pub const GARBAGE: u8 = 7;
    pub const SPAWN: u8 = 8;
    pub const GAME_OVER: u8 = 10;
}

/// The number after which `vramRow` means "the whole playfield is on screen".
const VRAM_DONE: u8 = 0x20;

/// One 16-bit step of the ROM's random number generator (a Fibonacci LFSR on bits 1 and 9).
pub fn next_rng(value: u16) -> u16 {
    let bit = ((value >> 9) ^ (value >> 1)) & 1;
    (value >> 1) | (bit << 15)
}

/// The ROM's choice of the next piece: `spawnCount` is counted first, the high byte of the
/// generator plus that count picks one of eight slots; the eighth slot or a repeat of the last
/// piece draws again once, from a fresh step of the generator, without the repeat check.
/// Returns the orientation spawned and the generator afterwards.
pub fn pick_piece(rng: u16, spawn_count: u8, last: u8) -> (u8, u16) {
    let index = ((rng >> 8) as u8).wrapping_add(spawn_count) & 7;
    if index != 7 && SPAWN_TABLE[index as usize] != last {
        return (SPAWN_TABLE[index as usize], rng);
    }
    let rng = next_rng(rng);
    let index = (((rng >> 8) as u8 & 7) + last) % 7;
    (SPAWN_TABLE[index as usize], rng)
}

/// Why a game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Still playing.
    Playing,
    /// A piece locked where it overlaps the stack (it spawned into it): the ROM's game over.
    ToppedOut,
    /// A clear the ROM crashes (or freezes) on ([`super::crash`]): no piece spawns again.
    Crashed,
}

/// The outcome as one byte.
impl Wire for Outcome {
    const BYTES: usize = u8::BYTES;
    fn put(&self, out: &mut Vec<u8>) {
        (*self as u8).put(out);
    }
    fn take(bytes: &[u8]) -> Outcome {
        match u8::take(bytes) {
            0 => Outcome::Playing,
            1 => Outcome::ToppedOut,
            _ => Outcome::Crashed,
        }
    }
}

/// What one frame did that a caller may want to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Events {
    /// The active piece locked this frame (its position is still in `x`, `y`, `piece`).
    pub locked: bool,
    /// A new piece spawned this frame.
    pub spawned: bool,
    /// Rows cleared by the lock whose line count was added this frame.
    pub rows_cleared: u8,
    /// The level went up this frame.
    pub level_up: bool,
}

/// The game's state, in the ROM's variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NesGame {
    /// The playfield and the 56 bytes after it, as in RAM $0400..$04FF: cell `row * 10 +
    /// column`, rows above the field wrapping to the end (they read as empty unless a piece
    /// locked there).
    pub cells: [u8; 256],
    /// `currentPiece`: the active piece's orientation.
    pub piece: u8,
    /// `tetriminoX`, `tetriminoY`.
    pub x: i8,
    pub y: i8,
    /// `nextPiece`.
    pub next: u8,
    /// `rng_seed` ($0017 high, $0018 low).
    pub rng: u16,
    pub spawn_count: u8,
    /// `spawnID`: the last piece the generator chose.
    pub spawn_id: u8,
    pub frame_counter: u8,
    pub fall_timer: u8,
    pub autorepeat_x: u8,
    pub autorepeat_y: u8,
    pub hold_down_points: u8,
    pub play_state: u8,
    pub vram_row: u8,
    pub line_index: u8,
    pub completed_lines: u8,
    /// `rowY`: steps of the line-clear animation.
    pub row_y: u8,
    pub level: u8,
    /// Times the level counter went from 255 back to 0 (the community's "rebirth").
    pub level_wraps: u8,
    /// Rows 0..=5 were empty when the last piece locked ([`crash::low_stack`]).
    pub low_at_lock: bool,
    /// `lines` as the ROM keeps them: BCD low byte, binary hundreds.
    pub lines_bcd: [u8; 2],
    pub score: BcdScore,
    /// Buttons read at the end of the last frame and of the one before.
    pub held: u8,
    pub held_before: u8,
    /// Frames played since the first frame of the first piece.
    pub frame: u64,
    /// Pieces locked.
    pub pieces: u64,
    /// Rows cleared in 1, 2, 3 and 4 at once.
    pub clears: [u64; 4],
    pub outcome: Outcome,
}

// Every field, in the order declared.
crate::wire_fields!(NesGame {
    cells,
    piece,
    x,
    y,
    next,
    rng,
    spawn_count,
    spawn_id,
    frame_counter,
    fall_timer,
    autorepeat_x,
    autorepeat_y,
    hold_down_points,
    play_state,
    vram_row,
    line_index,
    completed_lines,
    row_y,
    level,
    level_wraps,
    low_at_lock,
    lines_bcd,
    score,
    held,
    held_before,
    frame,
    pieces,
    clears,
    outcome
});

impl NesGame {
    /// The game on the first frame of its first piece, as the menu sequence leaves it.
    pub fn new(start: &Start) -> NesGame {
        NesGame {
            cells: [EMPTY_TILE; 256],
            piece: start.piece,
            x: 5,
            y: 0,
            next: start.next,
            rng: start.rng,
            spawn_count: start.spawn_count,
            spawn_id: start.spawn_id,
            frame_counter: start.frame_counter,
            fall_timer: start.fall_timer,
            autorepeat_x: 0,
            autorepeat_y: start.autorepeat_y,
            hold_down_points: 0,
            play_state: play_state::ACTIVE,
            vram_row: start.vram_row,
            line_index: 0,
            completed_lines: 0,
            row_y: 0,
            level: start.level,
            level_wraps: 0,
            low_at_lock: true,
            lines_bcd: [0, 0],
            score: BcdScore::default(),
            held: 0,
            held_before: 0,
            frame: 0,
            pieces: 0,
            clears: [0; 4],
            outcome: Outcome::Playing,
        }
    }

    /// The level counted on past 255, as the community counts it: 256 is the level counter's
    /// first wrap to 0.
    pub fn level_count(&self) -> u16 {
        self.level as u16 + 256 * self.level_wraps as u16
    }

    /// Lines cleared, as a number.
    pub fn lines(&self) -> u32 {
        let [lo, hi] = self.lines_bcd;
        hi as u32 * 100 + (lo >> 4) as u32 * 10 + (lo & 15) as u32
    }

    /// The field as ten-bit rows, row 0 at the top (bit c: column c filled).
    pub fn rows(&self) -> [u16; 20] {
        let mut rows = [0u16; 20];
        for (r, row) in rows.iter_mut().enumerate() {
            for c in 0..10 {
                if self.filled(r, c) {
                    *row |= 1 << c;
                }
            }
        }
        rows
    }

    /// Whether a cell of the field (row 0..=19) is filled.
    pub fn filled(&self, row: usize, column: usize) -> bool {
        self.cells[row * 10 + column] != EMPTY_TILE
    }

    /// The byte index of an orientation's cell, wrapping as the ROM's 8-bit index does, or
    /// `None` where the ROM's bounds checks refuse the cell.
    fn cell_index(x: i8, y: i8, cell: (i8, i8)) -> Option<u8> {
        let (dy, dx) = cell;
        let row = y.wrapping_add(dy);
        if (row.wrapping_add(2) as u8) >= 22 {
            return None;
        }
        let column = x.wrapping_add(dx);
        if column as u8 >= 10 {
            return None;
        }
        Some((row as u8).wrapping_mul(10).wrapping_add(column as u8))
    }

    /// The ROM's `isPositionValid`: every cell inside and empty.
    pub fn fits(&self, piece: u8, x: i8, y: i8) -> bool {
        ORIENTATIONS[piece as usize].iter().all(|&cell| {
            Self::cell_index(x, y, cell).is_some_and(|i| self.cells[i as usize] == EMPTY_TILE)
        })
    }

    /// Plays one frame with these buttons pressed; they take effect on the next frame, as on
    /// the console (the controller is read at the end of a frame).
    pub fn step(&mut self, buttons: u8) -> Events {
        let mut events = Events::default();
        if self.outcome != Outcome::Playing {
            return events;
        }
        self.fall_timer = self.fall_timer.wrapping_add(1);
        match self.play_state {
            play_state::ACTIVE => {
                self.shift();
                self.rotate();
                if self.drop() {
                    events.locked = true;
                }
            }
            play_state::LOCK => self.lock(),
            play_state::CHECK_ROWS => self.check_rows(),
            play_state::CLEAR_ANIMATION => {}
            play_state::UPDATE_LINES => {
                events.rows_cleared = self.completed_lines;
                events.level_up = self.update_lines();
            }
            play_state::GOAL_CHECK | play_state::GARBAGE => self.play_state += 1,
            play_state::SPAWN => events.spawned = self.spawn(),
            _ => {}
        }
        self.vertical_blank(buttons);
        self.frame += 1;
        events
    }

    fn newly_pressed(&self) -> u8 {
        self.held & !self.held_before
    }

    /// `shift_tetrimino`: taps move at once; a held direction waits 16 frames, then moves
    /// every 6; a blocked move leaves the auto-shift charged. Nothing shifts while Down is
    /// held.
    fn shift(&mut self) {
        use button::*;
        if self.held & DOWN != 0 {
            return;
        }
        if self.newly_pressed() & (LEFT | RIGHT) != 0 {
            self.autorepeat_x = 0;
        } else {
            if self.held & (LEFT | RIGHT) == 0 {
                return;
            }
            self.autorepeat_x = self.autorepeat_x.wrapping_add(1);
            if (self.autorepeat_x.wrapping_sub(16) as i8) < 0 {
                return;
            }
            self.autorepeat_x = 10;
        }
        let dx = if self.held & RIGHT != 0 {
            1
        } else if self.held & LEFT != 0 {
            -1
        } else {
            return;
        };
        if self.fits(self.piece, self.x + dx, self.y) {
            self.x += dx;
        } else {
            self.autorepeat_x = 16;
        }
    }

    /// `rotate_tetrimino`: A turns clockwise, B counterclockwise, on the frame after the press;
    /// a blocked turn does nothing (there are no kicks).
    fn rotate(&mut self) {
        let pressed = self.newly_pressed();
        let turned = if pressed & button::A != 0 {
            ROTATE_A[self.piece as usize]
        } else if pressed & button::B != 0 {
            ROTATE_B[self.piece as usize]
        } else {
            return;
        };
        if self.fits(turned, self.x, self.y) {
            self.piece = turned;
        }
    }

    /// `drop_tetrimino`: gravity and soft drop. Returns whether the piece locked.
    fn drop(&mut self) -> bool {
        use button::*;
        let pressed = self.newly_pressed();
        if (self.autorepeat_y as i8) < 0 {
            // The first piece of a game hangs until the counter started at $A0 reaches 0,
            // unless Down is pressed.
            if pressed & DOWN == 0 {
                self.autorepeat_y = self.autorepeat_y.wrapping_add(1);
                return false;
            }
            self.autorepeat_y = 0;
        }
        if self.autorepeat_y == 0 {
            if self.held & (LEFT | RIGHT) == 0 && pressed & PAD == DOWN {
                self.autorepeat_y = 1;
            }
        } else if self.held & PAD != DOWN {
            self.autorepeat_y = 0;
            self.hold_down_points = 0;
        } else {
            self.autorepeat_y += 1;
            if self.autorepeat_y >= 3 {
                self.autorepeat_y = 1;
                self.hold_down_points = self.hold_down_points.wrapping_add(1);
                return self.fall();
            }
        }
        let speed = frames_per_drop(self.level);
        if (self.fall_timer.wrapping_sub(speed) as i8) >= 0 {
            return self.fall();
        }
        false
    }

    /// One row down, or the lock where the row below is taken.
    fn fall(&mut self) -> bool {
        self.fall_timer = 0;
        if self.fits(self.piece, self.x, self.y + 1) {
            self.y += 1;
            return false;
        }
        self.play_state = play_state::LOCK;
        self.update_playfield();
        true
    }

    /// `updatePlayfield`: the screen is redrawn from two rows above the piece down.
    fn update_playfield(&mut self) {
        let row = (self.y - 2).max(0) as u8;
        if ((row.wrapping_sub(self.vram_row)) as i8) < 0 {
            self.vram_row = row;
        }
    }

    /// `playState_lockTetrimino`: game over if the piece overlaps the stack (it spawned into
    /// it); otherwise, once the screen has caught up, the piece is written into the field.
    fn lock(&mut self) {
        if !self.fits(self.piece, self.x, self.y) {
            self.play_state = play_state::GAME_OVER;
            self.outcome = Outcome::ToppedOut;
            return;
        }
        if self.vram_row < VRAM_DONE {
            return;
        }
        for &cell in &ORIENTATIONS[self.piece as usize] {
            let i = Self::cell_index(self.x, self.y, cell).expect("a fitting piece is inside");
            self.cells[i as usize] = 0x7B;
        }
        self.pieces += 1;
        self.low_at_lock = crash::low_stack(&self.rows());
        self.line_index = 0;
        self.update_playfield();
        self.play_state = play_state::CHECK_ROWS;
    }

    /// `playState_checkForCompletedRows`: one row a frame, from two above the piece, four in
    /// all; a full row is removed at once and everything above moves down.
    fn check_rows(&mut self) {
        if self.vram_row < VRAM_DONE {
            return;
        }
        let row = (self.y - 2).max(0) as usize + self.line_index as usize;
        let start = row * 10;
        if start + 10 <= 256
            && self.cells[start..start + 10]
                .iter()
                .all(|&c| c != EMPTY_TILE)
        {
            self.completed_lines += 1;
            self.cells.copy_within(0..start, 10);
            self.cells[..10].fill(EMPTY_TILE);
            // The ROM hides the piece while the rows go (orientation $13: no piece).
            self.piece = 0x13;
        }
        self.line_index += 1;
        if self.line_index < 4 {
            return;
        }
        self.vram_row = 0;
        self.row_y = 0;
        self.play_state = if self.completed_lines > 0 {
            play_state::CLEAR_ANIMATION
        } else {
            play_state::UPDATE_LINES
        };
    }

    /// `playState_updateLinesAndStatistics`: lines one at a time (the level goes up when the
    /// count's tens, read as BCD, pass the level), soft-drop points, then the clear's points
    /// times level + 1 at the level just reached. Returns whether the level went up.
    fn update_lines(&mut self) -> bool {
        let mut level_up = false;
        let rows = self.completed_lines as usize;
        if rows > 0 {
            self.clears[rows - 1] += 1;
        }
        let crashes = crash::crashes(self.level, self.lines(), rows, self.low_at_lock);
        for _ in 0..rows {
            let [mut lo, mut hi] = self.lines_bcd;
            lo = lo.wrapping_add(1);
            if lo & 0x0F >= 0x0A {
                lo = lo.wrapping_add(6);
                if lo & 0xF0 >= 0xA0 {
                    lo &= 0x0F;
                    hi = hi.wrapping_add(1);
                }
            }
            self.lines_bcd = [lo, hi];
            if lo & 0x0F == 0 {
                let tens = (hi << 4) | (lo >> 4);
                if (self.level.wrapping_sub(tens) as i8) < 0 {
                    self.level = self.level.wrapping_add(1);
                    self.level_wraps += u8::from(self.level == 0);
                    level_up = true;
                }
            }
        }
        self.score.add_soft_drop(self.hold_down_points);
        self.hold_down_points = 0;
        for _ in 0..=self.level {
            self.score.add_points(rows);
        }
        self.completed_lines = 0;
        self.play_state = play_state::GOAL_CHECK;
        if crashes {
            self.outcome = Outcome::Crashed;
        }
        level_up
    }

    /// `playState_spawnNextTetrimino`, once the screen is drawn: the next piece comes in at
    /// (5, 0) and the generator chooses the one after it.
    fn spawn(&mut self) -> bool {
        if self.vram_row < VRAM_DONE {
            return false;
        }
        self.play_state = play_state::ACTIVE;
        self.fall_timer = 0;
        self.piece = self.next;
        self.x = 5;
        self.y = 0;
        self.spawn_count = self.spawn_count.wrapping_add(1);
        let (next, rng) = pick_piece(self.rng, self.spawn_count, self.spawn_id);
        self.rng = rng;
        self.spawn_id = next;
        self.next = next;
        self.autorepeat_y = 0;
        true
    }

    /// The vertical blank: the line-clear animation (a step on every fourth frame) or four
    /// rows of the playfield copied to the screen, the generator's step, the frame count and
    /// the controller read.
    fn vertical_blank(&mut self, buttons: u8) {
        if self.play_state == play_state::CLEAR_ANIMATION {
            if self.frame_counter & 3 == 0 {
                self.row_y += 1;
                if self.row_y >= 5 {
                    self.play_state = play_state::UPDATE_LINES;
                }
            }
        } else if self.vram_row < VRAM_DONE {
            self.vram_row += 4;
            if self.vram_row >= 20 {
                self.vram_row = VRAM_DONE;
            }
        }
        self.rng = next_rng(self.rng);
        self.frame_counter = self.frame_counter.wrapping_add(1);
        self.held_before = self.held;
        self.held = buttons;
    }
}
