//! A record file as every binary that reads one meets it: one that does not parse is an invalid
//! record (exit 1, the error naming the file, the piece and the token), as in `check`; one that
//! cannot be read at all is unusable (exit 2).

mod common;

use common::{run, tencent_input, Run, Scratch};
use std::ffi::OsStr;

const CHECK: &str = env!("CARGO_BIN_EXE_check");
const MERGE: &str = env!("CARGO_BIN_EXE_merge");
const POLISH: &str = env!("CARGO_BIN_EXE_polish");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");

/// The options after the record's path that make each binary read it; cheap where it goes on.
fn run_with_record(exe: &str, record: &dyn AsRef<OsStr>) -> Run {
    let input = tencent_input();
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![&input];
    if exe == SOLVE {
        args.extend([&"--from-piece" as &dyn AsRef<OsStr>, &"1", &"--from-record"]);
    }
    args.push(record);
    if exe == SOLVE {
        args.extend([
            &"--pieces" as &dyn AsRef<OsStr>,
            &"5",
            &"--beam-width",
            &"1",
        ]);
    }
    let r = run(exe, &args);
    r.assert_no_panic();
    r
}

#[test]
fn a_record_that_does_not_parse_is_invalid_everywhere() {
    let scratch = Scratch::new("record-errors");
    let garbage = scratch.file("garbage.txt", "N,D19,N,X9");
    for exe in [CHECK, MERGE, POLISH, SOLVE] {
        let r = run_with_record(exe, &garbage);
        assert_eq!(r.code, Some(1), "{exe}: {r:#?}");
        let error = (r.stdout.lines().chain(r.stderr.lines()))
            .find(|l| l.starts_with("error: "))
            .unwrap_or_else(|| panic!("{exe}: no error line: {r:#?}"));
        assert!(
            error.contains("piece 2 (token 4 'X9'): expected N, L, R, D or C, found 'X'"),
            "{exe}: {error}"
        );
        if exe != CHECK {
            assert!(error.contains("garbage.txt"), "{exe}: {error}");
            assert!(r.stdout.is_empty(), "{exe}: {r:#?}");
        }
    }
}

#[test]
fn an_empty_record_file_is_invalid_everywhere() {
    let scratch = Scratch::new("record-empty");
    let empty = scratch.file("empty.txt", " \n");
    for exe in [CHECK, MERGE, POLISH, SOLVE] {
        let r = run_with_record(exe, &empty);
        assert_eq!(r.code, Some(1), "{exe}: {r:#?}");
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(
            all.contains("piece 1: the record is empty"),
            "{exe}: {r:#?}"
        );
    }
}

#[test]
fn a_record_file_that_cannot_be_read_is_unusable_everywhere() {
    let scratch = Scratch::new("record-missing");
    let missing = scratch.dir.join("missing.txt");
    let binary = scratch.file("binary.txt", b"N,\xff\xfeD1");
    for exe in [CHECK, MERGE, POLISH, SOLVE] {
        for (path, needle) in [
            (&missing, "cannot read record file"),
            (&binary, "is not text"),
        ] {
            let r = run_with_record(exe, path);
            assert_eq!(r.code, Some(2), "{exe}: {r:#?}");
            assert!(r.stderr.contains(needle), "{exe}: {r:#?}");
        }
    }
}
