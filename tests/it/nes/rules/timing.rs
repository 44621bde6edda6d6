//! The NES engine's timing and controls: the first piece's hang, input latency, DAS, soft drop
//! points, rotation and the moves the wall and the stack refuse.

use crate::nes::{start_19_9, FILLED};
use tetris_opt::games::nes::rules::{button, play_state, Round};
use tetris_opt::games::nes::start::start;
use tetris_opt::games::nes::tables::EMPTY_TILE;

#[test]
fn the_first_piece_hangs_96_frames_without_input() {
    for (level, wait) in [(19, 9), (19, 0), (18, 200), (0, 5)] {
        let mut game = Round::new(&start(level, wait).unwrap());
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
    let mut game = Round::new(&start_19_9());
    game.step(button::DOWN);
    assert_eq!(game.y, 0);
    game.step(0);
    assert_eq!(game.y, 1);
}

#[test]
fn a_tap_moves_the_piece_on_the_next_frame() {
    let mut game = Round::new(&start_19_9());
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
    let mut game = Round::new(&start_19_9());
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
    let mut game = Round::new(&start_19_9());
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
    let mut game = Round::new(&start_19_9());
    game.step(button::LEFT | button::RIGHT);
    game.step(0);
    assert_eq!(game.x, 6);
    game.step(button::RIGHT | button::DOWN);
    game.step(0);
    assert_eq!(game.x, 6, "Down held: no shift");
}

#[test]
fn a_piece_held_against_the_stack_moves_the_moment_it_can() {
    let mut game = Round::new(&start_19_9());
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
        let mut game = Round::new(&start(level, wait).unwrap());
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
    let mut game = Round::new(&start_19_9());
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
    let mut game = Round::new(&start_19_9());
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
    let mut game = Round::new(&start_19_9());
    game.piece = 3;
    game.x = 9;
    game.y = 5;
    game.step(button::B);
    game.step(0);
    assert_eq!((game.piece, game.x), (3, 9));
}

#[test]
fn a_turn_into_the_stack_is_refused() {
    let mut game = Round::new(&start_19_9());
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
    let mut game = Round::new(&start_19_9());
    game.x = 1;
    game.step(button::LEFT);
    game.step(0);
    assert_eq!(game.x, 1, "the O's left cell is at x - 1");
}
