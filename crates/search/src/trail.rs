//! The trail: how each kept state was reached, one compact step per kept state per depth, from
//! which the winning line is rebuilt at the end.
//!
//! A state keeps only its board, its score and an index into its depth's trail level; a level
//! holds `(parent, placement)` steps. Lineages that no live state descends from are dropped
//! every [`GC_INTERVAL`] depths, so the trail stays a few levels' worth of the beam instead of
//! growing with the sequence.
//!
//! After a compaction, the bottom levels that hold one entry each are the decided prefix of the
//! game: every state that may still end the answer descends from them. [`Trail::take_decided`]
//! hands their placements out and drops them, so that a search of any length holds only the
//! undecided part of its lines; the trail then counts its levels from `base`.
//!
//! Over several processes ([`Comm`]) each keeps the steps of the states it holds: a level is
//! numbered across the processes (those of process 0 first), each process holds one stretch of
//! it ([`Part`]), and a step's parent is its index in the level below, wherever that is held.
//! Compaction marks each level's live entries where they are held ([`compact`]): a process
//! marks the parents of its marked entries, and sends the index of each parent held elsewhere
//! to the process that holds it, once per parent; each process renumbers its own survivors
//! after the counts of the processes before it, and answers the indices it was asked for with
//! their new ones. So what a process holds and sends in a compaction scales with its share of
//! the beam, not the whole beam. One process is the case of one stretch, and sends nothing.

use super::code::Code;
use super::comm::{Comm, Parcels};
use super::wire::{Reader, Wire};

/// Depths between two compactions of the trail: the uncompacted levels are most of its
/// memory, about this many entries per state of the beam. At 4 rather than 8, a beam of
/// 200,000 over 300 contest pieces peaked 7% lower at the same CPU (three interleaved pairs).
pub(crate) const GC_INTERVAL: usize = 4;

/// One kept state's step: the parent's index in the previous level and the placement taken.
/// Packed to 6 bytes: the trail holds one per state for the last [`GC_INTERVAL`] depths.
#[derive(Clone, Copy, Default)]
#[repr(C, packed(2))]
pub(crate) struct TrailEntry<C: Copy = u16> {
    pub(crate) parent: u32,
    pub(crate) placement: C,
}

/// A state that must survive compaction because the answer may end there: its depth, its
/// index in that depth's level, and its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Best {
    pub(crate) depth: usize,
    pub(crate) index: u32,
    pub(crate) score: u64,
}

/// This process's stretch of one level: the index of its first entry across the processes,
/// and the entries of the level over every process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    first: u32,
    total: u32,
}

/// The trail's levels, one per depth, one after the other in one buffer (compaction moves
/// entries down within it, so the buffer is reused instead of reallocated). Depths below `base`
/// were decided and handed out; the level at `base` has their last step as its parent (0).
#[derive(Default)]
pub(crate) struct Trail<C: Copy = u16> {
    entries: Vec<TrailEntry<C>>,
    /// Where each level from `base` on starts in `entries`; one more than those levels, for
    /// the end.
    starts: Vec<usize>,
    /// Each level's stretch held here, from `base` on.
    parts: Vec<Part>,
    /// Depths dropped by [`Trail::take_decided`].
    base: usize,
    /// The `best` of the last compaction, whose line it kept.
    pinned: Option<Best>,
    /// Levels before this were compacted before.
    last_gc: usize,
    /// Compaction's buffers.
    scratch: compact::Scratch,
}

impl<C: Code> Trail<C> {
    pub(crate) fn new() -> Trail<C> {
        Trail {
            starts: vec![0],
            ..Trail::default()
        }
    }

    /// Depths in the trail, the decided ones included.
    fn levels(&self) -> usize {
        self.base + self.starts.len() - 1
    }

    /// Where depth `d`'s level starts in `entries` (`d` from `base` to `levels()`).
    fn start(&self, d: usize) -> usize {
        self.starts[d - self.base]
    }

    fn part(&self, d: usize) -> Part {
        self.parts[d - self.base]
    }

    fn level(&self, d: usize) -> &[TrailEntry<C>] {
        &self.entries[self.start(d)..self.start(d + 1)]
    }

    /// Entries held (the decided depths' are gone).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// A new level of `count` entries for the caller to fill; [`Trail::close`] it after.
    #[cfg(test)]
    pub(crate) fn open(&mut self, count: usize) -> &mut [TrailEntry<C>] {
        self.open_part(count, 0, count)
    }

    /// A new level of `total` entries over every process, of which this one holds `count` from
    /// index `first`, for the caller to fill; [`Trail::close`] it after.
    pub(crate) fn open_part(
        &mut self,
        count: usize,
        first: usize,
        total: usize,
    ) -> &mut [TrailEntry<C>] {
        let at = self.entries.len();
        let needed = at + count;
        if needed > self.entries.capacity() {
            // A little more than asked: the trail grows slowly between compactions.
            let extra = (needed - at).max(self.entries.capacity() / 8);
            self.entries.reserve_exact(extra);
        }
        self.entries.resize(needed, TrailEntry::default());
        self.starts.push(needed);
        self.parts.push(Part {
            first: first as u32,
            total: total as u32,
        });
        &mut self.entries[at..]
    }

    /// Every [`GC_INTERVAL`] levels, drops the entries that neither a live state nor `best`
    /// descends from. `live` are the states of the last level held here, whose trail index
    /// (`index_of`) is remapped in place. Whether it compacted: [`Trail::take_decided`] may
    /// then find new decided depths. Every process of `comm` calls it at each depth.
    pub(crate) fn close<T>(
        &mut self,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: &mut Option<Best>,
        comm: &dyn Comm,
    ) -> bool {
        if self.levels() - self.last_gc >= GC_INTERVAL {
            self.compact(live, index_of, best, comm);
            self.last_gc = self.levels();
            return true;
        }
        false
    }

    /// Hands the placements of the decided depths to `decided` (on process 0), in order, and
    /// drops them: the bottom levels of one entry each, below `best`'s depth (whose level
    /// stays, so that its line can be rebuilt). Right after a compaction that kept only the
    /// lines of the live states and of `best`, one entry in a level means every line that may
    /// still become the answer passes through it. With no `best`, nothing is decided. Every
    /// process of `comm` calls it after a compaction.
    pub(crate) fn take_decided(
        &mut self,
        best: Option<Best>,
        decided: &mut dyn FnMut(&[C]),
        comm: &dyn Comm,
    ) {
        let Some(best) = best else {
            return;
        };
        let mut top = self.base;
        while top < best.depth && self.part(top).total == 1 {
            top += 1;
        }
        let count = top - self.base;
        if count == 0 {
            return;
        }
        // The dropped levels hold one entry each over the processes, in depth order.
        let cut = self.start(top);
        let codes = if comm.size() == 1 {
            self.entries[..cut].iter().map(|e| e.placement).collect()
        } else {
            self.decided_codes(top, comm)
        };
        if comm.rank() == 0 {
            decided(&codes);
        }
        self.entries.drain(..cut);
        self.starts.drain(..count);
        self.parts.drain(..count);
        for s in &mut self.starts {
            *s -= cut;
        }
        // The level now at the bottom keeps its parents: all 0, the last dropped level's one
        // entry, which compaction and `line_to` no longer look under.
        self.base = top;
    }

    /// The placements of the levels from `base` to `top`, one entry each on one of the
    /// processes, gathered on process 0 in depth order (elsewhere none).
    fn decided_codes(&self, top: usize, comm: &dyn Comm) -> Vec<C> {
        let mut mine = Vec::new();
        for d in self.base..top {
            if let [e] = self.level(d) {
                ((d - self.base) as u32).put(&mut mine);
                { e.placement }.put(&mut mine);
            }
        }
        let mut to = Parcels::empty(comm.size());
        to.lens[0] = mine.len();
        to.bytes = mine;
        let got = comm.all_to_all(to);
        let mut codes = vec![C::default(); if comm.rank() == 0 { top - self.base } else { 0 }];
        let mut r = Reader::new(&got.bytes);
        while !r.is_empty() {
            let at: u32 = r.read();
            codes[at as usize] = r.read();
        }
        codes
    }

    /// Adds the last level without compacting (nothing comes after it); one process.
    pub(crate) fn push_last(&mut self, level: impl Iterator<Item = TrailEntry<C>>) {
        self.entries.extend(level);
        let total = self.entries.len() - self.starts[self.starts.len() - 1];
        self.starts.push(self.entries.len());
        self.parts.push(Part {
            first: 0,
            total: total as u32,
        });
    }

    /// The placements from the first depth not yet decided (see [`Trail::take_decided`]) to
    /// `best`'s state, on process 0 (elsewhere none). Every process of `comm` calls it.
    pub(crate) fn line_to(&self, best: Best, comm: &dyn Comm) -> Vec<C> {
        let mut placements = Vec::with_capacity(best.depth + 1 - self.base);
        let mut i = best.index;
        for d in (self.base..=best.depth).rev() {
            let e = self.entry(d, i, comm);
            placements.push(e.placement);
            i = e.parent;
        }
        if comm.rank() != 0 {
            return Vec::new();
        }
        placements.reverse();
        placements
    }

    /// The entry of index `i` of depth `d`'s level, from the process that holds it.
    fn entry(&self, d: usize, i: u32, comm: &dyn Comm) -> TrailEntry<C> {
        let part = self.part(d);
        let here = self
            .level(d)
            .get(i.wrapping_sub(part.first) as usize)
            .copied();
        if comm.size() == 1 {
            return here.expect("the index of an entry of the level");
        }
        let mut mine = Vec::new();
        if let Some(e) = here {
            { e.parent }.put(&mut mine);
            { e.placement }.put(&mut mine);
        }
        let all = comm.all_gather(&mine);
        let held =
            (all.iter().find(|b| !b.is_empty())).expect("one process holds each entry of a level");
        let mut r = Reader::new(held);
        TrailEntry {
            parent: r.read(),
            placement: r.read(),
        }
    }
}

mod compact;
mod saved;

#[cfg(test)]
#[path = "trail_tests.rs"]
mod tests;
