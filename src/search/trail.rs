//! The trail: how each kept state was reached, one compact step per kept state per depth, from
//! which the winning line is rebuilt at the end.
//!
//! A state keeps only its board, its score and an index into its depth's trail level; a level
//! holds `(parent, placement)` steps. Lineages that no live state descends from are dropped
//! every [`GC_INTERVAL`] depths, so the trail stays a few levels' worth of the beam instead of
//! growing with the sequence.

use crate::movegen::Placement;

/// Depths between two compactions of the trail.
pub(crate) const GC_INTERVAL: usize = 64;

/// One kept state's step: the parent's index in the previous level and the placement taken.
#[derive(Clone, Copy, Default)]
pub(crate) struct TrailEntry {
    pub parent: u32,
    pub placement: u16,
}

/// A state that must survive compaction because the answer may end there: its depth, its
/// index in that depth's level, and its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Best {
    pub depth: usize,
    pub index: u32,
    pub score: u64,
}

/// The trail's levels, one per depth.
pub(crate) struct Trail {
    levels: Vec<Vec<TrailEntry>>,
    /// Levels before this were compacted before.
    last_gc: usize,
}

impl Trail {
    pub fn with_capacity(depths: usize) -> Trail {
        Trail {
            levels: Vec::with_capacity(depths),
            last_gc: 0,
        }
    }

    /// Adds the next depth's level; every [`GC_INTERVAL`] levels, drops the entries that
    /// neither a live state nor `best` descends from. `live` are the states of this level,
    /// whose trail index (`index_of`) is remapped in place.
    pub fn push<T>(
        &mut self,
        level: Vec<TrailEntry>,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: &mut Option<Best>,
    ) {
        self.levels.push(level);
        if self.levels.len() - self.last_gc >= GC_INTERVAL {
            compact(&mut self.levels, live, index_of, best, self.last_gc);
            self.last_gc = self.levels.len();
        }
    }

    /// Adds the last level without compacting (nothing comes after it).
    pub fn push_last(&mut self, level: Vec<TrailEntry>) {
        self.levels.push(level);
    }

    /// The placements from the first depth to `best`'s state.
    pub fn line_to(&self, best: Best) -> Vec<Placement> {
        let mut placements = Vec::with_capacity(best.depth + 1);
        let mut i = best.index;
        for d in (0..=best.depth).rev() {
            let e = self.levels[d][i as usize];
            placements.push(Placement::unpack(e.placement));
            i = e.parent;
        }
        placements.reverse();
        placements
    }
}

/// Drops trail entries no live state descends from, remapping indices. `frontier` holds the
/// live states of the last level (`index_of` gives each one's trail index), `best` a state that
/// must survive too. Levels at or before `last_gc` were compacted before: once such a level is
/// found fully alive, so is everything under it.
fn compact<T>(
    trail: &mut [Vec<TrailEntry>],
    frontier: &mut [T],
    index_of: fn(&mut T) -> &mut u32,
    best: &mut Option<Best>,
    last_gc: usize,
) {
    let Some(last) = trail.len().checked_sub(1) else {
        return;
    };
    let mut live: Vec<u32> = frontier.iter_mut().map(|n| *index_of(n)).collect();
    for d in (0..=last).rev() {
        if let Some(b) = *best {
            if b.depth == d {
                live.push(b.index);
            }
        }
        live.sort_unstable();
        live.dedup();
        let level = &mut trail[d];
        if live.len() == level.len() {
            if d < last_gc {
                break;
            }
        } else {
            let mut remap = vec![u32::MAX; level.len()];
            let mut kept = Vec::with_capacity(live.len());
            for (new, &old) in live.iter().enumerate() {
                remap[old as usize] = new as u32;
                kept.push(level[old as usize]);
            }
            *level = kept;
            if d == last {
                for n in frontier.iter_mut() {
                    let i = index_of(n);
                    *i = remap[*i as usize];
                }
            } else {
                for e in trail[d + 1].iter_mut() {
                    e.parent = remap[e.parent as usize];
                }
            }
            if let Some(b) = best.as_mut() {
                if b.depth == d {
                    b.index = remap[b.index as usize];
                }
            }
        }
        live = trail[d].iter().map(|e| e.parent).collect();
        if d == 0 {
            break;
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
        let mut levels = vec![
            vec![step(0, 10), step(0, 11), step(0, 12)],
            vec![step(2, 20), step(1, 21), step(0, 22)],
            vec![step(1, 30), step(2, 31), step(0, 32)],
        ];
        let mut live = vec![1u32];
        let mut best = Some(Best {
            depth: 1,
            index: 0,
            score: 5,
        });
        compact(&mut levels, &mut live, |i| i, &mut best, 0);
        // Level 2 keeps its state 1 only (now index 0); level 1 its states 0 (best) and 2 (the
        // live line's parent); level 0 its states 0 and 2.
        assert_eq!(levels[2].len(), 1);
        assert_eq!(live, vec![0]);
        assert_eq!(levels[1].len(), 2);
        assert_eq!(levels[0].len(), 2);
        let trail = Trail { levels, last_gc: 3 };
        let line: Vec<u16> = trail
            .line_to(Best {
                depth: 2,
                index: live[0],
                score: 0,
            })
            .iter()
            .map(|p| p.pack())
            .collect();
        let packed =
            |v: &[u16]| -> Vec<u16> { v.iter().map(|&v| Placement::unpack(v).pack()).collect() };
        assert_eq!(line, packed(&[10, 22, 31]));
        let best_line: Vec<u16> = trail
            .line_to(best.unwrap())
            .iter()
            .map(|p| p.pack())
            .collect();
        assert_eq!(best_line, packed(&[12, 20]));
    }
}
