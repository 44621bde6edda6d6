//! `-` on a command line, as a user types it: an input read from standard input once at most,
//! an output on standard output where nothing else is printed there, and refused (never a file
//! named `-`) where standard output already carries the record or the report.

use crate::common::{manifest_dir, public_record_path, tencent_input, Scratch};
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const CHECK: &str = env!("CARGO_BIN_EXE_check");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const PLAY: &str = env!("CARGO_BIN_EXE_play");
const MERGE: &str = env!("CARGO_BIN_EXE_merge");
const POLISH: &str = env!("CARGO_BIN_EXE_polish");

/// Runs `exe` in `dir` (where a file named `-` would land) with nothing on standard input.
fn run_in(dir: &Path, exe: &str, args: &[&dyn AsRef<OsStr>]) -> Output {
    Command::new(exe)
        .args(args.iter().map(|a| a.as_ref()))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"))
}

/// The run was refused at once: exit 2, nothing on stdout, one line on stderr holding
/// `message`, and no file named `-` written.
fn assert_refused(dir: &Path, output: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(message), "{message:?} in {stderr}");
    assert!(!dir.join("-").exists(), "a file named `-` was written");
}

/// Where standard output carries the record (`solve`) or the report (`check`), an output
/// file given as `-` is refused before any work, saying what stdout carries, for every game.
#[test]
fn an_output_file_given_as_dash_is_refused_where_stdout_carries_the_output() {
    let scratch = Scratch::new("dash-outputs");
    let dir = &scratch.dir;
    let input = tencent_input();
    let record = public_record_path();
    let nes = manifest_dir().join("tests/fixtures/nes/solver-level19-wait9.txt");
    let carried = "standard output carries";
    let cases: Vec<(&str, Vec<&dyn AsRef<OsStr>>, String)> = vec![
        (
            CHECK,
            vec![&input, &record, &"--html", &"-"],
            format!("--html -: {carried} the report; give --html a file name"),
        ),
        (
            CHECK,
            vec![&"--game", &"olympiad", &input, &record, &"--html", &"-"],
            format!("--html -: {carried} the report"),
        ),
        (
            CHECK,
            vec![&"--game", &"nes", &nes, &"--fm2", &"-"],
            format!("--fm2 -: {carried} the report"),
        ),
        (
            CHECK,
            vec![&"--game", &"nes", &nes, &"--html", &"-"],
            format!("--html -: {carried} the report"),
        ),
        (
            SOLVE,
            vec![&input, &"--pieces", &"3", &"--json", &"-"],
            format!("--json -: {carried} solve's own output; give --json a file name"),
        ),
        (
            SOLVE,
            vec![
                &"--game",
                &"browser",
                &input,
                &"--pieces",
                &"3",
                &"--json",
                &"-",
            ],
            format!("--json -: {carried} solve's own output"),
        ),
        (
            SOLVE,
            vec![&"--game", &"nes", &"--pieces", &"3", &"--json", &"-"],
            format!("--json -: {carried} solve's own output"),
        ),
    ];
    for (exe, args, message) in cases {
        assert_refused(dir, &run_in(dir, exe, &args), &message);
    }
}

/// `play -o -` writes the page to standard output, as `play` without `-o` does.
#[test]
fn play_o_dash_writes_the_page_to_standard_output() {
    let scratch = Scratch::new("dash-play");
    let sequence = scratch.file("browser.txt", "IJLOSTZIJLOSTZ\n");
    let plain = run_in(&scratch.dir, PLAY, &[&sequence]);
    let dash = run_in(&scratch.dir, PLAY, &[&sequence, &"-o", &"-"]);
    assert_eq!(dash.status.code(), Some(0), "{dash:#?}");
    assert!(dash.stdout.starts_with(b"<!DOCTYPE html>"));
    assert_eq!(dash.stdout, plain.stdout);
    assert!(
        !scratch.dir.join("-").exists(),
        "a file named `-` was written"
    );
}

/// Standard input can be read once: two inputs given as `-` (`check - -`, which read the
/// whole of stdin as the sequence and then reported the record as empty) are refused,
/// naming them.
#[test]
fn two_inputs_given_as_dash_are_refused_naming_them() {
    let scratch = Scratch::new("dash-inputs");
    let dir = &scratch.dir;
    let input = tencent_input();
    let both = "`-` (standard input) is given as the sequence file and the record file, but it \
                can be read only once: give one of them as a file";
    let cases: Vec<(&str, Vec<&dyn AsRef<OsStr>>, &str)> = vec![
        (CHECK, vec![&"-", &"-"], both),
        (CHECK, vec![&"--game", &"olympiad", &"-", &"-"], both),
        (CHECK, vec![&"--game", &"browser", &"-", &"-"], both),
        (POLISH, vec![&"-", &"-"], both),
        (
            POLISH,
            vec![&input, &"-", &"--weights", &"-"],
            "given as the record file and the weights file",
        ),
        (
            MERGE,
            vec![&input, &"-", &"-"],
            "`-` (standard input) is given 2 times as the record file",
        ),
    ];
    for (exe, args, message) in cases {
        assert_refused(dir, &run_in(dir, exe, &args), message);
    }
}

/// NES `check --fm2 X --html X` would write the movie, then the page over it: two outputs
/// that name one file (under any spelling) are refused before any work.
#[test]
fn two_outputs_naming_one_file_are_refused_before_any_work() {
    let scratch = Scratch::new("dash-same-output");
    let nes = manifest_dir().join("tests/fixtures/nes/solver-level19-wait9.txt");
    let out = scratch.dir.join("out");
    let also = scratch.dir.join(".").join("out");
    let output = run_in(
        &scratch.dir,
        CHECK,
        &[&"--game", &"nes", &nes, &"--fm2", &out, &"--html", &also],
    );
    let message = format!(
        "--fm2 {} and --html {} name the same file: the one would replace the other",
        out.display(),
        also.display()
    );
    assert_refused(&scratch.dir, &output, &message);
    assert!(!out.exists(), "nothing is written");
}
