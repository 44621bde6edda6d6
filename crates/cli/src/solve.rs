//! `solve`, written once for every game. A game supplies what is its own ([`Solver`]): its
//! options and inputs, its side of the search's seam, and the plain engine that replays and
//! writes its record ([`Writer`]). Everything else is here, alike for every game: the shared
//! options read and checked once, the memory planned (the beam and the run's tables), the
//! worker pool or the processes of `--distributed`, the progress, the record streamed as the
//! search decides it and each piece checked first, Ctrl-C with the command that resumes the
//! run, the check of the whole record against the search's score, `--json` and the summary
//! ([`super::summary`]).

use super::args::SolveArgs;
use super::checkpoint;
use super::distributed;
use super::interrupt::{self, resume_advice, RecordOut};
use super::limits;
use super::progress::Pieces;
use super::registry::{Entry, GameCli};
use super::registry::{Given, Output, SolveRun};
use super::summary::Finished;
/// What a game's record writer implements and may use, beside [`Solver`].
pub use super::writer::{end_lines, LinesOut, Verdict, Writer};
use super::EXIT_INVALID;
use super::{check_output, check_width, stdout_failed, CliError, EvalOptions};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tetris_kit::text::plural;
use tetris_search::width::WallClock;
use tetris_search::{beam_search, Comm, DepthStats, Game, Options, Processes, Run, Width};

/// A game's side of `solve` (a textbook's strategy: what the one pipeline asks of each game).
pub trait Solver: GameCli {
    /// The problem instance: what the game read and checked (its sequence, weights, start),
    /// which its search and its record writer borrow.
    type Instance: Sync;
    /// The game on the search's seam.
    type Search<'p>: Game
    where
        Self: 'p;
    /// The plain engine that replays each decided placement and writes its text.
    type Writer<'p>: Writer<Code = <Self::Search<'p> as Game>::Code> + Send
    where
        Self: 'p;

    /// Checks the game's own options and reads its inputs into its instance; the shared
    /// options are checked already. `settings.from` asks for a record's first pieces to be
    /// kept (`--from-record`).
    fn plan(
        &self,
        settings: &SolveSettings,
        options: &Self::SolveOptions,
    ) -> Result<Plan<Self::Instance>, CliError>;

    /// The search over `instance`, and where it begins: after the kept pieces, with their
    /// score.
    fn search<'p>(
        &'p self,
        instance: &'p Self::Instance,
    ) -> (Self::Search<'p>, Run<<Self::Search<'p> as Game>::State>);

    /// The record's writer: the header and the kept pieces first, then the search's.
    fn writer<'p>(&'p self, instance: &'p Self::Instance) -> Self::Writer<'p>;
}

/// A run's plan (a textbook's execution plan): the game's instance, with what the pipeline
/// needs of it to plan the memory, the record and the progress.
pub struct Plan<I> {
    pub instance: I,
    /// Peak bytes a state of the beam takes (see [`limits::estimated_bytes`]).
    pub bytes_per_state: u64,
    /// Bytes the run holds for its input beside the beam, whatever its width (the sequence,
    /// the game's tables: [`limits::estimated_bytes_with`]).
    pub input_bytes: u64,
    /// What a record cut after a whole piece needs to be whole (the contest's newline).
    pub closing: &'static str,
    /// Pieces the record starts with (`--from-record`): the search's first depth places the
    /// next one.
    pub kept: usize,
    /// The run's planned depths are an estimate (a game that ends at a level or a line
    /// count): the progress says "about".
    pub about: bool,
    /// The game starts a search from a record's first pieces (`--from-record`): an
    /// interrupted run says how to go on.
    pub resumable: bool,
    /// The files the run reads, which no output may overwrite.
    pub inputs: Vec<(&'static str, PathBuf)>,
}

/// A `solve` run's settings as a game's [`Solver::plan`] reads them (a textbook's validated
/// configuration): the shared options, checked, with the evaluation options the game takes.
pub struct SolveSettings<'a> {
    pub args: &'a SolveArgs,
    pub eval: &'a EvalOptions,
    /// `--from-record`'s file and `--from-piece`'s count.
    pub from: Option<(&'a Path, usize)>,
    /// The command line as given (the program's name first), for the resume command.
    pub(crate) command_line: &'a [OsString],
    /// Every option's value, for a checkpoint's identity of the run.
    pub(crate) given: &'a Given,
    /// The games the binary plays, this one among them: for what names another game.
    pub games: &'a [&'a dyn Entry],
}

impl SolveSettings<'_> {
    /// The sequence file, for a game played on one. A missing file named like a unit of time
    /// is most likely the second word of `--time-budget 15 min`.
    pub fn sequence_file(&self) -> Result<&Path, CliError> {
        let Some(input) = &self.args.input else {
            return Err(CliError::usage("solve needs a piece sequence file"));
        };
        let units = [
            "s", "sec", "secs", "seconds", "m", "min", "mins", "minutes", "h", "hours",
        ];
        let name = input.to_string_lossy();
        if !input.exists() && units.contains(&name.as_ref()) {
            return Err(CliError::usage(format!(
                "no sequence file {name:?}: a time takes its unit without a space (--time-budget 15m)"
            )));
        }
        Ok(input)
    }

    /// The sequence file read, cut to `--pieces`.
    pub fn sequence(&self) -> Result<Vec<tetris_kit::piece::Kind>, CliError> {
        let mut sequence = super::read_sequence(self.sequence_file()?)?;
        if let Some(n) = self.args.pieces {
            sequence.truncate(n);
            // The memory plan counts the pieces kept, not the file's.
            sequence.shrink_to_fit();
        }
        Ok(sequence)
    }

    /// Refuses a `--from-record` of fewer than the `--from-piece` pieces to keep (`have`): it
    /// does not replay that far, an invalid record as any other that does not (exit 1).
    pub(crate) fn check_kept(&self, have: usize) -> Result<(), CliError> {
        match self.from {
            Some((_, wanted)) if have < wanted => Err(self.from_record_invalid(format!(
                "the record has only {}, fewer than the {wanted} to keep",
                plural(have, "piece")
            ))),
            _ => Ok(()),
        }
    }

    /// The error of a `--from-record` whose first pieces do not replay: the record is invalid
    /// (exit 1), as `check` would say.
    pub fn from_record_invalid(&self, e: impl std::fmt::Display) -> CliError {
        let path = self.from.map_or(Path::new(""), |(p, _)| p);
        CliError {
            message: format!("--from-record {}: {e}", path.display()),
            code: EXIT_INVALID,
        }
    }
}

impl SolveRun<'_> {
    /// [`pipeline`] of `game` with its options: the one pipeline every game's `solve` is.
    /// `eval` is what the game takes of the evaluation options (checked here, like the
    /// shared options).
    pub fn run<S: Solver>(
        &self,
        game: &S,
        options: &S::SolveOptions,
        eval: &EvalOptions,
    ) -> Result<(), CliError> {
        let settings = SolveSettings {
            args: self.args,
            eval,
            from: (self.args.from_record.as_deref()).zip(self.args.from_piece),
            command_line: self.command_line,
            given: &self.given,
            games: self.games,
        };
        pipeline(game, &settings, options, self.comm, (self.output)())
    }
}

/// `solve` of `game`: in this process, or as one of `comm`'s (`--distributed`; process 0 then
/// writes the record and the summary). `settings` are the shared options, `options` the
/// game's own.
pub(crate) fn pipeline<S: Solver>(
    game: &S,
    settings: &SolveSettings,
    options: &S::SolveOptions,
    comm: Option<&dyn Comm>,
    output: Output,
) -> Result<(), CliError> {
    let processes = comm.map_or(1, |c| c.size());
    let plan = agree(
        comm,
        check_settings(settings).and_then(|()| game.plan(settings, options)),
    )?;
    let (search, run) = game.search(&plan.instance);
    let setup = setup(settings, &plan, game.default_width(), run.depths, processes);
    let (width, share, pool) = agree(comm, setup)?;
    let args = settings.args;
    let inputs = plan.inputs.as_slice();
    let run_is = (game.id(), settings.given, inputs, comm);
    let saving = checkpoint::Saving::plan(run_is, args, &search, run.depths)?;
    if let Some(comm) = comm.filter(|c| c.rank() != 0) {
        return other_process(&search, &run, (&width, &pool), comm, &saving);
    }
    let processes = comm.map_or(Processes::One, Processes::Many);
    let clock = WallClock::start();
    if !args.quiet {
        (args.search).print_estimate_with(share, plan.bytes_per_state, plan.input_bytes);
    }
    let began = Instant::now();
    let out = record_out(output, settings, &plan)
        .and_then(|out| Ok((started(game, &plan, &out, saving.decided_before())?, out)));
    let (mut writer, out) = agree(comm, out)?;
    let mut checkpoints = saving.writer(Some(&out), settings.command_line, plan.kept, args.quiet);
    let mut progress = Pieces::new(args, (plan.kept, run.planned), plan.about);
    interrupt::polled(saving.writes());
    let (line, traffic) = pool.install(|| {
        // The writer's estimate of the run's end, as of the pieces decided, for the progress.
        let expected = std::cell::Cell::new(None);
        let report = &mut |s: &DepthStats| progress.depth(s, expected.get());
        let mut stream = streamed(&mut writer, &out, &expected);
        let decided = &mut |codes: &[_]| {
            saving.log(codes);
            stream(codes);
        };
        let options = Options::new(&width).clock(&clock).processes(processes);
        let options = saving.options(options, &mut checkpoints);
        let line = beam_search(&search, &run, options.progress(report).decided(decided));
        let traffic = line.traffic;
        (line, traffic)
    });
    interrupt::polled(false);
    ended(line.stopped)?;
    progress.finish(&line.stats);
    let search_seconds = began.elapsed().as_secs_f64();
    let verdict = writer.finish(&line, &out)?;
    let expected = limits::estimated_bytes_with(share, plan.bytes_per_state, plan.input_bytes);
    let finished = Finished {
        game: game.id(),
        args,
        from: settings.from,
        beam_width: width.beam_width,
        objective: run.objective,
        stats: &line.stats,
        changes: &line.width_changes,
        traffic,
        kept: plan.kept,
        search_seconds,
        wall_seconds: began.elapsed().as_secs_f64(),
        expected_bytes: expected,
    };
    finished.report(verdict)
}

/// Process `comm.rank()` (not 0) of a distributed run: its share of the search of `run`, as
/// `width` says, on `pool`'s threads, with its files of `saving`'s checkpoints; it prints
/// nothing.
fn other_process<G: Game>(
    search: &G,
    run: &Run<G::State>,
    (width, pool): (&Width, &rayon::ThreadPool),
    comm: &dyn Comm,
    saving: &checkpoint::Saving<G::Code>,
) -> Result<(), CliError> {
    // Process 0's record started.
    distributed::agree(comm, Ok(()))?;
    let mut checkpoints = saving.writer(None, &[], 0, true);
    interrupt::polled(saving.writes());
    let clock = WallClock::start();
    let line = pool.install(|| {
        let options = Options::new(width).clock(&clock);
        let options = options.processes(Processes::Many(comm));
        beam_search(search, run, saving.options(options, &mut checkpoints))
    });
    ended(line.stopped)
}

/// The record's writer, its start written (the header, the pieces kept from --from-record),
/// then the pieces `decided` by the run a checkpoint resumes.
fn started<'p, S: Solver>(
    game: &'p S,
    plan: &'p Plan<S::Instance>,
    out: &RecordOut,
    decided: Option<Vec<<S::Search<'p> as Game>::Code>>,
) -> Result<S::Writer<'p>, CliError> {
    let mut writer = game.writer(&plan.instance);
    writer.start(out).and_then(|()| flushed(out))?;
    if let Some(decided) = decided {
        writer.pieces(&decided, out)?;
    }
    Ok(writer)
}

/// The beam's widths, the share of its widest this process holds, and the worker pool, once
/// `--json` is checked against the run's inputs and the share's memory against this machine's;
/// last, an earlier run's `--json` file is removed, as the run is sure to start.
fn setup<P>(
    settings: &SolveSettings,
    plan: &Plan<P>,
    default: usize,
    depths: usize,
    processes: usize,
) -> Result<(Width, usize, rayon::ThreadPool), CliError> {
    let (width, widest) = beam(settings, default, depths)?;
    let inputs: Vec<(&str, Option<&Path>)> = (plan.inputs.iter())
        .map(|(what, path)| (*what, Some(path.as_path())))
        .collect();
    if let Some(path) = &settings.args.json {
        check_output("--json", path, &inputs)?;
    }
    // Each process of a distributed search holds its share of the beam.
    let share = widest.div_ceil(processes);
    let args = settings.args;
    // Under a time budget the widest beam is the budget's cap, which the refusal names.
    let cap = args.width.cap(widest);
    let (per_state, input) = (plan.bytes_per_state, plan.input_bytes);
    (args.search).check_memory_capped(cap, share, per_state, input)?;
    let pool = args.search.pool(widest)?;
    if let Some(path) = &args.json {
        super::remove_earlier_output("--json", path)?;
    }
    Ok((width, share, pool))
}

/// Where the record goes, guarded: Ctrl-C or SIGTERM ends it after a whole piece, with the
/// command that resumes the run.
fn record_out<P>(
    output: Output,
    settings: &SolveSettings,
    plan: &Plan<P>,
) -> Result<RecordOut, CliError> {
    let advice = resume_advice(settings.command_line, plan.resumable);
    RecordOut::guarded(output, plan.closing, advice)
        .map_err(|e| CliError::internal(format!("cannot watch for Ctrl-C: {e}")))
}

/// What takes the pieces the search decides: each replayed and written by `writer`. A piece
/// that does not replay, or a record that cannot be written (a full disk, a closed pipe),
/// ends the run at once: the search would otherwise go on for nothing. The record is flushed
/// with the first pieces decided, then at most once a second (a narrow beam decides pieces
/// every few microseconds).
fn streamed<'a, W: Writer>(
    writer: &'a mut W,
    out: &'a RecordOut,
    expected: &'a std::cell::Cell<Option<u64>>,
) -> impl FnMut(&[W::Code]) + 'a {
    let mut flushed_at: Option<Instant> = None;
    move |codes| {
        let due = flushed_at.is_none_or(|at| at.elapsed().as_secs_f64() >= 1.0);
        let mut written = writer.pieces(codes, out);
        expected.set(writer.expected_pieces());
        if due {
            written = written.and_then(|()| flushed(out));
            flushed_at = Some(Instant::now());
        }
        if let Err(e) = written {
            super::exit_now(e);
        }
    }
}

/// The end of a search that stopped after the checkpoint an interrupt asked for (`stopped`):
/// the exit code of the signal, all said already.
fn ended(stopped: bool) -> Result<(), CliError> {
    match stopped {
        true => Err(CliError::reported(
            128 + interrupt::interrupted().unwrap_or(signal_hook::consts::SIGTERM),
        )),
        false => Ok(()),
    }
}

/// Whether every process got this far ([`distributed::agree`]); this process's own result
/// where it runs alone.
fn agree<T>(comm: Option<&dyn Comm>, result: Result<T, CliError>) -> Result<T, CliError> {
    match comm {
        Some(comm) => distributed::agree(comm, result),
        None => result,
    }
}

/// What the pieces written so far become once flushed: an error that ends the run where the
/// record cannot be written.
fn flushed(out: &RecordOut) -> Result<(), CliError> {
    out.flush().map_err(|e| stdout_failed(e, "the record"))
}

/// Refuses the shared options' values no search can use, before any file is read.
fn check_settings(settings: &SolveSettings) -> Result<(), CliError> {
    let args = settings.args;
    if let Some(width) = args.beam_width {
        check_width("--beam-width", width)?;
    }
    args.width.check()?;
    args.search.check()?;
    settings.eval.check()?;
    let [weights, policy] = settings.eval.inputs();
    super::refuse_stdin_twice(&[
        ("sequence file", args.input.as_deref()),
        weights,
        policy,
        ("record file", args.from_record.as_deref()),
    ])?;
    if args.pieces == Some(0) {
        return Err(CliError::usage("--pieces must be at least 1"));
    }
    Ok(())
}

/// The beam's widths over a search of `depths` depths, and the widest it may hold.
fn beam(
    settings: &SolveSettings,
    default: usize,
    depths: usize,
) -> Result<(Width, usize), CliError> {
    let args = settings.args;
    args.width.width(args.beam_width.unwrap_or(default), depths)
}
