//! What several games share, above the search and below every game: the column bitboard and
//! the piece kinds, the board evaluation with its weights and policy, the batch of children
//! waiting for it, piece sequences, the helpers of every reader of record text and of the
//! records that hold a line per piece, what a replay found in the terms every game shares,
//! where a search over a sequence starts and what its depths rank by, and the replay page.
//!
//! The crate `tetris-kit`: built on the search's seam (`tetris-search`), it knows no game and
//! no command line (neither is among its dependencies, nor clap), and cargo holds that.
//!
//! The small functions a game calls per placement (the board's, the batch's, the pending
//! children's) are `#[inline]`: across a crate boundary only those inline without LTO.

pub mod board;
pub mod eval;
pub mod film;
pub mod fluid;
pub mod pending;
pub mod piece;
pub mod piece_lines;
pub mod policy;
pub mod scorecard;
pub mod seam;
pub mod sequence;
pub mod text;
pub mod weights;
