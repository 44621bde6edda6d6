//! `solve` of the contest's game: what only it has on the one pipeline
//! ([`crate::cli::solve`]): its rules and ranking options, its start from a record, and its
//! record checked by the rules engine piece by piece.

use super::options::{ranking, read_record, RulesOptions};
use super::Contest;
use crate::cli::interrupt::RecordOut;
use crate::cli::report::joined;
use crate::cli::solve::{Plan, SolveSettings, Solver, Verdict, Writer};
use crate::cli::{stdout_failed, CliError, EvalOptions};
use crate::games::contest::movegen::Placement;
use crate::games::contest::record::Record;
use crate::games::contest::rules::Kind;
use crate::games::contest::search::{input_bytes, Params, Seam, UnderWay, BYTES_PER_STATE};
use crate::games::contest::solve::{start_from, RecordStream, SolveError};
use crate::search::{Line, Objective, Run};

/// The contest's default beam width.
pub(crate) const DEFAULT_WIDTH: usize = 20_000;

/// The options the contest's game adds to `solve`.
#[derive(clap::Args, Debug)]
pub(crate) struct SolveOptions {
    #[command(flatten)]
    pub(crate) rules: RulesOptions,
    #[command(flatten)]
    pub(crate) eval: EvalOptions,
}

/// The contest's problem instance, what its solve reads: the sequence (to `--pieces`), the search's
/// parameters and the record's kept part.
pub(crate) struct Instance {
    sequence: Vec<Kind>,
    params: Params,
    kept: Record,
}

impl Solver for Contest {
    type Instance = Instance;
    type Search<'p> = Seam<'p>;
    type Writer<'p> = SolveWriter<'p>;

    fn plan(
        &self,
        settings: &SolveSettings,
        options: &SolveOptions,
    ) -> Result<Plan<Instance>, CliError> {
        let rules = options.rules.rules()?;
        let input = settings.sequence_file()?.to_path_buf();
        let sequence = settings.sequence()?;
        let objective = settings.args.search.objective_or(Objective::Score);
        let ranking = ranking(settings.eval, objective)?;
        let (start, kept) = match settings.from {
            Some((path, pieces)) => {
                let record = read_record(settings.games, path)?;
                // A record too short for the pieces to keep does not replay that far either.
                start_from(&sequence, &record, pieces, rules)
                    .map_err(|e| settings.from_record_invalid(e))?
            }
            None => (UnderWay::default(), Record::default()),
        };
        let mut inputs = vec![("sequence file", input)];
        let [weights, policy] = settings.eval.inputs();
        let record = settings.from.map(|(p, _)| p);
        for (what, path) in [weights, policy, ("record file", record)] {
            inputs.extend(path.map(|p| (what, p.to_path_buf())));
        }
        let kept_pieces = start.index;
        let params = Params {
            ranking,
            rules,
            start,
            objective,
        };
        let plan_len = sequence.len();
        Ok(Plan {
            input_bytes: input_bytes(plan_len, &params),
            instance: Instance {
                sequence,
                params,
                kept,
            },
            bytes_per_state: BYTES_PER_STATE,
            closing: "\n",
            kept: kept_pieces,
            about: false,
            resumable: true,
            inputs,
        })
    }

    fn search<'p>(
        &'p self,
        instance: &'p Instance,
    ) -> (Seam<'p>, Run<super::super::bitboard::Board>) {
        Seam::new(&instance.sequence, &instance.params)
    }

    fn writer<'p>(&'p self, instance: &'p Instance) -> SolveWriter<'p> {
        SolveWriter {
            instance,
            out: None,
        }
    }
}

/// The contest's record (one line of tokens) as the search decides it.
pub(crate) struct SolveWriter<'p> {
    instance: &'p Instance,
    out: Option<RecordStream<'p, RecordOut>>,
}

impl Writer for SolveWriter<'_> {
    type Code = u16;

    fn start(&mut self, out: &RecordOut) -> Result<(), CliError> {
        let instance = self.instance;
        let p = &instance.params;
        let writer = RecordStream::new(
            &instance.sequence,
            p.rules,
            &p.start,
            &instance.kept,
            out.clone(),
        )
        .map_err(record_failed)?;
        self.out = Some(writer);
        Ok(())
    }

    fn pieces(&mut self, codes: &[u16], _: &RecordOut) -> Result<(), CliError> {
        let placements: Vec<Placement> = codes.iter().map(|&c| Placement::unpack(c)).collect();
        self.started()?
            .placements(&placements)
            .map_err(record_failed)
    }

    fn finish(mut self, line: &Line<u16>, out: &RecordOut) -> Result<Verdict, CliError> {
        self.pieces(&line.placements, out)?;
        let writer = self.out.take().ok_or_else(not_started)?;
        let (report, stats) = writer.finish(line.score).map_err(record_failed)?;
        let p = &self.instance.params;
        let rules = p.rules;
        let scorecard = report.scorecard(self.instance.sequence.len(), rules);
        let [c1, c2, c3, c4] = report.clears;
        let summary = format!(
            "pieces locked: {}, lines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4})\n\
             score weight {}\n\
             checked by the rules engine ({}): record valid, same score\n\
             end: {}\n\
             Score = {}\n",
            report.pieces_locked,
            report.lines,
            p.ranking.score_weight,
            rules.mode_name(),
            scorecard.end.text,
            report.score
        );
        let solved = serde_json::json!({
            "score_weight": p.ranking.score_weight,
            "judge": rules.locks_in_mid_air(),
            "piece_limit": rules.piece_limit,
            "weights": p.ranking.weights,
            "policy": p.ranking.policy,
        });
        let own = joined(report.own(Some(&stats)), solved);
        Ok(Verdict {
            summary,
            scorecard,
            own,
        })
    }
}

impl<'p> SolveWriter<'p> {
    fn started(&mut self) -> Result<&mut RecordStream<'p, RecordOut>, CliError> {
        self.out.as_mut().ok_or_else(not_started)
    }
}

fn not_started() -> CliError {
    CliError::internal("the record was written before its start")
}

/// The error of a record that could not be written out or checked: a closed stdout ends the
/// program quietly, as the other binaries' writes do.
fn record_failed(e: SolveError) -> CliError {
    match e {
        SolveError::Write(e) => stdout_failed(e, "the record"),
        e => CliError::internal(e),
    }
}
