//! How a game starts: the fixed menu sequence from power-on, and the state it leaves the game
//! in on the first frame of the first piece.
//!
//! The menus step the random number generator a varying number of times a frame, so the state
//! at the first piece is not worked out here but read from `starts.txt`, which the emulator
//! wrote (`tools/nes-oracle/oracle.py starts`) and the oracle test checks. A start is named by
//! its level and `title-wait`: the frames spent idle on the title screen, which is how a player
//! chooses a different piece sequence.

use super::tables::button::{A, DOWN, RIGHT, START};
use std::fmt;

/// The table of start states: `level wait rng spawn_count spawn_id piece next frame_counter
/// fall_timer autorepeat_y vram_row`, one line per start.
const STARTS: &str = include_str!("starts.txt");

/// The game's state on the first frame of the first piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub level: u8,
    pub(crate) title_wait: u32,
    pub(crate) rng: u16,
    pub(crate) spawn_count: u8,
    pub(crate) spawn_id: u8,
    pub(crate) piece: u8,
    pub(crate) next: u8,
    pub(crate) frame_counter: u8,
    pub(crate) fall_timer: u8,
    pub(crate) autorepeat_y: u8,
    pub(crate) vram_row: u8,
}

/// A start the table does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownStart {
    pub(crate) level: u8,
    /// The title-wait as written: a record's may be too large for any number type.
    pub(crate) title_wait: String,
}

impl fmt::Display for UnknownStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let waits = max_wait(self.level);
        match waits {
            Some(max) => write!(
                f,
                "no start is known for level {} with title-wait {}: level {} has title-wait 0..={max}",
                self.level, self.title_wait, self.level
            ),
            None => write!(
                f,
                "no start is known for level {}: the table holds levels 0..=19",
                self.level
            ),
        }
    }
}

fn rows() -> impl Iterator<Item = Start> {
    STARTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let n = |i: usize| f[i].parse::<u32>().expect("starts.txt holds numbers");
            Start {
                level: n(0) as u8,
                title_wait: n(1),
                rng: u16::from_str_radix(f[2], 16).expect("starts.txt holds a hex generator state"),
                spawn_count: n(3) as u8,
                spawn_id: n(4) as u8,
                piece: n(5) as u8,
                next: n(6) as u8,
                frame_counter: n(7) as u8,
                fall_timer: n(8) as u8,
                autorepeat_y: n(9) as u8,
                vram_row: n(10) as u8,
            }
        })
}

/// The starts of a level that differ from every smaller title-wait's (equal starts play the
/// same game), in title-wait order.
pub(crate) fn distinct_starts(level: u8) -> Vec<Start> {
    let mut out: Vec<Start> = Vec::new();
    for s in rows().filter(|s| s.level == level) {
        let same = |t: &Start| {
            (
                t.rng,
                t.spawn_count,
                t.spawn_id,
                t.piece,
                t.next,
                t.frame_counter & 3,
            ) == (
                s.rng,
                s.spawn_count,
                s.spawn_id,
                s.piece,
                s.next,
                s.frame_counter & 3,
            )
        };
        if !out.iter().any(same) {
            out.push(s);
        }
    }
    out
}

/// The largest title-wait the table holds for a level.
pub fn max_wait(level: u8) -> Option<u32> {
    rows()
        .filter(|s| s.level == level)
        .map(|s| s.title_wait)
        .max()
}

/// The start a level and title-wait lead to.
pub fn start(level: u8, title_wait: u32) -> Result<Start, UnknownStart> {
    rows()
        .find(|s| s.level == level && s.title_wait == title_wait)
        .ok_or_else(|| UnknownStart {
            level,
            title_wait: title_wait.to_string(),
        })
}

/// The controller, frame by frame, from power-on to the first frame of the first piece: Start
/// on every other frame through the legal screen, `title_wait` + 5 idle frames on the title,
/// Start (A-type), Start, then the level: Down for 5..=9, Right once per step, and A held with
/// Start for levels 10..=19.
pub fn menu_inputs(level: u8, title_wait: u32) -> Vec<u8> {
    let mut seq = Vec::new();
    for _ in 0..134 {
        seq.extend([START, 0]);
    }
    seq.extend(std::iter::repeat_n(0, 5 + title_wait as usize));
    for _ in 0..2 {
        seq.push(START);
        seq.extend([0; 5]);
    }
    let digit = level % 10;
    if digit >= 5 {
        seq.extend([DOWN, 0]);
    }
    for _ in 0..digit % 5 {
        seq.extend([RIGHT, 0]);
    }
    if level >= 10 {
        seq.extend([A, A | START]);
    } else {
        seq.push(START);
    }
    seq.extend([0; 6]);
    seq
}
