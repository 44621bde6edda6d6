//! `gen --game browser` and `check --game browser` run as a user runs them, and the viewer page
//! `check --game browser --html` writes.

use crate::common::film::{column, film_of, locked_at};
use crate::common::{chromium, dump_dom, element_text, exe, letters, Scratch};
use std::collections::BTreeSet;

const GEN: &str = env!("CARGO_BIN_EXE_gen");
const CHECK: &str = env!("CARGO_BIN_EXE_check");

#[test]
fn gen_browser_is_7_bags_reproducible_from_the_seed() {
    let a = exe(
        GEN,
        &["--game", "browser", "--seed", "42", "--count", "700"],
    );
    assert_eq!(a.code, Some(0), "{a:#?}");
    assert!(a
        .stdout
        .starts_with("# gen --game browser --seed 42 --count 700\n"));
    let pieces = letters(&a.stdout);
    assert_eq!(pieces.len(), 700);
    for bag in pieces.as_bytes().chunks(7) {
        let kinds: BTreeSet<u8> = bag.iter().copied().collect();
        assert_eq!(kinds.len(), 7, "{}", String::from_utf8_lossy(bag));
    }
    let again = exe(
        GEN,
        &["--game", "browser", "--seed", "42", "--count", "700"],
    );
    assert_eq!(again.stdout, a.stdout);
    let other = exe(
        GEN,
        &["--game", "browser", "--seed", "43", "--count", "700"],
    );
    assert_ne!(letters(&other.stdout), pieces);
    // The first bags of seed 42, for the page to hold its shuffle to (worked out by hand from
    // docs/BROWSER.md's algorithm in another language).
    assert_eq!(&pieces[..14], "JTZOLISSTIJZOL");
    let default = exe(GEN, &["--game", "browser"]);
    assert_eq!(letters(&default.stdout).len(), 10_000);
}

#[test]
fn gen_browser_refuses_other_distributions_and_bad_counts() {
    let out = exe(GEN, &["--game", "browser", "--distribution", "uniform"]);
    assert_eq!(out.code, Some(2));
    assert!(out
        .stderr
        .contains("--distribution is an option of the contest's game, not of the browser game"));
    let out = exe(GEN, &["--game", "browser", "--count", "0"]);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("--count must be at least 1"));
}

#[test]
fn check_browser_prints_the_summary_and_score() {
    let dir = Scratch::new("browser-check");
    let sequence = dir.file("seq.txt", "TJO\n");
    let record = dir.file("rec.txt", "game browser\nU R R D20\nL3 D21\n");
    let out = exe(
        CHECK,
        &[
            "--game",
            "browser",
            sequence.to_str().unwrap(),
            record.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert_eq!(
        out.stdout,
        "pieces placed: 2\nlines: 0 (clears of 1: 0, 2: 0, 3: 0, 4: 0)\nlevel: 1\nend: the record ended before the sequence\nScore = 0\n"
    );
    let json = exe(
        CHECK,
        &[
            "--game",
            "browser",
            "--json",
            sequence.to_str().unwrap(),
            record.to_str().unwrap(),
        ],
    );
    assert_eq!(json.code, Some(0));
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["valid"], true);
    assert_eq!(value["pieces_placed"], 2);
    assert_eq!(value["browser"]["level"], 1);
    assert_eq!(value["end"]["reason"], "record_ended");
    assert_eq!(value["score"], 0);
}

#[test]
fn check_browser_scores_a_clear_and_a_game_over() {
    let dir = Scratch::new("browser-clears");
    // Two I pieces flat on row 19 (columns 0..=3 and 4..=7), an O at columns 8 and 9: one
    // line, 10 points.
    let sequence = dir.file("seq.txt", "IIOT\n");
    let record = dir.file(
        "rec.txt",
        "game browser\n# row 19 from the left\nL3 D20\nR D20\nR4 D21\n",
    );
    let out = exe(
        CHECK,
        &[
            "--game",
            "browser",
            sequence.to_str().unwrap(),
            record.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert_eq!(
        out.stdout,
        "pieces placed: 3\nlines: 1 (clears of 1: 1, 2: 0, 3: 0, 4: 0)\nlevel: 1\nend: the record ended before the sequence\nScore = 10\n"
    );
    // A stack of O pieces in the middle ends the game at the eleventh.
    let mut stack = String::from("game browser\n");
    for k in 0..10 {
        stack += &format!("D{}\n", 21 - 2 * k);
    }
    stack += "D1\n";
    let sequence = dir.file("o.txt", "O".repeat(12));
    let record = dir.file("o-rec.txt", &stack);
    let out = exe(
        CHECK,
        &[
            "--game",
            "browser",
            sequence.to_str().unwrap(),
            record.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert!(out.stdout.contains("pieces placed: 10\n"), "{}", out.stdout);
    assert!(out
        .stdout
        .contains("end: game over at piece 11: it locked in a hidden row\n"));
    assert_eq!(out.last_line(), "Score = 0");
}

#[test]
fn check_browser_exit_codes() {
    let dir = Scratch::new("browser-errors");
    let sequence = dir.file("seq.txt", "T\n");
    let bad = dir.file("bad.txt", "game browser\nR2 X3\n");
    let out = exe(
        CHECK,
        &[
            "--game",
            "browser",
            sequence.to_str().unwrap(),
            bad.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert_eq!(
        out.stdout,
        format!(
            "error: {}:2: piece 1 (T), token 2 'X3': expected L, R, D or U, found 'X'\nScore = 0\n",
            bad.display()
        )
    );
    let json = exe(
        CHECK,
        &[
            "--game",
            "browser",
            "--json",
            sequence.to_str().unwrap(),
            bad.to_str().unwrap(),
        ],
    );
    assert_eq!(json.code, Some(1));
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["valid"], false);
    assert!(value["error"].as_str().unwrap().ends_with("found 'X'"));
    assert_eq!(value["score"], 0);
    // A missing record file: a usage error, with no score: no record was judged.
    let missing = dir.dir.join("missing.txt");
    let out = exe(
        CHECK,
        &[
            "--game",
            "browser",
            sequence.to_str().unwrap(),
            missing.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(2));
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("cannot read record file"));
    // Options of the other games, and a missing record argument.
    let out = exe(
        CHECK,
        &[
            "--game",
            "browser",
            "--stats",
            sequence.to_str().unwrap(),
            bad.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(2));
    let out = exe(CHECK, &["--game", "browser", sequence.to_str().unwrap()]);
    assert_eq!(out.code, Some(2));
    assert!(out
        .stderr
        .contains("needs a sequence file and a record file"));
}

/// `check --game browser --html` writes the viewer's page: a frame per locked piece, where it
/// locked in the game's terms, the score; a browser shows the last frame's board.
#[test]
fn check_browser_writes_the_viewer_page() {
    let dir = Scratch::new("browser-html");
    let sequence = dir.file("seq.txt", "IIOT\n");
    let record = dir.file("rec.txt", "game browser\nL3 D20\nR D20\nR4 D21\n");
    let page = dir.dir.join("page.html");
    let out = exe(
        CHECK,
        &[
            "--game",
            "browser",
            sequence.to_str().unwrap(),
            record.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert!(out.stdout.ends_with("Score = 10\n"), "{out:#?}");
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert!(html.contains("The browser game: 3 pieces placed, 1 line"));
    let film = film_of(&html);
    assert_eq!(film["pieces"], 3);
    assert_eq!(locked_at(&film, 1), "row 18, column 0, 0 quarter turns");
    assert_eq!(column(&film, "score"), [0, 0, 10]);
    let Some(browser) = chromium("browser viewer browser test") else {
        return;
    };
    let dom = dump_dom(&browser, &page, "#piece=3");
    assert_eq!(element_text(&dom, "score"), "10");
    assert_eq!(element_text(&dom, "position"), locked_at(&film, 3));
    let board = element_text(&dom, "board-text");
    assert_eq!(board.lines().last(), Some("|########@@|"), "{board}");
}

/// `solve --game browser` prints a record `check --game browser` scores as the search claims,
/// the same with one thread or two, and refuses the options of the other games.
#[test]
fn solve_browser_gives_a_checked_record_whatever_the_thread_count() {
    let dir = Scratch::new("browser-solve");
    let text = exe(
        env!("CARGO_BIN_EXE_gen"),
        &["--game", "browser", "--seed", "5", "--count", "120"],
    );
    assert_eq!(text.code, Some(0), "{text:#?}");
    let sequence = dir.file("seq.txt", &text.stdout);
    let seq = sequence.to_str().unwrap();
    let solve = |threads: &str| {
        let out = exe(
            env!("CARGO_BIN_EXE_solve"),
            &[
                "--game",
                "browser",
                seq,
                "--beam-width",
                "50",
                "--threads",
                threads,
            ],
        );
        assert_eq!(out.code, Some(0), "{out:#?}");
        out
    };
    let (one, two) = (solve("1"), solve("2"));
    assert_eq!(
        one.stdout, two.stdout,
        "the thread count changed the record"
    );
    let claimed = one.stderr.lines().last().unwrap().to_string();
    assert!(claimed.starts_with("Score = "), "{one:#?}");
    let record = dir.file("moves.txt", &one.stdout);
    let checked = exe(CHECK, &["--game", "browser", seq, record.to_str().unwrap()]);
    assert_eq!(checked.code, Some(0), "{checked:#?}");
    assert_eq!(checked.stdout.lines().last().unwrap(), claimed);
    assert!(
        checked.stdout.contains("pieces placed: 120"),
        "{checked:#?}"
    );
    for (option, value) in [("--judge", None), ("--start-level", Some("3"))] {
        let mut args = vec!["--game", "browser", seq, option];
        args.extend(value);
        let out = exe(env!("CARGO_BIN_EXE_solve"), &args);
        assert_eq!(out.code, Some(2), "{option}: {out:#?}");
        assert!(
            out.stderr.contains(&format!("{option} is an option of")),
            "{option}: {}",
            out.stderr
        );
    }
}

/// `--piece-limit` was silently ignored by `check --game browser`.
#[test]
fn check_browser_refuses_the_options_of_the_other_games() {
    let dir = Scratch::new("browser-unused");
    let sequence = dir.file("seq.txt", "IOT\n");
    let record = dir.file("rec.txt", "game browser\n");
    for (options, named) in [
        (
            vec!["--piece-limit", "5"],
            "--piece-limit is an option of the contest's game",
        ),
        (
            vec!["--stats"],
            "--stats is an option of the contest's game",
        ),
        (
            vec!["--frames"],
            "--frames is an option of NES Tetris (--game nes)",
        ),
        (
            vec!["--trace"],
            "--trace is an option of the contest's game and NES Tetris (--game nes)",
        ),
    ] {
        let mut args = vec!["--game", "browser"];
        args.extend(options);
        args.extend([sequence.to_str().unwrap(), record.to_str().unwrap()]);
        let out = exe(CHECK, &args);
        assert_eq!(out.code, Some(2), "{out:#?}");
        assert_eq!(
            out.stderr,
            format!("error: {named}, not of the browser game (--game browser)\n")
        );
    }
}

/// The fill plan prices the contest's cells; the browser game scores by lines, so a policy
/// file that asks for one is refused (exit 2, naming the file), never silently applied or
/// ignored.
#[test]
fn solve_browser_refuses_a_fill_plan() {
    let dir = Scratch::new("browser-fill-plan");
    let seq = dir.file("seq.txt", "IOTSZLJ\n");
    let plan = dir.file("plan.json", r#"{"fill_plan": {"cap": 175, "weight": 0.5}}"#);
    let (seq, plan) = (seq.to_str().unwrap(), plan.to_str().unwrap());
    let out = exe(
        env!("CARGO_BIN_EXE_solve"),
        &["--game", "browser", seq, "--policy", plan],
    );
    assert_eq!(out.code, Some(2), "{out:#?}");
    assert!(
        out.stderr.contains(&format!(
            "policy file {plan}: fill_plan is for games that score by the fill (--game contest)"
        )),
        "{out:#?}"
    );
    // A file that leaves the plan out, or turns it off, is the browser game's to use.
    for (name, text) in [
        ("off.json", r#"{"fill_plan": null}"#),
        ("endgame.json", r#"{"endgame_pieces": 30}"#),
    ] {
        let file = dir.file(name, text);
        let out = exe(
            env!("CARGO_BIN_EXE_solve"),
            &["--game", "browser", seq, "--policy", file.to_str().unwrap()],
        );
        assert_eq!(out.code, Some(0), "{name}: {out:#?}");
    }
}

/// `play --help` names only the games it makes a page for; another game is refused saying so.
#[test]
fn play_help_lists_only_the_games_with_a_page() {
    let help = exe(env!("CARGO_BIN_EXE_play"), &["--help"]);
    assert_eq!(help.code, Some(0), "{help:#?}");
    assert!(help.stdout.contains("- browser:"), "{}", help.stdout);
    for other in ["- contest:", "- nes:", "- olympiad:"] {
        assert!(!help.stdout.contains(other), "{other}: {}", help.stdout);
    }
    let refused = exe(env!("CARGO_BIN_EXE_play"), &["--game", "nes", "seq.txt"]);
    assert_eq!(refused.code, Some(2), "{refused:#?}");
    assert!(
        refused
            .stderr
            .contains("play makes a page only for browser"),
        "{}",
        refused.stderr
    );
}
