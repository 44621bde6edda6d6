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
