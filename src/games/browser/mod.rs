//! The browser game: a well-known canvas Tetris in JavaScript, with points and levels.

pub mod page;
