//! The games as the binaries play them: the one trait a game implements for `solve`, `check`,
//! `gen` and `play` (with the runs it receives, [`super::runs`]), and the command line of a
//! binary built from a list of games, each game adding its own options and refusing the others'.

use super::errors::{clap_error, CliError};
pub use super::runs::{Check, CheckArgs, Play, Solve, SolveArgs};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Command};
use std::ffi::OsString;

/// A game as the binaries play it. A game adds its options to a binary's command (the
/// `*_options` methods: clap arguments, with the same id where two games share one) and
/// receives the parsed command line; an option of another game given on the command line is
/// refused before the game is called.
pub trait GameCli: Sync {
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

/// Whether `--game name` asks for `game`: its id or one of its aliases.
pub fn named(game: &dyn GameCli, name: &str) -> bool {
    game.id() == name || game.aliases().contains(&name)
}

/// The refusal of a binary that plays only `game` asked for another of `games`, saying
/// which binaries play that one.
pub fn only_game(games: &[&dyn GameCli], game: &str, asked: &str) -> Result<(), CliError> {
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
