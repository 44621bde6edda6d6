//! Placements generated and evaluated per second on one thread, over a fixed set of boards from
//! a real game: the boards the beam's winning line passed through on the first 3,000 pieces of
//! the contest sequence. Run with `cargo bench --bench movegen`.

use std::hint::black_box;
use std::time::Instant;
use tetris_opt::games::tencent::bitboard::{self, Board};
use tetris_opt::games::tencent::eval::{evaluate, evaluate_batch, Batch, Weights, BATCH};
use tetris_opt::games::tencent::movegen::{placements, Placements};
use tetris_opt::games::tencent::rules::Rules;
use tetris_opt::games::tencent::search::{beam_search, Params};
use tetris_opt::sequence::{contest_sequence, CONTEST_SEED};

fn main() {
    let sequence = contest_sequence(CONTEST_SEED, 3_000);
    let params = Params {
        beam_width: 200,
        width_changes: Default::default(),
        time_budget: None,
        score_weight: 1.0 / 38.0,
        weights: Weights::default(),
        policy: Default::default(),
        rules: Rules::default(),
        start: Default::default(),
    };
    let solution = beam_search(&sequence, &params, &mut |_| {});
    // The boards before each piece of the winning line, with the piece to place.
    let mut boards = Vec::with_capacity(solution.placements.len());
    let mut board = Board::default();
    for (i, p) in solution.placements.iter().enumerate() {
        boards.push((board, sequence[i], i));
        let (x, y) = (p.x as usize, p.y as u32);
        bitboard::lock(&mut board, sequence[i], p.state, x, y, i, Rules::default());
    }
    let weights = Weights::default();
    let unlimited = Rules::default().with_piece_limit(0);
    let mut out = Placements::new();
    let states = boards.len() as f64;

    // As the search does it: children are locked one by one, then evaluated and hashed in
    // batches of BATCH boards.
    let mut generated = 0u64;
    let mut batch = Batch::default();
    let full = fastest(|| {
        generated = 0;
        for (board, kind, index) in &boards {
            placements(board, *kind, *index, &mut out);
            generated += out.len() as u64;
            let occupied = board.occupied_rows();
            for p in &out {
                let mut b = *board;
                let o = p.lock_over(&mut b, occupied, *kind, *index, unlimited);
                black_box(o);
                batch.push(&b, p.y as u32);
                if batch.is_full() {
                    black_box((evaluate_batch(&batch, &weights), batch.hashes()));
                    batch.clear();
                }
            }
        }
    });
    let per_board = generated as f64 / states;
    println!(
        "movegen+lock+eval+hash: {} boards, {per_board:.1} placements/board, {:.2} M placements/s, {:.3} us per expanded state (1 thread, fastest of {ROUNDS} rounds)",
        boards.len(),
        generated as f64 / full / 1e6,
        full * 1e6 / states
    );

    let movegen = fastest(|| {
        for (board, kind, index) in &boards {
            placements(board, *kind, *index, &mut out);
            black_box(out.len());
        }
    });
    println!(
        "movegen only: {:.2} M placements/s, {:.3} us per state",
        generated as f64 / movegen / 1e6,
        movegen * 1e6 / states
    );

    // Every child board, locked beforehand, so that the evaluation is timed alone.
    let mut children = Vec::with_capacity(generated as usize);
    for (board, kind, index) in &boards {
        placements(board, *kind, *index, &mut out);
        for p in &out {
            let mut b = *board;
            bitboard::lock(
                &mut b,
                *kind,
                p.state,
                p.x as usize,
                p.y as u32,
                *index,
                unlimited,
            );
            children.push((b, p.y as u32));
        }
    }
    let eval = fastest(|| {
        for (b, y) in &children {
            black_box(evaluate(black_box(b), *y, &weights));
        }
    });
    let batched = fastest(|| {
        for group in children.chunks(BATCH) {
            batch.clear();
            for (b, y) in group {
                batch.push(b, *y);
            }
            black_box(evaluate_batch(black_box(&batch), &weights));
        }
    });
    println!(
        "evaluation only: {:.1} ns per placement one board at a time, {:.1} ns in batches of {BATCH}",
        eval * 1e9 / children.len() as f64,
        batched * 1e9 / children.len() as f64
    );
}

/// Rounds each measurement is repeated; the fastest is reported, which is the least disturbed
/// by whatever else the machine does.
const ROUNDS: usize = 20;

/// The fastest of [`ROUNDS`] runs of `f`, in seconds.
fn fastest(mut f: impl FnMut()) -> f64 {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}
