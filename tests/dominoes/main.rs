//! A tiny game added to the binaries' registry from outside the crate: dominoes dropped into a
//! field four columns wide, a line for every full row. This folder is the whole game (rules,
//! record, search seam, command-line side) and its tests; the one line that registers it is
//! in [`games`]. The tests play it through the same drivers `solve`, `check` and `gen` use.

use std::ffi::OsString;
use std::sync::Mutex;
use tetris_opt::cli::interrupt::RecordOut;
use tetris_opt::cli::registry::{Check, GameCli, Solve};
use tetris_opt::cli::solve::{Planned, Shared, Solver, Verdict, Writer};
use tetris_opt::cli::{read_text, CliError, EXIT_INVALID};
use tetris_opt::search::{Game, Line, Objective, Run, Sink};

/// The games the drivers are given: the product's, and this one.
fn games() -> Vec<&'static dyn GameCli> {
    [tetris_opt::games::ALL, &[&DOMINOES]].concat()
}

/// Columns of the field.
const COLUMNS: u32 = 4;

/// The game; what it prints goes to `out` (a test reads it there instead of from stdout).
struct Dominoes {
    out: Mutex<String>,
}

static DOMINOES: Dominoes = Dominoes {
    out: Mutex::new(String::new()),
};

/// The tests run one at a time: they share the game's output.
static SERIAL: Mutex<()> = Mutex::new(());

/// `--rows`, the field's height.
#[derive(clap::Args)]
struct DominoOptions {
    /// Dominoes: rows of the field (2 to 8).
    #[arg(long, default_value_t = 6)]
    rows: u32,
}

/// A placement: a flat domino at columns x and x + 1, or an upright one in column x.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Placement {
    upright: bool,
    x: u32,
}

impl Placement {
    fn all() -> impl Iterator<Item = Placement> {
        let flat = (0..COLUMNS - 1).map(|x| Placement { upright: false, x });
        flat.chain((0..COLUMNS).map(|x| Placement { upright: true, x }))
    }
    fn code(self) -> u16 {
        (self.upright as u16) << 4 | self.x as u16
    }
    fn of(code: u16) -> Placement {
        Placement {
            upright: code >> 4 == 1,
            x: u32::from(code & 15),
        }
    }
    fn parse(line: &str) -> Option<Placement> {
        let (o, x) = line.trim().split_once(' ')?;
        let x: u32 = x.trim().parse().ok()?;
        let upright = match o {
            "h" if x < COLUMNS - 1 => false,
            "v" if x < COLUMNS => true,
            _ => return None,
        };
        Some(Placement { upright, x })
    }
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{} {}", if self.upright { "v" } else { "h" }, self.x)
    }
}

/// The rules: a board is a bit per cell (row r, column c: bit 4r + c, row 0 at the bottom).
/// The domino drops straight down; full rows clear. `None`: it does not fit (the game ends).
fn drop(board: u32, rows: u32, p: Placement) -> Option<(u32, u64)> {
    let height = |c: u32| {
        (0..rows)
            .rev()
            .find(|&r| board >> (4 * r + c) & 1 == 1)
            .map_or(0, |r| r + 1)
    };
    let (cells, top) = if p.upright {
        let y = height(p.x);
        ([(y, p.x), (y + 1, p.x)], y + 2)
    } else {
        let y = height(p.x).max(height(p.x + 1));
        ([(y, p.x), (y, p.x + 1)], y + 1)
    };
    if top > rows {
        return None;
    }
    let mut board = cells.iter().fold(board, |b, &(r, c)| b | 1 << (4 * r + c));
    let mut lines = 0;
    let mut r = 0;
    while r < rows {
        if board >> (4 * r) & 15 == 15 {
            let below = board & ((1 << (4 * r)) - 1);
            board = below | (board >> (4 * (r + 1))) << (4 * r);
            lines += 1;
        } else {
            r += 1;
        }
    }
    Some((board, lines))
}

/// The search's side of the game: every placement of the next domino.
struct Seam {
    rows: u32,
}

impl Game for Seam {
    type Code = u16;
    type State = u32;
    type Depth = ();
    type Scratch = ();

    fn depth(&self, _: usize) {}

    fn expand(
        &self,
        _: &(),
        board: &u32,
        score: u64,
        parent: u32,
        _: &mut (),
        out: &mut Sink<u16>,
    ) -> u64 {
        let mut made = 0;
        for p in Placement::all() {
            if let Some((child, lines)) = drop(*board, self.rows, p) {
                // Lower is better: a low stack, then the lines banked.
                let key = child.count_ones() as f64 - 10.0 * (score + lines) as f64;
                let hash = u64::from(child).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                out.push(key, hash, score + lines, parent, p.code());
                made += 1;
            }
        }
        made
    }

    fn apply(&self, _: &(), board: &u32, code: &u16) -> u32 {
        drop(*board, self.rows, Placement::of(*code)).map_or(*board, |(b, _)| b)
    }
}

/// A sequence file: how many dominoes come (one number; `#` comments).
fn read_count(path: &std::path::Path) -> Result<usize, CliError> {
    let text = read_text(path, "sequence file")?;
    let line = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty());
    line.and_then(|l| l.parse().ok()).ok_or_else(|| {
        CliError::usage(format!(
            "sequence file {}: expected a count of dominoes",
            path.display()
        ))
    })
}

impl Dominoes {
    fn say(&self, text: String) {
        self.out
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_str(&text);
    }
    fn rows(matches: &clap::ArgMatches) -> Result<u32, CliError> {
        let rows = *matches.get_one::<u32>("rows").unwrap_or(&6);
        if !(2..=8).contains(&rows) {
            return Err(CliError::usage(format!(
                "--rows {rows}: the field has 2 to 8 rows"
            )));
        }
        Ok(rows)
    }
}

impl GameCli for Dominoes {
    fn id(&self) -> &'static str {
        "dominoes"
    }
    fn name(&self) -> &'static str {
        "the dominoes game (--game dominoes)"
    }
    fn about(&self) -> &'static str {
        "Dominoes in a field four columns wide (a test of the registry)"
    }
    fn default_width(&self) -> usize {
        16
    }
    fn solve_options(&self, options: clap::Command) -> clap::Command {
        <DominoOptions as clap::Args>::augment_args(options)
    }
    fn solve(&self, run: &Solve, options: &clap::ArgMatches) -> Result<(), CliError> {
        run.run(self, options)
    }
    fn check_options(&self, options: clap::Command) -> clap::Command {
        <DominoOptions as clap::Args>::augment_args(options)
    }
    fn check(&self, run: &Check, matches: &clap::ArgMatches) -> Result<(), CliError> {
        let rows = Self::rows(matches)?;
        let count = read_count(&run.args.input)?;
        let Some(path) = &run.args.record else {
            return Err(CliError::usage(
                "check --game dominoes needs a sequence file and a record file",
            ));
        };
        let text = read_text(path, "record file")?;
        let (mut board, mut score) = (0u32, 0u64);
        for (n, line) in text.lines().enumerate() {
            let placed = Placement::parse(line).and_then(|p| drop(board, rows, p));
            let Some((after, lines)) = placed.filter(|_| n < count) else {
                self.say(format!(
                    "error: {}:{}: {line:?} does not place a domino\nScore = 0\n",
                    path.display(),
                    n + 1
                ));
                return Err(CliError::reported(EXIT_INVALID));
            };
            (board, score) = (after, score + lines);
        }
        self.say(format!("Score = {score}\n"));
        Ok(())
    }
    fn gen_options(&self, options: clap::Command) -> clap::Command {
        options
    }
    fn generate(&self, _: &clap::ArgMatches) -> Result<String, CliError> {
        Ok("# gen --game dominoes\n40\n".to_string())
    }
}

/// What a dominoes solve reads: the field's height and how many dominoes come.
struct Plan {
    rows: u32,
    count: usize,
}

/// The game's side of `solve`: its options, its search, its record. Everything else (the
/// shared options, progress, the record streamed, Ctrl-C, --json, --distributed) is the
/// pipeline's.
impl Solver for Dominoes {
    type Plan = Plan;
    type Search<'p> = Seam;
    type Writer<'p> = DominoWriter;

    fn plan(&self, run: &Shared, options: &clap::ArgMatches) -> Result<Planned<Plan>, CliError> {
        let rows = Self::rows(options)?;
        let input = run.sequence_file()?.to_path_buf();
        let mut count = read_count(&input)?;
        if let Some(pieces) = run.args.pieces {
            count = count.min(pieces);
        }
        if run.from.is_some() {
            return Err(CliError::usage(
                "--from-record: dominoes start from an empty field",
            ));
        }
        Ok(Planned {
            plan: Plan { rows, count },
            bytes_per_state: 64,
            input_bytes: 0,
            closing: "",
            kept: 0,
            about: false,
            resumable: false,
            inputs: vec![("sequence file", input)],
        })
    }

    fn search<'p>(&'p self, plan: &'p Plan) -> (Seam, Run<u32>) {
        let run = Run::whole_game(0, plan.count, Objective::Score);
        (Seam { rows: plan.rows }, run)
    }

    fn writer<'p>(&'p self, plan: &'p Plan) -> DominoWriter {
        DominoWriter {
            rows: plan.rows,
            board: 0,
            lines: 0,
        }
    }
}

/// The record, a line a domino, each replayed by the rules before it is written.
struct DominoWriter {
    rows: u32,
    board: u32,
    lines: u64,
}

impl Writer for DominoWriter {
    type Code = u16;

    fn start(&mut self, _: &RecordOut) -> Result<(), CliError> {
        Ok(())
    }

    fn pieces(&mut self, codes: &[u16], out: &RecordOut) -> Result<(), CliError> {
        for &code in codes {
            let p = Placement::of(code);
            let (board, lines) = drop(self.board, self.rows, p)
                .ok_or_else(|| CliError::internal(format!("{p} does not place a domino")))?;
            (self.board, self.lines) = (board, self.lines + lines);
            out.piece(format_args!("{p}\n"))
                .map_err(|e| CliError::usage(e.to_string()))?;
        }
        Ok(())
    }

    fn finish(mut self, line: &Line<u16>, out: &RecordOut) -> Result<Verdict, CliError> {
        self.pieces(&line.placements, out)?;
        out.end("").map_err(|e| CliError::usage(e.to_string()))?;
        if self.lines != line.score {
            return Err(CliError::internal(
                "the record scores other than the search",
            ));
        }
        let mut json = serde_json::Map::new();
        json.insert("score".to_string(), self.lines.into());
        Ok(Verdict {
            summary: format!("Score = {}\n", self.lines),
            json,
        })
    }
}

/// A writer whose bytes a test reads.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// `solve` with the command line `words`: the record it wrote, or its error.
fn solve(words: &[&str]) -> Result<String, CliError> {
    let captured = Captured::default();
    let out = captured.clone();
    tetris_opt::cli::drivers::solve_to(&games(), line(words), None, false, &move || {
        Box::new(out.clone())
    })?;
    Ok(captured.text())
}

/// The command line `words` as the drivers take it.
fn line(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
}

/// What the game printed since the last call.
fn printed() -> String {
    std::mem::take(&mut *DOMINOES.out.lock().unwrap_or_else(|e| e.into_inner()))
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dominoes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a temporary file");
    path
}

#[test]
fn solve_plays_the_registered_game_and_check_agrees() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let games = games();
    let sequence = temp("seq.txt", "# forty dominoes\n40\n");
    let seq = sequence.to_str().expect("a UTF-8 path");
    let record = solve(&["solve", "--game", "dominoes", seq, "--rows", "5", "--quiet"])
        .expect("solve plays dominoes");
    assert_eq!(record.lines().count(), 40, "{record}");
    let path = temp("record.txt", &record);
    let rec = path.to_str().expect("a UTF-8 path");
    tetris_opt::cli::drivers::check(
        &games,
        line(&["check", "--game", "dominoes", seq, rec, "--rows", "5"]),
    )
    .expect("the record is valid");
    // Forty dominoes are 80 cells: 20 rows of 4 if every cell ends in a full row.
    assert_eq!(printed(), "Score = 20\n");
}

/// The options every game shares come from the pipeline, with no code of the game's own:
/// `--pieces`, `--json`, `--time-budget`, `--width-changes`, `--distributed` (a job of one
/// process here), and the memory check.
#[test]
fn the_test_game_takes_every_shared_option() {
    let seq = temp("seq-shared.txt", "40\n");
    let seq = seq.to_str().expect("a UTF-8 path");
    let base = ["solve", "--game", "dominoes", seq, "--quiet"];
    let whole = solve(&base).expect("a whole game");
    let with = |more: &[&str]| solve(&[&base[..], more].concat());

    let ten = with(&["--pieces", "10"]).expect("--pieces");
    assert_eq!(ten.lines().count(), 10, "{ten}");

    let json = std::env::temp_dir().join(format!("dominoes-{}.json", std::process::id()));
    let json_path = json.to_str().expect("a UTF-8 path");
    assert_eq!(with(&["--json", json_path]).expect("--json"), whole);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the summary is written"))
            .expect("JSON");
    assert_eq!(summary["game"], "dominoes");
    assert_eq!(summary["score"], 20);
    assert_eq!(summary["beam_width"], 16);

    assert_eq!(with(&["--distributed"]).expect("--distributed"), whole);
    assert_eq!(
        with(&["--time-budget", "1h"])
            .expect("--time-budget")
            .lines()
            .count(),
        40
    );
    let changed = with(&["--width-changes", "10:4"]).expect("--width-changes");
    assert_eq!(changed.lines().count(), 40);
    let late = with(&["--width-changes", "40:4"]).expect_err("past the last depth");
    assert!(
        late.message.contains("past the last of the 40 depths"),
        "{}",
        late.message
    );

    let e = with(&["--beam-width", "0"]).expect_err("a beam of no state");
    assert_eq!(e.code, 2);
    let e = with(&["--pieces", "0"]).expect_err("no piece");
    assert_eq!(e.message, "--pieces must be at least 1");
}

#[test]
fn check_reports_an_invalid_record_with_exit_code_1() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let games = games();
    let seq = temp("seq2.txt", "3\n");
    let rec = temp("bad.txt", "h 0\nh 3\n");
    let args = line(&[
        "check",
        "--game",
        "dominoes",
        seq.to_str().unwrap(),
        rec.to_str().unwrap(),
    ]);
    let e = tetris_opt::cli::drivers::check(&games, args).expect_err("h 3 is off the field");
    assert_eq!(e.code, EXIT_INVALID);
    assert!(printed().contains("bad.txt:2: \"h 3\" does not place a domino\nScore = 0"));
}

#[test]
fn each_game_refuses_the_options_of_the_others() {
    let games = games();
    let seq = temp("seq3.txt", "3\n");
    let seq = seq.to_str().expect("a UTF-8 path");
    let args = line(&["solve", "--game", "dominoes", seq, "--start-level", "18"]);
    let e = tetris_opt::cli::drivers::solve(&games, args, None, false).expect_err("an NES option");
    assert_eq!(
        e.message,
        "--start-level is an option of NES Tetris (--game nes), not of the dominoes game (--game dominoes)"
    );
    let args = line(&["solve", "inputs/tencent.txt", "--rows", "4"]);
    let e =
        tetris_opt::cli::drivers::solve(&games, args, None, false).expect_err("a dominoes option");
    assert_eq!(
        e.message,
        "--rows is an option of the dominoes game (--game dominoes), not of the contest's game"
    );
    assert_eq!(e.code, 2);
}

#[test]
fn the_help_lists_the_game_and_its_default_width() {
    let games = games();
    let help = tetris_opt::cli::drivers::solve_command(&games).render_help();
    assert!(help.contains("dominoes"), "{help}");
    assert!(help.contains("16 for dominoes"), "{help}");
    assert!(help.contains("--rows"), "{help}");
}

#[test]
fn gen_prints_the_games_sequence() {
    let matches = clap::Command::new("gen").get_matches_from(["gen"]);
    assert_eq!(
        DOMINOES.generate(&matches).expect("a sequence"),
        "# gen --game dominoes\n40\n"
    );
}

/// The variable that makes [`interrupted_child`] run: the file its record goes to.
const CHILD_RECORD: &str = "DOMINOES_RECORD";

/// The child of [`an_interrupt_writes_the_pieces_written_and_says_so`]: a solve whose record
/// goes to a file, interrupted by the pipeline's own signal at a known piece. Ignored in a
/// plain run (it ends its process).
#[test]
#[ignore = "run by an_interrupt_writes_the_pieces_written_and_says_so as a process of its own"]
fn interrupted_child() {
    let path = std::env::var_os(CHILD_RECORD).expect("run as a child, with its record file");
    let seq = temp("seq-child.txt", "40\n");
    let file = std::fs::File::create(path).expect("the record file");
    let args = line(&[
        "solve",
        "--game",
        "dominoes",
        seq.to_str().expect("UTF-8"),
        "--quiet",
    ]);
    let _ = tetris_opt::cli::drivers::solve_to(&games(), args, None, false, &move || {
        Box::new(file.try_clone().expect("the record file"))
    });
    panic!("the interrupt should have ended this process");
}

/// Ctrl-C or SIGTERM reaches the test game through the pipeline, with no code of its own:
/// the pieces written so far stay whole, one line says how many, and the exit code is the
/// signal's.
#[test]
fn an_interrupt_writes_the_pieces_written_and_says_so() {
    let dir = std::env::temp_dir().join(format!("dominoes-child-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let record = dir.join("record.txt");
    let run = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", "interrupted_child", "--ignored", "--nocapture"])
        .env(CHILD_RECORD, &record)
        .env(tetris_opt::cli::interrupt::INTERRUPT_AFTER, "12")
        .output()
        .expect("the child runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(128 + 15), "{stderr}");
    let text = std::fs::read_to_string(&record).expect("the record was written");
    assert_eq!(text.lines().count(), 12, "{text}");
    assert!(
        text.lines().all(|l| Placement::parse(l).is_some()),
        "{text}"
    );
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("interrupted: the record's first 12 pieces are written"),
        "{stderr}"
    );
}
