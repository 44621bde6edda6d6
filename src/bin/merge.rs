//! `merge`: combines records of the contest's game (`tetris_opt::games::contest::cli`).

fn main() -> std::process::ExitCode {
    tetris_opt::games::contest::cli::merge_main(tetris_opt::games::ALL)
}
