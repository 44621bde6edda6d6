//! Placements generated and evaluated on one thread, over a fixed set of boards from a real
//! game: the boards the beam's winning line passed through on the first 3,000 pieces of the
//! contest sequence. Run with `cargo bench --bench movegen`; divan prints each benchmark's
//! time per pass over the boards and, as throughput, placements (or boards) per second.

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use std::sync::LazyLock;
use tetris_opt::games::contest::bitboard::{self, Board};
use tetris_opt::games::contest::movegen::{placements, Placements};
use tetris_opt::games::contest::rules::{Kind, Rules};
use tetris_opt::games::contest::search::{beam_search, Params, RankingParams};
use tetris_opt::games::contest::{contest_sequence, CONTEST_SEED};
use tetris_opt::kit::eval::{evaluate, evaluate_batch, Batch, Weights, BATCH};
use tetris_opt::search::{Options, Width};

fn main() {
    divan::main();
}

/// A board before a piece: the board, the piece and its number in the game.
type Position = (Board, Kind, usize);

/// The boards before each piece of a beam's winning line (a beam of 200 over 3,000 pieces).
static BOARDS: LazyLock<Vec<Position>> = LazyLock::new(|| {
    let sequence = contest_sequence(CONTEST_SEED, 3_000);
    let params = Params {
        ranking: RankingParams {
            score_weight: 1.0 / 38.0,
            weights: Weights::default(),
            policy: Default::default(),
        },
        rules: Rules::default(),
        start: Default::default(),
        objective: Default::default(),
    };
    let solution = beam_search(&sequence, &params, Options::new(&Width::fixed(200)));
    let mut boards = Vec::with_capacity(solution.placements.len());
    let mut board = Board::default();
    for (i, p) in solution.placements.iter().enumerate() {
        boards.push((board, sequence[i], i));
        let (x, y) = (p.x as usize, p.y as u32);
        bitboard::lock(&mut board, sequence[i], p.state, x, y, i, Rules::default());
    }
    boards
});

/// Every child board of [`BOARDS`], locked beforehand, with its landing row.
static CHILDREN: LazyLock<Vec<(Board, u32)>> = LazyLock::new(|| {
    let unlimited = Rules::default().with_piece_limit(0);
    let mut out = Placements::new();
    let mut children = Vec::new();
    for (board, kind, index) in BOARDS.iter() {
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
    children
});

/// As the search does it: children locked one by one, then evaluated and hashed in batches.
#[divan::bench]
fn movegen_lock_eval_hash(bencher: Bencher) {
    let weights = Weights::default();
    let unlimited = Rules::default().with_piece_limit(0);
    let mut out = Placements::new();
    let mut batch = Batch::default();
    bencher
        .counter(ItemsCount::new(CHILDREN.len()))
        .bench_local(|| {
            for (board, kind, index) in BOARDS.iter() {
                placements(board, *kind, *index, &mut out);
                let occupied = board.occupied_rows();
                for p in &out {
                    let mut b = *board;
                    black_box(p.lock_over(&mut b, occupied, *kind, *index, unlimited));
                    batch.push(&b, p.y as u32);
                    if batch.is_full() {
                        black_box((evaluate_batch(&batch, &weights), batch.hashes()));
                        batch.clear();
                    }
                }
            }
        });
}

/// The move generator alone.
#[divan::bench]
fn movegen_only(bencher: Bencher) {
    let mut out = Placements::new();
    bencher
        .counter(ItemsCount::new(CHILDREN.len()))
        .bench_local(|| {
            for (board, kind, index) in BOARDS.iter() {
                placements(board, *kind, *index, &mut out);
                black_box(out.len());
            }
        });
}

/// The evaluation one board at a time.
#[divan::bench]
fn evaluation_one_board_at_a_time(bencher: Bencher) {
    let weights = Weights::default();
    bencher
        .counter(ItemsCount::new(CHILDREN.len()))
        .bench_local(|| {
            for (b, y) in CHILDREN.iter() {
                black_box(evaluate(black_box(b), *y, &weights));
            }
        });
}

/// The evaluation in batches of [`BATCH`] boards, as the search runs it.
#[divan::bench]
fn evaluation_in_batches(bencher: Bencher) {
    let weights = Weights::default();
    let mut batch = Batch::default();
    bencher
        .counter(ItemsCount::new(CHILDREN.len()))
        .bench_local(|| {
            for group in CHILDREN.chunks(BATCH) {
                batch.clear();
                for (b, y) in group {
                    batch.push(b, *y);
                }
                black_box(evaluate_batch(black_box(&batch), &weights));
            }
        });
}
