//! An offline Tetris score optimizer: one beam search over a known piece sequence, for every
//! game behind the [`search::Game`] seam.
//!
//! Four layers: [`search`], the beam, which knows no Tetris; [`kit`], what several games share
//! (the column board, piece kinds, the evaluation, sequences, record text, the replay page);
//! [`games`], each game with its plain rules engine, records, replay, move generator and its
//! side of the seam; and [`cli`], the command line every binary shares, which plays the games
//! through the registry [`games::ALL`] ([`cli::registry::GameCli`]). Below [`cli`] the library
//! returns values and errors and never prints or exits; the binaries in `src/bin/` are a few
//! lines each. The search, the kit and the command line are the crates `tetris-search`,
//! `tetris-kit` and `tetris-cli` (`crates/`), and cargo holds what each may depend on: the
//! search on nothing of Tetris, the kit on the search, the command line on both and on no game,
//! which it reaches only through the registry a binary hands it. The games are this crate's.

pub mod games;

// The layers other than the games are crates of their own (`crates/search`, `crates/kit`,
// `crates/cli`), so that cargo holds what they may depend on; under these names every path of
// the games, the binaries and the tests reads the same as a module's would.
pub use tetris_cli as cli;
pub use tetris_kit as kit;
pub use tetris_search as search;
// An exported macro lives at its crate's root: the games implement `Wire` with
// `crate::wire_fields!` and print with `crate::say!`.
pub use tetris_cli::say;
pub use tetris_search::wire_fields;

#[cfg(test)]
mod layers_tests;
#[cfg(test)]
mod sizes_tests;
