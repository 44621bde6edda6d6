//! `solve` run as a user runs it: its record is accepted by `check` with exactly the score it
//! reports, it depends neither on the thread count nor on `--distributed`, bad input and bad
//! options get a one-line error before any search, and the line it answers with is the one
//! asked for (`--pieces N`, surviving, an interrupted run).

mod answers;
mod options;
mod records;

use crate::common::{run, Run};
use std::ffi::OsStr;

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");
const GEN: &str = env!("CARGO_BIN_EXE_gen");

fn solve(args: &[&dyn AsRef<OsStr>]) -> Run {
    let r = run(SOLVE, args);
    r.assert_no_panic();
    r
}

fn check_score(input: &dyn AsRef<OsStr>, record: &dyn AsRef<OsStr>, extra: &[&str]) -> u64 {
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![input, record];
    for e in extra {
        args.push(e);
    }
    let r = run(CHECK, &args);
    assert_eq!(r.code, Some(0), "{r:#?}");
    r.last_line()
        .strip_prefix("Score = ")
        .and_then(|s| s.parse().ok())
        .expect("check prints a score")
}
