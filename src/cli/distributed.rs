//! `solve --distributed`: the contest's search spread over the processes of an MPI job
//! (`mpirun -np 4 solve --distributed ...`, built with `--features mpi`), or, without MPI, run
//! as one process: the same record either way (see `crate::search::distributed`).

use crate::cli::CliError;
use crate::search::comm::gather_u64;
use crate::search::{Comm, Traffic};

/// Runs `run` as this process of the job and ends MPI: every process answers the same exit
/// code, the error printed once.
pub fn main(run: impl FnOnce(&dyn Comm) -> Result<(), CliError>) -> std::process::ExitCode {
    #[cfg(feature = "mpi")]
    let (universe, comm) = match crate::search::mpi::Mpi::start() {
        Some(started) => started,
        None => {
            let error = CliError::internal("MPI could not be started");
            return crate::cli::exit_code(Err(error));
        }
    };
    #[cfg(not(feature = "mpi"))]
    let comm = crate::search::comm::Solo;
    #[cfg(not(feature = "mpi"))]
    if let Some(size) = launched_as_many() {
        // Each process would run the whole search alone and print a record of its own.
        let error = CliError::usage(format!(
            "this process is one of {size} of an MPI job, but this binary was built without \
             MPI: build it with `cargo build --release --features mpi` (see docs/SCALING.md)"
        ));
        return crate::cli::exit_code(Err(error));
    }
    let rank = comm.rank();
    let result = run(&comm);
    // The error goes out whole (one write) before MPI ends: once the other processes have
    // exited, mpirun ends the job and may cut a later or piecemeal line.
    let code = match result {
        Ok(()) => 0,
        Err(e) => {
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
    };
    // MPI ends (MPI_Finalize) before the process exits.
    #[cfg(feature = "mpi")]
    drop((comm, universe));
    crate::cli::exit_status(code)
}

/// The size of the MPI job this process was started in, where a launcher (Open MPI, MPICH,
/// PMIx, Slurm) says it is more than one process.
pub fn launched_as_many() -> Option<usize> {
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

/// Whether every process got this far: its own error where it failed, and where another
/// did, that process's exit code with no message. The message is the lowest failing
/// process's, printed by it alone: a bad input is reported once, as process 0's.
pub fn agree<T>(comm: &dyn Comm, result: Result<T, CliError>) -> Result<T, CliError> {
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

/// The summary's line on what crossed between the processes (this process's share).
pub fn describe(traffic: &Traffic) -> String {
    format!(
        "processes: {}; this one sent {} children ({} bytes each), {:.1} MiB in all, spent \
         {:.2} s in exchanges and held at most {} states",
        traffic.processes,
        traffic.children,
        traffic.bytes_per_child,
        traffic.bytes as f64 / (1u64 << 20) as f64,
        traffic.seconds,
        traffic.most_states
    )
}
