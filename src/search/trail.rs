//! The trail: how each kept state was reached, one compact step per kept state per depth, from
//! which the winning line is rebuilt at the end.
//!
//! A state keeps only its board, its score and an index into its depth's trail level; a level
//! holds `(parent, placement)` steps. Lineages that no live state descends from are dropped
//! every [`GC_INTERVAL`] depths, so the trail stays a few levels' worth of the beam instead of
//! growing with the sequence.

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
/// entries down within it, so the buffer is reused instead of reallocated).
#[derive(Default)]
pub(crate) struct Trail<C: Copy = u16> {
    entries: Vec<TrailEntry<C>>,
    /// Where each level starts in `entries`; one more than the levels, for the end.
    starts: Vec<usize>,
    /// Levels before this were compacted before.
    last_gc: usize,
    /// Compaction's marks, one bit per entry from the first level it rewrites.
    marks: Vec<u64>,
    /// Compaction's remapping of the level below and of the level it is rewriting.
    below: Vec<u32>,
    current: Vec<u32>,
}

impl<C: Copy + Default> Trail<C> {
    pub fn with_capacity(depths: usize) -> Trail<C> {
        let mut starts = Vec::with_capacity(depths + 1);
        starts.push(0);
        Trail {
            starts,
            ..Trail::default()
        }
    }

    fn levels(&self) -> usize {
        self.starts.len() - 1
    }

    fn level(&self, d: usize) -> &[TrailEntry<C>] {
        &self.entries[self.starts[d]..self.starts[d + 1]]
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
    /// (`index_of`) is remapped in place.
    pub fn close<T>(
        &mut self,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: &mut Option<Best>,
    ) {
        if self.levels() - self.last_gc >= GC_INTERVAL {
            self.compact(live, index_of, best);
            self.last_gc = self.levels();
        }
    }

    /// Adds the last level without compacting (nothing comes after it).
    pub fn push_last(&mut self, level: impl Iterator<Item = TrailEntry<C>>) {
        self.entries.extend(level);
        self.starts.push(self.entries.len());
    }

    /// The placements from the first depth to `best`'s state.
    pub fn line_to(&self, best: Best) -> Vec<C> {
        let mut placements = Vec::with_capacity(best.depth + 1);
        let mut i = best.index;
        for d in (0..=best.depth).rev() {
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
        // One bit per entry: alive or not.
        self.marks.clear();
        self.marks.resize(self.entries.len().div_ceil(64), 0);
        let marks = &mut self.marks;
        let mark = |marks: &mut Vec<u64>, at: usize| marks[at / 64] |= 1 << (at % 64);
        let marked = |marks: &[u64], at: usize| marks[at / 64] >> (at % 64) & 1 == 1;
        let last_start = self.starts[last];
        for n in live.iter_mut() {
            mark(marks, last_start + *index_of(n) as usize);
        }
        let mut rewrite_from = 0;
        for d in (0..=last).rev() {
            let (start, end) = (self.starts[d], self.starts[d + 1]);
            if let Some(b) = *best {
                if b.depth == d {
                    mark(marks, start + b.index as usize);
                }
            }
            let alive = (start..end).filter(|&i| marked(marks, i)).count();
            if alive == end - start && d < self.last_gc {
                rewrite_from = d + 1;
                break;
            }
            if d > 0 {
                let below = self.starts[d - 1];
                for i in start..end {
                    if marked(marks, i) {
                        mark(marks, below + self.entries[i].parent as usize);
                    }
                }
            }
        }
        // Moves the marked entries of each rewritten level down, in order; `below` maps the
        // level under it from old to new indices (None: that level did not move).
        let mut to = self.starts[rewrite_from];
        let mut below_moved = false;
        for d in rewrite_from..=last {
            let (start, end) = (self.starts[d], self.starts[d + 1]);
            self.starts[d] = to;
            self.current.clear();
            self.current.resize(end - start, u32::MAX);
            for i in start..end {
                if marked(&self.marks, i) {
                    let mut e = self.entries[i];
                    if below_moved {
                        e.parent = self.below[e.parent as usize];
                    }
                    self.current[i - start] = (to - self.starts[d]) as u32;
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
        self.starts[last + 1] = to;
        self.entries.truncate(to);
        if below_moved {
            for n in live.iter_mut() {
                let i = index_of(n);
                *i = self.below[*i as usize];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(parent: u32, placement: u16) -> TrailEntry {
        TrailEntry { parent, placement }
    }

    /// Two levels of three states; only state 2 of the last level lives, and its line is
    /// 1 -> 0 -> 2. Compaction keeps that line (and `best`'s) and the answer is unchanged.
    #[test]
    fn compaction_keeps_the_live_lines_and_the_best() {
        let mut trail = Trail::with_capacity(3);
        for level in [
            [step(0, 10), step(0, 11), step(0, 12)],
            [step(2, 20), step(1, 21), step(0, 22)],
            [step(1, 30), step(2, 31), step(0, 32)],
        ] {
            trail.open(3).copy_from_slice(&level);
        }
        let mut live = vec![1u32];
        let mut best = Some(Best {
            depth: 1,
            index: 0,
            score: 5,
        });
        trail.compact(&mut live, |i| i, &mut best);
        // Level 2 keeps its state 1 only (now index 0); level 1 its states 0 (best) and 2 (the
        // live line's parent); level 0 its states 0 and 2.
        assert_eq!(trail.level(2).len(), 1);
        assert_eq!(live, vec![0]);
        assert_eq!(trail.level(1).len(), 2);
        assert_eq!(trail.level(0).len(), 2);
        assert_eq!(trail.entries.len(), 5);
        let line = trail.line_to(Best {
            depth: 2,
            index: live[0],
            score: 0,
        });
        assert_eq!(line, [10, 22, 31]);
        assert_eq!(trail.line_to(best.unwrap()), [12, 20]);
    }

    /// Random beams of 40 depths, compacted every [`GC_INTERVAL`] levels as a search does:
    /// every live state's line and the best state's line are those of the trail never compacted.
    #[test]
    fn compaction_in_place_keeps_every_line_of_an_uncompacted_trail() {
        use crate::sequence::SplitMix64;
        let mut rng = SplitMix64::new(7);
        for width in [1usize, 5, 64] {
            let mut trail = Trail::with_capacity(40);
            let mut plain: Vec<Vec<TrailEntry>> = Vec::new();
            // Each live state: (its trail index, its index in `plain`'s last level).
            let mut live: Vec<(u32, u32)> = Vec::new();
            let mut best: Option<Best> = None;
            let mut plain_best: Option<Best> = None;
            for depth in 0..40 {
                let count = width.min(1 + depth * 3);
                let level: Vec<TrailEntry> = (0..count)
                    .map(|_| {
                        step(
                            rng.below(live.len().max(1) as u64) as u32,
                            rng.below(1 << 12) as u16,
                        )
                    })
                    .collect();
                // Parents index the previous level as the trail holds it now.
                let slot = trail.open(count);
                for (i, e) in level.iter().enumerate() {
                    let parent = live.get(e.parent as usize).map_or(0, |l| l.0);
                    slot[i] = step(parent, e.placement);
                }
                plain.push(
                    level
                        .iter()
                        .map(|e| step(live.get(e.parent as usize).map_or(0, |l| l.1), e.placement))
                        .collect(),
                );
                live = (0..count as u32).map(|i| (i, i)).collect();
                if depth % 7 == 3 {
                    best = Some(Best {
                        depth,
                        index: 0,
                        score: depth as u64,
                    });
                    plain_best = best;
                }
                let mut indices: Vec<u32> = live.iter().map(|l| l.0).collect();
                trail.close(&mut indices, |i| i, &mut best);
                for (l, i) in live.iter_mut().zip(indices) {
                    l.0 = i;
                }
            }
            let plain_line = |b: Best| -> Vec<u16> {
                let mut i = b.index;
                let mut line: Vec<u16> = (0..=b.depth)
                    .rev()
                    .map(|d| {
                        let e = plain[d][i as usize];
                        i = e.parent;
                        e.placement
                    })
                    .collect();
                line.reverse();
                line
            };
            let line = |b: Best| trail.line_to(b);
            for &(index, plain_index) in &live {
                let at = |index| Best {
                    depth: 39,
                    index,
                    score: 0,
                };
                assert_eq!(
                    line(at(index)),
                    plain_line(at(plain_index)),
                    "width {width}"
                );
            }
            assert_eq!(
                line(best.unwrap()),
                plain_line(plain_best.unwrap()),
                "width {width}"
            );
            assert!(trail.entries.len() < plain.iter().map(Vec::len).sum::<usize>() || width == 1);
        }
    }
}
