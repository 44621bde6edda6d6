//! A snapshot's values as bytes ([`crate::checkpoint`]): written through a buffer, read back
//! with every length checked against what is left, and why a snapshot cannot be read
//! ([`SnapshotError`]).

use crate::run::DepthStats;
use crate::width::PlanState;
use crate::wire::Wire;
use std::io::Write;

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
    pub(crate) fn new(sink: &'a mut dyn Write) -> Out<'a> {
        Out {
            buf: Vec::with_capacity(OUT_BUFFER + 64),
            sink,
            error: None,
        }
    }
    pub(crate) fn put<T: Wire>(&mut self, value: T) {
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
    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        self.drain();
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
    pub(crate) fn len(&mut self, n: usize) {
        self.put(n as u64);
    }
    pub(crate) fn f64(&mut self, x: f64) {
        self.put(x.to_bits());
    }
}

/// Reads what [`Out`] wrote, refusing to read past the end.
pub(crate) struct In<'a>(pub &'a [u8]);

impl In<'_> {
    pub(crate) fn get<T: Wire>(&mut self) -> Result<T, SnapshotError> {
        if self.0.len() < T::BYTES {
            return Err(SnapshotError::Damaged("it ends early"));
        }
        let (value, rest) = self.0.split_at(T::BYTES);
        self.0 = rest;
        Ok(T::take(value))
    }
    /// A count of things of `bytes` bytes each that follow: refused where the rest of the
    /// snapshot cannot hold them (so that a damaged count allocates nothing).
    pub(crate) fn len(&mut self, bytes: usize) -> Result<usize, SnapshotError> {
        let n: u64 = self.get()?;
        if n > (self.0.len() / bytes.max(1)) as u64 {
            return Err(SnapshotError::Damaged("a count past its end"));
        }
        Ok(n as usize)
    }
    /// A number that is no count of stored things (a depth, a width).
    pub(crate) fn usize(&mut self) -> Result<usize, SnapshotError> {
        let n: u64 = self.get()?;
        usize::try_from(n).map_err(|_| SnapshotError::Damaged("a number too large"))
    }
    pub(crate) fn f64(&mut self) -> Result<f64, SnapshotError> {
        Ok(f64::from_bits(self.get()?))
    }
    pub(crate) fn stats(&mut self) -> Result<DepthStats, SnapshotError> {
        Ok(DepthStats {
            pieces: self.usize()?,
            beam_size: self.usize()?,
            best_score: self.get()?,
            placements: self.get()?,
            expanded: self.get()?,
            seconds: crate::run::PhaseSeconds {
                expand: self.f64()?,
                select: self.f64()?,
                advance: self.f64()?,
            },
            ..DepthStats::default()
        })
    }
    pub(crate) fn plan(&mut self) -> Result<PlanState, SnapshotError> {
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
    pub(crate) fn ensure(holds: bool, what: &'static str) -> Result<(), SnapshotError> {
        if holds {
            Ok(())
        } else {
            Err(SnapshotError::Damaged(what))
        }
    }
}

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
    #[error("taken on {}, not on {}", on(*.found), on(*.expected))]
    Process {
        /// (spread over processes, this process, processes)
        found: (bool, usize, usize),
        expected: (bool, usize, usize),
    },
}

/// Where a snapshot was taken, as a person reads it.
fn on((spread, rank, size): (bool, usize, usize)) -> String {
    match spread {
        false => "a search in one process".to_string(),
        true => format!("process {rank} of a distributed search of {size}"),
    }
}
