//! `solve` of the contest's game: the options only it takes, the search in this process or
//! over an MPI job's, and the record checked by the rules engine as it goes out.

use super::options::read_record;
use super::options::{ranking, RulesOptions};
use crate::cli::distributed;
use crate::cli::interrupt::PieceOut;
use crate::cli::progress::Progress;
use crate::cli::registry::{Solve, SolveArgs};
use crate::cli::sequence::sequence_file;
use crate::cli::values::parse_schedule;
use crate::cli::{check_output, check_width, read_sequence, stdout_failed, write_file};
use crate::cli::{CliError, EvalOptions};
use crate::games::tencent::movegen::Placement;
use crate::games::tencent::record::Record;
use crate::games::tencent::replay::Report;
use crate::games::tencent::rules::{Kind, Rules};
use crate::games::tencent::search::{
    beam_search_distributed, beam_search_streaming, input_bytes, Params, Solution, UnderWay,
};
use crate::games::tencent::solve::{start_from, RecordWriter, SolveError};
use crate::games::tencent::stats::Stats;
use crate::say;
use crate::search::limits;
use crate::search::width::{Schedule, TimeBudget, WallClock};
use crate::search::{Comm, DepthStats, Objective, Traffic};
use clap::FromArgMatches;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The options only the contest's game takes (with its rules options).
#[derive(clap::Args)]
pub struct ContestOptions {
    /// Change the width at given depths: DEPTH:WIDTH,... (from depth DEPTH, 0-based, on; e.g.
    /// 50:180000,300:175000). Replays a --time-budget run's record exactly.
    #[arg(long, value_name = "SCHEDULE", conflicts_with = "time_budget", value_parser = parse_schedule)]
    width_changes: Option<Schedule>,
    /// Keep the first --from-piece pieces of this record (replayed by the rules, --judge's if
    /// given) and search only the rest of the game: other settings, a wider beam or the
    /// endgame tried on the end of a long run without repeating its start.
    #[arg(long, value_name = "RECORD", requires = "from_piece")]
    from_record: Option<PathBuf>,
    /// How many pieces of --from-record to keep (the search places the next one on; its width
    /// changes and time budget count from there).
    #[arg(long, value_name = "N", requires = "from_record")]
    from_piece: Option<usize>,
    /// Spread the search over the processes of an MPI job (`mpirun -np 4 solve --distributed
    /// ...`, with a binary built with `--features mpi`; see docs/SCALING.md); without MPI, one
    /// process. The record is the same as without this option, for any number of processes
    /// and threads.
    #[arg(long)]
    distributed: bool,
}

/// The contest's default beam width.
pub const DEFAULT_WIDTH: usize = 20_000;

/// `solve`'s options as the contest's game reads them: every game's, and its own.
struct Args<'a> {
    common: &'a SolveArgs,
    eval: &'a EvalOptions,
    contest: ContestOptions,
    rules: RulesOptions,
}

impl std::ops::Deref for Args<'_> {
    type Target = SolveArgs;
    fn deref(&self) -> &SolveArgs {
        self.common
    }
}

/// The options the contest's game adds to `solve`.
pub fn options(command: clap::Command) -> clap::Command {
    use clap::Args as _;
    let command = RulesOptions::augment_args(ContestOptions::augment_args(command));
    EvalOptions::augment_args(command)
}

/// The contest's solve, in this process or as one of `run.comm`'s (`--distributed`): process
/// 0 writes the record and the summary.
pub fn solve(run: &Solve, matches: &clap::ArgMatches) -> Result<(), CliError> {
    let parsed = |e: clap::Error| CliError::usage(e.to_string());
    let args = Args {
        common: run.args,
        eval: &run.eval,
        contest: ContestOptions::from_arg_matches(matches).map_err(parsed)?,
        rules: RulesOptions::from_arg_matches(matches).map_err(parsed)?,
    };
    solve_with(&args, run.comm)
}

/// The contest's solve, in this process or as one of `comm`'s (`--distributed`): process 0
/// writes the record and the summary.
fn solve_with(args: &Args, comm: Option<&dyn Comm>) -> Result<(), CliError> {
    let processes = comm.map_or(1, |c| c.size());
    let inputs = check_options(args, processes).and_then(|(input, rules, widest)| {
        let (sequence, params, kept) = read_inputs(args, input, rules)?;
        // The beam alone was checked before the file was read; with it read, its tables count.
        let held = input_bytes(sequence.len(), &params);
        let share = widest.div_ceil(processes);
        args.search
            .check_memory_with(share, limits::BYTES_PER_STATE, held)?;
        Ok((
            rules,
            widest,
            sequence,
            params,
            kept,
            args.search.pool(widest)?,
        ))
    });
    let (rules, widest, sequence, params, kept, pool) = match comm {
        Some(comm) => distributed::agree(comm, inputs)?,
        None => inputs?,
    };
    if comm.is_some_and(|c| c.rank() != 0) {
        pool.install(|| search(args, &sequence, &params, &mut |_| {}, comm));
        return Ok(());
    }
    // Once every input is read and valid: an error is then the only line printed.
    let held = input_bytes(sequence.len(), &params);
    if !args.quiet {
        args.search
            .print_estimate_with(widest.div_ceil(processes), limits::BYTES_PER_STATE, held);
    }
    let start = Instant::now();
    // The record goes out as the search decides it, each piece checked by the rules engine
    // first: a game of any length is never held whole. An interrupt writes out the pieces
    // decided so far.
    let out = record_out(args)?;
    let mut writer =
        RecordWriter::new(&sequence, rules, &params.start, &kept, out).map_err(record_failed)?;
    let mut failed = None;
    let (solution, traffic) = pool.install(|| {
        let decided = &mut |placements: &[Placement]| {
            if failed.is_none() {
                failed = writer.placements(placements).err();
            }
        };
        search(args, &sequence, &params, decided, comm)
    });
    let search_time = start.elapsed();
    if let Some(e) = failed {
        return Err(record_failed(e));
    }
    writer
        .placements(&solution.placements)
        .map_err(record_failed)?;
    let (report, stats) = writer.finish(solution.score).map_err(record_failed)?;

    let wall = start.elapsed();
    if let Some(path) = &args.json {
        let summary = Summary {
            report: &report,
            stats: &stats,
            solution: &solution,
            params: &params,
            search_seconds: search_time.as_secs_f64(),
            wall_seconds: wall.as_secs_f64(),
            widest,
            held,
            traffic: traffic.as_ref(),
        };
        write_json(args, path, &summary)?;
    }
    if !args.quiet {
        if let Some(traffic) = &traffic {
            say!("{}", distributed::describe(traffic));
        }
        print_summary(&report, &solution, &params, search_time.as_secs_f64());
    }
    Ok(())
}

/// Standard output for the record, written as the search decides it: an interrupt writes out
/// the pieces decided so far and says how to go on from them.
fn record_out(args: &Args) -> Result<PieceOut, CliError> {
    let input = sequence_file(&args.input)?.display().to_string();
    PieceOut::install(move |pieces| match pieces {
        0 => "interrupted before any piece was decided: nothing written".to_string(),
        n => format!(
            "interrupted: the record's first {n} pieces are written, each checked by the rules \
             engine; go on from them with `solve {input} --from-record RECORD --from-piece {n} \
             > ANOTHER_FILE` (RECORD: the file this run's output went to)"
        ),
    })
    .map_err(|e| CliError::internal(format!("cannot watch for Ctrl-C: {e}")))
}

/// The error of a record that could not be written out or checked: a closed stdout ends the
/// program quietly, as the other binaries' writes do.
fn record_failed(e: SolveError) -> CliError {
    match e {
        SolveError::Write(e) => stdout_failed(e, "the record"),
        e => CliError::internal(e),
    }
}

/// Checks every option against its limits before any file is read: the sequence file, the
/// rules, and the widest beam the search may hold (the budget's cap, else the widest
/// scheduled), which must fit in memory.
fn check_options<'a>(
    args: &'a Args,
    processes: usize,
) -> Result<(&'a PathBuf, Rules, usize), CliError> {
    let input = sequence_file(&args.input)?;
    let beam_width = args.beam_width.unwrap_or(DEFAULT_WIDTH);
    let contest = &args.contest;
    let widths = [
        ("--beam-width", beam_width),
        ("--max-beam-width", args.max_beam_width),
    ];
    let scheduled = contest.width_changes.iter().flat_map(|s| &s.0);
    for (option, width) in widths
        .into_iter()
        .chain(scheduled.map(|&(_, w)| ("--width-changes", w)))
    {
        check_width(option, width)?;
    }
    let rules = args.rules.rules()?;
    args.search.check()?;
    args.eval.check()?;
    if args.pieces == Some(0) {
        return Err(CliError::usage("--pieces must be at least 1"));
    }
    // The widest beam the search may hold: the budget's cap, else the widest scheduled.
    let widest = match args.time_budget {
        Some(_) => args.max_beam_width.max(beam_width),
        None => scheduled_widths(args).max().unwrap_or(beam_width),
    };
    // Each process of a distributed search holds its share of the beam.
    let share = widest.div_ceil(processes);
    args.search.check_memory(share, limits::BYTES_PER_STATE)?;
    if let Some(path) = &args.json {
        let [weights, policy] = args.eval.inputs();
        let inputs = [
            ("sequence file", Some(input.as_path())),
            ("record file", contest.from_record.as_deref()),
            weights,
            policy,
        ];
        check_output("--json", path, &inputs)?;
    }
    Ok((input, rules, widest))
}

/// The sequence (cut to --pieces), the search's parameters (weights, policy, the start a
/// --from-record gives) and the record's kept part.
fn read_inputs(
    args: &Args,
    input: &Path,
    rules: Rules,
) -> Result<(Vec<Kind>, Params, Record), CliError> {
    let beam_width = args.beam_width.unwrap_or(DEFAULT_WIDTH);
    let contest = &args.contest;
    let mut sequence = read_sequence(input)?;
    if let Some(n) = args.pieces {
        sequence.truncate(n);
    }
    let objective = args.search.objective_or(Objective::Score);
    let ranking = ranking(args.eval, objective)?;
    let (start, kept) = match (&contest.from_record, contest.from_piece) {
        (Some(path), Some(pieces)) => {
            let record = read_record(path)?;
            start_from(&sequence, &record, pieces, rules)
                .map_err(|e| CliError::usage(format!("--from-record {}: {e}", path.display())))?
        }
        _ => (UnderWay::default(), Record::default()),
    };
    // A change past the last depth would never happen: the schedule was meant for another game.
    let depths = rules
        .pieces_to_place(sequence.len())
        .saturating_sub(start.index);
    let mut changes = contest.width_changes.iter().flat_map(|s| &s.0);
    if let Some(&(depth, width)) = changes.find(|&&(d, _)| d >= depths) {
        return Err(CliError::usage(format!(
            "--width-changes {depth}:{width}: depth {depth} is past the last of the {depths} \
             depths this search has (depths count from 0 at the first piece searched)"
        )));
    }
    let params = Params {
        beam_width,
        width_changes: contest.width_changes.clone().unwrap_or_default(),
        time_budget: args.time_budget.map(|seconds| TimeBudget {
            seconds,
            max_width: args.max_beam_width,
        }),
        score_weight: ranking.score_weight,
        weights: ranking.weights,
        policy: ranking.policy,
        rules,
        start,
        objective,
    };
    Ok((sequence, params, kept))
}

/// The beam search with its progress; `decided` receives the placements as they are decided,
/// and the solution's are those after them. Over `comm`'s processes where given (the
/// progress then shows on process 0).
fn search(
    args: &Args,
    sequence: &[Kind],
    params: &Params,
    decided: &mut dyn FnMut(&[Placement]),
    comm: Option<&dyn Comm>,
) -> (Solution, Option<Traffic>) {
    let rules = params.rules;
    let total = rules.pieces_to_place(sequence.len());
    let first = params.start.index;
    let quiet = args.quiet || comm.is_some_and(|c| c.rank() != 0);
    let mut progress = Progress::new("piece", Some(total as u64), quiet, args.progress_every);
    let report = &mut |s: &DepthStats| {
        let piece = first + s.pieces;
        if piece.is_multiple_of(16) || piece == total {
            let message = format!(
                "best {} beam {} {:.1}M placements/s",
                s.best_score,
                s.beam_size,
                s.placements as f64 / progress.elapsed().max(1e-9) / 1e6
            );
            progress.update(piece as u64, &message);
        }
    };
    let found = match comm {
        Some(comm) => {
            let clock = WallClock::start();
            let (solution, traffic) =
                beam_search_distributed(sequence, params, comm, &clock, report, decided);
            (solution, Some(traffic))
        }
        None => (
            beam_search_streaming(sequence, params, report, decided),
            None,
        ),
    };
    progress.finish();
    found
}

/// What `--json` writes.
struct Summary<'a> {
    report: &'a Report,
    stats: &'a Stats,
    solution: &'a Solution,
    params: &'a Params,
    search_seconds: f64,
    wall_seconds: f64,
    widest: usize,
    /// Bytes the search holds whatever its width ([`input_bytes`]).
    held: u64,
    traffic: Option<&'a Traffic>,
}

fn write_json(args: &Args, path: &Path, s: &Summary) -> Result<(), CliError> {
    let (report, solution, params) = (s.report, s.solution, s.params);
    let rules = params.rules;
    let contest = &args.contest;
    let summary = serde_json::json!({
        "score": report.score,
        "pieces_locked": report.pieces_locked,
        "lines": report.lines,
        "clears": report.clears,
        "stats": s.stats,
        "beam_width": params.beam_width,
        "width_changes": solution.width_changes.to_string(),
        "time_budget_seconds": args.time_budget,
        "score_weight": params.score_weight,
        "objective": params.objective,
        "judge": rules.locks_in_mid_air(),
        "piece_limit": rules.piece_limit,
        "from_record": contest.from_record,
        "from_piece": contest.from_piece,
        "weights": params.weights,
        "policy": params.policy,
        "search_seconds": s.search_seconds,
        "wall_seconds": s.wall_seconds,
        "expanded": solution.stats.expanded,
        "placements": solution.stats.placements,
        "phase_seconds": solution.stats.seconds,
        "peak_memory_mib": peak_memory_mib(),
        "distributed": s.traffic,
        "expected_peak_memory_mib": limits::estimated_bytes_with(s.widest, limits::BYTES_PER_STATE, s.held) as f64 / (1u64 << 20) as f64,
    });
    write_file("--json", path, format!("{summary:#}\n"))?;
    Ok(())
}

fn print_summary(report: &Report, solution: &Solution, params: &Params, search_seconds: f64) {
    let rules = params.rules;
    let first = params.start.index;
    let [c1, c2, c3, c4] = report.clears;
    say!(
        "pieces locked: {}, lines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4})",
        report.pieces_locked,
        report.lines
    );
    if !solution.width_changes.0.is_empty() {
        say!(
            "width changes (replay with --beam-width {} --width-changes {}):",
            params.beam_width,
            solution.width_changes
        );
        for (depth, width) in &solution.width_changes.0 {
            say!("  from piece {}: {width}", first + depth + 1);
        }
    }
    say!(
        "beam width {}{}, score weight {}: {:.1} s, {} states expanded ({:.2} us each), {} placements",
        params.beam_width,
        if solution.width_changes.0.is_empty() { "" } else { " at first" },
        params.score_weight,
        search_seconds,
        solution.stats.expanded,
        search_seconds * 1e6 / solution.stats.expanded.max(1) as f64,
        solution.stats.placements
    );
    let phases = solution.stats.seconds;
    say!(
        "search phases: expand {:.2} s, select {:.2} s, advance {:.2} s",
        phases.expand,
        phases.select,
        phases.advance
    );
    if let Some(mib) = peak_memory_mib() {
        say!("peak memory: {mib:.0} MiB");
    }
    say!(
        "checked by the rules engine ({}): record valid, same score",
        rules.mode_name()
    );
    say!("Score = {}", report.score);
}

/// The beam's widths, the first and every scheduled one.
fn scheduled_widths<'a>(args: &'a Args) -> impl Iterator<Item = usize> + 'a {
    let changes = args.contest.width_changes.iter().flat_map(|s| &s.0);
    std::iter::once(args.beam_width.unwrap_or(DEFAULT_WIDTH)).chain(changes.map(|&(_, w)| w))
}

/// Peak resident memory of this process (Linux: VmHWM in /proc/self/status), for the summary.
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
