//! The browser game as the binaries play it: `solve` (the search, the record checked on the
//! plain engine and printed, and the summary), `check`, `gen` and `play`'s page.

use crate::cli::interrupt::RecordOut;
use crate::cli::plain::{self, Invalid, PlainCheck};
use crate::cli::registry::{CheckRun, GameCli, PlayRun, SolveRun};
use crate::cli::report::joined;
use crate::cli::solve::{end_lines, LinesOut, Plan, SolveSettings, Solver, Verdict, Writer};
use crate::cli::HtmlPage;
use crate::cli::EXIT_INVALID;
use crate::cli::{read_policy, read_sequence, read_text, read_weights, CliError, EvalOptions};
use crate::cli::{GenArgs, GenOptions};
use crate::games::browser::record::{Record, Token, HEADER};
use crate::games::browser::replay::{check_text, replay, Replayer, Report};
use crate::games::browser::rules::Kind;
use crate::games::browser::search::DEFAULT_WIDTH;
use crate::games::browser::search::{self, default_policy, default_weights, Moves, Params};
use crate::kit::board::Board;
use crate::kit::policy::DEFAULT_SCORE_WEIGHT;
use crate::search::{Line, Objective, Run};

/// Peak memory per beam state: the contest's measure (`bench/memory.sh`), whose states are
/// the same board of the kit.
const BYTES_PER_STATE: u64 = 1_000;

/// The browser game's problem instance, what its solve reads: the sequence (to `--pieces`), the
/// ranking, and the pieces kept from `--from-record` with the board and points they leave.
pub(crate) type Instance = plain::Instance<Params, Vec<Token>, Start>;

/// The board and points a search starts from.
type Start = (Board, u64);

impl Solver for Browser {
    type Instance = Instance;
    type Search<'p> = search::Seam<'p>;
    type Writer<'p> = SolveWriter<'p>;

    fn plan(&self, settings: &SolveSettings, _: &EvalOptions) -> Result<Plan<Instance>, CliError> {
        plain::plan(settings, BYTES_PER_STATE, |sequence| {
            let params = params(settings)?;
            let (kept, start) = kept_pieces(settings, &sequence)?;
            Ok(Instance {
                sequence,
                params,
                kept,
                start,
            })
        })
    }

    fn search<'p>(&'p self, instance: &'p Instance) -> (search::Seam<'p>, Run<Board>) {
        search::Seam::new(
            &instance.sequence,
            &instance.params,
            instance.kept.len(),
            instance.start,
        )
    }

    fn writer<'p>(&'p self, instance: &'p Instance) -> SolveWriter<'p> {
        SolveWriter {
            instance,
            moves: Moves::from(&instance.sequence[instance.kept.len()..], instance.start.0),
            replayer: Replayer::new(&instance.sequence),
            lines: LinesOut::default(),
        }
    }
}

/// The pieces `--from-record` keeps, replayed on the plain engine, and the board and points
/// they leave.
fn kept_pieces(
    settings: &SolveSettings,
    sequence: &[Kind],
) -> Result<(Vec<Vec<Token>>, Start), CliError> {
    let mut replayer = Replayer::new(sequence);
    let parse = |text: &str| Record::parse(text).map(|r| (r.pieces, r.source_lines));
    let kept = plain::kept_pieces(settings, parse, &mut replayer)?;
    let game = replayer.game();
    let board = crate::games::browser::movegen::board_of(&game.field);
    Ok((kept, (board, game.points)))
}

impl SolveWriter<'_> {
    /// Replays and writes the next pieces' tokens.
    fn write(&mut self, pieces: &[Vec<Token>], out: &RecordOut) -> Result<(), CliError> {
        let line = |tokens: &Vec<Token>| Record::line(tokens);
        self.lines.pieces(out, &mut self.replayer, pieces, line)
    }
}

/// The browser game's record as the search decides it: each piece's moves replayed on the
/// plain engine, then written as its line.
pub(crate) struct SolveWriter<'p> {
    instance: &'p Instance,
    moves: Moves<'p>,
    replayer: Replayer<'p>,
    lines: LinesOut,
}

impl Writer for SolveWriter<'_> {
    type Code = u16;

    fn start(&mut self, out: &RecordOut) -> Result<(), CliError> {
        self.lines.header(out, HEADER)?;
        let kept = &self.instance.kept;
        self.write(kept, out)
    }

    fn pieces(&mut self, codes: &[u16], out: &RecordOut) -> Result<(), CliError> {
        let pieces = self.moves.of(codes);
        self.write(&pieces, out)
    }

    fn finish(mut self, line: &Line<u16>, out: &RecordOut) -> Result<Verdict, CliError> {
        self.pieces(&line.placements, out)?;
        end_lines(out)?;
        let placed = self.instance.kept.len() + self.moves.placed();
        let report = self.replayer.finish();
        if report.points != line.score || report.pieces_placed != placed {
            return Err(CliError::internal(format!(
                "the record scores {} with {} pieces on the plain engine, the search counted {} and {}",
                report.points, report.pieces_placed, line.score, placed
            )));
        }
        let score_weight = self.instance.params.score_weight;
        let mut verdict = Verdict::same_score(&report);
        verdict.summary = format!("score weight {score_weight}\n{}", verdict.summary);
        let solved = serde_json::json!({ "score_weight": score_weight });
        verdict.own = joined(verdict.own, solved);
        Ok(verdict)
    }
}

/// The search's parameters: the evaluation files read, the score weight and objective given,
/// each in place of the game's default.
fn params(settings: &SolveSettings) -> Result<Params, CliError> {
    let weights = match &settings.eval.weights.path {
        Some(path) => read_weights(Some(path))?,
        None => default_weights(),
    };
    let policy = match &settings.eval.policy {
        Some(path) => {
            let mut policy = read_policy(Some(path))?;
            // A field left out takes the contest's default, whose fill plan prices cells: a
            // file may leave it out or set it to null, and is refused if it asks for one.
            let text = read_text(path, "policy file")?;
            let named: serde_json::Value = crate::kit::text::from_json(&text)
                .map_err(|e| CliError::usage(format!("policy file {}: {e}", path.display())))?;
            if named.get("fill_plan").is_some_and(|plan| !plan.is_null()) {
                return Err(CliError::usage(format!(
                    "policy file {}: fill_plan is for games that score by the fill (--game \
                     contest); the browser game scores by lines",
                    path.display()
                )));
            }
            policy.fill_plan = None;
            policy
        }
        None => default_policy(),
    };
    Ok(Params {
        score_weight: settings.eval.score_weight.unwrap_or(DEFAULT_SCORE_WEIGHT),
        weights,
        policy,
        objective: settings.args.search.objective_or(Objective::Score),
    })
}

/// The browser game in the binaries' registry.
pub(crate) struct Browser;

/// The browser game's entry in the registry.
pub(crate) const GAME: Browser = Browser;

/// `gen`'s seed where `--seed` names none.
const GEN_SEED: u64 = 12358;

impl GameCli for Browser {
    type SolveOptions = EvalOptions;
    type CheckOptions = HtmlPage;
    type GenOptions = GenArgs;

    fn id(&self) -> &'static str {
        "browser"
    }
    fn name(&self) -> &'static str {
        "the browser game (--game browser)"
    }
    fn about(&self) -> &'static str {
        "The browser game: a canvas Tetris in JavaScript with points and levels (docs/BROWSER.md)"
    }
    fn default_width(&self) -> usize {
        DEFAULT_WIDTH
    }
    fn solve(&self, run: &SolveRun, options: &EvalOptions) -> Result<(), CliError> {
        run.run(self, options, options)
    }
    fn check(&self, run: &CheckRun, html: &HtmlPage) -> Result<(), CliError> {
        plain::check_game::<Self>(run, html.path.as_deref(), self.id())
    }
    fn record_hint(&self, first_line: &str) -> Option<&'static str> {
        (first_line == HEADER)
            .then_some("the browser game: check it with `check --game browser SEQUENCE RECORD`")
    }
    fn generate(&self, own: &GenArgs) -> Result<String, CliError> {
        let o = own.read(GEN_SEED)?;
        let pieces = crate::games::browser::sequence(o.seed, o.count);
        Ok(GenOptions::file(
            &pieces,
            &format!("--game browser --seed {} --count {}", o.seed, o.count),
        ))
    }
    fn has_page(&self) -> bool {
        true
    }
    fn page(&self, run: &PlayRun) -> Result<String, CliError> {
        page(run)
    }
}

/// `check --game browser`: the record replayed on the plain engine, its summary or JSON.
impl PlainCheck for Browser {
    type Report = Report;

    fn check(sequence: &[Kind], text: &str, file: &str) -> Result<Report, Invalid> {
        let record = Record::parse(text).map_err(|e| {
            let e = e.naming_kind(sequence);
            Invalid::unparsed(e.located(file), e.first_line())
        })?;
        replay(sequence, &record).map_err(|e| Invalid::unplayed(e.located(file), e.piece))
    }
    fn page(sequence: &[Kind], text: &str, file: &str, hint: &str) -> Option<String> {
        Some(crate::games::browser::film::page(
            sequence, text, file, hint,
        ))
    }
}

/// `play`'s page: the sequence, and the record to race where `--compare` names one (checked as
/// `check --game browser` checks it: the page never shows a score for a record that does not
/// play).
fn page(run: &PlayRun) -> Result<String, CliError> {
    use crate::games::browser::page::{page, Compare};
    let sequence = read_sequence(run.sequence)?;
    let compare_text = match run.compare {
        Some(path) => {
            let text = read_text(path, "record file")?;
            let file = path.display().to_string();
            check_text(&sequence, &text).map_err(|e| CliError {
                message: format!(
                    "--compare: {}{}",
                    e.located(&file),
                    crate::cli::another_games_hint(run.games, e.first_line())
                ),
                code: EXIT_INVALID,
            })?;
            Some(text)
        }
        None => None,
    };
    let compare_name = run.compare.map(file_name);
    let sequence_name = file_name(run.sequence);
    Ok(page(
        &sequence,
        &sequence_name,
        compare_text
            .as_deref()
            .zip(compare_name.as_deref())
            .map(|(text, name)| Compare { text, name }),
    ))
}

/// How the page names a file: its last component, or the whole path when it has none (`-`).
fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
