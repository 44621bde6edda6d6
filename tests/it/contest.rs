//! The contest's game (`games::contest`): its plain engine (`rules`, `replay`, the record text
//! in `record`), its fast engine held to the plain one (`fast_engine`), the search end to end
//! (`search`), and the binaries that play it run as a user runs them: `check`, `solve`,
//! `merge`, `polish`, `tune`, `--weights`, and the replay viewer `check --html` writes with its
//! fill chart.

mod check_cli;
mod fast_engine;
mod fill_chart;
mod merge_cli;
mod polish_cli;
mod record;
mod replay;
mod rules;
mod search;
mod solve_cli;
mod tune_cli;
mod viewer;
mod weights_cli;
