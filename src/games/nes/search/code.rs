//! A child as the search keeps it ([`NesCode`]): its rank among its parent's placements, where
//! the piece locks, and the presses that put it there as runs of frames, in a fixed size so
//! that a code's encoding has one size.

use crate::games::nes::movegen::{Placement, Tap};
use crate::search::Code;

/// Runs of presses a child's code holds at most: a run is one press, or a direction held for
/// the auto shift over many frames; the input models reach every placement with fewer (a
/// piece crosses the field in at most 5 shifts or one hold, and turns twice).
const MAX_RUNS: usize = 12;

/// Buttons held on `frames` consecutive frames from `frame` on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PressRun {
    pub(super) frame: u16,
    pub(super) frames: u16,
    pub(super) buttons: u8,
}

crate::wire_fields!(PressRun {
    frame,
    frames,
    buttons
});

/// A child as the search keeps it: where the piece locks and the presses that put it there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NesCode {
    /// Its rank among the placements of its parent.
    pub(super) order: u16,
    pub(super) piece: u8,
    pub(super) x: i8,
    pub(super) y: i8,
    pub(super) count: u8,
    pub(super) runs: [PressRun; MAX_RUNS],
}

// Every run, used or not: a code's encoding has one size.
crate::wire_fields!(NesCode {
    order,
    piece,
    x,
    y,
    count,
    runs
});

impl NesCode {
    pub(super) fn of(order: usize, p: &Placement) -> Option<NesCode> {
        let mut runs = [PressRun::default(); MAX_RUNS];
        let mut count = 0;
        for t in &p.taps {
            let extends = count > 0 && {
                let last: &PressRun = &runs[count - 1];
                last.buttons == t.buttons && last.frame + last.frames == t.frame
            };
            if extends {
                runs[count - 1].frames += 1;
            } else {
                *runs.get_mut(count)? = PressRun {
                    frame: t.frame,
                    frames: 1,
                    buttons: t.buttons,
                };
                count += 1;
            }
        }
        Some(NesCode {
            order: order as u16,
            piece: p.piece,
            x: p.x,
            y: p.y,
            count: count as u8,
            runs,
        })
    }

    /// The presses, one per frame with buttons down, in frame order.
    pub(super) fn taps(&self) -> impl Iterator<Item = Tap> + '_ {
        self.runs[..self.count as usize].iter().flat_map(|r| {
            (r.frame..r.frame + r.frames).map(|frame| Tap {
                frame,
                buttons: r.buttons,
            })
        })
    }
}

impl Code for NesCode {
    fn order(&self) -> u16 {
        self.order
    }
}
