//! The workspace's layers, held. All but the games are crates, and cargo holds what they may
//! depend on: the search (`crates/search`) knows no Tetris, the kit (`crates/kit`) is built on
//! the search's seam and knows no game, the command line (`crates/cli`) is built on both and
//! knows no game either; these tests hold their manifests to it. In this crate, a game imports
//! the kit, the search and the command line, never another game nor the registry that lists
//! them; only the command-line layer
//! and the games' `cli` modules know clap, and each binary is a `main` of a few lines that
//! calls one of the command line's entry points.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its text.
pub(crate) fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
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

/// The folders of the workspace's library sources: this crate's and those of the crates below
/// it, relative to the workspace's root.
pub(crate) const LIBRARY_SOURCES: [&str; 4] = [
    "src",
    "crates/search/src",
    "crates/kit/src",
    "crates/cli/src",
];

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

/// The names of the packages a manifest depends on, in any of its dependency tables (those of
/// a target included): the key of each line of those tables, up to `=` or `.`.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_table = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_table = line.trim_matches(['[', ']']).ends_with("dependencies");
            continue;
        }
        let key = line.split(['=', '.']).next().unwrap_or_default().trim();
        if in_table && !key.is_empty() && !key.starts_with('#') {
            names.push(key.to_string());
        }
    }
    names
}

/// The packages of `forbidden` that the manifest of `crates/<name>` depends on.
fn forbidden_dependencies(name: &str, forbidden: &[&str]) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("crates/{name}/Cargo.toml"));
    let manifest = std::fs::read_to_string(&path).expect("the crate's manifest is readable");
    let found = dependencies(&manifest);
    assert!(!found.is_empty(), "{} names no dependency", path.display());
    found
        .into_iter()
        .filter(|d| forbidden.contains(&d.as_str()))
        .collect()
}

/// Cargo refuses a path to a crate that is not a dependency, so the manifests are where the
/// layers below the games are held: the search depends on neither the kit, the command line
/// nor this crate (whose games it would reach), the kit not on the command line or this crate,
/// and neither knows clap.
#[test]
fn the_search_and_the_kit_depend_on_nothing_above_them() {
    let above_search = ["tetris-kit", "tetris-cli", "tetris-opt", "clap"];
    let none: Vec<String> = Vec::new();
    assert_eq!(forbidden_dependencies("search", &above_search), none);
    assert_eq!(forbidden_dependencies("kit", &above_search[1..]), none);
}

/// The drivers play the games through the registry they are given, never one by name: the
/// command line's manifest does not list this crate, where the games are, so cargo refuses any
/// path into a game from it (which is also why no text check of its sources is needed).
#[test]
fn the_command_line_layer_depends_on_no_game() {
    let none: Vec<String> = Vec::new();
    assert_eq!(forbidden_dependencies("cli", &["tetris-opt"]), none);
}

/// The reader of the manifests sees every dependency table and nothing else.
#[test]
fn the_manifest_reader_finds_the_dependencies() {
    let manifest = "[package]\nname = \"x\"\n\n[dependencies]\nserde.workspace = true\n\
                    # a comment\nclap = { version = \"4\" }\n\n[features]\nmpi = [\"dep:mpi\"]\n\n\
                    [target.'cfg(unix)'.dev-dependencies]\ntetris-kit = { path = \"../kit\" }\n";
    assert_eq!(dependencies(manifest), ["serde", "clap", "tetris-kit"]);
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

/// The registry lists the games; a game is handed the list it plays among (the runs' `games`,
/// the contest's binaries' `main`) and never reads the registry above it.
#[test]
fn no_game_reads_the_registry() {
    let found = offenders("games", &["games::ALL".to_string()]);
    let found: Vec<&String> = found
        .iter()
        .filter(|line| !line.contains("src/games/mod.rs"))
        .collect();
    assert_eq!(found, Vec::<&String>::new(), "a game reads games::ALL");
}

/// The command line (`crates/cli`) is the layer that knows clap, and the manifests of the
/// crates below it do not list clap ([`the_search_and_the_kit_depend_on_nothing_above_them`]);
/// in this crate, only the games' `cli` modules name it.
#[test]
fn only_the_command_line_layer_knows_clap() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut users: Vec<String> = Vec::new();
    for (path, text) in sources(&src) {
        let within = path.strip_prefix(&src).expect("a file of src");
        let name = within.to_string_lossy().replace('\\', "/");
        // In a game its `cli` module (a file, or a folder) adds options to the binaries; this
        // file names clap to look for it.
        let command_line = (name.starts_with("games/")
            && (name.ends_with("/cli.rs") || name.contains("/cli/")))
            || name == "layers_tests.rs";
        if !command_line && text.contains("clap") {
            users.push(name);
        }
    }
    users.sort();
    assert_eq!(
        users,
        Vec::<String>::new(),
        "files outside the command line that name clap"
    );
}

/// Lines a binary's `main` may take, its signature and closing brace included.
const MAIN_LINES: usize = 10;

/// Whether `path` is an entry point of the command-line layer: a driver
/// (`tetris_opt::cli::drivers::solve_main`) or a game's own (`tetris_opt::games::contest::cli::
/// tune_main`).
fn entry_point(path: &str) -> bool {
    let name = |rest: &str| rest.ends_with("_main") && !rest.contains("::");
    if let Some(rest) = path.strip_prefix("tetris_opt::cli::drivers::") {
        return name(rest);
    }
    let Some(rest) = path.strip_prefix("tetris_opt::games::") else {
        return false;
    };
    match rest.split_once("::cli::") {
        Some((game, rest)) => !game.contains("::") && name(rest),
        None => false,
    }
}

/// What is wrong with a binary's source: anything but one `fn main` under [`MAIN_LINES`]
/// lines whose every path is a command-line entry point ([`entry_point`]), the registry of
/// games (`tetris_opt::games::ALL`) or `main`'s exit code.
fn binary_faults(text: &str) -> Vec<String> {
    let mut faults = Vec::new();
    if !text.starts_with("//!") {
        faults.push("no `//!` doc comment first".to_string());
    }
    let code: Vec<&str> = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect();
    let functions = code.iter().filter(|l| l.contains("fn ")).count();
    match code.iter().position(|l| l.starts_with("fn main(")) {
        Some(start) => {
            let end = (code[start..].iter()).position(|l| l.starts_with('}'));
            let lines = end.map_or(usize::MAX, |end| end + 1);
            if lines >= MAIN_LINES {
                faults.push(format!(
                    "`main` takes {lines} lines, not under {MAIN_LINES}"
                ));
            }
        }
        None => faults.push("no `fn main(`".to_string()),
    }
    if functions != 1 {
        faults.push(format!(
            "{functions} functions: `main` alone calls the library"
        ));
    }
    let separator = |c: char| !(c.is_alphanumeric() || "_:{*".contains(c));
    for token in code.iter().flat_map(|l| l.split(separator)) {
        let allowed = token == "tetris_opt::games::ALL"
            || token == "std::process::ExitCode"
            || entry_point(token);
        if token.contains("::") && !allowed {
            faults.push(format!(
                "`{token}` is no entry point of the command-line layer"
            ));
        }
    }
    faults
}

#[test]
fn every_binary_is_a_main_that_calls_an_entry_point() {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin");
    let binaries = sources(&bin);
    assert!(binaries.len() >= 7, "found {} binaries", binaries.len());
    let faults: Vec<String> = binaries
        .iter()
        .flat_map(|(path, text)| {
            let name = path.display().to_string();
            binary_faults(text)
                .into_iter()
                .map(move |f| format!("{name}: {f}"))
        })
        .collect();
    assert_eq!(faults, Vec::<String>::new());
}

/// The check of the binaries refuses what it is there to refuse.
#[test]
fn a_binary_with_its_own_logic_is_refused() {
    let thin = "//! `solve`.\n\nfn main() -> std::process::ExitCode {\n    \
                tetris_opt::cli::drivers::solve_main(tetris_opt::games::ALL)\n}\n";
    assert_eq!(binary_faults(thin), Vec::<String>::new());
    let parser = thin.replace("//! `solve`.\n", "//! `solve`.\nuse std::io::Write;\n");
    assert_eq!(binary_faults(&parser).len(), 1, "{parser}");
    let helper = thin.replace("cli::drivers::solve_main", "cli::registry::only_game");
    assert_eq!(binary_faults(&helper).len(), 1, "{helper}");
    let grouped = thin.replace(
        "fn main",
        "use tetris_opt::cli::{exit_code, CliError};\nfn main",
    );
    assert_eq!(binary_faults(&grouped).len(), 1, "{grouped}");
    let long = thin.replace(
        "    tetris_opt",
        &("    let _ = 0;\n".repeat(8) + "    tetris_opt"),
    );
    assert_eq!(binary_faults(&long).len(), 1, "{long}");
    let two = format!("{thin}fn run() {{}}\n");
    assert_eq!(binary_faults(&two).len(), 1, "{two}");
}

/// The files a `mod NAME;` line (with its `#[path = "..."]`, where it has one) in `file`
/// declares, where `cargo fmt` looks for them. A line inside a macro is not one rustfmt
/// follows, so only lines outside `macro_rules!` count. The tree has one module style, `a.rs`
/// beside `a/`: a `mod.rs` is never looked for, so one is reported as a file nothing declares.
fn declared(file: &Path, text: &str) -> Vec<PathBuf> {
    let dir = file.parent().expect("a file has a folder");
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    // `lib.rs` and `main.rs` own their folder; `a.rs` owns `a/`.
    let own = if ["lib", "main"].contains(&stem) {
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
            None => own.join(format!("{name}.rs")),
        });
    }
    found
}

#[test]
fn cargo_fmt_reaches_every_source_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folders: Vec<PathBuf> = LIBRARY_SOURCES.iter().map(|f| root.join(f)).collect();
    // Each crate's `lib.rs`, and each binary's `main`.
    let mut roots: Vec<PathBuf> = folders.iter().map(|f| f.join("lib.rs")).collect();
    for (path, _) in sources(&root.join("src/bin")) {
        roots.push(path);
    }
    let mut reached: Vec<PathBuf> = Vec::new();
    while let Some(file) = roots.pop() {
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{} is declared but unreadable: {e}", file.display()));
        roots.extend(declared(&file, &text));
        reached.push(file);
    }
    let missed: Vec<String> = (folders.iter().flat_map(|f| sources(f)))
        .filter(|(path, _)| !reached.contains(path))
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert_eq!(
        missed,
        Vec::<String>::new(),
        "files no plain `mod` line declares: cargo fmt --check never reads them"
    );
}
