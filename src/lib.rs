//! An offline Tetris score optimizer: one beam search over a known piece sequence, for every
//! game behind the [`search::Game`] seam.
//!
//! The games live side by side in [`games`] (the contest's, NES Tetris, the browser game),
//! each with its plain rules engine, records, replay, move generator and its side of the seam.
//! The beam is [`search`] (its width along the way in [`width`], its limits in [`limits`]);
//! piece sequences are in [`sequence`], the replay page in [`viewer`], and what the readers of
//! records, sequences and JSON files share in [`text`]. For the contest: record building and
//! the self-check in [`solve`], parameter tuning in [`tune`], and [`merge`] and [`polish`] to
//! improve finished records. The library returns values and errors; the binaries in
//! `src/bin/` (with what they share in `src/bin/shared/`) parse arguments and print.

pub mod games;
pub mod kit;
pub mod search;

#[cfg(test)]
mod layers_tests;
