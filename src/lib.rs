//! An offline score optimizer for the Tencent Geek Challenge #4 Tetris variant.
//!
//! The rules live in [`rules`] (the plain engine the checker replays on), records in [`record`],
//! piece sequences in [`sequence`] and the checker in [`replay`].

pub mod bitboard;
pub mod cli;
pub mod eval;
pub mod movegen;
pub mod record;
pub mod replay;
pub mod rules;
pub mod search;
pub mod sequence;
pub mod solve;
pub mod tune;
pub mod viewer;
