//! The dominoes game itself: its rules, its record, its side of the search's seam and of the
//! command line, registered beside the product's games by [`games`].

use std::sync::Mutex;
use tetris_opt::cli::interrupt::RecordOut;
use tetris_opt::cli::registry::{CheckRun, Entry, GameCli, NoOptions, SolveRun};
use tetris_opt::cli::solve::{Plan, SolveSettings, Solver, Verdict, Writer};
use tetris_opt::cli::{read_text, CliError, EvalOptions, EXIT_INVALID};
use tetris_opt::kit::scorecard::{End, Reason, Scorecard};
use tetris_opt::search::{Game, Line, Objective, Run, Sink};

/// The games the drivers are given: the product's, and this one.
pub(crate) fn games() -> Vec<&'static dyn Entry> {
    [tetris_opt::games::ALL, &[&DOMINOES]].concat()
}

/// Columns of the field.
pub(crate) const COLUMNS: u32 = 4;

/// The game; what it prints goes to `out` (a test reads it there instead of from stdout).
pub(crate) struct Dominoes {
    pub(crate) out: Mutex<String>,
}

pub(crate) static DOMINOES: Dominoes = Dominoes {
    out: Mutex::new(String::new()),
};

/// The tests run one at a time: they share the game's output.
pub(crate) static SERIAL: Mutex<()> = Mutex::new(());

/// `--rows`, the field's height.
#[derive(clap::Args)]
pub(crate) struct DominoOptions {
    /// Dominoes: rows of the field (2 to 8).
    #[arg(long, default_value_t = 6)]
    rows: u32,
}

/// A placement: a flat domino at columns x and x + 1, or an upright one in column x.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placement {
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
    pub(crate) fn parse(line: &str) -> Option<Placement> {
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
pub(crate) fn drop(board: u32, rows: u32, p: Placement) -> Option<(u32, u64)> {
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
pub(crate) struct Seam {
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
pub(crate) fn read_count(path: &std::path::Path) -> Result<usize, CliError> {
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
    fn rows(options: &DominoOptions) -> Result<u32, CliError> {
        let rows = options.rows;
        if !(2..=8).contains(&rows) {
            return Err(CliError::usage(format!(
                "--rows {rows}: the field has 2 to 8 rows"
            )));
        }
        Ok(rows)
    }
}

impl GameCli for Dominoes {
    type SolveOptions = DominoOptions;
    type CheckOptions = DominoOptions;
    type GenOptions = NoOptions;

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
    fn solve(&self, run: &SolveRun, options: &DominoOptions) -> Result<(), CliError> {
        run.run(self, options, &EvalOptions::default())
    }
    fn check(&self, run: &CheckRun, options: &DominoOptions) -> Result<(), CliError> {
        let rows = Self::rows(options)?;
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
    fn generate(&self, _: &NoOptions) -> Result<String, CliError> {
        Ok("# gen --game dominoes\n40\n".to_string())
    }
}

/// The problem instance, what a dominoes solve reads: the field's height and how many dominoes
/// come.
pub(crate) struct Instance {
    rows: u32,
    count: usize,
}

/// The game's side of `solve`: its options, its search, its record. Everything else (the
/// shared options, progress, the record streamed, Ctrl-C, --json, --distributed) is the
/// pipeline's.
impl Solver for Dominoes {
    type Instance = Instance;
    type Search<'p> = Seam;
    type Writer<'p> = DominoWriter;

    fn plan(
        &self,
        settings: &SolveSettings,
        options: &DominoOptions,
    ) -> Result<Plan<Instance>, CliError> {
        let rows = Self::rows(options)?;
        let input = settings.sequence_file()?.to_path_buf();
        let mut count = read_count(&input)?;
        if let Some(pieces) = settings.args.pieces {
            count = count.min(pieces);
        }
        if settings.from.is_some() {
            return Err(CliError::usage(
                "--from-record: dominoes start from an empty field",
            ));
        }
        Ok(Plan {
            instance: Instance { rows, count },
            bytes_per_state: 64,
            input_bytes: 0,
            closing: "",
            kept: 0,
            about: false,
            resumable: false,
            inputs: vec![("sequence file", input)],
        })
    }

    fn search<'p>(&'p self, instance: &'p Instance) -> (Seam, Run<u32>) {
        let run = Run::whole_game(0, instance.count, Objective::Score);
        (
            Seam {
                rows: instance.rows,
            },
            run,
        )
    }

    fn writer<'p>(&'p self, instance: &'p Instance) -> DominoWriter {
        DominoWriter {
            rows: instance.rows,
            count: instance.count as u64,
            board: 0,
            lines: 0,
            placed: 0,
        }
    }
}

/// The record, a line a domino, each replayed by the rules before it is written.
pub(crate) struct DominoWriter {
    rows: u32,
    /// The dominoes that come.
    count: u64,
    board: u32,
    lines: u64,
    placed: u64,
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
            self.placed += 1;
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
        let end = if self.placed == self.count {
            End::ran_out(Reason::SequenceEnded, "every domino placed")
        } else {
            End::ran_out(Reason::RecordEnded, "the record ended before the dominoes")
        };
        Ok(Verdict {
            summary: format!("Score = {}\n", self.lines),
            scorecard: Scorecard {
                score: self.lines,
                pieces_placed: self.placed,
                lines: self.lines,
                end,
            },
            own: serde_json::json!({ "rows": self.rows }),
        })
    }
}
