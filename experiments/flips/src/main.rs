//! Where two or more records of one contest sequence part: each record replayed by the rules,
//! with its clears and board features per window of pieces side by side, and a summary of
//! what its triples were made from.

use clap::Parser;
use std::process::ExitCode;
use tetris_opt::games::contest::bitboard::{Board, ContestBoard};
use tetris_opt::games::contest::record::Record;
use tetris_opt::games::contest::replay::replay_observed;
use tetris_opt::games::contest::rules::{Kind, Rules};
use tetris_opt::kit::eval::features;
use tetris_opt::kit::sequence::parse_sequence;

#[derive(Parser)]
#[command(about = "Clears and board features of records of one sequence, window by window")]
struct Args {
    /// The piece sequence file.
    sequence: String,
    /// Records of that sequence (the contest's answer format), compared side by side.
    #[arg(required = true)]
    records: Vec<String>,
    /// Pieces per window.
    #[arg(long, default_value_t = 500)]
    window: usize,
    /// Also print the first record's pieces one by one over this range (e.g. 6000..6200).
    #[arg(long, value_parser = range)]
    detail: Option<std::ops::Range<usize>>,
}

fn range(text: &str) -> Result<std::ops::Range<usize>, String> {
    let (a, b) = text.split_once("..").ok_or("a range is FROM..TO")?;
    let n = |t: &str| t.parse::<usize>().map_err(|e| format!("{t}: {e}"));
    Ok(n(a)?..n(b)?)
}

/// One locked piece of a record.
#[derive(Clone, Copy, Default)]
struct Piece {
    cleared: u32,
    /// Cells on the board the clear scored (the board with the piece written).
    fill: u32,
    /// Rows complete but for the well (the spawn column), and how many of them run up from
    /// the well's top (what an I dropped there clears): after this piece, and before it.
    ready_rows: u32,
    well_depth: u32,
    well_depth_before: u32,
    cells: u32,
    max_height: u32,
    /// Pieces from this one to the next I (0: this one is an I).
    to_next_i: usize,
    is_i: bool,
}

fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
}

/// The record's pieces as replayed, or why it cannot be.
fn pieces(sequence: &[Kind], path: &str) -> Result<(Vec<Piece>, u64), String> {
    let record = Record::parse(&read(path)?).map_err(|e| format!("{path}: {}", e.message()))?;
    let mut to_next_i = vec![usize::MAX; sequence.len()];
    let mut next = usize::MAX;
    for (i, &kind) in sequence.iter().enumerate().rev() {
        if kind == Kind::I {
            next = i;
        }
        to_next_i[i] = if next == usize::MAX { next } else { next - i };
    }
    let mut out: Vec<Piece> = Vec::new();
    let mut lines = 0;
    let mut depth_before = 0;
    let report = replay_observed(sequence, &record, Rules::default(), &mut |step| {
        let board = Board::from_field(step.board);
        let f = features(&board, 0, 0, 0);
        let cleared = (step.lines - lines) as u32;
        lines = step.lines;
        out.push(Piece {
            cleared,
            fill: step.written.filled_cells(),
            ready_rows: f.ready_rows,
            well_depth: f.ready_run,
            well_depth_before: depth_before,
            cells: f.cells,
            max_height: f.max_height,
            to_next_i: to_next_i[step.index],
            is_i: sequence[step.index] == Kind::I,
        });
        depth_before = f.ready_run;
    });
    if let Some(error) = &report.error {
        return Err(format!("{path}: {error}"));
    }
    Ok((out, report.final_score()))
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        f64::NAN
    } else {
        sum / n as f64
    }
}

fn summary(name: &str, pieces: &[Piece], score: u64) {
    let count = |n| pieces.iter().filter(|p| p.cleared == n).count();
    let lines: u32 = pieces.iter().map(|p| p.cleared).sum();
    let triples: Vec<&Piece> = pieces.iter().filter(|p| p.cleared == 3).collect();
    let fill = |n| {
        mean(
            pieces
                .iter()
                .filter(|p| p.cleared == n)
                .map(|p| p.fill as f64),
        )
    };
    println!(
        "{name}: score {score}, clears 1/2/3/4 {}/{}/{}/{}, four-line share of lines {:.1}%",
        count(1),
        count(2),
        count(3),
        count(4),
        400.0 * count(4) as f64 / lines.max(1) as f64
    );
    println!(
        "  mean fill at four-line clears {:.1}, at triples {:.1}; triples by an I {}, from a well of 4+ {}; next I after a triple {:.1} pieces",
        fill(4),
        fill(3),
        triples.iter().filter(|p| p.is_i).count(),
        triples.iter().filter(|p| p.well_depth_before >= 4).count(),
        mean(triples.iter().filter(|p| p.to_next_i < usize::MAX).map(|p| p.to_next_i as f64)),
    );
}

/// Stretches of at least `PLUG_PIECES` pieces over which at least `PLUG_ROWS` ready rows lie
/// out of the I's reach: the well plugged over its stock.
const PLUG_ROWS: u32 = 4;
const PLUG_PIECES: usize = 100;

fn plugs(pieces: &[Piece]) {
    let buried = |p: &Piece| p.ready_rows - p.well_depth >= PLUG_ROWS;
    let mut start = 0;
    while start < pieces.len() {
        if !buried(&pieces[start]) {
            start += 1;
            continue;
        }
        let end = (start..pieces.len())
            .find(|&i| !buried(&pieces[i]))
            .unwrap_or(pieces.len());
        if end - start >= PLUG_PIECES {
            let s = &pieces[start..end];
            let before = &pieces[start.saturating_sub(100)..start];
            let p = pieces[start];
            println!(
                "  plugged {start}..{end}: {} ready rows ({} reachable), fill {}, next I in {} pieces, the plugging piece an I: {}; \
                 4s/3s per 1000 pieces {:.0}/{:.0} inside, {:.0}/{:.0} in the 100 before; well depth before {:.1}",
                p.ready_rows,
                p.well_depth,
                p.cells,
                p.to_next_i,
                p.is_i,
                rate(s, 4),
                rate(s, 3),
                rate(before, 4),
                rate(before, 3),
                mean(before.iter().map(|p| p.well_depth as f64)),
            );
        }
        start = end;
    }
}

/// Clears of `size` per 1000 pieces.
fn rate(pieces: &[Piece], size: u32) -> f64 {
    1000.0 * pieces.iter().filter(|p| p.cleared == size).count() as f64 / pieces.len().max(1) as f64
}

fn main() -> ExitCode {
    let args = Args::parse();
    let run = || -> Result<(), String> {
        let sequence = parse_sequence(&read(&args.sequence)?)
            .map_err(|e| format!("{}: {e}", args.sequence))?;
        let games = args
            .records
            .iter()
            .map(|r| pieces(&sequence, r))
            .collect::<Result<Vec<_>, _>>()?;
        for (path, (p, score)) in args.records.iter().zip(&games) {
            summary(path, p, *score);
            plugs(p);
        }
        if let Some(range) = &args.detail {
            println!("piece kind cleared ready well cells top next-I");
            let (p, _) = &games[0];
            for i in range.clone().filter(|&i| i < p.len()) {
                let q = p[i];
                println!(
                    "{i:>5} {:>4} {:>7} {:>5} {:>4} {:>5} {:>3} {:>6}",
                    if q.is_i { "I" } else { "-" },
                    q.cleared,
                    q.ready_rows,
                    q.well_depth,
                    q.cells,
                    q.max_height,
                    q.to_next_i
                );
            }
        }
        let window = args.window.max(1);
        print!("{:>6}", "from");
        for i in 0..games.len() {
            print!(
                " | {i}: {:>3} {:>3} {:>5} {:>5} {:>5} {:>4}",
                "4s", "3s", "ready", "well", "cells", "top"
            );
        }
        println!();
        let longest = games.iter().map(|(p, _)| p.len()).max().unwrap_or(0);
        for start in (0..longest).step_by(window) {
            print!("{start:>6}");
            for (p, _) in &games {
                let w = &p[start.min(p.len())..(start + window).min(p.len())];
                let n = |c| w.iter().filter(|p| p.cleared == c).count();
                let m = |f: fn(&Piece) -> u32| mean(w.iter().map(|p| f(p) as f64));
                print!(
                    " | {:>6} {:>3} {:>5.1} {:>5.2} {:>5.1} {:>4.1}",
                    n(4),
                    n(3),
                    m(|p| p.ready_rows),
                    m(|p| p.well_depth),
                    m(|p| p.cells),
                    m(|p| p.max_height)
                );
            }
            println!();
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
