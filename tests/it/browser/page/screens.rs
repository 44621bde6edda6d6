//! The page's screens as a player meets them: the start screen that waits for a key, the one
//! pause overlay, the one game-over overlay, and the race with `--compare` (the solver's board
//! beside the player's, piece for piece, playing on to its end once the player's game is over,
//! and a final screen that names the winner), its counts grouped by thousands.
//!
//! Every state is reached by a `#test=` script on the page's own clock, never by waiting. The
//! start screen, the race under way and the final screen are saved as screenshots under
//! `target/test-output/play-page/`, their paths printed on stderr.

use super::model::Model;
use super::{
    agree, clearing_plan, number, play_from_start_screen, play_script, sequence, sequence_file,
    write_page, Played,
};
use crate::common::{chromium, element_text, opening_tag, run, wait_or_kill, Scratch};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use tetris_opt::kit::text::grouped;

fn visible(dom: &str, id: &str) -> bool {
    !opening_tag(dom, id).contains("hidden")
}

/// The player's and the solver's settled cells, as the page reports them (`#fields`).
fn fields(played: &Played) -> (String, String) {
    let text = element_text(&played.dom, "fields");
    let (mine, theirs) = text.split_once("\n\n").unwrap_or((&text, ""));
    (mine.to_string(), theirs.to_string())
}

/// `page` opened at `fragment` in a 1280x800 window, saved as `name`.png under
/// `target/test-output/play-page/`; its path is printed on stderr.
fn screenshot(browser: &Path, page: &Path, fragment: &str, name: &str) -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp
        .parent()
        .unwrap_or(tmp)
        .join("test-output")
        .join("play-page");
    std::fs::create_dir_all(&dir).expect("create the screenshot directory");
    let png = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&png);
    let profile = tmp.join(format!("chromium-shot-{}-{name}", std::process::id()));
    let url = format!("file://{}{fragment}", page.display());
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1280,800",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let status = wait_or_kill(&mut child, Duration::from_secs(120), &url);
    let _ = std::fs::remove_dir_all(&profile);
    assert!(status.success(), "chromium failed on {url}: {status}");
    let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("no screenshot {png:?}: {e}"));
    assert!(bytes.starts_with(b"\x89PNG"), "{png:?} is not a PNG");
    let _ = writeln!(std::io::stderr(), "screenshot: {}", png.display());
    png
}

#[test]
fn the_start_screen_waits_for_a_key_and_pause_and_game_over_are_said_once() {
    let scratch = Scratch::new("browser-screens");
    let sequence_path = sequence_file(&scratch);
    let page = write_page(&sequence_path, None, "screens");
    let Some(browser) = chromium("browser page test") else {
        return;
    };
    let first = sequence()[0];
    let spawn_y = if first == 'I' { -1 } else { -2 };
    let spawn_x = if first == 'O' { 4 } else { 3 };
    let spawn = format!("piece=1 kind={first} x={spawn_x} y={spawn_y} counter=0 moves=");

    // Before any key: the start screen, and 600 frames of the clock move nothing.
    let start = play_from_start_screen(&browser, &page, "wait:600");
    assert_eq!(element_text(&start.dom, "screen"), "start");
    assert!(visible(&start.dom, "overlay") && visible(&start.dom, "start-text"));
    assert!(!visible(&start.dom, "overlay-buttons"));
    assert_eq!(element_text(&start.dom, "overlay-title"), "Tetris");
    assert_eq!(element_text(&start.dom, "start-sequence"), "bag7-1.txt");
    for text in [
        "the browser game",
        "move",
        "rotate",
        "down one row",
        "locks the piece",
        "pause",
        "Press a key to start",
    ] {
        assert!(start.dom.contains(text), "the start screen says {text}");
    }
    assert_eq!(start.piece_state, spawn);
    assert_eq!(start.record, "game browser\n");
    // The title stays on the page while playing.
    assert!(visible(&start.dom, "sequence-name"));
    assert!(start.dom.contains("<h1>Tetris <span class=\"game\">"));

    // The first key only starts the game (a Down that does not move the piece); then gravity
    // drops it a row after 36 frames.
    let going = play_from_start_screen(&browser, &page, "Down,wait:36");
    assert_eq!(element_text(&going.dom, "screen"), "playing");
    assert!(!visible(&going.dom, "overlay"));
    assert_eq!(
        going.piece_state,
        format!(
            "piece=1 kind={first} x={spawn_x} y={} counter=0 moves=D",
            spawn_y + 1
        )
    );

    // A move and a drop to the floor, as the model of the rules plays them.
    let (dropped, _) = agree(&browser, &page, "Left,Down*25");
    assert_eq!(dropped.record.lines().count(), 2, "{}", dropped.record);
    assert!(dropped.record.lines().nth(1).unwrap().starts_with("L D"));

    // Pause: one overlay, the clock stopped; P again goes on.
    let paused = play_script(&browser, &page, "P,wait:600");
    assert_eq!(element_text(&paused.dom, "screen"), "paused");
    assert!(visible(&paused.dom, "overlay") && !visible(&paused.dom, "start-text"));
    assert_eq!(element_text(&paused.dom, "overlay-title"), "Paused");
    assert_eq!(paused.piece_state, spawn);
    let resumed = play_script(&browser, &page, "P,wait:600,Escape");
    assert_eq!(element_text(&resumed.dom, "screen"), "playing");
    assert!(!visible(&resumed.dom, "overlay"));

    // Game over: one overlay with the final score and one set of buttons.
    let mut model = Model::new(&sequence());
    let mut presses = 0;
    while !model.over {
        model.play('D');
        presses += 1;
    }
    let (over, _) = agree(&browser, &page, &format!("Down*{presses}"));
    assert_eq!(element_text(&over.dom, "screen"), "over");
    assert!(visible(&over.dom, "overlay") && visible(&over.dom, "overlay-buttons"));
    assert_eq!(over.dom.matches(">Game over<").count(), 1);
    assert_eq!(over.dom.matches("id=\"overlay\"").count(), 1);
    assert_eq!(over.dom.matches(">Download record</button>").count(), 1);
    assert_eq!(over.dom.matches(">Restart</button>").count(), 1);
    let text = element_text(&over.dom, "overlay-text");
    assert!(text.starts_with("You: 0 points, 0 lines ("), "{text}");
    // Without a record to race there is no solver's board and no verdict.
    assert!(!visible(&over.dom, "solver-board"));
    assert!(!visible(&over.dom, "overlay-verdict"));

    // Restart: a fresh game of the same sequence, back at the start screen.
    let again = play_script(&browser, &page, &format!("Down*{presses},Restart,wait:100"));
    assert_eq!(element_text(&again.dom, "screen"), "start");
    assert_eq!(again.record, "game browser\n");
    assert_eq!(again.piece_state, spawn);

    screenshot(&browser, &page, "", "start-screen");
}

#[test]
fn the_solvers_board_races_beside_the_players_and_the_end_names_the_winner() {
    let scratch = Scratch::new("browser-race");
    let sequence_path = sequence_file(&scratch);
    let (scripts, solver) = clearing_plan(10);
    let compare = scratch.file("solver.txt", solver.record());
    let page = write_page(&sequence_path, Some(&compare), "race");
    let Some(browser) = chromium("browser page test") else {
        return;
    };
    let final_score = *solver.scores.last().unwrap();

    let start = play_from_start_screen(&browser, &page, "wait:600");
    assert_eq!(element_text(&start.dom, "screen"), "start");
    assert!(visible(&start.dom, "start-race"));
    assert!(element_text(&start.dom, "start-race").contains("solver.txt"));

    // Two boards, two live scores: after k of the player's pieces the solver's board is its
    // board after its first k, so playing the solver's own moves shows the same two boards.
    let k = (1..solver.scores.len())
        .find(|&k| solver.scores[k] > 0 && solver.scores[k] < final_score)
        .expect("the solver scores along the way");
    let (race, model) = agree(&browser, &page, &scripts[..k].join(","));
    assert!(visible(&race.dom, "player-board") && visible(&race.dom, "solver-board"));
    assert!(race.dom.contains("id=\"field\"") && race.dom.contains("id=\"solver-field\""));
    assert!(race.dom.contains("<span class=\"who\">You</span>"));
    assert_eq!(element_text(&race.dom, "compare-label"), "Solver");
    assert_eq!(number(&element_text(&race.dom, "points")), model.points);
    assert_eq!(
        number(&element_text(&race.dom, "compare")),
        solver.scores[k]
    );
    assert_eq!(element_text(&race.dom, "race-lead"), "Even so far");
    let (mine, theirs) = fields(&race);
    assert_eq!(mine, theirs, "the same moves, the same boards");
    assert!(mine.contains('#'));
    // A player who plays other moves: the solver's board is still its own after as many
    // pieces as the player locked.
    let mut other = Model::new(&sequence());
    let mut downs = 0;
    while other.placed < 2 {
        other.play('D');
        downs += 1;
    }
    let (apart, _) = agree(&browser, &page, &format!("Down*{downs}"));
    let solver_after_2 = fields(&agree(&browser, &page, &scripts[..2].join(",")).0).0;
    assert_eq!(fields(&apart).1, solver_after_2);
    assert_eq!(
        element_text(&apart.dom, "race-lead"),
        lead(0, solver.scores[2])
    );
    assert_eq!(
        number(&element_text(&apart.dom, "compare")),
        solver.scores[2]
    );
    screenshot(
        &browser,
        &page,
        &format!("#test=Start,{}", scripts[..k].join(",")),
        "race",
    );

    // The player stacks up the middle at once: the solver's board plays on from the player's
    // last piece, ten pieces a second, and at its end the card names the winner.
    let mut quick = Model::new(&sequence());
    let mut presses = 0;
    while !quick.over {
        quick.play('D');
        presses += 1;
    }
    let last = solver.scores.len() - 1;
    // The pieces the player locked, the last one in the hidden rows.
    let from = quick.placed + 1;
    assert!(from + 10 < last, "the solver has pieces to play on");
    let (lost, _) = agree(&browser, &page, &format!("Down*{presses}"));
    assert_eq!(element_text(&lost.dom, "screen"), "over");
    assert!(!visible(&lost.dom, "overlay-verdict"));
    assert!(!visible(&lost.dom, "compare-final-part"));
    let at = |played: &Played| number(&element_text(&played.dom, "compare"));
    assert_eq!(at(&lost), solver.scores[from], "no jump to its end");
    let playing = element_text(&lost.dom, "overlay-solver");
    let piece = format!("The solver plays on: piece {from} / {last}, ");
    assert!(playing.starts_with(&piece), "{playing}");
    let (second, _) = agree(&browser, &page, &format!("Down*{presses},wait:60"));
    assert_eq!(at(&second), solver.scores[from + 10], "a second on");
    assert!(element_text(&second.dom, "solver-status").ends_with("(playing on)"));
    for ending in ["wait:1200", "Start"] {
        let (ended, _) = agree(&browser, &page, &format!("Down*{presses},{ending}"));
        assert!(visible(&ended.dom, "overlay-verdict"), "{ending}");
        assert_eq!(
            element_text(&ended.dom, "overlay-verdict"),
            format!("The solver wins by {} points", grouped(final_score))
        );
        assert_eq!(at(&ended), final_score, "{ending}");
        assert!(visible(&ended.dom, "compare-final-part"), "{ending}");
        assert_eq!(
            number(&element_text(&ended.dom, "compare-final")),
            final_score
        );
        let status = element_text(&ended.dom, "solver-status");
        assert_eq!(status, format!("ended after {last} pieces"));
    }
    screenshot(
        &browser,
        &page,
        &format!("#test=Start,Down*{presses},wait:1200"),
        "final-solver-wins",
    );

    // A solver's record that ends after 3 pieces: its board stops there while the player goes
    // on, and the player who clears lines wins by the difference.
    let short: String = solver
        .record()
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    let short_path = scratch.file("short.txt", short);
    let short_page = write_page(&sequence_path, Some(&short_path), "race-short");
    let (ahead, ahead_model) = agree(&browser, &short_page, &scripts[..6].join(","));
    assert_eq!(
        element_text(&ahead.dom, "race-lead"),
        lead(ahead_model.points, solver.scores[3])
    );
    assert_eq!(
        fields(&ahead).1,
        fields(&agree(&browser, &page, &scripts[..3].join(",")).0).0
    );
    assert!(element_text(&ahead.dom, "solver-status").starts_with("ended after 3 pieces"));
    let mut winner = Model::new(&sequence());
    winner.run(&scripts.join(","));
    let mut presses = 0;
    while !winner.over {
        winner.play('D');
        presses += 1;
    }
    let script = format!("{},Down*{presses}", scripts.join(","));
    let (won, model) = agree(&browser, &short_page, &script);
    assert!(model.points >= 100);
    let by = model.points - solver.scores[3];
    assert_eq!(
        element_text(&won.dom, "overlay-verdict"),
        format!("You win by {} points", grouped(by))
    );
    assert_eq!(
        element_text(&won.dom, "overlay-solver"),
        format!(
            "Solver: {} points, {} lines in its 3 pieces",
            solver.scores[3],
            solver.scores[3] / 10
        )
    );
    screenshot(
        &browser,
        &short_page,
        &format!("#test=Start,{script}"),
        "final-you-win",
    );
}

/// The panel's line on who leads the race.
fn lead(mine: u64, theirs: u64) -> String {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => format!("You lead by {}", grouped(mine - theirs)),
        std::cmp::Ordering::Less => format!("The solver leads by {}", grouped(theirs - mine)),
        std::cmp::Ordering::Equal => "Even so far".to_string(),
    }
}

/// A race of 1,200 pieces: a long sequence and a solver's record of it, written by `gen` and
/// `solve`, with the page, and the presses that top the player out at once.
fn long_race(scratch: &Scratch) -> (PathBuf, usize, usize) {
    let text = run(
        env!("CARGO_BIN_EXE_gen"),
        &[&"--game", &"browser", &"--seed", &"3", &"--count", &"1200"],
    );
    assert_eq!(text.code, Some(0), "{text:#?}");
    let sequence_path = scratch.file("long.txt", &text.stdout);
    let solved = run(
        env!("CARGO_BIN_EXE_solve"),
        &[
            &"--game",
            &"browser",
            &sequence_path,
            &"--beam-width",
            &"20",
        ],
    );
    assert_eq!(solved.code, Some(0), "{solved:#?}");
    let pieces = solved.stdout.lines().skip(1).count();
    assert!(pieces >= 1_000, "the solver placed {pieces} pieces");
    let record = scratch.file("long-solver.txt", &solved.stdout);
    let page = write_page(&sequence_path, Some(&record), "race-long");
    let letters: Vec<char> = (text.stdout.lines())
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::chars)
        .collect();
    let mut quick = Model::new(&letters);
    let mut presses = 0;
    while !quick.over {
        quick.play('D');
        presses += 1;
    }
    (page, pieces, presses)
}

/// Every count the race page shows a person has its thousands grouped, as its scores do.
#[test]
fn the_race_page_groups_thousands() {
    let scratch = Scratch::new("browser-race-long");
    let (page, pieces, presses) = long_race(&scratch);
    let Some(browser) = chromium("browser page test") else {
        return;
    };
    let start = play_from_start_screen(&browser, &page, "");
    assert_eq!(element_text(&start.dom, "piece-total"), "1,200");
    let name = element_text(&start.dom, "sequence-name");
    assert!(name.ends_with(" 1,200 pieces"), "{name}");
    assert_eq!(
        element_text(&start.dom, "solver-status"),
        format!("piece 0 / {}", grouped(pieces as u64))
    );
    // The solver's board plays on, faster for a long record: all of it within 20 seconds.
    let lost = play_script(&browser, &page, &format!("Down*{presses},wait:1201"));
    assert_eq!(element_text(&lost.dom, "screen"), "over");
    let solver = element_text(&lost.dom, "overlay-solver");
    let end = format!(" lines in its {} pieces", grouped(pieces as u64));
    assert!(solver.ends_with(&end), "{solver}");
}
