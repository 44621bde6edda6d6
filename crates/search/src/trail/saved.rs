//! The trail in a snapshot ([`crate::checkpoint`]): its levels and what compaction keeps from
//! one call to the next; its buffers are scratch, made anew.

use super::{Best, Part, Trail, TrailEntry};
use crate::bytes::{In, Out, SnapshotError};
use crate::code::Code;

impl<C: Code> Trail<C> {
    /// Whether `index` (numbered across the processes) is an entry of the last level held
    /// here: where a live state's step is.
    pub(crate) fn holds_last(&self, index: u32) -> bool {
        match (self.starts.as_slice(), self.parts.last()) {
            ([.., a, b], Some(part)) => index.wrapping_sub(part.first) < (b - a) as u32,
            _ => false,
        }
    }

    pub(crate) fn save(&self, out: &mut Out<'_>) {
        out.len(self.base);
        out.len(self.last_gc);
        out.best(self.pinned);
        out.len(self.parts.len());
        for (p, s) in self.parts.iter().zip(&self.starts) {
            out.put(p.first);
            out.put(p.total);
            out.len(*s);
        }
        out.len(self.entries.len());
        for e in &self.entries {
            out.put(e.parent);
            out.put(e.placement);
        }
    }

    /// The trail [`Trail::save`] wrote, whose levels (the decided ones counted) are the first
    /// `depths` depths'.
    pub(crate) fn restore(r: &mut In, depths: usize) -> Result<Trail<C>, SnapshotError> {
        let base = r.usize()?;
        let last_gc = r.usize()?;
        let pinned = r.best()?;
        let levels = r.len(16)?;
        let mut parts = Vec::with_capacity(levels);
        let mut starts = Vec::with_capacity(levels + 1);
        for _ in 0..levels {
            parts.push(Part {
                first: r.get()?,
                total: r.get()?,
            });
            starts.push(r.usize()?);
        }
        let count = r.len(4 + C::BYTES)?;
        let mut entries = Vec::with_capacity(count);
        for _ in 0..count {
            entries.push(TrailEntry {
                parent: r.get()?,
                placement: r.get()?,
            });
        }
        starts.push(entries.len());
        In::ensure(
            base + levels == depths && last_gc <= depths,
            "the trail's depths",
        )?;
        In::ensure(
            (parts.iter().zip(starts.windows(2)))
                .all(|(p, w)| p.first as usize + (w[1] - w[0]) <= p.total as usize),
            "a level's stretch past its end",
        )?;
        In::ensure(
            starts.first() == Some(&0) && starts.windows(2).all(|w| w[0] <= w[1]),
            "the trail's levels",
        )?;
        // Every parent is an index into the level below, over every process (the bottom
        // level's are all 0).
        for (i, w) in starts.windows(2).enumerate().skip(1) {
            let below = parts[i - 1].total as usize;
            In::ensure(
                entries[w[0]..w[1]]
                    .iter()
                    .all(|e| ({ e.parent } as usize) < below),
                "a step's parent past its level",
            )?;
        }
        In::ensure(
            pinned.is_none_or(|p| p.depth >= base && p.depth < base + levels),
            "the trail's pinned state",
        )?;
        Ok(Trail {
            entries,
            starts,
            parts,
            base,
            pinned,
            last_gc,
            ..Trail::default()
        })
    }
}

/// The best state a trail pins, as a snapshot holds it.
impl Out<'_> {
    pub(crate) fn best(&mut self, best: Option<Best>) {
        self.put(best.is_some());
        let b = best.unwrap_or(Best {
            depth: 0,
            index: 0,
            score: 0,
        });
        self.len(b.depth);
        self.put(b.index);
        self.put(b.score);
    }
}

impl In<'_> {
    pub(crate) fn best(&mut self) -> Result<Option<Best>, SnapshotError> {
        let some: bool = self.get()?;
        let b = Best {
            depth: self.usize()?,
            index: self.get()?,
            score: self.get()?,
        };
        Ok(some.then_some(b))
    }
}
