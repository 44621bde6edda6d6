//! The record a line of the NES search makes, piece by piece as the search decides it, and why
//! it ends where it does ([`Ending`]).

use super::{Child, Found, Kept, NesCode, Seam, State};
use crate::games::nes::ending::Ending;
use crate::games::nes::record::{runs_text, Record};
use crate::games::nes::start::Start;
use crate::search::DepthStats;

/// A record made as the search decides its placements: each one played out on the engine
/// from the last, and each piece's line (its frames from its spawn to the next piece's) given
/// as soon as the next placement is known, since the record's last line runs one frame
/// further.
pub(crate) struct RecordStream<'a> {
    search: &'a Seam,
    start: Start,
    state: State,
    frames: Vec<u8>,
    piece_starts: Vec<usize>,
    /// Lines given so far.
    given: usize,
}

impl<'a> RecordStream<'a> {
    pub(crate) fn new(search: &'a Seam, start: &Start) -> RecordStream<'a> {
        RecordStream {
            search,
            start: *start,
            state: State::root(start),
            frames: Vec::new(),
            piece_starts: Vec::new(),
            given: 0,
        }
    }

    /// A record that starts with `kept`'s pieces, and the lines of those of them already whole
    /// (all but the last, whose line is given with the next piece, as any other).
    pub(crate) fn resumed(
        search: &'a Seam,
        start: &Start,
        kept: &Kept,
    ) -> (RecordStream<'a>, Vec<String>) {
        let mut stream = RecordStream {
            search,
            start: *start,
            state: kept.state,
            frames: kept.frames.clone(),
            piece_starts: kept.piece_starts.clone(),
            given: 0,
        };
        let whole = kept.piece_starts.len().saturating_sub(1);
        let lines = (0..whole)
            .map(|i| stream.line(kept.piece_starts[i], kept.piece_starts[i + 1]))
            .collect();
        stream.given = whole;
        (stream, lines)
    }

    /// Pieces played so far, and the lines they cleared.
    pub(crate) fn played(&self) -> (u64, u32) {
        (self.piece_starts.len() as u64, self.state.game.lines())
    }

    /// The record's header, before the first piece's line.
    pub(crate) fn header(&self) -> String {
        Record {
            start: self.start,
            frames: Vec::new(),
        }
        .to_text(&[])
    }

    /// Plays the next placement; the line of the piece before it, now whole, if there is one.
    pub(crate) fn piece(&mut self, placement: &NesCode) -> Option<String> {
        let state = &self.state;
        self.piece_starts.push(state.spawn_frame.max(0) as usize);
        for t in placement.taps() {
            let f = (state.spawn_frame + t.frame as i64) as usize;
            if self.frames.len() <= f {
                self.frames.resize(f + 1, 0);
            }
            self.frames[f] = t.buttons;
        }
        self.state = self.search.play_out(&self.state, placement);
        let whole = self.piece_starts.len().checked_sub(2)?;
        let (from, to) = (self.piece_starts[whole], self.piece_starts[whole + 1]);
        self.given += 1;
        Some(self.line(from, to))
    }

    /// The frames `from..to` as a record line (frames past the last press are idle).
    fn line(&self, from: usize, to: usize) -> String {
        let mut frames =
            self.frames[from.min(self.frames.len())..to.min(self.frames.len())].to_vec();
        frames.resize(to - from, 0);
        runs_text(&frames)
    }

    /// The record's end: the last piece's line (through the frame the game stops on), and
    /// the record with what it scores by the search's count.
    pub(crate) fn finish(mut self) -> (Found, Option<String>) {
        let end = self.state.spawn_frame.max(0) as usize;
        if self.frames.len() <= end {
            self.frames.resize(end + 1, 0);
        }
        let last = self
            .piece_starts
            .last()
            .filter(|_| self.given < self.piece_starts.len())
            .map(|&from| self.line(from, self.frames.len()));
        let state = self.state;
        let found = Found {
            record: Record {
                start: self.start,
                frames: self.frames,
            },
            piece_starts: self.piece_starts,
            score: state.game.score.uncapped(),
            lines: state.game.lines(),
            pieces: state.game.pieces,
            ending: self.search.ending(&state),
            mismatches: self.search.mismatches(),
            stats: DepthStats::default(),
        };
        (found, last)
    }
}

impl Seam {
    /// Why a line that ends on `state` ends there.
    fn ending(&self, state: &State) -> Ending {
        if state.done {
            return Ending::Reached;
        }
        let (mut kept, mut crashes) = (0, 0);
        self.children(state, 0, |child| match child {
            Child::Kept { .. } => kept += 1,
            Child::Crashes => crashes += 1,
        });
        match (kept, crashes) {
            (0, 0) => Ending::ToppedOut,
            (0, _) => Ending::OnlyCrashes,
            _ => Ending::Outscored,
        }
    }
}
