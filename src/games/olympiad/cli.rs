//! The olympiad's game as the binaries play it: `solve` (the search, each placement checked
//! on the plain engine as it is decided and printed then, and the summary), `check` with its
//! viewer page, and `gen`.

use crate::cli::interrupt::RecordOut;
use crate::cli::plain::{self, Invalid, PlainCheck};
use crate::cli::registry::{CheckRun, GameCli, SolveRun};
use crate::cli::solve::{end_lines, LinesOut, Plan, SolveSettings, Solver, Verdict, Writer};
use crate::cli::{read_weights, CliError, EvalOptions, HtmlPage, WeightsFile};
use crate::cli::{GenArgs, GenOptions};
use crate::games::olympiad::film;
use crate::games::olympiad::record::{Placement, Record, HEADER};
use crate::games::olympiad::replay::{parse_for, replay, Replay, Report};
use crate::games::olympiad::rules::Kind;
use crate::games::olympiad::search::{self, default_weights, unpack, Params, DEFAULT_WIDTH};
use crate::kit::board::Board;
use crate::search::{Line, Objective, Run};

/// Peak memory per beam state: the contest's measure (`bench/memory.sh`), whose states are
/// the same board of the kit.
const BYTES_PER_STATE: u64 = 1_000;

/// The olympiad's problem instance, what its solve reads: the sequence (to `--pieces`), the
/// ranking, and the pieces kept from `--from-record` with the board they leave.
pub(crate) type Instance = plain::Instance<Params, Placement, Board>;

impl Solver for Olympiad {
    type Instance = Instance;
    type Search<'p> = search::Seam<'p>;
    type Writer<'p> = SolveWriter<'p>;

    fn plan(&self, settings: &SolveSettings, _: &WeightsFile) -> Result<Plan<Instance>, CliError> {
        plain::plan(settings, BYTES_PER_STATE, |sequence| {
            let (kept, start) = kept_pieces(settings, &sequence)?;
            let weights = match &settings.eval.weights.path {
                Some(path) => read_weights(Some(path))?,
                None => default_weights(),
            };
            let objective = settings.args.search.objective_or(Objective::Survive);
            Ok(Instance {
                sequence,
                params: Params { weights, objective },
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
            replay: Replay::new(&instance.sequence),
            lines: LinesOut::default(),
        }
    }
}

/// The placements `--from-record` keeps, replayed on the plain engine, and the board they
/// leave.
fn kept_pieces(
    settings: &SolveSettings,
    sequence: &[Kind],
) -> Result<(Vec<Placement>, Board), CliError> {
    let mut replay = Replay::new(sequence);
    let parse = |text: &str| Record::parse(text).map(|r| (r.placements, r.source_lines));
    let kept = plain::kept_pieces(settings, parse, &mut replay)?;
    let board = crate::games::olympiad::bitboard::board_of(replay.field());
    Ok((kept, board))
}

/// The olympiad's record as the search decides it: each placement played on the plain engine,
/// then written as its line.
pub(crate) struct SolveWriter<'p> {
    instance: &'p Instance,
    replay: Replay<'p>,
    lines: LinesOut,
}

impl Writer for SolveWriter<'_> {
    type Code = u16;

    fn start(&mut self, out: &RecordOut) -> Result<(), CliError> {
        self.lines.header(out, HEADER)?;
        let kept = &self.instance.kept;
        self.placements(kept, out)
    }

    fn pieces(&mut self, codes: &[u16], out: &RecordOut) -> Result<(), CliError> {
        let placements: Vec<Placement> = codes.iter().map(|&c| unpack(c)).collect();
        self.placements(&placements, out)
    }

    fn finish(mut self, line: &Line<u16>, out: &RecordOut) -> Result<Verdict, CliError> {
        self.pieces(&line.placements, out)?;
        end_lines(out)?;
        let report = self.replay.finish();
        if report.pieces_placed as u64 != line.score {
            return Err(CliError::internal(format!(
                "the record places {} pieces on the plain engine, the search counted {}",
                report.pieces_placed, line.score
            )));
        }
        Ok(Verdict::same_score(&report))
    }
}

impl SolveWriter<'_> {
    /// Replays and writes the next pieces' placements.
    fn placements(&mut self, placements: &[Placement], out: &RecordOut) -> Result<(), CliError> {
        let line = |p: &Placement| *p;
        self.lines.pieces(out, &mut self.replay, placements, line)
    }
}

/// The olympiad's game in the binaries' registry.
pub(crate) struct Olympiad;

/// The olympiad's entry in the registry.
pub(crate) const GAME: Olympiad = Olympiad;

/// `gen`'s seed where `--seed` names none.
const GEN_SEED: u64 = 12358;

impl GameCli for Olympiad {
    type SolveOptions = WeightsFile;
    type CheckOptions = HtmlPage;
    type GenOptions = GenArgs;

    fn id(&self) -> &'static str {
        "olympiad"
    }
    fn name(&self) -> &'static str {
        "the olympiad's game (--game olympiad)"
    }
    fn about(&self) -> &'static str {
        "The olympiad's survival game: straight drops, and after a clear the blocks left fall \
         as connected pieces (docs/OLYMPIAD.md)"
    }
    fn default_width(&self) -> usize {
        DEFAULT_WIDTH
    }
    fn solve(&self, run: &SolveRun, weights: &WeightsFile) -> Result<(), CliError> {
        // Its score is its pieces placed, the same for every state of a depth: no score
        // weight, and no policy.
        let eval = EvalOptions {
            weights: weights.clone(),
            ..EvalOptions::default()
        };
        run.run(self, weights, &eval)
    }
    fn check(&self, run: &CheckRun, html: &HtmlPage) -> Result<(), CliError> {
        plain::check_game::<Self>(run, html.path.as_deref(), self.id())
    }
    fn record_hint(&self, first_line: &str) -> Option<&'static str> {
        (first_line == HEADER)
            .then_some("the olympiad's game: check it with `check --game olympiad SEQUENCE RECORD`")
    }
    fn generate(&self, own: &GenArgs) -> Result<String, CliError> {
        let o = own.read(GEN_SEED)?;
        let pieces = crate::games::olympiad::sequence(o.seed, o.count);
        let how = format!("--game olympiad --seed {} --count {}", o.seed, o.count);
        Ok(GenOptions::file(&pieces, &how))
    }
}

/// `check --game olympiad`: the record replayed on the plain engine, its summary or JSON, and
/// the viewer's page `--html` writes (up to the error of an invalid record).
impl PlainCheck for Olympiad {
    type Report = Report;

    fn check(sequence: &[Kind], text: &str, file: &str) -> Result<Report, Invalid> {
        let record = parse_for(sequence, text)
            .map_err(|e| Invalid::unparsed(e.located(file), e.first_line()))?;
        replay(sequence, &record).map_err(|e| Invalid::unplayed(e.located(file), e.piece))
    }
    fn page(sequence: &[Kind], text: &str, file: &str, hint: &str) -> Option<String> {
        let record = parse_for(sequence, text);
        Some(film::page(sequence, record.as_ref(), file, hint))
    }
}
