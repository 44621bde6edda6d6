//! The olympiad's game (`games::olympiad`): `gen`, `solve` and `check` with `--game olympiad`,
//! and its viewer page on a long game (`viewer`). Its readers, replay and its two engines
//! played side by side are under the fuzzer (`all_games::fuzz`).

mod cli;
mod viewer;
