//! NES Tetris (NTSC, A-type), the second game: its ROM tables in [`tables`], the plain
//! frame-by-frame engine in [`rules`], how a game starts in [`start`], records of controller
//! input in [`record`], and the checker's replay in [`replay`].

pub mod cli;
pub mod cycles;
pub mod ending;
pub mod eval;
pub mod film;
pub mod fm2;
pub mod movegen;
pub mod record;
pub mod replay;
pub mod rules;
pub mod score;
pub mod search;
pub mod start;
pub mod stops;
pub mod tables;
