//! NES Tetris's plain engine (`games::nes::rules`, the replay checker): the random generator
//! and piece choice, BCD score and its cap, levels, the first piece's hang, input latency, DAS,
//! rotation and soft drop, each as the ROM does it.

mod generator;
mod score_levels;
mod timing;
