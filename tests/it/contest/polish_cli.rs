//! `polish` run as a user runs it: the polished record checks with the score it reports, never
//! below the record it started from, and bad stretches or records get a one-line error.

use crate::common::{run, tencent_input, Run, Scratch};
use std::ffi::OsStr;

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");
const POLISH: &str = env!("CARGO_BIN_EXE_polish");

fn polish(args: &[&dyn AsRef<OsStr>]) -> Run {
    let r = run(POLISH, args);
    r.assert_no_panic();
    r
}

#[test]
fn a_polished_record_checks_and_scores_at_least_the_record() {
    let scratch = Scratch::new("polish");
    let input = tencent_input();
    let solved = run(
        SOLVE,
        &[&input, &"--pieces", &"300", &"--beam-width", &"40"],
    );
    assert_eq!(solved.code, Some(0), "{solved:#?}");
    let record = scratch.file("narrow.txt", &solved.stdout);
    let r = polish(&[
        &input,
        &record,
        &"--from",
        &"50",
        &"--to",
        &"250",
        &"--beam-width",
        &"300",
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let score = r.solve_score();
    assert!(score >= solved.solve_score(), "{r:#?}");
    assert!(r.stderr.contains("pieces 51-250 searched again"), "{r:#?}");
    // The first 50 pieces are the record's own.
    let head = |text: &str| text.split(",N").take(50).collect::<Vec<_>>().join(",N");
    assert_eq!(head(&r.stdout), head(&solved.stdout));
    // To the record's end, where the beam's best line may win: the same on one thread as on two.
    let to_end = |threads: &str| {
        let args: [&dyn AsRef<OsStr>; 8] = [
            &input,
            &record,
            &"--from",
            &"50",
            &"--beam-width",
            &"300",
            &"--threads",
            &threads.to_string(),
        ];
        polish(&args)
    };
    let (one, two) = (to_end("1"), to_end("2"));
    assert_eq!(one.code, Some(0), "{one:#?}");
    assert!(one.stderr.contains("to the record's end"), "{one:#?}");
    assert_eq!(one.stdout, two.stdout);
    assert!(one.solve_score() >= solved.solve_score(), "{one:#?}");
    let out = scratch.file("polished.txt", &r.stdout);
    let checked = run(CHECK, &[&input, &out]);
    assert_eq!(checked.code, Some(0), "{checked:#?}");
    assert_eq!(checked.last_line(), format!("Score = {score}"));
}

#[test]
fn bad_stretches_and_records_get_a_one_line_error() {
    let scratch = Scratch::new("polish-bad");
    let input = tencent_input();
    let good = scratch.file("good.txt", "N,D19,N,D19");
    let mid_air = scratch.file("mid-air.txt", "N,D19,N,D3");
    let garbage = scratch.file("garbage.txt", "N,X9");
    let missing = scratch.dir.join("missing.txt");
    let cases: Vec<(Vec<&dyn AsRef<OsStr>>, i32, &str)> = vec![
        (vec![&input, &mid_air], 1, "mid-air"),
        (vec![&input, &garbage], 1, "garbage.txt"),
        (vec![&input, &missing], 2, "missing.txt"),
        (vec![&input, &good, &"--from", &"2"], 2, "--from/--to"),
        (vec![&input, &good, &"--to", &"3"], 2, "--from/--to"),
        (
            vec![&input, &good, &"--beam-width", &"0"],
            2,
            "--beam-width",
        ),
        (
            vec![&input, &good, &"--beam-width", &"18446744073709551615"],
            2,
            "above the widest beam",
        ),
        (
            vec![&input, &good, &"--beam-width", &"1000000000000"],
            2,
            "above the widest beam",
        ),
        (vec![&input, &good, &"--threads", &"3000"], 2, "--threads"),
        (
            vec![&input, &good, &"--piece-limit", &"1"],
            2,
            "--piece-limit 1",
        ),
        (vec![&input], 2, "required"),
    ];
    for (args, code, needle) in cases {
        let r = polish(&args);
        assert_eq!(r.code, Some(code), "{r:#?}");
        assert!(r.stderr.contains(needle), "{needle}: {r:#?}");
        assert!(r.stdout.is_empty(), "{r:#?}");
    }
    let r = polish(&[&input, &good, &"--beam-width", &"50"]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let r = polish(&[&input, &mid_air, &"--judge", &"--quiet"]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(r.stderr.is_empty(), "{r:#?}");
}

/// `--from 500 --to 400` blamed the record's length; the range itself is reversed, whatever
/// the record.
#[test]
fn a_reversed_or_empty_range_is_named_as_such() {
    let scratch = Scratch::new("polish-range");
    let input = tencent_input();
    let good = scratch.file("good.txt", "N,D19,N,D19");
    for (from, to, word) in [("500", "400", "reversed"), ("1", "1", "empty")] {
        let r = polish(&[&input, &good, &"--from", &from, &"--to", &to]);
        assert_eq!(r.code, Some(2), "{r:#?}");
        assert_eq!(
            r.stderr,
            format!(
                "error: --from/--to: --to {to} is not above --from {from}: the range is {word}; the pieces searched are FROM+1..=TO\n"
            )
        );
    }
}

/// The binaries of the contest's game alone list only it under `--game` and speak of no other
/// game's defaults, refuse another game's name saying where it is played, and a name that is
/// no game's (`TENCENT`) as `solve` does.
#[test]
fn contest_only_binaries_offer_only_the_contests_game() {
    let scratch = Scratch::new("contest-only");
    let (log, best) = (scratch.dir.join("log.jsonl"), scratch.dir.join("best.json"));
    let files: [&dyn AsRef<OsStr>; 2] = [&"in.txt", &"r.txt"];
    let tune_files: [&dyn AsRef<OsStr>; 4] = [&"--log", &log, &"--best-weights", &best];
    for (exe, files) in [
        (env!("CARGO_BIN_EXE_merge"), &files[..]),
        (POLISH, &files[..]),
        (env!("CARGO_BIN_EXE_tune"), &tune_files[..]),
    ] {
        let help = run(exe, &[&"--help"]);
        assert_eq!(help.code, Some(0), "{help:#?}");
        let game = help.stdout.split("--game").nth(1).expect("a --game option");
        let game = game.split("\n      --").next().unwrap_or(game);
        assert!(
            game.contains("the only one this binary plays"),
            "{exe}: {game}"
        );
        for other in ["nes", "browser", "olympiad"] {
            assert!(!game.contains(other), "{exe} offers {other}: {game}");
        }
        for other in ["olympiad", "browser", "NES"] {
            assert!(
                !help.stdout.contains(other),
                "{exe} speaks of {other}: {help:#?}"
            );
        }
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &"TENCENT"];
        args.extend_from_slice(files);
        let unknown = run(exe, &args);
        let solve = run(
            env!("CARGO_BIN_EXE_solve"),
            &[&"--game", &"TENCENT", &"in.txt"],
        );
        assert_eq!(unknown.code, Some(2), "{unknown:#?}");
        let first = |r: &Run| r.stderr.lines().take(2).collect::<Vec<_>>().join("\n");
        assert_eq!(first(&unknown), first(&solve), "{exe}");
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &"nes"];
        args.extend_from_slice(files);
        let refused = run(exe, &args);
        assert_eq!(refused.code, Some(2), "{refused:#?}");
        assert!(
            refused
                .stderr
                .contains("is played by `solve`, `check` and `gen` with `--game nes`"),
            "{refused:#?}"
        );
    }
}

/// The README says `polish` takes `solve`'s search options: its help lists the deadline, the
/// width schedule, `--json` and `--progress-every`; `--time-budget` chooses the widths, which
/// `--width-changes` replays to the same record; `--json` says what the run did; and
/// `--pieces`, which a stretch of a record replaces, is refused naming `--to`.
#[test]
fn polish_takes_solves_search_options() {
    let scratch = Scratch::new("polish-options");
    let input = tencent_input();
    let help = polish(&[&"--help"]);
    assert_eq!(help.code, Some(0), "{help:#?}");
    for option in [
        "--beam-width",
        "--time-budget",
        "--max-beam-width",
        "--width-changes",
        "--objective",
        "--threads",
        "--force",
        "--json",
        "--quiet",
        "--progress-every",
    ] {
        assert!(listed(&help.stdout, option), "{option}: {}", help.stdout);
    }
    assert!(!listed(&help.stdout, "--pieces"), "{}", help.stdout);
    let solved = run(
        SOLVE,
        &[&input, &"--pieces", &"300", &"--beam-width", &"40"],
    );
    assert_eq!(solved.code, Some(0), "{solved:#?}");
    let record = scratch.file("narrow.txt", &solved.stdout);

    let refused = polish(&[&input, &record, &"--pieces", &"200"]);
    assert_eq!(refused.code, Some(2), "{refused:#?}");
    assert!(refused.stdout.is_empty());
    assert!(
        refused.stderr.contains("takes no --pieces") && refused.stderr.contains("`--to 200`"),
        "{refused:#?}"
    );

    let json = scratch.dir.join("polish.json");
    let stretch: [&dyn AsRef<OsStr>; 6] = [&input, &record, &"--from", &"50", &"--to", &"250"];
    let mut args = stretch.to_vec();
    args.extend([
        &"--time-budget" as &dyn AsRef<OsStr>,
        &"2s",
        &"--json",
        &json,
    ]);
    let budgeted = polish(&args);
    assert_eq!(budgeted.code, Some(0), "{budgeted:#?}");
    assert!(
        budgeted.stderr.contains("time budget 2.0 s: "),
        "{budgeted:#?}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["score"], budgeted.solve_score());
    assert_eq!(summary["time_budget_seconds"], 2.0);
    assert_eq!(
        (summary["from"].as_u64(), summary["to"].as_u64()),
        (Some(50), Some(250))
    );
    assert!(summary["deadline"]["met"].is_boolean(), "{summary:#}");
    let changes = summary["width_changes"].as_str().unwrap().to_string();
    let mut args = stretch.to_vec();
    args.push(&"--beam-width");
    args.push(&"20000");
    if !changes.is_empty() {
        assert!(budgeted.stderr.contains(&changes), "{budgeted:#?}");
        args.push(&"--width-changes");
        args.push(&changes);
    }
    let replayed = polish(&args);
    assert_eq!(replayed.code, Some(0), "{replayed:#?}");
    assert_eq!(
        replayed.stdout, budgeted.stdout,
        "the schedule replays the record"
    );
}

/// Whether `help` lists `option` as one of its options (a line of its own that starts with it).
fn listed(help: &str, option: &str) -> bool {
    help.lines()
        .any(|l| l.trim_start().split([' ', '=']).next() == Some(option))
}
