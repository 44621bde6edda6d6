//! What the binaries share, compiled once: the registry every game implements for them
//! ([`registry::GameCli`]) and the drivers of `solve`, `check`, `gen` and `play` over a list of
//! games ([`drivers`]); errors with their exit codes, files read and written with errors that
//! name them, the limits every option is checked against ([`limits`]), the search options
//! every game reads alike, the progress reporter, and what the games searched over a sequence
//! file share ([`sequence`], [`plain`]).
//!
//! This layer and each game's `cli` module are the only code that knows a command line
//! (clap); the search, the kit and the games' engines return values and errors and never
//! print or exit (`layers_tests.rs` holds it).

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
pub mod runs;
pub mod sequence;
pub mod solve;
pub mod summary;
pub mod values;
pub mod writer;

pub use errors::*;
pub use files::*;
pub use options::*;
