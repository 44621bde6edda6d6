//! `gen`, `solve` and `check` with `--game olympiad`, run as a user runs them.

use crate::common::{exe, Scratch};

const GEN: &str = env!("CARGO_BIN_EXE_gen");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");

/// A generated sequence of `count` pieces in a scratch file.
fn sequence(scratch: &Scratch, seed: u64, count: usize) -> String {
    let (seed, count) = (seed.to_string(), count.to_string());
    let text = exe(
        GEN,
        &["--game", "olympiad", "--seed", &seed, "--count", &count],
    );
    assert_eq!(text.code, Some(0), "{text:#?}");
    let path = scratch.file("sequence.txt", &text.stdout);
    path.display().to_string()
}

/// Solving writes a record `check` scores as solve claims, the same whatever the thread
/// count; a record survives every piece of a generated sequence at the default width.
#[test]
fn solve_survives_and_check_agrees_whatever_the_threads() {
    let scratch = Scratch::new("olympiad-solve");
    let seq = sequence(&scratch, 3, 3000);
    let one = exe(SOLVE, &["--game", "olympiad", &seq, "--threads", "1"]);
    assert_eq!(one.code, Some(0), "{one:#?}");
    assert!(one.stdout.starts_with("game olympiad\n"));
    assert_eq!(one.stdout.lines().count(), 1 + 3000);
    assert!(one.stderr.contains("Score = 3000"), "{}", one.stderr);
    let two = exe(SOLVE, &["--game", "olympiad", &seq, "--threads", "2"]);
    assert_eq!(two.stdout, one.stdout);
    let record = scratch.file("moves.txt", &one.stdout);
    let record = record.display().to_string();
    let checked = exe(CHECK, &["--game", "olympiad", &seq, &record]);
    assert_eq!(checked.code, Some(0), "{checked:#?}");
    assert_eq!(checked.last_line(), "Score = 3000");
    let json = exe(CHECK, &["--game", "olympiad", &seq, &record, "--json"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["score"], 3000);
    assert_eq!(report["valid"], true);
}

/// A beam of one on alternating S and Z dies; the answer is the line that went
/// furthest, and check agrees on where it ends.
#[test]
fn a_game_that_overflows_answers_with_the_longest_line() {
    let scratch = Scratch::new("olympiad-dies");
    let letters = "SZ".repeat(200);
    let seq = scratch.file("sz.txt", &letters).display().to_string();
    let solved = exe(SOLVE, &["--game", "olympiad", &seq, "--beam-width", "1"]);
    assert_eq!(solved.code, Some(0), "{solved:#?}");
    let placed = solved.stdout.lines().count() - 1;
    assert!(placed < 400, "placed all {placed}");
    assert!(solved.stderr.contains(&format!("Score = {placed}")));
    let record = scratch.file("moves.txt", &solved.stdout);
    let checked = exe(
        CHECK,
        &["--game", "olympiad", &seq, &record.display().to_string()],
    );
    assert_eq!(checked.last_line(), format!("Score = {placed}"));
    assert!(checked
        .stdout
        .contains("end: the record ended before the sequence"));
}

#[test]
fn bad_records_name_the_file_line_piece_and_token() {
    let scratch = Scratch::new("olympiad-errors");
    let seq = scratch.file("seq.txt", "OSI\n").display().to_string();
    for (text, message) in [
        (
            "game olympiad\n0 0\n0 9\n",
            ":3: piece 2 (S), token 2 '9': in that orientation its leftmost column is 0 to 7",
        ),
        (
            "game olympiad\n0 0\n2 0\n",
            ":3: piece 2 (S), token 1 '2': the piece has orientations 0 to 1",
        ),
        (
            "game olympiad\n0 0\n0 0\n0 0\n0 0\n",
            ":5: piece 4: a line past the sequence's last piece (it has 3)",
        ),
        (
            "0 0\n",
            ":1: the first line must be `game olympiad`, found '0 0'",
        ),
    ] {
        let record = scratch.file("bad.txt", text).display().to_string();
        let out = exe(CHECK, &["--game", "olympiad", &seq, &record]);
        assert_eq!(out.code, Some(1), "{out:#?}");
        assert!(
            out.stdout.contains(&format!("error: {record}{message}")),
            "{}",
            out.stdout
        );
        assert_eq!(out.last_line(), "Score = 0");
    }
}

#[test]
fn options_of_other_games_and_other_games_records_are_refused() {
    let scratch = Scratch::new("olympiad-refusals");
    let seq = scratch.file("seq.txt", "OSI\n").display().to_string();
    let policy = exe(
        SOLVE,
        &[
            "--game",
            "olympiad",
            &seq,
            "--policy",
            "policies/endgame-and-fill-plan-off.json",
        ],
    );
    assert_eq!(policy.code, Some(2));
    assert!(
        policy.stderr.contains("--policy is an option of the contest's game and the browser game (--game browser), not of the olympiad's game (--game olympiad)"),
        "{}",
        policy.stderr
    );
    let record = scratch.file("moves.txt", "game olympiad\n0 0\n");
    // A record of another game is an invalid record (exit 1) whose one error line names the
    // game and how to check it, whichever game's check is given it.
    let contest = exe(CHECK, &[&seq, &record.display().to_string()]);
    assert_eq!(contest.code, Some(1), "{contest:#?}");
    assert!(contest.stdout.contains(&format!(
        "{}:1: this is a record of the olympiad's game (--game olympiad), not of the contest's \
         game",
        record.display()
    )));
    assert!(contest.stdout.ends_with("Score = 0\n"), "{contest:#?}");
    for (game, text, named) in [
        ("browser", "game olympiad\n0 0\n", "the olympiad's game"),
        ("olympiad", "game browser\nD\n", "the browser game"),
        ("olympiad", "N,D19\n", "the contest's game"),
        ("nes", "N,D19\n", "the contest's game"),
        ("nes", "game olympiad\n0 0\n", "the olympiad's game"),
    ] {
        let other = scratch.file("other.txt", text);
        let other = other.display().to_string();
        let args: Vec<&str> = match game {
            "nes" => vec!["--game", game, &other],
            _ => vec!["--game", game, &seq, &other],
        };
        let r = exe(CHECK, &args);
        assert_eq!(r.code, Some(1), "{game}: {r:#?}");
        assert!(
            r.stdout
                .contains(&format!("that is a record of {named}: check it with")),
            "{game}: {r:#?}"
        );
    }
    let distribution = exe(GEN, &["--game", "olympiad", "--distribution", "bag7"]);
    assert_eq!(distribution.code, Some(2));
}

/// `--html` writes the viewer's page: a frame per placement with what it removed.
#[test]
fn check_writes_the_viewer_page() {
    let scratch = Scratch::new("olympiad-html");
    let seq = scratch.file("seq.txt", "IIO\n").display().to_string();
    let record = scratch.file("moves.txt", "game olympiad\n0 0\n0 4\n0 8\n");
    let page = scratch.file("page.html", "");
    let out = exe(
        CHECK,
        &[
            "--game",
            "olympiad",
            &seq,
            &record.display().to_string(),
            "--html",
            &page.display().to_string(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("orientation 0, column 8: 1 row removed"));
    assert!(html.contains("3 pieces placed, 1 line, 0 chain clears"));
    let trace = exe(
        CHECK,
        &[
            "--game",
            "olympiad",
            &seq,
            &record.display().to_string(),
            "--trace",
        ],
    );
    assert_eq!(trace.code, Some(2));
}

/// `check --html` wrote no page for a record that does not parse, and said nothing: the page
/// shows the error over the empty field, as the contest's does.
#[test]
fn check_writes_a_page_showing_a_syntax_error() {
    let scratch = Scratch::new("olympiad-html-error");
    let seq = scratch.file("seq.txt", "IIO\n").display().to_string();
    let record = scratch.file("moves.txt", "game olympiad\n0 0\n0 x\n");
    let page = scratch.dir.join("page.html");
    let out = exe(
        CHECK,
        &[
            "--game",
            "olympiad",
            &seq,
            &record.display().to_string(),
            "--html",
            &page.display().to_string(),
        ],
    );
    assert_eq!(out.code, Some(1), "{out:#?}");
    let error = format!(
        "{}:3: piece 2 (I), token 2 'x' (column): expected one digit, 0 to 9, found 'x'",
        record.display()
    );
    assert_eq!(out.stdout, format!("error: {error}\nScore = 0\n"));
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert!(html.contains(&format!("invalid record: {error}")), "{html}");
}
