//! Output read only in part (`check ... | head`): when the reader closes the pipe, a binary
//! stops quietly with exit 0, as common command-line tools do: no error line, no panic; `check`
//! of an invalid record still exits 1. A standard output that is closed from the start
//! (`solve ... >&-`) is refused before any work: the record would be lost.

use crate::common::{manifest_dir, public_record, public_record_path, tencent_input, Run, Scratch};
use std::ffi::OsStr;
use std::io::Read;
use std::process::{Command, Stdio};

/// Runs `exe` with `args` writing to a pipe whose reading end `read` bytes were taken from and
/// then closed; returns the exit code and stderr. With nothing to read, the pipe is closed
/// before the binary starts, since a small output would fit in the pipe before a later close.
fn run_into_closed_pipe(
    exe: &str,
    args: &[&dyn AsRef<OsStr>],
    read: usize,
) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    let reader = (read > 0).then_some(reader);
    let child = Command::new(exe)
        .args(args.iter().map(|a| a.as_ref()))
        .current_dir(manifest_dir())
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
    if let Some(mut reader) = reader {
        let mut head = vec![0; read];
        reader.read_exact(&mut head).expect("the first bytes");
    }
    let output = child.wait_with_output().expect("the binary ends");
    (
        output.status.code(),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

fn assert_quiet(exe: &str, (code, stderr): (Option<i32>, String)) {
    assert!(!stderr.contains("panicked"), "{exe} panicked: {stderr}");
    assert_eq!(stderr, "", "{exe} said something");
    assert_eq!(code, Some(0), "{exe}: {stderr}");
}

/// The whole trace of the public record is megabytes; the reader takes a few lines.
#[test]
fn check_stops_quietly_when_its_trace_is_no_longer_read() {
    let record = public_record_path();
    let check = env!("CARGO_BIN_EXE_check");
    let args: [&dyn AsRef<OsStr>; 3] = [&"--trace", &"inputs/tencent.txt", &record];
    assert_quiet(check, run_into_closed_pipe(check, &args, 1_000));
    // Read nothing at all: the first write already fails.
    assert_quiet(check, run_into_closed_pipe(check, &args, 0));
}

/// `check --trace s.txt bad.rec | head -1`: the reader stops early, but the verdict stands. An
/// invalid record exits 1 quietly however much of its report was read, never 0.
#[test]
fn a_closed_pipe_never_turns_an_invalid_record_into_a_valid_one() {
    let scratch = Scratch::new("closed-pipe-check");
    let input = tencent_input();
    let check = env!("CARGO_BIN_EXE_check");
    let early = scratch.file("bad.txt", "N,C1,L1,D17");
    // The public record with a piece hung in mid-air after its last: megabytes of trace first.
    let late = scratch.file("late.txt", format!("{},N,D1", public_record().trim()));
    let olympiad = scratch.file("o.txt", "SOJLTSOJLT\n");
    let olympiad_bad = scratch.file("o-bad.txt", "game olympiad\n0 0\n9 9\n");
    let olympiad_args: [&dyn AsRef<OsStr>; 4] = [&"--game", &"olympiad", &olympiad, &olympiad_bad];
    let cases: Vec<(Vec<&dyn AsRef<OsStr>>, usize)> = vec![
        (vec![&input, &early], 0),
        (vec![&"--trace", &input, &early], 0),
        (vec![&"--trace", &input, &late], 0),
        (vec![&"--trace", &input, &late], 1_000),
        (vec![&"--json", &input, &late], 0),
        (olympiad_args.to_vec(), 0),
    ];
    for (args, read) in cases {
        let (code, stderr) = run_into_closed_pipe(check, &args, read);
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(stderr, "", "read {read}: said something");
        assert_eq!(code, Some(1), "read {read}: {stderr}");
    }
}

/// Runs `exe` with `args` and standard output closed (`>&-`), or open only for reading
/// (`1<FILE`); returns the exit code and stderr.
fn run_without_stdout(exe: &str, args: &[&dyn AsRef<OsStr>], redirect: &str) -> Run {
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(exe)
        .args(args.iter().map(|a| a.as_ref()))
        .current_dir(manifest_dir())
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    Run {
        code: output.status.code(),
        stdout: String::new(),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// `solve ... >&-`: with no standard output the record would be lost (Rust's runtime puts
/// `/dev/null` in its place), so every game's solve, and merge, polish, gen and play (without
/// `-o`), refuse at once with one line and exit 2; as with a standard output open only for
/// reading.
#[test]
fn a_closed_standard_output_is_refused_before_any_work() {
    let scratch = Scratch::new("closed-stdout");
    let input = tencent_input();
    let olympiad = scratch.file("o.txt", "SOJLTSOJLT\n");
    let browser = scratch.file("b.txt", "JZOILJZOIL\n");
    let record = scratch.file("record.txt", "N,D19,N,D19");
    let solve = env!("CARGO_BIN_EXE_solve");
    let small = |mut args: Vec<&'static dyn AsRef<OsStr>>| {
        args.extend([
            &"--pieces" as &dyn AsRef<OsStr>,
            &"5",
            &"--beam-width",
            &"2",
        ]);
        args
    };
    let cases: Vec<(&str, Vec<&dyn AsRef<OsStr>>)> = vec![
        (
            solve,
            [vec![&input as &dyn AsRef<OsStr>], small(vec![])].concat(),
        ),
        (
            solve,
            [
                vec![&"--game" as &dyn AsRef<OsStr>, &"olympiad", &olympiad],
                small(vec![]),
            ]
            .concat(),
        ),
        (
            solve,
            [
                vec![&"--game" as &dyn AsRef<OsStr>, &"browser", &browser],
                small(vec![]),
            ]
            .concat(),
        ),
        (solve, small(vec![&"--game", &"nes"])),
        (env!("CARGO_BIN_EXE_merge"), vec![&input, &record]),
        (env!("CARGO_BIN_EXE_polish"), vec![&input, &record]),
        (env!("CARGO_BIN_EXE_gen"), vec![]),
        (env!("CARGO_BIN_EXE_play"), vec![&browser]),
    ];
    for (exe, args) in &cases {
        for redirect in [">&-", "1</dev/null"] {
            let r = run_without_stdout(exe, args, redirect);
            r.assert_no_panic();
            assert_eq!(r.code, Some(2), "{exe} {redirect}: {r:#?}");
            assert!(
                r.stderr
                    .contains("standard output is closed or not open for writing"),
                "{exe} {redirect}: {r:#?}"
            );
            assert_eq!(r.stderr.lines().count(), 1, "{exe} {redirect}: {r:#?}");
        }
    }
}

/// solve, merge and polish print their record through one function; gen prints a sequence.
#[test]
fn the_record_printers_and_gen_stop_quietly_too() {
    let scratch = Scratch::new("closed-pipe");
    let input = tencent_input();
    let record = scratch.file("record.txt", "N,D19,N,D19");
    let solve = env!("CARGO_BIN_EXE_solve");
    let solved = run_into_closed_pipe(
        solve,
        &[&input, &"--pieces", &"5", &"--beam-width", &"2", &"--quiet"],
        0,
    );
    assert_quiet(solve, solved);
    let merge = env!("CARGO_BIN_EXE_merge");
    assert_quiet(
        merge,
        run_into_closed_pipe(merge, &[&input, &record, &"--quiet"], 0),
    );
    let polish = env!("CARGO_BIN_EXE_polish");
    let polished = run_into_closed_pipe(
        polish,
        &[&input, &record, &"--beam-width", &"5", &"--quiet"],
        0,
    );
    assert_quiet(polish, polished);
    let gen = env!("CARGO_BIN_EXE_gen");
    assert_quiet(
        gen,
        run_into_closed_pipe(gen, &[&"--count", &"100000"], 100),
    );
}

/// `solve 2>&1 >/dev/null | head`: standard error closed under the progress lines and the
/// summary. The run goes on and its record still goes out whole, with exit 0.
#[test]
fn a_closed_standard_error_loses_the_messages_not_the_record() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let input = tencent_input();
    let output = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args([input.as_os_str(), OsStr::new("--pieces"), OsStr::new("30")])
        .args(["--beam-width", "4", "--progress-every", "0"])
        .current_dir(manifest_dir())
        .stdin(Stdio::null())
        .stderr(writer)
        .output()
        .expect("solve runs");
    assert_eq!(output.status.code(), Some(0));
    let record = String::from_utf8(output.stdout).expect("the record is UTF-8");
    assert_eq!(record.matches('N').count(), 30, "{record}");
}
