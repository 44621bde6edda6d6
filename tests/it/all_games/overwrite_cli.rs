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

/// Runs `exe` with `args` and its standard output sent to the file `stdout` (emptied first, as a
/// shell's `>` does).
fn run_into_file(exe: &str, args: &[String], stdout: &Path) -> crate::common::Run {
    let file = std::fs::File::create(stdout).expect("create the output file");
    let output = std::process::Command::new(exe)
        .args(args)
        .current_dir(crate::common::manifest_dir())
        .stdin(std::process::Stdio::null())
        .stdout(file)
        .output()
        .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
    crate::common::Run {
        code: output.status.code(),
        stdout: String::new(),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// `solve ... --json r.out > r.out` (or `--json /dev/stdout`): the output file is the file
/// standard output goes to, and the one would destroy the other. It is refused before any work,
/// in one line naming the option, for every output option; the file stays as the shell left
/// it.
#[test]
fn no_binary_writes_a_file_over_its_own_standard_output() {
    let inputs = Inputs::new();
    let out = inputs.scratch.dir.join("r.out");
    let s = |p: &Path| p.display().to_string();
    let (contest, olympiad, browser, record) = (
        s(&inputs.contest),
        s(&inputs.olympiad),
        s(&inputs.browser),
        s(&inputs.record),
    );
    let small = ["--pieces", "5", "--beam-width", "2"].map(String::from);
    for target in [s(&out), "/dev/stdout".to_string()] {
        let mut solve = vec![contest.clone(), "--json".into(), target.clone()];
        solve.extend(small.clone());
        let mut olympiad_solve = vec!["--game".into(), "olympiad".into(), olympiad.clone()];
        olympiad_solve.extend(["--json".into(), target.clone()]);
        let cases: Vec<(&str, Vec<String>, &str)> = vec![
            ("solve", solve, "--json"),
            ("solve", olympiad_solve, "--json"),
            (
                "check",
                vec![
                    contest.clone(),
                    record.clone(),
                    "--html".into(),
                    target.clone(),
                ],
                "--html",
            ),
            (
                "play",
                vec![browser.clone(), "-o".into(), target.clone()],
                "-o",
            ),
        ];
        for (binary, args, option) in cases {
            let r = run_into_file(exe(binary), &args, &out);
            let case = format!("{binary} {option} {target}");
            r.assert_no_panic();
            assert_eq!(r.code, Some(2), "{case}: {r:#?}");
            let message = format!("{option} {target}: that is the file standard output goes to");
            assert!(r.stderr.contains(&message), "{case}: {r:#?}");
            assert_eq!(r.stderr.lines().count(), 1, "{case}: one line: {r:#?}");
            assert_eq!(std::fs::read(&out).unwrap(), b"", "{case}: wrote");
        }
    }
    // Another file beside the output goes through.
    let json = s(&inputs.scratch.dir.join("r.json"));
    let mut args = vec![contest, "--json".into(), json.clone()];
    args.extend(small);
    let r = run_into_file(exe("solve"), &args, &out);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(std::fs::read_to_string(&out).unwrap().starts_with('N'));
    assert!(std::fs::read_to_string(&json)
        .unwrap()
        .contains("\"score\""));
}
