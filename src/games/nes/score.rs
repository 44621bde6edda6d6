//! The score as the ROM keeps it in RAM, with the digits its cap throws away.

use super::tables::POINTS_BCD;

/// A score as the ROM keeps it: binary-coded decimal bytes, low first, added to with the ROM's
/// own carries (which are not always decimal: see `add_soft_drop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BcdScore {
    /// Six digits as in RAM ($0053..$0055).
    bytes: [u8; 3],
    /// The millions the ROM does not have: what its cap throws away.
    millions: u32,
    /// The ROM's cap has been hit: its score stays 999,999.
    capped: bool,
}

impl BcdScore {
    /// The value without the cap, as score-extending patches of the ROM count it.
    pub fn uncapped(&self) -> u64 {
        self.bytes
            .iter()
            .rev()
            .fold(self.millions as u64, |acc, &b| {
                acc * 100 + (b >> 4) as u64 * 10 + (b & 15) as u64
            })
    }

    /// The value the ROM shows and keeps in RAM: 999,999 once the cap is hit.
    pub fn rom(&self) -> u64 {
        if self.capped {
            999_999
        } else {
            self.uncapped()
        }
    }

    /// Line-clear points, added once per level + 1 as the ROM does.
    pub(super) fn add_points(&mut self, rows: usize) {
        let [lo, hi] = POINTS_BCD[rows];
        let b = &mut self.bytes;
        b[0] = b[0].wrapping_add(lo);
        if b[0] >= 0xA0 {
            b[0] = b[0].wrapping_add(0x60);
            b[1] = b[1].wrapping_add(1);
        }
        b[1] = b[1].wrapping_add(hi);
        if b[1] & 0x0F >= 0x0A {
            b[1] = b[1].wrapping_add(0x06);
        }
        if b[1] & 0xF0 >= 0xA0 {
            b[1] = b[1].wrapping_add(0x60);
            b[2] = b[2].wrapping_add(1);
        }
        if b[2] & 0x0F >= 0x0A {
            b[2] = b[2].wrapping_add(0x06);
        }
        if b[2] & 0xF0 >= 0xA0 {
            // The ROM sets 999,999 here; the uncapped count carries on.
            self.capped = true;
            b[2] = b[2].wrapping_add(0x60);
            self.millions += 1;
        }
    }

    /// Soft-drop points: the ROM adds `hold_down_points - 1` to the low byte in binary, then
    /// corrects each digit once. Right for the small counts a soft drop gives, odd beyond.
    pub(super) fn add_soft_drop(&mut self, hold_down_points: u8) {
        if (hold_down_points.wrapping_sub(2) as i8) < 0 {
            return;
        }
        let b = &mut self.bytes;
        b[0] = b[0].wrapping_sub(1).wrapping_add(hold_down_points);
        if b[0] & 0x0F >= 0x0A {
            b[0] = b[0].wrapping_add(0x06);
        }
        if b[0] & 0xF0 >= 0xA0 {
            b[0] = b[0].wrapping_add(0x60);
            b[1] = b[1].wrapping_add(1);
        }
    }
}

crate::wire_fields!(BcdScore {
    bytes,
    millions,
    capped
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uncapped_score_counts_on_past_any_number_of_digits() {
        // A game through the level counter's wrap scores past 100,000,000; the millions are
        // counted in binary, so no digit the ROM lacks can wrap.
        let mut score = BcdScore::default();
        for _ in 0..1_000_000 {
            score.add_points(4);
        }
        assert_eq!(score.uncapped(), 1_200_000_000);
        assert_eq!(score.rom(), 999_999);
        score.add_points(1);
        assert_eq!(score.uncapped(), 1_200_000_040);
    }
}
