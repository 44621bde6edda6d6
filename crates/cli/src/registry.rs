//! The games as the binaries play them: the one trait a game implements for `solve`, `check`,
//! `gen` and `play` (with the runs it receives, [`super::runs`]), and the command line of a
//! binary built from a list of games, each game adding its own options and refusing the others'.

pub use super::args::{CheckArgs, SolveArgs};
use super::errors::{clap_error, CliError};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Args, Command};
use std::ffi::OsString;
use tetris_search::Comm;

/// A game as the binaries play it. A game's options are clap structs ([`clap::Args`]) of its
/// own, one for each binary: the binaries add them to their command beside every other game's
/// (the same option in two games is the same struct, flattened by both), parse the command
/// line once, and hand the game its own as that type; an option of another game given on the
/// command line is refused before the game is called.
pub trait GameCli: Sync {
    /// The options this game adds to `solve`.
    type SolveOptions: clap::Args;
    /// The options this game adds to `check`.
    type CheckOptions: clap::Args;
    /// The options this game adds to `gen`.
    type GenOptions: clap::Args;

    /// `--game`'s value for this game (`nes`), the name of its module under `games`.
    fn id(&self) -> &'static str;
    /// Other values `--game` takes for this game, kept for the scripts that use them.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }
    /// The game as messages name it (`NES Tetris (--game nes)`).
    fn name(&self) -> &'static str;
    /// One line for `--game`'s help.
    fn about(&self) -> &'static str;
    /// The beam width of `solve` without `--beam-width`.
    fn default_width(&self) -> usize;
    /// `solve` for this game: the record on stdout, the summary on stderr.
    fn solve(&self, run: &SolveRun, options: &Self::SolveOptions) -> Result<(), CliError>;
    /// `check`'s help of this game's options, where it says more than their structs do.
    fn check_help(&self, options: Command) -> Command {
        options
    }
    /// `check` for this game: the report on stdout; an invalid record is
    /// `CliError::reported(EXIT_INVALID)` once reported.
    fn check(&self, run: &CheckRun, options: &Self::CheckOptions) -> Result<(), CliError>;
    /// `gen` for this game: the text it prints (a sequence file, or what names a game of
    /// this kind).
    fn generate(&self, options: &Self::GenOptions) -> Result<String, CliError>;
    /// Whether `play` makes a page for this game.
    fn has_page(&self) -> bool {
        false
    }
    /// `play` for this game: the playable page (called only where [`GameCli::has_page`]).
    fn page(&self, _run: &PlayRun) -> Result<String, CliError> {
        Err(CliError::usage(format!(
            "{} has no playable page",
            self.name()
        )))
    }
    /// What another game's reader adds to its error where the first line it found (as it
    /// quotes it) is a record of this game: whose record it is and how to check it
    /// (`NES Tetris: check it with `check --game nes RECORD``). `None` for any other line.
    fn record_hint(&self, _first_line: &str) -> Option<&'static str> {
        None
    }
    /// What `solve --help` says of this game's `--from-record`, where it differs from every
    /// game's (`NES: the record names its start, ...`).
    fn solve_from_record_help(&self) -> Option<&'static str> {
        None
    }
    /// What `check --help` says of this game's errors, where they are not the file and line
    /// first that the records of lines get (a sentence or more).
    fn check_errors_help(&self) -> Option<&'static str> {
        None
    }
    /// What `gen` prints with no options, where this game is the default (`the contest
    /// sequence`).
    fn gen_help(&self) -> Option<&'static str> {
        None
    }
}

/// The options of a game that takes none of its own in a binary.
#[derive(clap::Args, Debug, Default)]
pub struct NoOptions {}

/// A game in a binary's list of games, whatever the types of its options: what the drivers
/// hold of a [`GameCli`] (implemented for every one), which adds the game's options to a
/// binary's command and reads them back from its parse.
pub trait Entry: Sync {
    /// [`GameCli::id`].
    fn id(&self) -> &'static str;
    /// [`GameCli::aliases`].
    fn aliases(&self) -> &'static [&'static str];
    /// [`GameCli::name`].
    fn name(&self) -> &'static str;
    /// [`GameCli::about`].
    fn about(&self) -> &'static str;
    /// [`GameCli::default_width`].
    fn default_width(&self) -> usize;
    /// [`GameCli::has_page`].
    fn has_page(&self) -> bool;
    /// [`GameCli::page`].
    fn page(&self, run: &PlayRun) -> Result<String, CliError>;
    /// [`GameCli::record_hint`].
    fn record_hint(&self, first_line: &str) -> Option<&'static str>;
    /// [`GameCli::solve_from_record_help`].
    fn solve_from_record_help(&self) -> Option<&'static str>;
    /// [`GameCli::check_errors_help`].
    fn check_errors_help(&self) -> Option<&'static str>;
    /// [`GameCli::gen_help`].
    fn gen_help(&self) -> Option<&'static str>;
    /// `command` with the game's options of `binary`'s.
    fn add_options(&self, binary: Binary, command: Command) -> Command;
    /// `solve` with the game's options read from the parsed command line.
    fn solve_parsed(&self, run: &SolveRun, parsed: &ArgMatches) -> Result<(), CliError>;
    /// `check` with the game's options read from the parsed command line.
    fn check_parsed(&self, run: &CheckRun, parsed: &ArgMatches) -> Result<(), CliError>;
    /// `gen` with the game's options read from the parsed command line.
    fn generate_parsed(&self, parsed: &ArgMatches) -> Result<String, CliError>;
}

/// The binaries whose command lines take every game's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    Solve,
    Check,
    Gen,
    /// `play` takes only the options every game shares.
    Play,
}

/// A game's options of one type read from the parsed command line.
fn read<T: clap::FromArgMatches>(parsed: &ArgMatches) -> Result<T, CliError> {
    T::from_arg_matches(parsed).map_err(|e| clap_error(&e))
}

impl<G: GameCli> Entry for G {
    fn id(&self) -> &'static str {
        GameCli::id(self)
    }
    fn aliases(&self) -> &'static [&'static str] {
        GameCli::aliases(self)
    }
    fn name(&self) -> &'static str {
        GameCli::name(self)
    }
    fn about(&self) -> &'static str {
        GameCli::about(self)
    }
    fn default_width(&self) -> usize {
        GameCli::default_width(self)
    }
    fn has_page(&self) -> bool {
        GameCli::has_page(self)
    }
    fn page(&self, run: &PlayRun) -> Result<String, CliError> {
        GameCli::page(self, run)
    }
    fn record_hint(&self, first_line: &str) -> Option<&'static str> {
        GameCli::record_hint(self, first_line)
    }
    fn solve_from_record_help(&self) -> Option<&'static str> {
        GameCli::solve_from_record_help(self)
    }
    fn check_errors_help(&self) -> Option<&'static str> {
        GameCli::check_errors_help(self)
    }
    fn gen_help(&self) -> Option<&'static str> {
        GameCli::gen_help(self)
    }
    fn add_options(&self, binary: Binary, command: Command) -> Command {
        match binary {
            Binary::Solve => G::SolveOptions::augment_args(command),
            Binary::Check => self.check_help(G::CheckOptions::augment_args(command)),
            Binary::Gen => G::GenOptions::augment_args(command),
            Binary::Play => command,
        }
    }
    fn solve_parsed(&self, run: &SolveRun, parsed: &ArgMatches) -> Result<(), CliError> {
        self.solve(run, &read(parsed)?)
    }
    fn check_parsed(&self, run: &CheckRun, parsed: &ArgMatches) -> Result<(), CliError> {
        self.check(run, &read(parsed)?)
    }
    fn generate_parsed(&self, parsed: &ArgMatches) -> Result<String, CliError> {
        self.generate(&read(parsed)?)
    }
}

/// Where the record goes: standard output, or (a test's) a writer of its own.
pub(crate) type Output = Box<dyn std::io::Write + Send>;

/// A `solve` run as the binary hands it to a game (a textbook's invocation): the shared
/// options as parsed, and where the run's processes, command line and record are.
pub struct SolveRun<'a> {
    pub(crate) args: &'a SolveArgs,
    /// The processes of a `--distributed` run (`None`: this process alone).
    pub(crate) comm: Option<&'a dyn Comm>,
    /// The command line as given (the program's name first).
    pub(crate) command_line: &'a [OsString],
    /// Every option's value, by id, for a checkpoint's identity of the run.
    pub(crate) given: Given,
    /// Where the record goes (standard output, or a test's writer).
    pub(crate) output: &'a (dyn Fn() -> Output + Sync),
    /// The games the binary plays, this one among them: for what names another game.
    pub(crate) games: &'a [&'a dyn Entry],
}

/// Every option's values on a parsed command line (defaults included), by id in order: what
/// names a run's settings whatever game took them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Given(pub Vec<(String, Vec<String>)>);

/// The options of `parsed` as [`Given`].
pub(crate) fn given(parsed: &clap::ArgMatches) -> Given {
    let mut ids: Vec<&str> = parsed.ids().map(|id| id.as_str()).collect();
    ids.sort_unstable();
    let values = ids.into_iter().filter_map(|id| {
        let values = parsed.try_get_raw(id).ok()??;
        let values = values.map(|v| v.to_string_lossy().into_owned()).collect();
        Some((id.to_string(), values))
    });
    Given(values.collect())
}

/// A `check` run as the binary hands it to a game (a textbook's invocation).
pub struct CheckRun<'a> {
    pub args: &'a CheckArgs,
    /// The games the binary plays, this one among them: for what names another game.
    pub games: &'a [&'a dyn Entry],
}

/// A `play` run as the binary hands it to a game (a textbook's invocation).
pub struct PlayRun<'a> {
    pub sequence: &'a std::path::Path,
    pub compare: Option<&'a std::path::Path>,
    /// The games the binary plays, this one among them: for what names another game.
    pub games: &'a [&'a dyn Entry],
}

/// A binary's command line with the options of every game in a list.
pub struct GameCommand<'g> {
    command: Command,
    games: &'g [&'g dyn Entry],
    /// The options games added, each with the games (by index) that take it.
    owners: Vec<(clap::Id, Vec<usize>)>,
}

impl<'g> GameCommand<'g> {
    /// `base` (the options every game takes) with `--game` (one of `games`, `default` unless
    /// given) and each game's options as `add` gives them.
    ///
    /// Refused: two definitions of one option id that differ (two games that each declare
    /// `--weights`, say, with other help or values), where the first would silently serve
    /// both; a game shares an option by flattening the one struct that declares it.
    pub(crate) fn new(
        base: Command,
        games: &'g [&'g dyn Entry],
        default: &'static str,
        binary: Binary,
    ) -> Result<GameCommand<'g>, CliError> {
        let values: Vec<PossibleValue> = games
            .iter()
            .map(|g| {
                PossibleValue::new(g.id())
                    .aliases(g.aliases())
                    .help(g.about())
            })
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
            let own = g.add_options(binary, Command::new(g.id()));
            for arg in own.get_arguments() {
                let id = arg.get_id().clone();
                let first = command.get_arguments().find(|a| a.get_id() == &id).cloned();
                match first {
                    Some(first) => same_definition(&first, arg, g)?,
                    None => command = command.arg(arg.clone()),
                }
                match owners.iter_mut().find(|(o, _)| *o == id) {
                    Some((_, takers)) => takers.push(index),
                    None => owners.push((id, vec![index])),
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
        Ok(GameCommand {
            command,
            games,
            owners,
        })
    }

    /// The command, for its help and its changes.
    pub(crate) fn command(self, change: impl FnOnce(Command) -> Command) -> Self {
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
    pub(crate) fn parse(
        &self,
        args: impl IntoIterator<Item = OsString>,
        print: bool,
    ) -> Result<Option<(&'g dyn Entry, ArgMatches)>, CliError> {
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
        let Some(index) = self.games.iter().position(|g| named(*g, id)) else {
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

/// Refuses `second`, game `g`'s definition of an option already defined as `first` (by the
/// binary or a game before it), where the two differ in anything but their place in the help.
fn same_definition(first: &Arg, second: &Arg, g: &dyn Entry) -> Result<(), CliError> {
    let shown = |a: &Arg| {
        format!(
            "{:?}",
            a.clone().display_order(0).help_heading(None::<&str>)
        )
    };
    if shown(first) == shown(second) {
        return Ok(());
    }
    let name =
        (second.get_long()).map_or_else(|| second.get_id().to_string(), |l| format!("--{l}"));
    Err(CliError::internal(format!(
        "{} defines {name} otherwise than the option of that id before it: an option two games \
         take is one struct both flatten",
        g.name()
    )))
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn listed(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// Whether `--game name` asks for `game`: its id or one of its aliases.
pub(crate) fn named(game: &dyn Entry, name: &str) -> bool {
    game.id() == name || game.aliases().contains(&name)
}

/// The refusal of a binary that plays only `game` asked for another of `games`, saying
/// which binaries play that one.
pub fn only_game(games: &[&dyn Entry], game: &str, asked: &str) -> Result<(), CliError> {
    if games.iter().any(|g| g.id() == game && named(*g, asked)) || asked == game {
        return Ok(());
    }
    let program = super::errors::program_name();
    let own = games
        .iter()
        .find(|g| g.id() == game)
        .map_or(game, |g| g.name());
    let Some(other) = games.iter().find(|g| named(**g, asked)) else {
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

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
