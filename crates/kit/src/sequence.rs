//! Piece sequences: the generators that know no game's rules (a game with a generator of its
//! own keeps it), and the sequence file format (letters in either case, whitespace and commas ignored, `#` comments).

use crate::piece::Kind;
use crate::text::{describe_char, strip_byte_order_mark};
use std::fmt::Write as _;
use thiserror::Error;

/// How a generator draws pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// Each kind with probability 1/7.
    Uniform,
    /// Shuffled bags of the seven kinds.
    Bag7,
}

/// SplitMix64: tiny, fully specified, and identical on every platform, so a seed names the same
/// sequence everywhere.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` without modulo bias (Lemire's multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// Uniform float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `count` pieces of `distribution` from `seed`.
pub fn generate(distribution: Distribution, seed: u64, count: usize) -> Vec<Kind> {
    match distribution {
        Distribution::Uniform => {
            let mut rng = SplitMix64::new(seed);
            (0..count)
                .map(|_| Kind::ALL[rng.below(7) as usize])
                .collect()
        }
        Distribution::Bag7 => {
            let mut rng = SplitMix64::new(seed);
            let mut out = Vec::with_capacity(count + 7);
            while out.len() < count {
                let mut bag = Kind::ALL;
                for i in (1..bag.len()).rev() {
                    bag.swap(i, rng.below(i as u64 + 1) as usize);
                }
                out.extend_from_slice(&bag);
            }
            out.truncate(count);
            out
        }
    }
}

/// A sequence file that could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SequenceError {
    #[error("line {line}, column {column}: {} is not a piece letter (expected one of I J L O S T Z, either case)", describe_char(*found))]
    BadCharacter {
        line: usize,
        column: usize,
        found: char,
    },
    #[error("the sequence holds no pieces")]
    Empty,
}

/// Parses a sequence file: piece letters in either case; whitespace and commas are ignored; a line
/// whose first non-blank character is `#` is a comment; a byte-order mark at the start is
/// skipped.
pub fn parse_sequence(text: &str) -> Result<Vec<Kind>, SequenceError> {
    let text = strip_byte_order_mark(text);
    let mut pieces = Vec::with_capacity(text.len());
    for (line_index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for (column_index, c) in line.chars().enumerate() {
            if c.is_whitespace() || c == ',' {
                continue;
            }
            match Kind::from_letter(c) {
                Some(kind) => pieces.push(kind),
                None => {
                    return Err(SequenceError::BadCharacter {
                        line: line_index + 1,
                        column: column_index + 1,
                        found: c,
                    })
                }
            }
        }
    }
    if pieces.is_empty() {
        return Err(SequenceError::Empty);
    }
    Ok(pieces)
}

/// Formats a sequence file: an optional comment header, then 100 letters per line.
pub fn format_sequence(pieces: &[Kind], header: Option<&str>) -> String {
    let mut out = String::with_capacity(pieces.len() + pieces.len() / 100 + 100);
    if let Some(h) = header {
        for line in h.lines() {
            let _ = writeln!(out, "# {line}");
        }
    }
    for chunk in pieces.chunks(100) {
        out.extend(chunk.iter().map(|k| k.letter()));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(pieces: &[Kind]) -> String {
        pieces.iter().map(|k| k.letter()).collect()
    }

    #[test]
    fn parse_reports_line_and_column() {
        let err = parse_sequence("# comment x\nIJ, lo\nSTq\n").unwrap_err();
        assert_eq!(
            err,
            SequenceError::BadCharacter {
                line: 3,
                column: 3,
                found: 'q'
            }
        );
        assert_eq!(
            parse_sequence("  # only a comment\n"),
            Err(SequenceError::Empty)
        );
        assert_eq!(letters(&parse_sequence("i j,L\n o").unwrap()), "IJLO");
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_look_alikes_are_named_by_code_point() {
        assert_eq!(letters(&parse_sequence("\u{feff}ZIO\n").unwrap()), "ZIO");
        let message = |text: &str| parse_sequence(text).unwrap_err().to_string();
        assert!(
            message("Z\u{41E}S").starts_with("line 1, column 2: '\u{41E}' (U+041E) is not"),
            "{}",
            message("Z\u{41E}S")
        );
        assert!(message("ZI\u{200B}O").starts_with("line 1, column 3: U+200B is not"));
        assert!(message("ZI\nO\u{feff}").starts_with("line 2, column 2: U+FEFF is not"));
        assert!(message("Z\u{7}").starts_with("line 1, column 2: U+0007 is not"));
    }

    #[test]
    fn bag7_holds_each_kind_once_per_bag() {
        let seq = generate(Distribution::Bag7, 5, 70);
        for bag in seq.chunks(7) {
            let mut kinds = bag.to_vec();
            kinds.sort();
            assert_eq!(kinds, Kind::ALL.to_vec());
        }
    }
}
