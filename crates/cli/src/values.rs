//! The values of `solve`'s options that clap does not read by itself: durations and width
//! schedules.

use tetris_search::width::Schedule;

/// A schedule of at least one change: an empty one is surely a mistake (a variable that was
/// not set, say), not a request for the plain width.
pub fn parse_schedule(text: &str) -> Result<Schedule, String> {
    let schedule: Schedule = text.parse().map_err(|e| format!("{e}"))?;
    if schedule.0.is_empty() {
        return Err(
            "no width change given (DEPTH:WIDTH,...; leave the option out for none)".into(),
        );
    }
    Ok(schedule)
}

/// Seconds from `90`, `90s`, `15m` or `1.5h`.
pub fn parse_duration(text: &str) -> Result<f64, String> {
    parse_time(text, false)
}

/// [`parse_duration`] that also takes 0.
pub fn parse_interval(text: &str) -> Result<f64, String> {
    parse_time(text, true)
}

fn parse_time(text: &str, zero: bool) -> Result<f64, String> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().last() {
        Some((i, 's')) => (&text[..i], 1.0),
        Some((i, 'm')) => (&text[..i], 60.0),
        Some((i, 'h')) => (&text[..i], 3600.0),
        _ => (text, 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && (n > 0.0 || zero && n == 0.0) => Ok(n * unit),
        _ => Err(format!(
            "{text:?} is not a {} time (seconds, or e.g. 90s, 15m, 1.5h)",
            if zero { "non-negative" } else { "positive" }
        )),
    }
}
