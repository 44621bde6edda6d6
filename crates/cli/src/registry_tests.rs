//! One definition per option id across the games of a binary.

use super::*;
use crate::options::{EvalOptions, WeightsFile};

/// A game whose only use here is the `solve` options `O`.
struct Game<O>(&'static str, std::marker::PhantomData<O>);

impl<O: clap::Args + Sync> GameCli for Game<O> {
    type SolveOptions = O;
    type CheckOptions = NoOptions;
    type GenOptions = NoOptions;

    fn id(&self) -> &'static str {
        self.0
    }
    fn name(&self) -> &'static str {
        self.0
    }
    fn about(&self) -> &'static str {
        "a game of the registry's tests"
    }
    fn default_width(&self) -> usize {
        1
    }
    fn solve(&self, _: &SolveRun, _: &O) -> Result<(), CliError> {
        Ok(())
    }
    fn check(&self, _: &CheckRun, _: &NoOptions) -> Result<(), CliError> {
        Ok(())
    }
    fn generate(&self, _: &NoOptions) -> Result<String, CliError> {
        Ok(String::new())
    }
}

/// `--weights` declared again, with help of its own.
#[derive(clap::Args, Debug)]
struct OwnWeights {
    /// Weights of another kind.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
}

fn game<O>(id: &'static str) -> Game<O> {
    Game(id, std::marker::PhantomData)
}

fn solve_command<'g>(games: &'g [&'g dyn Entry]) -> Result<GameCommand<'g>, CliError> {
    GameCommand::new(Command::new("solve"), games, games[0].id(), Binary::Solve)
}

#[test]
fn games_that_flatten_one_struct_share_its_options() {
    let (a, b) = (game::<EvalOptions>("a"), game::<WeightsFile>("b"));
    let games: [&dyn Entry; 2] = [&a, &b];
    let command = solve_command(&games).expect("one definition of --weights");
    let help = command.render_help();
    assert_eq!(help.matches("--weights").count(), 1, "{help}");
    assert!(help.contains("With --game a and b"), "{help}");
}

#[test]
fn a_second_different_definition_of_an_option_is_refused() {
    let (a, b) = (game::<EvalOptions>("a"), game::<OwnWeights>("b"));
    let games: [&dyn Entry; 2] = [&a, &b];
    let Err(refused) = solve_command(&games) else {
        panic!("two definitions of --weights were taken");
    };
    assert!(
        refused.message.contains("b defines --weights otherwise"),
        "{}",
        refused.message
    );
    assert_eq!(refused.code, crate::EXIT_INTERNAL);
}

#[test]
fn an_option_of_another_game_is_refused_by_name() {
    let (a, b) = (game::<EvalOptions>("a"), game::<NoOptions>("b"));
    let games: [&dyn Entry; 2] = [&a, &b];
    let command = solve_command(&games).expect("a command");
    let args = ["solve", "--game", "b", "--policy", "p.json"].map(std::ffi::OsString::from);
    let Err(refused) = command.parse(args, false) else {
        panic!("--policy was taken by a game that has none");
    };
    assert_eq!(refused.message, "--policy is an option of a, not of b");
}

#[test]
fn the_parser_reads_distributed() {
    let a = game::<EvalOptions>("a");
    let games: [&dyn Entry; 1] = [&a];
    let flag = |args: &[&str]| {
        let line = args.iter().map(std::ffi::OsString::from).collect();
        let parsed = crate::drivers::parse_solve(&games, line, false);
        parsed.map(|p| p.is_some_and(|p| p.distributed()))
    };
    assert_eq!(flag(&["solve", "seq.txt", "--distributed"]), Ok(true));
    // A value, not the flag: a weights file named `--distributed`.
    assert_eq!(flag(&["solve", "--weights=--distributed"]), Ok(false));
    assert_eq!(flag(&["solve", "seq.txt"]), Ok(false));
    assert_eq!(flag(&["solve", "--help", "--distributed"]), Ok(false));
    let error = flag(&["solve", "--distributed", "--no-such-option"]).unwrap_err();
    assert_eq!(error.code, crate::EXIT_USAGE);
}
