//! An offline score optimizer for the Tencent Geek Challenge #4 Tetris variant.
//!
//! The rules live in [`rules`] (the plain engine the checker replays on), records in [`record`],
//! piece sequences in [`sequence`], the checker in [`replay`] with its breakdown of the points
//! in [`stats`] and its HTML page in [`viewer`].
//! The solver: the fast board in [`bitboard`], placements in [`movegen`], the board evaluation
//! in [`eval`], the beam in [`search`] (its width along the way in [`width`]), record building
//! and the self-check in [`solve`], and parameter tuning in [`tune`]. Finished records are
//! improved by [`merge`] (the best combination of several records of one game) and [`polish`]
//! (a stretch of a record searched again). [`cli`] holds what the binaries share, [`text`] what
//! the readers of records, sequences and JSON files share.

pub mod cli;
pub mod games;
pub mod limits;
pub mod merge;
pub mod polish;
pub mod progress;
pub mod search;
pub mod sequence;
pub mod solve;
pub mod text;
pub mod tune;
pub mod viewer;
pub mod width;
