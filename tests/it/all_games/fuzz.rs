//! A deterministic mutation fuzzer over every game's record and sequence readers, held to the
//! contract the binaries document: no input makes a reader or a replay panic, every error
//! renders in its game's documented form (one line, naming where it is), and `check` and
//! `solve` exit 0, 1 or 2 on whatever they are given (3 is a bug of ours, 101 a panic).
//!
//! The inputs start from valid ones (records `solve` writes, the NES fixtures) and are mutated:
//! characters flipped, ranges inserted, deleted, duplicated and spliced from other inputs,
//! tokens and numbers replaced (huge, zero, signed), invisible characters (U+200B, U+FEFF,
//! NBSP, U+2028) and CR/LF mixes inserted, truncation, empty files and header lines changed.
//! Case `i` of a game is drawn from its own seed, so a finding is reproduced by its number.
//!
//! The olympiad's two engines (the plain one `check` replays with, the bitboard one the search
//! plays) are also played side by side on games of random placements, any difference a finding.
//!
//! `cargo test --release --test it fuzz::` runs a few thousand library cases per game and a few
//! dozen runs of the binaries, printing the counts. `bench/fuzz.sh` (the ignored `long_*`
//! tests with `FUZZ_CASES`) runs as many library cases per game as asked.

mod binaries;
mod browser_cases;
mod contest_cases;
mod findings;
mod mutate;
mod nes_cases;
mod olympiad_cases;
mod starts;

use binaries::{fuzz_check_binary, fuzz_solve_binary, fuzz_solve_nes, Game};
use browser_cases::fuzz_browser;
use contest_cases::fuzz_contest;
use findings::{long_cases, one_visible_line, Tally};
use nes_cases::fuzz_nes;
use olympiad_cases::{fuzz_olympiad, fuzz_olympiad_engines};
use std::time::Instant;
use tetris_opt::games::nes;

const CHECK: &str = env!("CARGO_BIN_EXE_check");
const GEN: &str = env!("CARGO_BIN_EXE_gen");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");

/// Library cases per game in the default run.
const LIBRARY_CASES: u64 = 10_000;
/// Runs of `check` per game in the default run (each one a process).
const CHECK_RUNS: u64 = 120;
/// Runs of `solve` per game in the default run.
const SOLVE_RUNS: u64 = 25;
/// Games of random placements on the olympiad's two engines in the default run (each up to
/// 300 placements, so a game weighs as much as a few dozen record cases).
const ENGINE_GAMES: u64 = 5_000;
/// Findings kept per game to print (the counts are complete).
const EXAMPLES: usize = 6;

// ---------------------------------------------------------------------------------------------
// The tests

/// Runs `fuzz` over `cases` cases and reports it as `name`.
fn timed(name: &str, fuzz: impl FnOnce() -> Tally) {
    let began = Instant::now();
    let tally = fuzz();
    tally.report(name, began.elapsed().as_secs_f64());
}

#[test]
fn contest_readers_and_replay_survive_mutated_records() {
    timed("contest library", || fuzz_contest(0, LIBRARY_CASES));
}

#[test]
fn nes_reader_and_replay_survive_mutated_records() {
    timed("nes library", || fuzz_nes(0, LIBRARY_CASES));
}

#[test]
fn browser_reader_and_replay_survive_mutated_records() {
    timed("browser library", || fuzz_browser(0, LIBRARY_CASES));
}

#[test]
fn olympiad_reader_and_replay_survive_mutated_records() {
    timed("olympiad library", || fuzz_olympiad(0, LIBRARY_CASES));
}

#[test]
fn olympiad_engines_play_random_placements_alike() {
    timed("olympiad engines", || {
        fuzz_olympiad_engines(0, ENGINE_GAMES)
    });
}

#[test]
fn check_keeps_its_exit_codes_on_mutated_files() {
    for (game, name) in [
        (Game::Contest, "contest check"),
        (Game::Nes, "nes check"),
        (Game::Browser, "browser check"),
        (Game::Olympiad, "olympiad check"),
    ] {
        timed(name, || fuzz_check_binary(game, CHECK_RUNS));
    }
}

#[test]
fn solve_keeps_its_exit_codes_on_mutated_inputs() {
    timed("contest solve", || {
        fuzz_solve_binary(Game::Contest, SOLVE_RUNS)
    });
    timed("browser solve", || {
        fuzz_solve_binary(Game::Browser, SOLVE_RUNS)
    });
    timed("nes solve", || fuzz_solve_nes(SOLVE_RUNS));
    timed("olympiad solve", || {
        fuzz_solve_binary(Game::Olympiad, SOLVE_RUNS)
    });
}

#[test]
#[ignore = "long: FUZZ_CASES cases (default 1,000,000); bench/fuzz.sh runs it"]
fn long_contest() {
    timed("contest library (long)", || {
        fuzz_contest(LIBRARY_CASES, long_cases())
    });
}

#[test]
#[ignore = "long: FUZZ_CASES cases (default 1,000,000); bench/fuzz.sh runs it"]
fn long_nes() {
    timed("nes library (long)", || {
        fuzz_nes(LIBRARY_CASES, long_cases())
    });
}

#[test]
#[ignore = "long: FUZZ_CASES cases (default 1,000,000); bench/fuzz.sh runs it"]
fn long_browser() {
    timed("browser library (long)", || {
        fuzz_browser(LIBRARY_CASES, long_cases())
    });
}

#[test]
#[ignore = "long: FUZZ_CASES cases (default 1,000,000); bench/fuzz.sh runs it"]
fn long_olympiad() {
    timed("olympiad library (long)", || {
        fuzz_olympiad(LIBRARY_CASES, long_cases())
    });
}

#[test]
#[ignore = "long: FUZZ_CASES / 10 games (each up to 300 placements); bench/fuzz.sh runs it"]
fn long_olympiad_engines() {
    timed("olympiad engines (long)", || {
        fuzz_olympiad_engines(ENGINE_GAMES, long_cases() / 10)
    });
}

// ---------------------------------------------------------------------------------------------
// Defects the fuzzer found, each with the input that shows it (ignored until fixed)

/// The NES reader's error for `text`.
fn nes_error(text: &str) -> String {
    nes::record::Record::parse(text)
        .expect_err("the record is refused")
        .to_string()
}

#[test]
fn nes_errors_name_invisible_characters_by_code_point() {
    let start = "game nes\nstart-level 19\ntitle-wait 0\ninputs\n";
    for text in [
        format!("{start}.*\u{200B}5\n"),
        format!("{start}R\u{7F}\n"),
        format!("{start}B*\u{202E}12\n"),
        "\u{200B}\n".to_string(),
        "game\u{1B}nes\n".to_string(),
    ] {
        let message = nes_error(&text);
        assert!(
            one_visible_line(&message).is_ok(),
            "{text:?}: the error shows nothing where the character is: {message:?}"
        );
    }
}

#[test]
fn an_nes_record_with_a_byte_order_mark_is_read() {
    let text = "\u{FEFF}game nes\nstart-level 19\ntitle-wait 0\ninputs\n.*5\n";
    let plain = nes::record::Record::parse(&text['\u{FEFF}'.len_utf8()..]);
    assert_eq!(nes::record::Record::parse(text), plain);
}
