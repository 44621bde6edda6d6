use super::*;

/// A clear as the crash sweeps set it up (`tools/nes-oracle/crashes.py`): the bottom rows
/// full, a vertical I in column 9, no push-down, the next box shown; `low`: nothing on rows
/// 0-5 and the music slow, else a stack to row 1 and the music fast.
fn swept(level: u8, rows: u8, crossing: bool, low: bool, carry: bool) -> Count {
    Count {
        level: level + u8::from(crossing),
        rows,
        deep_rows: rows,
        tens: crossing,
        level_up: crossing,
        type_carry: carry,
        piece: if rows > 0 { 0x13 } else { 17 },
        was_allegro: !low,
        first_block: (!low).then_some(0),
        ..Count::default()
    }
}

#[test]
fn the_low_stack_triple_at_169_survives_only_with_the_counter_carry() {
    // FCEUX crashes on it unless the triples' counter carries, whatever the phase.
    let plain = swept(169, 3, false, true, false);
    assert_eq!(plain.cycles(), 29_376);
    assert_eq!(fate(29_376, false), Fate::Crash);
    assert!(plain.margin() < 0);
    let carry = swept(169, 3, false, true, true);
    assert_eq!(carry.cycles(), 29_387);
    assert!((0..=UNKNOWN).all(|r| fate(29_387 + r, false) == Fate::Safe));
    assert!(carry.margin() >= 0);
}

#[test]
fn the_low_stack_four_line_clear_at_176_lags_and_the_tall_one_does_not() {
    // On Nestopia and FCEUX (crashes.py one --level 176 --rows 4 --lines 1705) the low stack's
    // next piece spawns a frame late in phases 0, 2 and 3; the tall stack's never does.
    let low = swept(176, 4, false, true, false);
    assert!((0..=UNKNOWN).all(|r| fate(low.cycles() + r, false) == Fate::Lag));
    assert!(low.margin() < 0);
    let tall = swept(176, 4, false, false, false);
    assert!((0..=UNKNOWN).all(|r| fate(tall.cycles() + r, false) == Fate::Safe));
}

#[test]
fn a_count_that_switches_the_music_to_fast_is_not_called_safe_from_the_quiet_level() {
    // The plain lock at level 255 that stalled Nestopia at the end of both long games: an L
    // locked on rows 5-6 with the box hidden, row 5 empty and the music slow before it.
    let switch = Count {
        level: 255,
        piece: 14,
        first_block: Some(4),
        next_hidden: true,
        ..Count::default()
    };
    assert!(switch.switches_music());
    assert_eq!(switch.margin(), -1);
    // The model's own count puts it 151 cycles short of the stall (counted with the box, as
    // the hang is): what the switch costs on the ROM is more than the 41 counted.
    assert_eq!(switch.cycles() + 562 + 394 + 151, 30_405);
    // The music already fast, or below the quiet level, the count is judged as any other.
    let fast = Count {
        was_allegro: true,
        ..switch
    };
    assert!(!fast.switches_music());
    let low = Count {
        level: QUIET_BELOW - 1,
        ..switch
    };
    assert_eq!(low.margin(), margin(low.cycles(), true));
}

#[test]
fn a_single_passing_1540_at_level_154_crashes_with_a_low_stack_only() {
    // The score loop runs at the level reached (155); the music's check costs 149 cycles on
    // an empty row 5 and nothing where column 0 has a block with the music already fast.
    let low = swept(154, 1, true, true, false);
    assert_eq!(low.cycles(), 8_109 + 136 * 155);
    assert!((0..=UNKNOWN).all(|r| fate(low.cycles() + r, false) == Fate::Crash));
    let tall = swept(154, 1, true, false, false);
    assert_eq!(tall.cycles(), low.cycles() - 149);
    assert!(tall.margin() > 3);
}

#[test]
fn plain_locks_fail_at_the_levels_the_sweeps_found() {
    // Rows 0: 249 with a low stack, 250 and 251 with a tall one, 255 with either; 252 and 254
    // with neither.
    let unsafe_at = |level, low| swept(level, 0, false, low, false).margin() < 0;
    assert!(unsafe_at(249, true) && !unsafe_at(249, false));
    assert!(!unsafe_at(250, true) && unsafe_at(250, false));
    assert!(!unsafe_at(251, true) && unsafe_at(251, false));
    assert!(unsafe_at(255, true) && unsafe_at(255, false));
    for level in [252, 254] {
        assert!(!unsafe_at(level, true) && !unsafe_at(level, false));
    }
}

#[test]
fn the_margin_is_the_distance_to_the_nearest_failing_count() {
    for hidden in [false, true] {
        for c in (28_000..32_500).step_by(7) {
            let fails = |x: u32| fate(x, hidden) != Fate::Safe;
            let m = margin(c, hidden);
            if (c..=c + UNKNOWN).any(fails) {
                assert_eq!(m, -1, "{c}");
                continue;
            }
            let m = m as u32;
            let clear = |m: u32| (c.saturating_sub(m)..=c + UNKNOWN + m).all(|x| !fails(x));
            assert!(clear(m), "{c}: margin {m}");
            assert!(
                m == FAR as u32 || !clear(m + 1),
                "{c}: margin {m} is not the largest"
            );
        }
    }
}

#[test]
fn the_failing_ranges_are_the_model_s() {
    // The jump table meets the crash windows at each switch's offset; the second switch
    // survives the last six cycles, the sixth draws garbage there.
    assert_eq!(fate(29_739, false), Fate::Crash);
    assert_eq!(fate(29_745, false), Fate::Safe);
    assert_eq!(fate(29_768, false), Fate::Crash);
    assert_eq!(fate(29_768 - 60, false), Fate::Safe);
    assert_eq!(fate(29_768 - 383, false), Fate::Garbage);
    assert_eq!(fate(29_768 - 562, false), Fate::Crash);
    // Below the first window at the last switch nothing fails.
    assert_eq!(fate(29_739 - 562, false), Fate::Crash);
    assert_eq!(fate(29_739 - 563, false), Fate::Safe);
    // Past the switches: the stall only while the next box shows, the hang either way.
    assert_eq!(fate(30_405 - 562, false), Fate::Stall);
    assert_eq!(fate(30_405 - 562, true), Fate::Safe);
    assert_eq!(fate(31_314 - 562, false), Fate::Hang);
    // Between the two, the lag that may move the next spawn.
    assert_eq!(fate(30_754 - 562, false), Fate::Stall);
    assert_eq!(fate(30_755 - 562, false), Fate::Safe);
    assert_eq!(fate(30_863 - 562, false), Fate::Safe);
    assert_eq!(fate(30_864 - 562, false), Fate::Lag);
    assert_eq!(fate(31_313 - 562, false), Fate::Lag);
    assert_eq!(fate(30_864 - 562 - 394, true), Fate::Lag);
    assert_eq!(fate(31_314 - 562 - 394, true), Fate::Hang);
    // Far past them the frame only lags, which the game's timing does not see.
    assert_eq!(fate(40_000, false), Fate::Safe);
    assert_eq!(margin(20_000, false), FAR);
}

#[test]
fn each_term_moves_the_count_as_the_model_says() {
    let base = swept(160, 2, false, true, false);
    let c = base.cycles();
    let with = |f: fn(&mut Count)| {
        let mut x = base;
        f(&mut x);
        x.cycles() as i64 - c as i64
    };
    assert_eq!(with(|x| x.next_hidden = true), -394);
    assert_eq!(with(|x| x.select = true), 7);
    assert_eq!(with(|x| x.hundreds = true), 12);
    assert_eq!(with(|x| x.type_carry = true), 11);
    assert_eq!(with(|x| x.deep_rows = 0), -4);
    // Push-down points replace the clear type's and the counter's terms.
    assert_eq!(with(|x| x.push_down = 5), 99 - 42);
    assert_eq!(with(|x| x.push_down = 9), 90 - 42);
    assert_eq!(with(|x| x.was_allegro = true), 38);
    assert_eq!(with(|x| x.first_block = Some(3)), 48 + 41 - 149);
    assert_eq!(with(|x| x.piece = 8), -4);
    assert_eq!(with(|x| x.piece = 2), -12);
    assert_eq!(with(|x| x.level = 161), 125);
    // The frame counter matters for a four-line clear only.
    assert_eq!(with(|x| x.eighth_frame = true), 0);
    let mut four = base;
    four.rows = 4;
    four.deep_rows = 4;
    let c4 = four.cycles();
    four.eighth_frame = true;
    assert_eq!(four.cycles(), c4 + 5);
}

#[test]
fn no_count_below_the_quiet_level_comes_near_a_failing_one() {
    for level in 0..QUIET_BELOW {
        for rows in 0..=4 {
            for push_down in [0, 5] {
                let loudest = Count {
                    level,
                    rows,
                    deep_rows: rows,
                    tens: true,
                    hundreds: true,
                    level_up: true,
                    push_down,
                    type_carry: true,
                    eighth_frame: true,
                    piece: 0x13,
                    was_allegro: false,
                    first_block: Some(9),
                    select: true,
                    next_hidden: false,
                };
                assert_eq!(loudest.margin(), FAR, "level {level}, rows {rows}");
            }
        }
    }
}
