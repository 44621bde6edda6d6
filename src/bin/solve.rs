//! `solve`: the command line of every game in the registry (`tetris_opt::games::ALL`).

fn main() -> std::process::ExitCode {
    tetris_opt::cli::drivers::solve_main(tetris_opt::games::ALL)
}
