//! The olympiad's survival game (`docs/OLYMPIAD.md`): a 10 x 20 field, pieces dropped straight
//! down in a chosen orientation and column, and after a clear the blocks left falling as
//! connected bodies; the score is the number of pieces placed. Its plain engine is in
//! [`rules`], its record text in [`record`], the checker's replay in [`replay`] (and the
//! viewer's page of it in [`film`]), the search's fast engine on the kit's column board in
//! [`bitboard`] and its side of the search in [`search`].

pub mod bitboard;
pub mod cli;
pub mod film;
pub mod record;
pub mod replay;
pub mod rules;
pub mod search;

use crate::kit::sequence::{generate, Distribution};
use rules::Kind;

/// The game's sequence for `seed`: each piece one of the seven kinds with equal odds (the
/// project's [`Distribution::Uniform`]).
pub fn sequence(seed: u64, count: usize) -> Vec<Kind> {
    generate(Distribution::Uniform, seed, count)
}
