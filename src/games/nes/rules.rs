//! The plain NES engine: the game as the ROM plays it, one frame at a time.
//!
//! This is the oracle of the NES side, as `contest::rules` is the contest's: the checker
//! replays on it and every solver record is replayed on it before it is printed. It keeps the
//! ROM's own variables (`docs/NES.md` names each one's RAM address) and runs, per frame, what
//! the ROM runs: the game logic on the buttons read at the end of the previous frame, then the
//! vertical blank, which copies four playfield rows to the screen, steps the random number
//! generator, counts the frame and reads the controller. The state, its queries and the frame
//! loop are here; the routines a frame runs are in the `frame` module.

use super::cycles;
use super::start::Start;
use super::tables::{EMPTY_TILE, ORIENTATIONS, SPAWN_TABLE};
use crate::search::wire::Wire;

pub(crate) use super::score::BcdScore;

pub use super::tables::button;

mod frame;

/// The ROM's play states (`playState`, $0048).
pub mod play_state {
    pub(crate) const ACTIVE: u8 = 1;
    pub(crate) const LOCK: u8 = 2;
    pub(crate) const CHECK_ROWS: u8 = 3;
    pub(crate) const CLEAR_ANIMATION: u8 = 4;
    pub(crate) const UPDATE_LINES: u8 = 5;
    pub const GOAL_CHECK: u8 = 6;
    pub(crate) const GARBAGE: u8 = 7;
    pub(crate) const SPAWN: u8 = 8;
    pub(crate) const GAME_OVER: u8 = 10;
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
    /// A lock whose counting frame the cycle model cannot call safe ([`super::cycles`]): the
    /// ROM may crash, stall or garble the screen there.
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
pub struct Round {
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
    pub(crate) next: u8,
    /// `rng_seed` ($0017 high, $0018 low).
    pub(crate) rng: u16,
    pub(crate) spawn_count: u8,
    /// `spawnID`: the last piece the generator chose.
    pub(crate) spawn_id: u8,
    pub(crate) frame_counter: u8,
    pub(crate) fall_timer: u8,
    pub autorepeat_x: u8,
    pub autorepeat_y: u8,
    pub hold_down_points: u8,
    pub play_state: u8,
    pub(crate) vram_row: u8,
    pub(crate) line_index: u8,
    pub(crate) completed_lines: u8,
    /// `rowY`: steps of the line-clear animation.
    pub(crate) row_y: u8,
    pub level: u8,
    /// Times the level counter went from 255 back to 0 (the community's "rebirth").
    pub(crate) level_wraps: u8,
    /// `allegro`: the music is fast (the last count found a block on row 5).
    pub(crate) allegro: bool,
    /// `displayNextPiece`: Select toggles the next box, which costs the counting frame 394
    /// cycles while it shows.
    pub next_hidden: bool,
    /// Rows the last lock cleared at index 11 or below ([`cycles::Count::deep_rows`]).
    pub(crate) deep_rows: u8,
    /// The smallest margin of every count so far ([`cycles::margin`]; [`cycles::FAR`] when
    /// none came near a failing count).
    pub margin: i16,
    /// `lines` as the ROM keeps them: BCD low byte, binary hundreds, which wrap from 255 to 0
    /// at 25,600 lines.
    pub lines_bcd: [u8; 2],
    /// Times the hundreds went from 255 back to 0.
    pub(crate) line_wraps: u8,
    pub score: BcdScore,
    /// Buttons read at the end of the last frame and of the one before.
    pub held: u8,
    pub held_before: u8,
    /// Frames played since the first frame of the first piece.
    pub(crate) frame: u64,
    /// Pieces locked.
    pub pieces: u64,
    /// Rows cleared in 1, 2, 3 and 4 at once.
    pub clears: [u64; 4],
    pub outcome: Outcome,
}

// Every field, in the order declared.
crate::wire_fields!(Round {
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
    allegro,
    next_hidden,
    deep_rows,
    margin,
    lines_bcd,
    line_wraps,
    score,
    held,
    held_before,
    frame,
    pieces,
    clears,
    outcome
});

impl Round {
    /// The game on the first frame of its first piece, as the menu sequence leaves it.
    pub fn new(start: &Start) -> Round {
        Round {
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
            allegro: false,
            next_hidden: false,
            deep_rows: 0,
            margin: cycles::FAR as i16,
            lines_bcd: [0, 0],
            line_wraps: 0,
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

    /// Lines cleared, counted on past the ROM's wrap at 25,600 as [`Round::level_count`]
    /// counts levels.
    pub fn lines(&self) -> u32 {
        let [lo, hi] = self.lines_bcd;
        let counted_hundreds = hi as u32 + 256 * self.line_wraps as u32;
        counted_hundreds * 100 + (lo >> 4) as u32 * 10 + (lo & 15) as u32
    }

    /// The field as ten-bit rows, row 0 at the top (bit c: column c filled).
    pub(crate) fn rows(&self) -> [u16; 20] {
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
    pub(crate) fn filled(&self, row: usize, column: usize) -> bool {
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
        // The routine that counts the fall timer toggles the next box on Select.
        if self.held & !self.held_before & button::SELECT != 0 {
            self.next_hidden = !self.next_hidden;
        }
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
}
