//! The crate's layers, held: the search knows no Tetris (it imports neither the kit nor a game),
//! the kit is built on the search's seam and imports no game, and a game imports the kit and
//! the search, never another game.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("the source tree is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file is readable");
                out.push((path, text));
            }
        }
    }
    out
}

/// The lines of the files under `src/<dir>` that name one of `forbidden` as a path.
fn offenders(dir: &str, forbidden: &[String]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut found = Vec::new();
    for (path, text) in sources(&root) {
        for (n, line) in text.lines().enumerate() {
            if forbidden.iter().any(|f| line.contains(f.as_str())) {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

fn games() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let mut names: Vec<String> = std::fs::read_dir(root)
        .expect("src/games is readable")
        .filter_map(|e| {
            let path = e.ok()?.path();
            path.is_dir()
                .then(|| path.file_name()?.to_str().map(str::to_string))?
        })
        .collect();
    names.sort();
    names
}

#[test]
fn the_kit_and_the_search_import_no_game() {
    let games = vec!["crate::games".to_string()];
    assert_eq!(offenders("kit", &games), Vec::<String>::new());
    assert_eq!(offenders("search", &games), Vec::<String>::new());
    let kit = vec!["crate::kit".to_string()];
    let search_uses_kit: Vec<String> = offenders("search", &kit)
        .into_iter()
        // The search's tests draw their random numbers from the kit's generator.
        .filter(|line| !line.contains("use crate::kit::sequence::SplitMix64;"))
        .collect();
    assert_eq!(search_uses_kit, Vec::<String>::new());
}

#[test]
fn no_game_imports_another() {
    let games = games();
    assert!(games.len() >= 4, "found the games {games:?}");
    for game in &games {
        let others: Vec<String> = games
            .iter()
            .filter(|other| *other != game)
            .flat_map(|other| [format!("games::{other}::"), format!("games::{other};")])
            .collect();
        let found = offenders(&format!("games/{game}"), &others);
        assert_eq!(found, Vec::<String>::new(), "{game} imports another game");
    }
}

/// The files of `src/<dir>` that name clap, as `path: line`.
fn clap_users(dir: &str) -> Vec<String> {
    offenders(dir, &["clap".to_string()])
        .into_iter()
        .map(|line| line.split(": ").next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn only_the_command_line_layer_knows_clap() {
    assert_eq!(clap_users("kit"), Vec::<String>::new());
    assert_eq!(clap_users("search"), Vec::<String>::new());
    // In a game, only its `cli` module (a file, or a folder) adds its options to the binaries.
    let engines: Vec<String> = clap_users("games")
        .into_iter()
        .filter(|line| !line.contains("/cli.rs:") && !line.contains("/cli/"))
        .collect();
    assert_eq!(engines, Vec::<String>::new());
}

#[test]
fn the_command_line_layer_names_no_game() {
    // The drivers play the games through the registry they are given, never one by name.
    let games: Vec<String> = games().iter().map(|g| format!("games::{g}")).collect();
    assert_eq!(offenders("cli", &games), Vec::<String>::new());
}

/// The files a `mod NAME;` line (with its `#[path = "..."]`, where it has one) in `file`
/// declares, where `cargo fmt` looks for them. A line inside a macro is not one rustfmt
/// follows, so only lines outside `macro_rules!` count.
fn declared(file: &Path, text: &str) -> Vec<PathBuf> {
    let dir = file.parent().expect("a file has a folder");
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    // `lib.rs`, `main.rs` and `mod.rs` own their folder; `a.rs` owns `a/`.
    let own = if ["lib", "main", "mod"].contains(&stem) {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let mut found = Vec::new();
    let mut path_attribute: Option<String> = None;
    let mut in_macro = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("macro_rules!") {
            in_macro = true;
        }
        if in_macro {
            in_macro = !line.starts_with('}');
            continue;
        }
        if let Some(rest) = line.strip_prefix("#[path = \"") {
            path_attribute = rest.split('"').next().map(str::to_string);
            continue;
        }
        let words = line
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ");
        let Some(name) = words.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) else {
            if !line.starts_with("#[") {
                path_attribute = None;
            }
            continue;
        };
        found.push(match path_attribute.take() {
            Some(path) => dir.join(path),
            None if own.join(format!("{name}.rs")).exists() => own.join(format!("{name}.rs")),
            None => own.join(name).join("mod.rs"),
        });
    }
    found
}

#[test]
fn cargo_fmt_reaches_every_source_file() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut roots: Vec<PathBuf> = vec![src.join("lib.rs")];
    for (path, _) in sources(&src.join("bin")) {
        roots.push(path);
    }
    let mut reached: Vec<PathBuf> = Vec::new();
    while let Some(file) = roots.pop() {
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{} is declared but unreadable: {e}", file.display()));
        roots.extend(declared(&file, &text));
        reached.push(file);
    }
    let missed: Vec<String> = sources(&src)
        .into_iter()
        .filter(|(path, _)| !reached.contains(path))
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert_eq!(
        missed,
        Vec::<String>::new(),
        "files no plain `mod` line declares: cargo fmt --check never reads them"
    );
}
