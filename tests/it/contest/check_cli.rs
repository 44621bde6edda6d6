//! `check` run as a user runs it on the contest's game: the public record's figures, the
//! `--json` report and `--help`; records it must refuse and unusable input files (`invalid`);
//! what it reports besides the score (`reports`).

mod invalid;
mod reports;

use crate::common::{public_record_path, run, tencent_input, Run, Scratch};
use serde_json::Value;

const CHECK: &str = env!("CARGO_BIN_EXE_check");

/// The first three pieces of the public record (also the example of RULES.md): valid, no clear.
const OPENING: &str = "N,C1,L1,D18,N,R1,D19,L1,N,D18";

/// Asserts `run` failed with exit `code` and exactly one line of error (on stdout for an invalid
/// record, on stderr for an unusable file) containing every one of `parts`, without panicking.
fn assert_one_error_line(run: &Run, code: i32, parts: &[&str]) {
    run.assert_no_panic();
    assert_eq!(run.code, Some(code), "{run:#?}");
    let errors: Vec<&str> = run
        .stdout
        .lines()
        .chain(run.stderr.lines())
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(errors.len(), 1, "one error line expected: {run:#?}");
    // Nothing else but the score line: a message spilling onto a second line fails here.
    assert!(
        run.stderr.lines().all(|l| l == errors[0]),
        "stderr holds only the error: {run:#?}"
    );
    assert!(
        run.stdout
            .lines()
            .all(|l| l == errors[0] || l == "Score = 0"),
        "stdout holds only the error and the score: {run:#?}"
    );
    for part in parts {
        assert!(errors[0].contains(part), "{part:?} not in {:?}", errors[0]);
    }
}

/// Runs `check` on `record` (written to a scratch file) with `args` before the two paths.
fn check(record: impl AsRef<[u8]>, args: &[&str]) -> Run {
    let scratch = Scratch::new("check");
    let path = scratch.file("record.txt", record);
    let input = tencent_input();
    let mut all: Vec<&dyn AsRef<std::ffi::OsStr>> = args.iter().map(|a| a as _).collect();
    all.push(&input);
    all.push(&path);
    run(CHECK, &all)
}

/// Asserts `message` has the one form of an invalid record's error (`check --help` documents
/// it): `piece N (token T 'X'): what`, or `piece 1: the record is empty`.
fn assert_error_form(message: &str) {
    let bad = || panic!("not of the form `piece N (token T 'X'): ...`: {message:?}");
    if message == "piece 1: the record is empty" {
        return;
    }
    let Some(rest) = message.strip_prefix("piece ") else {
        bad()
    };
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = digits(rest);
    let Some(rest) = (n > 0)
        .then(|| &rest[n..])
        .and_then(|r| r.strip_prefix(" (token "))
    else {
        bad()
    };
    let t = digits(rest);
    let Some(quoted) = (t > 0)
        .then(|| &rest[t..])
        .and_then(|r| r.strip_prefix(" '"))
    else {
        bad()
    };
    let Some((_, what)) = quoted.split_once("'): ") else {
        bad()
    };
    if what.is_empty() {
        bad()
    }
}

/// Asserts `check` rejects `record` as invalid (exit 1) both in the human form (error line, then
/// `Score = 0` last) and with `--json` (valid false, score 0, the error in the report), with
/// an error of the one documented form.
fn assert_invalid(record: impl AsRef<[u8]> + Copy, args: &[&str], parts: &[&str]) {
    let human = check(record, args);
    assert_one_error_line(&human, 1, parts);
    assert_eq!(human.last_line(), "Score = 0");
    let line = human.stdout.lines().find(|l| l.starts_with("error: "));
    assert_error_form(line.unwrap().strip_prefix("error: ").unwrap());

    let json_args: Vec<&str> = args.iter().copied().chain(["--json"]).collect();
    let json = check(record, &json_args);
    json.assert_no_panic();
    assert_eq!(json.code, Some(1), "{json:#?}");
    let report = json_report(&json);
    assert_eq!(report["valid"], false);
    assert_eq!(report["score"], 0);
    assert_eq!(report["end"]["reason"], "invalid");
    let error = report["error"].as_str().expect("an error message");
    assert_error_form(error);
    for part in parts {
        assert!(error.contains(part), "{part:?} not in {error:?}");
    }
}

/// The fields of each clear of `stats.diagnosis` (docs/JSON.md).
const CLEAR_CHECK_KEYS: [&str; 13] = [
    "bumpiness",
    "cause",
    "filled",
    "gaps",
    "headroom",
    "holes",
    "i_only_columns",
    "optimum_filled",
    "piece",
    "rows",
    "top_cells",
    "well_clears",
    "well_depth",
];

/// The one JSON object `check --json` printed, checked to have exactly the documented fields
/// (docs/JSON.md): every game's, and the contest's own under `contest` (`stats` among them
/// only with `--stats`, with its own).
fn json_report(run: &Run) -> Value {
    assert_eq!(run.stdout.lines().count(), 1, "one line of JSON: {run:#?}");
    let report: Value = serde_json::from_str(&run.stdout).expect("stdout is JSON");
    let keys = |v: &Value| -> Vec<String> {
        let mut keys: Vec<String> = v.as_object().expect("an object").keys().cloned().collect();
        keys.sort();
        keys
    };
    assert_eq!(
        keys(&report),
        [
            "contest",
            "end",
            "error",
            "format",
            "game",
            "lines",
            "pieces_placed",
            "score",
            "valid"
        ]
    );
    assert_eq!(report["format"], 1);
    assert_eq!(report["game"], "contest");
    assert!(report["score"].is_u64() && report["pieces_placed"].is_u64());
    assert!(report["lines"].is_u64() && report["end"]["text"].is_string());
    assert!(report["valid"].is_boolean());
    assert!(report["error"].is_null() || report["error"].is_string());
    let own = &report["contest"];
    if report["valid"] == false {
        assert_eq!(own, &serde_json::json!({}), "{report}");
        return report;
    }
    let mut own_keys = keys(own);
    if let Some(stats) = own.get("stats") {
        assert_eq!(
            keys(stats),
            [
                "bound_play",
                "clears",
                "diagnosis",
                "fluid_bound",
                "fluid_bound_pieces",
                "fullest",
                "i_pieces",
                "mid_air_locks",
                "one_well_bound",
                "one_well_play",
                "points_by_kind",
                "points_per_segment"
            ]
        );
        let diagnosis = &stats["diagnosis"];
        assert_eq!(
            keys(diagnosis),
            [
                "bumpy_above",
                "by_rows",
                "causes",
                "clears",
                "every_lock",
                "low_above"
            ]
        );
        let clears = diagnosis["clears"].as_array().expect("the clears");
        for clear in clears {
            assert_eq!(keys(clear), CLEAR_CHECK_KEYS, "{clear}");
        }
        own_keys.retain(|k| k != "stats");
    }
    assert_eq!(own_keys, ["clears"]);
    let clears = own["clears"].as_array().expect("clears is an array");
    assert_eq!(clears.len(), 4);
    assert!(clears.iter().all(Value::is_u64));
    report
}

#[test]
fn the_public_record_scores_1395326() {
    let record = public_record_path();
    let json = run(CHECK, &[&"--json", &"inputs/tencent.txt", &record]);
    json.assert_no_panic();
    assert_eq!(json.code, Some(0), "{json:#?}");
    let report = json_report(&json);
    assert_eq!(report["score"], 1_395_326);
    assert_eq!(report["pieces_placed"], 9_999);
    assert_eq!(report["lines"], 3_988);
    assert_eq!(report["valid"], true);
    assert_eq!(report["error"], Value::Null);
    assert_eq!(
        report["end"],
        serde_json::json!({
            "reason": "record_ended",
            "piece": null,
            "text": "the record ended before the piece limit's last piece, which would score nothing",
        })
    );
    let clears: Vec<u64> = report["contest"]["clears"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(
        clears[0] + 2 * clears[1] + 3 * clears[2] + 4 * clears[3],
        3_988
    );

    let human = run(CHECK, &[&"inputs/tencent.txt", &record]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    assert_eq!(human.last_line(), "Score = 1395326");
    assert_eq!(human.stderr, "");
}

#[test]
fn a_short_valid_record_reports_every_json_field() {
    let json = check(OPENING, &["--json"]);
    assert_eq!(json.code, Some(0), "{json:#?}");
    let expected: Value = serde_json::json!({
        "format": 1, "game": "contest", "valid": true, "error": null,
        "score": 0, "pieces_placed": 3, "lines": 0,
        "end": {
            "reason": "record_ended", "piece": null,
            "text": "the record ended before the sequence",
        },
        "contest": {"clears": [0, 0, 0, 0]},
    });
    assert_eq!(json_report(&json), expected);
    let human = check(OPENING, &[]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    assert_eq!(human.last_line(), "Score = 0");
}

/// `check --help` and `merge --help` said of `--judge` that "a search then" places mid-air
/// locks: neither binary searches.
#[test]
fn judge_help_speaks_of_the_binary_it_is_in() {
    for (exe, opening) in [
        (CHECK, "Check by the contest web replay's rules"),
        (
            env!("CARGO_BIN_EXE_merge"),
            "Merge by the contest web replay's rules",
        ),
    ] {
        for flag in ["--help", "-h"] {
            let help = run(exe, &[&flag]);
            assert_eq!(help.code, Some(0), "{help:#?}");
            let text = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(!text.contains("A search then"), "{exe} {flag}: {text}");
            assert!(text.contains(opening), "{exe} {flag}: {text}");
        }
    }
}
