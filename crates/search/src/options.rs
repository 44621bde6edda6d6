//! How a search is called beyond its game and where it begins: one [`Options`] for every
//! search, with a default for everything but the width, so that a simple caller writes
//! `beam_search(&game, &run, Options::new(&width))`.

use super::checkpoint::Checkpoints;
use super::comm::Comm;
use super::game::Decided;
use super::guided::Guide;
use super::run::{DepthStats, Width};
use super::width::Clock;

/// What a search is told besides its game and its [`super::Run`]: the width, and what
/// [`Options::new`] leaves at its default (no guide, the wall clock, this process, nobody
/// watching). The setters chain: `Options::new(&width).guide(&guide).progress(&mut report)`.
pub struct Options<'a, C> {
    /// How wide the beam is and how long it runs.
    pub(crate) width: &'a Width,
    /// A line kept in the beam whatever its rank ([`Guide`]); the answer is then that line
    /// as the beam left it. One process only.
    pub(crate) guide: Option<&'a Guide>,
    /// What a time budget reads (None: the wall clock from the search's start); a
    /// [`super::width::SpeedModel`] makes a budgeted search repeatable.
    pub(crate) clock: Option<&'a dyn Clock>,
    /// Where the search runs; over several processes, every one calls the search alike.
    pub(crate) processes: Processes<'a>,
    /// Called after every depth (on process 0 only).
    pub(crate) progress: Option<&'a mut dyn FnMut(&DepthStats)>,
    /// Takes the answer's placement codes in order, from the run's first piece on, as soon as
    /// every line that may still become the answer shares them (on process 0 only). The search
    /// then forgets them, so its memory does not grow with the number of pieces, and the line
    /// it answers holds only the codes that follow them. None: the line holds every code.
    ///
    /// Where the answer could still become no line at all (guided, surviving: a depth that
    /// loses the guide's board forgets the answer), nothing is decided before the end.
    pub decided: Option<Decided<'a, C>>,
    /// Asked after each depth whether to take a snapshot of the search, and given it
    /// ([`super::checkpoint`]). One process only.
    pub(crate) checkpoints: Option<&'a mut dyn Checkpoints>,
    /// A snapshot to go on from instead of the run's start: the search then answers with the
    /// line the search it was taken from would have, less the placements that search had
    /// decided by then (which its caller kept). Checked first with
    /// [`super::checkpoint::summary`]. One process only.
    pub(crate) resume: Option<&'a [u8]>,
}

/// Where a search runs.
#[derive(Clone, Copy)]
pub enum Processes<'a> {
    /// In this process, on its threads.
    One,
    /// Over the processes of a [`Comm`] ([`super::distributed`]): the answer's codes are on
    /// process 0 only, and the line tells what crossed between the processes.
    Many(&'a dyn Comm),
}

impl<'a, C> Options<'a, C> {
    /// A search `width` wide, every other option at its default.
    pub fn new(width: &'a Width) -> Options<'a, C> {
        Options {
            width,
            guide: None,
            clock: None,
            processes: Processes::One,
            progress: None,
            decided: None,
            checkpoints: None,
            resume: None,
        }
    }

    /// Keeps `guide`'s line in the beam ([`Guide`]); None leaves the search free.
    pub fn guide(self, guide: impl Into<Option<&'a Guide>>) -> Self {
        Options {
            guide: guide.into(),
            ..self
        }
    }

    /// Reads the time budget from `clock`.
    pub fn clock(self, clock: &'a dyn Clock) -> Self {
        Options {
            clock: Some(clock),
            ..self
        }
    }

    /// Runs over `processes`.
    pub fn processes(self, processes: Processes<'a>) -> Self {
        Options { processes, ..self }
    }

    /// Calls `progress` after every depth.
    pub fn progress(self, progress: &'a mut dyn FnMut(&DepthStats)) -> Self {
        Options {
            progress: Some(progress),
            ..self
        }
    }

    /// Offers `checkpoints` a snapshot after each depth (see the field).
    pub fn checkpoints(self, checkpoints: &'a mut dyn Checkpoints) -> Self {
        Options {
            checkpoints: Some(checkpoints),
            ..self
        }
    }

    /// Goes on from `snapshot` (see the field).
    pub fn resume(self, snapshot: &'a [u8]) -> Self {
        Options {
            resume: Some(snapshot),
            ..self
        }
    }

    /// Hands the answer's codes to `decided` as they are decided (see the field).
    pub fn decided(self, decided: &'a mut dyn FnMut(&[C])) -> Self {
        Options {
            decided: Some(decided),
            ..self
        }
    }

    /// These options for a search whose codes are `D`, for as short a while as needed, and the
    /// caller's `decided` taken out of them: a game's wrapper lends the search a `decided` of
    /// its own, which hands the caller what the codes name.
    pub fn recoded<'b, D>(self) -> (Options<'b, D>, Option<Decided<'a, C>>)
    where
        'a: 'b,
    {
        let progress: Option<&'b mut dyn FnMut(&DepthStats)> = match self.progress {
            Some(progress) => Some(progress),
            None => None,
        };
        let options = Options {
            width: self.width,
            guide: self.guide,
            clock: self.clock,
            processes: self.processes,
            progress,
            decided: None,
            // Shortened from 'a to 'b, as `progress` is.
            checkpoints: (self.checkpoints).map(|c| -> &'b mut dyn Checkpoints { c }),
            resume: self.resume,
        };
        (options, self.decided)
    }

    /// Runs `search`, a search whose codes are `D`, with these options, handing their
    /// `decided` the codes as `unpack` reads them (where they have one).
    pub fn unpacking<D: Copy, R>(
        self,
        unpack: impl Fn(D) -> C,
        search: impl FnOnce(Options<'_, D>) -> R,
    ) -> R {
        let (options, decided) = self.recoded();
        let Some(decided) = decided else {
            return search(options);
        };
        let mut unpacked = Vec::new();
        let mut out = |codes: &[D]| {
            unpacked.clear();
            unpacked.extend(codes.iter().map(|&c| unpack(c)));
            decided(&unpacked);
        };
        search(options.decided(&mut out))
    }
}
