//! `check` and `solve` run on mutated files of every game: the exit codes, error lines and
//! reports they document, and never a panic.

use super::browser_cases::BROWSER;
use super::contest_cases::{SEQUENCE, TENCENT};
use super::findings::{one_visible_line, wrong, Finding, Tally};
use super::mutate::{file_bytes, mutate, Grammar, Rng};
use super::nes_cases::NES;
use super::olympiad_cases::OLYMPIAD;
use super::starts::{browser_starts, contest_starts, nes_starts, olympiad_starts};
use super::{CHECK, SOLVE};
use crate::common::{run, Run, Scratch};
use std::ffi::OsStr;
use std::path::Path;

/// Which game a run of a binary plays.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Game {
    Contest,
    Nes,
    Browser,
    Olympiad,
}

/// Holds a run of `check` to the contract: exit 0 with `Score = N` last, 1 with the error line
/// of the game's form and `Score = 0` (or the JSON report of an invalid record), 2 with an
/// `error:` line on stderr and nothing on stdout; nothing else, and never a panic. True for a
/// valid record.
///
/// With `verbose` (`--trace`, `--frames`, `--stats`), lines come before the error line, and
/// `--at` may leave a note on stderr.
fn check_contract(
    r: &Run,
    game: Game,
    record: &Path,
    json: bool,
    verbose: bool,
) -> Result<bool, Finding> {
    if r.code == Some(101) || r.stderr.contains("panicked at") {
        return Err(Finding::Panic(format!(
            "exit {:?}: {}",
            r.code,
            r.stderr.trim()
        )));
    }
    match r.code {
        Some(0) if json => {
            let value: serde_json::Value = serde_json::from_str(r.stdout.trim())
                .map_err(|e| Finding::Wrong(format!("exit 0, stdout is not JSON ({e}): {r:?}")))?;
            if value["valid"] != true || !value["score"].is_u64() {
                return wrong(format!("exit 0 with a report not valid: {r:?}"));
            }
            if game == Game::Olympiad && value["score"] != value["pieces_placed"] {
                return wrong(format!("the score is not the pieces placed: {r:?}"));
            }
            Ok(true)
        }
        Some(0) => {
            let last = r.stdout.lines().last().unwrap_or("");
            let score = match last.strip_prefix("Score = ").map(str::parse::<u64>) {
                Some(Ok(score)) => score,
                _ => return wrong(format!("exit 0 without `Score = N` last: {r:?}")),
            };
            let placed = format!("pieces placed: {score}\n");
            if game == Game::Olympiad && !r.stdout.starts_with(&placed) {
                return wrong(format!("the score is not the pieces placed: {r:?}"));
            }
            Ok(true)
        }
        Some(1) => {
            if !r.stderr.lines().all(|l| l.starts_with("note: ")) {
                return wrong(format!("exit 1 with something on stderr: {r:?}"));
            }
            let error = if json {
                let value: serde_json::Value =
                    serde_json::from_str(r.stdout.trim()).map_err(|e| {
                        Finding::Wrong(format!("exit 1, stdout is not JSON ({e}): {r:?}"))
                    })?;
                if value["valid"] != false || value["score"] != 0 || r.stdout.lines().count() != 1 {
                    return wrong(format!("exit 1 with a report not invalid: {r:?}"));
                }
                value["error"].as_str().unwrap_or("").to_string()
            } else {
                let lines: Vec<&str> = r.stdout.lines().collect();
                let errors = lines.iter().filter(|l| l.starts_with("error:")).count();
                match lines[..] {
                    [.., error, "Score = 0"]
                        if error.starts_with("error: ")
                            && errors == 1
                            && (verbose || lines.len() == 2) =>
                    {
                        error["error: ".len()..].to_string()
                    }
                    _ => {
                        return wrong(format!(
                            "exit 1 without one error line and `Score = 0`: {r:?}"
                        ))
                    }
                }
            };
            one_visible_line(&error)?;
            let path = record.display().to_string();
            let form = match game {
                Game::Contest => contest_error_form(&error),
                Game::Nes | Game::Browser => {
                    error.strip_prefix(&format!("{path}:")).is_some_and(|rest| {
                        rest.starts_with(|c: char| c.is_ascii_digit()) && rest.contains(": ")
                    })
                }
                Game::Olympiad => error
                    .strip_prefix(&format!("{path}:"))
                    .is_some_and(olympiad_error_form),
            };
            if !form {
                return wrong(format!(
                    "exit 1, the error is not of the game's form: {error:?}"
                ));
            }
            one_visible_line(&error)?;
            Ok(false)
        }
        Some(2) => {
            // No record was judged: no score, no report.
            if !r.stderr.starts_with("error: ") || !r.stdout.is_empty() {
                return wrong(format!(
                    "exit 2 without an `error:` line on stderr alone: {r:?}"
                ));
            }
            Ok(false)
        }
        code => wrong(format!("exit {code:?}: {r:?}")),
    }
}

/// `piece N (token T 'X'): message`, or the empty record's error.
fn contest_error_form(error: &str) -> bool {
    if error == "piece 1: the record is empty" {
        return true;
    }
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let Some(rest) = error.strip_prefix("piece ") else {
        return false;
    };
    let n = digits(rest);
    let Some(rest) = rest[n..].strip_prefix(" (token ").filter(|_| n > 0) else {
        return false;
    };
    let t = digits(rest);
    let Some(quoted) = rest[t..].strip_prefix(" '").filter(|_| t > 0) else {
        return false;
    };
    quoted
        .split_once("'): ")
        .is_some_and(|(_, what)| !what.is_empty())
}

/// `LINE: piece P (K), token T 'x': message` (or `LINE: piece P: message`, the kind left out
/// past the sequence's end), or the header's and the empty record's errors.
fn olympiad_error_form(error: &str) -> bool {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = digits(error);
    let Some(what) = error[n..].strip_prefix(": ").filter(|_| n > 0) else {
        return false;
    };
    if what.starts_with("the first line must be `game olympiad`, found '")
        || what.starts_with("the record has no `game olympiad` line")
    {
        return true;
    }
    let Some(rest) = what.strip_prefix("piece ") else {
        return false;
    };
    let p = digits(rest);
    let mut rest = &rest[p..];
    if p == 0 {
        return false;
    }
    if let Some(kind) = rest.strip_prefix(" (") {
        let mut chars = kind.chars();
        match (chars.next(), chars.next()) {
            (Some(letter), Some(')')) if "IJLOSTZ".contains(letter) => rest = &kind[2..],
            _ => return false,
        }
    }
    if let Some(token) = rest.strip_prefix(", token ") {
        let t = digits(token);
        let quoted = token[t..].strip_prefix(" '").filter(|_| t > 0);
        return quoted.is_some_and(|q| q.contains("': ") || q.contains("' ("));
    }
    rest.strip_prefix(": ").is_some_and(|m| !m.is_empty())
}

/// Runs `check` on `runs` mutated records (and sequence files) of `game`.
pub(super) fn fuzz_check_binary(game: Game, runs: u64) -> Tally {
    let scratch = Scratch::new("fuzz-check");
    let mut tally = Tally::default();
    let (records, sequences, grammar): (Vec<String>, Vec<String>, &Grammar) = match game {
        Game::Contest => (
            contest_starts().iter().map(|s| s.record.clone()).collect(),
            contest_starts()
                .iter()
                .map(|s| s.sequence.clone())
                .collect(),
            &TENCENT,
        ),
        Game::Browser => (
            browser_starts().iter().map(|s| s.record.clone()).collect(),
            browser_starts()
                .iter()
                .map(|s| s.sequence.clone())
                .collect(),
            &BROWSER,
        ),
        Game::Nes => (nes_starts().to_vec(), Vec::new(), &NES),
        Game::Olympiad => (
            olympiad_starts().iter().map(|s| s.record.clone()).collect(),
            olympiad_starts()
                .iter()
                .map(|s| s.sequence.clone())
                .collect(),
            &OLYMPIAD,
        ),
    };
    for case in 0..runs {
        let mut rng = Rng::for_case(10 + game as u64, case);
        let i = rng.below(records.len());
        let mutate_sequence = game != Game::Nes && rng.one_in(5);
        let record_text = if mutate_sequence {
            records[i].clone()
        } else {
            mutate(&mut rng, &records[i], &records, grammar)
        };
        let record_bytes = if mutate_sequence {
            record_text.clone().into_bytes()
        } else {
            file_bytes(&mut rng, &record_text)
        };
        let record = scratch.file(&format!("record-{case}.txt"), &record_bytes);
        let json = rng.one_in(4);
        let mut args: Vec<&dyn AsRef<OsStr>> = Vec::new();
        let game_name = match game {
            Game::Contest => "contest",
            Game::Nes => "nes",
            Game::Browser => "browser",
            Game::Olympiad => "olympiad",
        };
        args.extend([&"--game" as &dyn AsRef<OsStr>, &game_name]);
        if json {
            args.push(&"--json");
        }
        let html = scratch.dir.join(format!("page-{case}.html"));
        let fm2 = scratch.dir.join(format!("movie-{case}.fm2"));
        let extras = check_extras(&mut rng, game, json);
        let verbose = (extras.iter()).any(|o| ["--trace", "--frames", "--stats"].contains(o));
        args.extend(extras.iter().map(|o| o as &dyn AsRef<OsStr>));
        if game != Game::Browser && rng.one_in(4) {
            args.extend([&"--html" as &dyn AsRef<OsStr>, &html]);
        }
        if game == Game::Nes && rng.one_in(4) {
            args.extend([&"--fm2" as &dyn AsRef<OsStr>, &fm2]);
        }
        let sequence;
        let mut shown = String::from_utf8_lossy(&record_bytes).into_owned();
        if game != Game::Nes {
            let text = if mutate_sequence {
                mutate(&mut rng, &sequences[i], &sequences, &SEQUENCE)
            } else {
                sequences[i].clone()
            };
            let bytes = if mutate_sequence {
                file_bytes(&mut rng, &text)
            } else {
                text.into_bytes()
            };
            if mutate_sequence {
                shown = format!("sequence file {:?}", String::from_utf8_lossy(&bytes));
            }
            sequence = scratch.file(&format!("sequence-{case}.txt"), &bytes);
            args.push(&sequence);
        }
        args.push(&record);
        let r = run(CHECK, &args);
        let mut outcome = check_contract(&r, game, &record, json, verbose);
        let paged = args.iter().any(|a| a.as_ref() == OsStr::new("--html"));
        if game == Game::Olympiad && paged && matches!(outcome, Ok(true)) && !html.exists() {
            outcome = wrong("exit 0 with --html and no page written");
        }
        let options: Vec<String> = args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect();
        tally.record(
            case,
            &format!("check {}: {shown}", options.join(" ")),
            outcome,
        );
        for file in [&record, &html, &fm2] {
            let _ = std::fs::remove_file(file);
        }
    }
    tally
}

/// Options of `check` for `game` besides the files, `--json`, `--html` and `--fm2`: now and then
/// a trace, a breakdown, a rule changed, some of them unusable (`--at 0`, `--piece-limit 1`).
fn check_extras(rng: &mut Rng, game: Game, json: bool) -> Vec<&'static str> {
    let mut extras = Vec::new();
    match game {
        Game::Contest => {
            if !json && rng.one_in(4) {
                extras.push("--trace");
                if rng.one_in(2) {
                    extras.extend([
                        "--at",
                        rng.pick(&["1", "3", "30", "0", "99999", "18446744073709551616"]),
                    ]);
                }
            }
            if rng.one_in(4) {
                extras.push("--stats");
            }
            if rng.one_in(4) {
                extras.push("--judge");
            }
            if rng.one_in(6) {
                extras.extend(["--piece-limit", rng.pick(&["0", "1", "2", "12", "-1"])]);
            }
        }
        Game::Nes if !json => {
            if rng.one_in(4) {
                extras.push("--trace");
            }
            if rng.one_in(6) {
                extras.push("--frames");
            }
        }
        _ => {}
    }
    extras
}

/// Holds a run of `solve` to its contract: exit 0 with a record `check` finds valid, or 2 with
/// an `error:` line; never a panic, never 3.
fn solve_contract(
    r: &Run,
    check_args: &[&dyn AsRef<OsStr>],
    scratch: &Scratch,
    case: u64,
) -> Result<bool, Finding> {
    if r.code == Some(101) || r.stderr.contains("panicked at") {
        return Err(Finding::Panic(format!(
            "exit {:?}: {}",
            r.code,
            r.stderr.trim()
        )));
    }
    match r.code {
        Some(0) => {
            let record = scratch.file(&format!("solved-{case}.txt"), &r.stdout);
            let mut args = check_args.to_vec();
            args.push(&record);
            let checked = run(CHECK, &args);
            if checked.code != Some(0) {
                return wrong(format!("solve's record does not check: {checked:?}"));
            }
            Ok(true)
        }
        Some(2) if r.stderr.starts_with("error: ") && r.stdout.is_empty() => Ok(false),
        code => wrong(format!("exit {code:?}: {r:?}")),
    }
}

/// The options that keep a run of `solve` short.
const SHORT: [&str; 7] = [
    "--pieces",
    "5",
    "--beam-width",
    "5",
    "--quiet",
    "--threads",
    "1",
];

/// Runs `solve` on `runs` mutated sequence files of `game` (contest, browser or olympiad).
pub(super) fn fuzz_solve_binary(game: Game, runs: u64) -> Tally {
    let scratch = Scratch::new("fuzz-solve");
    let (starts, game_name) = match game {
        Game::Browser => (browser_starts(), "browser"),
        Game::Olympiad => (olympiad_starts(), "olympiad"),
        _ => (contest_starts(), "contest"),
    };
    let texts: Vec<String> = starts.iter().map(|s| s.sequence.clone()).collect();
    let mut tally = Tally::default();
    for case in 0..runs {
        let mut rng = Rng::for_case(20 + game as u64, case);
        let i = rng.below(texts.len());
        let text = mutate(&mut rng, &texts[i], &texts, &SEQUENCE);
        let bytes = file_bytes(&mut rng, &text);
        let sequence = scratch.file(&format!("sequence-{case}.txt"), &bytes);
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &game_name, &sequence];
        args.extend(SHORT.iter().map(|o| o as &dyn AsRef<OsStr>));
        let r = run(SOLVE, &args);
        let check_args: [&dyn AsRef<OsStr>; 3] = [&"--game", &game_name, &sequence];
        let outcome = solve_contract(&r, &check_args, &scratch, case);
        tally.record(case, &String::from_utf8_lossy(&bytes), outcome);
    }
    tally
}

/// Runs `solve --game nes` with `runs` mutated starts and options.
pub(super) fn fuzz_solve_nes(runs: u64) -> Tally {
    let scratch = Scratch::new("fuzz-solve-nes");
    let mut tally = Tally::default();
    let levels = [
        "19",
        "18",
        "0",
        "15",
        "20",
        "255",
        "256",
        "-1",
        "19\u{200B}",
        "",
        " 19",
        "\u{663}",
    ];
    let waits = [
        "0",
        "3",
        "9",
        "255",
        "256",
        "99999",
        "4294967296",
        "+3",
        "-0",
        "0x1",
    ];
    let models = [
        "tap:2",
        "tap:10,das",
        "tap:1",
        "tap:61",
        "tap:",
        "tap:4,das,das",
        "tap:255",
    ];
    let lines = ["0", "1", "4", "4294967295", "-1"];
    for case in 0..runs {
        let mut rng = Rng::for_case(30, case);
        let mut options: Vec<String> = vec![
            "--game".into(),
            "nes".into(),
            "--start-level".into(),
            rng.pick(&levels).into(),
            "--title-wait".into(),
            rng.pick(&waits).into(),
        ];
        if rng.one_in(3) {
            options.extend(["--input-model".into(), rng.pick(&models).into()]);
        }
        if rng.one_in(3) {
            options.extend(["--lines".into(), rng.pick(&lines).into()]);
        }
        let mut args: Vec<&dyn AsRef<OsStr>> = options.iter().map(|o| o as _).collect();
        args.extend(SHORT.iter().map(|o| o as &dyn AsRef<OsStr>));
        let r = run(SOLVE, &args);
        let check_args: [&dyn AsRef<OsStr>; 2] = [&"--game", &"nes"];
        let outcome = solve_contract(&r, &check_args, &scratch, case);
        tally.record(case, &format!("solve {}", options.join(" ")), outcome);
    }
    tally
}
