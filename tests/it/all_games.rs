//! What every game's binaries do alike, held through each game: `solve`'s one pipeline, the
//! distributed search in one process and under `mpirun`, `gen`, `--help`, the one form of
//! `--json` and how `check` says a game ended, records that do not parse, cannot be read or do
//! not fit their sequence, files that cannot be written or that are one of the run's inputs, `-` for
//! standard input and output, a closed pipe, and the mutation fuzzer over every game's readers.

mod closed_pipe_cli;
mod dash_cli;
mod distributed;
mod fuzz;
mod gen_cli;
mod help_cli;
mod json_cli;
mod mpi_cli;
mod overwrite_cli;
mod record_errors_cli;
mod solve_pipeline;
mod write_errors_cli;
