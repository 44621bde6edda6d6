//! `tune`'s arguments refused at once, before any trial, with a one-line error: unusable
//! arguments, numbers no trial can use, widths past the shared limit or the memory, unwritable
//! output files, seeds that run into the contest sequence, a log `tune` did not write, and a
//! sequence given twice.

use super::{files, log_lines, tune};
use crate::common::{manifest_dir, Scratch};
use std::ffi::OsStr;

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

/// Numbers no trial can use are refused before any trial runs: a NaN or infinite score weight
/// would be logged as `null`, fail to parse back and so run again on every resume.
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
        tetris_opt::games::contest::search::BYTES_PER_STATE,
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
/// best-weights path in a missing directory would otherwise fail once every trial had run.
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

/// `--log` appends only to a log `tune` wrote: a weights file or a record given by mistake
/// is refused before any trial and left as it was (not given a trial line),
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
