//! The games, side by side: each a module with its plain rules engine (the checker's), its
//! record text, its fast move generator and evaluation for the search.

pub mod browser;
pub mod nes;
pub mod olympiad;
pub mod tencent;
