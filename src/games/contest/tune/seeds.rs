//! The seeds tuning may use: generated sequences of the contest's distribution that never
//! run into the contest sequence itself, which is held out.

use super::{TuneError, TuneInput};
use crate::games::contest::sequence::{contest_sequence, CONTEST_SEED};

/// The contest generator's step (as in [`contest_sequence`]): each piece is drawn from the
/// state this gives, and the next state depends on the state alone.
pub(super) const GENERATOR_MODULUS: u64 = 32749;

pub(super) fn next_state(v: u64) -> u64 {
    (v * 27073 + 17713) % GENERATOR_MODULUS
}

/// Pieces of the contest sequence that tuning keeps clear of: the whole game.
pub(crate) const CONTEST_PIECES: usize = 10_000;

/// Where a seed's sequence runs into the contest's: its pieces from `seed_piece` on are the
/// contest's from `contest_piece` on (both 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ContestOverlap {
    pub(crate) seed_piece: usize,
    pub(crate) contest_piece: usize,
}

/// The generator states the contest sequence draws its pieces from. A sequence that reaches
/// one of them repeats the contest's pieces from there on, so tuning on it fits the held-out
/// sequence. The generator's multiplier has order 5458 modulo 32749, so the contest's 10,000
/// pieces go round a cycle of 5458 states: about one seed in six lies on it.
pub(crate) struct ContestStates {
    /// By state: the first contest piece drawn from it (1-based), 0 for states it never takes.
    piece_from: Vec<u32>,
}

impl Default for ContestStates {
    fn default() -> Self {
        let mut piece_from = vec![0; GENERATOR_MODULUS as usize];
        let mut v = CONTEST_SEED % GENERATOR_MODULUS;
        for piece in 1..=CONTEST_PIECES {
            v = next_state(v);
            if piece_from[v as usize] == 0 {
                piece_from[v as usize] = piece as u32;
            }
        }
        ContestStates { piece_from }
    }
}

impl ContestStates {
    /// Where the first `pieces` pieces from `seed` run into the contest sequence, if they do.
    pub(crate) fn overlap(&self, seed: u64, pieces: usize) -> Option<ContestOverlap> {
        let mut v = seed % GENERATOR_MODULUS;
        // The step is a bijection, so the states repeat within GENERATOR_MODULUS steps: a
        // longer sequence reaches no state the first steps did not.
        for seed_piece in 1..=pieces.min(GENERATOR_MODULUS as usize) {
            v = next_state(v);
            match self.piece_from[v as usize] {
                0 => {}
                contest_piece => {
                    return Some(ContestOverlap {
                        seed_piece,
                        contest_piece: contest_piece as usize,
                    })
                }
            }
        }
        None
    }
}

/// The first `pieces` pieces of each seed's sequence, named "seed N". Refuses a seed whose
/// sequence runs into the contest's (see [`ContestStates`]) and a seed given twice (seeds are
/// taken modulo the generator's modulus).
pub(crate) fn seed_inputs(seeds: &[u64], pieces: usize) -> Result<Vec<TuneInput>, TuneError> {
    let contest = ContestStates::default();
    let mut inputs = Vec::with_capacity(seeds.len());
    for (i, &seed) in seeds.iter().enumerate() {
        if let Some(overlap) = contest.overlap(seed, pieces) {
            return Err(TuneError::ContestSeed { seed, overlap });
        }
        let same = |&earlier: &u64| earlier % GENERATOR_MODULUS == seed % GENERATOR_MODULUS;
        if let Some(&earlier) = seeds[..i].iter().find(|s| same(s)) {
            return Err(TuneError::SeedTwice { earlier, seed });
        }
        inputs.push(TuneInput {
            name: format!("seed {seed}"),
            pieces: contest_sequence(seed, pieces),
        });
    }
    Ok(inputs)
}
