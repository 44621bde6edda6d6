//! The cycles of a lock's count as the search sees them ([`cycles`]), and the knobs that move
//! them: where a placement's count comes within [`cycles::MARGIN`] of a failing one, the same
//! placement with Select pressed (the next box hidden or shown again), with Down held to the
//! lock (push-down points), or both.

use super::points::cost_scale;
use super::{child_hash, Child, NesCode, Seam, State};
use crate::games::nes::cycles::{self, Count};
use crate::games::nes::eval::{cost, Rows, Weights};
use crate::games::nes::movegen::{Placement, Tap};
use crate::games::nes::rules::{button, Round};

/// A margin from which the search prefers no lock to another for it, and what a cycle below
/// it costs in the key (a tie-break: a point is far less than any clear's worth).
const MARGIN_ENOUGH: i32 = 16;
const MARGIN_PRICE: f64 = 0.01;

/// A kept child's key: the field's cost at its level, less the points banked, and at equal
/// score and field the larger margin of its count.
pub(super) fn key(after: &Rows, weights: &Weights, level: u8, score: u64, margin: i32) -> f64 {
    let near = (MARGIN_ENOUGH - margin).max(0) as f64 * MARGIN_PRICE;
    cost(after, weights) * cost_scale(level) - score as f64 + near
}

/// The margin of the frame that counts a placement's lock, as far as the placement tells it:
/// the frame counter's phase is known only when the lock is played out, so both phases a
/// four-line clear can meet count (the smaller margin), and a placement has no push-down.
pub(super) fn count_margin(
    game: &Round,
    (piece, next_hidden): (u8, bool),
    after: &Rows,
    (rows, deep_rows): (usize, usize),
    (level, lines): (u8, u32),
) -> i32 {
    let count = Count {
        rows: rows as u8,
        deep_rows: deep_rows as u8,
        push_down: 0,
        type_carry: rows > 0 && (game.clears[rows - 1] + 1).is_multiple_of(10),
        eighth_frame: false,
        piece: if rows > 0 { 0x13 } else { piece },
        was_allegro: game.allegro,
        first_block: (after[5] != 0).then(|| after[5].trailing_zeros() as u8),
        select: false,
        next_hidden,
        ..Count::default()
    }
    .between((game.level, game.lines()), (level, lines));
    // The frame counter matters to a four-line clear only.
    match rows {
        4 => count.margin().min(
            Count {
                eighth_frame: true,
                ..count
            }
            .margin(),
        ),
        _ => count.margin(),
    }
}

/// The placement with Select pressed on the first frame a press may be made, with the
/// press there if it has one (Select moves nothing, so the piece goes where it went).
fn with_select(p: &Placement, first_press: u16) -> Placement {
    let mut out = p.clone();
    match out.taps.iter_mut().find(|t| t.frame == first_press) {
        Some(t) => t.buttons |= button::SELECT,
        None => out.taps.insert(
            0,
            Tap {
                frame: first_press,
                buttons: button::SELECT,
            },
        ),
    }
    out
}

/// The placement with Down held from two frames after its last press (or from the first
/// frame a press may be made) until it locks: at one row a frame the piece falls as it would,
/// and the push-down points change the count's cycles.
fn with_down(p: &Placement, first_press: u16) -> Placement {
    let mut out = p.clone();
    let from = out.taps.last().map_or(first_press, |t| t.frame + 2);
    for frame in from..p.lock_frame {
        out.taps.push(Tap {
            frame,
            buttons: button::DOWN,
        });
    }
    out
}

impl Seam {
    /// A placement whose count comes too near a failing one, with what the player controls
    /// and the count prices: Select (the next box, 394 cycles), Down held to the lock
    /// (push-down points, 90 or 99 cycles in place of the clear type's), or both, played out
    /// to find its exact count and points; the first that keeps the margin, as a child.
    pub(super) fn knobbed(
        &self,
        state: &State,
        score: u64,
        p: &Placement,
        (placements, order): (usize, usize),
    ) -> Option<Child> {
        if state.game.level < cycles::QUIET_BELOW {
            return None;
        }
        let first = state.first_press();
        let variants = [
            with_select(p, first),
            with_down(p, first),
            with_down(&with_select(p, first), first),
        ];
        for (k, v) in variants.iter().enumerate() {
            let code = NesCode::of((k + 1) * placements + order, v)?;
            let child = self.play_out(state, &code);
            if child.dead {
                continue;
            }
            let score = score + child.game.score.uncapped() - state.game.score.uncapped();
            let after = child.game.rows();
            let level = child.game.level;
            let lines = child.game.lines();
            let margin = child.game.margin as i32;
            return Some(Child::Kept {
                key: key(&after, &self.weights, level, score, margin),
                hash: child_hash(&self.seeds, &state.game, &after, score, lines, level, v),
                score,
                code,
            });
        }
        None
    }
}
