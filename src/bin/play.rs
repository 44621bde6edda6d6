//! `play`: the command line of every game in the registry (`tetris_opt::games::ALL`).

fn main() -> std::process::ExitCode {
    tetris_opt::cli::drivers::play_main(tetris_opt::games::ALL)
}
