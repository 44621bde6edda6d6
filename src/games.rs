//! The games, side by side: each a module with its plain rules engine (the checker's), its
//! record text, its fast move generator and evaluation for the search, and its `cli` module,
//! which the binaries play it through ([`crate::cli::registry::GameCli`]).
//!
//! [`ALL`] is the list the binaries read. A game joins it by one folder, its `mod` line and
//! its name in [`ALL`]; no other file names the games. The modules are declared plainly, not
//! by a macro, so that `cargo fmt` and every other tool that follows `mod` lines sees them.

pub mod browser;
pub mod contest;
pub mod nes;
pub mod olympiad;

/// Every game the binaries play, in the order `--game` lists them (the first is every
/// binary's default).
pub const ALL: &[&dyn crate::cli::registry::Entry] = &[
    &contest::cli::GAME,
    &nes::cli::GAME,
    &browser::cli::GAME,
    &olympiad::cli::GAME,
];
