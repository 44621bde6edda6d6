//! Tests of `select`, kept apart so that the module reads on one screen at a time.
use super::*;
use crate::test_rng::SplitMix64;
use std::collections::{HashMap, HashSet};

/// Candidates with many duplicate boards (hashes from a small pool) and random keys.
fn candidates(seed: u64, count: usize, boards: u64) -> Vec<Candidate> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|i| Candidate {
            key: rng.below(1 << 40),
            // Spread over the whole u64 so every bucket gets some.
            hash: rng.below(boards).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            score: rng.below(1000),
            parent: (i / 20) as u32,
            placement: (i % 20) as u16,
        })
        .collect()
}

/// Each parent's board hash, by index, for the candidates of [`candidates`]: not in the order
/// of the parents, so that a tie broken by position would show.
fn tags(count: usize) -> Vec<u64> {
    (0..count as u64 / 20 + 1)
        .map(|p| p.wrapping_mul(0xD1B5_4A32_D192_ED03).rotate_left(17))
        .collect()
}

/// The plain definition: boards ranked by their best key, the best `width` kept.
fn plain_choice(candidates: &[Candidate], width: usize) -> HashSet<u64> {
    let mut best: HashMap<u64, u128> = HashMap::new();
    for c in candidates {
        let k = best.entry(c.hash).or_insert(u128::MAX);
        *k = (*k).min(c.rank());
    }
    let mut ranked: Vec<(u128, u64)> = best.into_iter().map(|(h, k)| (k, h)).collect();
    ranked.sort_unstable();
    ranked.into_iter().take(width).map(|(_, h)| h).collect()
}

#[test]
fn parallel_selection_keeps_the_best_distinct_boards() {
    for (seed, count, boards, width) in [
        (1, 20_000, 12_000, 1_000),
        (2, 20_000, 3_000, 1_000),
        (3, 50_000, 40_000, 5_000),
        (4, 5_000, 1_000, 600),
    ] {
        let all = candidates(seed, count, boards);
        let mut buckets = Buckets::default();
        let mut chosen = Vec::new();
        let chunks: Vec<Chunk> = all.chunks(700).map(Chunk::of).collect();
        if buckets.select(&chunks, Ask::first(width), &tags(count), &mut chosen)
            != Shortlist::Chosen
        {
            // Too many duplicates under the threshold: the caller falls back. Only
            // acceptable when there are few distinct boards.
            assert!(boards < 2 * width as u64, "seed {seed}: fell back");
            continue;
        }
        assert_eq!(chosen.len(), width, "seed {seed}");
        let hashes: HashSet<u64> = chosen.iter().map(|c| c.hash).collect();
        assert_eq!(hashes.len(), width, "seed {seed}: a board chosen twice");
        assert_eq!(hashes, plain_choice(&all, width), "seed {seed}");
        // Each board carries a score at least that of its best-keyed duplicate and no more
        // than the best of its duplicates.
        for c in &chosen {
            let dups: Vec<&Candidate> = all.iter().filter(|d| d.hash == c.hash).collect();
            let max = dups.iter().map(|d| d.score).max().unwrap();
            let first = dups.iter().min_by_key(|d| d.rank()).unwrap();
            assert!(c.score <= max && c.score >= first.score, "seed {seed}");
        }
    }
}

#[test]
fn parallel_selection_is_exact_with_tied_keys_and_uneven_bins() {
    // One set of buffers across depths, as in a search. Keys from a small range tie often
    // (whole bins share one key, and only the full rank breaks the tie at the cutoff);
    // keys shifted right by up to 60 bits spread over many magnitudes.
    let mut buckets = Buckets::default();
    for (seed, count, boards, width, keys, shift) in [
        (11, 40_000, 4_000, 2_000, 1 << 40, 0),
        (12, 40_000, 1_000_000, 2_000, u64::MAX, 60),
        (13, 40_000, 1_000_000, 2_000, 300, 0),
        (14, 40_000, 20_000, 3_000, 40, 0),
    ] {
        let mut all = candidates(seed, count, boards);
        let mut rng = SplitMix64::new(seed);
        for c in &mut all {
            c.key = rng.below(keys) >> rng.below(shift + 1);
        }
        let chunks: Vec<Chunk> = all.chunks(500).map(Chunk::of).collect();
        let mut chosen = Vec::new();
        let made = buckets.select(&chunks, Ask::first(width), &tags(count), &mut chosen);
        assert_eq!(made, Shortlist::Chosen, "seed {seed}");
        let hashes: HashSet<u64> = chosen.iter().map(|c| c.hash).collect();
        assert_eq!((chosen.len(), hashes.len()), (width, width), "seed {seed}");
        assert_eq!(hashes, plain_choice(&all, width), "seed {seed}");
    }
}

#[test]
fn selection_falls_back_to_every_candidate_when_duplicates_crowd_the_shortlist() {
    // 200 distinct boards among 20,000 candidates: the shortlist cannot fill a beam of 500,
    // and the full selection returns every distinct board.
    let all = candidates(5, 20_000, 200);
    let mut chunks: Vec<Chunk> = all.chunks(700).map(Chunk::of).collect();
    let mut picker = Picker::<u16>::default();
    picker.select(&mut chunks, 500, &tags(20_000)).unwrap();
    let hashes: HashSet<u64> = picker.chosen.iter().map(|c| c.hash).collect();
    assert_eq!(picker.chosen.len(), 200);
    assert_eq!(hashes, plain_choice(&all, 500));
}

/// The serial fill over one flat copy of every candidate, in rounds of twice the places
/// left, then twice the round before: the definition the merge of sorted chunks follows.
fn flat_fill(all: &[Candidate], until: usize, tags: &[u64]) -> Vec<Candidate> {
    let mut rest = all.to_vec();
    rest.sort_unstable_by_key(Candidate::rank);
    let mut chosen: Vec<Candidate> = Vec::new();
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let (mut start, mut round) = (0, (2 * until).max(64));
    while chosen.len() < until && start < rest.len() {
        let mut end = (start + round).min(rest.len());
        let mut take = |c: &Candidate, chosen: &mut Vec<Candidate>| {
            if let Some(&i) = seen.get(&c.hash) {
                if c.replaces(&chosen[i], tags) {
                    chosen[i] = *c;
                }
            } else if chosen.len() < until {
                seen.insert(c.hash, chosen.len());
                chosen.push(*c);
            }
        };
        for c in &rest[start..end] {
            take(c, &mut chosen);
        }
        // A round that fills the beam ends after the last candidate of its last rank.
        while chosen.len() >= until && end < rest.len() && rest[end].rank() == rest[end - 1].rank()
        {
            take(&rest[end], &mut chosen);
            end += 1;
        }
        start = end;
        round *= 2;
    }
    chosen
}

#[test]
fn fill_over_sorted_chunks_matches_the_flat_fill_in_order_and_scores() {
    for (seed, count, boards, width) in [
        (21, 3_000, 2_500, 1_000),
        (22, 20_000, 300, 250),
        (23, 20_000, 5_000, 4_000),
        (24, 500, 400, 10),
    ] {
        let all = candidates(seed, count, boards);
        let mut chunks: Vec<Chunk> = all.chunks(333).map(Chunk::of).collect();
        let mut picker = Picker::<u16>::default();
        picker.fill(&mut chunks, width, &tags(count));
        let got: Vec<(u64, u64, u128)> = picker
            .chosen
            .iter()
            .map(|c| (c.hash, c.score, c.rank()))
            .collect();
        let want: Vec<(u64, u64, u128)> = flat_fill(&all, width, &tags(count))
            .iter()
            .map(|c| (c.hash, c.score, c.rank()))
            .collect();
        assert_eq!(got, want, "seed {seed}");
    }
}

/// `all` cut into chunks that keep only the candidates with a key of at most `bound`.
fn bounded_chunks(all: &[Candidate], bound: u64) -> Vec<Chunk> {
    all.chunks(700)
        .map(|part| {
            let mut chunk = Chunk::of(part);
            chunk.restrict(bound);
            chunk
        })
        .collect()
}

#[test]
fn a_bound_under_the_threshold_asks_for_every_candidate_and_one_above_changes_nothing() {
    let all = candidates(31, 40_000, 30_000);
    let width = 2_000;
    let mut whole: Vec<Chunk> = all.chunks(700).map(Chunk::of).collect();
    let mut picker = Picker::<u16>::default();
    picker.select(&mut whole, width, &tags(40_000)).unwrap();
    let want: Vec<u128> = picker.chosen.iter().map(|c| c.rank()).collect();
    let mut keys: Vec<u64> = all.iter().map(|c| c.key).collect();
    keys.sort_unstable();
    // Well above the threshold (a tenth of the keys), and far under it.
    let mut loose = bounded_chunks(&all, keys[keys.len() / 5]);
    assert!(loose.iter().map(|c| c.candidates.len()).sum::<usize>() < all.len() / 4);
    picker.select(&mut loose, width, &tags(40_000)).unwrap();
    let got: Vec<u128> = picker.chosen.iter().map(|c| c.rank()).collect();
    assert_eq!(got, want);
    // Under the threshold: the selection asks for the candidates up to the threshold,
    // and with those chooses the same.
    let mut tight = bounded_chunks(&all, keys[keys.len() / 100]);
    let refill = picker.select(&mut tight, width, &tags(40_000)).unwrap_err();
    assert!(refill.bound > keys[keys.len() / 100] && refill.bound < keys[keys.len() / 5]);
    let mut refilled = bounded_chunks(&all, refill.bound);
    picker.select(&mut refilled, width, &tags(40_000)).unwrap();
    let got: Vec<u128> = picker.chosen.iter().map(|c| c.rank()).collect();
    assert_eq!(got, want);
    // Too few candidates for the shortlist: the fill needs them all.
    let mut few = bounded_chunks(&all[..6_000], keys[keys.len() / 5]);
    assert_eq!(
        picker
            .select(&mut few, width, &tags(40_000))
            .unwrap_err()
            .bound,
        u64::MAX
    );
}

#[test]
fn a_crowded_shortlist_widens_and_asks_for_more_until_it_matches_the_whole_selection() {
    // 1,600 distinct boards among 40,000 candidates: the first shortlist cannot fill a beam
    // of 1,500, and a wider one needs candidates a tight bound dropped.
    let all = candidates(32, 40_000, 1_600);
    let width = 1_500;
    let mut picker = Picker::<u16>::default();
    let mut whole: Vec<Chunk> = all.chunks(700).map(Chunk::of).collect();
    picker.select(&mut whole, width, &tags(40_000)).unwrap();
    let want: Vec<(u64, u64)> = picker.chosen.iter().map(|c| (c.hash, c.score)).collect();
    let hashes: HashSet<u64> = want.iter().map(|&(hash, _)| hash).collect();
    assert_eq!(hashes, plain_choice(&all, width));
    let mut keys: Vec<u64> = all.iter().map(|c| c.key).collect();
    keys.sort_unstable();
    let mut bound = keys[keys.len() / 20];
    for _ in 0..10 {
        let mut chunks = bounded_chunks(&all, bound);
        match picker.select(&mut chunks, width, &tags(40_000)) {
            Ok(()) => {
                let got: Vec<(u64, u64)> =
                    picker.chosen.iter().map(|c| (c.hash, c.score)).collect();
                assert!(got == want, "not the whole selection");
                // The shortlist grew by the boards it lacked: the candidates kept are about
                // a sixth of all (rounds of twice the width would have kept a quarter).
                let kept = all.iter().filter(|c| c.key <= bound).count();
                assert!(kept < all.len() / 5, "kept {kept} of {}", all.len());
                return;
            }
            Err(refill) => {
                assert!(refill.bound > bound, "no progress");
                bound = refill.bound;
            }
        }
    }
    panic!("the refills did not converge");
}

/// Children of one board with one score, key and placement from different parents: the one
/// that goes on has the lowest parent board hash (the one order), not the first parent, in the
/// parallel selection and in the fill alike; and boards of one key rank by hash.
#[test]
fn ties_are_broken_by_the_one_order_not_by_position() {
    // The later a parent, the lower its board hash: the first child seen is not the one kept.
    let tags: Vec<u64> = (0..64u64).map(|p| 1_000 - p).collect();
    let mut all = Vec::new();
    for board in 0..200u64 {
        for parent in 0..3 {
            all.push(Candidate {
                key: 7 + board % 2,
                hash: board.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                score: 5,
                parent: (board as u32 % 20) * 3 + parent,
                placement: 9,
            });
        }
    }
    let want_parent = |hash: u64| {
        let board = all
            .iter()
            .find(|c| c.hash == hash)
            .map(|c| c.parent / 3 * 3);
        board.map(|p| p + 2)
    };
    let width = 40;
    let mut even: Vec<u64> = all.iter().filter(|c| c.key == 7).map(|c| c.hash).collect();
    even.sort_unstable();
    even.dedup();
    let want: HashSet<u64> = even[..width].iter().copied().collect();
    let chunks: Vec<Chunk> = all.chunks(50).map(Chunk::of).collect();
    let mut buckets = Buckets::default();
    let mut chosen = Vec::new();
    assert_eq!(
        buckets.select(&chunks, Ask::first(width), &tags, &mut chosen),
        Shortlist::Chosen
    );
    let mut picker = Picker::<u16>::default();
    let mut chunks: Vec<Chunk> = all.chunks(50).map(Chunk::of).collect();
    picker.fill(&mut chunks, width, &tags);
    for (how, chosen) in [("parallel", &chosen), ("fill", &picker.chosen)] {
        let hashes: HashSet<u64> = chosen.iter().map(|c| c.hash).collect();
        assert_eq!(hashes, want, "{how}: the key's lowest hashes");
        for c in chosen.iter() {
            assert_eq!(
                Some(c.parent),
                want_parent(c.hash),
                "{how}: the parent kept"
            );
        }
    }
}

/// The fields that make a chosen state, to compare two selections' `chosen` in order.
fn fields(chosen: &[Candidate]) -> Vec<(u64, u64, u64, u32, u16)> {
    let f = |c: &Candidate| (c.key, c.hash, c.score, c.parent, c.placement);
    chosen.iter().map(f).collect()
}

/// The narrow selection chooses what the parallel one chooses, the same children in the same
/// order, from the children as they were made or grouped, with tied keys and scores, and says
/// the same where the shortlist falls short.
#[test]
fn narrow_selection_matches_the_parallel_one_in_order() {
    let mut buckets = Buckets::default();
    let mut narrow = narrow::Narrow::default();
    let mut outcomes = HashMap::new();
    for seed in 0..300u64 {
        let mut rng = SplitMix64::new(seed);
        let count = 200 + rng.below(3_000) as usize;
        let boards = 1 + rng.below(2 * count as u64);
        let width = 1 + rng.below(400) as usize;
        let mut all = candidates(seed, count, boards);
        let keys = [1 << 40, 300, 5][seed as usize % 3];
        for c in &mut all {
            c.key = rng.below(keys);
            c.score = rng.below(3);
        }
        let tags = tags(count);
        let size = 1 + rng.below(700) as usize;
        let grouped: Vec<Chunk> = all.chunks(size).map(Chunk::of).collect();
        let made: Vec<Chunk> = all.chunks(size).map(Chunk::made).collect();
        let mut want = Vec::new();
        let shortlist = buckets.select(&grouped, Ask::first(width), &tags, &mut want);
        let outcome = format!("{shortlist:?}");
        let name = outcome.split('(').next().unwrap_or_default();
        *outcomes.entry(name.to_string()).or_insert(0) += 1;
        for chunks in [&grouped, &made] {
            let mut chosen = vec![Candidate::default(); 3];
            let got = narrow.select(chunks, Ask::first(width), &tags, &mut chosen);
            assert_eq!(got, shortlist, "seed {seed}");
            if got == Shortlist::Chosen {
                assert_eq!(fields(&chosen), fields(&want), "seed {seed}");
            }
        }
        let bound = rng.below(keys);
        let ask = Ask {
            bound,
            ..Ask::first(width)
        };
        let low = buckets.select(&grouped, ask, &tags, &mut want);
        if let Shortlist::BoundTooLow(_) = low {
            assert_eq!(narrow.select(&made, ask, &tags, &mut Vec::new()), low);
            *outcomes.entry("BoundTooLow".into()).or_insert(0) += 1;
        }
    }
    for outcome in ["Chosen", "TooFewBoards", "BoundTooLow"] {
        assert!(outcomes.get(outcome) > Some(&20), "{outcomes:?}");
    }
}
