//! The 2021 Tencent Geek Challenge #4 Tetris variant (docs/RULES.md): the plain rules engine
//! in [`rules`], records in [`record`], the checker's replay in [`replay`] with its breakdown
//! of the points in [`stats`]; for the search, the fast board in [`bitboard`], placements in
//! [`movegen`], the board evaluation in [`eval`] and its policy in [`policy`], and the game on
//! the beam search's seam in [`search`].

pub mod bitboard;
pub mod eval;
pub mod movegen;
pub mod policy;
pub mod record;
pub mod replay;
pub mod report;
pub mod rules;
pub mod search;
pub mod stats;
pub mod weights;
