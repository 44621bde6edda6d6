//! The ROM's routines that one frame of [`Round::step`] runs, each doing what the ROM's
//! routine of that name does: shift, rotate and drop while the piece is active, the lock, the
//! row checks, the lines and points, the next spawn, and the vertical blank that ends every
//! frame.

use super::{button, cycles, next_rng, pick_piece, play_state, Outcome, Round, VRAM_DONE};
use crate::games::nes::tables::{frames_per_drop, EMPTY_TILE, ORIENTATIONS, ROTATE_A, ROTATE_B};

impl Round {
    fn newly_pressed(&self) -> u8 {
        self.held & !self.held_before
    }

    /// `shift_tetrimino`: taps move at once; a held direction waits 16 frames, then moves
    /// every 6; a blocked move leaves the auto-shift charged. Nothing shifts while Down is
    /// held.
    pub(super) fn shift(&mut self) {
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
    pub(super) fn rotate(&mut self) {
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
    pub(super) fn drop(&mut self) -> bool {
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
    pub(super) fn lock(&mut self) {
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
        self.deep_rows = 0;
        self.line_index = 0;
        self.update_playfield();
        self.play_state = play_state::CHECK_ROWS;
    }

    /// `playState_checkForCompletedRows`: one row a frame, from two above the piece, four in
    /// all; a full row is removed at once and everything above moves down.
    pub(super) fn check_rows(&mut self) {
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
            self.deep_rows += u8::from(row >= 11);
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

    /// `playState_updateLinesAndStatistics`: the music's tempo check, lines one at a time (the
    /// level goes up when the count's tens, read as BCD, pass the level), soft-drop points,
    /// then the clear's points times level + 1 at the level just reached; the frame's cycles
    /// are counted ([`cycles`]). Returns whether the level went up.
    pub(super) fn update_lines(&mut self) -> bool {
        let before = (self.level, self.lines());
        let first_block = (0..10u8).find(|&c| self.filled(5, c as usize));
        let was_allegro = std::mem::replace(&mut self.allegro, first_block.is_some());
        let mut level_up = false;
        let rows = self.completed_lines as usize;
        if rows > 0 {
            self.clears[rows - 1] += 1;
        }
        for _ in 0..rows {
            let [mut lo, mut hi] = self.lines_bcd;
            lo = lo.wrapping_add(1);
            if lo & 0x0F >= 0x0A {
                lo = lo.wrapping_add(6);
                if lo & 0xF0 >= 0xA0 {
                    lo &= 0x0F;
                    hi = hi.wrapping_add(1);
                    self.line_wraps += u8::from(hi == 0);
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
        let count = cycles::Count {
            rows: rows as u8,
            deep_rows: self.deep_rows,
            push_down: self.hold_down_points,
            // The counter is BCD: its ones digit wraps on every tenth clear of the type.
            type_carry: rows > 0 && self.clears[rows - 1].is_multiple_of(10),
            eighth_frame: self.frame_counter.is_multiple_of(8),
            piece: self.piece,
            was_allegro,
            first_block,
            select: self.newly_pressed() & button::SELECT != 0,
            next_hidden: self.next_hidden,
            ..cycles::Count::default()
        }
        .between(before, (self.level, self.lines()));
        let margin = count.margin();
        self.margin = self.margin.min(margin as i16);
        self.score.add_soft_drop(self.hold_down_points);
        self.hold_down_points = 0;
        for _ in 0..=self.level {
            self.score.add_points(rows);
        }
        self.completed_lines = 0;
        self.play_state = play_state::GOAL_CHECK;
        if margin < 0 {
            self.outcome = Outcome::Crashed;
        }
        level_up
    }

    /// `playState_spawnNextTetrimino`, once the screen is drawn: the next piece comes in at
    /// (5, 0) and the generator chooses the one after it.
    pub(super) fn spawn(&mut self) -> bool {
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
    pub(super) fn vertical_blank(&mut self, buttons: u8) {
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
