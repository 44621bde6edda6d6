//! A search's state between two depths as bytes: what a run that was stopped needs to go on
//! to the very line the uninterrupted run answers with.
//!
//! After a depth the one depth loop ([`super::depths`]) holds the last selection's candidates
//! and the states they are children of (a holder builds the chosen states lazily, inside the
//! next expansion), the undecided trail, the answer's state so far, the statistics, the width
//! plan's position and the time the budget has spent. A snapshot is exactly those, each field
//! written with [`Wire`]; nothing in it depends on where a value sat in memory, so a snapshot
//! taken on one machine resumes on another running the same binary. The decided placements are
//! not in it: the caller took them as they came ([`super::Options::decided`]) and keeps them
//! beside it.
//!
//! A snapshot carries no checksum of its own: the caller's file does ([`Checkpoints::take`]
//! hands it the bytes to wrap). Decoding checks every length and index, so a snapshot of
//! another game, another binary or cut short is refused, never trusted.

use super::candidates::Candidate;
use super::code::Code;
use super::expand::Node;
use super::trail::{Best, Trail};
use super::wire::Wire;
use super::DepthStats;
use std::io::Write;

/// Where a search's snapshots go: asked after each depth, except the last, whether one is due.
pub trait Checkpoints {
    /// Whether to take a snapshot after the first `done` depths of the search.
    fn due(&mut self, done: usize) -> bool;
    /// Takes the snapshot after `done` depths ([`super::Options::resume`] goes on from it):
    /// `snapshot` writes its bytes to the writer it is given.
    fn take(&mut self, done: usize, snapshot: Snapshotter<'_>);
}

/// A snapshot about to be written ([`Checkpoints::take`]).
pub struct Snapshotter<'a> {
    pub(crate) write: &'a dyn Fn(&mut dyn Write) -> std::io::Result<()>,
}

impl Snapshotter<'_> {
    /// Writes the snapshot's bytes to `out`.
    pub fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        (self.write)(out)
    }

    /// The snapshot's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.write_to(&mut bytes)
            .expect("writing to memory does not fail");
        bytes
    }
}

/// The first bytes of every snapshot, and its layout's number: a layout that changes gets a
/// new number, and an older snapshot is refused.
const MAGIC: &[u8; 8] = b"beamsnp1";

/// Why a snapshot cannot be resumed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SnapshotError {
    #[error("not a snapshot of this search (another binary's, or not a checkpoint)")]
    Magic,
    #[error("made for a game whose states take {found} bytes and codes {found_code}, not {expected} and {expected_code}")]
    Game {
        found: usize,
        found_code: usize,
        expected: usize,
        expected_code: usize,
    },
    #[error("cut short or damaged ({0})")]
    Damaged(&'static str),
    #[error("taken after depth {done} of a search of {depths}, not of this one's {expected}")]
    Depths {
        done: usize,
        depths: usize,
        expected: usize,
    },
}

/// What a snapshot says of the search it was taken from, before it is resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Depths searched when it was taken.
    pub done: usize,
    /// Depths the search had in all.
    pub depths: usize,
}

/// The width plan's position ([`super::width::WidthPlan`]), as a snapshot holds it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct PlanState {
    pub width: usize,
    /// Scheduled changes already made.
    pub scheduled: usize,
    pub changes: Vec<(usize, usize)>,
    pub segment: (f64, u64),
    /// The budget's next re-choice, its measurement's first depth, and the first estimate
    /// that found width 1 too slow (depth, seconds at width 1, the search's seconds).
    pub due: usize,
    pub since: usize,
    pub late: Option<(usize, f64, f64)>,
}

/// A search as a snapshot holds it: the depth loop's state and the holder's.
pub(crate) struct Snapshot<S: Copy, C: Code> {
    pub done: usize,
    pub depths: usize,
    pub best: Option<Best>,
    pub stats: DepthStats,
    pub plan: PlanState,
    /// The seconds the search's clock read when it was taken.
    pub seconds: f64,
    pub trail: Trail<C>,
    /// The states the last depth expanded, and the candidates its selection chose among their
    /// children.
    pub parents: Vec<Node<S>>,
    pub chosen: Vec<Candidate<C>>,
}

/// Writes values one after the other to a writer, through a buffer of its own (a snapshot
/// is never held whole in memory: at a wide beam it is a tenth of the search's); the first
/// error is kept and the rest is not written.
pub(crate) struct Out<'a> {
    buf: Vec<u8>,
    sink: &'a mut dyn Write,
    error: Option<std::io::Error>,
}

/// Bytes [`Out`] gathers before it writes them on.
const OUT_BUFFER: usize = 1 << 16;

impl<'a> Out<'a> {
    pub fn new(sink: &'a mut dyn Write) -> Out<'a> {
        Out {
            buf: Vec::with_capacity(OUT_BUFFER + 64),
            sink,
            error: None,
        }
    }
    pub fn put<T: Wire>(&mut self, value: T) {
        value.put(&mut self.buf);
        if self.buf.len() >= OUT_BUFFER {
            self.drain();
        }
    }
    fn drain(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.sink.write_all(&self.buf) {
                self.error = Some(e);
            }
        }
        self.buf.clear();
    }
    /// Writes what is left; the first error met, if any.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.drain();
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
    pub fn len(&mut self, n: usize) {
        self.put(n as u64);
    }
    pub fn f64(&mut self, x: f64) {
        self.put(x.to_bits());
    }
    pub fn best(&mut self, best: Option<Best>) {
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

/// Reads what [`Out`] wrote, refusing to read past the end.
pub(crate) struct In<'a>(pub &'a [u8]);

impl In<'_> {
    pub fn get<T: Wire>(&mut self) -> Result<T, SnapshotError> {
        if self.0.len() < T::BYTES {
            return Err(SnapshotError::Damaged("it ends early"));
        }
        let (value, rest) = self.0.split_at(T::BYTES);
        self.0 = rest;
        Ok(T::take(value))
    }
    /// A count of things of `bytes` bytes each that follow: refused where the rest of the
    /// snapshot cannot hold them (so that a damaged count allocates nothing).
    pub fn len(&mut self, bytes: usize) -> Result<usize, SnapshotError> {
        let n: u64 = self.get()?;
        if n > (self.0.len() / bytes.max(1)) as u64 {
            return Err(SnapshotError::Damaged("a count past its end"));
        }
        Ok(n as usize)
    }
    /// A number that is no count of stored things (a depth, a width).
    pub fn usize(&mut self) -> Result<usize, SnapshotError> {
        let n: u64 = self.get()?;
        usize::try_from(n).map_err(|_| SnapshotError::Damaged("a number too large"))
    }
    pub fn f64(&mut self) -> Result<f64, SnapshotError> {
        Ok(f64::from_bits(self.get()?))
    }
    pub fn best(&mut self) -> Result<Option<Best>, SnapshotError> {
        let some: bool = self.get()?;
        let b = Best {
            depth: self.usize()?,
            index: self.get()?,
            score: self.get()?,
        };
        Ok(some.then_some(b))
    }
    pub fn stats(&mut self) -> Result<DepthStats, SnapshotError> {
        Ok(DepthStats {
            pieces: self.usize()?,
            beam_size: self.usize()?,
            best_score: self.get()?,
            placements: self.get()?,
            expanded: self.get()?,
            seconds: super::PhaseSeconds {
                expand: self.f64()?,
                select: self.f64()?,
                advance: self.f64()?,
            },
            ..DepthStats::default()
        })
    }
    pub fn plan(&mut self) -> Result<PlanState, SnapshotError> {
        let width = self.usize()?;
        let scheduled = self.usize()?;
        let changes = (0..self.len(16)?)
            .map(|_| Ok((self.usize()?, self.usize()?)))
            .collect::<Result<_, SnapshotError>>()?;
        let segment = (self.f64()?, self.get()?);
        let (due, since) = (self.usize()?, self.usize()?);
        let some: bool = self.get()?;
        let late = (self.usize()?, self.f64()?, self.f64()?);
        Ok(PlanState {
            width,
            scheduled,
            changes,
            segment,
            due,
            since,
            late: some.then_some(late),
        })
    }
    /// A check that holds in every snapshot this search writes.
    pub fn ensure(holds: bool, what: &'static str) -> Result<(), SnapshotError> {
        if holds {
            Ok(())
        } else {
            Err(SnapshotError::Damaged(what))
        }
    }
}

/// A search as a snapshot is taken of it, borrowed from the depth loop and its holder.
pub(crate) struct View<'a, S: Copy, C: Code> {
    pub done: usize,
    pub depths: usize,
    pub best: Option<Best>,
    pub stats: &'a DepthStats,
    pub plan: PlanState,
    pub seconds: f64,
    pub trail: &'a Trail<C>,
    /// The states the last depth expanded, and the candidates its selection chose.
    pub beam: (&'a [Node<S>], &'a [Candidate<C>]),
}

impl<S: Copy + Wire, C: Code> View<'_, S, C> {
    pub fn encode(&self, sink: &mut dyn Write) -> std::io::Result<()> {
        sink.write_all(MAGIC)?;
        let mut out = Out::new(sink);
        out.len(S::BYTES);
        out.len(C::BYTES);
        out.len(self.done);
        out.len(self.depths);
        out.best(self.best);
        let s = self.stats;
        for n in [s.pieces, s.beam_size] {
            out.len(n);
        }
        out.put(s.best_score);
        out.put(s.placements);
        out.put(s.expanded);
        for x in [s.seconds.expand, s.seconds.select, s.seconds.advance] {
            out.f64(x);
        }
        let p = &self.plan;
        out.len(p.width);
        out.len(p.scheduled);
        out.len(p.changes.len());
        for &(d, w) in &p.changes {
            out.len(d);
            out.len(w);
        }
        out.f64(p.segment.0);
        out.put(p.segment.1);
        out.len(p.due);
        out.len(p.since);
        let late = p.late.unwrap_or_default();
        out.put(p.late.is_some());
        out.len(late.0);
        out.f64(late.1);
        out.f64(late.2);
        out.f64(self.seconds);
        self.trail.save(&mut out);
        let (parents, chosen) = self.beam;
        out.len(parents.len());
        for n in parents {
            let (state, score, trail) = (n.state, n.score, n.trail);
            out.put(state);
            out.put(score);
            out.put(trail);
        }
        out.len(chosen.len());
        for c in chosen {
            out.put(c.key);
            out.put(c.hash);
            out.put(c.score);
            out.put(c.parent);
            out.put(c.placement);
        }
        out.finish()
    }
}

impl<S: Copy + Wire, C: Code> Snapshot<S, C> {
    /// The snapshot `bytes` hold, for a search of `depths` depths.
    /// The magic, the game's sizes and the depths, checked: the depths done.
    fn header(r: &mut In, depths: usize) -> Result<usize, SnapshotError> {
        if r.0.len() < MAGIC.len() || &r.0[..MAGIC.len()] != MAGIC {
            return Err(SnapshotError::Magic);
        }
        r.0 = &r.0[MAGIC.len()..];
        let (found, found_code) = (r.usize()?, r.usize()?);
        if (found, found_code) != (S::BYTES, C::BYTES) {
            return Err(SnapshotError::Game {
                found,
                found_code,
                expected: S::BYTES,
                expected_code: C::BYTES,
            });
        }
        let (done, total) = (r.usize()?, r.usize()?);
        if total != depths || done == 0 || done >= depths {
            return Err(SnapshotError::Depths {
                done,
                depths: total,
                expected: depths,
            });
        }
        Ok(done)
    }

    pub fn decode(bytes: &[u8], depths: usize) -> Result<Self, SnapshotError> {
        let mut r = In(bytes);
        let done = Self::header(&mut r, depths)?;
        let best = r.best()?;
        let stats = r.stats()?;
        let plan = r.plan()?;
        let seconds = r.f64()?;
        let trail = Trail::restore(&mut r, done)?;
        let parents = (0..r.len(S::BYTES + 12)?)
            .map(|_| {
                Ok(Node {
                    state: r.get()?,
                    score: r.get()?,
                    trail: r.get()?,
                })
            })
            .collect::<Result<Vec<_>, SnapshotError>>()?;
        let chosen = (0..r.len(28 + C::BYTES)?)
            .map(|_| {
                Ok(Candidate {
                    key: r.get()?,
                    hash: r.get()?,
                    score: r.get()?,
                    parent: r.get()?,
                    placement: r.get()?,
                })
            })
            .collect::<Result<Vec<_>, SnapshotError>>()?;
        In::ensure(r.0.is_empty(), "bytes after its end")?;
        In::ensure(!chosen.is_empty(), "no state chosen")?;
        In::ensure(
            chosen.iter().all(|c| (c.parent as usize) < parents.len()),
            "a chosen state's parent past the beam",
        )?;
        let last = trail.last_level_len();
        In::ensure(
            done == 1 || parents.iter().all(|n| ({ n.trail } as usize) < last),
            "a state's step past its level",
        )?;
        Ok(Snapshot {
            done,
            depths,
            best,
            stats,
            plan,
            seconds,
            trail,
            parents,
            chosen,
        })
    }
}

/// What a snapshot says of its search, without resuming it: `bytes` checked as a snapshot of a
/// search of `G` over `depths` depths.
pub fn summary<G: super::Game>(bytes: &[u8], depths: usize) -> Result<Summary, SnapshotError> {
    let snapshot = Snapshot::<G::State, G::Code>::decode(bytes, depths)?;
    Ok(Summary {
        done: snapshot.done,
        depths: snapshot.depths,
    })
}
