//! Placements generated and evaluated per second on one thread, over a fixed set of boards from
//! a real game: the boards the beam's winning line passed through on the first 3,000 pieces of
//! the contest sequence. Run with `cargo bench --bench movegen`.

use std::hint::black_box;
use std::time::Instant;
use tetris_opt::bitboard::{self, Board};
use tetris_opt::eval::{evaluate, Weights};
use tetris_opt::movegen::{placements, Placements};
use tetris_opt::search::{beam_search, Params};
use tetris_opt::sequence::{contest_sequence, CONTEST_SEED};

fn main() {
    let sequence = contest_sequence(CONTEST_SEED, 3_000);
    let params = Params {
        beam_width: 200,
        score_weight: 1.0 / 38.0,
        weights: Weights::default(),
        policy: Default::default(),
        piece_limit: 10_000,
        judge: false,
    };
    let solution = beam_search(&sequence, &params, &mut |_| {});
    // The boards before each piece of the winning line, with the piece to place.
    let mut boards = Vec::with_capacity(solution.placements.len());
    let mut board = Board::default();
    for (i, p) in solution.placements.iter().enumerate() {
        boards.push((board, sequence[i], i));
        let (x, y) = (p.x as usize, p.y as u32);
        bitboard::lock(&mut board, sequence[i], p.state, x, y, i, 10_000);
    }
    let weights = Weights::default();
    let mut out = Placements::new();
    let rounds = 20;
    let mut generated = 0u64;
    let start = Instant::now();
    for _ in 0..rounds {
        for (board, kind, index) in &boards {
            placements(board, *kind, *index, &mut out);
            generated += out.len() as u64;
            for p in &out {
                let mut b = *board;
                let o = bitboard::lock(&mut b, *kind, p.state, p.x as usize, p.y as u32, *index, 0);
                black_box((evaluate(&b, p.y as u32, &weights), b.hash64(), o));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let states = (rounds * boards.len()) as f64;
    println!(
        "movegen+eval: {} boards x {rounds} rounds, {:.1} placements/board, {:.2} M placements/s, {:.3} us per expanded state (1 thread)",
        boards.len(),
        generated as f64 / states,
        generated as f64 / secs / 1e6,
        secs * 1e6 / states
    );
    let start = Instant::now();
    let mut generated = 0u64;
    for _ in 0..rounds {
        for (board, kind, index) in &boards {
            placements(board, *kind, *index, &mut out);
            generated += black_box(out.len()) as u64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "movegen only: {:.2} M placements/s, {:.3} us per state",
        generated as f64 / secs / 1e6,
        secs * 1e6 / states
    );
}
