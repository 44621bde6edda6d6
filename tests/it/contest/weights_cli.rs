//! `--weights FILE` as a user meets it: a file that is not an object of named, finite weights
//! with window sizes in range is refused before any search (exit 2), the message naming the
//! file and the field.

use crate::common::{run, tencent_input, Scratch};

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");

#[test]
fn weights_files_are_objects_of_finite_weights_and_windows_in_range() {
    let scratch = Scratch::new("weights");
    let input = tencent_input();
    for (name, text, needle) in [
        ("array.json", "[1.0, 2.0, 3.0]", "not an array"),
        (
            "inf.json",
            r#"{"holes": 1e39}"#,
            "holes is 1e39, out of range: a weight must be a number from -3.4e38 to 3.4e38",
        ),
        (
            "1e300.json",
            r#"{"holes": 1e300}"#,
            "holes is 1e300, out of range",
        ),
        (
            "cut.json",
            "{\"holes\": 1.0,\n",
            "the file ends before its JSON does (line 2, column 0): is it cut short?",
        ),
        (
            "huge.json",
            "{\"holes\": 1e999}",
            "holes is out of range (line 1, column 15)",
        ),
        (
            "window.json",
            r#"{"top_rows": 2.5}"#,
            "top_rows is a window size: a whole number from 0 to 20, not 2.5",
        ),
        (
            "rows.json",
            r#"{"shallow_depth": 40}"#,
            "shallow_depth is a window size: a whole number from 0 to 20, not 40",
        ),
        ("unknown.json", r#"{"wells": 1.0}"#, "unknown field `wells`"),
    ] {
        let weights = scratch.file(name, text);
        let r = run(SOLVE, &[&input, &"--pieces", &"5", &"--weights", &weights]);
        r.assert_no_panic();
        assert_eq!(r.code, Some(2), "{name}: {r:#?}");
        let prefix = format!("error: weights file {}: ", weights.display());
        assert!(r.stderr.starts_with(&prefix), "{name}: {r:#?}");
        assert!(r.stderr.contains(needle), "{name}: {r:#?}");
        assert_eq!(r.stderr.lines().count(), 1, "{name}: {r:#?}");
        assert_eq!(r.stdout, "");
    }
}

#[test]
fn a_weights_object_with_some_fields_is_used() {
    let scratch = Scratch::new("weights-ok");
    let weights = scratch.file("some.json", r#"{"holes": 4.0, "top_rows": 3}"#);
    let r = run(
        SOLVE,
        &[
            &tencent_input(),
            &"--pieces",
            &"5",
            &"--quiet",
            &"--weights",
            &weights,
        ],
    );
    assert_eq!(r.code, Some(0), "{r:#?}");
}

/// Editors that write a byte-order mark at the start of a UTF-8 file made the weights and
/// policy files unreadable (`expected value at line 1 column 1`).
#[test]
fn weights_and_policy_files_may_start_with_a_byte_order_mark() {
    let scratch = Scratch::new("weights-bom");
    let weights = scratch.file("bom.json", "\u{feff}{\"holes\": 4.0}");
    let policy = scratch.file("policy.json", "\u{feff}{\"endgame_pieces\": 10}");
    let r = run(
        SOLVE,
        &[
            &tencent_input(),
            &"--pieces",
            &"5",
            &"--quiet",
            &"--weights",
            &weights,
            &"--policy",
            &policy,
        ],
    );
    assert_eq!(r.code, Some(0), "{r:#?}");
}

/// A value of the wrong type is refused naming its field, not only a line and column.
#[test]
fn weights_and_policy_errors_name_the_field() {
    let scratch = Scratch::new("weights-path");
    let weights = scratch.file("type.json", "{\"holes\": 4.0, \"cells\": \"many\"}");
    let policy = scratch.file("policy.json", "{\"endgame_pieces\": \"ten\"}");
    // A fill plan as an array was taken by position.
    let plan = scratch.file("plan.json", "{\"fill_plan\": [175, 1]}");
    let cut = scratch.file("cut.json", "{\"endgame_pieces\": 10");
    for (option, file, what, needle) in [
        (
            "--policy",
            &plan,
            "policy file",
            "fill_plan must be an object of named fields, such as {\"cap\": 175, \"weight\": \
             0.5, \"discount\": 0.98}, or null for none, not an array",
        ),
        (
            "--policy",
            &cut,
            "policy file",
            "the file ends before its JSON does (line 1, column 21): is it cut short?",
        ),
        (
            "--weights",
            &weights,
            "weights file",
            "cells: invalid type: string",
        ),
        (
            "--policy",
            &policy,
            "policy file",
            "endgame_pieces: invalid type: string",
        ),
    ] {
        let r = run(SOLVE, &[&tencent_input(), &"--pieces", &"5", &option, file]);
        r.assert_no_panic();
        assert_eq!(r.code, Some(2), "{r:#?}");
        let prefix = format!("error: {what} {}: ", file.display());
        assert!(r.stderr.starts_with(&prefix), "{r:#?}");
        assert!(r.stderr.contains(needle), "{needle:?}: {r:#?}");
    }
}
