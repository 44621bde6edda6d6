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

/// Depths between two compactions of the trail: the uncompacted levels are most of its
/// memory, about this many entries per state of the beam.
pub(crate) const GC_INTERVAL: usize = 8;

/// One kept state's step: the parent's index in the previous level and the placement taken.
/// Packed to 6 bytes: the trail holds one per state for the last [`GC_INTERVAL`] depths.
#[derive(Clone, Copy, Default)]
#[repr(C, packed(2))]
pub(crate) struct TrailEntry<C: Copy = u16> {
    pub parent: u32,
    pub placement: C,
}

/// A state that must survive compaction because the answer may end there: its depth, its
/// index in that depth's level, and its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Best {
    pub depth: usize,
    pub index: u32,
    pub score: u64,
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
    /// Depths dropped by [`Trail::take_decided`].
    base: usize,
    /// The `best` of the last compaction, whose line it kept.
    pinned: Option<Best>,
    /// Levels before this were compacted before.
    last_gc: usize,
    /// Compaction's marks, one bit per entry from the first level it rewrites.
    marks: Vec<u64>,
    /// Compaction's remapping of the level below and of the level it is rewriting.
    below: Vec<u32>,
    current: Vec<u32>,
}

impl<C: Copy + Default> Trail<C> {
    pub fn new() -> Trail<C> {
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

    fn level(&self, d: usize) -> &[TrailEntry<C>] {
        &self.entries[self.start(d)..self.start(d + 1)]
    }

    /// Entries held (the decided depths' are gone).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// A new level of `count` entries for the caller to fill; [`Trail::close`] it after.
    pub fn open(&mut self, count: usize) -> &mut [TrailEntry<C>] {
        let at = self.entries.len();
        let needed = at + count;
        if needed > self.entries.capacity() {
            // A little more than asked: the trail grows slowly between compactions.
            let extra = (needed - at).max(self.entries.capacity() / 8);
            self.entries.reserve_exact(extra);
        }
        self.entries.resize(needed, TrailEntry::default());
        self.starts.push(needed);
        &mut self.entries[at..]
    }

    /// Every [`GC_INTERVAL`] levels, drops the entries that neither a live state nor `best`
    /// descends from. `live` are the states of the last level, whose trail index
    /// (`index_of`) is remapped in place. Whether it compacted: [`Trail::take_decided`] may
    /// then find new decided depths.
    pub fn close<T>(
        &mut self,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: &mut Option<Best>,
    ) -> bool {
        if self.levels() - self.last_gc >= GC_INTERVAL {
            self.compact(live, index_of, best);
            self.last_gc = self.levels();
            return true;
        }
        false
    }

    /// Hands the placements of the decided depths to `decided`, in order, and drops them: the
    /// bottom levels of one entry each, below `best`'s depth (whose level stays, so that its
    /// line can be rebuilt). Right after a compaction that kept only the lines of the live
    /// states and of `best`, one entry in a level means every line that may still become the
    /// answer passes through it. With no `best`, nothing is decided.
    pub fn take_decided(&mut self, best: Option<Best>, decided: &mut dyn FnMut(&[C])) {
        let Some(best) = best else {
            return;
        };
        let mut top = self.base;
        while top < best.depth && self.level(top).len() == 1 {
            top += 1;
        }
        let count = top - self.base;
        if count == 0 {
            return;
        }
        // The dropped levels hold one entry each, in depth order.
        let cut = self.start(top);
        let codes: Vec<C> = self.entries[..cut].iter().map(|e| e.placement).collect();
        decided(&codes);
        self.entries.drain(..cut);
        self.starts.drain(..count);
        for s in &mut self.starts {
            *s -= cut;
        }
        // The level now at the bottom keeps its parents: all 0, the last dropped level's one
        // entry, which compaction and `line_to` no longer look under.
        self.base = top;
    }

    /// Adds the last level without compacting (nothing comes after it).
    pub fn push_last(&mut self, level: impl Iterator<Item = TrailEntry<C>>) {
        self.entries.extend(level);
        self.starts.push(self.entries.len());
    }

    /// The placements from the first depth not yet decided (see [`Trail::take_decided`]) to
    /// `best`'s state.
    pub fn line_to(&self, best: Best) -> Vec<C> {
        let mut placements = Vec::with_capacity(best.depth + 1 - self.base);
        let mut i = best.index;
        for d in (self.base..=best.depth).rev() {
            let e = self.level(d)[i as usize];
            placements.push(e.placement);
            i = e.parent;
        }
        placements.reverse();
        placements
    }

    /// Drops trail entries no live state descends from, moving the rest down and remapping
    /// indices. Levels before `last_gc` were compacted before: once such a level is found
    /// fully alive, so is everything under it, and the rewrite starts above it.
    fn compact<T>(
        &mut self,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: &mut Option<Best>,
    ) {
        let Some(last) = self.levels().checked_sub(1) else {
            return;
        };
        let rewrite_from = self.mark_alive(last, live, index_of, *best);
        self.rewrite(rewrite_from, last, live, index_of, best);
    }

    /// Marks the entries the live states and `best` descend from, from the last level down;
    /// returns the first level to rewrite (those under it are alive as they are).
    fn mark_alive<T>(
        &mut self,
        last: usize,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: Option<Best>,
    ) -> usize {
        // One bit per entry: alive or not.
        self.marks.clear();
        self.marks.resize(self.entries.len().div_ceil(64), 0);
        let marks = &mut self.marks;
        let mark = |marks: &mut Vec<u64>, at: usize| marks[at / 64] |= 1 << (at % 64);
        let marked = |marks: &[u64], at: usize| marks[at / 64] >> (at % 64) & 1 == 1;
        let base = self.base;
        let start_of = |d: usize| self.starts[d - base];
        let last_start = start_of(last);
        for n in live.iter_mut() {
            mark(marks, last_start + *index_of(n) as usize);
        }
        // A state pinned at the last compaction and released since kept its line alive then:
        // up to its depth, a level found fully alive no longer says that the levels under it
        // are, and the walk goes on down (else that line would stay, and under it no depth
        // would ever be decided).
        let released = self
            .pinned
            .filter(|p| best.is_none_or(|b| (b.depth, b.index) != (p.depth, p.index)))
            .map(|p| p.depth);
        let mut rewrite_from = base;
        for d in (base..=last).rev() {
            let (start, end) = (start_of(d), start_of(d + 1));
            if let Some(b) = best {
                if b.depth == d {
                    mark(marks, start + b.index as usize);
                }
            }
            let alive = (start..end).filter(|&i| marked(marks, i)).count();
            if alive == end - start && d < self.last_gc && released.is_none_or(|r| d <= r) {
                rewrite_from = d + 1;
                break;
            }
            if d > base {
                let below = start_of(d - 1);
                for i in start..end {
                    if marked(marks, i) {
                        mark(marks, below + self.entries[i].parent as usize);
                    }
                }
            }
        }
        rewrite_from
    }

    /// Moves the marked entries of each level from `rewrite_from` to `last` down, in order,
    /// and remaps the indices of the live states and of `best`.
    fn rewrite<T>(
        &mut self,
        rewrite_from: usize,
        last: usize,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: &mut Option<Best>,
    ) {
        let base = self.base;
        let marked = |marks: &[u64], at: usize| marks[at / 64] >> (at % 64) & 1 == 1;
        // `below` maps the level under the one being rewritten from old to new indices (when
        // it moved).
        let mut to = self.start(rewrite_from);
        let mut below_moved = false;
        for d in rewrite_from..=last {
            let (start, end) = (self.start(d), self.start(d + 1));
            self.starts[d - base] = to;
            self.current.clear();
            self.current.resize(end - start, u32::MAX);
            for i in start..end {
                if marked(&self.marks, i) {
                    let mut e = self.entries[i];
                    if below_moved {
                        e.parent = self.below[e.parent as usize];
                    }
                    self.current[i - start] = (to - self.starts[d - base]) as u32;
                    self.entries[to] = e;
                    to += 1;
                }
            }
            if let Some(b) = best.as_mut() {
                if b.depth == d {
                    b.index = self.current[b.index as usize];
                }
            }
            std::mem::swap(&mut self.below, &mut self.current);
            below_moved = true;
        }
        self.starts[last + 1 - base] = to;
        self.entries.truncate(to);
        self.pinned = *best;
        if below_moved {
            for n in live.iter_mut() {
                let i = index_of(n);
                *i = self.below[*i as usize];
            }
        }
    }
}

#[cfg(test)]
#[path = "trail_tests.rs"]
mod tests;
