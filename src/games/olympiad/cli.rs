//! The olympiad's game as the binaries play it: `solve` (the search, each placement checked
//! on the plain engine as it is decided and printed then, and the summary), `check` with its
//! viewer page, and `gen`.

use crate::cli::interrupt::RecordOut;
use crate::cli::plain::{self, Invalid, PlainCheck};
use crate::cli::registry::{only, Check, GameCli, Solve};
use crate::cli::report::Checked;
use crate::cli::sequence::GenOptions;
use crate::cli::solve::{end_lines, LinesOut, Planned, Shared, Solver, Verdict, Writer};
use crate::cli::{read_weights, CliError, EvalOptions};
use crate::games::olympiad::film;
use crate::games::olympiad::record::{Placement, Record, HEADER};
use crate::games::olympiad::replay::{parse_for, replay, Replay, Report};
use crate::games::olympiad::rules::{Kind, Outcome};
use crate::games::olympiad::search::{self, default_weights, unpack, Params, DEFAULT_WIDTH};
use crate::kit::board::Board;
use crate::search::{Line, Objective, Run};
use clap::Args as _;

/// Peak memory per beam state: the contest's measure (`bench/memory.sh`), whose states are
/// the same board of the kit.
const BYTES_PER_STATE: u64 = 1_000;

/// What the olympiad's solve reads: the sequence (to `--pieces`), the ranking, and the
/// pieces kept from `--from-record` with the board they leave.
pub struct Plan {
    sequence: Vec<Kind>,
    params: Params,
    kept: Vec<Placement>,
    board: Board,
}

impl Solver for Olympiad {
    type Plan = Plan;
    type Search<'p> = search::Seam<'p>;
    type Writer<'p> = SolveWriter<'p>;

    fn plan(&self, run: &Shared, _: &clap::ArgMatches) -> Result<Planned<Plan>, CliError> {
        let input = run.sequence_file()?.to_path_buf();
        let sequence = run.sequence()?;
        let (kept, board) = match run.from {
            Some((path, pieces)) => kept_pieces(run, &sequence, path, pieces)?,
            None => (Vec::new(), Board::default()),
        };
        let weights = match &run.eval.weights {
            Some(path) => read_weights(Some(path))?,
            None => default_weights(),
        };
        let objective = run.args.search.objective_or(Objective::Survive);
        let plan = Plan {
            sequence,
            params: Params { weights, objective },
            kept,
            board,
        };
        let (pieces, kept) = (plan.sequence.len(), plan.kept.len());
        Ok(plain::planned(
            run,
            input,
            (pieces, kept),
            BYTES_PER_STATE,
            plan,
        ))
    }

    fn search<'p>(&'p self, plan: &'p Plan) -> (search::Seam<'p>, Run<Board>) {
        search::Seam::new(&plan.sequence, &plan.params, plan.kept.len(), plan.board)
    }

    fn writer<'p>(&'p self, plan: &'p Plan) -> SolveWriter<'p> {
        SolveWriter {
            plan,
            replay: Replay::new(&plan.sequence),
            lines: LinesOut::default(),
        }
    }
}

/// The first `pieces` placements of the record at `path`, replayed on the plain engine, and
/// the board they leave.
fn kept_pieces(
    run: &Shared,
    sequence: &[Kind],
    path: &std::path::Path,
    pieces: usize,
) -> Result<(Vec<Placement>, Board), CliError> {
    let mut replay = Replay::new(sequence);
    let kept = plain::kept_pieces(
        run,
        path,
        pieces,
        |text| Record::parse(text).map(|r| (r.placements, r.source_lines)),
        |&p, line| Ok(replay.play(p, line)? == Outcome::GameOver),
    )?;
    let board = crate::games::olympiad::bitboard::board_of(replay.field());
    Ok((kept, board))
}

/// The olympiad's record as the search decides it: each placement played on the plain engine,
/// then written as its line.
pub struct SolveWriter<'p> {
    plan: &'p Plan,
    replay: Replay<'p>,
    lines: LinesOut,
}

impl Writer for SolveWriter<'_> {
    type Code = u16;

    fn start(&mut self, out: &RecordOut) -> Result<(), CliError> {
        self.lines.header(out, HEADER)?;
        let kept = &self.plan.kept;
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
        Ok(Verdict {
            summary: format!(
                "checked by the rules engine: record valid, same score\n{}",
                report.summary()
            ),
            scorecard: report.scorecard(),
            own: serde_json::json!(report.own()),
        })
    }
}

impl SolveWriter<'_> {
    /// Replays and writes the next pieces' placements.
    fn placements(&mut self, placements: &[Placement], out: &RecordOut) -> Result<(), CliError> {
        for &p in placements {
            let replay = &mut self.replay;
            self.lines
                .piece(out, |line| replay.play(p, line).map(|_| ()), p)?;
        }
        Ok(())
    }
}

/// The olympiad's game in the binaries' registry.
pub struct Olympiad;

/// The olympiad's entry in the registry.
pub const GAME: Olympiad = Olympiad;

/// `gen`'s seed where `--seed` names none.
const GEN_SEED: u64 = 12358;

impl GameCli for Olympiad {
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
    fn solve_options(&self, options: clap::Command) -> clap::Command {
        // Its score is its pieces placed, the same for every state of a depth: no score
        // weight, and no policy.
        options.args(only(
            EvalOptions::augment_args(clap::Command::new("")),
            &["weights"],
        ))
    }
    fn solve(&self, run: &Solve, options: &clap::ArgMatches) -> Result<(), CliError> {
        run.run(self, options)
    }
    fn check_options(&self, options: clap::Command) -> clap::Command {
        plain::check_options(options)
    }
    fn check(&self, run: &Check, matches: &clap::ArgMatches) -> Result<(), CliError> {
        plain::check_parsed::<Self>(run, matches, self.id())
    }
    fn gen_options(&self, options: clap::Command) -> clap::Command {
        GenOptions::augment_args(options)
    }
    fn record_hint(&self, first_line: &str) -> Option<&'static str> {
        (first_line == HEADER)
            .then_some("the olympiad's game: check it with `check --game olympiad SEQUENCE RECORD`")
    }
    fn generate(&self, matches: &clap::ArgMatches) -> Result<String, CliError> {
        let o = GenOptions::read(matches, GEN_SEED)?;
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
    fn checked(report: &Report) -> Checked {
        Checked {
            scorecard: report.scorecard(),
            own: serde_json::json!(report.own()),
            summary: report.summary(),
        }
    }
    fn page(sequence: &[Kind], text: &str, file: &str, hint: &str) -> Option<String> {
        let record = parse_for(sequence, text);
        Some(film::page(sequence, record.as_ref(), file, hint))
    }
}
