//! The limits every binary checks the same way, each defined once: beam widths, threads, the
//! piece limit, finite numbers, and whether a beam fits in the machine's memory. They are
//! checked before any work starts, so that a typo fails at once instead of after an hour, and
//! never as a panic or an abort inside the search.

use thiserror::Error;

/// The widest beam any binary accepts. Far above what fits in a machine's memory (under 1 KB
/// per state: 24 GiB hold some 24 million states); larger values are typos, and would overflow
/// the buffers' sizes before the memory check could say so.
pub const MAX_BEAM_WIDTH: usize = 100_000_000;

/// The widest beam a time budget may choose unless `--max-beam-width` says otherwise.
pub(crate) const DEFAULT_MAX_BEAM_WIDTH: usize = 1_000_000;

/// Worker threads per core beyond which more threads only cost time (they share the cores and
/// each takes its stack and buffers).
pub(crate) const MAX_THREADS_PER_CORE: usize = 4;

/// Memory a search takes whatever its width and its input: the binary, its libraries, thread
/// stacks and buffers. `solve` peaks at 5 MiB at width 1 and at 5-6 MiB beside a beam of 300
/// to 2,000 states and its tables (bench/RESULTS.md, "Memory of the input"); what grows with
/// the input is counted apart ([`estimated_bytes_with`]).
pub(crate) const BASE_BYTES: u64 = 8 << 20;

/// A value outside the limits, named by its option.
#[derive(Debug, Error, PartialEq)]
pub enum LimitError {
    #[error("{option} must be at least 1")]
    ZeroWidth { option: String },
    #[error("{option} {width} is above the widest beam accepted, {max}")]
    WidthTooLarge {
        option: String,
        width: usize,
        max: usize,
    },
    #[error("--threads must be at least 1")]
    ZeroThreads,
    #[error("--threads {threads} is more than {max} ({per_core} per core on this machine's {cores} cores)", per_core = MAX_THREADS_PER_CORE)]
    TooManyThreads {
        threads: usize,
        max: usize,
        cores: usize,
    },
    #[error("--piece-limit 1 leaves no piece that can score (0 means no limit)")]
    PieceLimitOne,
    #[error("{option} must be a finite number, not {value}")]
    NotFinite { option: String, value: f64 },
    #[error(
        "{}a beam of {width} states needs about {} of memory{}, more than this machine's {} \
         (use {}{}, or --force to try anyway)",
        capped_by(.cap),
        memory_amount(*.needed),
        input_part(*.input),
        memory_amount(*.available),
        narrower(.cap),
        if *.input >= 1 << 19 { " or fewer pieces" } else { "" }
    )]
    OutOfMemory {
        width: usize,
        needed: u64,
        /// The part of `needed` the run holds whatever its width ([`estimated_bytes_with`]).
        input: u64,
        available: u64,
        /// The option whose value is the widest beam, where it is not the width asked for
        /// (`--max-beam-width`, the cap of a time budget).
        cap: Option<String>,
    },
    #[error(
        "{MEMORY_VARIABLE}={value:?} is not an amount of memory: give bytes, or a whole number \
         with K, M or G (e.g. 16G), from 1M up to under 16 EiB"
    )]
    BadMemoryVariable { value: String },
}

/// What set the widest beam where it is a cap (`--max-beam-width`), before the refusal.
fn capped_by(cap: &Option<String>) -> String {
    cap.as_ref().map_or(String::new(), |option| {
        format!(
            "{option} (the widest beam --time-budget may choose; {} unless given): ",
            tetris_kit::text::grouped(DEFAULT_MAX_BEAM_WIDTH as u64)
        )
    })
}

/// What to narrow: the beam asked for, or the cap that made it.
fn narrower(cap: &Option<String>) -> String {
    cap.as_ref()
        .map_or("a narrower beam".to_string(), |option| {
            format!("a smaller {option}")
        })
}

/// An amount of memory in the unit that fits it: GiB from 1 GiB up, MiB below (a machine
/// limited to 50M would read as `0.0 GiB`).
fn memory_amount(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;
    if bytes >= GIB {
        format!("{:.1} GiB", bytes as f64 / GIB as f64)
    } else {
        format!("{:.0} MiB", bytes as f64 / MIB as f64)
    }
}

/// How much of an estimate is the run's input ([`estimated_bytes_with`]), for the messages
/// that name it: nothing under half a MiB, which the estimate's rounding hides anyway.
fn input_part(input: u64) -> String {
    let mib = (input as f64 / (1u64 << 20) as f64).round();
    if mib < 1.0 {
        return String::new();
    }
    format!(" ({mib:.0} MiB of it for the input: the sequence and its tables)")
}

/// A beam width given as `option`.
pub fn check_width(option: &str, width: usize) -> Result<(), LimitError> {
    if width == 0 {
        return Err(LimitError::ZeroWidth {
            option: option.to_string(),
        });
    }
    if width > MAX_BEAM_WIDTH {
        return Err(LimitError::WidthTooLarge {
            option: option.to_string(),
            width,
            max: MAX_BEAM_WIDTH,
        });
    }
    Ok(())
}

/// A thread count on a machine of `cores` cores.
pub(crate) fn check_threads(threads: usize, cores: usize) -> Result<(), LimitError> {
    let max = cores.max(1) * MAX_THREADS_PER_CORE;
    match threads {
        0 => Err(LimitError::ZeroThreads),
        t if t > max => Err(LimitError::TooManyThreads {
            threads: t,
            max,
            cores,
        }),
        _ => Ok(()),
    }
}

/// A piece limit: 0 (none) or a piece after the first.
pub fn check_piece_limit(piece_limit: usize) -> Result<(), LimitError> {
    if piece_limit == 1 {
        return Err(LimitError::PieceLimitOne);
    }
    Ok(())
}

/// A number that must be finite (a weight, a spread): NaN and infinities are refused.
pub fn check_finite(option: &str, value: f64) -> Result<(), LimitError> {
    if !value.is_finite() {
        return Err(LimitError::NotFinite {
            option: option.to_string(),
            value,
        });
    }
    Ok(())
}

/// The estimated peak memory of a beam of `width` states of `per_state` bytes each at the
/// peak (each game's own figure: `Plan::bytes_per_state` in [`super::solve`]).
pub fn estimated_bytes(width: usize, per_state: u64) -> u64 {
    estimated_bytes_with(width, per_state, 0)
}

/// [`estimated_bytes`] of a run that also holds `input` bytes whatever its width: what grows
/// with its input instead (the sequence, and tables a game builds over it), which no per-state
/// figure can cover.
pub(crate) fn estimated_bytes_with(width: usize, per_state: u64, input: u64) -> u64 {
    BASE_BYTES
        .saturating_add(input)
        .saturating_add((width as u64).saturating_mul(per_state))
}

/// The line a binary prints before a search of at most `widest` states, in a run that also
/// holds `input` bytes ([`estimated_bytes_with`]): the peak memory it expects, and the
/// machine's (`available`, if known), so that a user picks widths by memory.
pub(crate) fn describe_estimate_with(
    widest: usize,
    per_state: u64,
    input: u64,
    available: Option<u64>,
) -> String {
    let mib = estimated_bytes_with(widest, per_state, input) as f64 / (1u64 << 20) as f64;
    let machine = available.map_or(String::new(), |a| {
        format!(" of this machine's {}", memory_amount(a))
    });
    let input = input_part(input);
    format!(
        "expected peak memory: about {mib:.0} MiB for a beam of {}{input}{machine}",
        tetris_kit::text::plural(widest, "state")
    )
}

/// Whether a beam of at most `width` states fits in `available` bytes (None: unknown, and then
/// nothing is refused).
pub fn check_memory(
    width: usize,
    per_state: u64,
    available: Option<u64>,
) -> Result<(), LimitError> {
    check_memory_with(width, per_state, 0, available)
}

/// [`check_memory`] of a run that also holds `input` bytes ([`estimated_bytes_with`]).
pub(crate) fn check_memory_with(
    width: usize,
    per_state: u64,
    input: u64,
    available: Option<u64>,
) -> Result<(), LimitError> {
    let needed = estimated_bytes_with(width, per_state, input);
    match available {
        Some(available) if needed > available => Err(LimitError::OutOfMemory {
            width,
            needed,
            input,
            available,
            cap: None,
        }),
        _ => Ok(()),
    }
}

/// The cores this process may run on.
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The variable that sets the memory the checks count on (bytes, or with a unit: `512M`,
/// `24G`): for a container whose /proc/meminfo shows the host's memory, not its own limit.
pub(crate) const MEMORY_VARIABLE: &str = "TETRIS_OPT_MEMORY";

/// The memory a beam may use: [`MEMORY_VARIABLE`] if set (an error if it is not an amount),
/// else this machine's (Linux: MemTotal in /proc/meminfo), or None where it cannot be read.
pub fn machine_memory() -> Result<Option<u64>, LimitError> {
    match std::env::var_os(MEMORY_VARIABLE) {
        Some(value) => {
            let value = value.to_string_lossy();
            // Less than a MiB is a unit left out (`100` for 100 GiB), not a machine.
            match parse_bytes(&value) {
                Some(bytes) if bytes >= 1 << 20 => Ok(Some(bytes)),
                _ => Err(LimitError::BadMemoryVariable {
                    value: value.into_owned(),
                }),
            }
        }
        None => Ok(meminfo_total()),
    }
}

/// MemTotal in /proc/meminfo, in bytes.
fn meminfo_total() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Bytes from `1000`, `512K`, `512M` or `24G` (binary units).
pub(crate) fn parse_bytes(text: &str) -> Option<u64> {
    let text = text.trim();
    let (number, shift) = match text.char_indices().last()? {
        (i, 'K' | 'k') => (&text[..i], 10),
        (i, 'M' | 'm') => (&text[..i], 20),
        (i, 'G' | 'g') => (&text[..i], 30),
        _ => (text, 0),
    };
    number.trim().parse::<u64>().ok()?.checked_mul(1 << shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes a state takes in these tests, of a real game's order.
    const BYTES_PER_STATE: u64 = 1_000;

    #[test]
    fn widths_from_one_to_the_limit_are_accepted() {
        assert!(check_width("--beam-width", 1).is_ok());
        assert!(check_width("--beam-width", MAX_BEAM_WIDTH).is_ok());
        assert!(matches!(
            check_width("--beam-width", 0),
            Err(LimitError::ZeroWidth { .. })
        ));
        let huge = check_width("--beam-width", usize::MAX).unwrap_err();
        assert!(huge
            .to_string()
            .starts_with("--beam-width 18446744073709551615 is above"));
    }

    #[test]
    fn threads_are_limited_per_core() {
        assert!(check_threads(8, 2).is_ok());
        assert_eq!(
            check_threads(9, 2),
            Err(LimitError::TooManyThreads {
                threads: 9,
                max: 8,
                cores: 2
            })
        );
        assert_eq!(check_threads(0, 2), Err(LimitError::ZeroThreads));
    }

    #[test]
    fn the_memory_check_uses_the_machine_it_is_given() {
        let gib = 1u64 << 30;
        // The default width fits anywhere; 30 million states do not fit in 24 GiB.
        assert!(check_memory(20_000, BYTES_PER_STATE, Some(24 * gib)).is_ok());
        assert!(check_memory(20_000_000, BYTES_PER_STATE, Some(24 * gib)).is_ok());
        let error = check_memory(30_000_000, BYTES_PER_STATE, Some(24 * gib)).unwrap_err();
        assert!(matches!(
            error,
            LimitError::OutOfMemory {
                width: 30_000_000,
                ..
            }
        ));
        assert!(
            error
                .to_string()
                .contains("more than this machine's 24.0 GiB"),
            "{error}"
        );
        // Unknown memory refuses nothing.
        assert!(check_memory(MAX_BEAM_WIDTH, BYTES_PER_STATE, None).is_ok());
    }

    /// What a run holds for its input (a long sequence's tables) is counted beside the beam:
    /// it alone can push a narrow beam past the machine, and the refusal says so.
    #[test]
    fn the_memory_check_counts_the_input_beside_the_beam() {
        let gib = 1u64 << 30;
        let input = 3 * gib / 2;
        assert_eq!(
            estimated_bytes_with(10, BYTES_PER_STATE, input),
            estimated_bytes(10, BYTES_PER_STATE) + input
        );
        assert!(check_memory(10, BYTES_PER_STATE, Some(gib)).is_ok());
        let error = check_memory_with(10, BYTES_PER_STATE, input, Some(gib)).unwrap_err();
        assert!(matches!(error, LimitError::OutOfMemory { input: i, .. } if i == input));
        let message = error.to_string();
        assert!(
            message.contains("needs about 1.5 GiB of memory (1536 MiB of it for the input")
                && message.contains("narrower beam or fewer pieces"),
            "{message}"
        );
        let line = describe_estimate_with(10, BYTES_PER_STATE, input, None);
        assert!(
            line.contains("10 states (1536 MiB of it for the input"),
            "{line}"
        );
        // Under half a MiB of input changes neither line.
        assert_eq!(
            describe_estimate_with(10, BYTES_PER_STATE, 1000, None),
            describe_estimate_with(10, BYTES_PER_STATE, 0, None)
        );
    }

    #[test]
    fn the_estimate_line_names_the_width_and_the_machine() {
        let line = describe_estimate_with(1_000_000, BYTES_PER_STATE, 0, Some(24 << 30));
        let mib = format!(
            "{:.0}",
            estimated_bytes(1_000_000, BYTES_PER_STATE) as f64 / (1u64 << 20) as f64
        );
        assert_eq!(
            line,
            format!(
                "expected peak memory: about {mib} MiB for a beam of 1000000 states of this \
                 machine's 24.0 GiB"
            )
        );
        assert!(!describe_estimate_with(10, BYTES_PER_STATE, 0, None).contains("machine"));
    }

    #[test]
    fn memory_sizes_read_with_binary_units() {
        assert_eq!(parse_bytes("1000"), Some(1000));
        assert_eq!(parse_bytes("512M"), Some(512 << 20));
        assert_eq!(parse_bytes(" 24G "), Some(24 << 30));
        assert_eq!(parse_bytes("lots"), None);
        assert_eq!(parse_bytes("99999999999G"), None);
    }

    #[test]
    fn nan_and_infinities_are_not_finite() {
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(check_finite("--spread", v).is_err());
        }
        assert!(check_finite("--spread", -0.5).is_ok());
    }
}
