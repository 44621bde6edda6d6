//! A tiny game added to the binaries' registry from outside the crate: dominoes dropped into a
//! field four columns wide, a line for every full row. This folder is the whole game (rules,
//! record, search seam, command-line side) and its tests; the one line that registers it is
//! in [`games`]. The tests play it through the same drivers `solve`, `check` and `gen` use.

mod game;

use game::*;
use std::ffi::OsString;
use std::sync::Mutex;
use tetris_opt::cli::registry::{GameCli as _, NoOptions};
use tetris_opt::cli::{CliError, EXIT_INVALID};

/// A writer whose bytes a test reads.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// `solve` with the command line `words`: the record it wrote, or its error.
fn solve(words: &[&str]) -> Result<String, CliError> {
    let captured = Captured::default();
    let out = captured.clone();
    tetris_opt::cli::drivers::solve_to(&games(), line(words), None, false, &move || {
        Box::new(out.clone())
    })?;
    Ok(captured.text())
}

/// The command line `words` as the drivers take it.
fn line(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
}

/// What the game printed since the last call.
fn printed() -> String {
    std::mem::take(&mut *DOMINOES.out.lock().unwrap_or_else(|e| e.into_inner()))
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dominoes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a temporary file");
    path
}

#[test]
fn solve_plays_the_registered_game_and_check_agrees() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let games = games();
    let sequence = temp("seq.txt", "# forty dominoes\n40\n");
    let seq = sequence.to_str().expect("a UTF-8 path");
    let record = solve(&["solve", "--game", "dominoes", seq, "--rows", "5", "--quiet"])
        .expect("solve plays dominoes");
    assert_eq!(record.lines().count(), 40, "{record}");
    let path = temp("record.txt", &record);
    let rec = path.to_str().expect("a UTF-8 path");
    tetris_opt::cli::drivers::check(
        &games,
        line(&["check", "--game", "dominoes", seq, rec, "--rows", "5"]),
    )
    .expect("the record is valid");
    // Forty dominoes are 80 cells: 20 rows of 4 if every cell ends in a full row.
    assert_eq!(printed(), "Score = 20\n");
}

/// The options every game shares come from the pipeline, with no code of the game's own:
/// `--pieces`, `--json`, `--time-budget`, `--width-changes`, `--distributed` (a job of one
/// process here), and the memory check.
#[test]
fn the_test_game_takes_every_shared_option() {
    let seq = temp("seq-shared.txt", "40\n");
    let seq = seq.to_str().expect("a UTF-8 path");
    let base = ["solve", "--game", "dominoes", seq, "--quiet"];
    let whole = solve(&base).expect("a whole game");
    let with = |more: &[&str]| solve(&[&base[..], more].concat());

    let ten = with(&["--pieces", "10"]).expect("--pieces");
    assert_eq!(ten.lines().count(), 10, "{ten}");

    let json = std::env::temp_dir().join(format!("dominoes-{}.json", std::process::id()));
    let json_path = json.to_str().expect("a UTF-8 path");
    assert_eq!(with(&["--json", json_path]).expect("--json"), whole);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the summary is written"))
            .expect("JSON");
    assert_eq!(summary["game"], "dominoes");
    assert_eq!(summary["score"], 20);
    assert_eq!(summary["end"]["reason"], "sequence_ended");
    assert_eq!(summary["dominoes"]["rows"], 6);
    assert_eq!(summary["beam_width"], 16);

    assert_eq!(with(&["--distributed"]).expect("--distributed"), whole);
    assert_eq!(
        with(&["--time-budget", "1h"])
            .expect("--time-budget")
            .lines()
            .count(),
        40
    );
    let changed = with(&["--width-changes", "10:4"]).expect("--width-changes");
    assert_eq!(changed.lines().count(), 40);
    let late = with(&["--width-changes", "40:4"]).expect_err("past the last depth");
    assert!(
        late.message.contains("past the last of the 40 depths"),
        "{}",
        late.message
    );

    let e = with(&["--beam-width", "0"]).expect_err("a beam of no state");
    assert_eq!(e.code, 2);
    let e = with(&["--pieces", "0"]).expect_err("no piece");
    assert_eq!(e.message, "--pieces must be at least 1");
}

#[test]
fn check_reports_an_invalid_record_with_exit_code_1() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let games = games();
    let seq = temp("seq2.txt", "3\n");
    let rec = temp("bad.txt", "h 0\nh 3\n");
    let args = line(&[
        "check",
        "--game",
        "dominoes",
        seq.to_str().unwrap(),
        rec.to_str().unwrap(),
    ]);
    let e = tetris_opt::cli::drivers::check(&games, args).expect_err("h 3 is off the field");
    assert_eq!(e.code, EXIT_INVALID);
    assert!(printed().contains("bad.txt:2: \"h 3\" does not place a domino\nScore = 0"));
}

#[test]
fn each_game_refuses_the_options_of_the_others() {
    let games = games();
    let seq = temp("seq3.txt", "3\n");
    let seq = seq.to_str().expect("a UTF-8 path");
    let args = line(&["solve", "--game", "dominoes", seq, "--start-level", "18"]);
    let e = tetris_opt::cli::drivers::solve(&games, args, None, false).expect_err("an NES option");
    assert_eq!(
        e.message,
        "--start-level is an option of NES Tetris (--game nes), not of the dominoes game (--game dominoes)"
    );
    let args = line(&["solve", "inputs/tencent.txt", "--rows", "4"]);
    let e =
        tetris_opt::cli::drivers::solve(&games, args, None, false).expect_err("a dominoes option");
    assert_eq!(
        e.message,
        "--rows is an option of the dominoes game (--game dominoes), not of the contest's game"
    );
    assert_eq!(e.code, 2);
}

#[test]
fn the_help_lists_the_game_and_its_default_width() {
    let games = games();
    let help = tetris_opt::cli::drivers::solve_command(&games)
        .unwrap()
        .render_help();
    assert!(help.contains("dominoes"), "{help}");
    assert!(help.contains("16 for dominoes"), "{help}");
    assert!(help.contains("--rows"), "{help}");
}

#[test]
fn gen_prints_the_games_sequence() {
    assert_eq!(
        DOMINOES.generate(&NoOptions {}).expect("a sequence"),
        "# gen --game dominoes\n40\n"
    );
}

/// The variable that makes [`interrupted_child`] run: the file its record goes to.
const CHILD_RECORD: &str = "DOMINOES_RECORD";

/// The child of [`an_interrupt_writes_the_pieces_written_and_says_so`]: a solve whose record
/// goes to a file, interrupted by the pipeline's own signal at a known piece. Ignored in a
/// plain run (it ends its process).
#[test]
#[ignore = "run by an_interrupt_writes_the_pieces_written_and_says_so as a process of its own"]
fn interrupted_child() {
    let path = std::env::var_os(CHILD_RECORD).expect("run as a child, with its record file");
    let seq = temp("seq-child.txt", "40\n");
    let file = std::fs::File::create(path).expect("the record file");
    let args = line(&[
        "solve",
        "--game",
        "dominoes",
        seq.to_str().expect("UTF-8"),
        "--quiet",
    ]);
    let _ = tetris_opt::cli::drivers::solve_to(&games(), args, None, false, &move || {
        Box::new(file.try_clone().expect("the record file"))
    });
    panic!("the interrupt should have ended this process");
}

/// Ctrl-C or SIGTERM reaches the test game through the pipeline, with no code of its own:
/// the pieces written so far stay whole, one line says how many, and the exit code is the
/// signal's.
#[test]
fn an_interrupt_writes_the_pieces_written_and_says_so() {
    let dir = std::env::temp_dir().join(format!("dominoes-child-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let record = dir.join("record.txt");
    let run = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", "interrupted_child", "--ignored", "--nocapture"])
        .env(CHILD_RECORD, &record)
        .env(tetris_opt::cli::interrupt::INTERRUPT_AFTER, "12")
        .output()
        .expect("the child runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(128 + 15), "{stderr}");
    let text = std::fs::read_to_string(&record).expect("the record was written");
    assert_eq!(text.lines().count(), 12, "{text}");
    assert!(
        text.lines().all(|l| Placement::parse(l).is_some()),
        "{text}"
    );
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("interrupted: the record's first 12 pieces are written"),
        "{stderr}"
    );
}
