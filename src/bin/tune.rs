//! `tune`: tunes the contest's search over a set of sequences (`tetris_opt::games::contest::cli`).

fn main() -> std::process::ExitCode {
    tetris_opt::games::contest::cli::tune_main(tetris_opt::games::ALL)
}
