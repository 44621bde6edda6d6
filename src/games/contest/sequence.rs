//! The contest's piece sequence: its generator (docs/RULES.md), the seed of the sequence the
//! contest plays, and what `gen --distribution` draws from.

use super::rules::Kind;
use crate::kit::sequence::{generate as generate_other, Distribution as Other};

/// Seed of the contest sequence.
pub const CONTEST_SEED: u64 = 12358;
const LCG_MODULUS: u64 = 32749;

/// The first `count` pieces of the contest generator started from `seed`.
pub fn contest_sequence(seed: u64, count: usize) -> Vec<Kind> {
    // (v * a + c) mod m only depends on v mod m, so reducing the seed first is exact and keeps
    // every product far from overflow.
    let mut v = seed % LCG_MODULUS;
    (0..count)
        .map(|_| {
            v = (v * 27073 + 17713) % LCG_MODULUS;
            match v % 29 {
                0..=1 => Kind::I,
                2..=4 => Kind::L,
                5..=7 => Kind::J,
                8..=11 => Kind::T,
                12..=16 => Kind::O,
                17..=22 => Kind::S,
                _ => Kind::Z,
            }
        })
        .collect()
}

/// How `gen` draws the contest's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Distribution {
    /// The contest's linear congruential generator (weights 2,3,3,4,5,6,6 out of 29).
    Contest,
    /// Each kind with probability 1/7.
    Uniform,
    /// Shuffled bags of the seven kinds.
    Bag7,
}

/// `count` pieces of `distribution` from `seed`.
pub(crate) fn generate(distribution: Distribution, seed: u64, count: usize) -> Vec<Kind> {
    match distribution {
        Distribution::Contest => contest_sequence(seed, count),
        Distribution::Uniform => generate_other(Other::Uniform, seed, count),
        Distribution::Bag7 => generate_other(Other::Bag7, seed, count),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contest_sequence_matches_rules_figures() {
        let seq = contest_sequence(CONTEST_SEED, 10_000);
        let letters: String = seq[..20].iter().map(|k| k.letter()).collect();
        assert_eq!(letters, "ZIOSLZSIZJSSZZIZZJOL");
        let mut counts = [0usize; 7];
        for k in &seq[..9_999] {
            counts[k.index()] += 1;
        }
        assert_eq!(counts, [722, 957, 1053, 1325, 1649, 2094, 2199]);
    }
}
