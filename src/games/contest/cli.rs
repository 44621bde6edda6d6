//! The contest's game as the binaries play it: `solve` (in this process or over an MPI job's),
//! `check` with its trace, statistics and page, and `gen` of its generator's sequences; and the
//! binaries that play only this game, `merge`, `polish` and `tune` ([`merge_main`],
//! [`polish_main`], [`tune_main`]), with the options and files they share with the others.

mod check;
mod merge;
mod options;
mod polish;
mod solve;
mod tune;

pub use merge::merge_main;
pub use polish::polish_main;
pub(crate) use solve::DEFAULT_WIDTH;
pub use tune::tune_main;

use crate::cli::registry::{CheckRun, GameCli, SolveRun};
use crate::cli::CliError;
use crate::cli::{GenArgs, GenOptions};
use crate::games::contest::sequence::{generate, Distribution, CONTEST_SEED};

/// The contest's game in the binaries' registry.
pub(crate) struct Contest;

/// The contest's entry in the registry.
pub(crate) const GAME: Contest = Contest;

/// The options the contest's game adds to `gen`.
#[derive(clap::Args, Debug)]
pub(crate) struct OwnGenArgs {
    #[command(flatten)]
    sequence: GenArgs,
    /// How pieces are drawn.
    #[arg(long, value_enum, default_value_t = DistributionArg::Contest)]
    distribution: DistributionArg,
}

/// `--distribution`: [`Distribution`], as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum DistributionArg {
    /// The contest's linear congruential generator (weights 2,3,3,4,5,6,6 out of 29).
    Contest,
    /// Each kind with probability 1/7.
    Uniform,
    /// Shuffled bags of the seven kinds.
    Bag7,
}

impl GameCli for Contest {
    type SolveOptions = solve::SolveOptions;
    type CheckOptions = check::CheckOptions;
    type GenOptions = OwnGenArgs;

    fn id(&self) -> &'static str {
        "contest"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["tencent"]
    }
    fn name(&self) -> &'static str {
        "the contest's game"
    }
    fn about(&self) -> &'static str {
        "The Tencent Geek Challenge #4 variant (docs/RULES.md); `merge`, `polish` and `tune` \
         play only this one"
    }
    fn default_width(&self) -> usize {
        DEFAULT_WIDTH
    }
    fn solve(&self, run: &SolveRun, options: &solve::SolveOptions) -> Result<(), CliError> {
        run.run(self, options, &options.eval)
    }
    fn check_help(&self, options: clap::Command) -> clap::Command {
        options.mut_arg("judge", |a| {
            a.help(check::JUDGE_HELP).long_help(None::<&str>)
        })
    }
    fn check(&self, run: &CheckRun, options: &check::CheckOptions) -> Result<(), CliError> {
        check::check(run, options)
    }
    fn record_hint(&self, first_line: &str) -> Option<&'static str> {
        // The contest's record is one line of comma-separated moves, each piece from an `N`.
        (first_line == "N" || first_line.starts_with("N,"))
            .then_some("the contest's game: check it with `check SEQUENCE RECORD`, without --game")
    }
    fn check_errors_help(&self) -> Option<&'static str> {
        Some(
            "The contest's is of the form `piece N (token T 'X'): message` (N counts from 1 and \
             is the piece the token belongs to; T is the token's position in the record), e.g. \
             `error: piece 2 (token 5 'X3'): expected N, L, R, D or C, found 'X'`; an empty \
             record, with no token to name, gets `error: piece 1: the record is empty`.",
        )
    }
    fn gen_help(&self) -> Option<&'static str> {
        Some("the contest sequence")
    }
    fn generate(&self, own: &OwnGenArgs) -> Result<String, CliError> {
        let o = own.sequence.read(CONTEST_SEED)?;
        let (distribution, name) = match own.distribution {
            DistributionArg::Contest => (Distribution::Contest, "contest"),
            DistributionArg::Uniform => (Distribution::Uniform, "uniform"),
            DistributionArg::Bag7 => (Distribution::Bag7, "bag7"),
        };
        let pieces = generate(distribution, o.seed, o.count);
        let how = format!(
            "--seed {} --count {} --distribution {name}",
            o.seed, o.count
        );
        Ok(GenOptions::file(&pieces, &how))
    }
}
