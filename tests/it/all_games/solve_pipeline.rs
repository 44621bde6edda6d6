//! What `solve`'s one pipeline gives every game alike, held through the binary on each: an
//! interrupt (injected at a known piece, not by the clock) writes whole, checked pieces and
//! says how to go on; `--distributed` gives the plain record; a record that cannot be
//! written ends the run at once; an MPI launch of a binary without MPI, or without
//! `--distributed`, is refused.

use crate::common::{exe, manifest_dir, Scratch};
use std::process::{Command, Stdio};

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");
const GEN: &str = env!("CARGO_BIN_EXE_gen");

/// The solve of each game the tests interrupt: its arguments (a small width and length).
fn games(scratch: &Scratch) -> Vec<(&'static str, Vec<String>)> {
    let sequence = |game: &str, count: &str| {
        let text = exe(GEN, &["--game", game, "--seed", "3", "--count", count]).stdout;
        let path = scratch.file(&format!("{game}.txt"), text);
        path.display().to_string()
    };
    let strings = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    vec![
        (
            "contest",
            strings(&[&sequence("contest", "400"), "--beam-width", "100"]),
        ),
        (
            "browser",
            strings(&[
                "--game",
                "browser",
                &sequence("browser", "300"),
                "--beam-width",
                "50",
            ]),
        ),
        (
            "olympiad",
            strings(&[
                "--game",
                "olympiad",
                &sequence("olympiad", "3000"),
                "--beam-width",
                "5",
            ]),
        ),
        (
            "nes",
            strings(&["--game", "nes", "--beam-width", "30", "--lines", "40"]),
        ),
    ]
}

/// `solve args` with stdout to `out`, interrupted once it has written `after` pieces.
fn interrupted(args: &[String], out: &std::path::Path, after: usize) -> (Option<i32>, String) {
    let file = std::fs::File::create(out).expect("an output file");
    let run = Command::new(SOLVE)
        .args(args)
        .arg("--quiet")
        .env("TETRIS_OPT_INTERRUPT_AFTER", after.to_string())
        .current_dir(manifest_dir())
        .stdout(Stdio::from(file))
        .output()
        .expect("solve starts");
    let stderr = String::from_utf8(run.stderr).expect("UTF-8");
    (run.status.code(), stderr)
}

/// `check` of a record the solve of `args` wrote (NES's record names its own start).
fn check(game: &str, args: &[String], record: &std::path::Path) -> crate::common::Run {
    let record = record.display().to_string();
    let mut words: Vec<&str> = vec!["--game", game];
    if game != "nes" {
        let sequence = args
            .iter()
            .find(|a| a.ends_with(".txt"))
            .expect("a sequence");
        words.push(sequence);
    }
    words.push(&record);
    exe(CHECK, &words)
}

/// An interrupted run leaves no `--json` file: an earlier run's, left in place, would look like
/// this one's.
#[test]
fn an_interrupt_writes_whole_checked_pieces_in_every_game() {
    let scratch = Scratch::new("pipeline-interrupt");
    for (game, mut args) in games(&scratch) {
        let out = scratch.dir.join(format!("{game}-cut.txt"));
        let json = scratch.file(&format!("{game}.json"), "{\"score\": 1}\n");
        args.extend(["--json".to_string(), json.display().to_string()]);
        let (code, stderr) = interrupted(&args, &out, 7);
        assert_eq!(code, Some(128 + 15), "{game}: {stderr}");
        assert!(!json.exists(), "{game}: the earlier run's --json is left");
        let last = stderr.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("interrupted: the record's first 7 pieces are written"),
            "{game}: {stderr}"
        );
        let checked = check(game, &args, &out);
        assert_eq!(checked.code, Some(0), "{game}: {checked:#?}");
        let placed = [
            "pieces locked: 7",
            "pieces placed: 7",
            "7 pieces",
            "pieces: 7",
        ];
        assert!(
            placed.iter().any(|p| checked.stdout.contains(p)),
            "{game}: 7 pieces checked: {checked:#?}"
        );
    }
}

/// The command an interrupt prints goes on from the checkpoint it wrote beside the record to
/// the record the uninterrupted run writes, byte for byte, in every game, wherever the run
/// was stopped; the interrupted record holds the whole pieces written by then.
#[test]
fn the_printed_command_resumes_an_interrupted_run_to_the_same_record() {
    let scratch = Scratch::new("pipeline-resume");
    let stops = |game: &str| match game {
        "olympiad" => [7, 500, 2000],
        "nes" => [7, 30, 60],
        _ => [7, 50, 200],
    };
    for (game, args) in games(&scratch) {
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let whole = exe(SOLVE, &[&words[..], &["--quiet"]].concat());
        assert_eq!(whole.code, Some(0), "{game}: {whole:#?}");
        for after in stops(game) {
            let case = format!("{game} stopped after {after} pieces");
            let out = scratch.dir.join(format!("{game}-{after}-cut.txt"));
            let (code, stderr) = interrupted(&args, &out, after);
            assert_eq!(code, Some(143), "{case}: {stderr}");
            let cut = std::fs::read_to_string(&out).expect("the record written");
            assert!(whole.stdout.starts_with(cut.trim_end()), "{case}");
            let command = stderr
                .split('`')
                .nth(1)
                .unwrap_or_else(|| panic!("{case}: a command: {stderr}"));
            let words: Vec<&str> = command.split_whitespace().collect();
            assert_eq!(words[0], SOLVE, "{command}");
            let checkpoint = format!("{}.checkpoint", out.display());
            assert_eq!(words[1..3], ["--resume", checkpoint.as_str()], "{command}");
            // The words before `>` are the run's.
            let end = words.iter().position(|w| *w == ">").expect("a redirect");
            let resumed = exe(SOLVE, &words[1..end]);
            assert_eq!(resumed.code, Some(0), "{case}: {resumed:#?}");
            assert!(resumed.stdout == whole.stdout, "{case}: the record differs");
            let score = |s: &str| s.lines().last().map(str::to_string);
            assert_eq!(score(&resumed.stderr), score(&whole.stderr), "{case}");
        }
    }
}

/// A checkpoint is refused by a run with other options or another input, naming what differs,
/// and when it is damaged; nothing is written then.
#[test]
fn a_checkpoint_of_another_run_is_refused() {
    let scratch = Scratch::new("pipeline-refused");
    let (game, args) = games(&scratch).swap_remove(0);
    let out = scratch.dir.join("cut.txt");
    let (code, stderr) = interrupted(&args, &out, 20);
    assert_eq!(code, Some(143), "{game}: {stderr}");
    let checkpoint = format!("{}.checkpoint", out.display());
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let resume = |extra: &[&str], words: &[&str]| {
        exe(
            SOLVE,
            &[&["--resume", checkpoint.as_str()], words, extra].concat(),
        )
    };
    let wider = resume(&["--beam-width", "101"], &words[..1]);
    assert_eq!(wider.code, Some(2), "{wider:#?}");
    assert!(wider.stdout.is_empty());
    assert!(
        wider
            .stderr
            .contains("it was made with --beam-width \"100\", this run has \"101\""),
        "{wider:#?}"
    );
    let other = scratch.file(
        "other.txt",
        exe(GEN, &["--seed", "4", "--count", "400"]).stdout,
    );
    let other_input = resume(&["--beam-width", "100"], &[other.to_str().unwrap()]);
    assert_eq!(other_input.code, Some(2), "{other_input:#?}");
    assert!(
        other_input
            .stderr
            .contains("its sequence file had other contents"),
        "{other_input:#?}"
    );
    let mut bytes = std::fs::read(&checkpoint).expect("the checkpoint");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&checkpoint, &bytes).expect("a damaged checkpoint");
    let damaged = resume(&[], &words);
    assert_eq!(damaged.code, Some(2), "{damaged:#?}");
    assert!(damaged.stderr.contains("damaged"), "{damaged:#?}");
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&checkpoint, &bytes).expect("a cut checkpoint");
    let cut = resume(&[], &words);
    assert_eq!(cut.code, Some(2), "{cut:#?}");
    let record = resume(&[], &words);
    assert!(record.stdout.is_empty(), "{record:#?}");
    let not_one = exe(
        SOLVE,
        &[&["--resume", out.to_str().unwrap()], &words[..]].concat(),
    );
    assert_eq!(not_one.code, Some(2), "{not_one:#?}");
    assert!(not_one.stderr.contains("not a checkpoint"), "{not_one:#?}");
}

/// A run killed at any moment (SIGKILL: nothing of it runs after) while it writes a
/// checkpoint after every depth leaves its last whole checkpoint, from which `--resume` goes
/// on to the uninterrupted record.
#[test]
fn a_kill_during_a_checkpoint_leaves_the_last_one_resumable() {
    let scratch = Scratch::new("pipeline-kill");
    let (_, mut args) = games(&scratch).swap_remove(0);
    let width = args
        .iter()
        .position(|a| a == "--beam-width")
        .expect("a width");
    args[width + 1] = "2000".to_string();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let whole = exe(SOLVE, &[&words[..], &["--quiet"]].concat());
    assert_eq!(whole.code, Some(0), "{whole:#?}");
    for kill in 0..3u64 {
        let checkpoint = scratch.dir.join(format!("killed-{kill}.checkpoint"));
        let saving = [
            "--checkpoint",
            checkpoint.to_str().expect("UTF-8"),
            "--checkpoint-every",
            "0.001",
            "--quiet",
        ];
        let mut child = Command::new(SOLVE)
            .args(&words)
            .args(saving)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("solve starts");
        // Killed once its first checkpoint is there, a little later each time (if it ended
        // first, its last checkpoint is there all the same): waited for however long a loaded
        // machine takes, the run itself being the bound.
        while !checkpoint.exists() && child.try_wait().expect("the child").is_none() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::thread::sleep(std::time::Duration::from_millis(kill * 40));
        let _ = child.kill();
        let _ = child.wait();
        let resumed = exe(
            SOLVE,
            &[
                &["--resume", checkpoint.to_str().expect("UTF-8")],
                &words[..],
                &["--quiet"],
            ]
            .concat(),
        );
        assert_eq!(resumed.code, Some(0), "kill {kill}: {resumed:#?}");
        assert!(
            resumed.stdout == whole.stdout,
            "kill {kill}: the record differs"
        );
    }
}

/// `--distributed` without an MPI job is a job of one process: the same record as without it,
/// in every game.
#[test]
fn every_game_runs_distributed_with_the_same_record() {
    let scratch = Scratch::new("pipeline-distributed");
    for (game, args) in games(&scratch) {
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let plain = exe(SOLVE, &[&words[..], &["--quiet"]].concat());
        let spread = exe(SOLVE, &[&words[..], &["--quiet", "--distributed"]].concat());
        assert_eq!(plain.code, Some(0), "{game}: {plain:#?}");
        assert_eq!(spread.code, Some(0), "{game}: {spread:#?}");
        assert_eq!(plain.stdout, spread.stdout, "{game}");
    }
}

/// A record that cannot be written (a full disk) ends the run when the first pieces are
/// decided, not when the search ends: the progress stops far before the last piece.
#[test]
fn a_record_that_cannot_be_written_ends_the_run_at_once() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        assert!(std::env::var_os("CI").is_none(), "/dev/full is missing");
        println!("skipped: no /dev/full");
        return;
    }
    let input = manifest_dir().join("inputs/tencent.txt");
    let run = Command::new(SOLVE)
        .arg(&input)
        .args(["--beam-width", "50", "--progress-every", "0"])
        .stdout(Stdio::from(std::fs::File::create(full).expect("/dev/full")))
        .output()
        .expect("solve starts");
    let stderr = String::from_utf8(run.stderr).expect("UTF-8");
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write the record"), "{stderr}");
    let last_piece = stderr
        .lines()
        .filter_map(|l| {
            l.strip_prefix("piece ")?
                .split('/')
                .next()?
                .parse::<u32>()
                .ok()
        })
        .max()
        .unwrap_or(0);
    assert!(
        last_piece < 5_000,
        "the search went on to piece {last_piece}: {stderr}"
    );
}

/// Under an MPI launcher a binary built without MPI would run the whole search in every
/// process and print as many records: it refuses instead.
#[test]
fn an_mpi_launch_of_a_binary_without_mpi_is_refused() {
    let input = manifest_dir().join("inputs/tencent.txt");
    let run = Command::new(SOLVE)
        .arg(&input)
        .args(["--distributed", "--beam-width", "10", "--pieces", "20"])
        .env("OMPI_COMM_WORLD_SIZE", "2")
        .output()
        .expect("solve starts");
    let stderr = String::from_utf8(run.stderr).expect("UTF-8");
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("one of 2 of an MPI job"), "{stderr}");
    assert!(run.stdout.is_empty());
}

/// `mpirun -np 2 solve ...` without `--distributed` would run the whole search in each process,
/// their records into one output: refused, by process 0 alone (the others end with the same
/// code and no message), whether or not the binary was built with MPI.
#[test]
fn an_mpi_launch_without_distributed_is_refused() {
    let input = manifest_dir().join("inputs/tencent.txt");
    for (variable, rank) in [("OMPI_COMM_WORLD_RANK", "0"), ("PMI_RANK", "1")] {
        let run = Command::new(SOLVE)
            .arg(&input)
            .args(["--beam-width", "10", "--pieces", "20"])
            .env("OMPI_COMM_WORLD_SIZE", "2")
            .env(variable, rank)
            .output()
            .expect("solve starts");
        let stderr = String::from_utf8(run.stderr).expect("UTF-8");
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(run.stdout.is_empty());
        if rank == "0" {
            assert!(
                stderr.contains("one of 2 of an MPI job, but --distributed was not given"),
                "{stderr}"
            );
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        } else {
            assert_eq!(stderr, "", "process {rank} says nothing");
        }
    }
    // A job of one process is no job to refuse.
    let run = Command::new(SOLVE)
        .arg(&input)
        .args(["--beam-width", "10", "--pieces", "20", "--quiet"])
        .env("OMPI_COMM_WORLD_SIZE", "1")
        .output()
        .expect("solve starts");
    assert_eq!(run.status.code(), Some(0), "{run:#?}");
}

/// Standard input can be read once: `solve` refuses it named as two of its inputs before
/// reading either.
#[test]
fn standard_input_named_twice_is_refused() {
    let run = exe(SOLVE, &["-", "--weights", "-"]);
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(
        run.stderr.contains("can be read only once"),
        "{}",
        run.stderr
    );
}
