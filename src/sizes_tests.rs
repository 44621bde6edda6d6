//! The library's sizes, held over the workspace's library sources (this crate's and those of
//! the search, the kit and the command line): no source file over 500 lines and no function
//! over 80, so that a reader finds one topic a file and one step a function. The one function
//! allowed to be longer is the evaluation's batch kernel, whose split costs CPU (its doc
//! comment says how much). The test files are held to the same 500 lines.

use crate::layers_tests::{sources, LIBRARY_SOURCES};
use std::path::Path;

const MAX_FILE_LINES: usize = 500;
const MAX_FUNCTION_LINES: usize = 80;
/// Functions allowed over the limit, as `file:name`, each with the reason in its doc comment.
const LONG_FUNCTIONS: [&str; 1] = ["crates/kit/src/eval.rs:features_batch"];

/// `text` with every comment, string and character literal blanked to spaces (line breaks
/// kept), so that the braces left are the code's.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, span: &[char]| {
        out.extend(span.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
    };
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let end = if rest.starts_with(&['/', '/']) {
            rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            (2..rest.len())
                .find(|&k| rest[k - 1] == '*' && rest[k] == '/')
                .map_or(rest.len(), |k| k + 1)
        } else if let Some(len) = raw_string(rest, i == 0 || !is_word(chars[i - 1])) {
            len
        } else if rest[0] == '"' {
            let mut k = 1;
            while k < rest.len() && rest[k] != '"' {
                k += if rest[k] == '\\' { 2 } else { 1 };
            }
            (k + 1).min(rest.len())
        } else if rest[0] == '\'' && rest.len() > 2 && (rest[2] == '\'' || rest[1] == '\\') {
            // A character literal, not a lifetime: 'x' or an escape up to its quote.
            (2..rest.len().min(12))
                .find(|&k| rest[k] == '\'')
                .map_or(1, |k| k + 1)
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The length of a raw string literal (`r"…"`, `r#"…"#`, `br"…"`) at the start of `rest`.
fn raw_string(rest: &[char], at_word_start: bool) -> Option<usize> {
    let skip = usize::from(rest.first() == Some(&'b'));
    if !at_word_start || rest.get(skip) != Some(&'r') {
        return None;
    }
    let hashes = rest[skip + 1..].iter().take_while(|&&c| c == '#').count();
    let open = skip + 1 + hashes;
    if rest.get(open) != Some(&'"') {
        return None;
    }
    let close: Vec<char> = std::iter::once('"')
        .chain(std::iter::repeat_n('#', hashes))
        .collect();
    (open + 1..rest.len())
        .find(|&k| rest[k..].starts_with(&close))
        .map(|k| k + close.len())
}

/// The name of the function a line declares, if it declares one.
fn declared_function(line: &str) -> Option<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "fn")?;
    let qualifiers_only = words[..at].iter().all(|w| {
        w.starts_with("pub") || ["const", "async", "unsafe", "extern", "\"C\""].contains(w)
    });
    let name = words.get(at + 1)?;
    let end = name.find(|c: char| !is_word(c)).unwrap_or(name.len());
    (qualifiers_only && end > 0).then(|| &name[..end])
}

/// Every function of `text` over the limit, as (name, first line, lines).
fn long_functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = declared_function(line) else {
            continue;
        };
        let mut depth = 0i32;
        let mut opened = false;
        for (end, body) in lines.iter().enumerate().skip(start) {
            for c in body.chars() {
                match c {
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if (opened && depth <= 0) || (!opened && body.trim_end().ends_with(';')) {
                let length = end - start + 1;
                if length > MAX_FUNCTION_LINES {
                    found.push((name.to_string(), start + 1, length));
                }
                break;
            }
        }
    }
    found
}

#[test]
fn no_library_file_is_over_500_lines_nor_a_function_over_80() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut over = Vec::new();
    let files = LIBRARY_SOURCES.iter().flat_map(|f| sources(&root.join(f)));
    for (path, text) in files {
        let file = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            over.push(format!("{file}: {lines} lines"));
        }
        for (name, line, length) in long_functions(&text) {
            if !LONG_FUNCTIONS.contains(&format!("{file}:{name}").as_str()) {
                over.push(format!("{file}:{line}: fn {name} is {length} lines"));
            }
        }
    }
    assert!(over.is_empty(), "over the limits:\n{}", over.join("\n"));
}

/// The tests are read by the same people: no test file over 500 lines either (their functions
/// may run longer, a case table being one step).
#[test]
fn no_test_file_is_over_500_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let over: Vec<String> = sources(&root.join("tests"))
        .into_iter()
        .filter(|(_, text)| text.lines().count() > MAX_FILE_LINES)
        .map(|(path, text)| format!("{}: {} lines", path.display(), text.lines().count()))
        .collect();
    assert!(over.is_empty(), "over the limit:\n{}", over.join("\n"));
}

/// The reader sees through what would hide a brace or fake a function: strings (raw ones
/// too), characters, comments and lifetimes.
#[test]
fn the_length_reader_counts_code_braces_only() {
    let body: String = (0..85).map(|i| format!("    let _x{i} = 0;\n")).collect();
    let long = format!("pub fn long<'a>(s: &'a str) {{\n{body}}}\n");
    assert_eq!(long_functions(&long), [("long".to_string(), 1, 87)]);
    let tricky = format!(
        "fn short() {{ let _ = \"}}\"; let _ = '}}'; let _ = r#\"}}\"#; }} // {{\n\
         /* fn hidden() {{ */\nfn other() {{\n{body}}}\n"
    );
    assert_eq!(long_functions(&tricky), [("other".to_string(), 3, 87)]);
    assert_eq!(long_functions("fn declared(x: u32);\n"), []);
}
