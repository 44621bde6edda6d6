//! `solve --distributed`: a game's search spread over the processes of an MPI job
//! (`mpirun -np 4 solve --distributed ...`, built with `--features mpi`), or, without MPI, run
//! as one process: the same record either way (see `tetris_search::distributed`).

use crate::CliError;
use tetris_search::comm::gather_u64;
use tetris_search::{Comm, Traffic};

/// Runs `run` as this process of the job and ends MPI: every process answers the same exit
/// code, the error printed once.
#[cfg(feature = "mpi")]
pub(crate) fn main(
    run: impl FnOnce(&dyn Comm) -> Result<(), CliError> + Send,
) -> std::process::ExitCode {
    // MPI ends (MPI_Finalize) before `run`'s answer returns, after the error is written.
    let code = tetris_search::mpi::run(|mpi| answer(mpi.rank(), run(mpi)));
    match code {
        Ok(code) => crate::exit_status(code),
        Err(refused) => crate::exit_code(Err(CliError::internal(refused))),
    }
}

/// Runs `run` as the one process of a binary built without MPI.
#[cfg(not(feature = "mpi"))]
pub(crate) fn main(
    run: impl FnOnce(&dyn Comm) -> Result<(), CliError> + Send,
) -> std::process::ExitCode {
    if let Some(size) = launched_as_many() {
        // Each process would run the whole search alone and print a record of its own.
        return crate::exit_code(Err(CliError::usage(format!(
            "this process is one of {size} of an MPI job, but this binary was built without \
             MPI: build it with `cargo build --release --features mpi` (see docs/SCALING.md)"
        ))));
    }
    crate::exit_status(answer(0, run(&tetris_search::comm::Solo)))
}

/// The exit code of process `rank`'s `result`, its error written first. The error goes out
/// whole (one write) before MPI ends: once the other processes have exited, mpirun ends the
/// job and may cut a later or piecemeal line.
fn answer(rank: usize, result: Result<(), CliError>) -> i32 {
    let Err(e) = result else {
        return 0;
    };
    if !e.message.is_empty() {
        let from = if rank == 0 {
            String::new()
        } else {
            format!("process {rank}: ")
        };
        let line = format!("error: {from}{}\n", e.message);
        let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
    }
    e.code
}

/// The size of the MPI job this process was started in, where a launcher (Open MPI, MPICH,
/// PMIx, Slurm) says it is more than one process.
pub(crate) fn launched_as_many() -> Option<usize> {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMI_SIZE",
        "PMIX_SIZE",
        "MPI_LOCALNRANKS",
    ]
    .iter()
    .filter_map(|name| std::env::var(name).ok()?.trim().parse::<usize>().ok())
    .find(|&size| size > 1)
}

/// This process's rank in the MPI job it was started in, as its launcher says (0 where none
/// does).
pub(crate) fn launched_rank() -> usize {
    ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"]
        .iter()
        .find_map(|name| std::env::var(name).ok()?.trim().parse::<usize>().ok())
        .unwrap_or(0)
}

/// `error`, met before MPI starts, as process `rank` of the job its launcher started reports
/// it: process 0 prints it, the others end with its exit code and no message (every process
/// reads the same command line and meets the same error).
pub(crate) fn once_per_job(error: CliError, rank: usize) -> CliError {
    match rank {
        0 => error,
        _ => CliError::reported(error.code),
    }
}

/// Refuses a run started as one of several processes of an MPI job without `--distributed`:
/// each process would run the whole search and print a record of its own into one output. The
/// error is process 0's alone; the others end with its exit code and no message.
pub(crate) fn refuse_undistributed_job() -> Result<(), CliError> {
    let Some(size) = launched_as_many() else {
        return Ok(());
    };
    if launched_rank() != 0 {
        return Err(CliError::reported(crate::EXIT_USAGE));
    }
    Err(CliError::usage(format!(
        "this process is one of {size} of an MPI job, but --distributed was not given: each \
         process would run the whole search and write its own record into one output (add \
         --distributed, with a binary built with `--features mpi`, or run one process; see \
         docs/SCALING.md)"
    )))
}

/// Whether every process got this far: its own error where it failed, and where another
/// did, that process's exit code with no message. The message is the lowest failing
/// process's, printed by it alone: a bad input is reported once, as process 0's.
pub(crate) fn agree<T>(comm: &dyn Comm, result: Result<T, CliError>) -> Result<T, CliError> {
    let code = result.as_ref().err().map_or(0, |e| e.code.max(1) as u64);
    let codes = gather_u64(comm, &[code]);
    match codes.iter().position(|c| c[0] != 0) {
        None => result,
        Some(first) if first == comm.rank() => result,
        Some(first) => Err(CliError {
            message: String::new(),
            code: codes[first][0] as i32,
        }),
    }
}

/// The summary's line on what crossed between the processes (this process's share), and the
/// thread support MPI provides where it runs them.
pub(crate) fn describe(traffic: &Traffic) -> String {
    let threads = traffic
        .thread_level
        .map(|level| format!(" (MPI provides {})", level.name()))
        .unwrap_or_default();
    format!(
        "processes: {}{threads}; this one sent {} children ({} bytes each), {:.1} MiB in all, spent \
         {:.2} s in exchanges and held at most {} states",
        traffic.processes,
        traffic.children,
        traffic.bytes_per_child,
        traffic.bytes as f64 / (1u64 << 20) as f64,
        traffic.seconds,
        traffic.most_states
    )
}
