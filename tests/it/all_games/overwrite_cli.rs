//! An output path that names one of the run's inputs (under any name) is refused before any
//! work, with one line naming which input, and the input is left as it was: `solve --json`,
//! `check --html`, `play -o`, `tune --log`, for every game that writes them.

use crate::common::{run, Scratch};
use std::path::{Path, PathBuf};

const CHECK: &str = env!("CARGO_BIN_EXE_check");

/// The first three pieces of the contest's public record: valid, no clear.
const OPENING: &str = "N,C1,L1,D18,N,R1,D19,L1,N,D18";

/// The binary a case runs.
fn exe(name: &str) -> &'static str {
    match name {
        "solve" => env!("CARGO_BIN_EXE_solve"),
        "play" => env!("CARGO_BIN_EXE_play"),
        "tune" => env!("CARGO_BIN_EXE_tune"),
        _ => CHECK,
    }
}

/// The inputs the cases read, in one scratch folder.
struct Inputs {
    scratch: Scratch,
    contest: PathBuf,
    olympiad: PathBuf,
    browser: PathBuf,
    record: PathBuf,
    weights: PathBuf,
    /// `contest` under another name: through the scratch folder's `.`.
    dotted: PathBuf,
}

impl Inputs {
    fn new() -> Inputs {
        let scratch = Scratch::new("overwrite");
        let contest = scratch.file("contest.txt", "ZIOSLJTZIOSLJT\n");
        let olympiad = scratch.file("olympiad.txt", "SOJLTSOJLT\n");
        let browser = scratch.file("browser.txt", "JZOILJZOIL\n");
        let record = scratch.file("record.txt", OPENING);
        let weights = scratch.file("weights.json", "{}\n");
        let dotted = contest.parent().unwrap().join(".").join("contest.txt");
        Inputs {
            scratch,
            contest,
            olympiad,
            browser,
            record,
            weights,
            dotted,
        }
    }
}

/// Each case: the binary, its arguments, the input its output names and what it calls that
/// input.
fn cases(inputs: &Inputs) -> Vec<(&'static str, Vec<String>, &Path, &'static str)> {
    let Inputs {
        scratch,
        contest,
        olympiad,
        browser,
        record,
        weights,
        dotted,
    } = inputs;
    let s = |p: &Path| p.display().to_string();
    vec![
        (
            "solve",
            vec![s(contest), "--json".into(), s(dotted)],
            contest,
            "sequence file",
        ),
        (
            "solve",
            vec![
                s(contest),
                "--weights".into(),
                s(weights),
                "--json".into(),
                s(weights),
            ],
            weights,
            "weights file",
        ),
        (
            "solve",
            vec![
                "--game".into(),
                "olympiad".into(),
                s(olympiad),
                "--json".into(),
                s(olympiad),
            ],
            olympiad,
            "sequence file",
        ),
        (
            "solve",
            vec![
                "--game".into(),
                "browser".into(),
                s(browser),
                "--json".into(),
                s(browser),
            ],
            browser,
            "sequence file",
        ),
        (
            "check",
            vec![s(contest), s(record), "--html".into(), s(contest)],
            contest,
            "sequence file",
        ),
        (
            "check",
            vec![s(contest), s(record), "--html".into(), s(record)],
            record,
            "record file",
        ),
        (
            "check",
            vec![
                "--game".into(),
                "olympiad".into(),
                s(olympiad),
                s(record),
                "--html".into(),
                s(olympiad),
            ],
            olympiad,
            "sequence file",
        ),
        (
            "play",
            vec![
                "--game".into(),
                "browser".into(),
                s(browser),
                "-o".into(),
                s(browser),
            ],
            browser,
            "sequence file",
        ),
        (
            "play",
            vec![
                "--game".into(),
                "browser".into(),
                s(browser),
                "--compare".into(),
                s(record),
                "-o".into(),
                s(record),
            ],
            record,
            "record file (--compare)",
        ),
        (
            "tune",
            vec![
                "--inputs".into(),
                s(contest),
                "--best-weights".into(),
                s(&scratch.dir.join("best.json")),
                "--log".into(),
                s(dotted),
            ],
            contest,
            "sequence file (--inputs)",
        ),
    ]
}

/// An output path that names one of the run's inputs (under any name) is refused before any
/// work, with one line naming which input, and the input is left as it was: `solve --json`,
/// `check --html`, `play -o`, `tune --log`, for every game that writes them.
#[test]
fn no_binary_writes_over_one_of_its_inputs() {
    let inputs = Inputs::new();
    for (binary, args, input, what) in cases(&inputs) {
        let before = std::fs::read(input).unwrap();
        let args: Vec<&dyn AsRef<std::ffi::OsStr>> = args.iter().map(|a| a as _).collect();
        let r = run(exe(binary), &args);
        let case = format!("{binary} {what}");
        r.assert_no_panic();
        assert_eq!(r.code, Some(2), "{case}: {r:#?}");
        let message = format!("that is the {what} this run reads");
        assert!(r.stderr.contains(&message), "{case}: {r:#?}");
        assert_eq!(r.stderr.lines().count(), 1, "{case}: one line: {r:#?}");
        assert_eq!(
            std::fs::read(input).unwrap(),
            before,
            "{case}: the input changed"
        );
    }
}
