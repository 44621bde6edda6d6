//! `solve`'s options refused before any search: bad widths, a beam that cannot fit in memory (and
//! the estimate it states), an unwritable summary, the removed search designs' options and a
//! memory variable that is no amount.

use super::{solve, SOLVE};
use crate::common::{tencent_input, Scratch};
use std::ffi::OsStr;

#[test]
fn bad_width_options_are_refused() {
    let input = tencent_input();
    let cases: [(&[&str], &str); 16] = [
        (&["--width-changes", ""], "no width change given"),
        (
            &["--pieces", "100", "--width-changes", "50:10,120:20"],
            "depth 120 is past the last of the 100 depths",
        ),
        (&["--beam-width", "100000001"], "above the widest beam"),
        (
            &["--beam-width", "18446744073709551615"],
            "above the widest beam",
        ),
        (
            &["--time-budget", "5m", "--max-beam-width", "1000000000000"],
            "--max-beam-width 1000000000000 is above",
        ),
        (&["--threads", "3000"], "--threads 3000 is more than"),
        (&["--piece-limit", "1"], "--piece-limit 1"),
        (&["--width-changes", "50:0"], "at least 1"),
        (&["--width-changes", "50:10,40:20"], "depths must increase"),
        (&["--width-changes", "50"], "DEPTH:WIDTH"),
        (&["--time-budget", "0"], "not a positive time"),
        (
            &["--time-budget", "5m", "--max-beam-width", "0"],
            "--max-beam-width",
        ),
        (
            &["--time-budget", "5", "--width-changes", "5:10"],
            "cannot be used",
        ),
        (
            &["--score-weight", "NaN"],
            "--score-weight must be a finite number",
        ),
        (
            &["--score-weight=-0.5"],
            "--score-weight must be from 0 to 1e6, not -0.5",
        ),
        (
            &["--score-weight", "1e39"],
            "--score-weight must be from 0 to 1e6",
        ),
    ];
    for (extra, needle) in cases {
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![&input];
        args.extend(extra.iter().map(|a| a as &dyn AsRef<OsStr>));
        let r = solve(&args);
        assert_eq!(r.code, Some(2), "{extra:?}: {r:#?}");
        assert!(r.stdout.is_empty(), "no record on failure: {r:#?}");
        assert!(r.stderr.contains(needle), "{needle}: {r:#?}");
    }
}

/// The memory check runs before any work, with the estimate and the memory it counted on; a
/// user who knows better forces the search. `TETRIS_OPT_MEMORY` stands in for the machine's
/// memory, so the test does not depend on the machine it runs on.
#[test]
fn a_beam_that_cannot_fit_in_memory_is_refused_before_the_search() {
    let input = tencent_input();
    let with_memory = |extra: &[&str]| {
        let output = std::process::Command::new(SOLVE)
            .arg(&input)
            .args(["--pieces", "2", "--beam-width", "1000000", "--quiet"])
            .args(extra)
            .env("TETRIS_OPT_MEMORY", "512M")
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stderr).unwrap(),
            output.stdout,
        )
    };
    let (code, stderr, stdout) = with_memory(&[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("a beam of 1000000 states needs about 771 MiB")
            && stderr.contains("more than this machine's 512 MiB")
            && stderr.contains("--force"),
        "{stderr}"
    );
    let (code, stderr, stdout) = with_memory(&["--force"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.is_empty());
}

/// Under `--time-budget` the widest beam is `--max-beam-width` (1,000,000 unless given), not
/// the width asked for: the refusal names the option to lower.
#[test]
fn a_time_budget_whose_cap_cannot_fit_in_memory_names_the_cap() {
    let with_memory = |extra: &[&str]| {
        let output = std::process::Command::new(SOLVE)
            .arg(tencent_input())
            .args([
                "--pieces",
                "2",
                "--beam-width",
                "100",
                "--time-budget",
                "10m",
            ])
            .args(["--quiet"])
            .args(extra)
            .env("TETRIS_OPT_MEMORY", "512M")
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        (output.status.code(), stderr)
    };
    let (code, stderr) = with_memory(&[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: --max-beam-width (the widest beam --time-budget may choose")
            && stderr.contains("a beam of 1000000 states needs about 771 MiB")
            && stderr.contains("use a smaller --max-beam-width, or --force"),
        "{stderr}"
    );
    let (code, stderr) = with_memory(&["--max-beam-width", "10000"]);
    assert_eq!(code, Some(0), "{stderr}");
}

/// The fill plan's table (4 bytes per piece and cell count) and the summary's bound play (a
/// byte per piece and cell count) count in the memory check: the 2,000,000 pieces of a file
/// with no piece limit need some 1.7 GiB for them whatever the width,
/// and are refused on a machine of 1 GiB, where the same file under the contest's limit (a
/// table of 9,999 pieces) runs.
#[test]
fn a_long_game_is_refused_when_its_tables_cannot_fit_in_memory() {
    let scratch = Scratch::new("long-tables");
    let generated = crate::common::run(super::GEN, &[&"--seed", &"1", &"--count", &"2000000"]);
    assert_eq!(generated.code, Some(0), "{generated:#?}");
    let input = scratch.file("long.txt", &generated.stdout);
    let with_memory = |extra: &[&str]| {
        let output = std::process::Command::new(SOLVE)
            .arg(&input)
            .args(["--beam-width", "10"])
            .args(extra)
            .env("TETRIS_OPT_MEMORY", "1G")
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(!stderr.contains("panicked"), "{stderr}");
        (output.status.code(), stderr, output.stdout)
    };
    let (code, stderr, stdout) = with_memory(&["--piece-limit", "0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains(
            "a beam of 10 states needs about 1.7 GiB of memory (1730 MiB of it for the input"
        ) && stderr.contains("more than this machine's 1.0 GiB")
            && stderr.contains("fewer pieces"),
        "{stderr}"
    );
    let (code, stderr, stdout) = with_memory(&[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.is_empty());
    assert!(
        stderr.starts_with("expected peak memory: about ")
            && stderr.contains("MiB for a beam of 10 states (12 MiB of it for the input"),
        "{stderr}"
    );
}

/// A machine's memory under 1 GiB is stated in MiB: `0.0 GiB` would say nothing.
#[test]
fn memory_under_a_gibibyte_is_stated_in_mebibytes() {
    let output = std::process::Command::new(SOLVE)
        .arg(tencent_input())
        .args(["--pieces", "2", "--beam-width", "1000"])
        .env("TETRIS_OPT_MEMORY", "50M")
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("expected peak memory: about ")
            && first.ends_with(" states of this machine's 50 MiB"),
        "{stderr}"
    );
}

/// Before searching, `solve` says how much memory it expects the beam to take, beside the
/// machine's, so that a user can pick a width by memory.
#[test]
fn solve_states_the_memory_it_expects_before_the_search() {
    let input = tencent_input();
    let output = std::process::Command::new(SOLVE)
        .arg(&input)
        .args(["--pieces", "2", "--beam-width", "100000"])
        .env("TETRIS_OPT_MEMORY", "24G")
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "expected peak memory: about 84 MiB for a beam of 100000 states of this machine's \
         24.0 GiB",
        "{stderr}"
    );
}

/// `--json` to a place that cannot be written fails at once, not after the search.
#[test]
fn an_unwritable_summary_path_fails_before_the_search() {
    let scratch = Scratch::new("json");
    let input = tencent_input();
    let path = scratch.dir.join("no-such-dir").join("run.json");
    let r = solve(&[&input, &"--json", &path]);
    assert_eq!(r.code, Some(2), "{r:#?}");
    assert!(r.stdout.is_empty(), "{r:#?}");
    assert!(
        r.stderr.contains("--json") && r.stderr.contains("cannot write"),
        "{r:#?}"
    );
    // Nothing was searched: no progress, no summary.
    assert_eq!(r.stderr.lines().count(), 1, "{r:#?}");
}

/// The search designs that lost at equal compute are gone: their options and policy fields
/// are refused, not ignored.
#[test]
fn options_of_removed_search_designs_are_refused() {
    let scratch = Scratch::new("removed-designs");
    let input = tencent_input();
    let policy = scratch.file("policy.json", "{\"fill_keep\": 3}");
    let cases: Vec<(Vec<&dyn AsRef<OsStr>>, &str)> = vec![
        (vec![&"--value-net", &"net.json"], "--value-net"),
        (vec![&"--fill-keep", &"3"], "--fill-keep"),
        (vec![&"--policy", &policy], "unknown field `fill_keep`"),
    ];
    for (extra, needle) in cases {
        let args = [&[&input as &dyn AsRef<OsStr>][..], &extra[..]].concat();
        let r = solve(&args);
        assert_eq!(r.code, Some(2), "{r:#?}");
        assert!(r.stdout.is_empty(), "no record on failure: {r:#?}");
        assert!(r.stderr.contains(needle), "{needle}: {r:#?}");
    }
}

/// A memory variable that is no amount is refused with one line naming it, even with
/// `--force`, before any work; an amount is taken.
#[test]
fn a_memory_variable_that_is_no_amount_is_refused() {
    let input = tencent_input();
    for (value, refused) in [
        ("abc", true),
        ("99999999999999999999T", true),
        // No unit: bytes, too few for any machine (a unit left out).
        ("100", true),
        ("0", true),
        ("1K", true),
        ("", true),
        ("16G", false),
        (" 512M ", false),
    ] {
        for force in [false, true] {
            let mut command = std::process::Command::new(SOLVE);
            command
                .arg(&input)
                .args(["--pieces", "3", "--beam-width", "3", "--quiet"])
                .env("TETRIS_OPT_MEMORY", value);
            if force {
                command.arg("--force");
            }
            let out = command.output().expect("solve runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let case = format!("TETRIS_OPT_MEMORY={value:?}, --force {force}");
            if refused {
                assert_eq!(out.status.code(), Some(2), "{case}: {stderr}");
                assert!(out.stdout.is_empty(), "{case}");
                assert_eq!(stderr.lines().count(), 1, "{case}: {stderr}");
                assert!(
                    stderr.starts_with("error: TETRIS_OPT_MEMORY=") && stderr.contains(value),
                    "{case}: {stderr}"
                );
            } else {
                assert_eq!(out.status.code(), Some(0), "{case}: {stderr}");
            }
        }
    }
}
