//! The fill chart under the score chart of the page `check --html` writes: the record's fill at
//! each lock as the checker replayed it, against the fluid model's optimal play at the record's
//! fullest board, which scores the bound `check --stats` gives; the record's line alone where
//! the model has no play within that fill. Read from the page's data, without a browser.

use crate::common::film::{fill_lines, film_of, FillLock};
use crate::common::{public_record_pieces, run, tencent_input, Scratch};
use serde_json::Value;
use tetris_opt::games::contest::fluid::contest_points;
use tetris_opt::games::contest::record::Record;
use tetris_opt::games::contest::replay::replay_observed;
use tetris_opt::games::contest::rules::{Kind, Rules};
use tetris_opt::kit::fluid::{best_play, FluidModel};
use tetris_opt::kit::sequence::parse_sequence;

const CHECK: &str = env!("CARGO_BIN_EXE_check");

fn sequence() -> Vec<Kind> {
    parse_sequence(&std::fs::read_to_string(tencent_input()).unwrap()).unwrap()
}

/// `check --html` of `record` (its exit code and the page's film), and `check --stats --json`'s
/// statistics of it.
fn checked(scratch: &Scratch, record: &str) -> (Option<i32>, Value, Value) {
    let path = scratch.file("record.txt", record);
    let page = scratch.dir.join("page.html");
    let html = run(CHECK, &[&tencent_input(), &path, &"--html", &page]);
    let film = film_of(&std::fs::read_to_string(&page).expect("check wrote the page"));
    let json = run(CHECK, &[&"--stats", &"--json", &tencent_input(), &path]);
    let report: Value = serde_json::from_str(&json.stdout).expect("check --json prints JSON");
    (html.code, film, report["contest"]["stats"].clone())
}

/// Each lock of `record` as the plain replay scores it: the cells counted, the rows cleared.
fn replayed_locks(record: &str) -> Vec<FillLock> {
    let record = Record::parse(record).unwrap();
    let mut locks = Vec::new();
    replay_observed(&sequence(), &record, Rules::default(), &mut |step| {
        locks.push((i64::from(step.turn.filled), u64::from(step.turn.lines)))
    });
    locks
}

#[test]
fn the_fill_chart_holds_the_record_against_the_fluid_optimum() {
    let scratch = Scratch::new("fill-chart");
    let pieces = 200;
    let record = public_record_pieces(pieces);
    let (code, film, stats) = checked(&scratch, &record);
    assert_eq!(code, Some(0));
    let lines = fill_lines(&film).expect("the page has a fill chart");
    let [(record_label, record_line), (optimum_label, optimum)] = &lines[..] else {
        panic!("two lines: {lines:?}");
    };
    assert_eq!(
        (&record_label[..], &optimum_label[..]),
        ("record", "fluid optimum")
    );
    assert_eq!(
        record_line[0],
        (4, 0),
        "the first lock holds the piece's 4 cells"
    );
    assert_eq!(record_line, &replayed_locks(&record));

    // The optimum: one lock a piece, the model's play at the record's fullest board, scoring
    // the bound `--stats` gives.
    let cap = stats["fullest"].as_u64().unwrap();
    let bound = stats["fluid_bound"].as_u64().unwrap();
    assert_eq!(optimum.len(), pieces);
    assert!(optimum.iter().all(|&(filled, _)| filled as u64 <= cap));
    let model = FluidModel::bound(cap as u32);
    let points = contest_points(pieces);
    let play = best_play(&sequence()[..pieces], model, &points).unwrap();
    let play: Vec<FillLock> = (play.iter())
        .map(|lock| (i64::from(lock.filled), u64::from(lock.rows)))
        .collect();
    assert_eq!(optimum, &play);
    let scored: f64 = (optimum.iter().enumerate())
        .map(|(t, &(filled, rows))| points(t, filled as u32, rows as u32))
        .sum();
    assert_eq!(scored as u64, bound);

    let chart = &film["fill_chart"];
    assert_eq!(chart["cap"].as_u64(), Some(cap));
    let caption = chart["caption"].as_str().unwrap();
    let grouped = |n: u64| tetris_opt::kit::text::grouped(n);
    for said in [
        format!("its cap of {cap} cells"),
        format!(
            "the fluid bound of {} over pieces 1-{pieces}",
            grouped(bound)
        ),
    ] {
        assert!(caption.contains(&said), "{caption}");
    }
}

/// A record whose second piece locks in mid-air: its fullest board holds 4 cells, and no play
/// of the model places two pieces within that. A record that does not parse has no chart.
#[test]
fn without_a_fluid_play_the_record_is_drawn_alone() {
    let scratch = Scratch::new("fill-chart-alone");
    let record = format!("{},N,D1", public_record_pieces(1));
    let (code, film, _) = checked(&scratch, &record);
    assert_eq!(code, Some(1));
    let lines = fill_lines(&film).expect("the page has a fill chart");
    assert_eq!(lines, [("record".to_string(), vec![(4, 0)])]);
    assert_eq!(film["fill_chart"]["cap"], Value::Null);
    let caption = film["fill_chart"]["caption"].as_str().unwrap();
    assert!(
        caption.contains("alone: no play of the fluid model over pieces 1-2 keeps within the record's fullest board, 4 cells"),
        "{caption}"
    );

    let (code, film, _) = checked(&scratch, "N,D1,X3");
    assert_eq!(code, Some(1));
    assert_eq!(fill_lines(&film), None);
}
