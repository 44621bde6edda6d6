//! What names a child of a state: a game's [`Code`], which the search keeps per state and
//! depth and ranks ties by. Below the candidates and the game's seam, which both name it.

use super::wire::Wire;

/// A game's name for a child of a state.
pub trait Code: Copy + Default + Send + Sync + Wire {
    /// The child's rank among its parent's children, unique within a parent: it breaks ties
    /// of key, so that the choice never depends on the order the tasks finished in.
    fn order(&self) -> u16;
}

/// A packed placement that is its own rank.
impl Code for u16 {
    #[inline]
    fn order(&self) -> u16 {
        *self
    }
}
