//! The command line of the games whose records hold a line per piece of a sequence file and
//! are checked against it alone (the browser game, the olympiad's): `check`, with a summary
//! ending in `Score = N` or one JSON object, and what `solve` plans for them and the pieces
//! its `--from-record` keeps.

use super::registry::{CheckRun, Entry};
use super::report::{misfit_hint, print_check, Checked};
use super::solve::{Plan, SolveSettings};
use super::CliError;
use super::{read_sequence, read_text, write_file};
use super::{refuse_overwriting, refuse_stdin_twice, refuse_stdout};
use std::path::{Path, PathBuf};
use tetris_kit::piece::Kind;
use tetris_kit::piece_lines::PieceReplay;
use tetris_kit::scorecard::ReplayReport;
use tetris_kit::text::RecordError;

/// What `check --game G` is asked for.
pub(crate) struct CheckOptions<'a> {
    /// `--game`'s value.
    pub(crate) game: &'a str,
    /// The games the binary plays, for a record of another.
    pub(crate) games: &'a [&'a dyn Entry],
    pub(crate) sequence: &'a Path,
    pub(crate) record: &'a Path,
    pub(crate) json: bool,
    /// Where to write the viewer's page (the games that have one).
    pub(crate) html: Option<&'a Path>,
}

/// How one game checks a record's text and reports it.
pub trait PlainCheck {
    /// A valid record's report, which gives the one form ([`Checked::of`]).
    type Report: ReplayReport;
    /// Replays the text on the sequence; the error names `file`.
    fn check(sequence: &[Kind], text: &str, file: &str) -> Result<Self::Report, Invalid>;
    /// The viewer's page of the record's text, named `file`, showing its error where it has
    /// one, `hint` after it (None: the game has no page).
    fn page(_sequence: &[Kind], _text: &str, _file: &str, _hint: &str) -> Option<String> {
        None
    }
}

/// Why a record is invalid, as a game's check found it.
pub struct Invalid {
    pub(crate) message: String,
    /// The piece (from 1) the replay failed at, for a record that parsed: where it is one of
    /// the first pieces, or past the sequence's last, the record may be of another sequence
    /// ([`misfit_hint`]).
    pub(crate) replayed: Option<usize>,
    /// The record's first line, where it does not parse for that line is not the header
    /// ([`tetris_kit::text::Problem::first_line`]).
    pub(crate) first_line: Option<String>,
}

impl Invalid {
    /// A record that does not parse, with its first line where that is what is wrong.
    pub fn unparsed(message: String, first_line: Option<&str>) -> Invalid {
        Invalid {
            message,
            replayed: None,
            first_line: first_line.map(str::to_string),
        }
    }

    /// A record that parsed and does not replay: its error at `piece` (from 1), where it
    /// names one.
    pub fn unplayed(message: String, piece: Option<usize>) -> Invalid {
        Invalid {
            message,
            replayed: piece,
            first_line: None,
        }
    }
}

/// Replays a record and prints its report: exit code 0 for a valid record, 1 for an invalid
/// one, whose report is its error and `Score = 0` ([`print_check`]). A record file that
/// cannot be read is no record judged: its error alone, exit code 2.
pub(crate) fn check<G: PlainCheck>(options: &CheckOptions) -> Result<(), CliError> {
    let sequence = read_sequence(options.sequence)?;
    let text = read_text(options.record, "record file")?;
    let file = super::file_name(options.record);
    let result = G::check(&sequence, &text, &file);
    let other = super::another_games_hint(
        options.games,
        result.as_ref().err().and_then(|e| e.first_line.as_deref()),
    );
    let result = result.map_err(|e| {
        let hint = (e.replayed).and_then(|p| misfit_hint(p, options.sequence, sequence.len()));
        e.message + &other + &hint.unwrap_or_default()
    });
    if let Some(path) = options.html {
        if let Some(page) = G::page(&sequence, &text, &file, &other) {
            write_file("--html", path, page)?;
        }
    }
    let checked = result.as_ref().map(Checked::of);
    print_check(
        options.game,
        options.json,
        checked.as_ref().map_err(|e| e.as_str()),
    )
}

/// `check --game G SEQUENCE RECORD` for a game checked on a sequence file alone: the
/// record required, no output onto an input, the report, and exit code 1 for an invalid
/// record.
pub fn check_game<G: PlainCheck>(
    run: &CheckRun,
    html: Option<&Path>,
    game: &str,
) -> Result<(), CliError> {
    let args = run.args;
    let Some(record) = &args.record else {
        return Err(CliError::usage(format!(
            "check --game {game} needs a sequence file and a record file"
        )));
    };
    let inputs = [
        ("sequence file", Some(args.input.as_path())),
        ("record file", Some(record.as_path())),
    ];
    refuse_stdin_twice(&inputs)?;
    refuse_stdout("--html", html, "the report")?;
    refuse_overwriting("--html", html, &inputs)?;
    check::<G>(&CheckOptions {
        game,
        games: run.games,
        sequence: &args.input,
        record,
        json: args.json,
        html,
    })
}

/// The pieces `solve --from-record` keeps: the first `--from-piece` of its record, read by
/// `parse` into each piece's entry and the line it is on, and each played on `replay` (none
/// where `--from-record` is not given). A record that does not replay, or whose game ends
/// among the kept pieces, is refused: no search goes on from it.
pub fn kept_pieces<R: PieceReplay>(
    settings: &SolveSettings,
    parse: impl FnOnce(&str) -> ParsedPieces<R>,
    replay: &mut R,
) -> Result<Vec<R::Entry>, CliError>
where
    R::Entry: Clone,
{
    let Some((path, pieces)) = settings.from else {
        return Ok(Vec::new());
    };
    let text = read_text(path, "record file")?;
    let file = path.display().to_string();
    let (record, lines) = parse(&text).map_err(|e| {
        let hint = super::another_games_hint(settings.games, e.first_line());
        settings.from_record_invalid(e.located(&file) + &hint)
    })?;
    settings.check_kept(record.len())?;
    for (piece, &line) in record.iter().zip(&lines).take(pieces) {
        let game_over = (replay.play_entry(piece, line))
            .map_err(|e| settings.from_record_invalid(e.located(&file)))?;
        if game_over {
            return Err(settings.from_record_invalid(format!(
                "{file}:{line}: the game ends at this piece, so no search can go on from it"
            )));
        }
    }
    Ok(record[..pieces].to_vec())
}

/// A record's text read into each piece's entry and the line it is on, or its error.
pub(crate) type ParsedPieces<R> =
    Result<(Vec<<R as PieceReplay>::Entry>, Vec<usize>), RecordError<<R as PieceReplay>::Problem>>;

/// The problem instance of a game played on a sequence file: the sequence (to `--pieces`), the
/// search's parameters, the pieces kept from `--from-record` and the state they leave.
pub struct Instance<P, E, S> {
    pub sequence: Vec<Kind>,
    pub params: P,
    pub kept: Vec<E>,
    pub start: S,
}

/// `solve`'s plan of a game played on a sequence file: the file read (to `--pieces`) and
/// handed to `read`, which reads the game's own inputs and keeps `--from-record`'s pieces,
/// with `bytes_per_state` the game's own ([`planned`]).
pub fn plan<P, E, S>(
    settings: &SolveSettings,
    bytes_per_state: u64,
    read: impl FnOnce(Vec<Kind>) -> Result<Instance<P, E, S>, CliError>,
) -> Result<Plan<Instance<P, E, S>>, CliError> {
    let input = settings.sequence_file()?.to_path_buf();
    let instance = read(settings.sequence()?)?;
    let (pieces, kept) = (instance.sequence.len(), instance.kept.len());
    Ok(planned(
        settings,
        input,
        (pieces, kept),
        bytes_per_state,
        instance,
    ))
}

/// What `solve` plans for a game played on the sequence file `input`, of `pieces` pieces,
/// with `kept` of them kept from `--from-record` and `bytes_per_state` the game's own: the
/// files no output may overwrite (the sequence, the evaluation files, the record), the
/// sequence held beside the beam, and a run that an interrupt can resume.
fn planned<I>(
    settings: &SolveSettings,
    input: PathBuf,
    (pieces, kept): (usize, usize),
    bytes_per_state: u64,
    instance: I,
) -> Plan<I> {
    let mut inputs = vec![("sequence file", input)];
    for (what, path) in settings.eval.inputs() {
        inputs.extend(path.map(|p| (what, p.to_path_buf())));
    }
    inputs.extend(settings.from.map(|(p, _)| ("record file", p.to_path_buf())));
    Plan {
        bytes_per_state,
        // The sequence, parsed beside its file's text: two bytes a piece.
        input_bytes: 2 * pieces as u64,
        closing: "",
        kept,
        about: false,
        resumable: true,
        inputs,
        instance,
    }
}
