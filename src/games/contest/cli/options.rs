//! The contest's options and files as its binaries read them: the rules (`--judge`,
//! `--piece-limit`), records, and the ranking the evaluation options name.

use crate::cli::limits;
use crate::cli::registry::Entry;
use crate::cli::{read_policy, read_text, read_weights, stdout_failed};
use crate::cli::{CliError, EvalOptions, EXIT_INVALID};
use crate::games::contest::record::Record;
use crate::games::contest::rules::{LockMode, Rules, DEFAULT_PIECE_LIMIT};
use crate::games::contest::search::RankingParams;
use crate::search::Objective;
use std::path::Path;

/// Reads and parses a move record file. A file that cannot be read is a usage error; one that
/// reads but is not a record is an invalid record (exit 1, as `check` gives it), the error
/// naming the file, then the piece and token, or the game of `games` it is a record of.
pub(crate) fn read_record(games: &[&dyn Entry], path: &Path) -> Result<Record, CliError> {
    let text = read_text(path, "record file")?;
    let invalid = |message| CliError {
        message,
        code: EXIT_INVALID,
    };
    if let Some(message) = other_games_record(games, path, &text) {
        return Err(invalid(message));
    }
    Record::parse(&text).map_err(|e| invalid(format!("record file {}: {e}", path.display())))
}

/// What is wrong with a record's text that is another game's (`game nes` on its first line
/// that is not a comment, one of `games`), naming the file and that line; the contest's record
/// has no header.
pub(crate) fn other_games_record(games: &[&dyn Entry], path: &Path, text: &str) -> Option<String> {
    crate::cli::record_of_another_game(games, super::GAME.id(), path, text)
}

/// Prints a record as one line on standard output (a closed pipe ends the program quietly:
/// [`stdout_failed`]).
pub(crate) fn print_record(record: &Record) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{record}")
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failed(e, "the record"))
}

/// The rules options of the contest's game (one definition, so that every tool reads them
/// alike).
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct RulesOptions {
    /// Play by the contest web replay's rules: a piece locks wherever its moves leave it, even
    /// in mid-air, and whatever follows the end of the game is ignored. A search then also
    /// places mid-air locks that clear rows; its records pass `check --judge`, not strict
    /// `check`.
    #[arg(long)]
    pub(crate) judge: bool,
    /// The piece whose number reaches this limit scores nothing and ends the game (0: no
    /// limit).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PIECE_LIMIT)]
    pub(crate) piece_limit: usize,
}

impl RulesOptions {
    /// The contest's rules these options name.
    pub(crate) fn rules(&self) -> Result<Rules, CliError> {
        limits::check_piece_limit(self.piece_limit)?;
        Ok(Rules {
            piece_limit: self.piece_limit,
            lock: if self.judge {
                LockMode::Judge
            } else {
                LockMode::Strict
            },
        })
    }
}

/// `--game` of the binaries that play only the contest's game (`merge`, `polish`, `tune`):
/// another game's name is refused saying where that game is played, and a name that is no
/// game's as `solve` refuses it (the games' names listed, [`GameArg::taking`]).
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct GameArg {
    /// The game: `contest` (or `tencent`), the only one this binary plays.
    #[arg(
        long,
        value_name = "GAME",
        default_value = "contest",
        hide_possible_values = true
    )]
    pub(crate) game: String,
}

impl GameArg {
    /// `command`'s `--game` taking every name of `games`, as `solve` takes them.
    pub(crate) fn taking(command: clap::Command, games: &[&dyn Entry]) -> clap::Command {
        let names = clap::builder::PossibleValuesParser::new(
            games
                .iter()
                .map(|g| clap::builder::PossibleValue::new(g.id()).aliases(g.aliases())),
        );
        command.mut_arg("game", |a| a.value_parser(names))
    }
}

/// The contest's ranking for `objective`: the weights and policy files read and the score
/// weight given, each in place of the objective's default ([`RankingParams::default_for`]).
pub(crate) fn ranking(eval: &EvalOptions, objective: Objective) -> Result<RankingParams, CliError> {
    let defaults = RankingParams::default_for(objective);
    let weights = match &eval.weights.path {
        Some(path) => read_weights(Some(path))?,
        None => defaults.weights,
    };
    let policy = match &eval.policy {
        Some(path) => read_policy(Some(path))?,
        None => defaults.policy,
    };
    Ok(RankingParams {
        score_weight: eval.score_weight.unwrap_or(defaults.score_weight),
        weights,
        policy,
    })
}
