//! Files as every binary reads and writes them: errors that name the file, outputs that would
//! destroy an input refused before any work.

use super::errors::CliError;
use crate::search::limits;
use std::path::Path;

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
pub fn read_sequence(path: &Path) -> Result<Vec<crate::kit::piece::Kind>, CliError> {
    let text = read_text(path, "sequence file")?;
    crate::kit::sequence::parse_sequence(&text)
        .map_err(|e| CliError::usage(format!("sequence file {}: {e}", path.display())))
}

/// Reads and parses a move record file. A file that cannot be read is a usage error; one that
/// reads but is not a record is an invalid record (exit 1, as `check` gives it), the error
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

/// Evaluation weights from a JSON file, or the shipped defaults.
pub fn read_weights(path: Option<&Path>) -> Result<crate::kit::eval::Weights, CliError> {
    match path {
        Some(p) => crate::kit::eval::Weights::from_json(&read_text(p, "weights file")?)
            .map_err(|e| CliError::usage(format!("weights file {}: {e}", p.display()))),
        None => Ok(crate::kit::eval::Weights::default()),
    }
}

/// The beam policy from a JSON file, or the shipped defaults.
pub fn read_policy(path: Option<&Path>) -> Result<crate::kit::policy::Policy, CliError> {
    match path {
        Some(p) => crate::kit::policy::Policy::from_json(&read_text(p, "policy file")?)
            .map_err(|e| CliError::usage(format!("policy file {}: {e}", p.display()))),
        None => Ok(crate::kit::policy::Policy::default()),
    }
}
