//! The trail's tests: compaction keeps every line that may still become the answer, and the
//! answer's placements come out as they are decided.

use super::*;
use crate::comm::{Comm, Solo};

fn step(parent: u32, placement: u16) -> TrailEntry {
    TrailEntry { parent, placement }
}

/// Two levels of three states; only state 2 of the last level lives, and its line is
/// 1 -> 0 -> 2. Compaction keeps that line (and `best`'s) and the answer is unchanged.
#[test]
fn compaction_keeps_the_live_lines_and_the_best() {
    let mut trail = Trail::new();
    for level in [
        [step(0, 10), step(0, 11), step(0, 12)],
        [step(2, 20), step(1, 21), step(0, 22)],
        [step(1, 30), step(2, 31), step(0, 32)],
    ] {
        trail.open(3).copy_from_slice(&level);
    }
    let mut live = vec![1u32];
    let mut best = Some(Best {
        depth: 1,
        index: 0,
        score: 5,
    });
    trail.compact(&mut live, |i| i, &mut best, &Solo);
    // Level 2 keeps its state 1 only (now index 0); level 1 its states 0 (best) and 2 (the
    // live line's parent); level 0 its states 0 and 2.
    assert_eq!(trail.level(2).len(), 1);
    assert_eq!(live, vec![0]);
    assert_eq!(trail.level(1).len(), 2);
    assert_eq!(trail.level(0).len(), 2);
    assert_eq!(trail.entries.len(), 5);
    let at = Best {
        depth: 2,
        index: live[0],
        score: 0,
    };
    let line = trail.line_to(at, &Solo);
    assert_eq!(line, [10, 22, 31]);
    assert_eq!(trail.line_to(best.unwrap(), &Solo), [12, 20]);
}

/// The line to `b` in levels kept whole, each entry's parent an index of the level before.
fn line_in_levels(levels: &[Vec<TrailEntry>], b: Best) -> Vec<u16> {
    let mut i = b.index;
    let mut line: Vec<u16> = (0..=b.depth)
        .rev()
        .map(|d| {
            let e = levels[d][i as usize];
            i = e.parent;
            e.placement
        })
        .collect();
    line.reverse();
    line
}

/// Random beams of 40 depths, compacted every [`GC_INTERVAL`] levels as a search does:
/// every live state's line and the best state's line are those of the trail never compacted.
#[test]
fn compaction_in_place_keeps_every_line_of_an_uncompacted_trail() {
    use crate::test_rng::SplitMix64;
    let mut rng = SplitMix64::new(7);
    for width in [1usize, 5, 64] {
        let mut trail = Trail::new();
        let mut plain: Vec<Vec<TrailEntry>> = Vec::new();
        // Each live state: (its trail index, its index in `plain`'s last level).
        let mut live: Vec<(u32, u32)> = Vec::new();
        let mut best: Option<Best> = None;
        let mut plain_best: Option<Best> = None;
        for depth in 0..40 {
            let count = width.min(1 + depth * 3);
            let level: Vec<TrailEntry> = (0..count)
                .map(|_| {
                    step(
                        rng.below(live.len().max(1) as u64) as u32,
                        rng.below(1 << 12) as u16,
                    )
                })
                .collect();
            // Parents index the previous level as the trail holds it now.
            let slot = trail.open(count);
            for (i, e) in level.iter().enumerate() {
                let parent = live.get(e.parent as usize).map_or(0, |l| l.0);
                slot[i] = step(parent, e.placement);
            }
            plain.push(
                level
                    .iter()
                    .map(|e| step(live.get(e.parent as usize).map_or(0, |l| l.1), e.placement))
                    .collect(),
            );
            live = (0..count as u32).map(|i| (i, i)).collect();
            if depth % 7 == 3 {
                best = Some(Best {
                    depth,
                    index: 0,
                    score: depth as u64,
                });
                plain_best = best;
            }
            let mut indices: Vec<u32> = live.iter().map(|l| l.0).collect();
            trail.close(&mut indices, |i| i, &mut best, &Solo);
            for (l, i) in live.iter_mut().zip(indices) {
                l.0 = i;
            }
        }
        let plain_line = |b: Best| line_in_levels(&plain, b);
        let line = |b: Best| trail.line_to(b, &Solo);
        for &(index, plain_index) in &live {
            let at = |index| Best {
                depth: 39,
                index,
                score: 0,
            };
            assert_eq!(
                line(at(index)),
                plain_line(at(plain_index)),
                "width {width}"
            );
        }
        assert_eq!(
            line(best.unwrap()),
            plain_line(plain_best.unwrap()),
            "width {width}"
        );
        assert!(trail.entries.len() < plain.iter().map(Vec::len).sum::<usize>() || width == 1);
    }
}

/// Beams of 20,000 depths whose lines meet again within a few depths (each state's parent
/// is one of the previous level's first three), as a search's do: with the decided depths
/// handed out after each compaction, the trail holds a few levels' worth of the beam, and
/// the decided codes then `best`'s line are the line of the trail that keeps every level.
#[test]
fn taking_the_decided_depths_keeps_the_trail_small_and_the_line_whole() {
    use crate::test_rng::SplitMix64;
    let mut rng = SplitMix64::new(11);
    let (width, depths) = (8usize, 20_000);
    let mut trail = Trail::new();
    let mut kept = Trail::new();
    let mut decided = Vec::new();
    let mut best: Option<Best> = None;
    let mut kept_best: Option<Best> = None;
    // Each live state's index in `trail` and in `kept`.
    let mut live: Vec<(u32, u32)> = Vec::new();
    let mut most = 0;
    for depth in 0..depths {
        let level: Vec<(usize, u16)> = (0..width)
            .map(|_| {
                let parent = rng.below(live.len().clamp(1, 3) as u64) as usize;
                (parent, rng.below(1 << 12) as u16)
            })
            .collect();
        for (t, pick) in [(&mut trail, 0), (&mut kept, 1)] {
            let slot = t.open(width);
            for (e, &(parent, placement)) in slot.iter_mut().zip(&level) {
                let parent = live
                    .get(parent)
                    .map_or(0, |l| if pick == 0 { l.0 } else { l.1 });
                *e = step(parent, placement);
            }
        }
        live = (0..width as u32).map(|i| (i, i)).collect();
        // Now and then the best state is a state of this depth, pinned while later ones
        // go on.
        if depth % 500 == 7 {
            best = Some(Best {
                depth,
                index: 5,
                score: depth as u64,
            });
            kept_best = best;
        }
        let mut indices: Vec<u32> = live.iter().map(|l| l.0).collect();
        if trail.close(&mut indices, |i| i, &mut best, &Solo) {
            trail.take_decided(best, &mut |codes| decided.extend_from_slice(codes), &Solo);
        }
        for (l, i) in live.iter_mut().zip(indices) {
            l.0 = i;
        }
        most = most.max(trail.len());
    }
    assert_eq!(kept.len(), width * depths);
    assert!(most < 1_000, "the trail held {most} entries");
    assert!(decided.len() > depths - 1_000);
    let whole_line = |b: Best| -> Vec<u16> { [decided.clone(), trail.line_to(b, &Solo)].concat() };
    assert_eq!(
        whole_line(best.unwrap()),
        kept.line_to(kept_best.unwrap(), &Solo)
    );
    for &(index, kept_index) in &live {
        let at = |index| Best {
            depth: depths - 1,
            index,
            score: 0,
        };
        assert_eq!(whole_line(at(index)), kept.line_to(at(kept_index), &Solo));
    }
}

/// With no best state, or one at the bottom level, nothing is decided.
#[test]
fn nothing_is_decided_without_a_best_below_it() {
    let mut trail = Trail::new();
    for placement in 0..4 {
        trail.open(1)[0] = step(0, placement);
    }
    let mut taken = Vec::new();
    trail.take_decided(None, &mut |codes| taken.extend_from_slice(codes), &Solo);
    let at = |depth| Best {
        depth,
        index: 0,
        score: 0,
    };
    trail.take_decided(
        Some(at(0)),
        &mut |codes| taken.extend_from_slice(codes),
        &Solo,
    );
    assert!(taken.is_empty());
    trail.take_decided(
        Some(at(2)),
        &mut |codes| taken.extend_from_slice(codes),
        &Solo,
    );
    assert_eq!(taken, [0, 1]);
    assert_eq!(trail.line_to(at(3), &Solo), [2, 3]);
}

/// One depth's random level of `width` steps, each a parent among the first `fan` live states
/// and a placement, and the stretch of it (from, to) that process `rank` of `processes` holds.
fn random_level(
    rng: &mut crate::test_rng::SplitMix64,
    live: &[(u32, bool)],
    (width, fan): (usize, usize),
    (processes, rank): (usize, usize),
) -> (Vec<(u32, u16)>, usize, usize) {
    let level: Vec<(u32, u16)> = (0..width)
        .map(|_| {
            let parent = rng.below(live.len().clamp(1, fan) as u64) as usize;
            let parent = live.get(parent).map_or(0, |l| l.0);
            (parent, rng.below(1 << 12) as u16)
        })
        .collect();
    let mut cuts: Vec<usize> = (1..processes)
        .map(|_| rng.below(width as u64 + 1) as usize)
        .collect();
    cuts.sort_unstable();
    cuts.insert(0, 0);
    cuts.push(width);
    (level, cuts[rank], cuts[rank + 1])
}

/// Decided codes and (spread, whole) lines of one process's run of
/// [`a_trail_spread_over_processes_gives_the_one_trails_lines`].
type SpreadRun = (Vec<u16>, Vec<u16>, Vec<(Vec<u16>, Vec<u16>)>);

/// One process of a trail spread over `comm`, beside a trail that holds every level: both fed
/// the same random levels, compacted and decided at each depth; the codes each decided and the
/// lines to the last live states and the best, by each.
fn spread_run(comm: &dyn Comm, (width, fan): (usize, usize), depths: usize) -> SpreadRun {
    let mut rng = crate::test_rng::SplitMix64::new(5);
    let (mut trail, mut whole) = (Trail::new(), Trail::new());
    let (mut decided, mut whole_decided) = (Vec::new(), Vec::new());
    let (mut best, mut whole_best) = (None, None);
    // The live states' indices in the last level, and whether this process holds each.
    let mut live: Vec<(u32, bool)> = Vec::new();
    for depth in 0..depths {
        let (level, from, to) =
            random_level(&mut rng, &live, (width, fan), (comm.size(), comm.rank()));
        let slot = trail.open_part(to - from, from, width);
        for (e, &(parent, placement)) in slot.iter_mut().zip(&level[from..to]) {
            *e = step(parent, placement);
        }
        for (e, &(parent, placement)) in whole.open(width).iter_mut().zip(&level) {
            *e = step(parent, placement);
        }
        live = (0..width as u32)
            .filter(|_| rng.below(2) == 0)
            .map(|i| (i, (from..to).contains(&(i as usize))))
            .collect();
        if live.is_empty() {
            live.push((0, from == 0 && to > 0));
        }
        if depth % 50 == 7 {
            let index = rng.below(width as u64) as u32;
            best = Some(Best {
                depth,
                index,
                score: depth as u64,
            });
            whole_best = best;
        }
        let mut mine: Vec<u32> = live.iter().filter(|l| l.1).map(|l| l.0).collect();
        if trail.close(&mut mine, |i| i, &mut best, comm) {
            let mut take = |codes: &[u16]| decided.extend_from_slice(codes);
            trail.take_decided(best, &mut take, comm);
        }
        let mut all: Vec<u32> = live.iter().map(|l| l.0).collect();
        if whole.close(&mut all, |i| i, &mut whole_best, &Solo) {
            let mut take = |codes: &[u16]| whole_decided.extend_from_slice(codes);
            whole.take_decided(whole_best, &mut take, &Solo);
        }
        assert_eq!(best, whole_best, "depth {depth}");
        for (l, i) in live.iter_mut().zip(all) {
            l.0 = i;
        }
        let held: Vec<u32> = live.iter().filter(|l| l.1).map(|l| l.0).collect();
        assert_eq!(mine, held, "depth {depth}: the live states renumbered");
        assert!(trail.len() <= whole.len());
    }
    let at = |index| Best {
        depth: depths - 1,
        index,
        score: 0,
    };
    let ends = live.iter().map(|l| at(l.0)).chain(best);
    let lines = ends
        .map(|b| (trail.line_to(b, comm), whole.line_to(b, &Solo)))
        .collect();
    (decided, whole_decided, lines)
}

/// A trail spread over 1 to 6 processes, each holding a stretch of every level (of random
/// lengths, some empty) and the live states of its stretch, compacts, renumbers, decides and
/// rebuilds the lines exactly as one trail that holds every level: narrow lineages (parents
/// among the first 3 live states), where most depths are decided, and wide ones (parents among
/// every live state), where most parents are held by another process than their children.
#[test]
fn a_trail_spread_over_processes_gives_the_one_trails_lines() {
    for (width, fan, depths, decided_at_least) in [(12, 3, 600, 300), (80, usize::MAX, 300, 1)] {
        for processes in 1..=6 {
            let answers =
                crate::comm::run_local(processes, |comm| spread_run(comm, (width, fan), depths));
            let (decided, whole_decided, lines) = &answers[0];
            let case = format!("width {width}, fan {fan}, {processes} processes");
            assert!(decided.len() >= decided_at_least, "{case}");
            assert_eq!(decided, whole_decided, "{case}");
            for (line, whole_line) in lines {
                assert_eq!(line, whole_line, "{case}");
            }
            for (decided, _, lines) in &answers[1..] {
                assert!(decided.is_empty() && lines.iter().all(|l| l.0.is_empty()));
            }
        }
    }
}
