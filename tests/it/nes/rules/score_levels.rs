//! The NES engine's score (BCD points, the ROM's cap and the uncapped count), its levels and
//! their wrap past 255, the crash on a clear, the end of a game and the menu sequence.

use crate::nes::{fixture, level_after, start_19_9, FILLED, HEADER};
use tetris_opt::games::nes::record::Record;
use tetris_opt::games::nes::replay::{replay_observed, snapshots, End};
use tetris_opt::games::nes::rules::{button, Events, Outcome, Round};
use tetris_opt::games::nes::search::{clear_points, lines_to_level};
use tetris_opt::games::nes::start::menu_inputs;
use tetris_opt::games::nes::tables::{frames_per_drop, EMPTY_TILE};

/// Fills rows 20-rows..=19 but column 0 and drops a vertical I into column 0 (rows 16..=19):
/// `rows` rows clear. Plays until the next piece spawns; returns the events of the frame the
/// lines were counted on.
fn clear_with_i(game: &mut Round, rows: usize) -> Events {
    let counted = drop_i_to_clear(game, rows);
    assert_eq!(game.outcome, Outcome::Playing);
    counted
}

/// [`clear_with_i`] without asking that the game goes on.
fn drop_i_to_clear(game: &mut Round, rows: usize) -> Events {
    game.cells[..200].fill(EMPTY_TILE);
    for row in 20 - rows..20 {
        for column in 1..10 {
            game.cells[row * 10 + column] = FILLED;
        }
    }
    game.piece = 17;
    game.x = 0;
    game.y = 2;
    // No first-piece hang.
    game.autorepeat_y = 0;
    let mut counted = None;
    for _ in 0..400 {
        let events = game.step(0);
        if events.rows_cleared > 0 {
            counted = Some(events);
        }
        if events.spawned || game.outcome != Outcome::Playing {
            break;
        }
    }
    counted.unwrap_or_else(|| panic!("no rows cleared: {game:?}"))
}

#[test]
fn clears_at_level_19_score_points_times_20() {
    // 40, 100, 300 and 1200 points at level 0, times level + 1.
    for (rows, points) in [(1, 800), (2, 2_000), (3, 6_000), (4, 24_000)] {
        let mut game = Round::new(&start_19_9());
        let events = clear_with_i(&mut game, rows);
        assert_eq!(events.rows_cleared as usize, rows);
        assert_eq!(game.score.uncapped(), points, "{rows} rows");
        assert_eq!(game.score.rom(), points);
        assert_eq!(clear_points(0, 19, rows).0, points);
        assert_eq!(game.lines(), rows as u32);
        assert_eq!(game.clears[rows - 1], 1);
        assert_eq!(game.pieces, 1);
    }
}

#[test]
fn four_line_clears_at_level_19_add_24000_each() {
    let mut game = Round::new(&start_19_9());
    for k in 1..=6u64 {
        let events = clear_with_i(&mut game, 4);
        assert_eq!(events.rows_cleared, 4);
        assert!(!events.level_up);
        assert_eq!(game.score.uncapped(), 24_000 * k);
        assert_eq!(game.level, 19);
    }
    assert_eq!(game.clears, [0, 0, 0, 6]);
    assert_eq!(clear_points(0, 19, 4), (24_000, 19, 4));
}

#[test]
fn the_rom_score_caps_at_999999_while_the_uncapped_score_counts_on() {
    let mut game = Round::new(&start_19_9());
    let mut expected = 0u64;
    let mut lines = 0;
    let mut level = 19;
    // Sixty four-line clears: the level goes up from 140 lines and the score passes a million.
    for _ in 0..60 {
        let (points, after_level, after_lines) = clear_points(lines, level, 4);
        clear_with_i(&mut game, 4);
        expected += points;
        (level, lines) = (after_level, after_lines);
        assert_eq!(game.score.uncapped(), expected);
        assert_eq!(game.score.rom(), expected.min(999_999));
        assert_eq!((game.level, game.lines()), (level, lines));
    }
    assert!(expected > 999_999);
    assert_eq!(game.level, 30);
}

#[test]
fn the_fixture_caps_the_rom_score_and_keeps_the_uncapped_one() {
    let record = fixture();
    let report = replay_observed(&record, |_, _| {});
    assert_eq!(report.rom_score, 999_999);
    assert!(report.score > 999_999, "{report:?}");
    assert_eq!(report.end, End::RecordEnded);
    assert_eq!(report.unplayed_frames, 0);
    assert_eq!(report.frames, record.frames.len() as u64);
}

#[test]
fn levels_go_up_at_140_lines_from_19_and_at_130_from_18_then_every_10() {
    for (start_level, first) in [(19u8, 140u32), (18, 130)] {
        let mut level = start_level;
        let mut lines = 0;
        while lines < 300 {
            let (points, after, counted) = clear_points(lines, level, 1);
            assert_eq!(counted, lines + 1);
            let expected = if counted < first {
                start_level
            } else {
                start_level + 1 + ((counted - first) / 10) as u8
            };
            assert_eq!(after, expected, "from {start_level}, {counted} lines");
            assert_eq!(after, level_after(start_level, counted));
            // Points at the level reached by the clear.
            assert_eq!(points, 40 * (after as u64 + 1));
            (level, lines) = (after, counted);
        }
    }
    // A four-line clear across the boundary scores at the new level.
    assert_eq!(clear_points(136, 19, 4), (1200 * 21, 20, 140));
    assert_eq!(clear_points(138, 19, 4), (1200 * 21, 20, 142));
    assert_eq!(clear_points(135, 19, 4), (1200 * 20, 19, 139));
    assert_eq!(clear_points(126, 18, 4), (1200 * 20, 19, 130));
    assert_eq!(clear_points(126, 19, 4), (1200 * 20, 19, 130));
    assert_eq!(clear_points(226, 28, 4), (1200 * 30, 29, 230));
    assert_eq!(clear_points(0, 19, 0), (0, 19, 0));
}

#[test]
fn the_first_level_up_of_every_start_level_is_at_the_roms_line_count() {
    // The community's table: (level + 1) * 10 below 10, then 100 up to 15, then ten more per
    // level from 16.
    for start_level in 0..=19u8 {
        let first = match start_level {
            0..=9 => (start_level as u32 + 1) * 10,
            10..=15 => 100,
            _ => 100 + (start_level as u32 - 15) * 10,
        };
        let mut level = start_level;
        let mut lines = 0;
        while lines < first - 1 {
            (_, level, lines) = clear_points(lines, level, 1);
            assert_eq!(level, start_level, "from {start_level} at {lines} lines");
        }
        let (_, level, _) = clear_points(lines, level, 1);
        assert_eq!(
            level,
            start_level + 1,
            "from {start_level} at {first} lines"
        );
    }
}

#[test]
fn the_engine_levels_up_as_clear_points_says() {
    for (level, lines_bcd, lines, expect_level) in [
        (19u8, [0x36u8, 1u8], 136u32, 20u8),
        (19, [0x26, 1], 126, 19),
        (18, [0x26, 1], 126, 19),
        (18, [0x16, 1], 116, 18),
        (28, [0x26, 2], 226, 29),
    ] {
        let mut game = Round::new(&start_19_9());
        game.level = level;
        game.lines_bcd = lines_bcd;
        assert_eq!(game.lines(), lines);
        let events = clear_with_i(&mut game, 4);
        let (points, after, counted) = clear_points(lines, level, 4);
        assert_eq!(after, expect_level);
        assert_eq!(
            (game.level, game.lines(), game.score.uncapped()),
            (after, counted, points),
            "from level {level} at {lines} lines"
        );
        assert_eq!(events.level_up, after > level);
    }
}

#[test]
fn past_level_29_the_levels_follow_the_roms_compare_to_the_wrap() {
    // Ten lines a level from the transition, until the ROM's byte of hundreds and tens (the
    // hundreds counted in binary) falls behind the level: level 235 lasts 810 lines, and the
    // counter wraps to 0 at 3,300 lines from level 19 (the best bot's level 237 came at 3,112).
    assert_eq!(lines_to_level(19, 29), 230);
    assert_eq!(lines_to_level(19, 39), 330);
    assert_eq!(lines_to_level(19, 155), 1_490);
    assert_eq!(lines_to_level(19, 236) - lines_to_level(19, 235), 810);
    assert_eq!(lines_to_level(19, 237), 3_110);
    assert_eq!(lines_to_level(19, 256), 3_300);
    assert_eq!(lines_to_level(18, 256), 3_300);
    for level in 30..=234u16 {
        let step = lines_to_level(19, level + 1) - lines_to_level(19, level);
        assert_eq!(step, 10, "level {level}");
    }
    assert_eq!(clear_points(3_296, 255, 4), (1_200, 0, 3_300));
}

/// A game on `level` with `lines` cleared (kept as the ROM keeps them: the tens and ones in
/// BCD, the hundreds in binary).
fn game_at(level: u8, lines: u32) -> Round {
    let mut game = Round::new(&start_19_9());
    game.level = level;
    let ones = (lines % 100) as u8;
    game.lines_bcd = [((ones / 10) << 4) | (ones % 10), (lines / 100) as u8];
    assert_eq!(game.lines(), lines);
    game
}

#[test]
fn the_level_counter_wraps_from_255_to_0_and_scores_and_falls_as_level_0() {
    let mut game = game_at(255, 3_296);
    let events = clear_with_i(&mut game, 4);
    assert!(events.level_up);
    assert_eq!(
        (game.level, game.level_count(), game.lines()),
        (0, 256, 3_300)
    );
    // Points at the level reached: level 0's.
    assert_eq!(game.score.uncapped(), 1_200);
    assert_eq!(frames_per_drop(game.level), 48);
    // The next piece falls its first row on the 48th frame.
    let y = game.y;
    for _ in 0..47 {
        game.step(0);
    }
    assert_eq!(game.y, y);
    game.step(0);
    assert_eq!(game.y, y + 1);
}

#[test]
fn a_clear_the_rom_crashes_on_ends_the_game() {
    // A single at level 158 passing 1,530 lines hangs the ROM (tests/it/nes/oracles/nes_py.rs
    // plays it).
    let mut game = game_at(158, 1_529);
    let events = drop_i_to_clear(&mut game, 1);
    assert_eq!(events.rows_cleared, 1);
    assert_eq!(game.outcome, Outcome::Crashed);
    assert!(crate::nes::swept(158, 1_529, 1, true, false, false).margin() < 0);
    // A four-line clear within a ten at 158, and the single at level 150, go on.
    for (level, lines, rows) in [(158u8, 1_521u32, 4), (150, 1_449, 1)] {
        clear_with_i(&mut game_at(level, lines), rows);
    }
}

#[test]
fn the_fixture_scores_and_levels_as_clear_points_counts_them() {
    let record = fixture();
    let mut before = (0u32, 19u8);
    let mut expected = 0u64;
    let mut clears = 0;
    let report = replay_observed(&record, |game, events| {
        if events.rows_cleared > 0 {
            let (points, level, lines) =
                clear_points(before.0, before.1, events.rows_cleared as usize);
            expected += points;
            clears += 1;
            assert_eq!((game.level, game.lines()), (level, lines));
            assert_eq!(game.level, level_after(19, lines));
            assert_eq!(game.score.uncapped(), expected);
        }
        before = (game.lines(), game.level);
    });
    assert!(clears > 50);
    assert_eq!(report.score, expected);
    assert_eq!(report.level, level_after(19, report.lines));
    assert!(report.lines >= 230, "{report:?}");
    assert_eq!(report.level, 29);
    let transition = report.transition.expect("the fixture reaches level 29");
    assert_eq!(transition.lines, report.lines);
}

#[test]
fn snapshots_hold_every_spawn_and_the_end() {
    let record = fixture();
    let mut spawns = 0;
    replay_observed(&record, |_, events| spawns += events.spawned as usize);
    let (report, shots) = snapshots(&record);
    assert_eq!(shots.len(), spawns + 1);
    let last = shots.last().unwrap();
    assert_eq!(last.frame, report.frames - 1);
    assert_eq!(
        (last.score, last.lines, last.level),
        (report.rom_score, report.lines, report.level)
    );
    assert!(shots.windows(2).all(|w| w[0].frame < w[1].frame));
    assert!(shots
        .iter()
        .all(|s| s.board.len() == 200 && s.score <= 999_999));
}

#[test]
fn a_game_left_alone_tops_out_and_then_stands_still() {
    let mut game = Round::new(&start_19_9());
    let mut frames = 0;
    while game.outcome == Outcome::Playing {
        game.step(0);
        frames += 1;
        assert!(frames < 5000, "no top-out");
    }
    assert_eq!(game.outcome, Outcome::ToppedOut);
    assert!(game.pieces > 5);
    let stopped = game;
    assert_eq!(game.step(button::RIGHT), Events::default());
    assert_eq!(game, stopped);
    let record = Record::parse(&format!("{HEADER}.*5000\n")).unwrap();
    let report = replay_observed(&record, |_, _| {});
    assert_eq!(report.end, End::ToppedOut);
    assert_eq!(report.frames, frames);
    assert_eq!(report.unplayed_frames, 5000 - frames);
    assert_eq!(report.pieces, game.pieces);
}

#[test]
fn the_menu_sequence_names_the_level_and_waits_on_the_title() {
    use button::*;
    let nineteen = menu_inputs(19, 9);
    assert!(!nineteen.is_empty());
    // Level 19: Down for the second row, four steps right, A held with Start.
    let tail = [
        DOWN,
        0,
        RIGHT,
        0,
        RIGHT,
        0,
        RIGHT,
        0,
        RIGHT,
        0,
        A,
        A | START,
        0,
        0,
        0,
        0,
        0,
        0,
    ];
    assert!(nineteen.ends_with(&tail), "{nineteen:?}");
    // Level 0: Start alone.
    assert!(menu_inputs(0, 0).ends_with(&[0, START, 0, 0, 0, 0, 0, 0]));
    // Each frame of title-wait is one idle frame more.
    for wait in [0, 1, 9, 200] {
        assert_eq!(
            menu_inputs(18, wait + 1).len(),
            menu_inputs(18, wait).len() + 1
        );
    }
    // Nothing a record refuses is needed after the menus: the last frames press nothing.
    assert!(menu_inputs(7, 3).ends_with(&[0; 6]));
}

#[test]
fn a_clear_the_model_calls_failing_goes_on_with_the_next_box_hidden() {
    // The low-stack triple within a ten at level 169 counts 29,376 cycles, in a crash window at
    // the sixth switch (FCEUX crashes there); Select hides the next box, 394 cycles fewer.
    let mut shown = game_at(169, 1_631);
    drop_i_to_clear(&mut shown, 3);
    assert_eq!(shown.outcome, Outcome::Crashed);
    assert!(!shown.next_hidden);
    let mut hidden = game_at(169, 1_631);
    hidden.step(button::SELECT);
    let events = clear_with_i(&mut hidden, 3);
    assert_eq!(events.rows_cleared, 3);
    assert!(hidden.next_hidden);
    assert!(hidden.margin >= 3, "{}", hidden.margin);
    // A second press shows it again.
    hidden.step(0);
    hidden.step(button::SELECT);
    hidden.step(0);
    assert!(!hidden.next_hidden);
}

#[test]
fn the_committed_games_through_the_wraps_keep_their_margin_and_use_both_knobs() {
    for (file, level_count, lines) in [
        ("outputs/nes/level19-to-1280-wait0.txt", 1_280, 16_743),
        ("outputs/nes/level18-to-512-wait0.txt", 512, 6_663),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&path).expect("a committed NES game through the wrap");
        let record = Record::parse(&text).expect("it parses");
        let report = replay_observed(&record, |_, _| {});
        assert_eq!(report.end, End::RecordEnded, "{file}");
        assert_eq!(
            (report.level_count, report.lines),
            (level_count, lines),
            "{file}"
        );
        assert!(
            report.margin as i32 >= tetris_opt::games::nes::cycles::MARGIN,
            "{file}"
        );
        let pressed = |b: u8| record.frames.iter().any(|&f| f & b != 0);
        assert!(pressed(button::SELECT) && pressed(button::DOWN), "{file}");
    }
}

#[test]
fn past_9999_lines_the_hundreds_count_on_in_binary_and_wrap_at_25600() {
    // $51 counts hundreds with `inc`: 10,000 lines is 100 there, not a carry into a digit.
    let mut game = game_at(80, 9_996);
    clear_with_i(&mut game, 4);
    assert_eq!((game.lines_bcd, game.lines()), ([0x00, 100], 10_000));
    let (_, level, _) = clear_points(9_996, 80, 4);
    assert_eq!(game.level, level);

    // At 25,600 the byte wraps to 0; the engine counts the lines on, and the level compare reads
    // the byte's low four bits as before (25,600 and 0 alike end in hundreds 0 mod 16).
    let mut game = game_at(100, 25_596);
    clear_with_i(&mut game, 4);
    assert_eq!((game.lines_bcd, game.lines()), ([0x00, 0], 25_600));
    let (_, level, _) = clear_points(25_596, 100, 4);
    assert_eq!(game.level, level);
    let mut again = game;
    clear_with_i(&mut again, 4);
    assert_eq!(again.lines(), 25_604);
}

#[test]
fn the_levels_go_on_through_five_wraps_as_the_rom_counts_them() {
    // A wrap every 3,360 lines: 256 levels of 10 lines and one level held for 810, where the
    // byte of hundreds and tens (its hundreds mod 16) runs ahead of the level by more than 127
    // and the signed compare stops it: level 235, then 189, 143, 107 and 61 past a wrap.
    let wraps: Vec<u32> = (1..=5).map(|k| lines_to_level(19, 256 * k)).collect();
    assert_eq!(wraps, [3_300, 6_660, 10_020, 13_380, 16_740]);
    let held: Vec<(u16, u32)> = (30..=1_280u16)
        .map(|level| {
            (
                level,
                lines_to_level(19, level) - lines_to_level(19, level - 1),
            )
        })
        .filter(|&(_, step)| step != 10)
        .collect();
    assert_eq!(
        held,
        [(236, 810), (446, 810), (656, 810), (876, 810), (1_086, 810)]
    );
    assert_eq!(lines_to_level(18, 1_280), 16_740);
}
