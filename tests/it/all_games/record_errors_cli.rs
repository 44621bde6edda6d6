//! A record file as every binary that reads one meets it: one that does not parse is an invalid
//! record (exit 1, the error naming the file, the piece and the token), as in `check`; one that
//! cannot be read at all is unusable (exit 2), and `check` gives it no score; one that does
//! not fit its sequence makes every game's `check` ask whether it is the record's.

use super::json_cli::{check, solved};
use crate::common::{exe, run, tencent_input, Run, Scratch};
use std::ffi::OsStr;

const CHECK: &str = env!("CARGO_BIN_EXE_check");
const MERGE: &str = env!("CARGO_BIN_EXE_merge");
const POLISH: &str = env!("CARGO_BIN_EXE_polish");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const GEN: &str = env!("CARGO_BIN_EXE_gen");

/// The options after the record's path that make each binary read it; cheap where it goes on.
fn run_with_record(exe: &str, record: &dyn AsRef<OsStr>) -> Run {
    let input = tencent_input();
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![&input];
    if exe == SOLVE {
        args.extend([&"--from-piece" as &dyn AsRef<OsStr>, &"1", &"--from-record"]);
    }
    args.push(record);
    if exe == SOLVE {
        args.extend([
            &"--pieces" as &dyn AsRef<OsStr>,
            &"5",
            &"--beam-width",
            &"1",
        ]);
    }
    let r = run(exe, &args);
    r.assert_no_panic();
    r
}

#[test]
fn a_record_that_does_not_parse_is_invalid_everywhere() {
    let scratch = Scratch::new("record-errors");
    let garbage = scratch.file("garbage.txt", "N,D19,N,X9");
    for exe in [CHECK, MERGE, POLISH, SOLVE] {
        let r = run_with_record(exe, &garbage);
        assert_eq!(r.code, Some(1), "{exe}: {r:#?}");
        let error = (r.stdout.lines().chain(r.stderr.lines()))
            .find(|l| l.starts_with("error: "))
            .unwrap_or_else(|| panic!("{exe}: no error line: {r:#?}"));
        assert!(
            error.contains("piece 2 (token 4 'X9'): expected N, L, R, D or C, found 'X'"),
            "{exe}: {error}"
        );
        if exe != CHECK {
            assert!(error.contains("garbage.txt"), "{exe}: {error}");
            assert!(r.stdout.is_empty(), "{exe}: {r:#?}");
        }
    }
}

#[test]
fn an_empty_record_file_is_invalid_everywhere() {
    let scratch = Scratch::new("record-empty");
    let empty = scratch.file("empty.txt", " \n");
    for exe in [CHECK, MERGE, POLISH, SOLVE] {
        let r = run_with_record(exe, &empty);
        assert_eq!(r.code, Some(1), "{exe}: {r:#?}");
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(
            all.contains("piece 1: the record is empty"),
            "{exe}: {r:#?}"
        );
    }
}

#[test]
fn a_record_file_that_cannot_be_read_is_unusable_everywhere() {
    let scratch = Scratch::new("record-missing");
    let missing = scratch.dir.join("missing.txt");
    let binary = scratch.file("binary.txt", b"N,\xff\xfeD1");
    for exe in [CHECK, MERGE, POLISH, SOLVE] {
        for (path, needle) in [
            (&missing, "cannot read record file"),
            (&binary, "is not text"),
        ] {
            let r = run_with_record(exe, path);
            assert_eq!(r.code, Some(2), "{exe}: {r:#?}");
            assert!(r.stderr.contains(needle), "{exe}: {r:#?}");
        }
    }
}

/// A record file that cannot be read (missing, a directory) is no record judged, in every
/// game's `check`: its error on stderr and exit 2, with no score and no report on stdout,
/// `--json` or not (a record that was read and is invalid ends in `Score = 0`).
#[test]
fn a_record_file_that_cannot_be_read_gets_no_score_in_any_game() {
    let scratch = Scratch::new("record-unreadable-score");
    let sequence = scratch.file("seq.txt", "TJOSZLI\n");
    let missing = scratch.dir.join("missing.txt");
    for game in ["contest", "nes", "browser", "olympiad"] {
        for record in [&missing, &scratch.dir] {
            for json in [None, Some("--json")] {
                let mut args = vec!["--game", game];
                if game != "nes" {
                    args.push(sequence.to_str().unwrap());
                }
                args.push(record.to_str().unwrap());
                args.extend(json);
                let r = exe(CHECK, &args);
                assert_eq!(r.code, Some(2), "{args:?}: {r:#?}");
                assert_eq!(r.stdout, "", "{args:?}: {r:#?}");
                let error = format!("error: cannot read record file {}: ", record.display());
                assert!(r.stderr.starts_with(&error), "{args:?}: {r:#?}");
            }
        }
    }
}

/// A file that never ends (`/dev/zero`) or is far larger than any input made here is refused
/// once its first 256 MiB are read, naming it, by every reader: records, sequences, weights.
#[test]
fn a_file_past_the_size_limit_is_refused_by_every_reader() {
    let endless = std::path::Path::new("/dev/zero");
    let message = |what: &str| format!("{what} /dev/zero is larger than 256 MiB");
    for exe in [CHECK, MERGE, POLISH, SOLVE] {
        let r = run_with_record(exe, &endless);
        assert_eq!(r.code, Some(2), "{exe}: {r:#?}");
        assert!(r.stderr.contains(&message("record file")), "{exe}: {r:#?}");
    }
    let input = tencent_input();
    let cases: Vec<(&str, Vec<&dyn AsRef<OsStr>>, &str)> = vec![
        (SOLVE, vec![&endless], "sequence file"),
        (SOLVE, vec![&input, &"--weights", &endless], "weights file"),
        (SOLVE, vec![&input, &"--policy", &endless], "policy file"),
        (
            CHECK,
            vec![&"--game", &"olympiad", &input, &endless],
            "record file",
        ),
        (CHECK, vec![&endless, &"-"], "sequence file"),
    ];
    for (exe, args, what) in cases {
        let r = run(exe, &args);
        r.assert_no_panic();
        assert_eq!(r.code, Some(2), "{exe} {what}: {r:#?}");
        assert!(r.stderr.contains(&message(what)), "{exe} {what}: {r:#?}");
    }
}

/// Garbage can be long (a 100,000-digit count, a file of another kind on one line): every
/// reader's message quotes it cut to 40 characters and `...`, on one short line.
#[test]
fn long_tokens_are_quoted_cut_short_by_every_reader() {
    let scratch = Scratch::new("record-long");
    let digits = "7".repeat(100_000);
    let count = scratch.file("count.txt", format!("N,D{digits}"));
    let r = run_with_record(CHECK, &count);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(r.stdout.len() < 200, "{r:#?}");
    let cut = format!("D{}...", "7".repeat(39));
    assert!(
        r.stdout.contains(&format!(
            "piece 1 (token 2 '{cut}'): the count is too large"
        )),
        "{r:#?}"
    );

    // The browser game's record.
    let browser = scratch.file("browser.txt", format!("game browser\nL{digits}\n"));
    let r = run(CHECK, &[&"--game", &"browser", &tencent_input(), &browser]);
    r.assert_no_panic();
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(r.stdout.len() + r.stderr.len() < 300, "{r:#?}");
    assert!(
        (r.stdout.clone() + &r.stderr).contains(&format!("'L{}...'", "7".repeat(39))),
        "{r:#?}"
    );

    // A sequence file names one character, never the rest of the line.
    let sequence = scratch.file("sequence.txt", format!("IJ{digits}"));
    let record = scratch.file("record.txt", "N,D19");
    let r = run(CHECK, &[&sequence, &record]);
    r.assert_no_panic();
    assert_eq!(r.code, Some(2), "{r:#?}");
    assert!(r.stderr.len() < 300, "{r:#?}");
    assert!(
        r.stderr
            .contains("line 1, column 3: '7' is not a piece letter"),
        "{r:#?}"
    );
}

/// `merge`, `polish` and `solve --from-record` given another game's record said only that its
/// first token was no move, and `check` named line 1 for a header after a comment: every
/// reader says whose record it is, naming the file and the header's line.
#[test]
fn a_record_of_another_game_is_named_as_such_everywhere() {
    let scratch = Scratch::new("record-other-game");
    for (name, text, game) in [
        (
            "nes.txt",
            "# from the NES solver\ngame nes\nstart-level 19\ntitle-wait 9\ninputs\n.\n",
            "NES Tetris (--game nes)",
        ),
        (
            "browser.txt",
            "\ngame browser\nD\n",
            "the browser game (--game browser)",
        ),
        (
            "olympiad.txt",
            "# mine\ngame olympiad\n0 0\n",
            "the olympiad's game (--game olympiad)",
        ),
        (
            "shouting.txt",
            "# mine\nGame NES\ninputs\n",
            "NES Tetris (--game nes)",
        ),
    ] {
        let record = scratch.file(name, text);
        let expected = format!(
            "error: {}:2: this is a record of {game}, not of the contest's game",
            record.display()
        );
        for exe in [CHECK, MERGE, POLISH, SOLVE] {
            let r = run_with_record(exe, &record);
            assert_eq!(r.code, Some(1), "{exe} {name}: {r:#?}");
            let errors: Vec<&str> = (r.stdout.lines().chain(r.stderr.lines()))
                .filter(|l| l.starts_with("error: "))
                .collect();
            assert_eq!(errors, [expected.as_str()], "{exe} {name}: {r:#?}");
        }
    }
}

/// `check SEQUENCE - < nes.txt` replayed the NES record as moves, and the other games' checks
/// named standard input `-`: a record from standard input is named as such, with its game.
#[test]
fn a_record_on_standard_input_is_named_as_such() {
    let scratch = Scratch::new("record-stdin");
    let sequence = scratch.file("seq.txt", "TJO\n");
    let sequence = sequence.to_str().unwrap();
    let input = tencent_input();
    let nes = "# mine\ngame nes\nstart-level 19\ntitle-wait 9\ninputs\n.\n";
    for (args, text, error) in [
        (
            vec![input.to_str().unwrap(), "-"],
            nes,
            "standard input:2: this is a record of NES Tetris (--game nes), not of the contest's \
             game",
        ),
        (
            vec!["--game", "olympiad", sequence, "-"],
            nes,
            "standard input:2: the first line must be `game olympiad`, found 'game nes'; that is \
             a record of NES Tetris: check it with `check --game nes RECORD`",
        ),
        (
            vec!["--game", "nes", "-"],
            "game nes\nstart-level 19\ntitle-wait 9\ninputs\nRX\n",
            "standard input:5: token 'RX': 'X' is not a button (R, L, D, U, A, B, s, or '.' for \
             none)",
        ),
    ] {
        let out = check_with_stdin(&args, text);
        assert_eq!(out.code, Some(1), "{args:?}: {out:#?}");
        assert_eq!(
            out.stdout,
            format!("error: {error}\nScore = 0\n"),
            "{args:?}"
        );
    }
}

/// Runs `check` with `args`, `text` on its standard input.
fn check_with_stdin(args: &[&str], text: &str) -> Run {
    use std::io::Write;
    let mut child = std::process::Command::new(CHECK)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start check");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(text.as_bytes()).expect("write the record");
    drop(stdin);
    let out = child.wait_with_output().expect("check runs");
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8"),
    };
    run.assert_no_panic();
    run
}

/// An olympiad record ending in a blank line failed to check (`found an empty line`), and a
/// browser record's became a piece without moves: the blank lines and trailing whitespace an
/// editor leaves at a record's end are no part of it, in every game.
#[test]
fn every_games_record_may_end_in_blank_lines() {
    let scratch = Scratch::new("record-blank-end");
    let tail = "\n\n \t\n\r\n";
    let sequence = scratch.file("seq.txt", "TJO\n");
    let fixture = |path: &str| {
        std::fs::read_to_string(crate::common::manifest_dir().join(path)).expect("a fixture")
    };
    let contest = scratch.file("contest.txt", crate::common::public_record() + tail);
    let nes = scratch.file(
        "nes.txt",
        fixture("tests/fixtures/nes/solver-level19-wait9.txt") + tail,
    );
    let olympiad = scratch.file("olympiad.txt", format!("game olympiad\n0 0  {tail}"));
    let browser = scratch.file(
        "browser.txt",
        format!("game browser\nU R R D20\nL3 D21{tail}"),
    );
    let input = tencent_input();
    let runs: [(&str, Vec<&dyn AsRef<OsStr>>); 4] = [
        ("contest", vec![&input, &contest]),
        ("nes", vec![&"--game", &"nes", &nes]),
        (
            "olympiad",
            vec![&"--game", &"olympiad", &sequence, &olympiad],
        ),
        ("browser", vec![&"--game", &"browser", &sequence, &browser]),
    ];
    for (game, args) in runs {
        let r = run(CHECK, &args);
        r.assert_no_panic();
        assert_eq!(r.code, Some(0), "{game}: {r:#?}");
        assert!(r.last_line().starts_with("Score = "), "{game}: {r:#?}");
    }
}

/// A record checked on another sequence than its own fails at its first pieces, and one longer
/// than the sequence runs past its end: every game played on a sequence file asks whether the
/// file is the record's, in the text and in the JSON (NES's records name their own start).
#[test]
fn every_game_asks_whether_a_record_that_does_not_fit_is_of_another_sequence() {
    let scratch = Scratch::new("record-misfit");
    for game in ["contest", "browser", "olympiad"] {
        let (_, record, _, _) = solved(&scratch, game);
        let other = exe(GEN, &["--game", game, "--seed", "4", "--count", "30"]).stdout;
        let short = exe(GEN, &["--game", game, "--seed", "3", "--count", "10"]).stdout;
        let other = scratch.file(&format!("{game}-other.txt"), other);
        let short = scratch.file(&format!("{game}-short.txt"), short);
        let first = "(the record fails at its first pieces: ";
        let mut cases = vec![(record.clone(), short, "(")];
        if game == "olympiad" {
            // Most of the olympiad's placements fit any piece (orientation 0 at the left): an
            // upright I has no orientation 1 as an O.
            let upright = scratch.file("upright.txt", "game olympiad\n1 0\n1 2\n1 4\n");
            cases.push((upright, scratch.file("o.txt", "OOO\n"), first));
        } else {
            cases.push((record, other, first));
        }
        for (record, sequence, why) in cases {
            let question = format!(
                "{why}is {} the sequence it was made for?)",
                sequence.display()
            );
            let human = check(game, Some(&sequence), &record, &[]);
            assert_eq!(human.code, Some(1), "{game}: {human:#?}");
            let error = human.stdout.lines().next().unwrap();
            assert!(
                error.ends_with(&question),
                "{game}: {error:?} ends with {question:?}"
            );
            let json = check(game, Some(&sequence), &record, &["--json"]);
            let report: serde_json::Value =
                serde_json::from_str(&json.stdout).expect("check's JSON");
            assert!(
                report["error"].as_str().unwrap().ends_with(&question),
                "{game}: {report}"
            );
        }
    }
}
