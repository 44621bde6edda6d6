//! `tune` run as a user runs it: one log line per trial, a resumed run that repeats nothing, a
//! best-weights file that `solve` accepts, and errors for unusable arguments.

use crate::common::{manifest_dir, run, tencent_input, Run, Scratch};
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

#[test]
fn unusable_arguments_are_one_line_errors() {
    let scratch = Scratch::new("tune-unusable");
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    for args in [
        vec!["--seeds", "12358"],
        vec!["--beam-widths", "0"],
        vec!["--pieces", "0"],
        vec!["--weights", "no/such/file.json"],
    ] {
        let mut args: Vec<&dyn AsRef<OsStr>> = args.iter().map(|a| a as _).collect();
        args.extend(files(&log, &best));
        let out = tune(&args);
        assert_eq!(out.code, Some(2), "{out:#?}");
        assert!(!out.stderr.trim().is_empty());
    }
}

/// Runs `tune` on a tiny problem (one short seed, a narrow beam, no holdout, log and best
/// weights in the scratch) with `extra` arguments in place of those (`--inputs` in place of
/// the seed), and asserts it is refused
/// at once: exit 2, `message` on stderr, and no trial run (the log was not even created).
fn refused_before_any_trial(scratch: &Scratch, extra: &[&str], message: &str) {
    let log = scratch.dir.join("log.jsonl");
    let best = scratch.dir.join("best.json");
    let (log, best) = (log.to_str().unwrap(), best.to_str().unwrap());
    let mut args: Vec<&str> = vec!["--pieces", "20", "--holdout", "none"];
    for (option, value) in [
        ("--seeds", "1"),
        ("--beam-widths", "2"),
        ("--log", log),
        ("--best-weights", best),
    ] {
        let seeds_given = option == "--seeds" && extra.contains(&"--inputs");
        if !extra.contains(&option) && !seeds_given {
            args.extend([option, value]);
        }
    }
    args.extend(extra);
    let args: Vec<&dyn AsRef<OsStr>> = args.iter().map(|a| a as _).collect();
    let out = tune(&args);
    assert_eq!(out.code, Some(2), "{extra:?}: {out:#?}");
    assert!(out.stderr.contains(message), "{extra:?}: {out:#?}");
    assert!(
        !std::path::Path::new(log).exists(),
        "{extra:?} ran trials: {out:#?}"
    );
}

/// Numbers no trial can use are refused before any trial runs. A NaN or infinite score weight
/// used to run, be logged as `null`, fail to parse back and so run again on every resume.
#[test]
fn numbers_no_trial_can_use_are_refused_before_any_trial() {
    let scratch = Scratch::new("tune-numbers");
    for (extra, message) in [
        (
            &["--score-weights", "NaN"][..],
            "--score-weights must be a finite number, not NaN",
        ),
        (
            &["--score-weights=0.02,inf"],
            "--score-weights must be a finite number, not inf",
        ),
        (
            &["--score-weights=-inf"],
            "--score-weights must be a finite number, not -inf",
        ),
        (
            &["--spread", "NaN"],
            "--spread must be a finite number, not NaN",
        ),
        (&["--spread", "0"], "--spread must be above 0, not 0"),
        (&["--spread=-0.3"], "--spread must be above 0, not -0.3"),
        (
            &["--generations", "1", "--population", "3", "--elite", "4"],
            "--elite 4 is more than --population 3: lower --elite, or raise --population",
        ),
        (&["--elite", "0"], "--elite must be at least 1"),
        (
            &["--parallel-trials", "0"],
            "--parallel-trials must be at least 1",
        ),
    ] {
        refused_before_any_trial(&scratch, extra, message);
    }
}

/// Beam widths obey the limit every binary shares, and a beam that cannot fit in this
/// machine's memory is refused unless --force is given.
#[test]
fn widths_past_the_shared_limit_or_the_memory_are_refused_unless_forced() {
    let scratch = Scratch::new("tune-widths");
    refused_before_any_trial(
        &scratch,
        &["--beam-widths", "10,100000001"],
        "--beam-widths 100000001 is above the widest beam accepted, 100000000",
    );
    let widest = tetris_opt::cli::limits::MAX_BEAM_WIDTH;
    let needed = tetris_opt::cli::limits::estimated_bytes(
        widest,
        tetris_opt::games::tencent::search::BYTES_PER_STATE,
    );
    if tetris_opt::cli::limits::machine_memory()
        .ok()
        .flatten()
        .is_some_and(|m| m < needed)
    {
        refused_before_any_trial(
            &scratch,
            &["--beam-widths", "100000000"],
            "a beam of 100000000 states needs about",
        );
    }
    // With --force the memory is not checked: the next check, a missing weights file, speaks.
    refused_before_any_trial(
        &scratch,
        &[
            "--beam-widths",
            "100000000",
            "--force",
            "--weights",
            "no/such/file.json",
        ],
        "cannot read weights file no/such/file.json",
    );
}

/// Output files that cannot be written are refused before the search, not after it: a
/// best-weights path in a missing directory used to fail only once every trial had run.
#[test]
fn unwritable_output_files_are_refused_before_any_trial() {
    let scratch = Scratch::new("tune-unwritable");
    let missing = scratch.dir.join("no/such/dir/file");
    let missing = missing.to_str().unwrap();
    refused_before_any_trial(&scratch, &["--best-weights", missing], "--best-weights");
    refused_before_any_trial(&scratch, &["--log", missing], "--log");
    // The best weights written over the log would lose every trial.
    let log = scratch.dir.join("log.jsonl");
    let log = log.to_str().unwrap();
    refused_before_any_trial(
        &scratch,
        &["--best-weights", log],
        "is the trial log (--log)",
    );
}

/// The contest generator's state alone decides its next piece, so a seed whose sequence
/// reaches a state of the contest sequence repeats the contest's pieces from there on: tuning
/// on it fits the held-out sequence. 22063 is the contest sequence shifted by one piece, 3 is
/// on the contest's cycle of 5458 states, and seeds are taken mod 32749.
#[test]
fn seeds_that_run_into_the_contest_sequence_are_refused() {
    let scratch = Scratch::new("tune-seeds");
    for (seeds, message) in [
        (
            "22063",
            "seed 22063 generates the contest sequence from its piece 2 on: it is the held-out \
             sequence",
        ),
        (
            "1,3",
            "seed 3 generates the contest sequence from its piece 2235 on",
        ),
        (
            "45107",
            "seed 45107 (= 12358 mod 32749) generates the contest sequence from its piece 1 on",
        ),
        (
            "12358",
            "seed 12358 generates the contest sequence from its piece 1 on",
        ),
        (
            "1,32750",
            "seed 32750 is seed 1 again (seeds are taken mod 32749)",
        ),
    ] {
        refused_before_any_trial(&scratch, &["--seeds", seeds], message);
    }
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

/// `--log` appends only to a log `tune` wrote: a weights file or a record given by mistake
/// is refused before any trial and left as it was (it used to gain a trial line and exit 0),
/// and `-` is refused, since a log is read back to resume.
#[test]
fn a_log_tune_did_not_write_is_refused_and_left_as_it_was() {
    let scratch = Scratch::new("tune-not-a-log");
    let weights = std::fs::read_to_string(manifest_dir().join("weights/default.json")).unwrap();
    for (name, text) in [
        ("weights.json", weights.as_str()),
        ("record.txt", "N,C1,L1,D18\n"),
        ("one-line.json", "{\"holes\": 4.0}\n"),
    ] {
        let path = scratch.file(name, text);
        let message = format!(
            "--log {}: this file is not a trial log (its line 1 is not a trial): tune appends \
             only to a log it wrote",
            path.display()
        );
        refused_before_any_trial(&scratch, &["--log", path.to_str().unwrap()], &message);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{name}");
    }
    refused_before_any_trial(
        &scratch,
        &["--log", "-"],
        "--log -: the trial log must be a file, not standard output",
    );
    refused_before_any_trial(
        &scratch,
        &["--best-weights", "-"],
        "--best-weights -: standard output carries tune's own output",
    );
    // An empty file is a log with no trial yet.
    let empty = scratch.file("empty.jsonl", "");
    let best = scratch.dir.join("best.json");
    let out = tune(&[
        &"--seeds",
        &"1",
        &"--pieces",
        &"20",
        &"--beam-widths",
        &"2",
        &"--holdout",
        &"none",
        &"--log",
        &empty,
        &"--best-weights",
        &best,
    ]);
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert_eq!(log_lines(&empty).len(), 1);
}

/// A sequence file given twice to `--inputs` (under any name) would count twice in every
/// mean, and `--inputs` with `--seeds` would drop the seeds: both are refused, naming what.
#[test]
fn a_sequence_given_twice_or_inputs_with_seeds_are_refused() {
    let scratch = Scratch::new("tune-inputs");
    let input = scratch.file("s.txt", "IJLOSTZ\n");
    let again = scratch.dir.join(".").join("s.txt");
    let twice = format!("{},{}", input.display(), again.display());
    refused_before_any_trial(
        &scratch,
        &["--inputs", &twice],
        &format!(
            "--inputs: {} is {} again: the same sequence would count twice",
            again.display(),
            input.display()
        ),
    );
    refused_before_any_trial(
        &scratch,
        &["--inputs", input.to_str().unwrap(), "--seeds", "1"],
        "the argument '--inputs <INPUTS>' cannot be used with '--seeds <SEEDS>'",
    );
}
