//! A deterministic mutation fuzzer over every game's record and sequence readers, held to the
//! contract the binaries document: no input makes a reader or a replay panic, every error
//! renders in its game's documented form (one line, naming where it is), and `check` and
//! `solve` exit 0, 1 or 2 on whatever they are given (3 is a bug of ours, 101 a panic).
//!
//! The inputs start from valid ones (records `solve` writes, the NES fixtures) and are mutated:
//! characters flipped, ranges inserted, deleted, duplicated and spliced from other inputs,
//! tokens and numbers replaced (huge, zero, signed), invisible characters (U+200B, U+FEFF,
//! NBSP, U+2028) and CR/LF mixes inserted, truncation, empty files and header lines changed.
//! Case `i` of a game is drawn from its own seed, so a finding is reproduced by its number.
//!
//! The olympiad's two engines (the plain one `check` replays with, the bitboard one the search
//! plays) are also played side by side on games of random placements, any difference a finding.
//!
//! `cargo test --release --test it fuzz::` runs a few thousand library cases per game and a few
//! dozen runs of the binaries, printing the counts. `bench/fuzz.sh` (the ignored `long_*`
//! tests with `FUZZ_CASES`) runs as many library cases per game as asked.

use crate::common::{manifest_dir, run, Run, Scratch};
use std::cell::{Cell, RefCell};
use std::ffi::OsStr;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Once, OnceLock};
use std::time::Instant;
use tetris_opt::games::browser;
use tetris_opt::games::nes;
use tetris_opt::games::olympiad;
use tetris_opt::games::tencent::bitboard::{Board, ROWS};
use tetris_opt::games::tencent::record::Record;
use tetris_opt::games::tencent::replay::{replay_observed, End, ReplayError};
use tetris_opt::games::tencent::rules::{Kind, LockMode, Rules};
use tetris_opt::games::tencent::stats::Stats;
use tetris_opt::sequence::{parse_sequence, SequenceError};
use tetris_opt::text::quote_at_most;
use tetris_opt::viewer::Film;

const CHECK: &str = env!("CARGO_BIN_EXE_check");
const GEN: &str = env!("CARGO_BIN_EXE_gen");
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");

/// Library cases per game in the default run.
const LIBRARY_CASES: u64 = 10_000;
/// Runs of `check` per game in the default run (each one a process).
const CHECK_RUNS: u64 = 120;
/// Runs of `solve` per game in the default run.
const SOLVE_RUNS: u64 = 25;
/// Games of random placements on the olympiad's two engines in the default run (each up to
/// 300 placements, so a game weighs as much as a few dozen record cases).
const ENGINE_GAMES: u64 = 5_000;
/// Findings kept per game to print (the counts are complete).
const EXAMPLES: usize = 6;

// ---------------------------------------------------------------------------------------------
// Randomness and mutation

/// SplitMix64: tiny and the same everywhere, so a case number names the same input.
struct Rng(u64);

impl Rng {
    /// The generator of case `case` of the stream `stream` (one per game and tier).
    fn for_case(stream: u64, case: u64) -> Rng {
        let mut r = Rng(stream.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ case);
        r.next();
        r
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform enough in `0..n` (n far below 2^64).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
}

/// Characters and strings that readers meet in files people edit: invisible ones, line
/// breaks of every system, separators, digits of other scripts, look-alikes, controls.
const ODD: &[&str] = &[
    "\u{200B}",
    "\u{FEFF}",
    "\u{A0}",
    "\u{2028}",
    "\u{2029}",
    "\u{85}",
    "\u{B}",
    "\u{C}",
    "\r",
    "\r\n",
    "\n",
    "\n\r",
    "\t",
    " ",
    ",",
    ",,",
    "#",
    "*",
    "**",
    "\0",
    "\u{1B}",
    "\u{7F}",
    "\u{301}",
    "\u{41E}",
    "\u{FF10}",
    "\u{663}",
    "\u{1F600}",
    "\u{FFFD}",
    "\u{202E}",
    "\u{3000}",
    "é",
    "-",
    "+",
    ".",
    "..",
    "'",
    "\"",
    "\\",
    ":",
    "=",
];

/// Numbers at the edges of the types a reader might parse into.
const NUMBERS: &[&str] = &[
    "0",
    "00",
    "01",
    "1",
    "2",
    "9",
    "19",
    "20",
    "99",
    "100",
    "101",
    "255",
    "256",
    "999",
    "1000",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9999999",
    "10000000",
    "10000001",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "-1",
    "+1",
    "-0",
    "1e9",
    "0x10",
    "1.5",
    "\u{663}",
    "\u{FF11}",
];

/// A random character: mostly printable ASCII, some odd ones, some from anywhere.
fn random_char(rng: &mut Rng) -> String {
    match rng.below(8) {
        0..=3 => char::from(b' ' + rng.below(95) as u8).to_string(),
        4 | 5 => rng.pick(ODD).to_string(),
        6 => char::from(rng.below(0x100) as u8).to_string(),
        _ => loop {
            let limit = if rng.one_in(4) { 0x11_0000 } else { 0x1_0000 };
            if let Some(c) = char::from_u32(rng.below(limit) as u32) {
                break c.to_string();
            }
        },
    }
}

/// A byte offset of `s` on a character boundary (`s.len()` included).
fn boundary(rng: &mut Rng, s: &str) -> usize {
    let mut i = rng.below(s.len() + 1);
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A range of `s` on character boundaries, at most `max` bytes long (give or take a character).
fn range(rng: &mut Rng, s: &str, max: usize) -> (usize, usize) {
    let a = boundary(rng, s);
    let mut b = (a + 1 + rng.below(max)).min(s.len());
    while !s.is_char_boundary(b) {
        b += 1;
    }
    (a, b)
}

/// Where the words of `s` are: maximal runs of characters other than whitespace and commas.
fn word_spans(s: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        let separator = c.is_whitespace() || c == ',';
        match (start, separator) {
            (None, false) => start = Some(i),
            (Some(a), true) => {
                spans.push((a, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(a) = start {
        spans.push((a, s.len()));
    }
    spans
}

/// Where the runs of ASCII digits of `s` are.
fn digit_spans(s: &str) -> Vec<(usize, usize)> {
    let bytes = s.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let a = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((a, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// The longest input a case is left with (a few tokens repeated can grow far).
const MAX_INPUT: usize = 1 << 16;

/// What one game's inputs look like, for the mutator.
struct Grammar {
    /// Tokens and lines of the game's format, valid and almost valid.
    tokens: &'static [&'static str],
}

/// Applies one to four random mutations to `text`, drawing material from `corpus`.
fn mutate(rng: &mut Rng, text: &str, corpus: &[String], grammar: &Grammar) -> String {
    let mut s = text.to_string();
    for _ in 0..1 + rng.below(4) {
        mutate_once(rng, &mut s, corpus, grammar);
        if s.len() > MAX_INPUT {
            let mut cut = MAX_INPUT;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
        }
    }
    s
}

fn mutate_once(rng: &mut Rng, s: &mut String, corpus: &[String], grammar: &Grammar) {
    let other = &corpus[rng.below(corpus.len())];
    match rng.below(17) {
        // A character replaced.
        0 => {
            let (a, b) = range(rng, s, 1);
            s.replace_range(a..b, &random_char(rng));
        }
        // An odd character or string inserted.
        1 => {
            let at = boundary(rng, s);
            s.insert_str(at, rng.pick(ODD));
        }
        // A token of the format inserted, with or without separators.
        2 => {
            let at = boundary(rng, s);
            let token = rng.pick(grammar.tokens);
            let piece = match rng.below(4) {
                0 => token.to_string(),
                1 => format!(" {token} "),
                2 => format!(",{token}"),
                _ => format!("\n{token}\n"),
            };
            s.insert_str(at, &piece);
        }
        // A range deleted.
        3 => {
            let max = if rng.one_in(8) { s.len() } else { 16 };
            let (a, b) = range(rng, s, max);
            s.replace_range(a..b, "");
        }
        // A range duplicated.
        4 => {
            let (a, b) = range(rng, s, 200);
            let copy = s[a..b].to_string();
            s.insert_str(b, &copy);
        }
        // A range of another input spliced in.
        5 => {
            let (a, b) = range(rng, other, 400);
            let at = boundary(rng, s);
            s.insert_str(at, &other[a..b]);
        }
        // The head of this input on the tail of another.
        6 => {
            let at = boundary(rng, s);
            let from = boundary(rng, other);
            *s = format!("{}{}", &s[..at], &other[from..]);
        }
        // Truncated.
        7 => {
            let at = boundary(rng, s);
            s.truncate(at);
        }
        // Emptied, or a whole line dropped.
        8 => {
            if rng.one_in(3) {
                *s = rng
                    .pick(&[
                        "", " ", "\n", "\u{FEFF}", ",", "#", "\r\n", "\u{200B}", "\0",
                    ])
                    .to_string();
            } else {
                let mut lines: Vec<&str> = s.split('\n').collect();
                if !lines.is_empty() {
                    lines.remove(rng.below(lines.len()));
                }
                *s = lines.join("\n");
            }
        }
        // Line breaks rewritten: all alike, or mixed line by line.
        9 => {
            let breaks = ["\n", "\r\n", "\r", "\u{2028}", "\n\n", "\u{85}", "\n\r"];
            let mixed = rng.one_in(2);
            let first = rng.pick(&breaks);
            let mut out = String::with_capacity(s.len() + s.len() / 8);
            for (i, line) in s.split('\n').enumerate() {
                if i > 0 {
                    out.push_str(if mixed { rng.pick(&breaks) } else { first });
                }
                out.push_str(line);
            }
            *s = out;
        }
        // A word replaced: by a token, a number, itself with something odd, or in other case.
        10 => {
            let spans = word_spans(s);
            if spans.is_empty() {
                return;
            }
            let (a, b) = spans[rng.below(spans.len())];
            let word = s[a..b].to_string();
            let new = match rng.below(5) {
                0 => rng.pick(grammar.tokens).to_string(),
                1 => format!("{}{}", &word[..word.chars().next().unwrap().len_utf8()], {
                    rng.pick(NUMBERS)
                }),
                2 => format!("{word}{}", rng.pick(ODD)),
                3 => format!("{}{word}", rng.pick(ODD)),
                _ => {
                    if rng.one_in(2) {
                        word.to_lowercase()
                    } else {
                        word.to_uppercase()
                    }
                }
            };
            s.replace_range(a..b, &new);
        }
        // A number replaced by one at the edge of a type.
        11 => {
            let spans = digit_spans(s);
            if spans.is_empty() {
                return;
            }
            let (a, b) = spans[rng.below(spans.len())];
            s.replace_range(a..b, rng.pick(NUMBERS));
        }
        // A header line (one of the first five) changed.
        12 => {
            let mut lines: Vec<String> = s.split('\n').map(str::to_string).collect();
            let i = rng.below(lines.len().min(5));
            match rng.below(7) {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    let copy = lines[i].clone();
                    lines.insert(i, copy);
                }
                2 if i + 1 < lines.len() => lines.swap(i, i + 1),
                3 => lines[i] = lines[i].to_uppercase(),
                4 => lines.insert(i, rng.pick(grammar.tokens).to_string()),
                5 => lines[i].insert_str(0, rng.pick(&["\u{FEFF}", " ", "\t", "\u{A0}", "#"])),
                _ => {
                    lines[i].push_str(rng.pick(&[" extra", " # note", "\r", " ", "\u{200B}", "#"]))
                }
            }
            *s = lines.join("\n");
        }
        // Two lines swapped.
        13 => {
            let mut lines: Vec<&str> = s.split('\n').collect();
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(i, j);
            *s = lines.join("\n");
        }
        // A bit of a byte flipped (read back as UTF-8 with U+FFFD where it breaks).
        14 => {
            if s.is_empty() {
                return;
            }
            let mut bytes = std::mem::take(s).into_bytes();
            let i = rng.below(bytes.len());
            bytes[i] ^= 1 << rng.below(8);
            *s = String::from_utf8_lossy(&bytes).into_owned();
        }
        // A token repeated many times: long pieces, long lines, long records.
        15 => {
            let token = rng.pick(grammar.tokens);
            let separator = rng.pick(&[",", " ", "\n", ""]);
            let most = if rng.one_in(4) { 5_000 } else { 120 };
            let times = 1 + rng.below(most);
            let at = boundary(rng, s);
            let run = format!("{token}{separator}").repeat(times);
            s.insert_str(at, &run);
        }
        // A byte-order mark at the start, or the text doubled.
        _ => {
            if rng.one_in(2) {
                s.insert(0, '\u{FEFF}');
            } else {
                let copy = s.clone();
                s.push_str(&copy);
            }
        }
    }
}

/// The bytes of a mutated input for a file: now and then not UTF-8 at all.
fn file_bytes(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    if rng.one_in(6) {
        let at = rng.below(bytes.len() + 1);
        let bad: &[u8] = [
            &[0xFF][..],
            &[0xC3],
            &[0xE2, 0x80],
            &[0xED, 0xA0, 0x80],
            &[0xFE, 0xFF],
        ][rng.below(5)];
        bytes.splice(at..at, bad.iter().copied());
    }
    bytes
}

// ---------------------------------------------------------------------------------------------
// Panics caught quietly

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
enum Finding {
    Panic(String),
    /// A wrong exit code, or an error or report not of the documented form.
    Wrong(String),
}

/// The counts of one game's tier, and the first findings of each kind.
#[derive(Default)]
struct Tally {
    tried: u64,
    valid: u64,
    invalid: u64,
    panics: u64,
    wrong: u64,
    /// (case, what, input) of the first distinct findings.
    examples: Vec<(u64, String, String)>,
}

impl Tally {
    fn record(&mut self, case: u64, input: &str, outcome: Result<bool, Finding>) {
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
    fn report(&self, name: &str, seconds: f64) {
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
fn wrong<T>(what: impl Into<String>) -> Result<T, Finding> {
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
fn one_visible_line(message: &str) -> Result<(), Finding> {
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
fn library_case(f: impl FnOnce() -> Result<bool, Finding>) -> Result<bool, Finding> {
    guarded(f).unwrap_or_else(|p| Err(Finding::Panic(p)))
}

/// How many cases the long runs try per game.
fn long_cases() -> u64 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(1_000_000)
}

// ---------------------------------------------------------------------------------------------
// The starting inputs, made once by the binaries

/// A valid pair to start from: a sequence file's text and a record's.
struct Start {
    sequence: String,
    record: String,
}

/// The text a binary printed on stdout, which must have exited 0.
fn output_of(exe: &str, args: &[&dyn AsRef<OsStr>]) -> String {
    let r = run(exe, args);
    assert_eq!(r.code, Some(0), "{exe} {r:#?}");
    r.stdout
}

/// A sequence `gen` draws for `game` and the record `solve` writes for its first 30 pieces.
fn solved_start(scratch: &Scratch, game: &str, seed: u64, extra: &[&str]) -> Start {
    let seed = seed.to_string();
    let sequence = output_of(
        GEN,
        &[
            &"--game",
            &game,
            &"--seed",
            &seed.as_str(),
            &"--count",
            &"60",
        ],
    );
    let path = scratch.file(&format!("{game}-{seed}.txt"), &sequence);
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &game, &path];
    let options = [
        "--pieces",
        "30",
        "--beam-width",
        "50",
        "--quiet",
        "--threads",
        "1",
    ];
    args.extend(options.iter().map(|o| o as &dyn AsRef<OsStr>));
    args.extend(extra.iter().map(|o| o as &dyn AsRef<OsStr>));
    let record = output_of(SOLVE, &args);
    Start { sequence, record }
}

/// The contest sequence and the first pieces of the public record for it.
fn public_start(pieces: usize) -> Start {
    let sequence = std::fs::read_to_string(crate::common::tencent_input()).unwrap();
    let record = crate::common::public_record();
    let cut = (record.match_indices('N').nth(pieces)).map_or(record.len(), |(i, _)| i);
    Start {
        sequence,
        record: record[..cut].trim_end_matches(',').to_string(),
    }
}

fn tencent_starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let scratch = Scratch::new("fuzz-starts-tencent");
        vec![
            solved_start(&scratch, "tencent", 7, &[]),
            solved_start(&scratch, "tencent", 11, &["--judge"]),
            public_start(80),
        ]
    })
}

fn browser_starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let scratch = Scratch::new("fuzz-starts-browser");
        vec![
            solved_start(&scratch, "browser", 5, &[]),
            solved_start(&scratch, "browser", 9, &[]),
        ]
    })
}

/// Two records `solve --game olympiad` writes, and one that ends the game: the second sequence
/// with every piece dropped at column 0 in orientation 0 until one comes to rest above the
/// field (the game over and what may not follow it are met without waiting for mutations).
fn olympiad_starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let scratch = Scratch::new("fuzz-starts-olympiad");
        let solved = [
            solved_start(&scratch, "olympiad", 4, &[]),
            solved_start(&scratch, "olympiad", 8, &[]),
        ];
        let sequence = parse_sequence(&solved[1].sequence).unwrap();
        let mut replay = olympiad::replay::Replay::new(&sequence);
        let mut record = olympiad::record::Record::default();
        let corner = olympiad::record::Placement::default();
        for line in 2.. {
            record.push(corner);
            let outcome = replay.play(corner, line).unwrap();
            if outcome == olympiad::rules::Outcome::GameOver {
                break;
            }
        }
        let died = Start {
            sequence: solved[1].sequence.clone(),
            record: record.to_string(),
        };
        let [a, b] = solved;
        vec![a, b, died]
    })
}

/// The committed NES fixtures (each a valid record).
fn nes_starts() -> &'static [String] {
    static STARTS: OnceLock<Vec<String>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let dir = manifest_dir().join("tests/fixtures/nes");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension() == Some(OsStr::new("txt")))
            .collect();
        paths.sort();
        assert!(!paths.is_empty(), "no NES fixtures in {}", dir.display());
        paths
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    })
}

// ---------------------------------------------------------------------------------------------
// The contest's game (tencent)

const TENCENT: Grammar = Grammar {
    tokens: &[
        "N",
        "N",
        "D1",
        "D19",
        "D18",
        "L1",
        "L4",
        "R1",
        "R5",
        "C1",
        "C3",
        "D100",
        "D101",
        "L0",
        "N1",
        "N2",
        "X3",
        "d1",
        "D",
        "C",
        "DD1",
        "D1D1",
        "N,N",
        "D01",
        "D4294967296",
        "D-1",
    ],
};

const SEQUENCE: Grammar = Grammar {
    tokens: &[
        "I",
        "L",
        "J",
        "T",
        "O",
        "S",
        "Z",
        "i",
        "z",
        "X",
        "0",
        "# comment",
        "#",
        "IJLOSTZ",
    ],
};

/// The words of a record as its format splits them (commas and/or whitespace; a byte-order
/// mark at the start is not part of the text).
fn tencent_words(text: &str) -> Vec<&str> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Holds an invalid record's error to its documented form (`check --help`): `piece N (token T
/// 'X'): message`, N the piece token T belongs to and X that token as the record writes it (or
/// as the replay names it), or `piece 1: the record is empty` for a record of no token.
fn check_tencent_error(e: &ReplayError, words: &[&str]) -> Result<(), Finding> {
    let message = e.to_string();
    one_visible_line(&message)?;
    let Some((number, quote)) = &e.token else {
        if message == "piece 1: the record is empty" && words.is_empty() {
            return Ok(());
        }
        return wrong(format!("no token named: {message:?}"));
    };
    let expected = format!("piece {} (token {number} '{quote}'): ", e.piece);
    if !message.starts_with(&expected) || e.message.is_empty() {
        return wrong(format!(
            "not of the form `piece N (token T 'X'): ...`: {message:?}"
        ));
    }
    let Some(word) = number.checked_sub(1).and_then(|i| words.get(i)) else {
        return wrong(format!(
            "token {number} named, the record has {} tokens: {message:?}",
            words.len()
        ));
    };
    let piece = words[..*number]
        .iter()
        .filter(|w| w.starts_with('N'))
        .count()
        .max(1);
    if e.piece != piece {
        return wrong(format!(
            "token {number} belongs to piece {piece}, the error names piece {}: {message:?}",
            e.piece
        ));
    }
    // The quote is the token as written, or (for a replay error) the same token as printed.
    let same_token =
        || matches!((Record::parse(word), Record::parse(quote)), (Ok(a), Ok(b)) if a == b);
    if *quote != quote_at_most(word, 40) && !same_token() {
        return wrong(format!(
            "token {number} is {word:?}, the error quotes {quote:?}"
        ));
    }
    Ok(())
}

/// Holds a sequence file's error to its form: `line L, column C: ...` naming the character
/// there, or that it holds no pieces.
fn check_sequence_error(e: &SequenceError, text: &str) -> Result<(), Finding> {
    let message = e.to_string();
    one_visible_line(&message)?;
    match e {
        SequenceError::Empty => Ok(()),
        SequenceError::BadCharacter {
            line,
            column,
            found,
        } => {
            let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
            let there = (line.checked_sub(1).and_then(|l| text.lines().nth(l)))
                .and_then(|l| column.checked_sub(1).and_then(|c| l.chars().nth(c)));
            if there != Some(*found) {
                return wrong(format!(
                    "line {line}, column {column} holds {there:?}, the error names {found:?}"
                ));
            }
            Ok(())
        }
    }
}

/// The rules a record is replayed by: strict, judge, and strict with a short piece limit.
const TENCENT_RULES: [Rules; 3] = [
    Rules {
        piece_limit: 10_000,
        lock: LockMode::Strict,
    },
    Rules {
        piece_limit: 10_000,
        lock: LockMode::Judge,
    },
    Rules {
        piece_limit: 12,
        lock: LockMode::Strict,
    },
];

/// Reads and replays one record as `check` does; true when some rules find it valid.
///
/// With `views`, also what `check --trace --stats --html` make of each step: the board's
/// picture, the breakdown and the viewer's page.
fn tencent_case(sequence: &[Kind], text: &str, views: bool) -> Result<bool, Finding> {
    let words = tencent_words(text);
    let record = match Record::parse(text) {
        Ok(record) => record,
        Err(e) => {
            check_tencent_error(&ReplayError::from(e.clone()), &words)?;
            if e.to_string() != ReplayError::from(e).to_string() {
                return wrong("a parse error reads differently as a replay error");
            }
            return Ok(false);
        }
    };
    let printed = record.to_string();
    if Record::parse(&printed).as_ref() != Ok(&record) {
        return wrong(format!(
            "the record does not read back from its own text {printed:?}"
        ));
    }
    let mut valid = false;
    for rules in TENCENT_RULES {
        let mut observed = 0;
        let mut film = Film::new();
        let mut stats = Stats::default();
        let report = replay_observed(sequence, &record, rules, &mut |step| {
            observed += 1;
            if views {
                let _ = step.written.picture(Some(&step.piece));
                film.observe(step);
                stats.observe(step);
            }
        });
        if observed != report.pieces_locked {
            return wrong("the observer saw a different number of pieces than the report");
        }
        if views {
            let _ = film.page(sequence, Some(&record), rules, &report, "record.txt");
            let _ = stats.to_string();
        }
        match &report.error {
            Some(e) => {
                check_tencent_error(e, &words)?;
                if report.end != End::Invalid || report.final_score() != 0 {
                    return wrong(format!(
                        "an invalid record ends {} scoring {}",
                        report.end,
                        report.final_score()
                    ));
                }
            }
            None => {
                valid = true;
                if report.end == End::Invalid || report.pieces_locked > record.piece_count() {
                    return wrong(format!("a valid record ends {}", report.end));
                }
            }
        }
        let json = report.to_json();
        if json.valid != report.valid() || json.score != report.final_score() {
            return wrong("the JSON report disagrees with the report");
        }
    }
    Ok(valid)
}

/// A sequence file read as `check` reads it, and a record replayed on it.
fn tencent_sequence_case(text: &str, record: &str) -> Result<bool, Finding> {
    match parse_sequence(text) {
        Ok(sequence) => tencent_case(&sequence, record, false),
        Err(e) => check_sequence_error(&e, text).map(|()| false),
    }
}

/// Runs `cases` library cases of the contest's game from case `first`.
fn fuzz_tencent(first: u64, cases: u64) -> Tally {
    let starts = tencent_starts();
    let sequences: Vec<Vec<Kind>> = starts
        .iter()
        .map(|s| parse_sequence(&s.sequence).unwrap())
        .collect();
    let records: Vec<String> = starts.iter().map(|s| s.record.clone()).collect();
    let sequence_texts: Vec<String> = starts.iter().map(|s| s.sequence.clone()).collect();
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(1, case);
        let i = rng.below(starts.len());
        if rng.one_in(6) {
            let text = mutate(&mut rng, &sequence_texts[i], &sequence_texts, &SEQUENCE);
            let outcome = library_case(|| tencent_sequence_case(&text, &records[i]));
            tally.record(case, &format!("sequence file {text:?}"), outcome);
        } else {
            let text = mutate(&mut rng, &records[i], &records, &TENCENT);
            let views = rng.one_in(8);
            let outcome = library_case(|| tencent_case(&sequences[i], &text, views));
            tally.record(case, &text, outcome);
        }
        progress("tencent", case - first, cases);
    }
    tally
}

// ---------------------------------------------------------------------------------------------
// NES Tetris

const NES: Grammar = Grammar {
    tokens: &[
        "game nes",
        "game tencent",
        "start-level 19",
        "start-level 0",
        "start-level 20",
        "title-wait 0",
        "title-wait 9",
        "title-wait 255",
        "title-wait 256",
        "inputs",
        "inputs 3",
        ".",
        ".*5",
        "R",
        "L",
        "D*4",
        "AB",
        "BD*18",
        "s",
        "U",
        "S",
        "RR",
        "*3",
        "D*",
        ".*0",
        ".*9999999",
        "L*10000001",
        "# comment",
        "game",
        "start-level",
    ],
};

/// The text a quote of [`tetris_opt::text::quote`] shows: its code points (`<U+200B>`) as the
/// characters, without the `...` of a quote cut short.
fn unquote(quote: &str) -> String {
    let shown = quote.strip_suffix(tetris_opt::text::CUT).unwrap_or(quote);
    let mut out = String::new();
    let mut rest = shown;
    while let Some(at) = rest.find("<U+") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let code = after.find('>').and_then(|end| {
            let c = u32::from_str_radix(&after[..end], 16)
                .ok()
                .and_then(char::from_u32)?;
            Some((c, end))
        });
        match code {
            Some((c, end)) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push_str("<U+");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Holds an NES record's error to its form (`FILE: line N (token 'T'): message` at the
/// binary): a line of the text, the token on that line, one visible line.
fn check_nes_error(e: &nes::record::RecordError, text: &str) -> Result<(), Finding> {
    let message = e.to_string();
    one_visible_line(&message)?;
    let lines = text.lines().count().max(1);
    if e.line == 0 || e.line > lines {
        return wrong(format!(
            "line {} named, the text has {lines}: {message:?}",
            e.line
        ));
    }
    if let Some(token) = &e.token {
        let line = text.lines().nth(e.line - 1).unwrap_or("");
        if token.is_empty() || !line.contains(unquote(token).as_str()) {
            return wrong(format!(
                "token {token:?} is not on line {}: {message:?}",
                e.line
            ));
        }
    }
    if e.message.is_empty() {
        return wrong("an error without a message");
    }
    one_visible_line(&message)?;
    Ok(())
}

/// Reads and replays one NES record as `check --game nes` does; true when it is valid. With
/// `views`, also the FM2 movie `--fm2` writes.
fn nes_case(text: &str, views: bool) -> Result<bool, Finding> {
    let record = match nes::record::NesRecord::parse(text) {
        Ok(record) => record,
        Err(e) => return check_nes_error(&e, text).map(|()| false),
    };
    let printed = record.to_text(&[]);
    if nes::record::NesRecord::parse(&printed).as_ref() != Ok(&record) {
        return wrong("the record does not read back from its own text");
    }
    if views {
        let _ = nes::fm2::movie(&record);
    }
    let mut locks = 0u64;
    let report = nes::replay::replay_observed(&record, |game, events| {
        if events.locked {
            locks += 1;
            let _ = nes::replay::describe_lock(game, 0);
        }
    });
    if report.frames + report.unplayed_frames != record.frames.len() as u64 {
        return wrong(format!(
            "{} frames played and {} unplayed of {}",
            report.frames,
            report.unplayed_frames,
            record.frames.len()
        ));
    }
    if report.rom_score > report.score || report.rom_score > 999_999 {
        return wrong(format!(
            "ROM score {} of {}",
            report.rom_score, report.score
        ));
    }
    Ok(true)
}

fn fuzz_nes(first: u64, cases: u64) -> Tally {
    let starts = nes_starts();
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(2, case);
        let i = rng.below(starts.len());
        let text = mutate(&mut rng, &starts[i], starts, &NES);
        let views = rng.one_in(8);
        let outcome = library_case(|| nes_case(&text, views));
        tally.record(case, &text, outcome);
        progress("nes", case - first, cases);
    }
    tally
}

// ---------------------------------------------------------------------------------------------
// The browser game

const BROWSER: Grammar = Grammar {
    tokens: &[
        "game browser",
        "game  browser",
        "Game browser",
        "game browser x",
        "L",
        "R",
        "D",
        "U",
        "D18",
        "D19",
        "R999",
        "D1000",
        "L0",
        "D01",
        "X",
        "U4",
        "",
        "# comment",
        "D65536",
        "L\u{200B}",
    ],
};

/// Holds a browser record's error to its form (`FILE:LINE: message` at the binary): a line of
/// the text, the piece and its kind named where the sequence has it, a token as written.
fn check_browser_error(
    e: &browser::record::RecordError,
    sequence: &[Kind],
    text: &str,
) -> Result<(), Finding> {
    let message = e.to_string();
    one_visible_line(&message)?;
    let lines = text.lines().count().max(1);
    if e.line == 0 || e.line > lines {
        return wrong(format!(
            "line {} named, the text has {lines}: {message:?}",
            e.line
        ));
    }
    if e.located("f") != format!("f:{}: {}", e.line, e.message()) {
        return wrong(format!(
            "not of the form `FILE:LINE: ...`: {:?}",
            e.located("f")
        ));
    }
    if let Some(n) = e.piece {
        let who = match sequence.get(n.wrapping_sub(1)) {
            Some(kind) => format!("piece {n} ({kind})"),
            None => format!("piece {n}"),
        };
        if !e.message().starts_with(&who) {
            return wrong(format!(
                "the message does not start with {who:?}: {message:?}"
            ));
        }
    }
    if let browser::record::Problem::Token { number, token, .. } = &e.problem {
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        // The reader drops what ends a line (spaces, `\r`) before it splits it.
        let line = text.lines().nth(e.line - 1).unwrap_or("").trim_end();
        let word = number
            .checked_sub(1)
            .and_then(|k| line.split_ascii_whitespace().nth(k));
        if word.map(|w| quote_at_most(w, 40)).as_ref() != Some(token) {
            return wrong(format!(
                "token {number} of line {} is {word:?}, the error quotes {token:?}",
                e.line
            ));
        }
    }
    Ok(())
}

/// Reads and replays one browser record as `check --game browser` does.
fn browser_case(sequence: &[Kind], text: &str) -> Result<bool, Finding> {
    let report = match browser::replay::check_text(sequence, text) {
        Ok(report) => report,
        Err(e) => return check_browser_error(&e, sequence, text).map(|()| false),
    };
    let record = browser::record::Record::parse(text)
        .map_err(|e| Finding::Wrong(format!("check_text accepts a record parse refuses: {e}")))?;
    let printed = record.to_string();
    match browser::record::Record::parse(&printed) {
        Ok(again) if again.pieces == record.pieces => {}
        _ => {
            return wrong(format!(
                "the record does not read back from its own text {printed:?}"
            ))
        }
    }
    if report.pieces_placed > record.pieces.len() {
        return wrong(format!(
            "{} pieces placed by {} lines",
            report.pieces_placed,
            record.pieces.len()
        ));
    }
    let json = browser::replay::JsonReport::of(&report);
    if json.score != report.points || !json.valid {
        return wrong("the JSON report disagrees with the report");
    }
    Ok(true)
}

fn browser_sequence_case(text: &str, record: &str) -> Result<bool, Finding> {
    match parse_sequence(text) {
        Ok(sequence) => browser_case(&sequence, record),
        Err(e) => check_sequence_error(&e, text).map(|()| false),
    }
}

fn fuzz_browser(first: u64, cases: u64) -> Tally {
    let starts = browser_starts();
    let sequences: Vec<Vec<Kind>> = starts
        .iter()
        .map(|s| parse_sequence(&s.sequence).unwrap())
        .collect();
    let records: Vec<String> = starts.iter().map(|s| s.record.clone()).collect();
    let sequence_texts: Vec<String> = starts.iter().map(|s| s.sequence.clone()).collect();
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(3, case);
        let i = rng.below(starts.len());
        if rng.one_in(6) {
            let text = mutate(&mut rng, &sequence_texts[i], &sequence_texts, &SEQUENCE);
            let outcome = library_case(|| browser_sequence_case(&text, &records[i]));
            tally.record(case, &format!("sequence file {text:?}"), outcome);
        } else {
            let text = mutate(&mut rng, &records[i], &records, &BROWSER);
            let outcome = library_case(|| browser_case(&sequences[i], &text));
            tally.record(case, &text, outcome);
        }
        progress("browser", case - first, cases);
    }
    tally
}

// ---------------------------------------------------------------------------------------------
// The olympiad's game

const OLYMPIAD: Grammar = Grammar {
    tokens: &[
        "game olympiad",
        "game  olympiad",
        "Game olympiad",
        "game olympiad x",
        "game browser",
        "0 0",
        "0 8",
        "1 9",
        "3 6",
        "2 7",
        "1 0",
        "9 9",
        "4 0",
        "0 10",
        "10 0",
        "00 1",
        "0",
        "1",
        "0 0 0",
        "x",
        "-1 2",
        "+1 2",
        "0\t3",
        "0\u{A0}3",
        "0 \u{200B}",
        "# comment",
        "",
    ],
};

/// The olympiad's kinds as the sequence reader gives them.
type OlympiadKind = olympiad::rules::Kind;

/// Holds an olympiad record's error to its documented form (`line N: piece P (K), token T 'x':
/// message`, `FILE:LINE: ...` at the binary): one visible line, a line of the text, the piece
/// that line is for and its kind where the sequence has it, the token as written.
fn check_olympiad_error(
    e: &olympiad::record::RecordError,
    sequence: &[OlympiadKind],
    text: &str,
) -> Result<(), Finding> {
    use olympiad::record::Problem;
    let message = e.to_string();
    one_visible_line(&message)?;
    if message != format!("line {}: {}", e.line, e.message())
        || e.located("f") != format!("f:{}: {}", e.line, e.message())
    {
        return wrong(format!(
            "not of the form `line N: ...` / `FILE:LINE: ...`: {message:?} / {:?}",
            e.located("f")
        ));
    }
    // The reader's view of the text: a byte-order mark skipped, lines as `str::lines` splits
    // them with what ends them dropped, comments skipped.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    if e.line == 0 || e.line > lines.len().max(1) {
        return wrong(format!(
            "line {} named, the text has {}: {message:?}",
            e.line,
            lines.len()
        ));
    }
    let line = lines.get(e.line - 1).copied().unwrap_or("");
    let read: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim_start().starts_with('#'))
        .collect();
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some(n) = e.piece else {
        return match &e.problem {
            Problem::Empty if read.is_empty() && e.line == 1 => Ok(()),
            Problem::Header { found }
                if read.first() == Some(&(e.line - 1))
                    && line != olympiad::record::HEADER
                    && *found == tetris_opt::text::quote_line(line) =>
            {
                Ok(())
            }
            _ => wrong(format!("no piece named: {message:?}")),
        };
    };
    // Line 1 of what is read is the header; piece n is on the line after n others.
    if read.get(n) != Some(&(e.line - 1)) {
        return wrong(format!(
            "line {} is not the line of piece {n}: {message:?}",
            e.line
        ));
    }
    let kind = sequence.get(n.wrapping_sub(1)).copied();
    let who = match kind {
        Some(kind) => format!("piece {n} ({kind})"),
        None => format!("piece {n}"),
    };
    let rest = e.message();
    let Some(after) = rest.strip_prefix(&who) else {
        return wrong(format!(
            "the message does not start with {who:?}: {message:?}"
        ));
    };
    if !after.starts_with(", token ") && !after.starts_with(": ") {
        return wrong(format!(
            "{who:?} is not followed by a token or `: `: {message:?}"
        ));
    }
    // The token the error names, as the line holds it.
    let named = |number: usize, shown: &str| {
        let word = words.get(number - 1).copied();
        if word.map(tetris_opt::text::quote).as_deref() != Some(shown)
            || !after.starts_with(&format!(", token {number} '{shown}'"))
        {
            return wrong(format!(
                "token {number} of line {} is {word:?}, the error quotes {shown:?}: {message:?}",
                e.line
            ));
        }
        Ok(())
    };
    match &e.problem {
        Problem::Token { number, token, .. } if (1..=2).contains(number) => named(*number, token),
        Problem::Extra { token } => named(3, token),
        Problem::Missing { found } if *found == words.len() && *found < 2 => Ok(()),
        Problem::Orientation {
            orientation,
            orientations,
        } => {
            let real = kind.map(olympiad::rules::orientations);
            if real != Some(*orientations) || usize::from(*orientation) < *orientations {
                return wrong(format!(
                    "orientation {orientation} refused for {kind:?} of {real:?}: {message:?}"
                ));
            }
            named(1, &orientation.to_string())
        }
        Problem::Column { column, last } => {
            let o = words.first().and_then(|w| w.parse::<usize>().ok());
            let width = kind
                .zip(o)
                .and_then(|(k, o)| olympiad::rules::piece_width(k, o));
            if width.map(|w| olympiad::rules::WIDTH - w) != Some(*last)
                || usize::from(*column) <= *last
            {
                return wrong(format!(
                    "column {column} refused with last {last} for {kind:?} in {o:?}: {message:?}"
                ));
            }
            named(2, &column.to_string())
        }
        Problem::PastSequence { pieces } if *pieces == sequence.len() && n == pieces + 1 => Ok(()),
        Problem::AfterGameOver { piece, kind: ended }
            if *piece + 1 == n && sequence.get(piece - 1) == Some(ended) =>
        {
            Ok(())
        }
        problem => wrong(format!("{problem:?} does not fit the line: {message:?}")),
    }
}

/// Holds a valid record's report to itself and to the record: the score is the pieces placed,
/// the end agrees with how many lines the record has, the field keeps the cells placed less
/// the rows removed and holds no full row.
fn check_olympiad_report(
    report: &olympiad::replay::Report,
    sequence: &[OlympiadKind],
    lines: usize,
) -> Result<(), Finding> {
    use olympiad::replay::End;
    let placed = report.pieces_placed;
    let ends_right = match report.end {
        End::GameOver { piece } => piece == lines && placed + 1 == piece,
        End::SequenceEnded => lines == sequence.len() && placed == lines,
        End::RecordEnded => lines < sequence.len() && placed == lines,
    };
    if !ends_right {
        return wrong(format!(
            "{placed} pieces placed by {lines} lines of {} pieces, the end: {}",
            sequence.len(),
            report.end
        ));
    }
    let json = olympiad::replay::JsonReport::of(report);
    if !json.valid
        || json.error.is_some()
        || json.score != placed as u64
        || json.pieces_placed != placed
        || json.game_over != matches!(report.end, End::GameOver { .. })
    {
        return wrong(format!(
            "the JSON report disagrees with the report: {json:?}"
        ));
    }
    if !report.summary().ends_with(&format!("\nScore = {placed}\n")) {
        return wrong(format!("the summary does not end in `Score = {placed}`"));
    }
    let cells = 4 * placed as i64 - 10 * report.lines as i64;
    let field = &report.field;
    if field.filled_cells() as i64 != cells {
        return wrong(format!(
            "{} cells on the field after {placed} pieces and {} rows removed",
            field.filled_cells(),
            report.lines
        ));
    }
    if field.rows.iter().any(|row| row.iter().all(|&c| c)) {
        return wrong(format!("a full row is left:\n{}", field.picture()));
    }
    if report.lines < report.chains + report.chain_placements
        || report.chain_placements > placed as u64
    {
        return wrong(format!(
            "{} rows removed with {} chain clears in {} placements",
            report.lines, report.chains, report.chain_placements
        ));
    }
    Ok(())
}

/// Reads and replays one olympiad record as `check --game olympiad` does; true when it is
/// valid. With `views`, also the viewer's page `--html` writes.
fn olympiad_case(sequence: &[OlympiadKind], text: &str, views: bool) -> Result<bool, Finding> {
    use olympiad::record::Record;
    let checked = olympiad::replay::check_text(sequence, text);
    if views {
        if let Ok(record) = Record::parse(text) {
            let _ = olympiad::film::page(sequence, &record, "record.txt");
        }
    }
    let report = match checked {
        Ok(report) => report,
        Err(e) => return check_olympiad_error(&e, sequence, text).map(|()| false),
    };
    let record = Record::parse(text)
        .map_err(|e| Finding::Wrong(format!("check_text accepts a record parse refuses: {e}")))?;
    let again = olympiad::replay::replay(sequence, &record);
    if again.as_ref() != Ok(&report) {
        return wrong(format!(
            "parse and replay disagree with check_text: {again:?}"
        ));
    }
    let printed = record.to_string();
    match Record::parse(&printed) {
        Ok(read) if read.placements == record.placements => {
            if olympiad::replay::replay(sequence, &read).as_ref() != Ok(&report) {
                return wrong("the record's own text replays differently");
            }
        }
        _ => {
            return wrong(format!(
                "the record does not read back from its own text {printed:?}"
            ))
        }
    }
    check_olympiad_report(&report, sequence, record.placements.len())?;
    Ok(true)
}

fn olympiad_sequence_case(text: &str, record: &str) -> Result<bool, Finding> {
    match parse_sequence(text) {
        Ok(sequence) => olympiad_case(&sequence, record, false),
        Err(e) => check_sequence_error(&e, text).map(|()| false),
    }
}

fn fuzz_olympiad(first: u64, cases: u64) -> Tally {
    let starts = olympiad_starts();
    let sequences: Vec<Vec<OlympiadKind>> = starts
        .iter()
        .map(|s| parse_sequence(&s.sequence).unwrap())
        .collect();
    let records: Vec<String> = starts.iter().map(|s| s.record.clone()).collect();
    let sequence_texts: Vec<String> = starts.iter().map(|s| s.sequence.clone()).collect();
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(4, case);
        let i = rng.below(starts.len());
        if rng.one_in(6) {
            let text = mutate(&mut rng, &sequence_texts[i], &sequence_texts, &SEQUENCE);
            let outcome = library_case(|| olympiad_sequence_case(&text, &records[i]));
            tally.record(case, &format!("sequence file {text:?}"), outcome);
        } else {
            let text = mutate(&mut rng, &records[i], &records, &OLYMPIAD);
            let views = rng.one_in(8);
            let outcome = library_case(|| olympiad_case(&sequences[i], &text, views));
            tally.record(case, &text, outcome);
        }
        progress("olympiad", case - first, cases);
    }
    tally
}

/// The fast engine's board of a plain field.
fn olympiad_board(field: &olympiad::rules::Field) -> Board {
    let mut board = Board::default();
    for (c, col) in board.cols.iter_mut().enumerate() {
        for r in 0..olympiad::rules::HEIGHT {
            *col |= u32::from(field.filled(r, c)) << (ROWS - 1 - r as u32);
        }
    }
    board
}

/// One game of random placements on both engines from case `case`'s generator: where each
/// piece rests, whether it ends the game, the rows and chains it removes and the field after it
/// must be the same, and the plain engine must refuse what does not fit as the record's errors
/// say. True when a body fell in the game (the falls were compared, not only the drops).
///
/// A third of the games start on an empty field; the others on rows with random gaps (no full
/// row), so that removals leave bodies hanging. Most pieces go where [`best_place`] puts them,
/// so that games last and rows fill; the others anywhere, leaving overhangs to fall.
fn olympiad_engines_case(rng: &mut Rng) -> Result<bool, Finding> {
    use olympiad::engine;
    use olympiad::rules::{self, BadPlacement, Field, Outcome, WIDTH};
    let mut field = Field::new();
    if !rng.one_in(3) {
        let density = 5 + rng.below(5);
        for r in 0..rng.below(16) {
            for c in 0..WIDTH {
                field.rows[r][c] = rng.below(10) < density;
            }
            if field.rows[r].iter().all(|&c| c) {
                field.rows[r][rng.below(WIDTH)] = false;
            }
        }
    }
    let mut board = olympiad_board(&field);
    let mut fell = false;
    // Out of 20 placements, how many go anywhere rather than to the best place.
    let noise = rng.below(8);
    for n in 1..=300 {
        let kind = OlympiadKind::ALL[rng.below(7)];
        let shapes = engine::shapes(kind);
        if shapes.len() != rules::orientations(kind) {
            return wrong(format!("{kind}: {} shapes", shapes.len()));
        }
        // Now and then a placement the piece cannot take: refused, the field untouched.
        if rng.one_in(40) {
            let o = rng.below(6);
            let column = rng.below(WIDTH + 3);
            let expected = match rules::piece_width(kind, o) {
                None => Some(BadPlacement::Orientation {
                    orientations: rules::orientations(kind),
                }),
                Some(w) if column + w > WIDTH => Some(BadPlacement::Column { last: WIDTH - w }),
                Some(_) => None,
            };
            if let Some(expected) = expected {
                let before = field.clone();
                let got = field.place(kind, o, column);
                if got != Err(expected) || field != before {
                    return wrong(format!(
                        "piece {n} ({kind}) at orientation {o}, column {column}: {got:?}, expected {expected:?}"
                    ));
                }
                continue;
            }
        }
        let (o, column) = if rng.below(20) < noise {
            let o = rng.below(shapes.len());
            (o, rng.below(WIDTH - shapes[o].width as usize + 1))
        } else {
            best_place(&field, kind, rng)
        };
        let shape = &shapes[o];
        let before = field.picture();
        let plain = field.place(kind, o, column);
        let fast = engine::rest_row(shape, &engine::heights(&board), column);
        let what =
            || format!("piece {n} ({kind}) at orientation {o}, column {column} on\n{before}");
        match (plain, fast) {
            (Ok(Outcome::GameOver), None) => return Ok(fell),
            (Ok(Outcome::Placed(p)), Some(y)) => {
                let s = engine::place(&mut board, shape, column, y);
                if (s.lines, s.chains) != (p.lines, p.chains) {
                    return wrong(format!(
                        "{}: plain removes {} rows in {} chains, fast {} in {}",
                        what(),
                        p.lines,
                        p.chains,
                        s.lines,
                        s.chains
                    ));
                }
                fell |= p.falls > 0;
                if board != olympiad_board(&field) {
                    return wrong(format!(
                        "{}: the fields differ after it; plain\n{}",
                        what(),
                        field.picture()
                    ));
                }
            }
            (plain, fast) => {
                return wrong(format!(
                    "{}: plain {plain:?}, fast rests at {fast:?}",
                    what()
                ))
            }
        }
    }
    Ok(fell)
}

/// Where a piece leaves the fewest empty cells under it, then rests lowest (ties broken at
/// random): a plain player that keeps a game going for hundreds of pieces.
fn best_place(field: &olympiad::rules::Field, kind: OlympiadKind, rng: &mut Rng) -> (usize, usize) {
    use olympiad::rules::{self, HEIGHT, WIDTH};
    let height = |c: usize| {
        (0..HEIGHT)
            .rev()
            .find(|&r| field.filled(r, c))
            .map_or(0, |r| r + 1)
    };
    let heights: Vec<usize> = (0..WIDTH).map(height).collect();
    let mut best = (usize::MAX, 0, 0);
    for o in 0..rules::orientations(kind) {
        let cells = rules::cells(kind, o).expect("listed orientation");
        let width = rules::piece_width(kind, o).expect("listed orientation");
        for column in 0..=WIDTH - width {
            let rest = field.rest_row(&cells, column);
            let mut gaps = 0;
            for dx in 0..width {
                let bottom = cells.iter().filter(|c| c.0 == dx).map(|c| c.1).min();
                gaps += rest + bottom.unwrap_or(0) - heights[column + dx];
            }
            let top = rest + cells.iter().map(|c| c.1).max().unwrap_or(0);
            let key = (gaps * 4 + top) * 8 + rng.below(8);
            if key < best.0 {
                best = (key, o, column);
            }
        }
    }
    (best.1, best.2)
}

fn fuzz_olympiad_engines(first: u64, cases: u64) -> Tally {
    let mut tally = Tally::default();
    for case in first..first + cases {
        let mut rng = Rng::for_case(5, case);
        let outcome = library_case(|| olympiad_engines_case(&mut rng));
        tally.record(case, "a game of random placements", outcome);
        progress("olympiad engines", case - first, cases);
    }
    tally
}

/// A line on stderr every 100,000 cases of a long run.
fn progress(game: &str, done: u64, cases: u64) {
    if done > 0 && done.is_multiple_of(100_000) {
        eprintln!("fuzz {game}: {done} of {cases} cases");
    }
}

// ---------------------------------------------------------------------------------------------
// The binaries

/// Which game a run of a binary plays.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Game {
    Tencent,
    Nes,
    Browser,
    Olympiad,
}

/// Holds a run of `check` to the contract: exit 0 with `Score = N` last, 1 with the error line
/// of the game's form and `Score = 0` (or the JSON report of an invalid record), 2 with an
/// `error:` line on stderr; nothing else, and never a panic. True for a valid record.
///
/// With `verbose` (`--trace`, `--frames`, `--stats`), lines come before the error line, and
/// `--at` may leave a note on stderr.
fn check_contract(
    r: &Run,
    game: Game,
    record: &Path,
    json: bool,
    verbose: bool,
) -> Result<bool, Finding> {
    if r.code == Some(101) || r.stderr.contains("panicked at") {
        return Err(Finding::Panic(format!(
            "exit {:?}: {}",
            r.code,
            r.stderr.trim()
        )));
    }
    match r.code {
        Some(0) if json => {
            let value: serde_json::Value = serde_json::from_str(r.stdout.trim())
                .map_err(|e| Finding::Wrong(format!("exit 0, stdout is not JSON ({e}): {r:?}")))?;
            let valid = if game == Game::Nes {
                value["valid"] == true
            } else {
                value["valid"] == true && value["score"].is_u64()
            };
            if !valid {
                return wrong(format!("exit 0 with a report not valid: {r:?}"));
            }
            if game == Game::Olympiad && value["score"] != value["pieces_placed"] {
                return wrong(format!("the score is not the pieces placed: {r:?}"));
            }
            Ok(true)
        }
        Some(0) => {
            let last = r.stdout.lines().last().unwrap_or("");
            let score = match last.strip_prefix("Score = ").map(str::parse::<u64>) {
                Some(Ok(score)) => score,
                _ => return wrong(format!("exit 0 without `Score = N` last: {r:?}")),
            };
            let placed = format!("pieces placed: {score}\n");
            if game == Game::Olympiad && !r.stdout.starts_with(&placed) {
                return wrong(format!("the score is not the pieces placed: {r:?}"));
            }
            Ok(true)
        }
        Some(1) => {
            if !r.stderr.lines().all(|l| l.starts_with("note: ")) {
                return wrong(format!("exit 1 with something on stderr: {r:?}"));
            }
            let error = if json {
                let value: serde_json::Value =
                    serde_json::from_str(r.stdout.trim()).map_err(|e| {
                        Finding::Wrong(format!("exit 1, stdout is not JSON ({e}): {r:?}"))
                    })?;
                if value["valid"] != false || value["score"] != 0 || r.stdout.lines().count() != 1 {
                    return wrong(format!("exit 1 with a report not invalid: {r:?}"));
                }
                value["error"].as_str().unwrap_or("").to_string()
            } else {
                let lines: Vec<&str> = r.stdout.lines().collect();
                let errors = lines.iter().filter(|l| l.starts_with("error:")).count();
                match lines[..] {
                    [.., error, "Score = 0"]
                        if error.starts_with("error: ")
                            && errors == 1
                            && (verbose || lines.len() == 2) =>
                    {
                        error["error: ".len()..].to_string()
                    }
                    _ => {
                        return wrong(format!(
                            "exit 1 without one error line and `Score = 0`: {r:?}"
                        ))
                    }
                }
            };
            one_visible_line(&error)?;
            let path = record.display().to_string();
            let form = match game {
                Game::Tencent => tencent_error_form(&error),
                Game::Nes => error
                    .strip_prefix(&format!("{path}: line "))
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())),
                Game::Browser => error.strip_prefix(&format!("{path}:")).is_some_and(|rest| {
                    rest.starts_with(|c: char| c.is_ascii_digit()) && rest.contains(": ")
                }),
                Game::Olympiad => error
                    .strip_prefix(&format!("{path}:"))
                    .is_some_and(olympiad_error_form),
            };
            if !form {
                return wrong(format!(
                    "exit 1, the error is not of the game's form: {error:?}"
                ));
            }
            one_visible_line(&error)?;
            Ok(false)
        }
        Some(2) => {
            let stdout_ok = r.stdout.is_empty()
                || r.stdout == "Score = 0\n"
                || (json && r.stdout.contains("\"valid\":false"));
            if !r.stderr.starts_with("error: ") || !stdout_ok {
                return wrong(format!(
                    "exit 2 without an `error:` line on stderr alone: {r:?}"
                ));
            }
            Ok(false)
        }
        code => wrong(format!("exit {code:?}: {r:?}")),
    }
}

/// `piece N (token T 'X'): message`, or the empty record's error.
fn tencent_error_form(error: &str) -> bool {
    if error == "piece 1: the record is empty" {
        return true;
    }
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let Some(rest) = error.strip_prefix("piece ") else {
        return false;
    };
    let n = digits(rest);
    let Some(rest) = rest[n..].strip_prefix(" (token ").filter(|_| n > 0) else {
        return false;
    };
    let t = digits(rest);
    let Some(quoted) = rest[t..].strip_prefix(" '").filter(|_| t > 0) else {
        return false;
    };
    quoted
        .split_once("'): ")
        .is_some_and(|(_, what)| !what.is_empty())
}

/// `LINE: piece P (K), token T 'x': message` (or `LINE: piece P: message`, the kind left out
/// past the sequence's end), or the header's and the empty record's errors.
fn olympiad_error_form(error: &str) -> bool {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = digits(error);
    let Some(what) = error[n..].strip_prefix(": ").filter(|_| n > 0) else {
        return false;
    };
    if what.starts_with("the first line must be `game olympiad`, found '")
        || what.starts_with("the record has no `game olympiad` line")
    {
        return true;
    }
    let Some(rest) = what.strip_prefix("piece ") else {
        return false;
    };
    let p = digits(rest);
    let mut rest = &rest[p..];
    if p == 0 {
        return false;
    }
    if let Some(kind) = rest.strip_prefix(" (") {
        let mut chars = kind.chars();
        match (chars.next(), chars.next()) {
            (Some(letter), Some(')')) if "IJLOSTZ".contains(letter) => rest = &kind[2..],
            _ => return false,
        }
    }
    if let Some(token) = rest.strip_prefix(", token ") {
        let t = digits(token);
        let quoted = token[t..].strip_prefix(" '").filter(|_| t > 0);
        return quoted.is_some_and(|q| q.contains("': ") || q.contains("' ("));
    }
    rest.strip_prefix(": ").is_some_and(|m| !m.is_empty())
}

/// Runs `check` on `runs` mutated records (and sequence files) of `game`.
fn fuzz_check_binary(game: Game, runs: u64) -> Tally {
    let scratch = Scratch::new("fuzz-check");
    let mut tally = Tally::default();
    let (records, sequences, grammar): (Vec<String>, Vec<String>, &Grammar) = match game {
        Game::Tencent => (
            tencent_starts().iter().map(|s| s.record.clone()).collect(),
            tencent_starts()
                .iter()
                .map(|s| s.sequence.clone())
                .collect(),
            &TENCENT,
        ),
        Game::Browser => (
            browser_starts().iter().map(|s| s.record.clone()).collect(),
            browser_starts()
                .iter()
                .map(|s| s.sequence.clone())
                .collect(),
            &BROWSER,
        ),
        Game::Nes => (nes_starts().to_vec(), Vec::new(), &NES),
        Game::Olympiad => (
            olympiad_starts().iter().map(|s| s.record.clone()).collect(),
            olympiad_starts()
                .iter()
                .map(|s| s.sequence.clone())
                .collect(),
            &OLYMPIAD,
        ),
    };
    for case in 0..runs {
        let mut rng = Rng::for_case(10 + game as u64, case);
        let i = rng.below(records.len());
        let mutate_sequence = game != Game::Nes && rng.one_in(5);
        let record_text = if mutate_sequence {
            records[i].clone()
        } else {
            mutate(&mut rng, &records[i], &records, grammar)
        };
        let record_bytes = if mutate_sequence {
            record_text.clone().into_bytes()
        } else {
            file_bytes(&mut rng, &record_text)
        };
        let record = scratch.file(&format!("record-{case}.txt"), &record_bytes);
        let json = rng.one_in(4);
        let mut args: Vec<&dyn AsRef<OsStr>> = Vec::new();
        let game_name = match game {
            Game::Tencent => "tencent",
            Game::Nes => "nes",
            Game::Browser => "browser",
            Game::Olympiad => "olympiad",
        };
        args.extend([&"--game" as &dyn AsRef<OsStr>, &game_name]);
        if json {
            args.push(&"--json");
        }
        let html = scratch.dir.join(format!("page-{case}.html"));
        let fm2 = scratch.dir.join(format!("movie-{case}.fm2"));
        let extras = check_extras(&mut rng, game, json);
        let verbose = (extras.iter()).any(|o| ["--trace", "--frames", "--stats"].contains(o));
        args.extend(extras.iter().map(|o| o as &dyn AsRef<OsStr>));
        if game != Game::Browser && rng.one_in(4) {
            args.extend([&"--html" as &dyn AsRef<OsStr>, &html]);
        }
        if game == Game::Nes && rng.one_in(4) {
            args.extend([&"--fm2" as &dyn AsRef<OsStr>, &fm2]);
        }
        let sequence;
        let mut shown = String::from_utf8_lossy(&record_bytes).into_owned();
        if game != Game::Nes {
            let text = if mutate_sequence {
                mutate(&mut rng, &sequences[i], &sequences, &SEQUENCE)
            } else {
                sequences[i].clone()
            };
            let bytes = if mutate_sequence {
                file_bytes(&mut rng, &text)
            } else {
                text.into_bytes()
            };
            if mutate_sequence {
                shown = format!("sequence file {:?}", String::from_utf8_lossy(&bytes));
            }
            sequence = scratch.file(&format!("sequence-{case}.txt"), &bytes);
            args.push(&sequence);
        }
        args.push(&record);
        let r = run(CHECK, &args);
        let mut outcome = check_contract(&r, game, &record, json, verbose);
        let paged = args.iter().any(|a| a.as_ref() == OsStr::new("--html"));
        if game == Game::Olympiad && paged && matches!(outcome, Ok(true)) && !html.exists() {
            outcome = wrong("exit 0 with --html and no page written");
        }
        let options: Vec<String> = args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect();
        tally.record(
            case,
            &format!("check {}: {shown}", options.join(" ")),
            outcome,
        );
        for file in [&record, &html, &fm2] {
            let _ = std::fs::remove_file(file);
        }
    }
    tally
}

/// Options of `check` for `game` besides the files, `--json`, `--html` and `--fm2`: now and then
/// a trace, a breakdown, a rule changed, some of them unusable (`--at 0`, `--piece-limit 1`).
fn check_extras(rng: &mut Rng, game: Game, json: bool) -> Vec<&'static str> {
    let mut extras = Vec::new();
    match game {
        Game::Tencent => {
            if !json && rng.one_in(4) {
                extras.push("--trace");
                if rng.one_in(2) {
                    extras.extend([
                        "--at",
                        rng.pick(&["1", "3", "30", "0", "99999", "18446744073709551616"]),
                    ]);
                }
            }
            if rng.one_in(4) {
                extras.push("--stats");
            }
            if rng.one_in(4) {
                extras.push("--judge");
            }
            if rng.one_in(6) {
                extras.extend(["--piece-limit", rng.pick(&["0", "1", "2", "12", "-1"])]);
            }
        }
        Game::Nes if !json => {
            if rng.one_in(4) {
                extras.push("--trace");
            }
            if rng.one_in(6) {
                extras.push("--frames");
            }
        }
        _ => {}
    }
    extras
}

/// Holds a run of `solve` to its contract: exit 0 with a record `check` finds valid, or 2 with
/// an `error:` line; never a panic, never 3.
fn solve_contract(
    r: &Run,
    check_args: &[&dyn AsRef<OsStr>],
    scratch: &Scratch,
    case: u64,
) -> Result<bool, Finding> {
    if r.code == Some(101) || r.stderr.contains("panicked at") {
        return Err(Finding::Panic(format!(
            "exit {:?}: {}",
            r.code,
            r.stderr.trim()
        )));
    }
    match r.code {
        Some(0) => {
            let record = scratch.file(&format!("solved-{case}.txt"), &r.stdout);
            let mut args = check_args.to_vec();
            args.push(&record);
            let checked = run(CHECK, &args);
            if checked.code != Some(0) {
                return wrong(format!("solve's record does not check: {checked:?}"));
            }
            Ok(true)
        }
        Some(2) if r.stderr.starts_with("error: ") && r.stdout.is_empty() => Ok(false),
        code => wrong(format!("exit {code:?}: {r:?}")),
    }
}

/// The options that keep a run of `solve` short.
const SHORT: [&str; 7] = [
    "--pieces",
    "5",
    "--beam-width",
    "5",
    "--quiet",
    "--threads",
    "1",
];

/// Runs `solve` on `runs` mutated sequence files of `game` (tencent, browser or olympiad).
fn fuzz_solve_binary(game: Game, runs: u64) -> Tally {
    let scratch = Scratch::new("fuzz-solve");
    let (starts, game_name) = match game {
        Game::Browser => (browser_starts(), "browser"),
        Game::Olympiad => (olympiad_starts(), "olympiad"),
        _ => (tencent_starts(), "tencent"),
    };
    let texts: Vec<String> = starts.iter().map(|s| s.sequence.clone()).collect();
    let mut tally = Tally::default();
    for case in 0..runs {
        let mut rng = Rng::for_case(20 + game as u64, case);
        let i = rng.below(texts.len());
        let text = mutate(&mut rng, &texts[i], &texts, &SEQUENCE);
        let bytes = file_bytes(&mut rng, &text);
        let sequence = scratch.file(&format!("sequence-{case}.txt"), &bytes);
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"--game", &game_name, &sequence];
        args.extend(SHORT.iter().map(|o| o as &dyn AsRef<OsStr>));
        let r = run(SOLVE, &args);
        let check_args: [&dyn AsRef<OsStr>; 3] = [&"--game", &game_name, &sequence];
        let outcome = solve_contract(&r, &check_args, &scratch, case);
        tally.record(case, &String::from_utf8_lossy(&bytes), outcome);
    }
    tally
}

/// Runs `solve --game nes` with `runs` mutated starts and options.
fn fuzz_solve_nes(runs: u64) -> Tally {
    let scratch = Scratch::new("fuzz-solve-nes");
    let mut tally = Tally::default();
    let levels = [
        "19",
        "18",
        "0",
        "15",
        "20",
        "255",
        "256",
        "-1",
        "19\u{200B}",
        "",
        " 19",
        "\u{663}",
    ];
    let waits = [
        "0",
        "3",
        "9",
        "255",
        "256",
        "99999",
        "4294967296",
        "+3",
        "-0",
        "0x1",
    ];
    let models = [
        "tap:2",
        "tap:10,das",
        "tap:1",
        "tap:61",
        "tap:",
        "tap:4,das,das",
        "tap:255",
    ];
    let lines = ["0", "1", "4", "4294967295", "-1"];
    for case in 0..runs {
        let mut rng = Rng::for_case(30, case);
        let mut options: Vec<String> = vec![
            "--game".into(),
            "nes".into(),
            "--start-level".into(),
            rng.pick(&levels).into(),
            "--title-wait".into(),
            rng.pick(&waits).into(),
        ];
        if rng.one_in(3) {
            options.extend(["--input-model".into(), rng.pick(&models).into()]);
        }
        if rng.one_in(3) {
            options.extend(["--lines".into(), rng.pick(&lines).into()]);
        }
        let mut args: Vec<&dyn AsRef<OsStr>> = options.iter().map(|o| o as _).collect();
        args.extend(SHORT.iter().map(|o| o as &dyn AsRef<OsStr>));
        let r = run(SOLVE, &args);
        let check_args: [&dyn AsRef<OsStr>; 2] = [&"--game", &"nes"];
        let outcome = solve_contract(&r, &check_args, &scratch, case);
        tally.record(case, &format!("solve {}", options.join(" ")), outcome);
    }
    tally
}

// ---------------------------------------------------------------------------------------------
// The tests

/// Runs `fuzz` over `cases` cases and reports it as `name`.
fn timed(name: &str, fuzz: impl FnOnce() -> Tally) {
    let began = Instant::now();
    let tally = fuzz();
    tally.report(name, began.elapsed().as_secs_f64());
}

#[test]
fn tencent_readers_and_replay_survive_mutated_records() {
    timed("tencent library", || fuzz_tencent(0, LIBRARY_CASES));
}

#[test]
fn nes_reader_and_replay_survive_mutated_records() {
    timed("nes library", || fuzz_nes(0, LIBRARY_CASES));
}

#[test]
fn browser_reader_and_replay_survive_mutated_records() {
    timed("browser library", || fuzz_browser(0, LIBRARY_CASES));
}

#[test]
fn olympiad_reader_and_replay_survive_mutated_records() {
    timed("olympiad library", || fuzz_olympiad(0, LIBRARY_CASES));
}

#[test]
fn olympiad_engines_play_random_placements_alike() {
    timed("olympiad engines", || {
        fuzz_olympiad_engines(0, ENGINE_GAMES)
    });
}

#[test]
fn check_keeps_its_exit_codes_on_mutated_files() {
    for (game, name) in [
        (Game::Tencent, "tencent check"),
        (Game::Nes, "nes check"),
        (Game::Browser, "browser check"),
        (Game::Olympiad, "olympiad check"),
    ] {
        timed(name, || fuzz_check_binary(game, CHECK_RUNS));
    }
}

#[test]
fn solve_keeps_its_exit_codes_on_mutated_inputs() {
    timed("tencent solve", || {
        fuzz_solve_binary(Game::Tencent, SOLVE_RUNS)
    });
    timed("browser solve", || {
        fuzz_solve_binary(Game::Browser, SOLVE_RUNS)
    });
    timed("nes solve", || fuzz_solve_nes(SOLVE_RUNS));
    timed("olympiad solve", || {
        fuzz_solve_binary(Game::Olympiad, SOLVE_RUNS)
    });
}

#[test]
#[ignore = "long: FUZZ_CASES cases (default 1,000,000); bench/fuzz.sh runs it"]
fn long_tencent() {
    timed("tencent library (long)", || {
        fuzz_tencent(LIBRARY_CASES, long_cases())
    });
}

#[test]
#[ignore = "long: FUZZ_CASES cases (default 1,000,000); bench/fuzz.sh runs it"]
fn long_nes() {
    timed("nes library (long)", || {
        fuzz_nes(LIBRARY_CASES, long_cases())
    });
}

#[test]
#[ignore = "long: FUZZ_CASES cases (default 1,000,000); bench/fuzz.sh runs it"]
fn long_browser() {
    timed("browser library (long)", || {
        fuzz_browser(LIBRARY_CASES, long_cases())
    });
}

#[test]
#[ignore = "long: FUZZ_CASES cases (default 1,000,000); bench/fuzz.sh runs it"]
fn long_olympiad() {
    timed("olympiad library (long)", || {
        fuzz_olympiad(LIBRARY_CASES, long_cases())
    });
}

#[test]
#[ignore = "long: FUZZ_CASES / 10 games (each up to 300 placements); bench/fuzz.sh runs it"]
fn long_olympiad_engines() {
    timed("olympiad engines (long)", || {
        fuzz_olympiad_engines(ENGINE_GAMES, long_cases() / 10)
    });
}

// ---------------------------------------------------------------------------------------------
// Defects the fuzzer found, each with the input that shows it (ignored until fixed)

/// The NES reader's error for `text`.
fn nes_error(text: &str) -> String {
    nes::record::NesRecord::parse(text)
        .expect_err("the record is refused")
        .to_string()
}

#[test]
fn nes_errors_name_invisible_characters_by_code_point() {
    let start = "game nes\nstart-level 19\ntitle-wait 0\ninputs\n";
    for text in [
        format!("{start}.*\u{200B}5\n"),
        format!("{start}R\u{7F}\n"),
        format!("{start}B*\u{202E}12\n"),
        "\u{200B}\n".to_string(),
        "game\u{1B}nes\n".to_string(),
    ] {
        let message = nes_error(&text);
        assert!(
            one_visible_line(&message).is_ok(),
            "{text:?}: the error shows nothing where the character is: {message:?}"
        );
    }
}

#[test]
fn an_nes_record_with_a_byte_order_mark_is_read() {
    let text = "\u{FEFF}game nes\nstart-level 19\ntitle-wait 0\ninputs\n.*5\n";
    let plain = nes::record::NesRecord::parse(&text['\u{FEFF}'.len_utf8()..]);
    assert_eq!(nes::record::NesRecord::parse(text), plain);
}
