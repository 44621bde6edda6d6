//! `clear-to-clear`: issue 33, design 2, as an experiment. A dynamic program over (piece
//! index, filled cells) whose states are boards just after a clear.
//!
//! The states of one bucket (the index of the next piece, the filled cells) hold the same
//! pieces and the same cells, so they differ only in how the cells lie and in the points
//! banked: each bucket keeps its best `--keep` boards by score. From every state a small
//! "build phase" beam (`--inner-width`, ranked by the board evaluation alone) places the next
//! pieces without clearing, for at most `--max-phase` pieces; every placement that clears rows
//! ends the phase and offers its board to the bucket it lands in. Buckets are taken in
//! increasing piece index; the answer is the best score of any state (the record stops after
//! its last clear).
//!
//! Deterministic: the states of an index are expanded in a fixed order (buckets by filled
//! cells, then rank) and their boards offered to the buckets in that order, whatever the
//! number of threads.

use clap::Parser;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;
use tetris_opt::bitboard::Board;
use tetris_opt::cli::{exit_with, print_record, read_sequence, CliError, RulesOptions};
use tetris_opt::eval::{evaluate_batch, Batch, Weights, BATCH};
use tetris_opt::movegen::{placements_with, Placement, Placements};
use tetris_opt::rules::{Kind, Rules};
use tetris_opt::sequence::contest_sequence;
use tetris_opt::solve::{record_for, verify};

/// The build phase's default weights: the shipped surface-first-step set.
static DEFAULT_WEIGHTS: &str = include_str!("../../../weights/surface-first-step.json");

/// Clear-to-clear search (issue 33, design 2): a dynamic program over (piece index, filled
/// cells) of boards just after a clear. The record goes to stdout, a summary to stderr.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Sequence file (or give --seed instead).
    input: Option<PathBuf>,
    /// Generate the sequence with the contest generator from this seed (as `gen --seed`).
    #[arg(long, conflicts_with = "input")]
    seed: Option<u64>,
    /// Use only the first N pieces (with --seed: generate N; default 10,000).
    #[arg(long, value_name = "N")]
    pieces: Option<usize>,
    /// Boards kept per bucket (piece index, filled cells), the best by score.
    #[arg(long, value_name = "M", default_value_t = 20)]
    keep: usize,
    /// Width of the build phase's beam.
    #[arg(long, value_name = "B", default_value_t = 4)]
    inner_width: usize,
    /// Longest build phase in pieces: a state whose phase has not cleared by then gives nothing.
    #[arg(long, value_name = "L", default_value_t = 12)]
    max_phase: usize,
    /// Rank a bucket's boards by `evaluation - score * W` (lower first), as the beam ranks its
    /// states, instead of by score alone (the design's rule).
    #[arg(long, value_name = "W")]
    bucket_score_weight: Option<f64>,
    /// Evaluation weights of the build phase as JSON (default: weights/surface-first-step.json).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Worker threads (default: all cores). The record does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Print a progress line every N pieces (0: none).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    progress_every: usize,
    #[command(flatten)]
    rules: RulesOptions,
}

fn main() {
    let args = Args::parse();
    exit_with(run(&args));
}

/// What the search is asked to do.
struct Config {
    keep: usize,
    inner_width: usize,
    max_phase: usize,
    bucket_score_weight: Option<f64>,
    rules: Rules,
}

fn run(args: &Args) -> Result<(), CliError> {
    let started = Instant::now();
    for (name, value) in [
        ("--keep", args.keep),
        ("--inner-width", args.inner_width),
        ("--max-phase", args.max_phase),
    ] {
        if value == 0 {
            return Err(CliError::usage(format!("{name} must be at least 1")));
        }
    }
    if args.pieces == Some(0) {
        return Err(CliError::usage("--pieces must be at least 1"));
    }
    let rules = args.rules.rules()?;
    let sequence = match (&args.input, args.seed) {
        (Some(path), _) => {
            let mut s = read_sequence(path)?;
            s.truncate(args.pieces.unwrap_or(usize::MAX));
            s
        }
        (None, Some(seed)) => contest_sequence(seed, args.pieces.unwrap_or(10_000)),
        (None, None) => return Err(CliError::usage("give a sequence file or --seed")),
    };
    let weights = match &args.weights {
        Some(path) => tetris_opt::cli::read_weights(Some(path))?,
        None => Weights::from_json(DEFAULT_WEIGHTS).map_err(CliError::internal)?,
    };
    let config = Config {
        keep: args.keep,
        inner_width: args.inner_width,
        max_phase: args.max_phase,
        bucket_score_weight: args.bucket_score_weight,
        rules,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::usage(format!("cannot start worker threads: {e}")))?;

    let found = pool.install(|| search(&sequence, &weights, &config, args.progress_every));
    let placements = found.line();
    let record = record_for(&sequence, &placements, rules).map_err(CliError::internal)?;
    let (report, _) =
        verify(&sequence, &record, found.best_score, rules).map_err(CliError::internal)?;
    let seconds = started.elapsed().as_secs_f64();
    let [c1, c2, c3, c4] = report.clears;
    eprintln!(
        "keep {} inner width {} max phase {}: {} states expanded, {} build nodes, {} placements, \
         {} states kept",
        config.keep,
        config.inner_width,
        config.max_phase,
        found.stats.states,
        found.stats.nodes,
        found.stats.placements,
        found.nodes.len()
    );
    eprintln!(
        "pieces placed: {} of {}, lines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4})",
        report.pieces_locked,
        sequence.len(),
        report.lines
    );
    eprintln!(
        "checked by the rules engine ({}): record valid, same score",
        rules.mode_name()
    );
    eprintln!("wall time: {seconds:.1} s");
    eprintln!("Score = {}", report.score);
    print_record(&record)
}

/// A state kept for good: the state its phase started from and the placements of that phase.
struct Node {
    parent: u32,
    start: u32,
    len: u32,
}

/// A board just after a clear, offered to its bucket.
struct Entry {
    board: Board,
    score: u64,
    parent: u32,
    path: Vec<Placement>,
    /// The bucket's ranking, lower first: `-score`, or `evaluation - score * W`.
    key: f64,
    /// Order of arrival, the tie-break among equal scores.
    arrival: u64,
}

/// The boards of one (piece index, filled cells): the best `keep` by score, one per board.
#[derive(Default)]
struct Bucket {
    entries: Vec<Entry>,
    by_board: HashMap<Board, usize>,
}

impl Bucket {
    /// Adds `e`, or raises the score of its board when it is already here with fewer points.
    fn offer(&mut self, e: Entry, keep: usize) {
        match self.by_board.get(&e.board) {
            Some(&i) => {
                if e.score > self.entries[i].score {
                    self.entries[i] = e;
                }
            }
            None => {
                self.by_board.insert(e.board, self.entries.len());
                self.entries.push(e);
                if self.entries.len() >= 4 * keep.max(16) {
                    self.prune(keep);
                }
            }
        }
    }

    /// Keeps the best `keep` (by key, then arrival).
    fn prune(&mut self, keep: usize) {
        self.entries
            .sort_unstable_by(|a, b| a.key.total_cmp(&b.key).then(a.arrival.cmp(&b.arrival)));
        self.entries.truncate(keep);
        self.by_board.clear();
        for (i, e) in self.entries.iter().enumerate() {
            self.by_board.insert(e.board, i);
        }
    }
}

/// A board a phase reached by clearing rows, before the next piece `index`.
struct Emit {
    index: usize,
    board: Board,
    gain: u64,
    /// The board's evaluation (only with a bucket score weight).
    cost: f32,
    path: Vec<Placement>,
}

#[derive(Default, Clone, Copy)]
struct Counts {
    /// Outer states whose build phase ran.
    states: u64,
    /// Boards of the build phases' beams expanded.
    nodes: u64,
    /// Placements generated in the build phases.
    placements: u64,
}

struct Found {
    nodes: Vec<Node>,
    moves: Vec<Placement>,
    best: u32,
    best_score: u64,
    stats: Counts,
}

impl Found {
    /// The placements from the first piece to the best state's last clear.
    fn line(&self) -> Vec<Placement> {
        let mut segments = Vec::new();
        let mut id = self.best;
        while id != NONE {
            let n = &self.nodes[id as usize];
            segments.push(&self.moves[n.start as usize..(n.start + n.len) as usize]);
            id = n.parent;
        }
        segments.into_iter().rev().flatten().copied().collect()
    }
}

const NONE: u32 = u32::MAX;

fn search(sequence: &[Kind], weights: &Weights, config: &Config, progress: usize) -> Found {
    let n = config.rules.pieces_to_place(sequence.len());
    // The weights that rank the boards after piece j (they look ahead for an I).
    let ranked: Vec<Weights> = (0..n).map(|j| weights.at_depth(sequence, j)).collect();
    let mut found = Found {
        nodes: vec![Node {
            parent: NONE,
            start: 0,
            len: 0,
        }],
        moves: Vec::new(),
        best: 0,
        best_score: 0,
        stats: Counts::default(),
    };
    let mut pending: BTreeMap<usize, BTreeMap<u32, Bucket>> = BTreeMap::new();
    let mut arrival = 0u64;
    let mut states: Vec<(u32, Board, u64)> = vec![(0, Board::default(), 0)];
    let started = Instant::now();
    for i in 0..=n {
        if i > 0 {
            states.clear();
            for (_, mut bucket) in pending.remove(&i).unwrap_or_default() {
                bucket.prune(config.keep);
                for e in bucket.entries {
                    let id = found.nodes.len() as u32;
                    found.nodes.push(Node {
                        parent: e.parent,
                        start: found.moves.len() as u32,
                        len: e.path.len() as u32,
                    });
                    found.moves.extend_from_slice(&e.path);
                    if e.score > found.best_score {
                        found.best = id;
                        found.best_score = e.score;
                    }
                    states.push((id, e.board, e.score));
                }
            }
        }
        if progress > 0 && i % progress == 0 && i > 0 {
            eprintln!(
                "piece {i}/{n} states {} best {} kept {} pending {} {:.1}s",
                states.len(),
                found.best_score,
                found.nodes.len(),
                pending
                    .values()
                    .flat_map(|b| b.values())
                    .map(|b| b.entries.len())
                    .sum::<usize>(),
                started.elapsed().as_secs_f64()
            );
        }
        if i == n || states.is_empty() {
            continue;
        }
        let phases: Vec<(Vec<Emit>, Counts)> = states
            .par_iter()
            .map(|&(_, board, _)| build_phase(sequence, i, board, n, &ranked, config))
            .collect();
        for (&(id, _, score), (emits, counts)) in states.iter().zip(phases) {
            found.stats.states += 1;
            found.stats.nodes += counts.nodes;
            found.stats.placements += counts.placements;
            for e in emits {
                let total = score + e.gain;
                let key = match config.bucket_score_weight {
                    Some(w) => e.cost as f64 - total as f64 * w,
                    None => -(total as f64),
                };
                let entry = Entry {
                    key,
                    board: e.board,
                    score: total,
                    parent: id,
                    path: e.path,
                    arrival,
                };
                arrival += 1;
                pending
                    .entry(e.index)
                    .or_default()
                    .entry(e.board.filled_cells())
                    .or_default()
                    .offer(entry, config.keep);
            }
        }
    }
    found
}

/// A board of the build phase's beam before evaluation.
struct Child {
    board: Board,
    step: u32,
    placement: Placement,
    cost: f32,
}

/// The build phase from `board` before piece `start`: a beam of `inner_width` boards ranked by
/// the evaluation alone, over at most `max_phase` pieces, going on only from placements that
/// clear nothing; every placement that clears rows is returned.
fn build_phase(
    sequence: &[Kind],
    start: usize,
    board: Board,
    n: usize,
    ranked: &[Weights],
    config: &Config,
) -> (Vec<Emit>, Counts) {
    let end = (start + config.max_phase).min(n);
    let mut counts = Counts::default();
    // The lines of the beam: (previous step or NONE, placement).
    let mut steps: Vec<(u32, Placement)> = Vec::new();
    let line = |steps: &[(u32, Placement)], mut at: u32, last: Placement| {
        let mut path = vec![last];
        while at != NONE {
            let (prev, p) = steps[at as usize];
            path.push(p);
            at = prev;
        }
        path.reverse();
        path
    };
    let mut beam: Vec<(Board, u32)> = vec![(board, NONE)];
    let mut emits: Vec<Emit> = Vec::new();
    let mut evaluated = 0;
    let mut children: Vec<Child> = Vec::new();
    let mut placements = Placements::new();
    let mut batch = Batch::default();
    let mut seen: HashSet<Board> = HashSet::new();
    for (j, &kind) in sequence.iter().enumerate().take(end).skip(start) {
        children.clear();
        for &(b, step) in &beam {
            counts.nodes += 1;
            placements_with(&b, kind, j, config.rules, &mut placements);
            counts.placements += placements.len() as u64;
            let occupied = b.occupied_rows();
            for &p in &placements {
                let mut after = b;
                let outcome = p.lock_over(&mut after, occupied, kind, j, config.rules);
                if outcome.game_over.is_some() {
                    continue;
                }
                if outcome.lines > 0 {
                    emits.push(Emit {
                        index: j + 1,
                        board: after,
                        gain: outcome.score as u64,
                        cost: 0.0,
                        path: line(&steps, step, p),
                    });
                } else {
                    children.push(Child {
                        board: after,
                        step,
                        placement: p,
                        cost: 0.0,
                    });
                }
            }
        }
        if config.bucket_score_weight.is_some() {
            let fresh = &mut emits[evaluated..];
            for chunk in fresh.chunks_mut(BATCH) {
                batch.clear();
                for e in chunk.iter() {
                    batch.push(&e.board, e.path[e.path.len() - 1].y as u32);
                }
                let costs = evaluate_batch(&batch, &ranked[j]);
                for (e, cost) in chunk.iter_mut().zip(costs) {
                    e.cost = cost;
                }
            }
            evaluated = emits.len();
        }
        if j + 1 == end {
            break;
        }
        for chunk in children.chunks_mut(BATCH) {
            batch.clear();
            for c in chunk.iter() {
                batch.push(&c.board, c.placement.y as u32);
            }
            let costs = evaluate_batch(&batch, &ranked[j]);
            for (c, cost) in chunk.iter_mut().zip(costs) {
                c.cost = cost;
            }
        }
        // By cost, then the order of generation: a total order, so the beam is fixed.
        let mut order: Vec<usize> = (0..children.len()).collect();
        order.sort_unstable_by(|&a, &b| {
            children[a]
                .cost
                .total_cmp(&children[b].cost)
                .then(a.cmp(&b))
        });
        beam.clear();
        seen.clear();
        for k in order {
            if beam.len() == config.inner_width {
                break;
            }
            let c = &children[k];
            if !seen.insert(c.board) {
                continue;
            }
            steps.push((c.step, c.placement));
            beam.push((c.board, steps.len() as u32 - 1));
        }
        if beam.is_empty() {
            break;
        }
    }
    (emits, counts)
}
