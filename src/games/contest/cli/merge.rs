//! `merge`: combines records of the contest's game into one that scores at least as much as the
//! best (see [`crate::games::contest::merge`]).

use super::options::{print_record, read_record, GameArg, RulesOptions};
use crate::cli::drivers::parse_command_line;
use crate::cli::registry::{only_game, Entry};
use crate::cli::{exit_code, read_sequence, refuse_stdin_twice, CliError, EXIT_INVALID};
use crate::games::contest::merge::{merge, MergeError, Merged};
use crate::games::contest::solve::verify;
use crate::kit::text::FIRST_PIECES;
use crate::say;
use clap::Parser;
use std::path::PathBuf;

/// Merge move records of one piece sequence: wherever two records leave the same board after
/// the same piece, the start of one can go on with the end of the other. Prints the
/// highest-scoring combination (one line) on stdout, checked by the rules engine, and a summary
/// ending in `Score = N` on stderr.
///
/// Every record is replayed by the rules; for each (piece, board) the way there with the most
/// points is kept, and the best whole game this makes is printed: never less than the best
/// record, and a record merged alone comes back whole. The summary names the pieces taken from
/// each record and the gain over the best one.
///
/// Exit code 0 for a merged record, 1 for a record that does not parse or is of another
/// sequence (its first three pieces do not all lock at rest: a strict merge refuses it naming
/// the file, a judge merge warns) or where no record replays and nothing merged scores, 2 for
/// unusable arguments or files.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Piece sequence file (e.g. inputs/tencent.txt).
    ///
    /// The sequence every record was made for: letters IJLOSTZ, whitespace and commas ignored,
    /// `#` comments.
    input: PathBuf,
    /// The records to merge (at least one); on equal scores the earlier one is kept.
    ///
    /// Each is a record of the contest's game in its answer format (`N`, `Lk`, `Rk`, `Dk`, `Ck`
    /// tokens). A strict merge also takes records that only `check --judge` accepts and uses
    /// their pieces that lock at rest, with a note naming each such record's first mid-air lock.
    #[arg(required = true)]
    records: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    rules: RulesOptions,
    /// No summary.
    ///
    /// Only the merged record is printed (on stdout); errors still go to stderr.
    #[arg(long)]
    quiet: bool,
}

/// `--judge` as `merge` reads it (the shared text speaks of a search).
const JUDGE_HELP: &str = "Merge by the contest web replay's rules: a piece locks wherever its \
    moves leave it, even in mid-air, and whatever follows the end of the game is ignored. The \
    merged record may then lock in mid-air; it passes `check --judge`, not strict `check`. \
    Without it, records with mid-air locks are still taken, and only their pieces that lock at \
    rest are used.";

/// `merge`'s `main`: the contest's game alone of `games`, the only one it plays.
pub fn merge_main(games: &[&dyn Entry]) -> std::process::ExitCode {
    if let Err(e) = crate::cli::refuse_closed_stdout("the record") {
        return exit_code(Err(e));
    }
    let args: Args = parse_command_line(|c| {
        GameArg::taking(c, games).mut_arg("judge", |a| a.help(JUDGE_HELP).long_help(None::<&str>))
    });
    exit_code(only_game(games, "contest", &args.game.game).and_then(|()| run(&args, games)))
}

fn run(args: &Args, games: &[&dyn Entry]) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let mut inputs = vec![("sequence file", Some(args.input.as_path()))];
    inputs.extend(
        args.records
            .iter()
            .map(|r| ("record file", Some(r.as_path()))),
    );
    refuse_stdin_twice(&inputs)?;
    let sequence = read_sequence(&args.input)?;
    let mut records = Vec::new();
    for path in &args.records {
        records.push(read_record(games, path)?);
    }
    let merged = merge(&sequence, &records, rules).map_err(|e| merge_error(e, args))?;
    if merged.best_input().is_none() && merged.score == 0 {
        // Nothing of any record scored: the records are likely of another sequence.
        return Err(CliError {
            message: format!(
                "no record replays by these rules and nothing merged scores: are they records of \
                 {}? (`check {} RECORD` says where each one fails)",
                args.input.display(),
                args.input.display()
            ),
            code: EXIT_INVALID,
        });
    }
    // The merge matched boards by a 64-bit fingerprint: the rules engine has the last word.
    let (report, _) =
        verify(&sequence, &merged.record, merged.score, rules).map_err(CliError::internal)?;
    print_record(&merged.record)?;
    if !args.quiet {
        say_mid_air(&merged, args, rules);
        for part in &merged.parts {
            say!(
                "pieces {}-{}: {}",
                part.first + 1,
                part.first + part.pieces,
                args.records[part.record].display()
            );
        }
        say!(
            "{} locked; checked by the rules engine ({}): record valid, same score",
            crate::kit::text::plural(report.pieces_locked, "piece"),
            rules.mode_name()
        );
        say!("{}", against_inputs(&merged, &args.records));
        say!("Score = {}", report.score);
    }
    Ok(())
}

/// The error of a merge refused, naming the record file where it is one record's fault.
fn merge_error(e: MergeError, args: &Args) -> CliError {
    match e {
        MergeError::Invalid { number, detail } => CliError {
            message: format!(
                "record file {}: it does not replay: {detail}",
                args.records[number - 1].display(),
            ),
            code: EXIT_INVALID,
        },
        MergeError::OtherSequence { number, piece } => CliError {
            message: format!(
                "record file {}: piece {piece} locks in mid-air, among its first pieces: is {} \
                 the sequence it was made for? (`check {} RECORD` says where a record fails)",
                args.records[number - 1].display(),
                args.input.display(),
                args.input.display()
            ),
            code: EXIT_INVALID,
        },
        MergeError::NoStrictStart => CliError {
            message: e.to_string(),
            code: EXIT_INVALID,
        },
        MergeError::Empty => CliError::usage(e.to_string()),
    }
}

/// The records with mid-air locks, each named with its first: a strict merge takes them only in
/// part, and one whose first pieces lock in mid-air (which a judge merge takes) is likely of
/// another sequence. No record's pieces are left out without a word.
fn say_mid_air(merged: &Merged, args: &Args, rules: crate::games::contest::rules::Rules) {
    let judge = rules.locks_in_mid_air();
    for (path, piece) in args.records.iter().zip(&merged.mid_air) {
        let (path, sequence) = (path.display(), args.input.display());
        match piece {
            Some(piece) if !judge => say!(
                "note: {path}: piece {piece} locks in mid-air, which strict rules refuse: only \
                 its pieces that lock at rest are used (merge with --judge to take them all)"
            ),
            Some(piece) if *piece <= FIRST_PIECES => say!(
                "warning: {path}: piece {piece} locks in mid-air, among its first pieces: is it \
                 a record of {sequence}? (`check {sequence} {path}` says whether it replays by \
                 strict rules)"
            ),
            _ => {}
        }
    }
}

/// Whether the merge beat its best input: `best input: N (file); merged: M, +D`.
fn against_inputs(merged: &Merged, paths: &[PathBuf]) -> String {
    match merged.best_input() {
        Some((i, best)) => format!(
            "best input: {best} ({}); merged: {}, +{}",
            paths[i].display(),
            merged.score,
            // Never below: the best input's own line is one the merge can take.
            merged.score.saturating_sub(best)
        ),
        None => format!(
            "no input is valid by these rules on its own; merged: {}",
            merged.score
        ),
    }
}
