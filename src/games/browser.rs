//! The browser game, the third game: a well-known canvas Tetris in JavaScript with the points
//! and levels a tutorial added (10 x 20 field, two hidden rows, square piece matrices turned
//! clockwise without kicks, 10 points a line; `docs/BROWSER.md`). Its plain engine is in
//! [`rules`], its record text in [`record`], the checker's replay in [`replay`], the solver's
//! placement search in [`movegen`], its side of the search in [`search`], the playable
//! page `play` writes in [`page`], and the replay viewer's page `check --html` writes in
//! [`film`].

pub mod cli;
pub mod film;
pub mod movegen;
pub mod page;
pub mod record;
pub mod replay;
pub mod rules;
pub mod search;

use crate::kit::sequence::{generate, Distribution};
use rules::Kind;

/// The game's sequence for `seed`: 7-bags, each the seven kinds shuffled (the project's
/// [`Distribution::Bag7`]; docs/BROWSER.md states the algorithm for the page).
pub fn sequence(seed: u64, count: usize) -> Vec<Kind> {
    generate(Distribution::Bag7, seed, count)
}
