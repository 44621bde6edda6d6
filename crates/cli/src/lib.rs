//! The command line every binary shares, compiled once: the registry every game implements
//! for the binaries ([`registry::GameCli`]) and the drivers of `solve`, `check`, `gen` and
//! `play` over a list of games ([`drivers`]); errors with their exit codes, files read and
//! written with errors that name them, the limits every option is checked against
//! ([`limits`]), the search options every game reads alike, the progress reporter, a record's
//! report in the one form of every game (`--json`'s, [`report`]), and what the games searched
//! over a sequence file share ([`plain`], and `gen`'s options in [`options`]).
//!
//! It is built on the search (`tetris-search`) and the kit (`tetris-kit`) and knows no game:
//! the drivers play the games through the registry a binary hands them, never one by name, so
//! this crate does not depend on `tetris-opt`, where the games are (its manifest is held to
//! that by `src/layers_tests.rs`). This crate and each game's `cli` module are the only code
//! that knows a command line (clap); the search, the kit and the games' engines return values
//! and errors and never print or exit.

pub mod args;
pub mod checkpoint;
pub mod distributed;
pub mod drivers;
pub mod errors;
pub mod files;
pub mod interrupt;
pub mod limits;
pub mod options;
pub mod plain;
pub mod progress;
pub mod registry;
pub mod report;
pub mod solve;
pub mod summary;
pub mod writer;

pub use errors::*;
pub use files::*;
pub use options::*;
