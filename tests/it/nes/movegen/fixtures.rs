//! The committed NES fixtures against the engine and the movegen: each prints back and shows the
//! capped score, the level 18 fixture levels up at 130 lines, and the tap 4 fixture locks each
//! piece where its movegen says.

use super::{all_fixtures, assert_played_is_found, check_placements, level_after, spawns};
use tetris_opt::games::nes::movegen::InputModel;
use tetris_opt::games::nes::record::Record;
use tetris_opt::games::nes::replay::{replay_observed, End};
use tetris_opt::games::nes::search::clear_points;

#[test]
fn every_fixture_prints_back_and_shows_the_capped_score() {
    for (name, record) in all_fixtures() {
        assert_eq!(
            Record::parse(&record.to_text(&[])).unwrap(),
            record,
            "{name}"
        );
        let report = replay_observed(&record, |game, _| {
            assert_eq!(
                game.score.rom(),
                game.score.uncapped().min(999_999),
                "{name}"
            );
        });
        let [c1, c2, c3, c4] = report.clears;
        assert_eq!(c1 + 2 * c2 + 3 * c3 + 4 * c4, report.lines as u64, "{name}");
        assert_eq!(
            report.frames + report.unplayed_frames,
            record.frames.len() as u64
        );
        assert_eq!(
            report.unplayed_frames > 0,
            report.end == End::ToppedOut,
            "{name}"
        );
    }
}

#[test]
fn the_level_18_solver_fixture_levels_up_at_130_lines() {
    let Some((name, record)) = all_fixtures()
        .into_iter()
        .find(|(_, r)| r.start.level == 18 && r.frames.len() > 10_000)
    else {
        panic!("no level 18 solver fixture");
    };
    let mut before = (0u32, 18u8);
    let mut expected = 0u64;
    let mut first_up = None;
    let report = replay_observed(&record, |game, events| {
        if events.rows_cleared > 0 {
            let (points, level, lines) =
                clear_points(before.0, before.1, events.rows_cleared as usize);
            expected += points;
            assert_eq!((game.level, game.lines()), (level, lines), "{name}");
            assert_eq!(game.level, level_after(18, lines), "{name}");
            assert_eq!(game.score.uncapped(), expected, "{name}");
            if events.level_up && first_up.is_none() {
                first_up = Some(lines);
            }
        }
        before = (game.lines(), game.level);
    });
    assert_eq!(report.score, expected);
    let first_up = first_up.expect("the level goes up");
    assert!(
        (130..134).contains(&first_up),
        "first level-up at {first_up} lines"
    );
}

#[test]
fn the_tap_4_solver_fixture_locks_where_its_movegen_says() {
    let model = InputModel {
        tap_every: 4,
        das: false,
    };
    let Some((_, record)) = all_fixtures()
        .into_iter()
        .find(|(name, _)| name.ends_with("tap4.txt"))
    else {
        panic!("no tap:4 solver fixture");
    };
    let states = spawns(&record);
    assert!(states.len() > 500);
    for s in states.iter().step_by(3) {
        check_placements(&s.game, model, s.first);
        assert_played_is_found(s, model);
    }
}
