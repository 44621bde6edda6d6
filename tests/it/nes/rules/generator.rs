//! The NES engine's random generator and its piece choice, as the ROM draws them.

use std::collections::HashSet;
use tetris_opt::games::nes::rules::{next_rng, pick_piece};
use tetris_opt::games::nes::tables::SPAWN_TABLE;

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
