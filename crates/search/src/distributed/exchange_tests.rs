//! What a process makes of the children that reach it: every board once, with its best key
//! and the child the search's one order keeps, whatever the rounds and senders they came in.

use super::exchange::{distinct, Arrivals, Head};
use crate::comm::Parcels;
use crate::test_rng::SplitMix64;
use std::collections::HashMap;

/// `count` children of `boards` boards or fewer (so that most come more than once, from
/// different parents, with ties of score), as `processes` senders' parts over `rounds` rounds.
fn arrivals(
    rng: &mut SplitMix64,
    count: usize,
    boards: u64,
    processes: usize,
    rounds: usize,
) -> (Arrivals, Vec<Head<u16>>) {
    let each = Head::<u16>::BYTES;
    let heads: Vec<Head<u16>> = (0..count)
        .map(|_| {
            // Board hashes spread over every bit, as a board's hash is.
            let board = rng.below(boards);
            let hash = board.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) | 1;
            Head {
                key: rng.below(1000),
                hash,
                score: rng.below(3),
                parent: rng.below(50) as u32,
                tag: rng.below(4),
                code: rng.below(40) as u16,
            }
        })
        .collect();
    let mut arrivals = Arrivals::default();
    let per_round = count.div_ceil(rounds).max(1);
    for round in heads.chunks(per_round) {
        let per_process = round.len().div_ceil(processes);
        let mut bytes = Vec::new();
        let mut lens = Vec::new();
        for p in 0..processes {
            let part = round.iter().skip(p * per_process).take(per_process);
            let before = bytes.len();
            part.for_each(|h| h.put(&mut bytes));
            lens.push(bytes.len() - before);
        }
        arrivals.push(Parcels { bytes, lens }, each);
    }
    (arrivals, heads)
}

#[test]
fn distinct_keeps_each_board_once_with_its_best_key_and_kept_child() {
    let mut rng = SplitMix64::new(11);
    for (count, boards, processes, rounds) in [
        (0, 1, 1, 1),
        (5, 3, 2, 1),
        (300, 1 << 40, 1, 2),
        (10_000, 2_000, 3, 3),
        (20_000, 400, 2, 5),
    ] {
        let (arrivals, heads) = arrivals(&mut rng, count, boards, processes, rounds);
        let mut expected: HashMap<u64, (u64, usize)> = HashMap::new();
        for (i, h) in heads.iter().enumerate() {
            let e = expected.entry(h.hash).or_insert((h.key, i));
            e.0 = e.0.min(h.key);
            // Children with one keep order are one child: the first of them stands.
            if h.keep_order() < heads[e.1].keep_order() {
                e.1 = i;
            }
        }
        let found = distinct::<u16>(&arrivals);
        assert_eq!(found.len(), expected.len(), "{count} children");
        for b in &found {
            let (key, child) = expected[&b.hash];
            assert_eq!(b.key, key, "{count} children, board {:x}", b.hash);
            let kept = &heads[b.child as usize];
            assert_eq!(kept.hash, b.hash);
            assert_eq!(kept.keep_order(), heads[child].keep_order());
        }
    }
}
