//! A file a binary is asked to write and cannot: one wording in every binary, naming the option
//! and the path (`--html /no/such/dir/x.html: cannot write it: ...`), exit 2.

use crate::common::{public_record_path, run, tencent_input, Scratch};
use std::ffi::OsStr;
use std::path::Path;

/// A binary, its arguments, and the option naming the file it cannot write.
type Case<'a> = (&'a str, Vec<&'a dyn AsRef<OsStr>>, &'a str, &'a Path);

#[test]
fn every_binary_says_which_file_it_cannot_write_in_one_wording() {
    let scratch = Scratch::new("write-errors");
    let nowhere = scratch.dir.join("no-such-dir");
    let at = |name: &str| nowhere.join(name);
    let input = tencent_input();
    let record = public_record_path();
    let browser = scratch.file("browser.txt", "IJLOSTZIJLOSTZ\n");
    let (html, json, page) = (at("page.html"), at("report.json"), at("play.html"));
    let cases: Vec<Case> = vec![
        (
            env!("CARGO_BIN_EXE_check"),
            vec![&input, &record, &"--html", &html],
            "--html",
            &html,
        ),
        (
            env!("CARGO_BIN_EXE_solve"),
            vec![&input, &"--pieces", &"3", &"--json", &json],
            "--json",
            &json,
        ),
        (
            env!("CARGO_BIN_EXE_play"),
            vec![&browser, &"-o", &page],
            "--output",
            &page,
        ),
    ];
    for (exe, args, option, path) in cases {
        let r = run(exe, &args);
        assert_eq!(r.code, Some(2), "{exe}: {r:#?}");
        let expected = format!("error: {option} {}: cannot write it: ", path.display());
        assert!(r.stderr.starts_with(&expected), "{exe}: {r:#?}");
        assert_eq!(r.stderr.lines().count(), 1, "{exe}: {r:#?}");
    }
}
