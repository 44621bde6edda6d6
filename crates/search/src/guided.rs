//! The guided search `polish` runs: a line of play kept in the beam whatever its rank.
//!
//! Nothing in the rules depends on how a board was reached, so a line of the search that meets
//! one of the guide's boards with more points carries the gain on along the guide's line.

use super::candidates::{best_with_board, Candidate, Chunk};
use super::code::Code;

/// A line of play to improve on: its board's hash after each piece from the run's start on.
///
/// A guided search keeps the guide's line in the beam whatever its rank and answers with that
/// line as the beam left it: the guide with every gain a line of the search carried onto it,
/// ending on the guide's board after the last piece searched, so whatever followed that board
/// in the guide's game can follow the answer too; with [`Guide::free_end`], the beam's best
/// line at the end if it scores more. The answer is empty when the beam never held a board of
/// the guide.
#[derive(Clone, Debug, Default)]
pub struct Guide {
    pub boards: Vec<u64>,
    /// Nothing follows the last piece searched (the guide's game ends there): the answer is
    /// then the beam's best line at the last depth where that scores more than the guide's.
    pub free_end: bool,
}

/// Makes sure the board `hash` goes on if any candidate has it (with the highest score of
/// those that do), even if it did not make the width: a guide's line then survives to the end,
/// and every other line that meets it with more points carries that gain along it. Returns
/// its index in `chosen`, if any candidate had it. `tags`: each parent's board hash, by index.
pub(crate) fn keep_board<C: Code>(
    chunks: &[Chunk<C>],
    hash: u64,
    chosen: &mut Vec<Candidate<C>>,
    tags: &[u64],
) -> Option<usize> {
    if let Some(i) = chosen.iter().position(|c| c.hash == hash) {
        return Some(i);
    }
    let found: Vec<Candidate<C>> = chunks.iter().flat_map(|c| &c.guided).copied().collect();
    let kept = best_with_board(&found, hash, tags)?;
    chosen.push(kept);
    Some(chosen.len() - 1)
}
