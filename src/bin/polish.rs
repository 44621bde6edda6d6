//! `polish`: searches a stretch of a finished record of the contest's game again (`tetris_opt::games::tencent::cli`).

fn main() -> std::process::ExitCode {
    tetris_opt::games::tencent::cli::polish_main(tetris_opt::games::ALL)
}
