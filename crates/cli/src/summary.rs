//! The end of a `solve` run as every game reports it, before the game's own lines and fields:
//! `--json`'s object (the record's report in the one form, [`super::report`], with the run's
//! fields) and the summary on standard error.

use super::args::SolveArgs;
use super::distributed;
use super::report::Report;
use super::writer::Verdict;
use super::{write_file, CliError};
use crate::say;
use std::path::Path;
use tetris_kit::text::plural;
use tetris_search::width::{Late, Schedule};
use tetris_search::{DepthStats, Objective, Traffic};

/// A run's end as every game reports it, before the game's own lines and fields.
pub(crate) struct Finished<'a> {
    pub(crate) game: &'static str,
    pub(crate) args: &'a SolveArgs,
    /// `--from-record`'s file and `--from-piece`'s count.
    pub(crate) from: Option<(&'a Path, usize)>,
    pub(crate) beam_width: usize,
    /// What the search was for: its answer where every line ends early.
    pub(crate) objective: Objective,
    pub(crate) stats: &'a DepthStats,
    /// The width changes the search made, which replay it without its time budget.
    pub(crate) changes: &'a Schedule,
    pub(crate) traffic: Option<Traffic>,
    pub(crate) kept: usize,
    pub(crate) search_seconds: f64,
    pub(crate) wall_seconds: f64,
    pub(crate) expected_bytes: u64,
}

impl Finished<'_> {
    /// `--json` written and the summary printed, each with the game's own part (`verdict`).
    pub(crate) fn report(&self, verdict: Verdict) -> Result<(), CliError> {
        if let Some(path) = &self.args.json {
            let run = self.json();
            let report = Report {
                game: self.game,
                result: Ok(&verdict.scorecard),
                own: &verdict.own,
                run: Some(&run),
            };
            let text = serde_json::to_string_pretty(&report).map_err(CliError::internal)?;
            write_file("--json", path, format!("{text}\n"))?;
        }
        if !self.args.quiet {
            self.print();
            eprint_all(&verdict.summary);
        }
        Ok(())
    }

    /// `--json`'s fields of the run, which every game writes.
    fn json(&self) -> serde_json::Map<String, serde_json::Value> {
        let (args, from) = (self.args, self.from);
        let run = serde_json::json!({
            "beam_width": self.beam_width,
            "objective": self.objective,
            "width_changes": self.changes.to_string(),
            "time_budget_seconds": args.width.time_budget,
            "from_record": from.map(|(p, _)| p),
            "from_piece": from.map(|(_, n)| n),
            "search_seconds": self.search_seconds,
            "wall_seconds": self.wall_seconds,
            "expanded": self.stats.expanded,
            "placements": self.stats.placements,
            "phase_seconds": self.stats.seconds,
            "peak_memory_mib": peak_memory_mib(),
            "expected_peak_memory_mib": self.expected_bytes as f64 / MIB,
            "distributed": self.traffic,
            "deadline": self.deadline(),
        });
        match run {
            serde_json::Value::Object(fields) => fields,
            _ => serde_json::Map::new(),
        }
    }

    /// How a `--time-budget` went ([`deadline_json`]).
    fn deadline(&self) -> serde_json::Value {
        let (search, wall) = (self.search_seconds, self.wall_seconds);
        deadline_json(
            self.args.width.time_budget,
            search,
            wall,
            self.stats.late,
            self.kept,
        )
    }
    /// The summary's lines every game prints.
    fn print(&self) {
        if let Some(traffic) = &self.traffic {
            say!("{}", distributed::describe(traffic));
        }
        for line in width_changes_lines(self.beam_width, self.changes, self.kept) {
            say!("{line}");
        }
        let stats = self.stats;
        let each = match stats.expanded {
            0 => String::new(),
            n => format!(" ({:.2} us each)", self.search_seconds * 1e6 / n as f64),
        };
        say!(
            "beam width {}{}: {:.1} s, {} expanded{each}, {}",
            self.beam_width,
            if self.changes.0.is_empty() {
                ""
            } else {
                " at first"
            },
            self.search_seconds,
            plural(stats.expanded, "state"),
            plural(stats.placements, "placement")
        );
        let (search, wall) = (self.search_seconds, self.wall_seconds);
        if let Some(line) =
            deadline_line(self.args.width.time_budget, search, wall, self.stats.late)
        {
            say!("{line}");
        }
        let phases = stats.seconds;
        say!(
            "search phases: expand {:.2} s, select {:.2} s, advance {:.2} s",
            phases.expand,
            phases.select,
            phases.advance
        );
        if let Some(mib) = peak_memory_mib() {
            say!("peak memory: {mib:.0} MiB");
        }
    }
}

/// How a search under a time budget of `budget` seconds went, for `--json`: the budget, the
/// seconds the search and the whole run took, whether the run ended within the budget, and the
/// estimate that found it out of reach even at width 1, where one did (its piece counted after
/// the `kept` pieces the search started from); null without a budget.
pub fn deadline_json(
    budget: Option<f64>,
    search_seconds: f64,
    wall_seconds: f64,
    late: Option<Late>,
    kept: usize,
) -> serde_json::Value {
    let Some(budget) = budget else {
        return serde_json::Value::Null;
    };
    serde_json::json!({
        "budget_seconds": budget,
        "search_seconds": search_seconds,
        "wall_seconds": wall_seconds,
        "met": wall_seconds <= budget,
        "width_one_too_slow": late.map(|late| serde_json::json!({
            "piece": kept + late.depth,
            "estimated_seconds": late.seconds,
        })),
    })
}

/// The summary's line on a time budget's deadline (none without a budget).
pub fn deadline_line(
    budget: Option<f64>,
    search: f64,
    wall: f64,
    late: Option<Late>,
) -> Option<String> {
    let budget = budget?;
    let outcome = match late {
        _ if wall <= budget => format!("met, {:.1} s to spare", budget - wall),
        Some(_) => format!(
            "missed by {:.1} s (too short even for a beam of width 1)",
            wall - budget
        ),
        None => format!("missed by {:.1} s", wall - budget),
    };
    Some(format!(
        "time budget {budget:.1} s: {outcome}; search {search:.1} s, {wall:.1} s in all"
    ))
}

/// The summary's lines on the width changes a search made (none for a search at one width),
/// with the options that replay them; pieces count after the `kept` the search started from.
pub fn width_changes_lines(beam_width: usize, changes: &Schedule, kept: usize) -> Vec<String> {
    if changes.0.is_empty() {
        return Vec::new();
    }
    let head =
        format!("width changes (replay with --beam-width {beam_width} --width-changes {changes}):");
    let each = changes
        .0
        .iter()
        .map(|(depth, width)| format!("  from piece {}: {width}", kept + depth + 1));
    std::iter::once(head).chain(each).collect()
}

/// Writes `text` to standard error, losing it rather than the run where stderr is closed.
fn eprint_all(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

const MIB: f64 = (1u64 << 20) as f64;

/// Peak resident memory of this process (Linux: VmHWM in /proc/self/status), for the summary.
pub fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
