//! The contest's plain engine (`games::contest::rules`) held to `docs/RULES.md`, one rule at a
//! time: the pieces (`pieces`), moves and the end of a game (`moves`), and the score (`score`).
//!
//! Every expected cell, score and board here is worked out by hand from the rules text (piece
//! shapes are drawn as pictures, not copied from `OFFSETS`), so a slip in the engine's tables or
//! in a step of a turn cannot hide behind the same slip in the test.

mod moves;
mod pieces;
mod score;
