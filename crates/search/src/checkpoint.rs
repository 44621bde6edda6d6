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
//!
//! Over several processes ([`super::distributed`]) each process takes a snapshot of its own
//! share at once: its states (built, with their board hashes) and its stretch of the trail.
//! It names the process it was taken on, and resumes on that process of a job of as many.

pub use super::bytes::SnapshotError;
use super::bytes::{In, Out};
use super::candidates::Candidate;
use super::code::Code;
use super::comm::{gather_u64, Comm, Place};
use super::expand::Node;
use super::held::Beamed;
use super::run::DepthStats;
use super::trail::{Best, Trail};
use super::width::PlanState;
use super::wire::Wire;
use std::io::Write;

/// Where a search's snapshots go: asked after each depth, except the last, whether one is due.
///
/// Over several processes every process has its own, and each call is made on all of them at
/// once; process 0's answers count for all of them.
pub trait Checkpoints {
    /// Whether to take a snapshot after the first `done` depths of the search.
    fn due(&mut self, done: usize) -> bool;
    /// Takes the snapshot after `done` depths ([`super::Options::resume`] goes on from it):
    /// `snapshot` writes its bytes to the writer it is given. Whether the search stops here
    /// (its answer then has no placement and says it stopped: [`super::Line::stopped`]).
    fn take(&mut self, done: usize, snapshot: Snapshotter<'_>) -> bool;
}

/// A snapshot about to be written ([`Checkpoints::take`]).
pub struct Snapshotter<'a> {
    pub(crate) write: &'a dyn Fn(&mut dyn Write) -> std::io::Result<()>,
    pub(crate) comm: &'a dyn Comm,
}

impl Snapshotter<'_> {
    /// This process's number and the processes of the search: a snapshot resumes on the
    /// process of that number in a job of as many.
    pub fn process(&self) -> (usize, usize) {
        (self.comm.rank(), self.comm.size())
    }

    /// Whether `ok` holds on every process (each process calls it at once): what a caller
    /// that writes each process's snapshot apart waits on before it makes them the
    /// checkpoint.
    pub fn on_all(&self, ok: bool) -> bool {
        gather_u64(self.comm, &[u64::from(ok)])
            .iter()
            .all(|v| v[0] == 1)
    }

    /// Writes the snapshot's bytes to `out`.
    pub fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        (self.write)(out)
    }

    /// The snapshot's bytes, which the tests read back.
    #[cfg(test)]
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.write_to(&mut bytes)
            .expect("writing to memory does not fail");
        bytes
    }
}

/// The first bytes of every snapshot, and its layout's number: a layout that changes gets a
/// new number, and an older snapshot is refused.
const MAGIC: &[u8; 8] = b"beamsnp2";

/// What a snapshot says of the search it was taken from, before it is resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Depths searched when it was taken.
    pub(crate) done: usize,
    /// Depths the search had in all.
    pub(crate) depths: usize,
}

/// A search as a snapshot holds it: the depth loop's state and the holder's.
pub(crate) struct Snapshot<S: Copy, C: Code> {
    pub(crate) done: usize,
    pub(crate) depths: usize,
    pub(crate) best: Option<Best>,
    pub(crate) stats: DepthStats,
    pub(crate) plan: PlanState,
    /// The seconds the search's clock read when it was taken.
    pub(crate) seconds: f64,
    pub(crate) trail: Trail<C>,
    pub(crate) beam: HeldBeam<S, C>,
}

/// The holder's part of a snapshot ([`Beamed`], owned).
pub(crate) struct HeldBeam<S: Copy, C: Code> {
    /// In one process, the states the last depth expanded, and the candidates its selection
    /// chose among their children; spread, the states the last depth chose, and their board
    /// hashes.
    pub(crate) parents: Vec<Node<S>>,
    pub(crate) chosen: Vec<Candidate<C>>,
    pub(crate) tags: Vec<u64>,
}

/// A search as a snapshot is taken of it, borrowed from the depth loop and its holder.
pub(crate) struct View<'a, S: Copy, C: Code> {
    pub(crate) done: usize,
    pub(crate) depths: usize,
    pub(crate) best: Option<Best>,
    pub(crate) stats: &'a DepthStats,
    pub(crate) plan: PlanState,
    pub(crate) seconds: f64,
    pub(crate) trail: &'a Trail<C>,
    pub(crate) beam: Beamed<'a, S, C>,
}

impl<S: Copy + Wire, C: Code> View<'_, S, C> {
    pub(crate) fn encode(&self, sink: &mut dyn Write) -> std::io::Result<()> {
        sink.write_all(MAGIC)?;
        let mut out = Out::new(sink);
        out.len(S::BYTES);
        out.len(C::BYTES);
        let place = self.beam.place;
        out.put(place.spread);
        out.len(place.process);
        out.len(place.processes);
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
        let Beamed {
            parents,
            chosen,
            tags,
            ..
        } = self.beam;
        out.len(parents.len());
        for n in parents {
            let (state, score, trail) = (n.state, n.score, n.trail);
            out.put(state);
            out.put(score);
            out.put(trail);
        }
        out.len(tags.len());
        for &t in tags {
            out.put(t);
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
    /// The magic, the game's sizes, the place and the depths, checked: the depths done.
    fn header(r: &mut In, depths: usize, place: Place) -> Result<usize, SnapshotError> {
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
        let found = (r.get()?, r.usize()?, r.usize()?);
        if found != place.parts() {
            return Err(SnapshotError::Process {
                found,
                expected: place.parts(),
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

    /// The snapshot `bytes` hold, for a search of `depths` depths held at `place`.
    pub(crate) fn decode(bytes: &[u8], depths: usize, place: Place) -> Result<Self, SnapshotError> {
        let mut r = In(bytes);
        let done = Self::header(&mut r, depths, place)?;
        let best = r.best()?;
        let stats = r.stats()?;
        let plan = r.plan()?;
        let seconds = r.f64()?;
        // One process builds the chosen states in the next expansion, so their steps are not
        // in the trail yet; spread, they are.
        let levels = if place.spread { done } else { done - 1 };
        let trail = Trail::restore(&mut r, levels)?;
        let parents = (0..r.len(S::BYTES + 12)?)
            .map(|_| {
                Ok(Node {
                    state: r.get()?,
                    score: r.get()?,
                    trail: r.get()?,
                })
            })
            .collect::<Result<Vec<_>, SnapshotError>>()?;
        let tags = (0..r.len(8)?)
            .map(|_| r.get())
            .collect::<Result<Vec<u64>, SnapshotError>>()?;
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
        match place.spread {
            true => In::ensure(
                chosen.is_empty() && tags.len() == parents.len(),
                "a state without its board's hash",
            )?,
            false => In::ensure(!chosen.is_empty() && tags.is_empty(), "no state chosen")?,
        }
        In::ensure(
            chosen.iter().all(|c| (c.parent as usize) < parents.len()),
            "a chosen state's parent past the beam",
        )?;
        In::ensure(
            levels == 0 || parents.iter().all(|n| trail.holds_last(n.trail)),
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
            beam: HeldBeam {
                parents,
                chosen,
                tags,
            },
        })
    }
}

/// What a snapshot says of its search, without resuming it: `bytes` checked as a snapshot of a
/// search of `G` over `depths` depths, held at `place`.
pub fn summary<G: super::game::Game>(
    bytes: &[u8],
    depths: usize,
    place: Place,
) -> Result<Summary, SnapshotError> {
    let snapshot = Snapshot::<G::State, G::Code>::decode(bytes, depths, place)?;
    Ok(Summary {
        done: snapshot.done,
        depths: snapshot.depths,
    })
}
