//! What the binaries share: reading files with errors that name them, the exit codes, and the
//! options (rules, search) and limits every binary checks the same way.

use std::path::{Path, PathBuf};
use tetris_opt::games::tencent::rules::{LockMode, Rules, DEFAULT_PIECE_LIMIT};
use tetris_opt::games::tencent::search::RankingParams;
use tetris_opt::search::limits::{self, LimitError};
use tetris_opt::search::Objective;

/// Exit code for a record that was read but is invalid.
pub const EXIT_INVALID: i32 = 1;
/// Exit code for unusable arguments or unreadable files.
pub const EXIT_USAGE: i32 = 2;
/// Exit code for a failure of the program itself (e.g. the solver's self-check).
pub const EXIT_INTERNAL: i32 = 3;

/// An error for the user: the message and the exit code it deserves.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub code: i32,
}

impl CliError {
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: EXIT_USAGE,
        }
    }

    /// An outcome already reported (or a closed pipe, with nobody to tell): its exit code and
    /// nothing more to print.
    pub fn reported(code: i32) -> Self {
        CliError {
            message: String::new(),
            code,
        }
    }

    /// A bug of ours, not the user's: reported as such with its own exit code.
    pub fn internal(e: impl std::fmt::Display) -> Self {
        CliError {
            message: format!("internal error: {e}"),
            code: EXIT_INTERNAL,
        }
    }
}

/// This program's name, for messages.
pub fn program_name() -> String {
    std::env::args()
        .next()
        .and_then(|p| {
            Path::new(&p)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "this program".to_string())
}

/// Reads a whole text file (`-` is standard input); unreadable or non-UTF-8 files are usage
/// errors naming the path.
pub fn read_text(path: &Path, what: &str) -> Result<String, CliError> {
    let bytes = if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf).map(|_| buf)
    } else {
        std::fs::read(path)
    }
    .map_err(|e| CliError::usage(format!("cannot read {what} {}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        CliError::usage(format!(
            "{what} {} is not text (invalid UTF-8 at byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads and parses a sequence file.
pub fn read_sequence(
    path: &Path,
) -> Result<Vec<tetris_opt::games::tencent::rules::Kind>, CliError> {
    let text = read_text(path, "sequence file")?;
    tetris_opt::kit::sequence::parse_sequence(&text)
        .map_err(|e| CliError::usage(format!("sequence file {}: {e}", path.display())))
}

/// Reads and parses a move record file. A file that cannot be read is a usage error; one that
/// reads but is not a record is an invalid record (exit 1, as `check` gives it), the error
/// naming the file, then the piece and token.
pub fn read_record(path: &Path) -> Result<tetris_opt::games::tencent::record::Record, CliError> {
    let text = read_text(path, "record file")?;
    tetris_opt::games::tencent::record::Record::parse(&text).map_err(|e| CliError {
        message: format!("record file {}: {e}", path.display()),
        code: EXIT_INVALID,
    })
}

/// Prints a record as one line on standard output (a closed pipe ends the program quietly:
/// [`stdout_failed`]).
pub fn print_record(record: &tetris_opt::games::tencent::record::Record) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{record}")
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failed(e, "the record"))
}

/// The error for a failed write of `what` to standard output. A closed pipe (`check ... |
/// head`) means the reader has all it wanted: the program ends there, quietly and with exit 0,
/// as common command-line tools do, instead of reporting an error nobody caused.
pub fn stdout_failed(e: std::io::Error, what: &str) -> CliError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return CliError::reported(0);
    }
    CliError::usage(format!("cannot write {what}: {e}"))
}

/// Writes one line to standard error. A closed or failing standard error (`solve 2>&1
/// >/dev/null | head`) loses the line, never the run: the record on stdout still goes out.
pub fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// [`say`] with `format!`'s arguments: what the binaries use instead of `eprintln!`, which
/// panics when standard error is closed.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::shared::cli::say(format_args!($($arg)*))
    };
}

/// Refuses a beam width no binary accepts; `option` names it in the message.
pub fn check_width(option: &str, width: usize) -> Result<(), CliError> {
    Ok(limits::check_width(option, width)?)
}

/// Writes the file `option` names: the one wording of every binary's failure to write one
/// (`--json out/x.json: cannot write it: No such file or directory`).
pub fn write_file(option: &str, path: &Path, contents: impl AsRef<[u8]>) -> Result<(), CliError> {
    std::fs::write(path, contents).map_err(|e| cannot_write(option, path, e))
}

/// The error for a file `option` names that could not be written.
pub fn cannot_write(option: &str, path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::usage(format!("{option} {}: cannot write it: {e}", path.display()))
}

/// Makes sure `path` can be written before a long run that ends by writing it, so that a typo
/// in a directory name does not cost the run. Leaves the file as it was (a file created for
/// the test is removed again).
pub fn check_writable(option: &str, path: &Path) -> Result<(), CliError> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| cannot_write(option, path, e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Refuses an output path that names one of the files the run reads (`inputs`: what each is,
/// and its path; `-`, standard input, is no file), before any work: writing it would destroy
/// that input. The same file under another name (a link, `./`, an absolute path) counts.
pub fn refuse_overwriting(
    option: &str,
    output: Option<&Path>,
    inputs: &[(&str, Option<&Path>)],
) -> Result<(), CliError> {
    let Some(output) = output else {
        return Ok(());
    };
    let named = inputs.iter().find_map(|&(what, input)| {
        let input = input.filter(|p| *p != Path::new("-"))?;
        same_file::is_same_file(output, input)
            .unwrap_or(false)
            .then_some(what)
    });
    match named {
        Some(what) => Err(CliError::usage(format!(
            "{option} {}: that is the {what} this run reads; writing it would destroy it \
             (choose another path)",
            output.display()
        ))),
        None => Ok(()),
    }
}

/// [`refuse_overwriting`], then [`check_writable`]: an output path checked before a run.
pub fn check_output(
    option: &str,
    output: &Path,
    inputs: &[(&str, Option<&Path>)],
) -> Result<(), CliError> {
    refuse_overwriting(option, Some(output), inputs)?;
    check_writable(option, output)
}

/// clap's error as one of ours: its text without its own `error: `, and its exit code.
pub fn clap_error(e: &clap::Error) -> CliError {
    let text = e.render().to_string();
    CliError {
        message: text
            .trim_end()
            .strip_prefix("error: ")
            .unwrap_or(text.trim_end())
            .to_string(),
        code: e.exit_code(),
    }
}

/// A binary's exit code for the outcome of its body, the error printed once.
pub fn exit_code(result: Result<(), CliError>) -> std::process::ExitCode {
    let code = match result {
        Ok(()) => 0,
        Err(e) => {
            // An empty message: the outcome was already reported (as an invalid record's is,
            // on stdout), or there is nobody to tell (a closed pipe).
            if !e.message.is_empty() {
                say(format_args!("error: {}", e.message));
            }
            e.code
        }
    };
    exit_status(code)
}

/// The process's exit status for one of the exit codes above.
pub fn exit_status(code: i32) -> std::process::ExitCode {
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(u8::MAX))
}

/// Evaluation weights from a JSON file, or the shipped defaults.
pub fn read_weights(path: Option<&Path>) -> Result<tetris_opt::kit::eval::Weights, CliError> {
    match path {
        Some(p) => tetris_opt::kit::eval::Weights::from_json(&read_text(p, "weights file")?)
            .map_err(|e| CliError::usage(format!("weights file {}: {e}", p.display()))),
        None => Ok(tetris_opt::kit::eval::Weights::default()),
    }
}

/// The beam policy from a JSON file, or the shipped defaults.
pub fn read_policy(path: Option<&Path>) -> Result<tetris_opt::kit::policy::Policy, CliError> {
    match path {
        Some(p) => tetris_opt::kit::policy::Policy::from_json(&read_text(p, "policy file")?)
            .map_err(|e| CliError::usage(format!("policy file {}: {e}", p.display()))),
        None => Ok(tetris_opt::kit::policy::Policy::default()),
    }
}

impl From<LimitError> for CliError {
    fn from(e: LimitError) -> Self {
        CliError::usage(e.to_string())
    }
}

/// The rules options every binary takes (one definition, so that every tool reads them alike).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct RulesOptions {
    /// The game: `tencent` (the contest's, default), `nes` (NES Tetris, NTSC A-type;
    /// docs/NES.md), `browser` (docs/BROWSER.md) or `olympiad` (docs/OLYMPIAD.md). `solve` and
    /// `check` play all four; `merge`, `polish` and `tune` only the contest's.
    #[arg(long, value_enum, default_value_t = GameName::Tencent)]
    pub game: GameName,
    /// Play by the contest web replay's rules: a piece locks wherever its moves leave it, even
    /// in mid-air, and whatever follows the end of the game is ignored. A search then also
    /// places mid-air locks that clear rows; its records pass `check --judge`, not strict
    /// `check`.
    #[arg(long)]
    pub judge: bool,
    /// The piece whose number reaches this limit scores nothing and ends the game (0: no
    /// limit).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PIECE_LIMIT)]
    pub piece_limit: usize,
}

/// Refuses the options of other games rather than ignoring them: `takes` names, by the id of
/// an argument group (clap names a flattened `clap::Args` struct's group after the struct) or
/// of one argument, the games that take its options; an option of a group or an argument
/// that `game` does not take, given on the command line, is an error naming it and the games
/// it is for.
pub fn refuse_other_games(
    command: &clap::Command,
    matches: &clap::ArgMatches,
    game: GameName,
    takes: &[(&str, &[GameName])],
) -> Result<(), CliError> {
    use clap::parser::ValueSource;
    let groups = command
        .get_groups()
        .map(|g| (g.get_id(), g.get_args().collect()));
    let args = command
        .get_arguments()
        .map(|a| (a.get_id(), vec![a.get_id()]));
    for (group, ids) in groups.chain(args) {
        let Some((_, games)) = takes.iter().find(|(id, _)| group == *id) else {
            continue;
        };
        if games.contains(&game) {
            continue;
        }
        for id in ids {
            // An argument with an entry of its own is judged by it, not by its group's.
            let own_entry = id != group && takes.iter().any(|(t, _)| id == *t);
            if id == "game"
                || own_entry
                || matches.value_source(id.as_str()) != Some(ValueSource::CommandLine)
            {
                continue;
            }
            let name = command
                .get_arguments()
                .find(|a| a.get_id() == id)
                .and_then(|a| a.get_long())
                .map_or_else(|| id.to_string(), |long| format!("--{long}"));
            let names: Vec<&str> = games.iter().map(|g| g.name()).collect();
            let names = match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => names.join(""),
            };
            return Err(CliError::usage(format!(
                "{name} is an option of {names}, not of {}",
                game.name()
            )));
        }
    }
    Ok(())
}

/// The command of a binary that plays only the contest's game: its `--game` help says so,
/// not the four games `solve` and `check` list (the others' names still parse, to be refused
/// by [`contest_only`] with where they are played).
pub fn contest_command(command: clap::Command) -> clap::Command {
    command.mut_arg("game", |a| {
        a.hide_possible_values(true)
            .help("The game: `tencent`, the contest's, the only one this binary plays")
            .long_help(None::<&str>)
    })
}

/// The refusal of a binary that plays only the contest's game (`merge`, `polish`, `tune`)
/// asked for another.
pub fn contest_only(game: GameName) -> CliError {
    let by = match game {
        GameName::Nes => "`solve --game nes` and `check --game nes`",
        GameName::Olympiad => "`solve`, `check` and `gen` with `--game olympiad`",
        _ => "`solve`, `check`, `gen` and `play` with `--game browser`",
    };
    CliError::usage(format!(
        "{} plays only the contest's game; {} is played by {by}",
        program_name(),
        game.name()
    ))
}

/// `--objective` as the binaries read it (the library's [`Objective`], which knows no command
/// line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ObjectiveArg {
    /// The line that banked the most points, wherever it ended.
    Score,
    /// The line that placed the most pieces, then the most points.
    Survive,
}

impl From<ObjectiveArg> for Objective {
    fn from(arg: ObjectiveArg) -> Objective {
        match arg {
            ObjectiveArg::Score => Objective::Score,
            ObjectiveArg::Survive => Objective::Survive,
        }
    }
}

/// Beams narrower than this run on one thread unless `--threads` says otherwise.
pub const NARROW_BEAM: usize = 256;

/// The games the binaries play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameName {
    /// The Tencent Geek Challenge #4 variant (docs/RULES.md).
    Tencent,
    /// NES Tetris, NTSC A-type (docs/NES.md).
    Nes,
    /// The browser game: a canvas Tetris in JavaScript with points and levels
    /// (docs/BROWSER.md).
    Browser,
    /// The olympiad's survival game: straight drops, and after a clear the blocks left fall
    /// as connected pieces (docs/OLYMPIAD.md).
    Olympiad,
}

impl GameName {
    /// The game as the messages name it.
    pub fn name(self) -> &'static str {
        match self {
            GameName::Tencent => "the contest's game",
            GameName::Nes => "NES Tetris (--game nes)",
            GameName::Browser => "the browser game (--game browser)",
            GameName::Olympiad => "the olympiad's game (--game olympiad)",
        }
    }
}

impl RulesOptions {
    /// The contest's rules these options name.
    pub fn rules(&self) -> Result<Rules, CliError> {
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

/// The ranking options of the games whose key is the contest's board evaluation (the contest
/// and the browser game).
#[derive(clap::Args, Debug)]
pub struct EvalOptions {
    /// How much one point scored lowers a state's key (key = evaluation - score * weight).
    /// Default: 0.024, and 0 for the contest's game under `--objective survive`.
    #[arg(long)]
    pub score_weight: Option<f64>,
    /// Evaluation weights as JSON (fields left out keep their defaults; the browser game's
    /// are weights/browser.json; the contest's under `--objective survive`,
    /// weights/contest-survive.json).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Beam policy as JSON (fields left out keep their defaults; under `--objective
    /// survive` the contest's search has no endgame).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
}

/// The beam options `solve` and `polish` share.
#[derive(clap::Args, Debug)]
pub struct SearchOptions {
    #[command(flatten)]
    pub eval: EvalOptions,
    /// What the search is for: the most points (`score`), or the most pieces placed, then
    /// points (`survive`: the ranking keeps the stack safe and the answer is the line that
    /// went furthest). Default: `survive` for the olympiad's game, `score` for the others.
    #[arg(long, value_enum)]
    pub objective: Option<ObjectiveArg>,
    /// Worker threads (default: all cores, or one for a beam under 256 states; at most 4 per
    /// core). The record does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Search even where the beam's estimated memory exceeds this machine's.
    #[arg(long)]
    pub force: bool,
}

impl SearchOptions {
    /// The files these options read, for [`refuse_overwriting`].
    pub fn inputs(&self) -> [(&'static str, Option<&Path>); 2] {
        [
            ("weights file", self.eval.weights.as_deref()),
            ("policy file", self.eval.policy.as_deref()),
        ]
    }

    /// Refuses values no search can use (before any file is read).
    pub fn check(&self) -> Result<(), CliError> {
        if let Some(score_weight) = self.eval.score_weight {
            limits::check_finite("--score-weight", score_weight)?;
        }
        if let Some(threads) = self.threads {
            limits::check_threads(threads, limits::cores())?;
        }
        Ok(())
    }

    /// Refuses a beam of at most `widest` states that cannot fit in this machine's memory,
    /// unless `--force` was given: before the search, not after it has grown for an hour.
    pub fn check_memory(&self, widest: usize, per_state: u64) -> Result<(), CliError> {
        // A memory variable that is no amount is refused even with --force: it is a typo.
        let available = limits::machine_memory()?;
        if self.force {
            return Ok(());
        }
        Ok(limits::check_memory(widest, per_state, available)?)
    }

    /// Prints the peak memory a search of at most `widest` states is expected to take.
    pub fn print_estimate(&self, widest: usize, per_state: u64) {
        say!(
            "{}",
            limits::describe_estimate(widest, per_state, limits::machine_memory().ok().flatten())
        );
    }

    /// The objective given, else `default` (the game's).
    pub fn objective_or(&self, default: Objective) -> Objective {
        self.objective.map_or(default, Objective::from)
    }

    /// The contest's ranking for `objective`: the weights and policy files read and the score
    /// weight given, each in place of the objective's default ([`RankingParams::default_for`]).
    pub fn ranking(&self, objective: Objective) -> Result<RankingParams, CliError> {
        let defaults = RankingParams::default_for(objective);
        let weights = match &self.eval.weights {
            Some(path) => read_weights(Some(path))?,
            None => defaults.weights,
        };
        let policy = match &self.eval.policy {
            Some(path) => read_policy(Some(path))?,
            None => defaults.policy,
        };
        Ok(RankingParams {
            score_weight: self.eval.score_weight.unwrap_or(defaults.score_weight),
            weights,
            policy,
        })
    }

    /// The worker threads a search of at most `widest` states runs on: `--threads`, or all
    /// cores, except that a beam narrower than [`NARROW_BEAM`] runs on one (its depths are
    /// too small to share: at 50 states, 2 threads took 8-10 s where one took 7 s).
    pub fn pool(&self, widest: usize) -> Result<rayon::ThreadPool, CliError> {
        let narrow = widest < NARROW_BEAM;
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(if narrow { 1 } else { 0 }))
            .build()
            .map_err(|e| CliError::usage(format!("cannot start worker threads: {e}")))
    }
}
