//! `merge` run as a user runs it: the merged record checks with the score it reports, never
//! below the best record given, and bad records get a one-line error.

use crate::common::{run, tencent_input, Run, Scratch};
use std::ffi::OsStr;

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");
const MERGE: &str = env!("CARGO_BIN_EXE_merge");

fn merge(args: &[&dyn AsRef<OsStr>]) -> Run {
    let r = run(MERGE, args);
    r.assert_no_panic();
    r
}

#[test]
fn merged_records_check_and_score_at_least_the_best_of_them() {
    let scratch = Scratch::new("merge");
    let input = tencent_input();
    let mut paths = Vec::new();
    let mut scores = Vec::new();
    for (width, weight) in [("40", "0.024"), ("60", "0.03"), ("30", "0.018")] {
        let r = run(
            SOLVE,
            &[
                &input,
                &"--pieces",
                &"400",
                &"--beam-width",
                &width,
                &"--score-weight",
                &weight,
            ],
        );
        assert_eq!(r.code, Some(0), "{r:#?}");
        scores.push(r.solve_score());
        paths.push(scratch.file(&format!("{width}.txt"), &r.stdout));
    }
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![&input];
    args.extend(paths.iter().map(|p| p as &dyn AsRef<OsStr>));
    let merged = merge(&args);
    assert_eq!(merged.code, Some(0), "{merged:#?}");
    let score = merged.solve_score();
    assert!(
        score >= *scores.iter().max().unwrap(),
        "{scores:?} -> {score}"
    );
    // The summary says whether the merge beat its best input.
    let best = scores.iter().max().unwrap();
    let which = &paths[scores.iter().position(|s| s == best).unwrap()];
    let line = format!(
        "best input: {best} ({}); merged: {score}, +{}",
        which.display(),
        score - best
    );
    assert!(
        merged.stderr.lines().any(|l| l == line),
        "{line:?}: {merged:#?}"
    );
    let out = scratch.file("merged.txt", &merged.stdout);
    let checked = run(CHECK, &[&input, &out]);
    assert_eq!(checked.code, Some(0), "{checked:#?}");
    assert_eq!(checked.last_line(), format!("Score = {score}"));
}

#[test]
fn records_that_cannot_be_merged_get_a_one_line_error() {
    let scratch = Scratch::new("merge-bad");
    let input = tencent_input();
    let good = scratch.file("good.txt", "N,D19");
    let mid_air = scratch.file("mid-air.txt", "N,D19,N,D3");
    let no_moves = scratch.file("no-moves.txt", "N,D19,N");
    let garbage = scratch.file("garbage.txt", "N,X9");
    let missing = scratch.dir.join("missing.txt");
    let first_mid_air = scratch.file("first-mid-air.txt", "N,D3");
    let cases: Vec<(Vec<&dyn AsRef<OsStr>>, i32, &str)> = vec![
        (vec![&input, &good, &no_moves], 1, "no moves"),
        (
            vec![&input, &first_mid_air, &first_mid_air],
            1,
            "first-mid-air.txt: piece 1 locks in mid-air, among its first pieces",
        ),
        (
            vec![&input, &good, &"--piece-limit", &"1"],
            2,
            "--piece-limit 1",
        ),
        (vec![&input, &garbage], 1, "garbage.txt"),
        (vec![&input, &missing], 2, "missing.txt"),
        (vec![&input], 2, "required"),
    ];
    for (args, code, needle) in cases {
        let r = merge(&args);
        assert_eq!(r.code, Some(code), "{r:#?}");
        assert!(r.stderr.contains(needle), "{needle}: {r:#?}");
        assert!(r.stdout.is_empty(), "{r:#?}");
    }
    // A mid-air lock is fine by the web replay's rules, but among a record's first pieces it
    // is worth a warning; a strict merge uses the pieces before it, and says so.
    let r = merge(&[&input, &good, &mid_air, &"--judge"]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(
        r.stderr
            .contains("mid-air.txt: piece 2 locks in mid-air, among its first pieces: is it"),
        "{r:#?}"
    );
    let solved = run(SOLVE, &[&input, &"--pieces", &"60", &"--beam-width", &"8"]);
    assert_eq!(solved.code, Some(0), "{solved:#?}");
    assert!(solved.solve_score() > 0, "{solved:#?}");
    let before = solved.stdout.trim();
    let then_mid_air = scratch.file("then-mid-air.txt", format!("{before},N,D1"));
    let r = merge(&[&input, &then_mid_air]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(r.stdout.trim(), before, "{r:#?}");
    assert_eq!(r.solve_score(), solved.solve_score(), "{r:#?}");
    let hung = before.split(',').filter(|t| *t == "N").count() + 1;
    let note = format!("then-mid-air.txt: piece {hung} locks in mid-air, which strict rules");
    assert!(r.stderr.contains(&note), "{note}: {r:#?}");
    // A record whose first pieces lock in mid-air is of another sequence: refused, named.
    let other = scratch.file("other.txt", "N,D19,N,D3");
    let r = merge(&[&input, &good, &other]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(r.stdout.is_empty(), "{r:#?}");
    assert!(
        r.stderr
            .contains("other.txt: piece 2 locks in mid-air, among its first pieces: is")
            && r.stderr.contains("the sequence it was made for?"),
        "{r:#?}"
    );
}

/// A record merged alone comes back whole, its pieces after its last points included; one
/// solved on another sequence is refused, named, instead of being left out without a word.
#[test]
fn a_lone_record_comes_back_whole_and_one_of_another_sequence_is_refused() {
    let scratch = Scratch::new("merge-whole");
    let input = tencent_input();
    let solve = |sequence: &dyn AsRef<OsStr>| {
        let r = run(
            SOLVE,
            &[sequence, &"--pieces", &"300", &"--beam-width", &"20"],
        );
        assert_eq!(r.code, Some(0), "{r:#?}");
        r.stdout
    };
    let record = solve(&input);
    let path = scratch.file("tencent-300.txt", &record);
    let r = merge(&[&input, &path]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(r.stdout, record, "the record whole");
    assert!(
        r.stderr.lines().any(|l| l.starts_with("pieces 1-300: ")),
        "{r:#?}"
    );
    let generated = run(
        env!("CARGO_BIN_EXE_gen"),
        &[&"--seed", &"7", &"--count", &"300"],
    );
    let seven = scratch.file("seed-7.txt", &generated.stdout);
    let other = scratch.file("seed-7-record.txt", solve(&seven));
    let r = merge(&[&input, &path, &other]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(r.stdout.is_empty(), "{r:#?}");
    assert!(
        r.stderr.contains("seed-7-record.txt: piece ")
            && r.stderr.contains("the sequence it was made for?"),
        "{r:#?}"
    );
}
