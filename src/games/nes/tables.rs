//! The ROM's tables, as read from NES Tetris (NTSC) and checked against the game in the
//! emulator (`tools/nes-oracle`). Orientation ids are the ROM's own (0..=18), so a record's
//! pieces and the RAM's `currentPiece` are the same numbers.

/// Cell offsets `(dy, dx)` of each orientation from the piece's position (`tetriminoY`,
/// `tetriminoX`); y grows downwards.
pub const ORIENTATIONS: [[(i8, i8); 4]; 19] = [
    [(0, -1), (0, 0), (0, 1), (-1, 0)],  // 0  T up
    [(-1, 0), (0, 0), (0, 1), (1, 0)],   // 1  T right
    [(0, -1), (0, 0), (0, 1), (1, 0)],   // 2  T down (spawn)
    [(-1, 0), (0, -1), (0, 0), (1, 0)],  // 3  T left
    [(-1, 0), (0, 0), (1, -1), (1, 0)],  // 4  J left
    [(-1, -1), (0, -1), (0, 0), (0, 1)], // 5  J up
    [(-1, 0), (-1, 1), (0, 0), (1, 0)],  // 6  J right
    [(0, -1), (0, 0), (0, 1), (1, 1)],   // 7  J down (spawn)
    [(0, -1), (0, 0), (1, 0), (1, 1)],   // 8  Z horizontal (spawn)
    [(-1, 1), (0, 0), (0, 1), (1, 0)],   // 9  Z vertical
    [(0, -1), (0, 0), (1, -1), (1, 0)],  // 10 O (spawn)
    [(0, 0), (0, 1), (1, -1), (1, 0)],   // 11 S horizontal (spawn)
    [(-1, 0), (0, 0), (0, 1), (1, 1)],   // 12 S vertical
    [(-1, 0), (0, 0), (1, 0), (1, 1)],   // 13 L right
    [(0, -1), (0, 0), (0, 1), (1, -1)],  // 14 L down (spawn)
    [(-1, -1), (-1, 0), (0, 0), (1, 0)], // 15 L left
    [(-1, 1), (0, -1), (0, 0), (0, 1)],  // 16 L up
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],  // 17 I vertical
    [(0, -2), (0, -1), (0, 0), (0, 1)],  // 18 I horizontal (spawn)
];

/// The orientation B turns each orientation into (counterclockwise).
pub(crate) const ROTATE_B: [u8; 19] = [
    3, 0, 1, 2, 7, 4, 5, 6, 9, 8, 10, 12, 11, 16, 13, 14, 15, 18, 17,
];
/// The orientation A turns each orientation into (clockwise).
pub(crate) const ROTATE_A: [u8; 19] = [
    1, 2, 3, 0, 5, 6, 7, 4, 9, 8, 10, 12, 11, 14, 15, 16, 13, 18, 17,
];

/// The spawn orientation of each of the generator's seven kinds, in the ROM's order
/// (T J Z O S L I).
pub const SPAWN_TABLE: [u8; 7] = [2, 7, 8, 10, 11, 14, 18];

/// Frames per row of gravity for levels 0..=28; level 29 and above drop every frame.
pub(crate) const FRAMES_PER_DROP: [u8; 29] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];

/// Points for 0..=4 rows as the ROM stores them: two BCD bytes, low first (40, 100, 300, 1200).
pub(crate) const POINTS_BCD: [[u8; 2]; 5] = [
    [0x00, 0x00],
    [0x40, 0x00],
    [0x00, 0x01],
    [0x00, 0x03],
    [0x00, 0x12],
];

/// Points for 0..=4 rows at level 0.
pub(crate) const POINTS: [u64; 5] = [0, 40, 100, 300, 1200];

/// The ROM's value of an empty playfield cell.
pub const EMPTY_TILE: u8 = 0xEF;

/// The piece letter of an orientation.
pub fn kind_letter(orientation: u8) -> char {
    match orientation {
        0..=3 => 'T',
        4..=7 => 'J',
        8 | 9 => 'Z',
        10 => 'O',
        11 | 12 => 'S',
        13..=16 => 'L',
        17 | 18 => 'I',
        _ => '?',
    }
}

/// Gravity's frames per row at a level.
pub fn frames_per_drop(level: u8) -> u8 {
    FRAMES_PER_DROP.get(level as usize).copied().unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_and_b_turn_back_and_forth() {
        for o in 0..19u8 {
            assert_eq!(
                ROTATE_B[ROTATE_A[o as usize] as usize], o,
                "orientation {o}"
            );
            assert_eq!(kind_letter(ROTATE_A[o as usize]), kind_letter(o));
        }
    }
}

/// Controller buttons, one bit each, in the order of the FM2 format ("RLDUTSBA").
pub mod button {
    pub const RIGHT: u8 = 0x80;
    pub const LEFT: u8 = 0x40;
    pub const DOWN: u8 = 0x20;
    pub const UP: u8 = 0x10;
    pub const START: u8 = 0x08;
    pub const SELECT: u8 = 0x04;
    pub const B: u8 = 0x02;
    pub const A: u8 = 0x01;
    /// The directional pad.
    pub const PAD: u8 = RIGHT | LEFT | DOWN | UP;
}
