//! The line `solve` answers with: `--pieces N` places N pieces, surviving answers with the line
//! that went furthest under the survival ranking, and an interrupted solve writes out the pieces
//! it decided and how to go on.

use super::{check_score, solve, CHECK, GEN, SOLVE};
use crate::common::{run, tencent_input, Scratch};
use std::ffi::OsStr;

/// `--pieces N` places N pieces (unless the game ends first), even where a shorter line of the
/// beam banked more: the answer is the best line of the last depth.
#[test]
fn pieces_n_places_n_pieces() {
    let scratch = Scratch::new("pieces-n");
    let input = tencent_input();
    for (pieces, width) in [("10", "200"), ("200", "2000")] {
        let r = solve(&[&input, &"--pieces", &pieces, &"--beam-width", &width]);
        assert_eq!(r.code, Some(0), "{r:#?}");
        assert!(
            r.stderr.contains(&format!("pieces locked: {pieces},")),
            "--pieces {pieces}: {}",
            r.stderr
        );
        let record = scratch.file("moves.txt", &r.stdout);
        assert_eq!(check_score(&input, &record, &[]), r.solve_score());
    }
}

/// The pieces a `solve --json` summary says its record places.
fn pieces_locked(json: &std::path::Path) -> u64 {
    let text = std::fs::read_to_string(json).expect("solve wrote its summary");
    let summary: serde_json::Value = serde_json::from_str(&text).expect("the summary is JSON");
    summary["pieces_placed"]
        .as_u64()
        .expect("the summary counts the pieces")
}

/// A beam of 3 under the points weights tops out within the first 60 pieces of seed 11. With
/// the ranking pinned, only the answer rule differs: surviving answers with a line that
/// placed at least as many pieces (here more: the richest line died first), for points with
/// one that scored at least as much; `check` agrees with each.
#[test]
fn survive_answers_with_the_line_that_went_furthest() {
    let scratch = Scratch::new("solve-survive");
    let generated = run(GEN, &[&"--seed", &"11", &"--count", &"60"]);
    assert_eq!(generated.code, Some(0), "{generated:#?}");
    let input = scratch.file("seq.txt", &generated.stdout);
    let answer = |objective: &str| {
        let json = scratch.dir.join(format!("{objective}.json"));
        let r = solve(&[
            &input,
            &"--beam-width",
            &"3",
            &"--objective",
            &objective,
            &"--weights",
            &"weights/default.json",
            &"--score-weight",
            &"0.024",
            &"--policy",
            &"policies/endgame-and-fill-plan-off.json",
            &"--threads",
            &"1",
            &"--json",
            &json,
        ]);
        assert_eq!(r.code, Some(0), "{r:#?}");
        let record = scratch.file(&format!("{objective}.txt"), &r.stdout);
        assert_eq!(check_score(&input, &record, &[]), r.solve_score());
        (pieces_locked(&json), r.solve_score())
    };
    let (score_pieces, score_points) = answer("score");
    let (survive_pieces, survive_points) = answer("survive");
    assert!(score_pieces < 60, "the beam tops out: {score_pieces}");
    assert!(survive_pieces >= score_pieces);
    assert!(score_points >= survive_points);
    assert_ne!(
        (survive_pieces, survive_points),
        (score_pieces, score_points),
        "the objective changes the answer here"
    );
}

/// Surviving, the contest's search takes the survival weights, no score weight and no endgame
/// unless told otherwise (the summary names them), and the record checks with the piece limit
/// lifted; an unknown objective is a usage error.
#[test]
fn survive_defaults_to_the_survival_ranking() {
    let scratch = Scratch::new("solve-survive-defaults");
    let generated = run(GEN, &[&"--seed", &"11", &"--count", &"300"]);
    let input = scratch.file("seq.txt", &generated.stdout);
    let json = scratch.dir.join("summary.json");
    let r = solve(&[
        &input,
        &"--beam-width",
        &"8",
        &"--objective",
        &"survive",
        &"--piece-limit",
        &"0",
        &"--json",
        &json,
    ]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["objective"], "survive");
    let own = &summary["contest"];
    assert_eq!(own["score_weight"], 0.0);
    assert_eq!(
        own["policy"]["endgame_score_weight"],
        serde_json::Value::Null
    );
    let weights = |text: &str| tetris_opt::kit::eval::Weights::from_json(text).unwrap();
    assert_eq!(
        weights(&own["weights"].to_string()),
        weights(include_str!("../../../../weights/contest-survive.json"))
    );
    assert_eq!(summary["pieces_placed"], 300);
    let record = scratch.file("moves.txt", &r.stdout);
    assert_eq!(
        check_score(&input, &record, &["--piece-limit", "0"]),
        r.solve_score()
    );

    let score_weight = scratch.dir.join("given.json");
    let given = solve(&[
        &input,
        &"--beam-width",
        &"8",
        &"--objective",
        &"survive",
        &"--score-weight",
        &"0.5",
        &"--json",
        &score_weight,
    ]);
    assert_eq!(given.code, Some(0), "{given:#?}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&score_weight).unwrap()).unwrap();
    assert_eq!(
        summary["contest"]["score_weight"], 0.5,
        "an explicit score weight stands"
    );

    let bad = solve(&[&input, &"--objective", &"forever"]);
    assert_eq!(bad.code, Some(2), "{bad:#?}");
    assert!(bad.stderr.contains("survive"), "{}", bad.stderr);
}

/// Reads `solve`'s progress lines from `stderr` until one says the search is past `piece`.
fn read_progress_past(stderr: &mut impl std::io::BufRead, piece: usize) {
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "{lines:?}");
        let at = line
            .strip_prefix("piece ")
            .and_then(|rest| rest.split('/').next())
            .and_then(|n| n.parse::<usize>().ok());
        lines.push(line);
        if at.is_some_and(|p| p >= piece) {
            return;
        }
    }
}

/// Ctrl-C or SIGTERM during a solve writes out the record's whole pieces decided so far (each
/// checked; `check` accepts them) and says on one line how many and how to go on; the exit
/// code is the signal's. However far the search got, stdout is whole pieces and a newline.
#[test]
fn an_interrupted_solve_writes_the_pieces_decided_and_how_to_go_on() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let scratch = Scratch::new("interrupt");
    let input = tencent_input();
    let mut child = Command::new(SOLVE)
        .arg(&input)
        .args(["--beam-width", "200", "--progress-every", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("solve starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    // Once the search is past piece 400 (its progress lines say where it is), some pieces are
    // decided.
    read_progress_past(&mut stderr, 400);
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    let record = reader.join().unwrap().unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{rest}");
    let last = rest.lines().last().unwrap_or_default();
    let pieces: usize = last
        .strip_prefix("interrupted: the record's first ")
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of pieces: {rest}"));
    assert!(pieces > 0, "{rest}");
    assert!(
        last.contains(&format!("--from-record RECORD --from-piece {pieces}")),
        "{last}"
    );
    assert!(
        record.ends_with('\n') && record.lines().count() == 1,
        "{record}"
    );
    assert_eq!(
        record.matches('N').count(),
        pieces,
        "whole pieces: {record}"
    );
    let path = scratch.file("interrupted.txt", &record);
    let checked = run(CHECK, &[&input, &path]);
    assert_eq!(checked.code, Some(0), "{checked:#?}");
    assert!(
        checked.stdout.contains(&format!("pieces locked: {pieces}")),
        "{checked:#?}"
    );
    // And the search goes on from them.
    let on = solve(&[
        &input,
        &"--from-record",
        &path,
        &"--from-piece",
        &pieces.to_string(),
        &"--pieces",
        &(pieces + 20).to_string(),
        &"--beam-width",
        &"50",
        &"--quiet",
    ]);
    assert_eq!(on.code, Some(0), "{on:#?}");
    assert!(
        on.stdout.starts_with(record.trim_end()),
        "the kept pieces come first"
    );
}

/// A sequence file that runs on past the piece limit solves as the file of its pieces up to
/// the limit: the same record, byte for byte, and the same score, under the contest's limit
/// and a smaller one, from the first piece and from a `--from-record` start. (The default
/// policy's fill plan is a table over the pieces: built over the whole file, its pieces past
/// the limit changed every depth's ranking.)
#[test]
fn a_file_past_the_piece_limit_solves_as_its_first_pieces() {
    let scratch = Scratch::new("past-the-limit");
    let generated = |count: &str| {
        let r = run(GEN, &[&"--seed", &"1", &"--count", &count]);
        assert_eq!(r.code, Some(0), "{r:#?}");
        scratch.file(&format!("seed-1-{count}.txt"), &r.stdout)
    };
    for (short, long, limit, width) in [
        ("10000", "30000", "10000", "20"),
        ("301", "5000", "301", "60"),
    ] {
        let (short, long) = (generated(short), generated(long));
        let solved = |input: &std::path::Path, extra: &[&str]| {
            let mut args: Vec<&dyn AsRef<OsStr>> = vec![
                &input,
                &"--piece-limit",
                &limit,
                &"--beam-width",
                &width,
                &"--quiet",
            ];
            args.extend(extra.iter().map(|e| e as &dyn AsRef<OsStr>));
            let r = solve(&args);
            assert_eq!(r.code, Some(0), "{r:#?}");
            r
        };
        let record = solved(&short, &[]);
        assert!(record.stdout.len() > 1_000, "{record:#?}");
        let from_long = solved(&long, &[]);
        assert!(
            from_long.stdout == record.stdout,
            "--piece-limit {limit}: the long file's record differs"
        );
        let path = scratch.file("record.txt", &record.stdout);
        let path = path.to_str().expect("a UTF-8 path");
        let start = ["--from-record", path, "--from-piece", "100"];
        let (rest, rest_long) = (solved(&short, &start), solved(&long, &start));
        assert!(rest.stdout.starts_with("N,"), "{rest:#?}");
        assert!(
            rest_long.stdout == rest.stdout,
            "--piece-limit {limit}, from piece 100: the long file's record differs"
        );
    }
}
