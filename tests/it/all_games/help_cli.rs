//! What `--help` tells a user, held to what the binaries do: every binary has the long help
//! (`-h` the summary), names its sequence file `INPUT`, and `solve --help` says which games
//! take `--from-record`: all four, each of which goes on from its own record's first pieces.

use crate::common::{exe, tencent_input, Scratch};

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");
const GEN: &str = env!("CARGO_BIN_EXE_gen");

#[test]
fn every_binary_has_the_long_help_and_names_its_sequence_input() {
    for (binary, path, input) in [
        ("solve", SOLVE, Some("[INPUT]")),
        ("check", CHECK, Some("<INPUT>")),
        ("gen", GEN, None),
        ("tune", env!("CARGO_BIN_EXE_tune"), None),
        ("merge", env!("CARGO_BIN_EXE_merge"), Some("<INPUT>")),
        ("polish", env!("CARGO_BIN_EXE_polish"), Some("<INPUT>")),
        ("play", env!("CARGO_BIN_EXE_play"), Some("<INPUT>")),
    ] {
        let long = exe(path, &["--help"]);
        let short = exe(path, &["-h"]);
        assert_eq!((long.code, short.code), (Some(0), Some(0)), "{binary}");
        assert!(
            long.stdout.contains("Print help (see a summary with '-h')"),
            "{binary} --help is the short form: {}",
            long.stdout
        );
        assert!(long.stdout.len() > short.stdout.len(), "{binary}");
        let usage = long
            .stdout
            .lines()
            .find(|l| l.starts_with("Usage: "))
            .unwrap();
        if let Some(input) = input {
            assert!(usage.contains(input), "{binary}: {usage}");
        }
    }
}

/// `merge --help` gives each of its arguments a paragraph beyond the summary's line.
#[test]
fn merge_help_says_more_than_its_summary() {
    // Words alone: the help wraps its lines to the terminal's width.
    let words = |flag: &str| {
        let help = exe(env!("CARGO_BIN_EXE_merge"), &[flag]).stdout;
        help.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let (long, short) = (words("--help"), words("-h"));
    for more in [
        "Exit code 0 for a merged record",
        "The sequence every record was made for",
        "uses their pieces that lock at rest",
        "Only the merged record is printed",
    ] {
        assert!(long.contains(more), "{more}: {long}");
        assert!(!short.contains(more), "{more} in -h: {short}");
    }
}

#[test]
fn every_game_goes_on_from_a_record_and_solves_help_says_so() {
    let help = exe(SOLVE, &["--help"]).stdout;
    let from = help.split("--from-record <RECORD>").nth(1).unwrap();
    let from = from.split("\n      --").next().unwrap();
    let from = from.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        from.contains("Every game takes it: contest, nes, browser and olympiad"),
        "{from}"
    );
    let scratch = Scratch::new("from-record-every-game");
    let tencent = tencent_input().display().to_string();
    let generated = |game: &str| {
        let text = exe(GEN, &["--game", game, "--seed", "1", "--count", "60"]);
        assert_eq!(text.code, Some(0), "{text:#?}");
        let path = scratch.file(&format!("{game}.txt"), &text.stdout);
        path.display().to_string()
    };
    let (browser, olympiad) = (generated("browser"), generated("olympiad"));
    // Each game's input and options for a short, narrow solve.
    let nes_start = ["--start-level", "19", "--title-wait", "9"];
    let games: [(&str, Vec<&str>, Vec<&str>); 4] = [
        ("contest", vec![&tencent], vec!["--pieces", "40"]),
        ("nes", vec![], vec!["--pieces", "30"]),
        ("browser", vec![&browser], vec![]),
        ("olympiad", vec![&olympiad], vec![]),
    ];
    for (game, input, options) in games {
        let mut args = vec!["--game", game, "--beam-width", "10", "--quiet"];
        args.extend(&input);
        args.extend(&options);
        let start: &[&str] = if game == "nes" { &nes_start } else { &[] };
        let whole = exe(SOLVE, &[&args[..], start].concat());
        assert_eq!(whole.code, Some(0), "{game}: {whole:#?}");
        let record = scratch.file(&format!("{game}-record.txt"), &whole.stdout);
        let record = record.display().to_string();
        // NES's record names its start: the options that chose it may be left out.
        let from = ["--from-record", record.as_str(), "--from-piece", "20"];
        let rest = exe(SOLVE, &[&args[..], &from].concat());
        assert_eq!(rest.code, Some(0), "{game}: {rest:#?}");
        let out = scratch.file(&format!("{game}-from.txt"), &rest.stdout);
        let mut check = vec!["--game", game];
        check.extend(&input);
        let out = out.display().to_string();
        check.push(&out);
        let checked = exe(CHECK, &check);
        assert_eq!(checked.code, Some(0), "{game}: {checked:#?}");
    }
}
