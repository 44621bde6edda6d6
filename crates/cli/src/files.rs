//! Files as every binary reads and writes them: errors that name the file, outputs that would
//! destroy an input refused before any work.

use super::errors::CliError;
use super::limits;
use super::registry::Entry;
use std::path::Path;

/// The most any binary reads of one file: 256 MiB. The largest inputs made here are far below
/// it (`gen`'s largest sequence, 100 million pieces, is 101 MB; a contest record of a million
/// pieces about 12 MB), and a file past it (`/dev/zero`, a disk image named by mistake) is
/// refused instead of filling the memory.
pub(crate) const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Reads a whole text file (`-` is standard input); unreadable, non-UTF-8 or larger than
/// [`MAX_INPUT_BYTES`], it is a usage error naming the path.
pub fn read_text(path: &Path, what: &str) -> Result<String, CliError> {
    let bytes = read_capped(path)
        .map_err(|e| CliError::usage(format!("cannot read {what} {}: {e}", path.display())))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(CliError::usage(format!(
            "{what} {} is larger than {} MiB, the most a file read here may be (is it the file \
             meant?)",
            file_name(path),
            MAX_INPUT_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::usage(format!(
            "{what} {} is not text (invalid UTF-8 at byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The bytes of `path` (`-`: standard input), one more than [`MAX_INPUT_BYTES`] at most: a
/// stream that never ends stops there.
fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let limit = MAX_INPUT_BYTES + 1;
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(limit)
            .read_to_end(&mut bytes)?;
    } else {
        let file = std::fs::File::open(path)?;
        // A regular file's length spares the buffer's regrowth; a device says 0.
        let length = file.metadata().map_or(0, |m| m.len()).min(limit);
        bytes.reserve_exact(usize::try_from(length).unwrap_or(0));
        file.take(limit).read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// Reads and parses a sequence file.
pub fn read_sequence(path: &Path) -> Result<Vec<tetris_kit::piece::Kind>, CliError> {
    let text = read_text(path, "sequence file")?;
    tetris_kit::sequence::parse_sequence(&text)
        .map_err(|e| CliError::usage(format!("sequence file {}: {e}", path.display())))
}

/// A file as messages name it: its path, or `standard input` for `-`.
pub fn file_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// What is wrong with a record's `text` read from `path` for `game` (`--game`'s value) when
/// its header names another of `games` (`game nes`): `FILE:LINE: this is a record of NES
/// Tetris (--game nes), not of the contest's game`. `None` when the text names no game, or
/// `game`, or one no game answers to (each game's reader has its say on those). Any case of
/// the name counts: `game NES` is still plainly NES Tetris's.
pub fn record_of_another_game(
    games: &[&dyn Entry],
    game: &str,
    path: &Path,
    text: &str,
) -> Option<String> {
    let header = tetris_kit::text::game_header(text)?;
    let other = games
        .iter()
        .find(|g| g.id().eq_ignore_ascii_case(&header.game))
        .filter(|g| g.id() != game)?;
    let own = games
        .iter()
        .find(|g| g.id() == game)
        .map_or(game, |g| g.name());
    Some(format!(
        "{}:{}: this is a record of {}, not of {own}",
        file_name(path),
        header.line,
        other.name()
    ))
}

/// What ends the message of a record whose reader found `first_line` (as it quotes it) where
/// its header should be ([`tetris_kit::text::Problem::first_line`]), where that line is a
/// record of one of `games`: `; that is a record of NES Tetris: check it with `check --game nes
/// RECORD``, else nothing.
pub fn another_games_hint(games: &[&dyn Entry], first_line: Option<&str>) -> String {
    first_line
        .and_then(|line| games.iter().find_map(|g| g.record_hint(line)))
        .map_or_else(String::new, |hint| format!("; that is a record of {hint}"))
}

/// Refuses a beam width no binary accepts; `option` names it in the message.
pub fn check_width(option: &str, width: usize) -> Result<(), CliError> {
    Ok(limits::check_width(option, width)?)
}

/// Writes the file `option` names: the one wording of every binary's failure to write one
/// (`--json out/x.json: cannot write it: No such file or directory`). `-` is standard output,
/// for the options that take it (`play -o -`); the others refuse it first ([`refuse_stdout`]).
pub fn write_file(option: &str, path: &Path, contents: impl AsRef<[u8]>) -> Result<(), CliError> {
    if is_stdout(path) {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        return out
            .write_all(contents.as_ref())
            .and_then(|()| out.flush())
            .map_err(|e| super::errors::stdout_failed(e, &format!("{option} to standard output")));
    }
    std::fs::write(path, contents).map_err(|e| cannot_write(option, path, e))
}

/// Whether an output path is `-`, standard output.
pub fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

/// Refuses `-` for an output option where standard output already carries `carried` (the
/// record, the report): the two would be interleaved, and a file named `-` is never what was
/// meant.
pub fn refuse_stdout(option: &str, output: Option<&Path>, carried: &str) -> Result<(), CliError> {
    match output {
        Some(path) if is_stdout(path) => Err(CliError::usage(format!(
            "{option} -: standard output carries {carried}; give {option} a file name"
        ))),
        _ => Ok(()),
    }
}

/// Refuses two outputs (`option`, path) that name one file, before any work: the second
/// would replace the first. A file that does not exist yet counts by its path once its
/// folder is resolved (`out.html` and `./out.html`).
pub fn refuse_same_output(outputs: &[(&str, Option<&Path>)]) -> Result<(), CliError> {
    let given: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|&(option, path)| Some((option, path?)))
        .collect();
    for (i, &(first, a)) in given.iter().enumerate() {
        if let Some(&(second, b)) = given[i + 1..].iter().find(|&&(_, b)| same_file(a, b)) {
            return Err(CliError::usage(format!(
                "{first} {} and {second} {} name the same file: the one would replace the \
                 other (choose two paths)",
                a.display(),
                b.display()
            )));
        }
    }
    Ok(())
}

/// Refuses standard input (`-`) named by more than one of `inputs` (what each is, and its
/// path): the first would read it all and leave the other empty.
pub fn refuse_stdin_twice(inputs: &[(&str, Option<&Path>)]) -> Result<(), CliError> {
    let mut named: Vec<&str> = Vec::new();
    let mut count = 0;
    for &(what, path) in inputs {
        if path.is_some_and(|p| p == Path::new("-")) {
            count += 1;
            if !named.contains(&what) {
                named.push(what);
            }
        }
    }
    if count < 2 {
        return Ok(());
    }
    let named: Vec<String> = named.iter().map(|what| format!("the {what}")).collect();
    let given = match &named[..] {
        [what] => format!("{count} times as {what}"),
        _ => format!(
            "as {}",
            super::registry::listed(&named.iter().map(String::as_str).collect::<Vec<_>>())
        ),
    };
    let rest = if count == 2 {
        "one of them"
    } else {
        "all but one"
    };
    Err(CliError::usage(format!(
        "`-` (standard input) is given {given}, but it can be read only once: give {rest} as \
         a file"
    )))
}

/// Whether two paths name one file: the same file where both exist (a link, `./`, an
/// absolute path), else the same path once the folder each names is resolved.
pub fn same_file(a: &Path, b: &Path) -> bool {
    if let Ok(same) = ::same_file::is_same_file(a, b) {
        return same;
    }
    let resolved = |p: &Path| {
        let folder = match p.parent() {
            Some(f) if !f.as_os_str().is_empty() => f,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(folder).ok()?.join(p.file_name()?))
    };
    a == b || matches!((resolved(a), resolved(b)), (Some(a), Some(b)) if a == b)
}

/// The error for a file `option` names that could not be written.
pub fn cannot_write(option: &str, path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::usage(format!("{option} {}: cannot write it: {e}", path.display()))
}

/// Makes sure `path` can be written before a long run that ends by writing it, so that a typo
/// in a directory name does not cost the run. Leaves the file as it was (a file created for
/// the test is removed again).
pub(crate) fn check_writable(option: &str, path: &Path) -> Result<(), CliError> {
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

/// Removes what an earlier run left at the path of an output written at a run's end, once the
/// run is sure to start: a run that then fails or is interrupted leaves no file that looks like
/// its own. Only a regular file is removed (one a link names is emptied instead, the link
/// kept); a device or a pipe is left as it is.
pub fn remove_earlier_output(option: &str, path: &Path) -> Result<(), CliError> {
    let removed = match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => std::fs::remove_file(path),
        Ok(m) if m.is_symlink() && path.is_file() => std::fs::File::create(path).map(drop),
        _ => Ok(()),
    };
    match removed {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CliError::usage(format!(
            "{option} {}: cannot remove the earlier run's file: {e}",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// Refuses an output path that names one of the files the run reads (`inputs`: what each is,
/// and its path; `-`, standard input, is no file), or the file standard output goes to, before
/// any work: writing it would destroy that input or the program's own output. The same file
/// under another name (a link, `./`, an absolute path, `/dev/stdout`) counts.
pub fn refuse_overwriting(
    option: &str,
    output: Option<&Path>,
    inputs: &[(&str, Option<&Path>)],
) -> Result<(), CliError> {
    let Some(output) = output else {
        return Ok(());
    };
    refuse_standard_output_file(option, output)?;
    let named = inputs.iter().find_map(|&(what, input)| {
        let input = input.filter(|p| *p != Path::new("-"))?;
        ::same_file::is_same_file(output, input)
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

/// Refuses an output path that is the file standard output already goes to (`solve ... --json
/// r.out > r.out`, `--json /dev/stdout`): the one would replace or interleave the other. A
/// character device (a terminal, `/dev/null`) is no file anything is lost in, and is let be;
/// `-` is standard output by name, which each option takes or refuses itself.
fn refuse_standard_output_file(option: &str, output: &Path) -> Result<(), CliError> {
    if is_stdout(output) {
        return Ok(());
    }
    let (Ok(stdout), Ok(file)) = (
        ::same_file::Handle::stdout(),
        ::same_file::Handle::from_path(output),
    ) else {
        return Ok(());
    };
    let device = std::fs::metadata(output).is_ok_and(|m| {
        use std::os::unix::fs::FileTypeExt;
        m.file_type().is_char_device()
    });
    if device || stdout != file {
        return Ok(());
    }
    let program = super::errors::program_name();
    Err(CliError::usage(format!(
        "{option} {}: that is the file standard output goes to, which carries {program}'s own \
         output; writing both there would destroy one of them (choose another path, or \
         redirect standard output elsewhere)",
        output.display()
    )))
}

/// [`refuse_stdout`], [`refuse_overwriting`], then [`check_writable`]: the path of an output
/// file beside the program's own output on stdout (`solve`'s record, `tune`'s table), checked
/// before a run.
pub fn check_output(
    option: &str,
    output: &Path,
    inputs: &[(&str, Option<&Path>)],
) -> Result<(), CliError> {
    let program = super::errors::program_name();
    refuse_stdout(option, Some(output), &format!("{program}'s own output"))?;
    refuse_overwriting(option, Some(output), inputs)?;
    check_writable(option, output)
}

/// Evaluation weights from a JSON file, or the shipped defaults.
pub fn read_weights(path: Option<&Path>) -> Result<tetris_kit::eval::Weights, CliError> {
    match path {
        Some(p) => tetris_kit::eval::Weights::from_json(&read_text(p, "weights file")?)
            .map_err(|e| CliError::usage(format!("weights file {}: {e}", p.display()))),
        None => Ok(tetris_kit::eval::Weights::default()),
    }
}

/// The beam policy from a JSON file, or the shipped defaults.
pub fn read_policy(path: Option<&Path>) -> Result<tetris_kit::policy::Policy, CliError> {
    match path {
        Some(p) => tetris_kit::policy::Policy::from_json(&read_text(p, "policy file")?)
            .map_err(|e| CliError::usage(format!("policy file {}: {e}", p.display()))),
        None => Ok(tetris_kit::policy::Policy::default()),
    }
}
