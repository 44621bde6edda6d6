//! The games, side by side: each a module with its plain rules engine (the checker's), its
//! record text, its fast move generator and evaluation for the search, and its `cli` module,
//! which the binaries play it through ([`crate::cli::registry::GameCli`]).
//!
//! [`ALL`] is the list the binaries read. A game joins it by one folder and one name in the
//! line below; no other file names the games.

/// The games' modules, and [`ALL`]: each module's `cli::GAME`, in the order `--game` lists
/// them (the first is every binary's default).
macro_rules! registry {
    ($($game:ident),+) => {
        $(pub mod $game;)+
        /// Every game the binaries play.
        pub const ALL: &[&dyn crate::cli::registry::GameCli] = &[$(&$game::cli::GAME),+];
    };
}

registry!(tencent, nes, browser, olympiad);
