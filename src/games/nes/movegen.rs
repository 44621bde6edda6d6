//! Placements a piece can reach under an input model, and the input that reaches each.
//!
//! Without Down, the piece's row is a function of the frame (gravity does not depend on where
//! the piece is), so the search runs frame by frame over the (orientation, column) pairs the
//! piece can be in, all at the same row; presses act on the frames the model allows, each
//! shifting and then turning as the ROM does within a frame; on a gravity frame every pair that
//! cannot move down locks there. The reachability checks are the plain engine's own
//! (`Round::fits`), so a placement found here is one the engine plays.

use super::rules::{button, Round};
use super::tables::{frames_per_drop, ROTATE_A, ROTATE_B};
use smallvec::SmallVec;

/// How fast and how the player presses buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputModel {
    /// Frames from one press to the next (2: a press every other frame, the fastest the ROM
    /// reads as separate presses; 4: fifteen presses a second). Each press lasts one frame.
    pub tap_every: u8,
    /// Left or Right may also be held, for the ROM's auto shift (a move at once, then after
    /// 16 frames, then every 6); a hold begins on a frame a press may be made on.
    pub das: bool,
}

impl InputModel {
    pub const DEFAULT: InputModel = InputModel {
        tap_every: 2,
        das: false,
    };
}

/// One press: the record frame (counted from the piece's spawn frame) and the buttons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

/// A state the search holds on one frame and how it got there.
#[derive(Clone, Copy)]
struct Node {
    piece: u8,
    x: i8,
    /// The direction held on the frame before (Left, Right or none): with auto shift allowed,
    /// a hold goes on from frame to frame.
    hold: u8,
    /// `autorepeatX` while a direction is held (0 otherwise).
    autorepeat_x: u8,
    /// The node of the previous frame it came from (`u32::MAX` for the spawn).
    parent: u32,
    /// Buttons pressed on the previous frame to get here (0: none).
    buttons: u8,
}

impl Node {
    /// The piece as it spawned, nothing pressed.
    fn spawn(game: &Round) -> Node {
        Node {
            piece: game.piece,
            x: game.x,
            hold: 0,
            autorepeat_x: 0,
            parent: u32::MAX,
            buttons: 0,
        }
    }
}

/// The placements of the active piece of a game that has just spawned it, each with the
/// earliest presses that reach it, in a fixed order. Presses are counted from the spawn frame
/// (whose own press the next frame reads); `first_press` is the first frame a press may be
/// made on: 0, or 1 for the game's first piece, whose spawn frame belongs to the menus.
pub fn placements(game: &Round, model: InputModel, first_press: u16) -> Vec<Placement> {
    let tap_every = model.tap_every.max(2) as u32;
    let first_press = first_press as u32;
    // Frame by frame: all the nodes ever held, and the current frame's.
    let mut nodes: Vec<Node> = vec![Node::spawn(game)];
    let mut frame_of: Vec<u16> = vec![0];
    let mut current: Vec<u32> = vec![0];
    let mut gravity = Gravity::of(game);
    let mut out = Vec::new();
    // The frame on which each state was last added: (piece, x) and, with auto shift, the
    // direction held and its counter.
    let (holds, counters) = if model.das { (3, 17) } else { (1, 1) };
    let mut seen = vec![0u32; 19 * 14 * holds * counters];
    let key = |n: &Node| {
        let hold = match n.hold {
            button::LEFT => 1,
            button::RIGHT => 2,
            _ => 0,
        };
        ((n.piece as usize * 14 + (n.x + 2) as usize) * holds + hold.min(holds - 1)) * counters
            + (n.autorepeat_x as usize).min(counters - 1)
    };
    let mut locked = [[0u32; 14]; 19];
    let mut frame: u32 = 0;
    while !current.is_empty() {
        frame += 1;
        if frame > 4000 {
            break;
        }
        // Presses read on this frame were made on the one before.
        let can_press = frame > first_press && (frame - 1 - first_press).is_multiple_of(tap_every);
        let mut next: Vec<u32> = Vec::with_capacity(current.len() * 3);
        // Every state first goes on as it is (a hold goes on too), then the new presses: so
        // each state keeps the path that got there with the earliest presses.
        for new_presses in [false, true] {
            for &i in &current {
                let n = nodes[i as usize];
                for (direction, turn) in presses(&n, new_presses, can_press, model.das) {
                    let child = step(game, gravity.y, &n, direction, turn, model.das);
                    let k = key(&child);
                    if seen[k] != frame {
                        seen[k] = frame;
                        nodes.push(Node { parent: i, ..child });
                        frame_of.push(frame as u16);
                        next.push(nodes.len() as u32 - 1);
                    }
                }
            }
        }
        if !gravity.falls() {
            current = next;
            continue;
        }
        let y = gravity.y;
        let mut alive = Vec::with_capacity(next.len());
        for &i in &next {
            let n = nodes[i as usize];
            if game.fits(n.piece, n.x, y + 1) {
                alive.push(i);
            } else if locked[n.piece as usize][(n.x + 2) as usize] != frame {
                // Held directions and their counters make several states of one place; the
                // first found is the place's.
                locked[n.piece as usize][(n.x + 2) as usize] = frame;
                out.push(placement(&nodes, &frame_of, i, y, frame as u16));
            }
        }
        gravity.y += 1;
        current = alive;
    }
    out
}

/// The presses (direction, turn) a node may take on a frame: without new presses, none, and
/// with auto shift the direction it holds, held on; with them, on a frame a press may be made
/// on, every other direction and turn.
#[inline]
fn presses(n: &Node, new_presses: bool, can_press: bool, das: bool) -> SmallVec<[(u8, u8); 9]> {
    let mut options: SmallVec<[(u8, u8); 9]> = SmallVec::new();
    if !new_presses {
        options.push((0, 0));
        if das && n.hold != 0 {
            options.push((n.hold, 0));
        }
    } else if can_press {
        let mut directions: SmallVec<[u8; 4]> = SmallVec::from_slice(&[0]);
        if das && n.hold != 0 {
            directions.push(n.hold);
        }
        directions.extend(
            [button::LEFT, button::RIGHT]
                .into_iter()
                .filter(|&d| d != n.hold),
        );
        for &d in &directions {
            for turn in [0, button::A, button::B] {
                let repeat = turn == 0 && (d == 0 || d == n.hold);
                if !repeat {
                    options.push((d, turn));
                }
            }
        }
    }
    options
}

/// The piece's row, which every state of a frame shares without Down, and the timers of
/// `drop_tetrimino` that move it.
struct Gravity {
    y: i8,
    fall_timer: u8,
    autorepeat_y: u8,
    speed: u8,
}

impl Gravity {
    fn of(game: &Round) -> Gravity {
        Gravity {
            y: game.y,
            fall_timer: game.fall_timer,
            autorepeat_y: game.autorepeat_y,
            speed: frames_per_drop(game.level),
        }
    }

    /// One frame of `drop_tetrimino` without Down: whether the piece is due to fall a row
    /// (down, or to lock where the row below is taken).
    #[inline]
    fn falls(&mut self) -> bool {
        self.fall_timer = self.fall_timer.wrapping_add(1);
        let falls = if (self.autorepeat_y as i8) < 0 {
            self.autorepeat_y = self.autorepeat_y.wrapping_add(1);
            false
        } else {
            (self.fall_timer.wrapping_sub(self.speed) as i8) >= 0
        };
        if falls {
            self.fall_timer = 0;
        }
        falls
    }
}

/// One frame of `shift_tetrimino` and `rotate_tetrimino` for a node, with `direction` and
/// `turn` pressed on the frame before.
fn step(game: &Round, y: i8, n: &Node, direction: u8, turn: u8, das: bool) -> Node {
    let mut x = n.x;
    let mut autorepeat_x = n.autorepeat_x;
    let dx = if direction == button::RIGHT { 1 } else { -1 };
    if direction != 0 {
        let shifts = if direction != n.hold {
            autorepeat_x = 0;
            true
        } else {
            autorepeat_x += 1;
            if autorepeat_x >= 16 {
                autorepeat_x = 10;
                true
            } else {
                false
            }
        };
        if shifts {
            if game.fits(n.piece, x + dx, y) {
                x += dx;
            } else {
                autorepeat_x = 16;
            }
        }
    }
    let mut piece = n.piece;
    if turn != 0 {
        let turned = if turn == button::A {
            ROTATE_A[piece as usize]
        } else {
            ROTATE_B[piece as usize]
        };
        if game.fits(turned, x, y) {
            piece = turned;
        }
    }
    // Without auto shift every press is let go on the next frame, so nothing of it remains.
    let (hold, autorepeat_x) = if das && direction != 0 {
        (direction, autorepeat_x)
    } else {
        (0, 0)
    };
    Node {
        piece,
        x,
        hold,
        autorepeat_x,
        parent: n.parent,
        buttons: direction | turn,
    }
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
