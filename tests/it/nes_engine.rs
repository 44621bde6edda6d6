//! NES Tetris at the library's level: the record text (every parse error names its line and
//! token; printing then parsing gives the frames back), the engine's rules (generator, piece
//! choice, BCD score and its cap, levels, the first piece's hang, input latency, DAS,
//! rotation, soft drop) and the movegen held against the engine on the spawn states of the
//! committed records: every placement it finds plays as found, and it finds every placement
//! the engine reaches under the input model.

use proptest::prelude::*;
use std::collections::HashSet;
use tetris_opt::games::nes::crash;
use tetris_opt::games::nes::engine::{
    button, next_rng, pick_piece, play_state, Events, NesGame, Outcome,
};
use tetris_opt::games::nes::movegen::{placements, InputModel, Placement};
use tetris_opt::games::nes::record::{NesRecord, RecordError};
use tetris_opt::games::nes::replay::{replay_observed, snapshots, End};
use tetris_opt::games::nes::search::{clear_points, lines_to_level};
use tetris_opt::games::nes::start::{max_wait, menu_inputs, start, Start};
use tetris_opt::games::nes::tables::{frames_per_drop, EMPTY_TILE, ORIENTATIONS, SPAWN_TABLE};

const FIXTURE: &str = "tests/fixtures/nes/solver-level19-wait9.txt";

/// The header every hand-made record below starts with (lines 1-4).
const HEADER: &str = "game nes\nstart-level 19\ntitle-wait 9\ninputs\n";

/// A filled cell as the engine writes one.
const FILLED: u8 = 0x7B;

fn fixture() -> NesRecord {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let text = std::fs::read_to_string(&path).expect("read the NES fixture");
    NesRecord::parse(&text).expect("the NES fixture parses")
}

fn start_19_9() -> Start {
    start(19, 9).expect("level 19, title-wait 9 is in the table")
}

/// The error of parsing `text`, which must not parse.
fn parse_error(text: &str) -> RecordError {
    match NesRecord::parse(text) {
        Err(e) => e,
        Ok(r) => panic!("{text:?} parsed, {} frames", r.frames.len()),
    }
}

/// Asserts the error names `line` and `token` (in its fields and in its text) and that its
/// message holds `what`.
fn assert_names(e: &RecordError, line: usize, token: Option<&str>, what: &str) {
    assert_eq!(e.line, line, "{e}");
    assert_eq!(e.token.as_deref(), token, "{e}");
    let text = e.to_string();
    assert!(text.starts_with(&format!("line {line}")), "{text}");
    if let Some(t) = token {
        assert!(text.contains(&format!("(token '{t}')")), "{text}");
    }
    assert!(e.message.contains(what), "{what:?} not in {text:?}");
}

// ---------------------------------------------------------------------------------------------
// Record text
// ---------------------------------------------------------------------------------------------

#[test]
fn a_letter_that_is_no_button_is_refused_with_its_line_and_token() {
    let e = parse_error(&format!("{HEADER}.*5 R\n. RX .\n"));
    assert_names(&e, 6, Some("RX"), "'X' is not a button");
    // Button letters are case-sensitive: 'r' is no button, 's' is Select.
    let e = parse_error(&format!("{HEADER}r\n"));
    assert_names(&e, 5, Some("r"), "'r' is not a button");
    assert!(NesRecord::parse(&format!("{HEADER}s\n")).is_ok());
}

#[test]
fn start_is_refused_since_it_pauses_the_game() {
    let e = parse_error(&format!("{HEADER}. . S\n"));
    assert_names(&e, 5, Some("S"), "Start pauses the game");
    let e = parse_error(&format!("{HEADER}.\n\nRS*3\n"));
    assert_names(&e, 7, Some("RS*3"), "Start pauses the game");
}

#[test]
fn a_button_named_twice_in_one_token_is_refused() {
    let e = parse_error(&format!("{HEADER}RR\n"));
    assert_names(&e, 5, Some("RR"), "'R' is named twice");
    let e = parse_error(&format!("{HEADER}. LAL*4\n"));
    assert_names(&e, 5, Some("LAL*4"), "'L' is named twice");
}

#[test]
fn a_count_that_is_not_one_or_more_frames_is_refused() {
    for (token, count) in [
        ("R*0", "0"),
        ("R*x", "x"),
        ("R*", ""),
        (".*-1", "-1"),
        ("R*2*3", "2*3"),
        ("R*1.5", "1.5"),
    ] {
        let e = parse_error(&format!("{HEADER}.\n{token}\n"));
        assert_names(
            &e,
            6,
            Some(token),
            &format!("'{count}' is not a count of frames"),
        );
    }
}

#[test]
fn a_header_without_inputs_is_refused() {
    let e = parse_error("game nes\nstart-level 19\ntitle-wait 9\n");
    assert_names(&e, 3, None, "no 'inputs' line");
    let e = parse_error("");
    assert_names(&e, 1, None, "no 'inputs' line");
}

#[test]
fn a_header_without_start_level_or_title_wait_is_refused() {
    let e = parse_error("game nes\ntitle-wait 9\ninputs\n.\n");
    assert_names(&e, 3, None, "no 'start-level N' line");
    let e = parse_error("game nes\nstart-level 19\ninputs\n.\n");
    assert_names(&e, 3, None, "no 'title-wait N' line");
}

#[test]
fn an_unknown_header_key_is_refused_with_its_token() {
    let e = parse_error("game nes\nstart-level 19\nlevel 19\ntitle-wait 9\ninputs\n");
    assert_names(&e, 3, Some("level"), "expected 'game nes'");
    // A key without its value is no key either.
    let e = parse_error("game\nstart-level 19\ntitle-wait 9\ninputs\n");
    assert_names(&e, 1, Some("game"), "starts with the line 'game nes'");
    let e = parse_error("game nes\nstart-level 19 20\ntitle-wait 9\ninputs\n");
    assert_names(&e, 2, Some("start-level"), "takes one value");
}

#[test]
fn bad_header_values_are_refused_with_their_token() {
    let e = parse_error("game nes\nstart-level 20\ntitle-wait 9\ninputs\n");
    assert_names(&e, 2, Some("20"), "start-level must be 0..=19");
    let e = parse_error("game nes\nstart-level x\ntitle-wait 9\ninputs\n");
    assert_names(&e, 2, Some("x"), "start-level must be 0..=19");
    let e = parse_error("game nes\nstart-level 19\ntitle-wait -1\ninputs\n");
    assert_names(&e, 3, Some("-1"), "title-wait must be a whole number");
}

#[test]
fn an_unknown_start_is_refused_naming_the_level_and_the_waits_known() {
    let e = parse_error("game nes\nstart-level 19\ntitle-wait 99999\ninputs\n.\n");
    // The header's own lines (1-4): the start is known only once the header is read.
    assert!((1..=4).contains(&e.line), "{e}");
    for part in ["level 19", "title-wait 99999", "0..=255"] {
        assert!(e.message.contains(part), "{part:?} not in {e}");
    }
    let e = parse_error("game nes\nstart-level 0\ntitle-wait 32\ninputs\n");
    assert!(e.message.contains("0..=31"), "{e}");
}

#[test]
fn an_unknown_start_names_the_title_wait_line_and_token() {
    let e = parse_error("game nes\nstart-level 19\ntitle-wait 99999\ninputs\n.\n");
    assert_names(&e, 3, Some("99999"), "no start is known for level 19");
}

#[test]
fn a_game_other_than_nes_is_refused() {
    let e = parse_error("game tencent\nstart-level 19\ntitle-wait 9\ninputs\n");
    assert_names(
        &e,
        1,
        Some("tencent"),
        "the record must be NES Tetris's (`game nes`)",
    );
    let e = parse_error("# a comment\n\ngame NES\nstart-level 19\ntitle-wait 9\ninputs\n");
    assert_names(
        &e,
        3,
        Some("NES"),
        "the record must be NES Tetris's (`game nes`)",
    );
    // A record of another game says which, and how to check it.
    let e = parse_error("game olympiad\n0 0\n");
    assert_names(
        &e,
        1,
        Some("olympiad"),
        "that is a record of the olympiad's game",
    );
}

#[test]
fn a_huge_count_is_an_error_not_a_panic() {
    let text = format!("{HEADER}. R*18446744073709551615\n");
    let parsed = std::panic::catch_unwind(|| NesRecord::parse(&text));
    let e = parsed
        .expect("parse must not panic")
        .expect_err("the record holds more frames than the limit");
    assert_names(&e, 5, Some("R*18446744073709551615"), "more than");
}

#[test]
fn a_count_beyond_the_frame_limit_is_refused() {
    let e = parse_error(&format!("{HEADER}.*10000000 R\n"));
    assert_names(&e, 5, Some("R"), "more than 10000000 frames");
    let e = parse_error(&format!("{HEADER}R*10000001\n"));
    assert_names(&e, 5, Some("R*10000001"), "more than");
}

#[test]
fn a_count_without_buttons_is_refused() {
    let e = parse_error(&format!("{HEADER}*5\n"));
    assert_eq!((e.line, e.token.as_deref()), (5, Some("*5")), "{e}");
}

#[test]
fn comments_blank_lines_and_line_breaks_mean_nothing() {
    let a = NesRecord::parse(&format!("{HEADER}.*3 R . RA*2 L\n")).unwrap();
    let b = NesRecord::parse(
        "# made by hand\n\ngame nes   # the game\n start-level 19\ntitle-wait 9\r\ninputs\n.*3\n\nR # right\n. RA*2\r\nL\n",
    )
    .unwrap();
    assert_eq!(a, b);
    use button::*;
    assert_eq!(a.frames, [0, 0, 0, RIGHT, 0, RIGHT | A, RIGHT | A, LEFT]);
    assert_eq!(a.start, start_19_9());
}

#[test]
fn every_letter_reads_as_its_button() {
    let r = NesRecord::parse(&format!("{HEADER}R L D U A B s RLDUABs sBAUDLR .\n")).unwrap();
    use button::*;
    let all = RIGHT | LEFT | DOWN | UP | A | B | SELECT;
    assert_eq!(r.frames, [RIGHT, LEFT, DOWN, UP, A, B, SELECT, all, all, 0]);
}

#[test]
fn the_fixture_prints_back_to_frames_that_parse_the_same() {
    let record = fixture();
    let text = record.to_text(&[]);
    assert_eq!(NesRecord::parse(&text).unwrap(), record);
    // Without cuts: the header then one line of frames.
    assert_eq!(text.lines().count(), 5);
}

/// Buttons a record may press: anything but Start.
fn buttons() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => Just(0u8),
        1 => Just(button::RIGHT),
        1 => Just(button::LEFT | button::A),
        2 => any::<u8>().prop_map(|b| b & !button::START),
    ]
}

/// A start from the table (levels 0..=17 hold title-waits 0..=31, 18 and 19 hold 0..=255).
fn table_start() -> impl Strategy<Value = Start> {
    (0u8..=19)
        .prop_flat_map(|level| {
            (
                Just(level),
                0..=max_wait(level).expect("every level has waits"),
            )
        })
        .prop_map(|(level, wait)| start(level, wait).expect("a wait the table holds"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn to_text_then_parse_gives_the_frames_back(
        start in table_start(),
        runs in prop::collection::vec((buttons(), 1usize..40), 0..60),
        cuts in prop::collection::vec(0usize..2500, 0..30),
    ) {
        let frames: Vec<u8> = runs
            .iter()
            .flat_map(|&(b, n)| std::iter::repeat_n(b, n))
            .collect();
        let record = NesRecord { start, frames };
        // Cuts as given: unsorted, repeated, 0 and past the end are all harmless.
        let text = record.to_text(&cuts);
        prop_assert_eq!(NesRecord::parse(&text).unwrap(), record.clone());
        // Increasing cuts inside the frames: one line per piece.
        let mut sorted: Vec<usize> = cuts
            .iter()
            .copied()
            .filter(|&c| c > 0 && c < record.frames.len())
            .collect();
        sorted.sort_unstable();
        sorted.dedup();
        let text = record.to_text(&sorted);
        prop_assert_eq!(NesRecord::parse(&text).unwrap(), record.clone());
        let lines: Vec<&str> = text.lines().skip(4).collect();
        let expected = if record.frames.is_empty() { 0 } else { sorted.len() + 1 };
        prop_assert_eq!(lines.len(), expected, "{}", text);
        // Each line holds exactly the frames between its cuts.
        let mut bounds = vec![0];
        bounds.extend(&sorted);
        bounds.push(record.frames.len());
        for (line, w) in lines.iter().zip(bounds.windows(2)) {
            let one = NesRecord::parse(&format!("{HEADER}{line}\n")).unwrap();
            prop_assert_eq!(&one.frames[..], &record.frames[w[0]..w[1]]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Generator and piece choice
// ---------------------------------------------------------------------------------------------

#[test]
fn the_generator_steps_from_8988_to_44c4_to_2262() {
    assert_eq!(next_rng(0x8988), 0x44C4);
    assert_eq!(next_rng(0x44C4), 0x2262);
    // Bit 15 takes bit 1 xor bit 9: 0x0200 has bit 9 only.
    assert_eq!(next_rng(0x0200), 0x8100);
    assert_eq!(next_rng(0x0002), 0x8001);
    assert_eq!(next_rng(0x0202), 0x0101);
    // Zero is the one state that never leaves.
    assert_eq!(next_rng(0), 0);
}

#[test]
fn the_generator_has_period_32767() {
    let mut value = 0x8988u16;
    let mut seen = HashSet::new();
    for step in 1..=32767u32 {
        assert!(seen.insert(value), "repeats early, after {step} steps");
        value = next_rng(value);
        if value == 0x8988 {
            assert_eq!(step, 32767);
        }
    }
    assert_eq!(value, 0x8988);
    assert!(!seen.contains(&0));
}

#[test]
fn pick_piece_takes_the_slot_of_the_high_byte_plus_the_spawn_count() {
    // Slot 0 (T, orientation 2): the generator is left as it is.
    assert_eq!(pick_piece(0x0000, 0, 18), (2, 0x0000));
    // Slot (0x05 + 3) & 7 = 0: the count wraps the slot.
    assert_eq!(pick_piece(0x05FF, 3, 18), (2, 0x05FF));
    // Slot (0x05 + 0xFF) & 7 = 4: S (orientation 11); only the high byte counts.
    assert_eq!(pick_piece(0x05AB, 0xFF, 2), (11, 0x05AB));
    for slot in 0..7u16 {
        assert_eq!(
            pick_piece(slot << 8, 0, 0xFF),
            (SPAWN_TABLE[slot as usize], slot << 8)
        );
    }
}

#[test]
fn pick_piece_draws_again_on_a_repeat() {
    // Slot 0 is T and T was last: one step of 0 is 0, slot (0 + 2) % 7 = 2: Z.
    assert_eq!(pick_piece(0x0000, 0, 2), (8, 0x0000));
    // Slot 3 is O and O (10) was last: 0x0300 steps to 0x8180 (bit 9 is 1, bit 1 is 0, so bit
    // 15 comes in set); high byte 0x81 & 7 = 1, (1 + 10) % 7 = 4: S.
    assert_eq!(pick_piece(0x0300, 0, 10), (11, 0x8180));
}

#[test]
fn pick_piece_draws_again_on_slot_7() {
    // 0x0700 steps to 0x8380 (bit 9 is 1, bit 1 is 0); (0x83 & 7 + 10) % 7 = 6: I.
    assert_eq!(pick_piece(0x0700, 0, 10), (18, 0x8380));
    // Slot (0x04 + 3) & 7 = 7 with last T: 0x0400 steps to 0x0200, (0x02 + 2) % 7 = 4: S.
    assert_eq!(pick_piece(0x0400, 3, 2), (11, 0x0200));
}

#[test]
fn pick_piece_does_not_check_the_second_draw_for_a_repeat() {
    // Slot (0x02 + 7) & 7 = 1 is J (7), a repeat; 0x0200 steps to 0x8100, (0x81 & 7 + 7) % 7
    // = 1: J again, kept.
    assert_eq!(pick_piece(0x0200, 7, 7), (7, 0x8100));
}

#[test]
fn pick_piece_deals_only_spawn_orientations_and_every_kind_often() {
    let mut counts = [0u32; 19];
    let mut rng = 0x8988u16;
    let mut last = 2u8;
    for count in 0..20_000u32 {
        rng = next_rng(rng);
        let (piece, after) = pick_piece(rng, count as u8, last);
        assert!(SPAWN_TABLE.contains(&piece), "{piece}");
        assert!(after == rng || after == next_rng(rng));
        counts[piece as usize] += 1;
        last = piece;
    }
    for kind in SPAWN_TABLE {
        assert!(
            (2000..3800).contains(&counts[kind as usize]),
            "{kind}: {counts:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Score and levels
// ---------------------------------------------------------------------------------------------

/// Fills rows 20-rows..=19 but column 0 and drops a vertical I into column 0 (rows 16..=19):
/// `rows` rows clear. Plays until the next piece spawns; returns the events of the frame the
/// lines were counted on.
fn clear_with_i(game: &mut NesGame, rows: usize) -> Events {
    let counted = drop_i_to_clear(game, rows);
    assert_eq!(game.outcome, Outcome::Playing);
    counted
}

/// [`clear_with_i`] without asking that the game goes on.
fn drop_i_to_clear(game: &mut NesGame, rows: usize) -> Events {
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
        let mut game = NesGame::new(&start_19_9());
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
    let mut game = NesGame::new(&start_19_9());
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
    let mut game = NesGame::new(&start_19_9());
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

/// The level a game that started on 18 or 19 is on after `lines` lines.
fn level_after(start_level: u8, lines: u32) -> u8 {
    let first = match start_level {
        19 => 140,
        18 => 130,
        _ => unreachable!("only starts 18 and 19 are asked for"),
    };
    if lines < first {
        start_level
    } else {
        (start_level as u32 + 1 + (lines - first) / 10) as u8
    }
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
        let mut game = NesGame::new(&start_19_9());
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
fn game_at(level: u8, lines: u32) -> NesGame {
    let mut game = NesGame::new(&start_19_9());
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
    // A single at level 158 passing 1,530 lines hangs the ROM (tests/it/nes_oracle.rs plays it).
    let mut game = game_at(158, 1_529);
    let events = drop_i_to_clear(&mut game, 1);
    assert_eq!(events.rows_cleared, 1);
    assert_eq!(game.outcome, Outcome::Crashed);
    assert!(crash::crashes(158, 1_529, 1, true));
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
    let mut game = NesGame::new(&start_19_9());
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
    let record = NesRecord::parse(&format!("{HEADER}.*5000\n")).unwrap();
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

// ---------------------------------------------------------------------------------------------
// Timing and controls
// ---------------------------------------------------------------------------------------------

#[test]
fn the_first_piece_hangs_96_frames_without_input() {
    for (level, wait) in [(19, 9), (19, 0), (18, 200), (0, 5)] {
        let mut game = NesGame::new(&start(level, wait).unwrap());
        for frame in 0..95 {
            game.step(0);
            assert_eq!((game.x, game.y), (5, 0), "level {level}, frame {frame}");
        }
        // Frames -1 (the menus' last) to 94 are the hang's 96; the piece falls on frame 95.
        game.step(0);
        assert_eq!(game.y, 1, "level {level}");
    }
}

#[test]
fn down_ends_the_first_pieces_hang() {
    let mut game = NesGame::new(&start_19_9());
    game.step(button::DOWN);
    assert_eq!(game.y, 0);
    game.step(0);
    assert_eq!(game.y, 1);
}

#[test]
fn a_tap_moves_the_piece_on_the_next_frame() {
    let mut game = NesGame::new(&start_19_9());
    game.step(0);
    game.step(button::RIGHT);
    assert_eq!(game.x, 5, "the press is read at the end of its frame");
    game.step(0);
    assert_eq!(game.x, 6);
    game.step(button::LEFT);
    assert_eq!(game.x, 6);
    game.step(0);
    assert_eq!(game.x, 5);
    game.step(0);
    assert_eq!(game.x, 5);
}

#[test]
fn a_held_direction_moves_at_once_then_after_16_frames_then_every_6() {
    let mut game = NesGame::new(&start_19_9());
    // An O piece: it reaches column 9 from 5 in four moves.
    assert_eq!(game.piece, 10);
    let mut moves = Vec::new();
    for frame in 0..60 {
        let x = game.x;
        game.step(button::RIGHT);
        if game.x != x {
            moves.push((frame, game.x));
        }
    }
    assert_eq!(moves, [(1, 6), (17, 7), (23, 8), (29, 9)]);
    assert_eq!(game.y, 0, "still hanging");
}

#[test]
fn tapping_every_other_frame_moves_every_other_frame() {
    let mut game = NesGame::new(&start_19_9());
    let mut moves = Vec::new();
    for frame in 0..12 {
        let x = game.x;
        game.step(if frame % 2 == 0 { button::LEFT } else { 0 });
        if game.x != x {
            moves.push((frame, game.x));
        }
    }
    assert_eq!(moves, [(1, 4), (3, 3), (5, 2), (7, 1)]);
}

#[test]
fn right_wins_over_left_and_nothing_shifts_while_down_is_held() {
    let mut game = NesGame::new(&start_19_9());
    game.step(button::LEFT | button::RIGHT);
    game.step(0);
    assert_eq!(game.x, 6);
    game.step(button::RIGHT | button::DOWN);
    game.step(0);
    assert_eq!(game.x, 6, "Down held: no shift");
}

#[test]
fn a_piece_held_against_the_stack_moves_the_moment_it_can() {
    let mut game = NesGame::new(&start_19_9());
    // The O covers columns 4 and 5 of rows 0 and 1; a stone at column 6 blocks it.
    game.cells[6] = FILLED;
    for _ in 0..10 {
        game.step(button::RIGHT);
    }
    assert_eq!(game.x, 5);
    game.cells[6] = EMPTY_TILE;
    game.step(button::RIGHT);
    assert_eq!(game.x, 6, "a blocked move leaves the auto shift charged");
    // Charged again to 10: the next move comes 6 frames later.
    let mut moved = None;
    for frame in 1..=10 {
        game.step(button::RIGHT);
        if game.x == 7 {
            moved = Some(frame);
            break;
        }
    }
    assert_eq!(moved, Some(6));
}

/// The soft drop's points as docs/NES.md has the ROM add them to a score of 0: a binary add of
/// `hold_down_points - 1` onto the lowest BCD byte, one decimal correction per digit, read
/// back as BCD.
fn soft_drop_points(hold_down_points: u8) -> u64 {
    if hold_down_points < 2 {
        return 0;
    }
    let mut b = (hold_down_points - 1) as u16;
    if b & 0x0F >= 0x0A {
        b += 0x06;
    }
    if b & 0xF0 >= 0xA0 {
        b += 0x60;
    }
    let (hi, lo) = ((b >> 8) as u64, (b & 0xFF) as u64);
    hi * 100 + (lo >> 4) * 10 + (lo & 15)
}

#[test]
fn a_soft_drop_scores_the_rows_dropped_less_one_by_the_roms_arithmetic() {
    // From the top of an empty field: 17 rows at level 19 give 0x10, read as 10, not 16; 19
    // rows at level 0 give 0x12, read as 12.
    for ((level, wait), rows, points) in [((19, 9), 17, 10), ((0, 0), 19, 12)] {
        let mut game = NesGame::new(&start(level, wait).unwrap());
        game.autorepeat_y = 0;
        let mut counted = 0;
        for _ in 0..200 {
            let before = game.hold_down_points;
            let events = game.step(button::DOWN);
            if game.play_state == play_state::GOAL_CHECK {
                counted = before;
            }
            if events.spawned {
                break;
            }
        }
        assert_eq!(counted, rows, "level {level}");
        assert_eq!(soft_drop_points(counted), points);
        assert_eq!(game.score.uncapped(), points, "level {level}");
        assert_eq!(game.lines(), 0);
    }
    assert_eq!(soft_drop_points(1), 0);
    assert_eq!(soft_drop_points(9), 8);
    assert_eq!(soft_drop_points(11), 10);
}

#[test]
fn a_is_clockwise_and_b_counterclockwise_on_the_next_frame() {
    let mut game = NesGame::new(&start_19_9());
    game.piece = 2;
    game.step(button::A);
    assert_eq!(game.piece, 2);
    game.step(0);
    assert_eq!(game.piece, 3, "T down turns clockwise to T left");
    game.step(button::B);
    game.step(0);
    assert_eq!(game.piece, 2);
    game.step(button::B);
    game.step(0);
    assert_eq!(game.piece, 1, "T down turns counterclockwise to T right");
    // A held turns once.
    for _ in 0..10 {
        game.step(button::A);
    }
    assert_eq!(game.piece, 2);
    // A and B at once: A wins.
    game.step(0);
    game.step(button::A | button::B);
    game.step(0);
    assert_eq!(game.piece, 3);
    // Four turns of A come back.
    for _ in 0..4 {
        game.step(button::A);
        game.step(0);
    }
    assert_eq!(game.piece, 3);
    assert_eq!((game.x, game.y), (5, 0));
}

#[test]
fn a_turn_into_the_wall_is_refused_without_a_kick() {
    let mut game = NesGame::new(&start_19_9());
    game.piece = 17;
    game.x = 0;
    game.y = 5;
    game.step(button::A);
    game.step(0);
    assert_eq!((game.piece, game.x, game.y), (17, 0, 5));
    game.step(button::B);
    game.step(0);
    assert_eq!((game.piece, game.x, game.y), (17, 0, 5));
    // Two columns from the wall the horizontal I fits.
    game.x = 2;
    game.step(button::A);
    game.step(0);
    assert_eq!((game.piece, game.x), (18, 2));
    // Against the right wall: T left (3) at column 9 cannot turn to T down (2).
    let mut game = NesGame::new(&start_19_9());
    game.piece = 3;
    game.x = 9;
    game.y = 5;
    game.step(button::B);
    game.step(0);
    assert_eq!((game.piece, game.x), (3, 9));
}

#[test]
fn a_turn_into_the_stack_is_refused() {
    let mut game = NesGame::new(&start_19_9());
    game.piece = 17;
    game.x = 4;
    game.y = 5;
    // Column 6 of row 5 is taken: the horizontal I (columns 2..=5) fits; a stone at column 5
    // stops it.
    game.cells[5 * 10 + 6] = FILLED;
    let mut turned = game;
    turned.step(button::A);
    turned.step(0);
    assert_eq!(turned.piece, 18);
    game.cells[5 * 10 + 5] = FILLED;
    game.step(button::A);
    game.step(0);
    assert_eq!((game.piece, game.x), (17, 4));
}

#[test]
fn a_move_into_the_wall_is_refused() {
    let mut game = NesGame::new(&start_19_9());
    game.x = 1;
    game.step(button::LEFT);
    game.step(0);
    assert_eq!(game.x, 1, "the O's left cell is at x - 1");
}

// ---------------------------------------------------------------------------------------------
// Movegen against the engine
// ---------------------------------------------------------------------------------------------

/// Plays a placement's taps on a copy of `game` (taps counted from its spawn frame; a tap on
/// frame 0 is the spawn frame's own press, already read) and returns the frame the piece
/// locked on and where.
fn play(game: &NesGame, p: &Placement) -> (u16, u8, i8, i8) {
    let mut game = *game;
    let mut taps = p.taps.iter().peekable();
    if let Some(t) = taps.next_if(|t| t.frame == 0) {
        game.held = t.buttons;
    }
    for frame in 1..=5000u16 {
        let buttons = taps.next_if(|t| t.frame == frame).map_or(0, |t| t.buttons);
        let events = game.step(buttons);
        assert_eq!(game.outcome, Outcome::Playing);
        if events.locked {
            assert!(taps.next().is_none(), "taps after the lock: {p:?}");
            return (frame, game.piece, game.x, game.y);
        }
    }
    panic!("no lock in 5000 frames: {p:?}");
}

/// The cells a placement fills, sorted.
fn cells(p: &Placement) -> Vec<(i8, i8)> {
    let mut cells: Vec<(i8, i8)> = ORIENTATIONS[p.piece as usize]
        .iter()
        .map(|&(dy, dx)| (p.y + dy, p.x + dx))
        .collect();
    cells.sort_unstable();
    cells
}

/// A piece as it spawned in a record: the game as the search sees it (nothing held on the
/// spawn frame or the one before), the frame a press may first be made on, and the (piece, x,
/// y) and lock frame (from the spawn frame) the record then played.
struct Spawned {
    game: NesGame,
    first: u16,
    played: (u8, i8, i8),
    lock: u16,
}

/// Every spawn of a record whose piece fits where it spawns (one that does not is a top-out).
fn spawns(record: &NesRecord) -> Vec<Spawned> {
    let mut states = Vec::new();
    let mut pending: Option<(NesGame, u16, i64)> = Some((NesGame::new(&record.start), 1, -1));
    let mut game = NesGame::new(&record.start);
    for (frame, &b) in record.frames.iter().enumerate() {
        let events = game.step(b);
        if events.locked {
            let (state, first, spawn) = pending.take().expect("a lock follows a spawn");
            if state.fits(state.piece, state.x, state.y) {
                states.push(Spawned {
                    game: state,
                    first,
                    played: (game.piece, game.x, game.y),
                    lock: (frame as i64 - spawn) as u16,
                });
            }
        }
        if events.spawned {
            let mut state = game;
            state.held = 0;
            state.held_before = 0;
            pending = Some((state, 0, frame as i64));
        }
        if game.outcome != Outcome::Playing {
            break;
        }
    }
    states
}

/// The spawns of the level 19 solver fixture, found under tap:2.
fn fixture_states() -> Vec<Spawned> {
    let states = spawns(&fixture());
    assert!(states.len() > 500);
    states
}

/// Checks every placement of a state on the engine; returns how many there were.
fn check_placements(game: &NesGame, model: InputModel, first_press: u16) -> usize {
    let found = placements(game, model, first_press);
    assert!(!found.is_empty());
    let mut positions = HashSet::new();
    let mut shapes = HashSet::new();
    for p in &found {
        assert!(game.fits(p.piece, p.x, p.y), "{p:?}");
        assert!(!game.fits(p.piece, p.x, p.y + 1), "not at rest: {p:?}");
        assert_eq!(
            play(game, p),
            (p.lock_frame, p.piece, p.x, p.y),
            "the engine plays {p:?} elsewhere (level {})",
            game.level
        );
        assert!(positions.insert((p.piece, p.x, p.y)), "twice: {p:?}");
        assert!(shapes.insert(cells(p)), "same cells twice: {p:?}");
        let every = model.tap_every as u16;
        let mut last: Option<u16> = None;
        for t in &p.taps {
            assert!(t.frame >= first_press, "{p:?}");
            assert!(
                (t.frame - first_press).is_multiple_of(every),
                "off the model's beat: {p:?}"
            );
            if let Some(l) = last {
                assert!(
                    t.frame >= l + every,
                    "taps closer than {every} frames: {p:?}"
                );
            }
            assert!(t.frame < p.lock_frame, "{p:?}");
            assert_eq!(t.buttons & (button::DOWN | button::UP | button::START), 0);
            assert!(t.buttons.count_ones() <= 2, "{p:?}");
            last = Some(t.frame);
        }
    }
    found.len()
}

/// A record the search made under `model` locks each piece at one of its placements, on the
/// frame the placement says.
fn assert_played_is_found(s: &Spawned, model: InputModel) {
    let found = placements(&s.game, model, s.first);
    assert!(
        found
            .iter()
            .any(|p| (p.piece, p.x, p.y) == s.played && p.lock_frame == s.lock),
        "the record's {:?} at frame {} is not among {} placements",
        s.played,
        s.lock,
        found.len()
    );
}

#[test]
fn every_placement_plays_on_the_engine_as_found_under_tap_2() {
    let model = InputModel {
        tap_every: 2,
        das: false,
    };
    let mut total = 0;
    for s in fixture_states() {
        total += check_placements(&s.game, model, s.first);
        assert_played_is_found(&s, model);
    }
    assert!(total > 10_000, "{total}");
}

#[test]
fn every_placement_plays_on_the_engine_as_found_under_tap_4() {
    let model = InputModel {
        tap_every: 4,
        das: false,
    };
    let mut fewer = 0;
    for Spawned { game, first, .. } in fixture_states() {
        check_placements(&game, model, first);
        // Every fourth frame is also every other frame: what tap:4 reaches, tap:2 reaches,
        // locking on the same frame (gravity alone decides it).
        let fast: HashSet<(u8, i8, i8, u16)> = placements(&game, InputModel::DEFAULT, first)
            .iter()
            .map(|p| (p.piece, p.x, p.y, p.lock_frame))
            .collect();
        let slow = placements(&game, model, first);
        for p in &slow {
            assert!(
                fast.contains(&(p.piece, p.x, p.y, p.lock_frame)),
                "tap:4 reaches {p:?}, tap:2 does not"
            );
        }
        if slow.len() < fast.len() {
            fewer += 1;
        }
    }
    assert!(fewer > 0, "tap:4 never reaches less than tap:2");
}

#[test]
fn every_placement_plays_on_the_engine_at_other_speeds() {
    let states = fixture_states();
    for (i, Spawned { game, first, .. }) in states.iter().enumerate().step_by(37) {
        for level in [0u8, 8, 13, 29, 40] {
            let mut game = *game;
            game.level = level;
            for every in [2u8, 3, 5] {
                let n = check_placements(
                    &game,
                    InputModel {
                        tap_every: every,
                        das: false,
                    },
                    *first,
                );
                assert!(n > 0, "state {i}");
            }
        }
    }
}

#[test]
fn the_first_piece_can_press_from_frame_1_and_may_press_on_frame_0_after_a_spawn() {
    let record = fixture();
    let game = NesGame::new(&record.start);
    let found = placements(&game, InputModel::DEFAULT, 1);
    assert!(found.iter().flat_map(|p| &p.taps).all(|t| t.frame % 2 == 1));
    assert!(found.iter().flat_map(|p| &p.taps).any(|t| t.frame == 1));
    let found = placements(&game, InputModel::DEFAULT, 0);
    assert!(found.iter().flat_map(|p| &p.taps).any(|t| t.frame == 0));
    for p in &found {
        assert_eq!(play(&game, p), (p.lock_frame, p.piece, p.x, p.y));
    }
}

#[test]
fn an_empty_field_at_level_19_offers_every_column_of_every_orientation() {
    // Each kind on an empty field: every orientation that fits, at every column, on the floor.
    for kind in SPAWN_TABLE {
        let mut game = NesGame::new(&start_19_9());
        game.piece = kind;
        let found = placements(&game, InputModel::DEFAULT, 0);
        let orientations: HashSet<u8> = found.iter().map(|p| p.piece).collect();
        let expected = match kind {
            10 => 1,
            8 | 11 | 18 => 2,
            _ => 4,
        };
        assert_eq!(orientations.len(), expected, "kind {kind}");
        for p in &found {
            let bottom = ORIENTATIONS[p.piece as usize]
                .iter()
                .map(|&(dy, _)| p.y + dy)
                .max();
            assert_eq!(bottom, Some(19), "{p:?}");
        }
        // The first piece hangs long enough to reach every column in every orientation.
        for &o in &orientations {
            let dxs = ORIENTATIONS[o as usize].iter().map(|&(_, dx)| dx);
            let (lo, hi) = (dxs.clone().min().unwrap(), dxs.max().unwrap());
            let xs: HashSet<i8> = found.iter().filter(|p| p.piece == o).map(|p| p.x).collect();
            assert_eq!(xs, (-lo..=9 - hi).collect(), "orientation {o}");
        }
    }
}

/// The presses a model tries on a frame that allows one (as the movegen does: a shift, a turn,
/// or both; Down is not part of the model).
const PRESSES: [u8; 9] = [
    0,
    button::LEFT,
    button::RIGHT,
    button::A,
    button::B,
    button::LEFT | button::A,
    button::LEFT | button::B,
    button::RIGHT | button::A,
    button::RIGHT | button::B,
];

/// Every (piece, x, y, lock frame) the engine itself reaches from `game` under a model, by
/// trying every press on every frame the model allows: an oracle independent of the movegen.
/// Every placement the movegen finds plays on the engine as found, and they are exactly the
/// places (and lock frames) the engine reaches under the model; returns how many.
fn assert_movegen_is_the_engines(s: &Spawned, model: InputModel, what: &str) -> usize {
    check_placements(&s.game, model, s.first);
    let found: HashSet<(u8, i8, i8, u16)> = placements(&s.game, model, s.first)
        .iter()
        .map(|p| (p.piece, p.x, p.y, p.lock_frame))
        .collect();
    assert_eq!(found, engine_reachable(&s.game, model, s.first), "{what}");
    found.len()
}

fn engine_reachable(game: &NesGame, model: InputModel, first: u16) -> HashSet<(u8, i8, i8, u16)> {
    let every = model.tap_every as u16;
    let allowed = |t: u16| t >= first && (t - first).is_multiple_of(every);
    let key = |g: &NesGame| (g.piece, g.x, g.y, g.held, g.held_before, g.autorepeat_x);
    let mut seen = HashSet::new();
    let mut frontier = Vec::new();
    let presses: &[u8] = if allowed(0) { &PRESSES } else { &[0] };
    for &b in presses {
        let mut g = *game;
        g.held = b;
        if seen.insert(key(&g)) {
            frontier.push(g);
        }
    }
    let mut out = HashSet::new();
    for t in 1..=5000u16 {
        if frontier.is_empty() {
            break;
        }
        seen.clear();
        let presses: &[u8] = if allowed(t) { &PRESSES } else { &[0] };
        let mut next = Vec::new();
        for g in &frontier {
            for &b in presses {
                let mut g = *g;
                if g.step(b).locked {
                    out.insert((g.piece, g.x, g.y, t));
                } else if seen.insert(key(&g)) {
                    next.push(g);
                }
            }
        }
        frontier = next;
    }
    out
}

#[test]
fn past_level_29_the_movegen_finds_every_placement_and_each_plays_as_found() {
    // The committed game past the transition: one row a frame.
    let path = "tests/fixtures/nes/solver-level19-wait0-to-level39.txt";
    let text = std::fs::read_to_string(path).expect("fixture");
    let states: Vec<Spawned> = spawns(&NesRecord::parse(&text).expect("parses"))
        .into_iter()
        .filter(|s| s.game.level >= 29)
        .collect();
    assert!(states.len() > 200, "{} spawns past level 29", states.len());
    for (i, s) in states.iter().enumerate().step_by(5) {
        assert_played_is_found(s, InputModel::DEFAULT);
        let found = assert_movegen_is_the_engines(s, InputModel::DEFAULT, &format!("state {i}"));
        // Held directions play as found too, and reach at least as far.
        let held = placements(
            &s.game,
            InputModel {
                tap_every: 2,
                das: true,
            },
            s.first,
        );
        for p in &held {
            assert_eq!(play(&s.game, p), (p.lock_frame, p.piece, p.x, p.y), "{p:?}");
        }
        assert!(held.len() >= found, "state {i}");
    }
}

#[test]
fn the_movegen_finds_every_placement_the_engine_reaches() {
    let states = fixture_states();
    for (i, Spawned { game, first, .. }) in states.iter().enumerate().step_by(4) {
        for every in [2u8, 4] {
            let model = InputModel {
                tap_every: every,
                das: false,
            };
            let found: HashSet<(u8, i8, i8, u16)> = placements(game, model, *first)
                .iter()
                .map(|p| (p.piece, p.x, p.y, p.lock_frame))
                .collect();
            let reached = engine_reachable(game, model, *first);
            let missed: Vec<_> = reached.difference(&found).collect();
            let extra: Vec<_> = found.difference(&reached).collect();
            assert!(
                missed.is_empty() && extra.is_empty(),
                "state {i}, tap:{every}: the movegen misses {missed:?} and adds {extra:?}"
            );
        }
    }
    // Slower gravity gives time for tucks and spins under overhangs.
    for (i, Spawned { game, first, .. }) in states.iter().enumerate().step_by(53) {
        let mut game = *game;
        game.level = 8;
        let model = InputModel {
            tap_every: 3,
            das: false,
        };
        let found: HashSet<(u8, i8, i8, u16)> = placements(&game, model, *first)
            .iter()
            .map(|p| (p.piece, p.x, p.y, p.lock_frame))
            .collect();
        assert_eq!(found, engine_reachable(&game, model, *first), "state {i}");
    }
}

/// Every NES record committed as a fixture.
fn all_fixtures() -> Vec<(String, NesRecord)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nes");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("read tests/fixtures/nes") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let text = std::fs::read_to_string(&path).unwrap();
            let record =
                NesRecord::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((path.display().to_string(), record));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty());
    out
}

#[test]
fn every_fixture_prints_back_and_shows_the_capped_score() {
    for (name, record) in all_fixtures() {
        assert_eq!(
            NesRecord::parse(&record.to_text(&[])).unwrap(),
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

#[test]
fn the_movegen_matches_the_engine_on_the_fields_of_random_play() {
    // Random input leaves holes and overhangs at slow gravity: room for tucks and spins.
    let mut checked = 0;
    for (name, record) in all_fixtures() {
        if record.frames.len() > 10_000 {
            continue;
        }
        for (i, s) in spawns(&record).iter().enumerate() {
            for every in [2u8, 5] {
                let model = InputModel {
                    tap_every: every,
                    das: false,
                };
                assert_movegen_is_the_engines(
                    s,
                    model,
                    &format!("{name}, piece {}, tap:{every}", i + 1),
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "{checked}");
}

/// With auto shift allowed, every placement still plays on the engine as found, each place
/// comes once, the taps' placements are all among them, and a slow tapper reaches places it
/// could not reach without holding a direction.
#[test]
fn auto_shift_placements_play_on_the_engine_and_reach_further() {
    let record = fixture();
    let mut played = NesGame::new(&record.start);
    let mut spawns = 0;
    let mut gained = 0;
    for &buttons in &record.frames {
        let events = played.step(buttons);
        if !events.spawned {
            continue;
        }
        spawns += 1;
        if spawns % 10 != 0 {
            continue;
        }
        // The game as the search sees it at a spawn: nothing held.
        let mut game = played;
        game.held = 0;
        game.held_before = 0;
        for every in [2u8, 6, 20] {
            let taps = placements(
                &game,
                InputModel {
                    tap_every: every,
                    das: false,
                },
                0,
            );
            let held = placements(
                &game,
                InputModel {
                    tap_every: every,
                    das: true,
                },
                0,
            );
            let mut places = HashSet::new();
            for p in &held {
                assert_eq!(play(&game, p), (p.lock_frame, p.piece, p.x, p.y), "{p:?}");
                assert!(places.insert((p.piece, p.x, p.y)), "twice: {p:?}");
            }
            for p in &taps {
                assert!(
                    places.contains(&(p.piece, p.x, p.y)),
                    "lost with auto shift: {p:?}"
                );
            }
            gained += held.len() - taps.len();
        }
    }
    assert!(spawns > 100);
    assert!(gained > 0, "auto shift never reached further");
}
