//! The integration tests, built as one binary, a folder per game: `contest`, `nes`, `browser`
//! and `olympiad`, each with its rules, records and
//! replays, its fast engine held to its plain engine where it has one, and its binaries run as
//! a user runs them; `all_games` for what the binaries do alike in every game, the distributed
//! search and the mutation fuzzer over every reader. `common` holds what the tests that run the
//! binaries share.

mod common;

mod all_games;
mod browser;
mod contest;
mod nes;
mod olympiad;
