//! What the fuzzer counts: panics caught quietly as findings, the tally of one game's cases with
//! its first findings, the one-visible-line form every error message must have, and the length
//! and progress of the long runs.

use super::EXAMPLES;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Whether a panic on this thread is a finding to record rather than a failure to print.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f`, turning a panic into its message and place (the default hook is kept for panics
/// outside [`guarded`], so that a failing assertion still prints).
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(Cell::get) {
                return default(info);
            }
            let payload = info.payload();
            let message = (payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_string());
            let place = info
                .location()
                .map_or(String::new(), |l| format!("{}:{}", l.file(), l.line()));
            CAUGHT.with(|c| *c.borrow_mut() = Some(format!("panicked at {place}: {message}")));
        }));
    });
    CATCHING.with(|c| c.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(false));
    result.map_err(|_| CAUGHT.with(|c| c.borrow_mut().take()).unwrap_or_default())
}

// ---------------------------------------------------------------------------------------------
// Counting findings

/// What was wrong with one case.
pub(super) enum Finding {
    Panic(String),
    /// A wrong exit code, or an error or report not of the documented form.
    Wrong(String),
}

/// The counts of one game's tier, and the first findings of each kind.
#[derive(Default)]
pub(super) struct Tally {
    tried: u64,
    valid: u64,
    invalid: u64,
    panics: u64,
    wrong: u64,
    /// (case, what, input) of the first distinct findings.
    examples: Vec<(u64, String, String)>,
}

impl Tally {
    pub(super) fn record(&mut self, case: u64, input: &str, outcome: Result<bool, Finding>) {
        self.tried += 1;
        let what = match outcome {
            Ok(true) => return self.valid += 1,
            Ok(false) => return self.invalid += 1,
            Err(Finding::Panic(what)) => {
                self.panics += 1;
                what
            }
            Err(Finding::Wrong(what)) => {
                self.wrong += 1;
                what
            }
        };
        // One example per kind of message (its digits aside).
        let shape =
            |s: &str| -> String { s.chars().filter(|c| !c.is_ascii_digit()).take(60).collect() };
        let seen = self
            .examples
            .iter()
            .any(|(_, w, _)| shape(w) == shape(&what));
        if !seen && self.examples.len() < EXAMPLES {
            self.examples.push((case, what, input.to_string()));
        }
    }

    /// Prints the counts (and the findings) and fails on any finding.
    pub(super) fn report(&self, name: &str, seconds: f64) {
        eprintln!(
            "fuzz {name}: {} inputs tried ({} valid, {} invalid), {} panics, {} wrong exit codes/forms, {seconds:.1} s",
            self.tried, self.valid, self.invalid, self.panics, self.wrong
        );
        for (case, what, input) in &self.examples {
            let shown: String = input.chars().take(400).collect();
            eprintln!(
                "  case {case}: {what}\n    input ({} bytes): {shown:?}",
                input.len()
            );
        }
        assert!(
            self.panics == 0 && self.wrong == 0,
            "fuzz {name}: {} panics, {} wrong exit codes/forms (above)",
            self.panics,
            self.wrong
        );
    }
}

/// Fails the form check with `what`.
pub(super) fn wrong<T>(what: impl Into<String>) -> Result<T, Finding> {
    Err(Finding::Wrong(what.into()))
}

/// Whether `c` shows nothing where it stands (what messages must write as a code point).
fn shows_nothing(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c, '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

/// A message fit for one line of a terminal: no line break, no character that shows nothing.
pub(super) fn one_visible_line(message: &str) -> Result<(), Finding> {
    match message.chars().find(|&c| shows_nothing(c)) {
        Some(c) => wrong(format!(
            "the message holds U+{:04X} as it is (it shows nothing or breaks the line): {message:?}",
            c as u32
        )),
        None if message.is_empty() => wrong("an empty message"),
        None => Ok(()),
    }
}

/// Runs a library case under [`guarded`], a panic becoming a finding.
pub(super) fn library_case(f: impl FnOnce() -> Result<bool, Finding>) -> Result<bool, Finding> {
    guarded(f).unwrap_or_else(|p| Err(Finding::Panic(p)))
}

/// How many cases the long runs try per game.
pub(super) fn long_cases() -> u64 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(1_000_000)
}

/// A line on stderr every 100,000 cases of a long run.
pub(super) fn progress(game: &str, done: u64, cases: u64) {
    if done > 0 && done.is_multiple_of(100_000) {
        eprintln!("fuzz {game}: {done} of {cases} cases");
    }
}
