//! What `solve`'s one pipeline gives every game alike, held through the binary on each: an
//! interrupt (injected at a known piece, not by the clock) writes whole, checked pieces and
//! says how to go on; `--distributed` gives the plain record; a record that cannot be
//! written ends the run at once; an MPI launch of a binary without MPI is refused.

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

#[test]
fn an_interrupt_writes_whole_checked_pieces_in_every_game() {
    let scratch = Scratch::new("pipeline-interrupt");
    for (game, args) in games(&scratch) {
        let out = scratch.dir.join(format!("{game}-cut.txt"));
        let (code, stderr) = interrupted(&args, &out, 7);
        assert_eq!(code, Some(128 + 15), "{game}: {stderr}");
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

/// The resume command, as printed, goes on from the pieces written, in every game that
/// starts a search from a record: it names the file the record went to and every option of
/// the run, and its record begins with the pieces kept.
#[test]
fn the_printed_command_resumes_an_interrupted_run() {
    let scratch = Scratch::new("pipeline-resume");
    for (game, args) in games(&scratch) {
        let out = scratch.dir.join(format!("{game}-cut.txt"));
        let (code, stderr) = interrupted(&args, &out, 50);
        assert_eq!(code, Some(143), "{game}: {stderr}");
        let command = stderr
            .split('`')
            .nth(1)
            .unwrap_or_else(|| panic!("{game}: a command: {stderr}"));
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "solve", "{command}");
        let at = |w: &str| words.iter().position(|x| *x == w);
        let from = at("--from-record").expect("--from-record");
        assert_eq!(words[from + 1], out.display().to_string(), "{command}");
        assert_eq!(words[at("--from-piece").expect("--from-piece") + 1], "50");
        let width = args
            .iter()
            .position(|a| a == "--beam-width")
            .expect("a width");
        assert_eq!(
            words[at("--beam-width").expect("the width kept") + 1],
            args[width + 1]
        );
        // The words before `>` are the run's.
        let end = at(">").expect("an output redirect");
        let resumed = exe(SOLVE, &words[1..end]);
        assert_eq!(resumed.code, Some(0), "{game}: {resumed:#?}");
        let kept = std::fs::read_to_string(&out).expect("the record written");
        assert!(
            resumed.stdout.starts_with(kept.trim_end()),
            "{game}: the kept pieces first"
        );
        let path = scratch.file(&format!("{game}-resumed.txt"), &resumed.stdout);
        let checked = check(game, &args, &path);
        assert_eq!(checked.code, Some(0), "{game}: {checked:#?}");
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
