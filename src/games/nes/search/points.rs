//! What a lock leaves, counted without playing the frames: the field after full rows go, the
//! points and level by the ROM's rules, the lines from a start to a level, and the scale of the
//! costs past level 29.

use crate::games::nes::eval::{Rows, FULL};
use crate::games::nes::tables::{ORIENTATIONS, POINTS};

/// The field after a piece locks there and full rows go; returns the rows cleared, and how
/// many of them were at index 11 or below ([`crate::games::nes::cycles::Count::deep_rows`]).
pub(super) fn place(rows: &Rows, piece: u8, x: i8, y: i8) -> (Rows, usize, usize) {
    let mut placed = *rows;
    for &(dy, dx) in &ORIENTATIONS[piece as usize] {
        let r = y + dy;
        if (0..20).contains(&r) {
            placed[r as usize] |= 1 << (x + dx);
        }
    }
    let mut out = [0u16; 20];
    let mut k = 20;
    let (mut cleared, mut deep) = (0, 0);
    for r in (0..20).rev() {
        if placed[r] == FULL {
            cleared += 1;
            deep += usize::from(r >= 11);
        } else {
            k -= 1;
            out[k] = placed[r];
        }
    }
    (out, cleared, deep)
}

/// Points and the level after a clear, by the ROM's rules (lines counted one at a time, the
/// level passing when the count's tens, read as BCD, pass it; points at the new level).
pub fn clear_points(lines: u32, level: u8, rows: usize) -> (u64, u8, u32) {
    let mut level = level;
    let mut lines = lines;
    for _ in 0..rows {
        lines += 1;
        if lines.is_multiple_of(10) {
            // The ROM shifts its lines (the tens and ones in BCD, the hundreds counted in
            // binary) right by four bits into one byte: from 1,600 lines the hundreds wrap.
            let tens = (((lines / 100) << 4) | ((lines / 10) % 10)) as u8;
            if (level.wrapping_sub(tens) as i8) < 0 {
                level = level.wrapping_add(1);
            }
        }
    }
    (POINTS[rows] * (level as u64 + 1), level, lines)
}

/// The weights are in points as they count to the level 29 transition; past it the points
/// grow with the level and would drown them, so costs grow with the points: a hole weighs
/// against a four-line clear as it does at level 29.
pub(super) fn cost_scale(level: u8) -> f64 {
    ((level as f64 + 1.0) / 30.0).max(1.0)
}

/// Lines from the start of a game on `start_level` until the level, counted on past 255,
/// reaches `level`, by the ROM's level rule (see [`clear_points`]); `u32::MAX` if it never
/// does within 100,000 lines.
pub fn lines_to_level(start_level: u8, level: u16) -> u32 {
    let (mut at, mut wraps, mut lines) = (start_level, 0u16, 0u32);
    while (at as u16 + 256 * wraps) < level {
        if lines >= 100_000 {
            return u32::MAX;
        }
        let (_, after, more) = clear_points(lines, at, 1);
        wraps += u16::from(after < at);
        (at, lines) = (after, more);
    }
    lines
}
