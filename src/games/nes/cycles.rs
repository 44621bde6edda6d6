//! The cycles of the frame that counts a lock's lines, and where they make the ROM fail.
//!
//! From about level 154 the score loop (`level + 1` BCD additions) makes that frame long
//! enough for the next frame's interrupt to land after it, in code that runs once the count
//! is done. Where the interrupt lands decides what happens: in the game's jump-table routine
//! it overwrites the address the routine is about to jump through, and the game runs into RAM
//! (a crash, or with some values a screen written over with garbage); in the confetti range
//! the ending's routine runs (a stall, or a hang until a button is pressed); between the two
//! the frame lags, and the next piece may spawn a frame late, depending on the music and the
//! frame's phase, which the engine does not follow; past the hang the counters are drawn a
//! frame late, which the game's timing does not see. The count is
//! the community's model (HydrantDude's crash theory, as TetrisGYM's crash mode adds it up):
//! a fixed base, and terms each of which the engine knows exactly — the rows and where they
//! were, the next box, the music's tempo check, Select, the line count's digits, the level-up,
//! push-down points, the clear-type counter's carry, the score loop at the level reached, a
//! four-line clear on a frame counter divisible by 8, and the current piece. What the engine
//! cannot know (the cycle of the instruction the interrupt lands in, the frame's parity against
//! the console's power-on alignment, the controller's DMA sync) adds 0 to 8 cycles: a lock is
//! safe at a margin `m` when every count in `[cycles - m, cycles + 8 + m]` is.

/// What the counting frame does, as the engine knows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// The level after the count (the score loop's).
    pub level: u8,
    /// Rows cleared, 0 to 4.
    pub rows: u8,
    /// Of them, rows at index 11 or below it on the field (row 0 at the top): the row copy
    /// takes two cycles more there.
    pub deep_rows: u8,
    /// The count passed a multiple of ten (the tens digit changed), of a hundred, and the
    /// level went up.
    pub tens: bool,
    pub hundreds: bool,
    pub level_up: bool,
    /// `holdDownPoints` at the count (2 or more pays push-down points).
    pub push_down: u8,
    /// The clear type's statistics counter carried into its tens digit.
    pub type_carry: bool,
    /// The frame counter is a multiple of 8 (it matters for a four-line clear only).
    pub eighth_frame: bool,
    /// `currentPiece` at the count: `0x13` (no piece) after a clear, else the locked piece.
    pub piece: u8,
    /// The music was fast (a block on row 5 at the last count).
    pub was_allegro: bool,
    /// The first column with a block on row 5 after the clear (the tempo check's scan).
    pub first_block: Option<u8>,
    /// Select newly pressed on this frame, and the next box hidden.
    pub select: bool,
    pub next_hidden: bool,
}

/// The cycles every counting frame spends before the terms below.
const BASE: u32 = 7_279;
/// Drawing the next box.
const NEXT_BOX: u32 = 394;
/// The score loop: cycles once and per level, by rows cleared (0: a plain lock).
const SCORE_ONCE: [u32; 5] = [737, 28, 56, 84, 128];
const SCORE_PER_LEVEL: [u32; 5] = [83, 136, 125, 125, 125];
/// The jump-table routine runs once per frame through eight switch routines; the interrupt
/// can meet it at the count plus each of these offsets.
const SWITCHES: [u32; 8] = [0, 60, 162, 222, 323, 383, 502, 562];
/// Interrupt cycles in the jump-table routine that crash the game, and the range where its
/// outcome depends on the switch: no effect at the second (offset 60), garbage on the screen
/// at the sixth (offset 383), a crash at the others.
const CRASH: [(u32, u32); 2] = [(29_739, 29_744), (29_750, 29_762)];
const BY_SWITCH: (u32, u32) = (29_763, 29_768);
/// Past the switches (the count plus 562, plus the next box when it is hidden, since it is
/// drawn later then): the confetti routine that stalls until frame counter 255 (only while the
/// next box shows), and the one that hangs until a button. The hang begins 13 cycles before
/// the community's figure (31,327): on Nestopia a triple within a ten at level 180 and a
/// double at 181 (counts of 30,751 before the switches, 30,751-30,759 with the unknown) hang
/// in two of the four frame phases, so the hang's first count is at most 30,759 + 562 and
/// above 30,751 + 562.
const STALL: (u32, u32) = (30_405, 30_754);
const HANG: (u32, u32) = (31_314, 31_755);
/// Between the stall and the hang the interrupt lands where the game then waits a frame more
/// (the community's "level lag" and "line lag", from 30,877): on Nestopia and FCEUX a
/// four-line clear at level 176 with a low stack (30,954 to 30,973 here) spawns the next piece
/// a frame late in three of four frame phases, and a game whose engine does not wait parts
/// from the ROM there. Taken from 13 cycles before the community's figure, as the hang's
/// measured start is.
const LAG: (u32, u32) = (30_864, HANG.0 - 1);
/// The cycles of the interrupt's timing the engine cannot know.
pub(crate) const UNKNOWN: u32 = 8;
/// The margin the search keeps from every failing count, for what the model may still miss.
pub const MARGIN: i32 = 3;
/// Below this level no count comes within [`FAR`] cycles of a failing one (a test checks
/// it), so what only the counts read (the clear types' counters) does not tell games apart.
pub(crate) const QUIET_BELOW: u8 = 140;
/// Margins are reported up to this (a lock far from every failing count).
pub(crate) const FAR: i32 = 999;

/// How a lock's count of cycles ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    Safe,
    /// The interrupt lands in the jump-table routine: no piece spawns again.
    Crash,
    /// The sixth switch routine writes garbage over the screen.
    Garbage,
    /// The limited confetti: the game stalls until the frame counter reaches 255.
    Stall,
    /// The endless confetti: the game waits for a button.
    Hang,
    /// A frame of lag that may move the next spawn.
    Lag,
}

impl Count {
    /// The count with the level and line terms of a lock that took the game from `before` to
    /// `after` (level, lines): the level reached, the tens and hundreds digits that changed and
    /// the level-up.
    pub fn between(self, before: (u8, u32), after: (u8, u32)) -> Count {
        Count {
            level: after.0,
            tens: after.1 / 10 != before.1 / 10,
            hundreds: after.1 / 100 != before.1 / 100,
            level_up: after.0 != before.0,
            ..self
        }
    }

    /// The frame's cycles before the unknown 0 to 8.
    pub(crate) fn cycles(&self) -> u32 {
        let rows = self.rows.min(4) as usize;
        let mut c = BASE + 95 * rows as u32 + 2 * self.deep_rows.min(self.rows) as u32;
        if !self.next_hidden {
            c += NEXT_BOX;
        }
        c += match (self.first_block, self.was_allegro) {
            (None, false) => 149,
            (None, true) => 149 + 38,
            (Some(k), true) => 16 * k as u32,
            (Some(k), false) => 16 * k as u32 + 41,
        };
        c += 7 * u32::from(self.select);
        c += 79 * u32::from(self.tens) + 12 * u32::from(self.hundreds);
        c += 18 * u32::from(self.level_up);
        if self.push_down >= 2 {
            c += 90 + if self.push_down < 8 { 9 } else { 0 };
        } else if rows > 0 {
            c += 11 * u32::from(self.type_carry) + if rows == 1 { 53 } else { 42 };
        }
        c += SCORE_ONCE[rows] + SCORE_PER_LEVEL[rows] * self.level as u32;
        c += 5 * u32::from(rows == 4 && self.eighth_frame);
        c += match self.piece {
            8 => 8,
            9.. => 12,
            _ => 0,
        };
        c
    }

    /// The margin of this count ([`margin`]); -1 for a count that switches the music to fast
    /// from the quiet level on ([`Count::switches_music`]).
    pub fn margin(&self) -> i32 {
        if self.switches_music() && self.level >= QUIET_BELOW {
            return -1;
        }
        margin(self.cycles(), self.next_hidden)
    }

    /// The tempo check finds a block on row 5 while the music is slow, and starts the fast
    /// music. The 41 cycles counted for it are the community's; the crash sweeps never set it
    /// up (their stacks are low with the music slow, or tall with it fast), and on Nestopia a
    /// plain lock at level 255 that switched it stalled where the model counts 151 cycles
    /// short of the stall. What the switch costs is not known, so no count with one is called
    /// safe where counts come near a failing one.
    pub fn switches_music(&self) -> bool {
        self.first_block.is_some() && !self.was_allegro
    }
}

/// What a count of exactly `c` cycles (the unknown included) does.
pub(crate) fn fate(c: u32, next_hidden: bool) -> Fate {
    let within = |(lo, hi): (u32, u32), c: u32| (lo..=hi).contains(&c);
    for (switch, &offset) in SWITCHES.iter().enumerate() {
        let at = c + offset;
        if CRASH.iter().any(|&w| within(w, at)) {
            return Fate::Crash;
        }
        if within(BY_SWITCH, at) {
            match switch {
                1 => {}
                5 => return Fate::Garbage,
                _ => return Fate::Crash,
            }
        }
    }
    let after = c + SWITCHES[7] + if next_hidden { NEXT_BOX } else { 0 };
    if !next_hidden && within(STALL, after) {
        return Fate::Stall;
    }
    if within(HANG, after) {
        return Fate::Hang;
    }
    if within(LAG, after) {
        return Fate::Lag;
    }
    Fate::Safe
}

/// The failing counts, as ranges of `c`, for the next box shown ([0]) and hidden ([1]).
fn failing(next_hidden: bool) -> &'static [(u32, u32)] {
    use std::sync::OnceLock;
    static RANGES: OnceLock<[Vec<(u32, u32)>; 2]> = OnceLock::new();
    let ranges = RANGES.get_or_init(|| {
        [false, true].map(|hidden| {
            // Every failing count lies below the hang's end; runs of them become ranges.
            let mut out: Vec<(u32, u32)> = Vec::new();
            for c in 0..=HANG.1 {
                if fate(c, hidden) == Fate::Safe {
                    continue;
                }
                match out.last_mut() {
                    Some(last) if last.1 + 1 == c => last.1 = c,
                    _ => out.push((c, c)),
                }
            }
            out
        })
    });
    &ranges[usize::from(next_hidden)]
}

/// How far a count of `c` cycles before the unknown 0 to 8 stays from every failing count:
/// the largest `m` (up to [`FAR`]) such that every count in `[c - m, c + 8 + m]` is safe, or
/// -1 when one in `[c, c + 8]` fails.
pub(crate) fn margin(c: u32, next_hidden: bool) -> i32 {
    let (lo, hi) = (c, c + UNKNOWN);
    let mut best = FAR;
    for &(a, b) in failing(next_hidden) {
        let gap = if b < lo {
            lo - b - 1
        } else if a > hi {
            a - hi - 1
        } else {
            return -1;
        };
        best = best.min(gap.min(FAR as u32) as i32);
    }
    best
}

#[cfg(test)]
#[path = "cycles_tests.rs"]
mod tests;
