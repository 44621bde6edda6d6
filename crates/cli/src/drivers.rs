//! The one driver of each binary that plays every game: `solve`, `check`, `gen` and `play`
//! read their command line from a list of games ([`Entry`], each a
//! [`super::registry::GameCli`]) and hand the run to the game named by `--game`.

use super::errors::{clap_error, exit_code, stdout_failed, CliError};
use super::files::{refuse_overwriting, write_file};
use super::registry::{Binary, Entry, GameCommand};
use super::registry::{CheckArgs, CheckRun, PlayRun, SolveArgs, SolveRun};
use clap::{Args, Command, FromArgMatches};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use tetris_kit::text::grouped;
use tetris_search::Comm;

/// `solve`'s `main`: the command line of this process, and under `--distributed` the
/// processes of an MPI job (every process reads the same arguments; process 0 alone prints
/// their errors).
pub fn solve_main(games: &[&dyn Entry]) -> std::process::ExitCode {
    if let Err(e) = super::errors::refuse_closed_stdout("the record") {
        return exit_code(Err(e));
    }
    // From the first moment: a signal while the inputs are read is reported, never silent.
    if let Err(e) = super::interrupt::watch_signals() {
        return exit_code(Err(CliError::internal(format!(
            "cannot watch for Ctrl-C: {e}"
        ))));
    }
    let command_line: Vec<OsString> = std::env::args_os().collect();
    let rank = super::distributed::launched_rank();
    // Before MPI starts: the line's errors are the launcher's process 0's to print, as
    // `--help` is.
    let parsed = match parse_solve(games, command_line, rank == 0) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => return exit_code(Ok(())),
        Err(e) => return exit_code(Err(super::distributed::once_per_job(e, rank))),
    };
    if parsed.args.distributed {
        return super::distributed::main(|comm| {
            let stdout = &|| Box::new(std::io::stdout()) as super::registry::Output;
            match parsed.solve(Some(comm), stdout) {
                Err(e) if comm.rank() != 0 => Err(CliError::reported(e.code)),
                other => other,
            }
        });
    }
    let refused = super::distributed::refuse_undistributed_job();
    exit_code(refused.and_then(|()| parsed.solve(None, &|| Box::new(std::io::stdout()))))
}

/// `solve`'s command line parsed once: the game named, the options every game takes, and
/// the whole parse, from which the game reads its own.
pub(crate) struct ParsedSolve<'g> {
    games: &'g [&'g dyn Entry],
    game: &'g dyn Entry,
    args: SolveArgs,
    matches: clap::ArgMatches,
    command_line: Vec<OsString>,
}

/// `solve`'s command line `command_line` (the program's name first) parsed, `None` after
/// `--help` or `--version` (printed where `print`).
pub(crate) fn parse_solve<'g>(
    games: &'g [&'g dyn Entry],
    command_line: Vec<OsString>,
    print: bool,
) -> Result<Option<ParsedSolve<'g>>, CliError> {
    let Some((game, matches)) = solve_command(games)?.parse(command_line.clone(), print)? else {
        return Ok(None);
    };
    let args = SolveArgs::from_arg_matches(&matches).map_err(|e| clap_error(&e))?;
    Ok(Some(ParsedSolve {
        games,
        game,
        args,
        matches,
        command_line,
    }))
}

impl ParsedSolve<'_> {
    /// Whether the line asks for `--distributed`, which the registry's tests check.
    #[cfg(test)]
    pub(crate) fn distributed(&self) -> bool {
        self.args.distributed
    }

    /// The game's solve over `comm`'s processes where given, the record written to what
    /// `output` makes.
    pub(crate) fn solve(
        &self,
        comm: Option<&dyn Comm>,
        output: &(dyn Fn() -> super::registry::Output + Sync),
    ) -> Result<(), CliError> {
        // `--distributed` in a process that is no MPI job's (a test's call) is a job of one.
        let solo = tetris_search::comm::Solo;
        let comm = comm.or(self.args.distributed.then_some(&solo as &dyn Comm));
        let run = SolveRun {
            args: &self.args,
            comm,
            command_line: &self.command_line,
            given: super::registry::given(&self.matches),
            output,
            games: self.games,
        };
        self.game.solve_parsed(&run, &self.matches)
    }
}

/// `solve` with the command line `args` (the program's name first), over `comm`'s processes
/// where given; `print` prints `--help` and `--version`.
pub fn solve(
    games: &[&dyn Entry],
    args: impl IntoIterator<Item = OsString>,
    comm: Option<&dyn Comm>,
    print: bool,
) -> Result<(), CliError> {
    solve_to(games, args, comm, print, &|| Box::new(std::io::stdout()))
}

/// [`solve`] with the record written to what `output` makes (a test's buffer) instead of
/// standard output.
pub fn solve_to(
    games: &[&dyn Entry],
    args: impl IntoIterator<Item = OsString>,
    comm: Option<&dyn Comm>,
    print: bool,
    output: &(dyn Fn() -> super::registry::Output + Sync),
) -> Result<(), CliError> {
    match parse_solve(games, args.into_iter().collect(), print)? {
        Some(parsed) => parsed.solve(comm, output),
        None => Ok(()),
    }
}

/// `solve`'s command line: what every game takes, then each game's own options.
pub fn solve_command<'g>(games: &'g [&'g dyn Entry]) -> Result<GameCommand<'g>, CliError> {
    let widths: Vec<String> = games
        .iter()
        .map(|g| format!("{} for {}", grouped(g.default_width() as u64), g.id()))
        .collect();
    let width_help = format!(
        "States kept at each depth of the beam: by default {}. With --time-budget: the width \
         of the first 50 pieces.",
        super::registry::listed(&widths.iter().map(String::as_str).collect::<Vec<_>>())
    );
    let ids: Vec<&str> = games.iter().map(|g| g.id()).collect();
    let notes: Vec<&str> = games
        .iter()
        .filter_map(|g| g.solve_from_record_help())
        .collect();
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    };
    let from_help = format!(
        "Keep the first --from-piece pieces of this record (replayed by the rules) and search \
         only the rest of the game. Every game takes it: {}{notes}. The way on from a run \
         interrupted where no checkpoint could be written, or other settings tried on the end \
         of a long run without repeating its start.",
        super::registry::listed(&ids)
    );
    let base = SolveArgs::augment_args(program("solve")).about(
        "Search a move record for a piece sequence; prints the record on stdout and a summary \
         ending in `Score = N` on stderr.",
    );
    let command = GameCommand::new(base, games, games[0].id(), Binary::Solve)?;
    Ok(command.command(|c| {
        c.mut_arg("beam_width", |a| a.help(width_help))
            .mut_arg("from_record", |a| a.help(from_help))
    }))
}

/// `check`'s `main`.
pub fn check_main(games: &[&dyn Entry]) -> std::process::ExitCode {
    exit_code(check(games, std::env::args_os()))
}

/// What `check --help` says of every game's checks: each game's errors where they differ
/// from the records of lines ([`GameCli::check_errors_help`]).
fn check_about(games: &[&dyn Entry]) -> String {
    let own: Vec<&str> = games.iter().filter_map(|g| g.check_errors_help()).collect();
    let lines = if own.is_empty() {
        "The records are text files of lines"
    } else {
        "The other games' records are text files of lines"
    };
    format!(
        "Replay a move record on a piece sequence and print its score (last line: `Score = N`).

An invalid record gets one error line.{} {lines}, and their errors name the file and the line \
first: `error: moves.txt:2: piece 1 (I), token 1 'x': ...`. `--json` prints one JSON object \
instead, of the form every game shares (docs/JSON.md): the same text, without `error: `, is \
its `error` field.

Exit code 0 for a valid record, 1 for an invalid one, 2 for unusable arguments or files (a \
record file that cannot be read gets its error on stderr and no score: no record was judged). \
Output its reader stops reading (`check ... | head`) ends the program quietly, with the same \
exit code: 1 for an invalid record, however little of its report was read.",
        own.iter().map(|o| format!(" {o}")).collect::<String>()
    )
}

/// `check` with the command line `args` (the program's name first).
pub fn check(
    games: &[&dyn Entry],
    args: impl IntoIterator<Item = OsString>,
) -> Result<(), CliError> {
    let about = check_about(games);
    let first = about.lines().next().unwrap_or_default().to_string();
    let base = CheckArgs::augment_args(program("check"))
        .about(first)
        .long_about(about);
    let command = GameCommand::new(base, games, games[0].id(), Binary::Check)?;
    let Some((game, matches)) = command.parse(args, true)? else {
        return Ok(());
    };
    let args = CheckArgs::from_arg_matches(&matches).map_err(|e| clap_error(&e))?;
    game.check_parsed(&CheckRun { args: &args, games }, &matches)
}

/// `gen`'s `main`.
pub fn gen_main(games: &[&dyn Entry]) -> std::process::ExitCode {
    let refused = super::errors::refuse_closed_stdout("the sequence");
    exit_code(refused.and_then(|()| gen(games, std::env::args_os())))
}

/// `gen` with the command line `args` (the program's name first).
pub(crate) fn gen(
    games: &[&dyn Entry],
    args: impl IntoIterator<Item = OsString>,
) -> Result<(), CliError> {
    let default = games[0].gen_help();
    let default = default.map_or(String::new(), |d| format!(" (with no options: {d})"));
    let base = program("gen").about(format!("Print a piece sequence file{default}."));
    let command = GameCommand::new(base, games, games[0].id(), Binary::Gen)?;
    let Some((game, matches)) = command.parse(args, true)? else {
        return Ok(());
    };
    let text = game.generate_parsed(&matches)?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failed(e, "the sequence"))
}

/// `play`'s `main`.
pub fn play_main(games: &[&dyn Entry]) -> std::process::ExitCode {
    exit_code(play(games, std::env::args_os()))
}

/// `play` with the command line `args` (the program's name first): the playable page of a
/// game that has one.
pub(crate) fn play(
    games: &[&dyn Entry],
    args: impl IntoIterator<Item = OsString>,
) -> Result<(), CliError> {
    let paged: Vec<&dyn Entry> = games.iter().copied().filter(|g| g.has_page()).collect();
    let Some(first) = paged.first() else {
        return Err(CliError::usage("no game has a playable page"));
    };
    let Some((game, matches)) = play_command(games, first.id())?.parse(args, true)? else {
        return Ok(());
    };
    if !game.has_page() {
        let names: Vec<String> = paged
            .iter()
            .map(|g| format!("{} (--game {})", g.id(), g.id()))
            .collect();
        return Err(CliError::usage(format!(
            "--game {}: play makes a page only for {}",
            game.id(),
            super::registry::listed(&names.iter().map(String::as_str).collect::<Vec<_>>())
        )));
    }
    let PlayArgs {
        sequence,
        compare,
        output,
    } = PlayArgs::from_arg_matches(&matches).map_err(|e| clap_error(&e))?;
    let inputs = [
        ("sequence file", Some(sequence.as_path())),
        ("record file (--compare)", compare.as_deref()),
    ];
    if output.as_deref().is_none_or(super::files::is_stdout) {
        super::errors::refuse_closed_stdout("the page")?;
    }
    refuse_overwriting("-o", output.as_deref(), &inputs)?;
    super::files::refuse_stdin_twice(&inputs)?;
    let html = game.page(&PlayRun {
        sequence: &sequence,
        compare: compare.as_deref(),
        games,
    })?;
    write_page(output.as_deref(), html)
}

/// What `play` asks of every game.
#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// Piece sequence file (letters IJLOSTZ; whitespace and commas ignored; `#` comments).
    #[arg(value_name = "INPUT")]
    sequence: PathBuf,
    /// A record of the same sequence (e.g. a solver's) whose board and score the page replays
    /// beside the player's, at the same piece, naming the winner at the end.
    #[arg(long, value_name = "RECORD_FILE")]
    compare: Option<PathBuf>,
    /// Write the page to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// `play`'s command line, `--game` set to `default` unless given.
fn play_command<'g>(
    games: &'g [&'g dyn Entry],
    default: &'static str,
) -> Result<GameCommand<'g>, CliError> {
    let base = PlayArgs::augment_args(program("play")).about(
        "Write a self-contained HTML page that plays a piece sequence in the browser (arrow \
         keys, P or Escape pauses) and hands out the player's record for `check`.",
    );
    // `--help` lists only the games with a page; another game's name is still read, to be
    // refused saying which games `play` makes a page for.
    let values: Vec<clap::builder::PossibleValue> = games
        .iter()
        .map(|g| {
            clap::builder::PossibleValue::new(g.id())
                .aliases(g.aliases())
                .help(g.about())
                .hide(!g.has_page())
        })
        .collect();
    let command = GameCommand::new(base, games, default, Binary::Play)?;
    Ok(command.command(|c| {
        c.mut_arg("game", |a| {
            a.value_parser(clap::builder::PossibleValuesParser::new(values))
        })
    }))
}

/// `play`'s page written to `output` (`-o`), else to standard output.
fn write_page(output: Option<&std::path::Path>, html: String) -> Result<(), CliError> {
    match output {
        Some(path) => write_file("--output", path, html),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(html.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| stdout_failed(e, "the page"))
        }
    }
}

/// The command line of a binary that plays one game and parses into `T`, its help changed
/// by `help`; a line it cannot take is reported by clap, which exits.
pub fn parse_command_line<T: clap::Parser>(help: impl FnOnce(Command) -> Command) -> T {
    let matches = help(T::command()).get_matches();
    T::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// A binary's command, with this package's version.
fn program(name: &'static str) -> Command {
    Command::new(name).version(env!("CARGO_PKG_VERSION"))
}
