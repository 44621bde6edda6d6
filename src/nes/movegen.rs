//! Placements a piece can reach under an input model, and the input that reaches each.
//!
//! Without Down, the piece's row is a function of the frame (gravity does not depend on where
//! the piece is), so the search runs frame by frame over the (orientation, column) pairs the
//! piece can be in, all at the same row; presses act on the frames the model allows, each
//! shifting and then turning as the ROM does within a frame; on a gravity frame every pair that
//! cannot move down locks there. The reachability checks are the plain engine's own
//! (`NesGame::fits`), so a placement found here is one the engine plays.

use super::engine::{button, NesGame};
use super::tables::{frames_per_drop, ROTATE_A, ROTATE_B};
use smallvec::SmallVec;

/// How fast and how the player presses buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputModel {
    /// Frames from one press to the next (2: a press every other frame, the fastest the ROM
    /// reads as separate presses; 4: fifteen presses a second). Each press lasts one frame.
    pub tap_every: u8,
}

impl InputModel {
    pub const DEFAULT: InputModel = InputModel { tap_every: 2 };
}

/// One press: the record frame (counted from the piece's spawn frame) and the buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tap {
    pub frame: u16,
    pub buttons: u8,
}

/// Where a piece can lock, and the presses that put it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub piece: u8,
    pub x: i8,
    pub y: i8,
    /// The frame (counted from the spawn frame) on which it locks.
    pub lock_frame: u16,
    pub taps: SmallVec<[Tap; 6]>,
}

/// The presses tried on a frame that allows one: nothing, a shift, a turn, or a shift then a
/// turn.
const ACTIONS: [u8; 8] = [
    button::LEFT,
    button::RIGHT,
    button::A,
    button::B,
    button::LEFT | button::A,
    button::LEFT | button::B,
    button::RIGHT | button::A,
    button::RIGHT | button::B,
];

/// A pair the search holds on one frame and how it got there.
#[derive(Clone, Copy)]
struct Node {
    piece: u8,
    x: i8,
    /// The node of the previous frame it came from (`u32::MAX` for the spawn).
    parent: u32,
    /// Buttons pressed on the previous frame to get here (0: none).
    buttons: u8,
}

/// The placements of the active piece of a game that has just spawned it, each with the
/// earliest presses that reach it, in a fixed order. Presses are counted from the spawn frame
/// (whose own press the next frame reads); `first_press` is the first frame a press may be
/// made on: 0, or 1 for the game's first piece, whose spawn frame belongs to the menus.
pub fn placements(game: &NesGame, model: InputModel, first_press: u16) -> Vec<Placement> {
    let tap_every = model.tap_every.max(2) as u32;
    let first_press = first_press as u32;
    // Frame by frame: all the nodes ever held, and the range of the current frame's.
    let mut nodes: Vec<Node> = vec![Node {
        piece: game.piece,
        x: game.x,
        parent: u32::MAX,
        buttons: 0,
    }];
    let mut frame_of: Vec<u16> = vec![0];
    let mut current: Vec<u32> = vec![0];
    let mut y = game.y;
    let mut fall_timer = game.fall_timer;
    let mut autorepeat_y = game.autorepeat_y;
    let speed = frames_per_drop(game.level);
    let mut out = Vec::new();
    // seen[piece][x + 2]: the pair is already held on this frame.
    let mut seen = [[false; 14]; 19];
    let mut frame: u32 = 0;
    while !current.is_empty() {
        frame += 1;
        if frame > 4000 {
            break;
        }
        // Presses read on this frame were made on the one before.
        let can_press = frame > first_press && (frame - 1 - first_press).is_multiple_of(tap_every);
        for row in seen.iter_mut() {
            row.fill(false);
        }
        let mut next: Vec<u32> = Vec::with_capacity(current.len() * 3);
        let mut add = |nodes: &mut Vec<Node>, frame_of: &mut Vec<u16>, n: Node| {
            let cell = &mut seen[n.piece as usize][(n.x + 2) as usize];
            if !*cell {
                *cell = true;
                nodes.push(n);
                frame_of.push(frame as u16);
                next.push(nodes.len() as u32 - 1);
            }
        };
        for &i in &current {
            let n = nodes[i as usize];
            add(
                &mut nodes,
                &mut frame_of,
                Node {
                    parent: i,
                    buttons: 0,
                    ..n
                },
            );
        }
        if can_press {
            for &i in &current {
                let n = nodes[i as usize];
                for &buttons in &ACTIONS {
                    let mut x = n.x;
                    let dx = if buttons & button::RIGHT != 0 {
                        1
                    } else if buttons & button::LEFT != 0 {
                        -1
                    } else {
                        0
                    };
                    if dx != 0 {
                        if !game.fits(n.piece, x + dx, y) {
                            continue;
                        }
                        x += dx;
                    }
                    let mut piece = n.piece;
                    if buttons & (button::A | button::B) != 0 {
                        let turned = if buttons & button::A != 0 {
                            ROTATE_A[piece as usize]
                        } else {
                            ROTATE_B[piece as usize]
                        };
                        if turned == piece || !game.fits(turned, x, y) {
                            continue;
                        }
                        piece = turned;
                    }
                    add(
                        &mut nodes,
                        &mut frame_of,
                        Node {
                            piece,
                            x,
                            parent: i,
                            buttons,
                        },
                    );
                }
            }
        }
        // Gravity, as `drop_tetrimino` runs it without Down.
        fall_timer = fall_timer.wrapping_add(1);
        let falls = if (autorepeat_y as i8) < 0 {
            autorepeat_y = autorepeat_y.wrapping_add(1);
            false
        } else {
            (fall_timer.wrapping_sub(speed) as i8) >= 0
        };
        if !falls {
            current = next;
            continue;
        }
        fall_timer = 0;
        let mut alive = Vec::with_capacity(next.len());
        for &i in &next {
            let n = nodes[i as usize];
            if game.fits(n.piece, n.x, y + 1) {
                alive.push(i);
            } else {
                out.push(placement(&nodes, &frame_of, i, y, frame as u16));
            }
        }
        y += 1;
        current = alive;
    }
    out
}

/// The placement a node locks into, with the presses along its path.
fn placement(nodes: &[Node], frame_of: &[u16], last: u32, y: i8, lock_frame: u16) -> Placement {
    let mut taps: SmallVec<[Tap; 6]> = SmallVec::new();
    let mut i = last;
    while i != u32::MAX {
        let n = nodes[i as usize];
        if n.buttons != 0 {
            // Read on frame f, pressed on frame f - 1 (counted from the spawn frame).
            taps.push(Tap {
                frame: frame_of[i as usize] - 1,
                buttons: n.buttons,
            });
        }
        i = n.parent;
    }
    taps.reverse();
    let n = nodes[last as usize];
    Placement {
        piece: n.piece,
        x: n.x,
        y,
        lock_frame,
        taps,
    }
}
