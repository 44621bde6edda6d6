//! The games as the binaries play them: the one trait a game implements for `solve`, `check`,
//! `gen` and `play`, and the command line of a binary built from a list of games, each game
//! adding its own options and refusing the others'.

use super::errors::{clap_error, CliError};
use super::options::{EvalOptions, SearchOptions};
use crate::search::Comm;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Command};
use std::ffi::OsString;
use std::path::PathBuf;

/// A game as the binaries play it. A game adds its options to a binary's command (the
/// `*_options` methods: clap arguments, with the same id where two games share one) and
/// receives the parsed command line; an option of another game given on the command line is
/// refused before the game is called.
pub trait GameCli: Sync {
    /// `--game`'s value for this game (`nes`).
    fn id(&self) -> &'static str;
    /// The game as messages name it (`NES Tetris (--game nes)`).
    fn name(&self) -> &'static str;
    /// One line for `--game`'s help.
    fn about(&self) -> &'static str;
    /// The beam width of `solve` without `--beam-width`.
    fn default_width(&self) -> usize;
    /// The options this game adds to `solve`.
    fn solve_options(&self, options: Command) -> Command {
        options
    }
    /// `solve` for this game: the record on stdout, the summary on stderr.
    fn solve(&self, run: &Solve, options: &ArgMatches) -> Result<(), CliError>;
    /// The options this game adds to `check`.
    fn check_options(&self, options: Command) -> Command {
        options
    }
    /// `check` for this game: the report on stdout; an invalid record is
    /// `CliError::reported(EXIT_INVALID)` once reported.
    fn check(&self, run: &Check, options: &ArgMatches) -> Result<(), CliError>;
    /// The options this game adds to `gen`.
    fn gen_options(&self, options: Command) -> Command {
        options
    }
    /// `gen` for this game: the text it prints (a sequence file, or what names a game of
    /// this kind).
    fn generate(&self, options: &ArgMatches) -> Result<String, CliError>;
    /// Whether `play` makes a page for this game.
    fn has_page(&self) -> bool {
        false
    }
    /// `play` for this game: the playable page (called only where [`GameCli::has_page`]).
    fn page(&self, _run: &Play) -> Result<String, CliError> {
        Err(CliError::usage(format!(
            "{} has no playable page",
            self.name()
        )))
    }
}

/// What `solve` asks of every game.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Piece sequence file (e.g. inputs/tencent.txt); none for a game whose start is named by
    /// options (NES: --start-level and --title-wait).
    pub input: Option<PathBuf>,
    /// States kept at each depth of the beam (each game's default is listed under --game).
    /// With --time-budget: the width of the first 50 pieces.
    #[arg(long, value_name = "N")]
    pub beam_width: Option<usize>,
    /// Finish within this wall-clock time (seconds, or with a unit: 90s, 15m, 1.5h): the width
    /// is re-chosen every 250 pieces from the measured speed. The widths chosen are printed
    /// (and written to --json) as a schedule for --width-changes.
    #[arg(long, value_name = "TIME", value_parser = super::values::parse_duration)]
    pub time_budget: Option<f64>,
    /// The widest beam --time-budget may choose (the memory this takes is printed before the
    /// search).
    #[arg(long, default_value_t = 1_000_000, requires = "time_budget")]
    pub max_beam_width: usize,
    /// Change the width at given depths: DEPTH:WIDTH,... (from depth DEPTH, 0-based, on; e.g.
    /// 50:180000,300:175000). Replays a --time-budget run's record exactly.
    #[arg(long, value_name = "SCHEDULE", conflicts_with = "time_budget", value_parser = super::values::parse_schedule)]
    pub width_changes: Option<crate::search::width::Schedule>,
    /// Keep the first --from-piece pieces of this record (replayed by the rules) and search
    /// only the rest of the game: the way on from an interrupted run, or other settings tried
    /// on the end of a long run without repeating its start.
    #[arg(long, value_name = "RECORD", requires = "from_piece")]
    pub from_record: Option<PathBuf>,
    /// How many pieces of --from-record to keep (the search places the next one on; its width
    /// changes and time budget count from there).
    #[arg(long, value_name = "N", requires = "from_record")]
    pub from_piece: Option<usize>,
    /// Spread the search over the processes of an MPI job (`mpirun -np 4 solve --distributed
    /// ...`, with a binary built with `--features mpi`; see docs/SCALING.md); without MPI, one
    /// process. The record is the same as without this option, for any number of processes
    /// and threads.
    #[arg(long)]
    pub distributed: bool,
    #[command(flatten)]
    pub search: SearchOptions,
    /// Solve only the first N pieces.
    #[arg(long)]
    pub pieces: Option<usize>,
    /// Also write a JSON summary (score, lines, timings, parameters) to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(long)]
    pub quiet: bool,
    /// When stderr is not a terminal (a log file, nohup, CI), where the progress bar does not
    /// draw: print a line of progress this often instead (seconds, or 90s, 15m, 1.5h; 0 = every
    /// 16 pieces).
    #[arg(long, value_name = "TIME", value_parser = super::values::parse_interval, default_value = "60s")]
    pub progress_every: f64,
}

/// A `solve` run as a game receives it.
pub struct Solve<'a> {
    pub args: &'a SolveArgs,
    /// The evaluation options, where the game takes them.
    pub eval: EvalOptions,
    /// The processes of a `--distributed` run (`None`: this process alone).
    pub comm: Option<&'a dyn Comm>,
    /// The command line as given (the program's name first).
    pub command_line: &'a [OsString],
    /// Where the record goes (standard output, or a test's writer).
    pub output: &'a (dyn Fn() -> super::solve::Output + Sync),
}

impl Solve<'_> {
    /// [`super::solve::solve`] of `game`: the one pipeline every game's `solve` is.
    pub fn run<S: super::solve::Solver>(
        &self,
        game: &S,
        options: &ArgMatches,
    ) -> Result<(), CliError> {
        let shared = super::solve::Shared {
            args: self.args,
            eval: &self.eval,
            from: (self.args.from_record.as_deref()).zip(self.args.from_piece),
            command_line: self.command_line,
        };
        super::solve::solve(game, &shared, options, self.comm, (self.output)())
    }
}

/// What `check` asks of every game.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Piece sequence file (e.g. inputs/tencent.txt); for a game whose record names its start
    /// (NES), the record file.
    pub input: PathBuf,
    /// Move record file; `-` reads it from standard input, e.g. `solve input.txt | check
    /// input.txt -`.
    pub record: Option<PathBuf>,
    /// Print one JSON object instead of the human summary.
    #[arg(long)]
    pub json: bool,
}

/// A `check` run as a game receives it.
pub struct Check<'a> {
    pub args: &'a CheckArgs,
}

/// A `play` run as a game receives it.
pub struct Play<'a> {
    pub sequence: &'a std::path::Path,
    pub compare: Option<&'a std::path::Path>,
}

/// A binary's command line with the options of every game in a list.
pub struct GameCommand<'g> {
    command: Command,
    games: &'g [&'g dyn GameCli],
    /// The options games added, each with the games (by index) that take it.
    owners: Vec<(clap::Id, Vec<usize>)>,
}

impl<'g> GameCommand<'g> {
    /// `base` (the options every game takes) with `--game` (one of `games`, `default` unless
    /// given) and each game's options as `add` gives them.
    pub fn new(
        base: Command,
        games: &'g [&'g dyn GameCli],
        default: &'static str,
        add: impl Fn(&dyn GameCli, Command) -> Command,
    ) -> GameCommand<'g> {
        let values: Vec<PossibleValue> = games
            .iter()
            .map(|g| PossibleValue::new(g.id()).help(g.about()))
            .collect();
        let game = Arg::new("game")
            .long("game")
            .value_name("GAME")
            .value_parser(PossibleValuesParser::new(values))
            .default_value(default)
            .help("The game");
        let mut command = base.arg(game);
        let mut owners: Vec<(clap::Id, Vec<usize>)> = Vec::new();
        for (index, &g) in games.iter().enumerate() {
            let own = add(g, Command::new(g.id()));
            for arg in own.get_arguments() {
                let id = arg.get_id().clone();
                match owners.iter_mut().find(|(o, _)| *o == id) {
                    Some((_, takers)) => takers.push(index),
                    None => {
                        if command.get_arguments().all(|a| a.get_id() != &id) {
                            command = command.arg(arg.clone());
                        }
                        owners.push((id, vec![index]));
                    }
                }
            }
            for group in own.get_groups() {
                if command.get_groups().all(|c| c.get_id() != group.get_id()) {
                    command = command.group(group.clone());
                }
            }
        }
        // The options in the order they were added (clap's derive numbers each struct's from
        // 0, which would interleave the games'), every game's own under a heading naming the
        // games that take them, `--game` first.
        let ids: Vec<clap::Id> = command
            .get_arguments()
            .map(|a| a.get_id().clone())
            .collect();
        for (order, id) in ids.iter().enumerate() {
            let heading = owners.iter().find(|(o, _)| o == id).map(|(_, takers)| {
                let names: Vec<&str> = takers.iter().map(|&t| games[t].id()).collect();
                format!("With --game {}", listed(&names))
            });
            let order = if id == "game" { 0 } else { order + 1 };
            command = command.mut_arg(id, |a| {
                let a = a.display_order(order);
                match heading {
                    Some(heading) => a.help_heading(heading),
                    None => a.help_heading(None::<&str>),
                }
            });
        }
        GameCommand {
            command,
            games,
            owners,
        }
    }

    /// The command, for its help and its changes.
    pub fn command(self, change: impl FnOnce(Command) -> Command) -> Self {
        GameCommand {
            command: change(self.command),
            ..self
        }
    }

    /// The command's help, as `--help` prints it.
    pub fn render_help(&self) -> String {
        self.command.clone().render_help().to_string()
    }

    /// The command line parsed: the game named and the options given, every option given
    /// being one that game takes. `None` after `--help` or `--version`, printed if `print`.
    pub fn parse(
        &self,
        args: impl IntoIterator<Item = OsString>,
        print: bool,
    ) -> Result<Option<(&'g dyn GameCli, ArgMatches)>, CliError> {
        let matches = match self.command.clone().try_get_matches_from(args) {
            Ok(matches) => matches,
            Err(e) if !e.use_stderr() => {
                if print {
                    let _ = e.print();
                }
                return Ok(None);
            }
            Err(e) => return Err(clap_error(&e)),
        };
        let id = matches.get_one::<String>("game").map_or("", String::as_str);
        let Some(index) = self.games.iter().position(|g| g.id() == id) else {
            return Err(CliError::usage(format!("no game {id:?}")));
        };
        self.refuse_others(&matches, index)?;
        Ok(Some((self.games[index], matches)))
    }

    /// Refuses an option given on the command line that game `index` does not take, naming
    /// the games that do.
    fn refuse_others(&self, matches: &ArgMatches, index: usize) -> Result<(), CliError> {
        for (id, takers) in &self.owners {
            if takers.contains(&index)
                || matches.value_source(id.as_str()) != Some(ValueSource::CommandLine)
            {
                continue;
            }
            let name = self
                .command
                .get_arguments()
                .find(|a| a.get_id() == id)
                .and_then(|a| a.get_long())
                .map_or_else(|| id.to_string(), |long| format!("--{long}"));
            let names: Vec<&str> = takers.iter().map(|&t| self.games[t].name()).collect();
            return Err(CliError::usage(format!(
                "{name} is an option of {}, not of {}",
                listed(&names),
                self.games[index].name()
            )));
        }
        Ok(())
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn listed(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The arguments of `options` (a command made from a `clap::Args` struct) named by `ids`:
/// for a game that takes only some of a shared group's options.
pub fn only(options: Command, ids: &[&str]) -> Vec<Arg> {
    options
        .get_arguments()
        .filter(|a| ids.contains(&a.get_id().as_str()))
        .cloned()
        .collect()
}

/// The refusal of a binary that plays only `game` asked for another of `games`, saying
/// which binaries play that one.
pub fn only_game(games: &[&dyn GameCli], game: &str, asked: &str) -> Result<(), CliError> {
    if asked == game {
        return Ok(());
    }
    let program = super::errors::program_name();
    let own = games
        .iter()
        .find(|g| g.id() == game)
        .map_or(game, |g| g.name());
    let Some(other) = games.iter().find(|g| g.id() == asked) else {
        return Err(CliError::usage(format!(
            "--game {asked}: {program} plays only {own}"
        )));
    };
    let mut by = vec!["`solve`", "`check`", "`gen`"];
    if other.has_page() {
        by.push("`play`");
    }
    Err(CliError::usage(format!(
        "{program} plays only {own}; {} is played by {} with `--game {asked}`",
        other.name(),
        listed(&by)
    )))
}
