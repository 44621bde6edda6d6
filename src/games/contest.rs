//! The 2021 Tencent Geek Challenge #4 Tetris variant (docs/RULES.md): the plain rules engine
//! in [`rules`] and its piece generator in [`sequence`], records in [`record`], the checker's replay in [`replay`] with its breakdown
//! of the points in [`stats`] and its page in [`film`]; for the search, the contest's pieces on
//! the kit's board in [`bitboard`], placements in [`movegen`] and the game on the beam search's
//! seam in [`search`], with its points in the fluid model in [`fluid`]. The contest's own tools: record building and the self-check in [`solve`],
//! parameter tuning in [`tune`], and [`merge`] and [`polish`] to improve finished records.

pub mod bitboard;
pub mod cli;
pub mod diagnosis;
pub mod film;
pub mod fluid;
pub mod merge;
pub mod movegen;
pub mod polish;
pub mod record;
pub mod replay;
pub mod report;
pub mod rules;
pub mod search;
pub mod sequence;
pub mod solve;
pub mod stats;
pub mod tune;

pub use sequence::{contest_sequence, CONTEST_SEED};
