//! `tune` run as a user runs it: one log line per trial, a resumed run that repeats nothing, a
//! best-weights file that `solve` accepts, judge and survival trials, logs cut short or foreign,
//! and a failing standard output; arguments refused before any trial are in `refused`.

mod refused;

use crate::common::{run, tencent_input, Run, Scratch};
use std::ffi::OsStr;

const TUNE: &str = env!("CARGO_BIN_EXE_tune");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");

fn tune(args: &[&dyn AsRef<OsStr>]) -> Run {
    let out = run(TUNE, args);
    out.assert_no_panic();
    out
}

fn log_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every log line is JSON"))
        .collect()
}

/// No holdout (to keep the test short), and the log and best-weights files in the scratch.
fn files<'a, P: AsRef<OsStr>>(log: &'a P, best: &'a P) -> [&'a dyn AsRef<OsStr>; 6] {
    [
        &"--holdout",
        &"none",
        &"--log",
        log,
        &"--best-weights",
        best,
    ]
}

#[test]
fn grid_logs_every_trial_resumes_and_writes_weights_solve_accepts() {
    let scratch = Scratch::new("tune");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![
        &"--seeds",
        &"1,2",
        &"--pieces",
        &"150",
        &"--beam-widths",
        &"10,20",
        &"--score-weights",
        &"0.02,0.03",
        &"--top",
        &"3",
    ];
    args.extend(files(&log, &best));
    let first = tune(&args);
    assert_eq!(first.code, Some(0), "{first:#?}");
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 4, "one line per grid point");
    for l in &lines {
        let scores = l["scores"].as_array().expect("scores per input");
        assert_eq!(scores.len(), 2, "{l}");
        assert!(
            scores.iter().all(|s| s.as_u64().is_some_and(|s| s > 0)),
            "{l}"
        );
    }

    // The same command again runs nothing new and ranks the same trials.
    let second = tune(&args);
    assert_eq!(second.code, Some(0), "{second:#?}");
    assert_eq!(log_lines(&log).len(), 4, "a resumed run repeats no trial");
    assert_eq!(first.stdout, second.stdout);

    // The best weights drive solve.
    let out = run(
        SOLVE,
        &[
            &tencent_input(),
            &"--pieces",
            &"100",
            &"--beam-width",
            &"10",
            &"--weights",
            &best,
        ],
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
}

/// Where stderr is not a terminal (a log file, nohup, CI) the progress bar does not draw: a
/// line per finished trial says where the run is, with the trial's scores and the best so far.
#[test]
fn a_run_logged_to_a_file_prints_a_line_per_trial() {
    let scratch = Scratch::new("tune-progress");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![
        &"--seeds",
        &"1",
        &"--pieces",
        &"60",
        &"--beam-widths",
        &"4,8",
    ];
    args.extend(files(&log, &best));
    let out = tune(&args);
    assert_eq!(out.code, Some(0), "{out:#?}");
    let lines: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("trial "))
        .collect();
    assert_eq!(lines.len(), 2, "{out:#?}");
    assert!(
        lines[0].starts_with("trial 1/2 grid, beam 4, score weight 0.024: mean "),
        "{out:#?}"
    );
    assert!(
        lines[1].starts_with("trial 2/2 grid, beam 8, score weight 0.024: mean "),
        "{out:#?}"
    );
    assert!(lines.iter().all(|l| l.contains("; best mean ")), "{out:#?}");
}

/// `tune --judge` scores what `solve --judge` scores at the same settings, and its trials are
/// logged apart from strict ones: the same grid point under the other rules is run again, not
/// taken from the log.
#[test]
fn judge_trials_score_like_solve_judge_and_do_not_mix_with_strict_ones() {
    let scratch = Scratch::new("tune-judge");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let input = tencent_input();
    let trial = |judge: bool| {
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![
            &"--inputs",
            &input,
            &"--pieces",
            &"500",
            &"--beam-widths",
            &"60",
        ];
        args.extend(files(&log, &best));
        if judge {
            args.push(&"--judge");
        }
        let out = tune(&args);
        assert_eq!(out.code, Some(0), "{out:#?}");
    };
    trial(false);
    trial(true);
    trial(true);
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 2, "one strict and one judge trial: {lines:?}");
    assert_ne!(lines[0]["inputs"], lines[1]["inputs"]);

    let solved = |extra: Option<&str>| {
        let mut args: Vec<&dyn AsRef<OsStr>> =
            vec![&input, &"--pieces", &"500", &"--beam-width", &"60"];
        if let Some(e) = &extra {
            args.push(e);
        }
        let out = run(SOLVE, &args);
        assert_eq!(out.code, Some(0), "{out:#?}");
        out.solve_score()
    };
    assert_eq!(lines[0]["scores"][0].as_u64(), Some(solved(None)));
    assert_eq!(
        lines[1]["scores"][0].as_u64(),
        Some(solved(Some("--judge")))
    );
}

/// A log whose last run was cut off mid-line, or that holds lines of another build, is still
/// resumed: the bad lines are named in a warning, and the next trial lands on a line of its own
/// (not glued to the cut one, which would lose it on the next resume).
#[test]
fn cut_or_foreign_log_lines_are_reported_and_new_trials_stay_readable() {
    let scratch = Scratch::new("tune-cut-log");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let trial = |width: &'static str| {
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![
            &"--seeds",
            &"1",
            &"--pieces",
            &"100",
            &"--beam-widths",
            &width,
        ];
        args.extend(files(&log, &best));
        let out = tune(&args);
        assert_eq!(out.code, Some(0), "{out:#?}");
        out
    };
    trial("10");
    let good = std::fs::read_to_string(&log).unwrap();
    // A line from a build with another weight set, then a trial cut off without its newline.
    let foreign = good.replace("\"cells\"", "\"no_such_weight\"");
    let cut = &good[..good.len() / 2];
    std::fs::write(&log, format!("{good}{foreign}{cut}")).unwrap();

    let out = trial("20");
    assert!(
        out.stderr.contains("2 line(s)") && out.stderr.contains("line 2:"),
        "{out:#?}"
    );
    // The width-10 trial was taken from the log, the width-20 one ran and was appended on its
    // own line after the cut one.
    assert!(
        out.stderr.contains("resuming: 1 of the 1 trials"),
        "{out:#?}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let last: serde_json::Value =
        serde_json::from_str(text.lines().last().unwrap()).expect("the new trial parses");
    assert_eq!(last["params"]["beam_width"], 20);
    let again = trial("20");
    assert!(
        again.stderr.contains("resuming: 2 of the 2 trials"),
        "{again:#?}"
    );
}

/// Surviving, every trial logs the pieces its answers placed and the table ranks by them: a
/// beam of 1 under the weights for points tops out inside 500 pieces on these seeds (the
/// survival weights may not, so they are not the ones tried).
#[test]
fn survive_trials_log_the_pieces_placed() {
    let scratch = Scratch::new("tune-survive");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![
        &"--objective",
        &"survive",
        &"--weights",
        &"weights/default.json",
        &"--seeds",
        &"11,12",
        &"--pieces",
        &"500",
        &"--piece-limit",
        &"0",
        &"--beam-widths",
        &"1",
    ];
    args.extend(files(&log, &best));
    let out = tune(&args);
    assert_eq!(out.code, Some(0), "{out:#?}");
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let pieces = lines[0]["pieces"].as_array().expect("pieces per input");
    assert_eq!(pieces.len(), 2);
    assert!(
        pieces
            .iter()
            .all(|p| p.as_u64().is_some_and(|p| p > 0 && p < 500)),
        "{pieces:?}"
    );
    assert_eq!(lines[0]["params"]["score_weight"], 0.0);
    assert!(lines[0]["inputs"].as_str().unwrap().ends_with(" survive"));
}

/// A standard output that fails (a full disk) is an error, not a panic, and costs only the
/// table: the best weights, the run's result, are written first.
#[test]
fn a_failing_standard_output_is_an_error_and_the_best_weights_are_still_written() {
    let scratch = Scratch::new("tune-full");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let Ok(full) = std::fs::File::create("/dev/full") else {
        return;
    };
    let output = std::process::Command::new(TUNE)
        .args(["--seeds", "1", "--pieces", "30", "--beam-widths", "4"])
        .args(["--holdout", "none", "--log"])
        .arg(&log)
        .arg("--best-weights")
        .arg(&best)
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: cannot write the ranked trials: No space left on device"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let weights = std::fs::read_to_string(&best).expect("the best weights are written");
    assert!(tetris_opt::kit::eval::Weights::from_json(&weights).is_ok());
}
