//! The one progress reporter of the binaries' long runs (`solve` of every game, `tune`): a
//! bar with an ETA on a terminal; elsewhere (a log file, nohup, CI), where a bar does not
//! draw, a plain line at most every `every` seconds (0: at every step).

use crate::say;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;

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
    pub fn about(mut self) -> Progress {
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
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// The total, estimated again (an estimate only; never below the step reached).
    pub fn estimate(&mut self, total: u64) {
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
