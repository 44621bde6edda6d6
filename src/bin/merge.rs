//! `merge`: combines records of the contest's game (`tetris_opt::games::tencent::cli`).

fn main() -> std::process::ExitCode {
    tetris_opt::games::tencent::cli::merge_main(tetris_opt::games::ALL)
}
