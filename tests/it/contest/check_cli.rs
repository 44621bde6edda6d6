//! `check` run as a user runs it: the public record's figures, every kind of malformed record
//! (exit 1, or 2 for a file that is not text; one error line; `Score = 0` last; never a panic),
//! the `--json` report, and unusable input files.

use crate::common::{public_record, public_record_path, run, tencent_input, Run, Scratch};
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
    assert_eq!(report["end"], "invalid record");
    let error = report["error"].as_str().expect("an error message");
    assert_error_form(error);
    for part in parts {
        assert!(error.contains(part), "{part:?} not in {error:?}");
    }
}

/// The one JSON object `check --json` printed, checked to have exactly the documented fields
/// (and `stats`, only with `--stats`, with its own).
fn json_report(run: &Run) -> Value {
    assert_eq!(run.stdout.lines().count(), 1, "one line of JSON: {run:#?}");
    let report: Value = serde_json::from_str(&run.stdout).expect("stdout is JSON");
    let object = report.as_object().expect("a JSON object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort();
    if let Some(stats) = object.get("stats") {
        let mut stat_keys: Vec<&str> = stats
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        stat_keys.sort();
        assert_eq!(
            stat_keys,
            [
                "clears",
                "fluid_bound",
                "fluid_bound_pieces",
                "fullest",
                "i_pieces",
                "mid_air_locks",
                "points_by_kind",
                "points_per_segment"
            ]
        );
        keys.retain(|&k| k != "stats");
    }
    assert_eq!(
        keys,
        [
            "clears",
            "end",
            "error",
            "lines",
            "pieces_locked",
            "score",
            "valid"
        ]
    );
    assert!(report["score"].is_u64() && report["pieces_locked"].is_u64());
    assert!(report["lines"].is_u64() && report["end"].is_string());
    assert!(report["valid"].is_boolean());
    let clears = report["clears"].as_array().expect("clears is an array");
    assert_eq!(clears.len(), 4);
    assert!(clears.iter().all(Value::is_u64));
    assert!(report["error"].is_null() || report["error"].is_string());
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
    assert_eq!(report["pieces_locked"], 9_999);
    assert_eq!(report["lines"], 3_988);
    assert_eq!(report["valid"], true);
    assert_eq!(report["error"], Value::Null);
    assert_eq!(report["end"], "record ended");
    let clears: Vec<u64> = report["clears"]
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
        "score": 0, "pieces_locked": 3, "lines": 0, "clears": [0, 0, 0, 0],
        "end": "record ended", "valid": true, "error": null,
    });
    assert_eq!(json_report(&json), expected);
    let human = check(OPENING, &[]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    assert_eq!(human.last_line(), "Score = 0");
}

#[test]
fn rejects_a_bad_token() {
    assert_invalid(
        "N,C1,X1,D18",
        &[],
        &["piece 1 (token 3 'X1'): expected N, L, R, D or C, found 'X'"],
    );
}

#[test]
fn rejects_a_move_without_a_count() {
    assert_invalid(
        "N,C1,L,D18",
        &[],
        &["piece 1 (token 3 'L'): a move needs a count"],
    );
}

#[test]
fn rejects_a_count_of_0() {
    assert_invalid(
        "N,C1,L1,D0",
        &[],
        &["piece 1 (token 4 'D0'): a count must be at least 1"],
    );
}

#[test]
fn rejects_a_piece_with_101_moves() {
    assert_invalid("N,C1,L1,D18,L81", &[], &["piece 1", "101 moves"]);
    // 100 is fine.
    assert_eq!(check("N,C1,L1,D18,L80", &[]).code, Some(0));
}

#[test]
fn rejects_a_lock_in_mid_air_unless_judging() {
    assert_invalid("N,C1,L1,D17", &[], &["piece 1", "mid-air"]);
    let judged = check("N,C1,L1,D17", &["--judge"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert_eq!(judged.last_line(), "Score = 0");
}

#[test]
fn rejects_a_record_not_starting_with_n() {
    assert_invalid(
        "C1,L1,D18",
        &[],
        &["piece 1 (token 1 'C1'): the record must start with N"],
    );
}

/// The form scripts can rely on is in `check --help`.
#[test]
fn help_documents_the_error_form() {
    let help = run(CHECK, &[&"--help"]);
    assert_eq!(help.code, Some(0), "{help:#?}");
    let text = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("The contest's is of the form `piece N (token T 'X'): message`"),
        "{}",
        help.stdout
    );
    assert!(text.contains("`error: piece 1: the record is empty`"));
    assert!(text.contains("their errors name the file and the line first"));
}

/// A token that does not parse is placed in its piece, as the replay's errors are.
#[test]
fn a_token_that_does_not_parse_names_its_piece() {
    assert_invalid(
        "N,C1,L1,D18,N,R1,D+19",
        &[],
        &["piece 2 (token 7 'D+19'): the count must be a decimal number, found '+'"],
    );
    assert_invalid(
        "N,D19,N2,D19",
        &[],
        &["piece 2 (token 3 'N2'): N never carries a count"],
    );
}

#[test]
fn rejects_n_with_a_number() {
    assert_invalid(
        "N1,C1,L1,D18",
        &[],
        &["piece 1 (token 1 'N1'): N never carries a count"],
    );
}

#[test]
fn rejects_an_empty_file() {
    assert_invalid("", &[], &["piece 1: the record is empty"]);
    assert_invalid(" \n", &[], &["piece 1: the record is empty"]);
}

/// Not UTF-8 at all: 0xFF can never appear in UTF-8.
const BINARY: &[u8] = b"\xff\xfeN,\x00\x9f\x80D1\n\xc3";

#[test]
fn a_record_file_that_is_not_text_is_unusable() {
    let run = check(BINARY, &[]);
    assert_one_error_line(&run, 2, &["record file", "is not text"]);
}

#[test]
fn a_record_file_that_is_not_text_scores_0() {
    let run = check(BINARY, &[]);
    assert_eq!(run.code, Some(2));
    assert_eq!(run.last_line(), "Score = 0", "{run:#?}");
}

#[test]
fn garbage_that_is_text_is_an_invalid_record_on_one_line() {
    // Control characters and a line separator inside a token must not break the error line.
    let garbage = "N,D1\u{0}\u{7}\r\u{1b}[2J\u{2028}xyz";
    assert_invalid(garbage, &[], &["piece 1 (token 2 "]);
}

#[test]
fn rejects_moves_after_the_game_ended_unless_judging() {
    // With a limit of 2 the second piece ends the game; the third follows the end.
    assert_invalid(
        OPENING,
        &["--piece-limit", "2"],
        &["piece 3", "moves after the game ended"],
    );
    let judged = check(OPENING, &["--piece-limit", "2", "--judge"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert!(judged
        .stdout
        .contains("end: game over at piece 2: piece limit reached"));
    assert_eq!(judged.last_line(), "Score = 0");
}

#[test]
fn rejects_a_10001st_piece_on_the_contest_sequence() {
    let text = public_record();
    let over = format!("{},N,D20,N,D20", text.trim());
    assert_invalid(
        over.as_str(),
        &[],
        &["piece 10001", "moves after the game ended"],
    );
    let judged = check(&over, &["--judge"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert_eq!(judged.last_line(), "Score = 1395326");
}

/// The public record with its `index`-th token (0-based) replaced by `token`.
fn with_token(text: &str, index: usize, token: &str) -> String {
    let mut tokens: Vec<&str> = text.trim().split(',').collect();
    tokens[index] = token;
    tokens.join(",")
}

#[test]
fn errors_deep_in_the_public_record_name_their_token_and_piece() {
    let text = public_record();
    let tokens: Vec<&str> = text.trim().split(',').collect();
    // Token 5000 (1-based) replaced by garbage.
    let bad = with_token(&text, 4_999, "Q7");
    let piece = tokens[..4_999].iter().filter(|t| **t == "N").count();
    assert_invalid(
        bad.as_str(),
        &[],
        &[&format!(
            "piece {piece} (token 5000 'Q7'): expected N, L, R, D or C, found 'Q'"
        )],
    );

    // The first piece locks one row higher in mid-air (its D18 lands it; D17 does not); the
    // judge accepts that and plays on.
    assert_eq!(tokens[3], "D18");
    let raised = with_token(&text, 3, "D17");
    assert_invalid(
        raised.as_str(),
        &[],
        &["piece 1 (token 4 'D17')", "mid-air"],
    );
    let judged = check(&raised, &["--judge", "--json"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    assert_eq!(json_report(&judged)["valid"], true);

    // The last piece given 101 moves.
    let last_n = tokens.iter().rposition(|t| *t == "N").unwrap();
    let piece = tokens.iter().filter(|t| **t == "N").count();
    let moves: u32 = tokens[last_n + 1..]
        .iter()
        .map(|t| t[1..].parse::<u32>().unwrap())
        .sum();
    let padded = format!("{},L{}", text.trim(), 101 - moves);
    assert_invalid(
        padded.as_str(),
        &[],
        &[&format!("piece {piece} "), "101 moves"],
    );
}

#[test]
fn a_missing_file_is_unusable() {
    let scratch = Scratch::new("missing");
    let absent = scratch.dir.join("no-such-file.txt");
    let record = scratch.file("record.txt", OPENING);
    let run1 = run(CHECK, &[&absent, &record]);
    assert_one_error_line(&run1, 2, &["cannot read sequence file", "no-such-file.txt"]);
    let input = tencent_input();
    let run2 = run(CHECK, &[&input, &absent]);
    assert_one_error_line(&run2, 2, &["cannot read record file", "no-such-file.txt"]);
}

#[test]
fn a_sequence_with_a_bad_letter_is_unusable_and_the_error_names_line_and_column() {
    let scratch = Scratch::new("badseq");
    let sequence = scratch.file("seq.txt", "# a comment\nZIO\nSLX\n");
    let record = scratch.file("record.txt", OPENING);
    let run = run(CHECK, &[&sequence, &record]);
    assert_one_error_line(&run, 2, &["seq.txt", "line 3, column 3", "'X'"]);
    assert_eq!(run.stdout, "");
}

/// Some editors start a UTF-8 file with a byte-order mark; it is not part of the text.
#[test]
fn a_byte_order_mark_at_the_start_of_either_file_is_skipped() {
    let scratch = Scratch::new("bom");
    let sequence = scratch.file("seq.txt", "\u{feff}ZIOSL\n");
    let record = scratch.file("record.txt", format!("\u{feff}{OPENING}\n"));
    let r = run(CHECK, &[&sequence, &record]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(r.stdout.contains("pieces locked: 3"), "{r:#?}");
    assert_eq!(r.last_line(), "Score = 0");
}

/// A look-alike (a Cyrillic or Greek letter for a Latin one) or an invisible character (a
/// zero-width space) reads as what it is not; the error names it by code point.
#[test]
fn look_alike_and_invisible_characters_are_named_by_code_point() {
    // A Cyrillic C (U+0421) for the rotation.
    assert_invalid(
        "N,\u{421}1,L1,D18",
        &[],
        &["piece 1 (token 2 '\u{421}1'): expected N, L, R, D or C, found '\u{421}' (U+0421)"],
    );
    // A zero-width space inside a count: the quote shows it too.
    assert_invalid(
        "N,C1,L1,D1\u{200B}8",
        &[],
        &["piece 1 (token 4 'D1<U+200B>8'): the count must be a decimal number, found U+200B"],
    );
    // A byte-order mark that is not at the start (two files joined) is a character like any.
    assert_invalid(
        format!("{OPENING},\u{feff}N,D1").as_str(),
        &[],
        &["piece 3 (token 11 '<U+FEFF>N'): expected N, L, R, D or C, found U+FEFF"],
    );

    let scratch = Scratch::new("look-alike");
    let record = scratch.file("record.txt", OPENING);
    for (text, named) in [
        (
            "ZI\u{41E}S\n",
            "column 3: '\u{41E}' (U+041E) is not a piece letter",
        ),
        ("ZIO\u{200B}S\n", "column 4: U+200B is not a piece letter"),
        ("ZIO\u{1b}S\n", "column 4: U+001B is not a piece letter"),
    ] {
        let sequence = scratch.file("seq.txt", text);
        let r = run(CHECK, &[&sequence, &record]);
        assert_one_error_line(&r, 2, &["seq.txt", "line 1", named]);
    }
}

/// `--stats` on the public record gives the figures an earlier, separate count of its replay
/// found (clears of 1-4 rows 18 / 233 / 464 / 528 at
/// 153.7 / 161.8 / 157.4 / 159.3 filled cells, 176 I pieces clearing nothing and 194 clearing
/// fewer than four rows), and every breakdown adds up to the score.
#[test]
fn stats_of_the_public_record_match_an_independent_count_and_add_up() {
    let record = public_record_path();
    let json = run(
        CHECK,
        &[&"--stats", &"--json", &"inputs/tencent.txt", &record],
    );
    assert_eq!(json.code, Some(0), "{json:#?}");
    let report: Value = serde_json::from_str(json.stdout.trim()).unwrap();
    let stats = &report["stats"];
    let clears = stats["clears"].as_array().unwrap();
    let counts: Vec<u64> = clears
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [18, 233, 464, 528]);
    let means: Vec<String> = clears
        .iter()
        .map(|c| {
            let mean = c["filled_total"].as_f64().unwrap() / c["count"].as_f64().unwrap();
            format!("{mean:.1}")
        })
        .collect();
    assert_eq!(means, ["153.7", "161.8", "157.4", "159.3"]);
    let i = &stats["i_pieces"];
    assert_eq!(i["locked"], 722);
    assert_eq!(i["cleared_four"], 528);
    assert_eq!(i["cleared_nothing"], 176);
    assert_eq!(i["cleared_fewer"], 194 - 176);
    let sum = |v: &Value| -> u64 {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .sum()
    };
    let by_clear: u64 = clears.iter().map(|c| c["points"].as_u64().unwrap()).sum();
    assert_eq!(by_clear, 1_395_326);
    assert_eq!(sum(&stats["points_by_kind"]), 1_395_326);
    assert_eq!(stats["points_per_segment"].as_array().unwrap().len(), 10);
    assert_eq!(sum(&stats["points_per_segment"]), 1_395_326);
    assert_eq!(stats["mid_air_locks"], 0);
    // The record never holds more than 174 cells after a lock, and the fluid model of the
    // sequence allows at most 1,516,598 points at that fill (kit::fluid's tests recompute it).
    assert_eq!(stats["fullest"], 174);
    assert_eq!(stats["fluid_bound"], 1_516_598);

    let human = run(CHECK, &[&"--stats", &"inputs/tencent.txt", &record]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    assert!(
        human
            .stdout
            .contains("clears of 4: 528 for 841,280 points (60.3%), 159.3 filled cells"),
        "{human:#?}"
    );
    assert!(
        human.stdout.contains(
            "fluid bound over pieces 1-9,999 at the fullest board (174 cells after a lock): \
             1,516,598 (92.0% scored)"
        ),
        "{human:#?}"
    );
    assert_eq!(human.last_line(), "Score = 1395326");
}

/// A lock in mid-air is counted under the judge's rules; a record the strict rules reject gets
/// no breakdown (it would describe pieces that score nothing), only the error.
#[test]
fn stats_count_mid_air_locks_and_are_left_out_for_an_invalid_record() {
    let judged = check("N,C1,L1,D17,N,D18", &["--judge", "--stats", "--json"]);
    assert_eq!(judged.code, Some(0), "{judged:#?}");
    let report = json_report(&judged);
    assert_eq!(report["stats"]["mid_air_locks"], 1);
    assert_eq!(
        report["stats"]["points_per_segment"],
        serde_json::json!([0])
    );

    let strict = check("N,C1,L1,D17", &["--stats", "--json"]);
    assert_eq!(strict.code, Some(1), "{strict:#?}");
    assert!(json_report(&strict).get("stats").is_none());
    assert_invalid("N,C1,L1,D17", &["--stats"], &["piece 1", "mid-air"]);
}

#[test]
fn trace_at_0_is_refused() {
    let r = check(OPENING, &["--trace", "--at", "0"]);
    assert_eq!(r.code, Some(2), "{r:#?}");
    assert_eq!(
        r.stderr,
        "error: --at 0: pieces are numbered from 1 (the board after piece 1 is --at 1)\n"
    );
    assert_eq!(r.stdout, "");
}

/// `--at` past the pieces the record locked has no board to show; a note says why, and the
/// exit code stays the record's.
#[test]
fn trace_at_a_piece_the_record_never_locked_says_why() {
    let record = public_record_path();
    let r = run(
        CHECK,
        &[
            &"--trace",
            &"--at",
            &"12000",
            &"inputs/tencent.txt",
            &record,
        ],
    );
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(
        r.stderr,
        "note: --at 12000: the record locked only 9999 pieces\n"
    );
    assert!(r.stdout.starts_with("pieces locked: 9999\n"), "{r:#?}");
    assert_eq!(r.last_line(), "Score = 1395326");

    let r = check("N,C1,L1,D17", &["--trace", "--at", "2"]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert_eq!(r.stderr, "note: --at 2: the record locked no piece\n");
    assert_eq!(r.last_line(), "Score = 0");

    // The last piece locked is still shown, with no note.
    let r = check(OPENING, &["--trace", "--at", "3"]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(r.stdout.starts_with("piece 3 O "), "{r:#?}");
    assert_eq!(r.stderr, "");
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

/// An output path that names one of the run's inputs (under any name) is refused before any
/// work, with one line naming which input, and the input is left as it was: `solve --json`,
/// `check --html`, `play -o`, `tune --log`, for every game that writes them.
#[test]
fn no_binary_writes_over_one_of_its_inputs() {
    let scratch = Scratch::new("overwrite");
    let contest = scratch.file("contest.txt", "ZIOSLJTZIOSLJT\n");
    let olympiad = scratch.file("olympiad.txt", "SOJLTSOJLT\n");
    let browser = scratch.file("browser.txt", "JZOILJZOIL\n");
    let record = scratch.file("record.txt", OPENING);
    let weights = scratch.file("weights.json", "{}\n");
    // The same file under another name: through the scratch folder's `.`.
    let dotted = contest.parent().unwrap().join(".").join("contest.txt");
    let exe = |name: &str| match name {
        "solve" => env!("CARGO_BIN_EXE_solve"),
        "play" => env!("CARGO_BIN_EXE_play"),
        "tune" => env!("CARGO_BIN_EXE_tune"),
        _ => CHECK,
    };
    let s = |p: &std::path::Path| p.display().to_string();
    let cases: Vec<(&str, Vec<String>, &std::path::Path, &str)> = vec![
        (
            "solve",
            vec![s(&contest), "--json".into(), s(&dotted)],
            &contest,
            "sequence file",
        ),
        (
            "solve",
            vec![
                s(&contest),
                "--weights".into(),
                s(&weights),
                "--json".into(),
                s(&weights),
            ],
            &weights,
            "weights file",
        ),
        (
            "solve",
            vec![
                "--game".into(),
                "olympiad".into(),
                s(&olympiad),
                "--json".into(),
                s(&olympiad),
            ],
            &olympiad,
            "sequence file",
        ),
        (
            "solve",
            vec![
                "--game".into(),
                "browser".into(),
                s(&browser),
                "--json".into(),
                s(&browser),
            ],
            &browser,
            "sequence file",
        ),
        (
            "check",
            vec![s(&contest), s(&record), "--html".into(), s(&contest)],
            &contest,
            "sequence file",
        ),
        (
            "check",
            vec![s(&contest), s(&record), "--html".into(), s(&record)],
            &record,
            "record file",
        ),
        (
            "check",
            vec![
                "--game".into(),
                "olympiad".into(),
                s(&olympiad),
                s(&record),
                "--html".into(),
                s(&olympiad),
            ],
            &olympiad,
            "sequence file",
        ),
        (
            "play",
            vec![
                "--game".into(),
                "browser".into(),
                s(&browser),
                "-o".into(),
                s(&browser),
            ],
            &browser,
            "sequence file",
        ),
        (
            "play",
            vec![
                "--game".into(),
                "browser".into(),
                s(&browser),
                "--compare".into(),
                s(&record),
                "-o".into(),
                s(&record),
            ],
            &record,
            "record file (--compare)",
        ),
        (
            "tune",
            vec![
                "--inputs".into(),
                s(&contest),
                "--best-weights".into(),
                s(&scratch.dir.join("best.json")),
                "--log".into(),
                s(&dotted),
            ],
            &contest,
            "sequence file (--inputs)",
        ),
    ];
    for (binary, args, input, what) in cases {
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

/// A record checked against another sequence fails at its first pieces: the error says where,
/// as always, and asks whether the sequence file is the record's; a record that fails later
/// gets no such note.
#[test]
fn a_record_of_another_sequence_is_suspected_at_its_first_pieces() {
    let scratch = Scratch::new("other-sequence");
    let other = scratch.file("other.txt", "IIIIOOOOIIIIOOOO\n");
    let r = run(CHECK, &[&other, &public_record_path()]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    let error = r.stdout.lines().next().unwrap();
    assert!(error.starts_with("error: piece "), "{error}");
    let note = format!(
        "(the record fails at its first pieces: is {} the sequence it was made for?)",
        other.display()
    );
    assert!(error.ends_with(&note), "{error}");
    // The public record cut to 40 pieces, then a 41st moved off the board.
    let text = public_record();
    let record = tetris_opt::games::tencent::record::Record::parse(&text).unwrap();
    let spans = record.piece_tokens();
    let mut cut: Vec<String> = spans[..40]
        .iter()
        .flat_map(|span| record.tokens[span.clone()].iter().map(|t| t.to_string()))
        .collect();
    cut.extend(["N".to_string(), "L9".to_string()]);
    let late = scratch.file("late.txt", cut.join(","));
    let r = run(CHECK, &[&tencent_input(), &late]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(!r.stdout.contains("sequence it was made for"), "{r:#?}");
}

/// `check --stats` on the first 369 pieces of a record measured them against the bound of the
/// whole sequence (3.1% scored): the bound is that of the pieces the record covers.
#[test]
fn stats_of_a_partial_record_bound_only_its_pieces() {
    use tetris_opt::kit::fluid::{best_total, contest_points, FluidModel};
    let scratch = Scratch::new("stats-partial");
    let text = public_record();
    let tokens: Vec<&str> = text.trim().split(',').collect();
    let cut = (tokens.iter().enumerate())
        .filter(|(_, t)| **t == "N")
        .nth(369)
        .map(|(i, _)| i)
        .unwrap();
    let record = scratch.file("369.txt", tokens[..cut].join(","));

    let json = run(
        CHECK,
        &[&"--stats", &"--json", &"inputs/tencent.txt", &record],
    );
    assert_eq!(json.code, Some(0), "{json:#?}");
    let report = json_report(&json);
    let stats = &report["stats"];
    assert_eq!(report["pieces_locked"], 369);
    assert_eq!(stats["fluid_bound_pieces"], 369);
    let sequence = std::fs::read_to_string(tencent_input()).unwrap();
    let sequence = tetris_opt::kit::sequence::parse_sequence(&sequence).unwrap();
    let model = FluidModel {
        cap: stats["fullest"].as_u64().unwrap() as u32,
        discount: 1.0,
    };
    let bound = best_total(&sequence[..369], model, contest_points(369)).unwrap();
    assert_eq!(stats["fluid_bound"], bound as u64);
    let scored = report["score"].as_f64().unwrap() / bound;
    assert!(scored > 0.5 && scored <= 1.0, "{scored}");

    let human = run(CHECK, &[&"--stats", &"inputs/tencent.txt", &record]);
    assert_eq!(human.code, Some(0), "{human:#?}");
    let line = (human.stdout.lines())
        .find(|l| l.starts_with("fluid bound"))
        .unwrap_or_else(|| panic!("no bound: {human:#?}"));
    assert!(
        line.starts_with("fluid bound over pieces 1-369 at the fullest board"),
        "{line}"
    );
}
