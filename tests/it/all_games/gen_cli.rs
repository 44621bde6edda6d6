//! `gen` run as a user runs it: the contest sequence byte for byte, long sequences, and the other
//! distributions being reproducible from their seed.

use crate::common::{letters, run, tencent_input, Run};

const GEN: &str = env!("CARGO_BIN_EXE_gen");

fn gen(args: &[&str]) -> Run {
    let args: Vec<&dyn AsRef<std::ffi::OsStr>> = args.iter().map(|a| a as _).collect();
    let out = run(GEN, &args);
    out.assert_no_panic();
    out
}

#[test]
fn with_no_options_it_prints_inputs_tencent_txt_exactly() {
    let out = gen(&[]);
    assert_eq!(out.code, Some(0), "{out:#?}");
    let expected = std::fs::read(tencent_input()).unwrap();
    assert!(
        out.stdout.as_bytes() == expected,
        "gen differs from inputs/tencent.txt"
    );
    // And the figures of RULES.md, worked out from the text rather than from the library.
    let pieces = letters(&out.stdout);
    assert_eq!(pieces.len(), 10_000);
    assert!(pieces.starts_with("ZIOSLZSIZJSSZZIZZJOL"));
    let counts: Vec<usize> = "ILJTOSZ"
        .chars()
        .map(|k| pieces[..9_999].chars().filter(|&c| c == k).count())
        .collect();
    assert_eq!(counts, [722, 957, 1053, 1325, 1649, 2094, 2199]);
}

#[test]
fn a_million_pieces_continue_the_contest_sequence() {
    let out = gen(&["--count", "1000000"]);
    assert_eq!(out.code, Some(0));
    assert_eq!(
        out.stdout.lines().next(),
        Some("# gen --seed 12358 --count 1000000 --distribution contest")
    );
    let pieces = letters(&out.stdout);
    assert_eq!(pieces.len(), 1_000_000);
    assert!(pieces.chars().all(|c| "IJLOSTZ".contains(c)));
    let contest = letters(&std::fs::read_to_string(tencent_input()).unwrap());
    assert!(pieces.starts_with(&contest));
}

#[test]
fn uniform_and_bag7_are_reproducible_from_their_seed() {
    for distribution in ["uniform", "bag7"] {
        let args = [
            "--distribution",
            distribution,
            "--seed",
            "7",
            "--count",
            "700",
        ];
        let first = gen(&args);
        assert_eq!(first.code, Some(0), "{first:#?}");
        assert_eq!(first.stdout, gen(&args).stdout, "{distribution}");
        assert_eq!(letters(&first.stdout).len(), 700);
        let other_seed = gen(&[
            "--distribution",
            distribution,
            "--seed",
            "8",
            "--count",
            "700",
        ]);
        assert_ne!(
            first.stdout, other_seed.stdout,
            "{distribution}: the seed matters"
        );
    }
}

#[test]
fn bag7_deals_each_kind_once_per_seven() {
    let out = gen(&["--distribution", "bag7", "--seed", "7"]);
    assert_eq!(out.code, Some(0));
    let pieces: Vec<char> = letters(&out.stdout).chars().collect();
    assert_eq!(pieces.len(), 10_000);
    assert!(pieces.iter().all(|c| "IJLOSTZ".contains(*c)));
    for (i, bag) in pieces.chunks(7).enumerate() {
        let mut kinds = bag.to_vec();
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds.len(), bag.len(), "bag {i} repeats a kind: {bag:?}");
    }
}

#[test]
fn bag7_shuffles_every_position_of_a_bag_evenly() {
    // 1,428 whole bags: each kind is expected about 204 times at each position (sd about 13).
    // A shuffle missing its last swap would put the first kind first twice as often.
    let out = gen(&["--distribution", "bag7", "--seed", "7", "--count", "9996"]);
    let pieces: Vec<char> = letters(&out.stdout).chars().collect();
    for kind in "IJLOSTZ".chars() {
        for position in 0..7 {
            let n = pieces.chunks(7).filter(|bag| bag[position] == kind).count();
            assert!((150..=260).contains(&n), "{kind} at {position}: {n}");
        }
    }
}

#[test]
fn uniform_draws_all_seven_kinds_evenly() {
    let out = gen(&[
        "--distribution",
        "uniform",
        "--seed",
        "7",
        "--count",
        "70000",
    ]);
    let pieces = letters(&out.stdout);
    for kind in "IJLOSTZ".chars() {
        let n = pieces.chars().filter(|&c| c == kind).count();
        // 10,000 expected; the standard deviation is under 100.
        assert!((9_500..=10_500).contains(&n), "{kind}: {n}");
    }
}

#[test]
fn a_count_of_0_is_refused() {
    let out = gen(&["--count", "0"]);
    assert_eq!(out.code, Some(2));
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr.trim(), "error: --count must be at least 1");
}

/// `gen --game nes` listed title-waits 0-3 of level 19 as four identical rows: what sets them
/// apart (the frame counter's phase) was not shown. Every row now differs from every other.
#[test]
fn nes_starts_show_what_sets_each_apart() {
    for level in ["19", "0", "18"] {
        let out = gen(&["--game", "nes", "--start-level", level]);
        assert_eq!(out.code, Some(0), "{out:#?}");
        let rows: Vec<&str> = out.stdout.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(rows.len() > 1, "{out:#?}");
        let tails: std::collections::BTreeSet<String> = rows
            .iter()
            .map(|r| r.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(
            tails.len(),
            rows.len(),
            "level {level}: rows alike: {rows:?}"
        );
    }
    let out = gen(&["--game", "nes"]);
    assert!(out.stdout.contains(
        "# title-wait first-piece next-piece generator spawn-count spawn-id frame-phase\n"
    ));
}

/// An option of another game is refused with one line naming it and the games it is for,
/// never ignored (`--start-level 18` printed the contest sequence).
#[test]
fn options_of_another_game_are_refused() {
    for (args, option, game) in [
        (
            &["--start-level", "18"][..],
            "--start-level",
            "the contest's game",
        ),
        (
            &["--game", "nes", "--distribution", "uniform"],
            "--distribution",
            "NES Tetris",
        ),
        (&["--game", "nes", "--seed", "3"], "--seed", "NES Tetris"),
        (&["--game", "nes", "--count", "3"], "--count", "NES Tetris"),
        (
            &["--game", "browser", "--distribution", "bag7"],
            "--distribution",
            "the browser game",
        ),
        (
            &["--game", "olympiad", "--start-level", "3"],
            "--start-level",
            "the olympiad's game",
        ),
    ] {
        let out = gen(args);
        assert_eq!(out.code, Some(2), "{args:?}: {out:#?}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing printed");
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {out:#?}");
        let line = out.stderr.trim_end();
        assert!(
            line.starts_with(&format!("error: {option} is an option of"))
                && line.contains(&format!("not of {game}")),
            "{args:?}: {line}"
        );
    }
    // The options of the game chosen are taken.
    assert_eq!(gen(&["--game", "nes", "--start-level", "18"]).code, Some(0));
    assert_eq!(
        gen(&["--game", "olympiad", "--seed", "3", "--count", "9"]).code,
        Some(0)
    );
}

/// `--game tencent`, the contest's name in earlier scripts, still names the contest.
#[test]
fn the_contest_answers_to_its_alias_tencent() {
    let by_name = run(
        GEN,
        &[&"--game", &"contest", &"--seed", &"5", &"--count", &"30"],
    );
    let by_alias = run(
        GEN,
        &[&"--game", &"tencent", &"--seed", &"5", &"--count", &"30"],
    );
    assert_eq!(by_name.code, Some(0), "{by_name:#?}");
    assert_eq!(
        (by_alias.code, &by_alias.stdout),
        (Some(0), &by_name.stdout)
    );
    let help = run(GEN, &[&"--help"]);
    assert!(help.stdout.contains("- contest:"), "{}", help.stdout);
}
