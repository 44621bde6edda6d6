//! The fuzzer's randomness and mutations: a seeded SplitMix64 per case, and the changes made to
//! a valid text (characters, ranges, tokens and numbers, invisible characters, line breaks,
//! truncation) or to its bytes.

/// SplitMix64: tiny and the same everywhere, so a case number names the same input.
pub(super) struct Rng(u64);

impl Rng {
    /// The generator of case `case` of the stream `stream` (one per game and tier).
    pub(super) fn for_case(stream: u64, case: u64) -> Rng {
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
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub(super) fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    pub(super) fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
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
pub(super) struct Grammar {
    /// Tokens and lines of the game's format, valid and almost valid.
    pub(super) tokens: &'static [&'static str],
}

/// Applies one to four random mutations to `text`, drawing material from `corpus`.
pub(super) fn mutate(rng: &mut Rng, text: &str, corpus: &[String], grammar: &Grammar) -> String {
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
pub(super) fn file_bytes(rng: &mut Rng, text: &str) -> Vec<u8> {
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
