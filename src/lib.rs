//! An offline Tetris score optimizer: one beam search over a known piece sequence, for every
//! game behind the [`search::Game`] seam.
//!
//! Four layers: [`search`], the beam, which knows no Tetris; [`kit`], what several games share
//! (the column board, piece kinds, the evaluation, sequences, record text, the replay page);
//! [`games`], each game with its plain rules engine, records, replay, move generator and its
//! side of the seam; and [`cli`], the command line every binary shares, which plays the games
//! through the registry [`games::ALL`] ([`cli::registry::GameCli`]). Below [`cli`] the library
//! returns values and errors and never prints or exits; the binaries in `src/bin/` are a few
//! lines each.

pub mod cli;
pub mod games;
pub mod kit;
pub mod search;

#[cfg(test)]
mod layers_tests;
#[cfg(test)]
mod sizes_tests;
