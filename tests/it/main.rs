//! The integration tests, built as one binary: the binaries (`check`, `solve`, `gen`, `merge`,
//! `polish`, `tune`, `play`) run as a user runs them; every game's rules, records and replays;
//! the fast engine and the search held to the plain rules engine; the distributed search; the
//! viewer and the browser game's page in headless Chromium; the NES engine against the ROM; and
//! a mutation fuzzer over every reader. `common` holds what the tests that run the binaries
//! share, `fast_engine` the random boards and plain references of the fast-engine tests.

mod common;
mod fast_engine;

mod browser;
mod browser_cli;
mod browser_page;
mod check_cli;
mod closed_pipe_cli;
mod dash_cli;
mod distributed;
mod engine_board;
mod engine_eval;
mod engine_movegen;
mod engine_search;
mod fuzz;
mod gen_cli;
mod merge_cli;
mod mpi_cli;
mod nes_cli;
mod nes_engine;
mod nes_fceux;
mod nes_movies;
mod nes_oracle;
mod nes_tetanes;
mod olympiad_cli;
mod polish_cli;
mod record;
mod record_errors_cli;
mod replay;
mod rules;
mod solve_cli;
mod solve_pipeline;
mod tune_cli;
mod viewer;
mod weights_cli;
mod write_errors_cli;
