//! The one progress reporter of the binaries' long runs (`solve` of every game, `tune`): a
//! bar with an ETA on a terminal; elsewhere (a log file, nohup, CI), where a bar does not
//! draw, a plain line at most every `every` seconds (0: at every step).

use crate::args::SolveArgs;
use crate::say;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;
use tetris_search::width::Late;
use tetris_search::DepthStats;

/// A run's progress, counted in steps (pieces, trials) of a known or unknown total.
pub struct Progress {
    bar: ProgressBar,
    /// The word a step is called in the bar and the lines ("piece", "trial").
    unit: &'static str,
    total: Option<u64>,
    /// The total is an estimate (a game that may end before or after it): shown as "about",
    /// and raised to the count where the count passes it.
    about: bool,
    /// Seconds between two lines where the bar does not draw (`None`: no lines).
    every: Option<f64>,
    start: Instant,
    /// When the last line was printed (the start counts as one).
    last_line: f64,
}

impl Progress {
    /// A reporter of `total` steps (`None`: unknown); `quiet` shows nothing.
    pub fn new(unit: &'static str, total: Option<u64>, quiet: bool, every: f64) -> Progress {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
            let template = match total {
                Some(_) => format!("{{bar:30}} {unit} {{pos}}/{{len}} {{msg}} [{{elapsed_precise}} < {{eta_precise}}]"),
                None => format!("{unit} {{pos}} {{msg}} [{{elapsed_precise}}]"),
            };
            bar.set_style(ProgressStyle::with_template(&template).expect("valid template"));
            bar
        };
        let lines = !quiet && !std::io::stderr().is_terminal();
        Progress {
            bar,
            unit,
            total,
            about: false,
            every: lines.then_some(every),
            start: Instant::now(),
            last_line: 0.0,
        }
    }

    /// The total is an estimate: "about N", raised as the count passes it.
    pub(crate) fn about(mut self) -> Progress {
        self.about = true;
        if let Some(total) = self.total {
            self.bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:30}} {} {{pos}}/about {{len}} {{msg}} [{{elapsed_precise}}]",
                    self.unit
                ))
                .expect("valid template"),
            );
            self.bar.set_length(total);
        }
        self
    }

    /// Seconds since the reporter was made.
    pub(crate) fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// The total, estimated again (an estimate only; never below the step reached).
    pub(crate) fn estimate(&mut self, total: u64) {
        if self.about {
            let total = total.max(self.bar.position());
            self.total = Some(total);
            self.bar.set_length(total);
        }
    }

    /// The run is at step `at`; `message` says how it goes.
    pub fn update(&mut self, at: u64, message: &str) {
        if self.about && self.total.is_some_and(|t| at > t) {
            self.total = Some(at);
            self.bar.set_length(at);
        }
        self.bar.set_position(at);
        self.bar.set_message(message.to_string());
        let Some(every) = self.every else {
            return;
        };
        let elapsed = self.elapsed();
        if elapsed - self.last_line >= every {
            self.last_line = elapsed;
            let about = if self.about { "about " } else { "" };
            let of = self.total.map_or(String::new(), |t| format!("/{about}{t}"));
            say!("{} {at}{of} {message} [{elapsed:.0} s]", self.unit);
        }
    }

    /// Steps done without work (trials taken from a log): they would make the ETA too short.
    pub fn skip(&mut self, steps: u64) {
        self.bar.inc(steps);
        self.bar.reset_eta();
    }

    /// Prints `line` above the bar.
    pub fn note(&self, line: &str) {
        self.bar.suspend(|| say!("{line}"));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The run's progress in pieces, the kept ones counted.
pub(crate) struct Pieces {
    progress: Progress,
    kept: usize,
    /// The pieces the run is expected to end with.
    total: u64,
    quiet: bool,
    /// The time budget's deadline was found out of reach, and the user told.
    warned: bool,
}

impl Pieces {
    /// The progress of a run that keeps `kept` pieces of a record and searches `searched`
    /// more (`about`: an estimate, for a game that ends at a level or a line count).
    pub(crate) fn new(args: &SolveArgs, (kept, searched): (usize, usize), about: bool) -> Pieces {
        let total = (kept + searched) as u64;
        let mut progress = Progress::new("piece", Some(total), args.quiet, args.progress_every);
        if about {
            progress = progress.about();
        }
        Pieces {
            progress,
            kept,
            total,
            quiet: args.quiet,
            warned: false,
        }
    }

    /// A depth searched: its piece, with the best score, the beam and the speed; `expected`,
    /// the pieces the game expects to end with as of the pieces decided (the kept ones not
    /// counted).
    pub(crate) fn depth(&mut self, s: &DepthStats, expected: Option<u64>) {
        let piece = (self.kept + s.pieces) as u64;
        if let Some(late) = s.late.filter(|_| !self.warned) {
            self.warned = true;
            self.progress.note(&late_warning(&late, self.kept));
        }
        if let Some(expected) = expected {
            self.total = self.kept as u64 + expected;
            self.progress.estimate(self.total);
        }
        // A narrow beam's depths take microseconds: a message nobody sees is not made.
        if !self.quiet && (piece.is_multiple_of(16) || piece == self.total) {
            let message = format!(
                "best {} beam {} {:.1}M placements/s",
                s.best_score,
                s.beam_size,
                s.placements as f64 / self.progress.elapsed().max(1e-9) / 1e6
            );
            self.progress.update(piece, &message);
        }
    }

    /// The search's end (`stats`, its last depth's): the last piece, where the progress
    /// stopped short of it (a game that ended past its estimate, or between two updates).
    pub(crate) fn finish(mut self, stats: &DepthStats) {
        let last = (self.kept + stats.pieces) as u64;
        if !(self.quiet || last.is_multiple_of(16) || last == self.total) {
            let message = format!("best {} beam {}", stats.best_score, stats.beam_size);
            self.progress.update(last, &message);
        }
        self.progress.finish();
    }
}

/// The warning of a time budget whose deadline even a beam of one state cannot meet.
pub fn late_warning(late: &Late, kept: usize) -> String {
    format!(
        "warning: --time-budget cannot be met: at piece {}, even a beam of width 1 would take \
         about {:.1} s in all, past the deadline; the search goes on at width 1",
        kept + late.depth,
        late.seconds
    )
}
