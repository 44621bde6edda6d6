//! `solve --game nes`'s options: unknown starts, bad input models, zero widths, pieces and lines,
//! NES options without `--game nes` and the contest's arguments refused with a usage error; the
//! shared search options it takes; weights files checked naming the field, fields left out
//! keeping the shipped values; and `merge`, `polish` and `tune` refusing NES.

use super::{assert_usage_error, fixture, solve, MERGE, POLISH, SOLVE, TUNE};
use crate::common::{manifest_dir, run, Scratch};

#[test]
fn an_unknown_start_is_refused_naming_the_level_and_the_range() {
    let r = solve(&["--start-level", "19", "--title-wait", "99999"]);
    assert_usage_error(&r, &["level 19", "title-wait 99999", "0..=255"]);
    let r = solve(&["--start-level", "5", "--title-wait", "32"]);
    assert_usage_error(&r, &["level 5", "0..=31"]);
    // The menu's levels, as the option's help says, whatever the number's type could hold.
    for level in ["20", "255", "256"] {
        let r = solve(&["--start-level", level, "--title-wait", "0"]);
        assert_usage_error(&r, &["--start-level", &format!("{level} is not in 0..=19")]);
    }
}

#[test]
fn bad_input_models_are_refused() {
    for model in ["tap:1", "tap:x", "tap:0", "tap:61", "2", "hold:2", "tap:"] {
        let r = solve(&["--input-model", model, "--pieces", "1", "--beam-width", "1"]);
        assert_usage_error(&r, &["--input-model", model]);
    }
    // What is wrong is said: not the number when the number is fine.
    for (model, what) in [
        ("tap:3,das,das", "`das` once, and nothing after it"),
        ("tap:2,", "nothing after the comma"),
        ("tap:2,dash", "\"dash\" is not `das`"),
        (
            "tap:1",
            "N (\"1\") must be a whole number of frames from 2 to 60",
        ),
    ] {
        let r = solve(&["--input-model", model, "--pieces", "1", "--beam-width", "1"]);
        assert_usage_error(&r, &["--input-model", model, what]);
    }
    let r = solve(&[
        "--title-wait",
        "9",
        "--input-model",
        "tap:60",
        "--pieces",
        "2",
        "--beam-width",
        "5",
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
}

#[test]
fn zero_widths_pieces_and_lines_are_refused() {
    for (option, value) in [("--beam-width", "0"), ("--pieces", "0"), ("--lines", "0")] {
        let r = solve(&["--title-wait", "9", option, value]);
        assert_usage_error(&r, &[option]);
    }
    // Too many lines and none say the same range, from 1.
    for value in ["0", "99999999999"] {
        let r = solve(&["--title-wait", "9", "--lines", value]);
        assert_usage_error(&r, &["--lines", "a number of lines from 1 to 4294967295"]);
    }
}

#[test]
fn nes_options_without_game_nes_are_refused() {
    let input = manifest_dir().join("inputs/tencent.txt");
    for (option, value) in [
        ("--start-level", "19"),
        ("--title-wait", "9"),
        ("--input-model", "tap:2"),
        ("--lines", "10"),
    ] {
        let r = run(SOLVE, &[&input, &option, &value, &"--pieces", &"1"]);
        assert_usage_error(&r, &[option, "is an option of NES Tetris"]);
    }
}

#[test]
fn solve_game_nes_refuses_the_contests_arguments() {
    let input = manifest_dir().join("inputs/tencent.txt");
    let input = input.display().to_string();
    for extra in [
        vec![input.as_str()],
        vec!["--judge"],
        vec!["--weights", "weights/default.json"],
        vec!["--threads", "0"],
        vec!["--beam-width", "100000001"],
    ] {
        let mut args = vec!["--title-wait", "9", "--pieces", "5", "--beam-width", "5"];
        args.extend(extra.iter().copied());
        let r = solve(&args);
        assert_eq!(r.code, Some(2), "{extra:?} is not refused: {r:#?}");
    }
}

/// The search options every game shares work for NES as for the contest: a time budget, the
/// thread count, a memory estimate printed before the search and a refusal past the machine's.
#[test]
fn solve_game_nes_takes_the_shared_search_options() {
    let r = solve(&[
        "--title-wait",
        "9",
        "--pieces",
        "5",
        "--beam-width",
        "5",
        "--time-budget",
        "60",
        "--max-beam-width",
        "50",
        "--threads",
        "2",
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert!(r.stderr.contains("expected peak memory"), "{r:#?}");
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_solve"))
        .args([
            "--game",
            "nes",
            "--title-wait",
            "9",
            "--pieces",
            "5",
            "--beam-width",
            "10000000",
        ])
        .env("TETRIS_OPT_MEMORY", "1G")
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2), "{r:#?}");
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("memory"),
        "{r:#?}"
    );
}

#[test]
fn merge_polish_and_tune_refuse_nes() {
    let input = manifest_dir().join("inputs/tencent.txt");
    let record = manifest_dir().join("tests/fixtures/public-record-1395326.txt");
    let r = run(MERGE, &[&"--game", &"nes", &input, &record]);
    assert_usage_error(&r, &["merge", "NES"]);
    let r = run(POLISH, &[&"--game", &"nes", &input, &record]);
    assert_usage_error(&r, &["polish", "NES"]);
    let scratch = Scratch::new("nes-tune");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let r = run(
        TUNE,
        &[&"--game", &"nes", &"--log", &log, &"--best-weights", &best],
    );
    assert_usage_error(&r, &["tune", "NES"]);
    assert!(
        !log.exists() && !best.exists(),
        "tune wrote before refusing"
    );
    // Merge refuses NES whatever the records are, even the NES fixture.
    let r = run(MERGE, &[&"--game", &"nes", &fixture(), &fixture()]);
    assert_usage_error(&r, &["NES"]);
}

/// `--nes-weights` takes an object of the known fields with numbers, and names what is wrong.
#[test]
fn nes_weights_files_are_validated_naming_the_field() {
    let scratch = Scratch::new("nes-weights");
    let shipped = std::fs::read_to_string(manifest_dir().join("weights/nes-tetris.json")).unwrap();
    let with_mark = scratch.file("bom.json", format!("\u{FEFF}{shipped}"));
    let r = solve(&[
        "--title-wait",
        "9",
        "--pieces",
        "2",
        "--beam-width",
        "5",
        "--nes-weights",
        with_mark.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "a byte-order mark is skipped: {r:#?}");
    let extra = shipped.trim_end().trim_end_matches('}').to_string() + ", \"holes\": 1}";
    let first_field = shipped.split('"').nth(1).unwrap().to_string();
    let wrong_type = shipped.replacen(
        &format!("\"{first_field}\":"),
        &format!("\"{first_field}\": \"x\", \"_\":"),
        1,
    );
    for (text, needle) in [
        ("[1, 2, 3]".to_string(), "array".to_string()),
        (extra, "holes".to_string()),
        (wrong_type, first_field.clone()),
    ] {
        let file = scratch.file("w.json", &text);
        let r = solve(&[
            "--title-wait",
            "9",
            "--pieces",
            "2",
            "--nes-weights",
            file.to_str().unwrap(),
        ]);
        assert_eq!(r.code, Some(2), "{text}: {r:#?}");
        assert!(r.stderr.contains(&needle), "{needle}: {}", r.stderr);
    }
}

/// `--nes-weights` fields left out keep the shipped values, as for `--weights`: a file naming
/// one weight at its shipped value plays the shipped game (a file without every field was
/// refused), and a file cut short is named as such.
#[test]
fn nes_weights_fields_left_out_keep_the_shipped_values() {
    let scratch = Scratch::new("nes-weights-some");
    let args = ["--title-wait", "9", "--pieces", "8", "--beam-width", "20"];
    let shipped = solve(&args);
    assert_eq!(shipped.code, Some(0), "{shipped:#?}");
    let one = scratch.file("one.json", "{\"hole\": 4000.0}");
    let mut with_one = args.to_vec();
    with_one.extend(["--nes-weights", one.to_str().unwrap()]);
    let r = solve(&with_one);
    assert_eq!(r.code, Some(0), "{r:#?}");
    assert_eq!(r.stdout, shipped.stdout);

    let cut = scratch.file("cut.json", "{\"hole\": 4000.0,");
    let mut with_cut = args.to_vec();
    with_cut.extend(["--nes-weights", cut.to_str().unwrap()]);
    let r = solve(&with_cut);
    assert_eq!(r.code, Some(2), "{r:#?}");
    let message = format!(
        "error: weights file {}: the file ends before its JSON does (line 1, column 16): is it \
         cut short?",
        cut.display()
    );
    assert_eq!(r.stderr.trim_end(), message);
}
