//! Compaction: drops the trail entries no live state descends from, moving the rest down and
//! renumbering them, on every process at once.
//!
//! Each process marks only the entries it holds: walking down from the last level, it marks
//! the parents of its marked entries in the level below, itself where it holds them, and
//! otherwise by sending the parent's index to the process that holds it (sorted, each index
//! once), one all-to-all per level. Then each process counts its survivors of every level;
//! the counts of the processes before it (one gather for all the levels) give its stretch's
//! new first index in each, and a survivor's index is that plus the survivors before it here.
//! It answers the indices it was asked for with their new ones, in the order they came (one
//! more all-to-all for all the levels), so that the processes that asked renumber their
//! entries' parents. Marks, requests and answers are each a process's share of the beam,
//! whatever the number of processes.

use super::{Best, Part, Trail};
use crate::code::Code;
use crate::comm::{gather_u64, sum, Comm, Parcels};
use crate::wire::{Reader, Wire};

/// Lists of entry indices, one per process.
type ByProcess = Vec<Vec<u32>>;

/// Compaction's buffers, kept from one compaction to the next.
#[derive(Default)]
pub(super) struct Scratch {
    /// One bit per entry held here of each level walked, each level from a word of its own,
    /// at `mark_at`.
    marks: Vec<u64>,
    mark_at: Vec<usize>,
    /// Each level's first index held by each process before compaction, then its total:
    /// `size + 1` values per level walked.
    stretches: Vec<u32>,
    /// Each level's parents asked of each other process by this one (sorted, each once), the
    /// new indices they answered (in that order), and the parents each process asked of this
    /// one (in the order it sent them); by level, from `base`.
    asked: Vec<ByProcess>,
    answers: Vec<ByProcess>,
    requested: Vec<ByProcess>,
    /// The survivors before each word of the level below and of the level being rewritten.
    below: Vec<u32>,
    current: Vec<u32>,
}

impl Scratch {
    /// The marks of level `i` (from `base`).
    fn level(&self, i: usize) -> &[u64] {
        &self.marks[self.mark_at[i]..self.mark_at[i + 1]]
    }
}

#[inline]
fn marked(marks: &[u64], at: usize) -> bool {
    marks[at / 64] >> (at % 64) & 1 == 1
}

#[inline]
fn mark(marks: &mut [u64], at: usize) {
    marks[at / 64] |= 1 << (at % 64);
}

fn alive(marks: &[u64]) -> u32 {
    marks.iter().map(|w| w.count_ones()).sum()
}

/// The survivors before each word of a level's `marks`.
fn survivors_before(marks: &[u64], out: &mut Vec<u32>) {
    out.clear();
    let mut count = 0u32;
    out.extend(marks.iter().map(|w| {
        let before = count;
        count += w.count_ones();
        before
    }));
}

/// The survivors before entry `at` of a level's `marks` (`before` from [`survivors_before`]).
#[inline]
fn survivors_under(marks: &[u64], before: &[u32], at: u32) -> u32 {
    let (word, bit) = (at as usize / 64, at % 64);
    before[word] + (marks[word] & ((1u64 << bit) - 1)).count_ones()
}

/// The process that held entry `at` of level `i` (from `base`) before compaction, from
/// [`Scratch::stretches`].
fn holder(stretches: &[u32], i: usize, at: u32, size: usize) -> usize {
    let firsts = &stretches[i * (size + 1)..][..size];
    firsts.partition_point(|&f| f <= at) - 1
}

/// Sends list `q` of `lists` to process `q`; what each process sent to this one, by rank.
fn exchange(comm: &dyn Comm, lists: &[Vec<u32>]) -> ByProcess {
    let mut to = Parcels::empty(comm.size());
    for (len, list) in to.lens.iter_mut().zip(lists) {
        *len = list.len() * u32::BYTES;
        for v in list {
            v.put(&mut to.bytes);
        }
    }
    let got = comm.all_to_all(to);
    got.parts()
        .map(|part| {
            let mut r = Reader::new(part);
            (0..part.len() / u32::BYTES).map(|_| r.read()).collect()
        })
        .collect()
}

impl<C: Code> Trail<C> {
    /// Drops trail entries no live state descends from, moving the rest down and renumbering
    /// them. Levels before `last_gc` were compacted before: once such a level is found fully
    /// alive, so is everything under it, and the rewrite starts above it.
    pub(super) fn compact<T>(
        &mut self,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: &mut Option<Best>,
        comm: &dyn Comm,
    ) {
        let Some(last) = self.levels().checked_sub(1) else {
            return;
        };
        let mut s = std::mem::take(&mut self.scratch);
        self.gather_stretches(&mut s, comm);
        let rewrite_from = self.mark_alive(&mut s, last, live, index_of, *best, comm);
        self.rewrite(&mut s, rewrite_from, last, live, index_of, best, comm);
        // The requests and answers are a few bytes per state of the share: they go now rather
        // than stay through the depths until the next compaction, at the peaks of the beam's
        // selection.
        for lists in [&mut s.asked, &mut s.answers, &mut s.requested] {
            lists.clear();
        }
        self.scratch = s;
    }

    /// Entries of depth `d`'s level held here.
    fn held(&self, d: usize) -> u32 {
        (self.start(d + 1) - self.start(d)) as u32
    }

    /// Every process's first index in each level, and each level's total.
    fn gather_stretches(&self, s: &mut Scratch, comm: &dyn Comm) {
        let firsts: Vec<u64> = self.parts.iter().map(|p| u64::from(p.first)).collect();
        let all = if comm.size() == 1 {
            vec![firsts]
        } else {
            gather_u64(comm, &firsts)
        };
        s.stretches.clear();
        for (i, part) in self.parts.iter().enumerate() {
            s.stretches.extend(all.iter().map(|f| f[i] as u32));
            s.stretches.push(part.total);
        }
    }

    /// Marks the entries the live states and `best` descend from, from the last level down;
    /// returns the first level to rewrite (those under it are alive as they are).
    fn mark_alive<T>(
        &self,
        s: &mut Scratch,
        last: usize,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: Option<Best>,
        comm: &dyn Comm,
    ) -> usize {
        let base = self.base;
        s.mark_at.clear();
        let mut words = 0;
        for d in base..=last {
            s.mark_at.push(words);
            words += (self.held(d) as usize).div_ceil(64);
        }
        s.mark_at.push(words);
        s.marks.clear();
        s.marks.resize(words, 0);
        let levels = last + 1 - base;
        for lists in [&mut s.asked, &mut s.answers, &mut s.requested] {
            lists.clear();
            lists.resize(levels, Vec::new());
        }
        let (top, first) = (s.mark_at[last - base], self.part(last).first);
        for n in live.iter_mut() {
            mark(&mut s.marks[top..], (*index_of(n) - first) as usize);
        }
        // A state pinned at the last compaction and released since kept its line alive then:
        // up to its depth, a level found fully alive no longer says that the levels under it
        // are, and the walk goes on down (else that line would stay, and under it no depth
        // would ever be decided).
        let released = self
            .pinned
            .filter(|p| best.is_none_or(|b| (b.depth, b.index) != (p.depth, p.index)))
            .map(|p| p.depth);
        for d in (base..=last).rev() {
            let (from, to) = (s.mark_at[d - base], s.mark_at[d - base + 1]);
            let part = self.part(d);
            if let Some(b) = best.filter(|b| b.depth == d) {
                let at = b.index.wrapping_sub(part.first);
                if at < self.held(d) {
                    mark(&mut s.marks[from..to], at as usize);
                }
            }
            if d < self.last_gc && released.is_none_or(|r| d <= r) {
                let alive = sum(comm, &[u64::from(alive(&s.marks[from..to]))])[0];
                if alive == u64::from(part.total) {
                    return d + 1;
                }
            }
            if d > base {
                self.mark_parents(s, d, comm);
            }
        }
        base
    }

    /// Marks the parents of depth `d`'s marked entries in the level below, asking the
    /// processes that hold them.
    fn mark_parents(&self, s: &mut Scratch, d: usize, comm: &dyn Comm) {
        let (i, size) = (d - self.base, comm.size());
        let (first, held) = (self.part(d - 1).first, self.held(d - 1));
        let (under, level) = s.marks.split_at_mut(s.mark_at[i]);
        let under = &mut under[s.mark_at[i - 1]..];
        let mut asked = vec![Vec::new(); size];
        for (k, e) in self.level(d).iter().enumerate() {
            if marked(level, k) {
                let at = e.parent.wrapping_sub(first);
                if at < held {
                    mark(under, at as usize);
                } else {
                    asked[holder(&s.stretches, i - 1, e.parent, size)].push(e.parent);
                }
            }
        }
        if size == 1 {
            return;
        }
        for list in &mut asked {
            list.sort_unstable();
            list.dedup();
        }
        let requested = exchange(comm, &asked);
        for &p in requested.iter().flatten() {
            mark(under, (p - first) as usize);
        }
        s.asked[i - 1] = asked;
        s.requested[i - 1] = requested;
    }

    /// Moves the marked entries of each level from `rewrite_from` to `last` down, in order,
    /// and renumbers them, their parents, the live states and `best`.
    #[allow(clippy::too_many_arguments)]
    fn rewrite<T>(
        &mut self,
        s: &mut Scratch,
        rewrite_from: usize,
        last: usize,
        live: &mut [T],
        index_of: fn(&mut T) -> &mut u32,
        best: &mut Option<Best>,
        comm: &dyn Comm,
    ) {
        let (base, size) = (self.base, comm.size());
        let news = self.renumber_stretches(s, rewrite_from..last + 1, *best, comm);
        if size > 1 {
            self.answer_requests(s, rewrite_from..last, &news, comm);
        }
        let mut to = self.start(rewrite_from);
        // The level below's stretch here: held, its first index before and after.
        let mut below: Option<(u32, u32, u32)> = None;
        for (d, new) in (rewrite_from..=last).zip(news) {
            let (start, end) = (self.start(d), self.start(d + 1));
            let i = d - base;
            let held = self.held(d);
            let old = self.parts[i];
            // The fields apart, not `Scratch::level`: `current` is written beside the marks.
            let marks = &s.marks[s.mark_at[i]..s.mark_at[i + 1]];
            survivors_before(marks, &mut s.current);
            self.starts[i] = to;
            let under = &s.marks[s.mark_at[i.saturating_sub(1)]..s.mark_at[i]];
            for k in start..end {
                if !marked(marks, k - start) {
                    continue;
                }
                let mut e = self.entries[k];
                if let Some((below_held, below_old, below_new)) = below {
                    let at = e.parent.wrapping_sub(below_old);
                    e.parent = if at < below_held {
                        below_new + survivors_under(under, &s.below, at)
                    } else {
                        let q = holder(&s.stretches, i - 1, e.parent, size);
                        let at = (s.asked[i - 1][q].binary_search(&{ e.parent }))
                            .expect("a parent asked of its holder");
                        s.answers[i - 1][q][at]
                    };
                }
                self.entries[to] = e;
                to += 1;
            }
            self.parts[i] = Part {
                first: new.first,
                total: new.total,
            };
            if let Some(b) = best.as_mut().filter(|b| b.depth == d) {
                b.index = new.best;
            }
            std::mem::swap(&mut s.below, &mut s.current);
            below = Some((held, old.first, new.first));
        }
        self.starts[last + 1 - base] = to;
        self.entries.truncate(to);
        self.pinned = *best;
        if let Some((_, old, new)) = below {
            let marks = s.level(last - base);
            for n in live.iter_mut() {
                let i = index_of(n);
                *i = new + survivors_under(marks, &s.below, *i - old);
            }
        }
    }

    /// The stretch here of each level of `depths` after compaction, counted across the
    /// processes in one gather for all of them, and `best`'s new index in its level (wherever
    /// it is held).
    fn renumber_stretches(
        &self,
        s: &Scratch,
        depths: std::ops::Range<usize>,
        best: Option<Best>,
        comm: &dyn Comm,
    ) -> Vec<Renumbered> {
        let mut before = Vec::new();
        // Each level's survivors here, and the best's rank among them where it is here.
        let mine: Vec<u64> = (depths.clone())
            .flat_map(|d| {
                let i = d - self.base;
                let marks = s.level(i);
                let (old, held) = (self.parts[i].first, self.held(d));
                let at = (best.filter(|b| b.depth == d))
                    .map(|b| b.index.wrapping_sub(old))
                    .filter(|&at| at < held);
                let rank = at.map_or(u64::MAX, |at| {
                    survivors_before(marks, &mut before);
                    u64::from(survivors_under(marks, &before, at))
                });
                [u64::from(alive(marks)), rank]
            })
            .collect();
        let all = if comm.size() == 1 {
            vec![mine]
        } else {
            gather_u64(comm, &mine)
        };
        (0..depths.len())
            .map(|j| {
                let mut before = 0;
                let mut new = Renumbered::default();
                for (q, v) in all.iter().enumerate() {
                    let (count, rank) = (v[2 * j], v[2 * j + 1]);
                    if q == comm.rank() {
                        new.first = before;
                    }
                    if rank != u64::MAX {
                        new.best = before + rank as u32;
                    }
                    before += count as u32;
                }
                new.total = before;
                new
            })
            .collect()
    }

    /// Answers the parents other processes asked of this one in the levels of `depths` with
    /// their new indices (`news`, from the first of them), and takes the answers to this one's
    /// questions into [`Scratch::answers`]: one all-to-all for all the levels.
    fn answer_requests(
        &self,
        s: &mut Scratch,
        depths: std::ops::Range<usize>,
        news: &[Renumbered],
        comm: &dyn Comm,
    ) {
        let mut answers: ByProcess = vec![Vec::new(); comm.size()];
        let mut before = Vec::new();
        for (d, new) in depths.clone().zip(news) {
            let i = d - self.base;
            let marks = s.level(i);
            survivors_before(marks, &mut before);
            let old = self.parts[i].first;
            for (out, list) in answers.iter_mut().zip(&s.requested[i]) {
                out.extend(
                    list.iter()
                        .map(|&p| new.first + survivors_under(marks, &before, p - old)),
                );
            }
        }
        // Each process's answers, level after level, as many a level as were asked of it.
        let mut got = exchange(comm, &answers)
            .into_iter()
            .map(Vec::into_iter)
            .collect::<Vec<_>>();
        for d in depths {
            let i = d - self.base;
            s.answers[i] = (s.asked[i].iter().zip(&mut got))
                .map(|(asked, from)| from.by_ref().take(asked.len()).collect())
                .collect();
        }
    }
}

/// A level's stretch here after compaction, and `best`'s index there.
#[derive(Default)]
struct Renumbered {
    first: u32,
    total: u32,
    best: u32,
}
