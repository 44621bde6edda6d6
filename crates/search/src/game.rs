//! The seam between the beam search and a game: what a game must provide for the search to
//! play it. The search is generic over [`Game`] and monomorphised for each game, so a game's
//! move generator and evaluation run inlined in the expansion as if written there.

use super::candidates::{sortable, Candidate, Chunk};
use super::code::Code;
use super::wire::Wire;

/// What takes the answer's codes as they are decided ([`crate::Options::decided`]).
pub type Decided<'a, C> = &'a mut dyn FnMut(&[C]);

/// A game as the beam search sees it: its states, the children of a state with their keys,
/// and the state a chosen child becomes.
///
/// A child is named by the game's own [`Code`] (a packed position, or the presses that reach
/// it): the search keeps that code per state and depth, asks the game to rebuild states from
/// it ([`Game::apply`]), and answers with the codes of the winning line.
pub trait Game: Sync {
    /// What names a child of a state.
    type Code: Code;
    /// A state of the beam beyond its score: the board and whatever else decides its future.
    type State: Copy + Default + Send + Sync + Wire;
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
        out: &mut Sink<Self::Code>,
    ) -> u64;

    /// The children `expand` held back, into `out`, in the order they were made.
    fn flush(&self, _at: &Self::Depth, _scratch: &mut Self::Scratch, _out: &mut Sink<Self::Code>) {}

    /// The state that child `placement` of `state` becomes (`at`: the depth that made it).
    fn apply(&self, at: &Self::Depth, state: &Self::State, code: &Self::Code) -> Self::State;
}

/// A game borrowed is the same game (a caller that keeps the game to itself lends it).
impl<G: Game> Game for &G {
    type Code = G::Code;
    type State = G::State;
    type Depth = G::Depth;
    type Scratch = G::Scratch;

    fn depth(&self, depth: usize) -> Self::Depth {
        (**self).depth(depth)
    }

    #[inline]
    fn expand(
        &self,
        at: &Self::Depth,
        state: &Self::State,
        score: u64,
        parent: u32,
        scratch: &mut Self::Scratch,
        out: &mut Sink<Self::Code>,
    ) -> u64 {
        (**self).expand(at, state, score, parent, scratch, out)
    }

    #[inline]
    fn flush(&self, at: &Self::Depth, scratch: &mut Self::Scratch, out: &mut Sink<Self::Code>) {
        (**self).flush(at, scratch, out)
    }

    fn apply(&self, at: &Self::Depth, state: &Self::State, code: &Self::Code) -> Self::State {
        (**self).apply(at, state, code)
    }
}

/// Where a game puts a state's children: an expansion task's buffer.
pub struct Sink<'a, C: Code> {
    pub(crate) chunk: &'a mut Chunk<C>,
    pub(crate) guide_board: Option<u64>,
}

impl<C: Code> Sink<'_, C> {
    /// Takes a child: its key (lower is better), a hash of everything that decides its future
    /// (children with one hash are one state, and the one with the higher score goes on), its
    /// score, its parent's index in the depth, and its code.
    #[inline]
    pub fn push(&mut self, key: f64, hash: u64, score: u64, parent: u32, placement: C) {
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
