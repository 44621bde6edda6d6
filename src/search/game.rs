//! The seam between the beam search and a game: what a game must provide for the search to
//! play it. The search is generic over [`Game`] and monomorphised for each game, so a game's
//! move generator and evaluation run inlined in the expansion as if written there.

use super::expand::{sortable, Candidate, Chunk};

/// A game as the beam search sees it: its states, the children of a state with their keys,
/// and the state a chosen child becomes.
///
/// A child is named by a `u16` placement, the game's own code (a packed position, or an index
/// into the state's placements): the search keeps only that code per state and depth, and asks
/// the game to rebuild states ([`Game::apply`]) and, at the end, the record of a line.
pub trait Game: Sync {
    /// A state of the beam beyond its score: the board and whatever else decides its future.
    type State: Copy + Default + Send + Sync;
    /// What one depth of the search needs (its piece, its ranking), made once per depth.
    type Depth: Sync;
    /// One expansion task's buffers, kept from state to state within a depth.
    type Scratch: Default + Send;

    /// Depth `depth` of the search (0: the search's first piece).
    fn depth(&self, depth: usize) -> Self::Depth;

    /// Every child of `state` (which has banked `score`; `parent` is its index in the depth)
    /// into `out`; returns the placements generated. Children may be held in `scratch` (to be
    /// evaluated in batches) until [`Game::flush`].
    fn expand(
        &self,
        at: &Self::Depth,
        state: &Self::State,
        score: u64,
        parent: u32,
        scratch: &mut Self::Scratch,
        out: &mut Sink,
    ) -> u64;

    /// The children `expand` held back, into `out`, in the order they were made.
    fn flush(&self, _at: &Self::Depth, _scratch: &mut Self::Scratch, _out: &mut Sink) {}

    /// The state that child `placement` of `state` becomes (`at`: the depth that made it).
    fn apply(&self, at: &Self::Depth, state: &Self::State, placement: u16) -> Self::State;
}

/// Where a game puts a state's children: an expansion task's buffer.
pub struct Sink<'a> {
    pub(crate) chunk: &'a mut Chunk,
    pub(crate) guide_board: Option<u64>,
}

impl Sink<'_> {
    /// Takes a child: its key (lower is better), a hash of everything that decides its future
    /// (children with one hash are one state, and the one with the higher score goes on), its
    /// score, its parent's index in the depth, and its placement.
    #[inline]
    pub fn push(&mut self, key: f64, hash: u64, score: u64, parent: u32, placement: u16) {
        let candidate = Candidate {
            key: sortable(key),
            hash,
            score,
            parent,
            placement,
        };
        self.chunk.push(candidate, self.guide_board);
    }
}
