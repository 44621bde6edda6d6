//! `polish`: searches a stretch of a finished record of the contest's game again (`tetris_opt::games::contest::cli`).

fn main() -> std::process::ExitCode {
    tetris_opt::games::contest::cli::polish_main(tetris_opt::games::ALL)
}
