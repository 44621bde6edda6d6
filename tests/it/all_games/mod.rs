//! What every game's binaries do alike, held through each game: `solve`'s one pipeline, the
//! distributed search in one process and under `mpirun`, `gen`, `--help`, records that do not parse or
//! cannot be read, files that cannot be written or that are one of the run's inputs, `-` for
//! standard input and output, a closed pipe, and the mutation fuzzer over every game's readers.

mod closed_pipe_cli;
mod dash_cli;
mod distributed;
mod fuzz;
mod gen_cli;
mod help_cli;
mod mpi_cli;
mod overwrite_cli;
mod record_errors_cli;
mod solve_pipeline;
mod write_errors_cli;
