//! The evaluation (`eval`) held to plain cell-by-cell counts of its features.

use super::*;
use std::collections::HashSet;
use tetris_opt::games::contest::bitboard::{Board, ContestBoard};
use tetris_opt::games::contest::rules::{Field, Kind, HEIGHT, SPAWN, WIDTH};
use tetris_opt::kit::eval::{self, evaluate, Features, Weights};

// ---------------------------------------------------------------------------------------------
// Evaluation features
// ---------------------------------------------------------------------------------------------

/// The features as documented on `eval::Weights`, counted cell by cell on the plain board.
fn plain_features(board: &Field, landing_y: u32, shallow_depth: i32, top_rows: i32) -> Features {
    let filled = |x: i32, y: i32| !(0..WIDTH).contains(&x) || y >= HEIGHT || board.filled(x, y);
    // The highest filled row of each column (HEIGHT for an empty column) and of the board.
    let tops: Vec<i32> = (0..WIDTH)
        .map(|x| (0..HEIGHT).find(|&y| board.filled(x, y)).unwrap_or(HEIGHT))
        .collect();
    let stack_top = tops.iter().copied().min().unwrap_or(HEIGHT);
    let heights: Vec<u32> = tops.iter().map(|&t| (HEIGHT - t) as u32).collect();
    let mut f = Features {
        landing_height: HEIGHT as u32 - landing_y,
        max_height: heights.iter().copied().max().unwrap_or(0),
        ..Features::default()
    };
    let mut hole_rows = HashSet::new();
    for x in 0..WIDTH {
        let top = tops[x as usize];
        for y in 0..HEIGHT {
            if board.filled(x, y) {
                f.cells += 1;
                f.spawn_column += (x == SPAWN.0) as u32;
                if y < top_rows {
                    f.top_cells += 1;
                }
            } else if y > top {
                f.holes += 1;
                hole_rows.insert(y);
                if y < top + shallow_depth {
                    f.shallow_holes += 1;
                }
            }
            // The floor under row 19 counts as filled.
            if board.filled(x, y) != filled(x, y + 1) {
                f.column_transitions += 1;
            }
        }
        // Well cells: empty cells above the column's top with both sides filled (walls count).
        let d = (0..top)
            .filter(|&y| filled(x - 1, y) && filled(x + 1, y))
            .count() as u32;
        f.well_sums += d * (d + 1) / 2;
        if x + 1 < WIDTH {
            f.bumpiness += heights[x as usize].abs_diff(heights[x as usize + 1]);
        }
    }
    f.hole_rows = hole_rows.len() as u32;
    for y in stack_top..HEIGHT {
        for x in 0..WIDTH - 1 {
            if board.filled(x, y) != board.filled(x + 1, y) {
                f.row_transitions += 1;
            }
        }
        f.wall_transitions += !board.filled(0, y) as u32 + !board.filled(WIDTH - 1, y) as u32;
    }
    // The longest run (at most 4) of rows complete but for column x, going up from the row
    // just above that column's top.
    for x in 0..WIDTH {
        let ready = |y: i32| (0..WIDTH).all(|i| board.filled(i, y) != (i == x));
        let run = (0..tops[x as usize])
            .rev()
            .take_while(|&y| ready(y))
            .count()
            .min(4) as u32;
        f.clean_well = f.clean_well.max(run);
    }
    // Rows complete but for the spawn's column, and the run of them an I dropped into that
    // column reaches (going up from the row above its top, with no cap).
    let well = SPAWN.0;
    let ready = |y: i32| (0..WIDTH).all(|i| board.filled(i, y) != (i == well));
    f.ready_rows = (0..HEIGHT).filter(|&y| ready(y)).count() as u32;
    f.ready_run = (0..tops[well as usize])
        .rev()
        .take_while(|&y| ready(y))
        .count() as u32;
    // Neighbouring surface columns (neither of them the well) by their height difference.
    for x in 0..WIDTH - 1 {
        if x == well || x + 1 == well {
            continue;
        }
        match heights[x as usize].abs_diff(heights[x as usize + 1]) {
            0 => f.flat_pairs += 1,
            1 => f.step1_pairs += 1,
            2 => {}
            _ => f.step3_pairs += 1,
        }
    }
    f
}

#[test]
fn evaluation_features_match_plain_counts() {
    let mut rng = Rng::new(0x5EED_00E1);
    // Boards with a ready stock under the spawn, so that the well features are checked on the
    // boards they are for.
    let mut stocked = 0;
    let mut plugged = 0;
    for (n, (family, board)) in boards(0x5EED_00E0, 2000).into_iter().enumerate() {
        let bits = Board::from_field(&board);
        let shallow_depth = rng.range(0, 6);
        let top_rows = rng.range(0, 20);
        let landing_y = rng.range(0, 19) as u32;
        let fast = eval::features(&bits, landing_y, shallow_depth as u32, top_rows as u32);
        let plain = plain_features(&board, landing_y, shallow_depth, top_rows);
        stocked += (plain.ready_run >= 4) as u32;
        plugged += (plain.ready_rows - plain.ready_run >= 2) as u32;
        assert_eq!(
            fast,
            plain,
            "board {n} ({}), shallow depth {shallow_depth}, top rows {top_rows}:\n{}",
            FAMILY_NAMES[family],
            board.picture(None)
        );
    }
    assert!(
        stocked >= 20,
        "only {stocked} boards with a ready run of 4 or more"
    );
    assert!(
        plugged >= 20,
        "only {plugged} boards with 2 or more ready rows out of an I's reach"
    );
}

#[test]
fn evaluation_is_the_weighted_sum_of_the_features() {
    let weights = Weights::default();
    let names = Weights::NAMES;
    // With a shallow window of 3 rows, and with none (as shipped: the evaluation then leaves
    // `shallow_holes` out, and every other feature must come out the same).
    for (n, (_, board), shallow) in boards(0x5EED_00E2, 300)
        .into_iter()
        .enumerate()
        .flat_map(|(n, b)| [(n, b.clone(), 3u32), (n, b, 0)])
    {
        let bits = Board::from_field(&board);
        // One weight at a time set to 1 (the window sizes kept): the cost is that feature.
        for (i, name) in names.iter().enumerate() {
            // Window sizes, and the weights `Weights::at_depth` adds to `ready_rows` and `cells`.
            if Weights::WINDOWS.contains(name)
                || *name == "ready_rows_near_i"
                || *name == "cells_near_i"
            {
                continue;
            }
            let mut v: Vec<f32> = names
                .iter()
                .map(|&m| match m {
                    "shallow_depth" => shallow as f32,
                    "top_rows" => 3.0,
                    "near_i_pieces" => 5.0,
                    _ => 0.0,
                })
                .collect();
            v[i] = 1.0;
            let w = Weights::from_slice(&v);
            let f = eval::features(&bits, 7, shallow, 3);
            let expected = match *name {
                "cells" => f.cells,
                "row_transitions" => f.row_transitions,
                "wall_transitions" => f.wall_transitions,
                "column_transitions" => f.column_transitions,
                "holes" => f.holes,
                "hole_rows" => f.hole_rows,
                "shallow_holes" => f.shallow_holes,
                "well_sums" => f.well_sums,
                "bumpiness" => f.bumpiness,
                "max_height" => f.max_height,
                "top_cells" => f.top_cells,
                "landing_height" => f.landing_height,
                "clean_well" => f.clean_well,
                "spawn_column" => f.spawn_column,
                "ready_rows" => f.ready_rows,
                "ready_run" => f.ready_run,
                "flat_pairs" => f.flat_pairs,
                "step1_pairs" => f.step1_pairs,
                "step3_pairs" => f.step3_pairs,
                other => panic!("a new weight {other} needs a line here"),
            };
            assert_eq!(
                evaluate(&bits, 7, &w),
                expected as f32,
                "board {n}, {name}, shallow window {shallow}"
            );
        }
        assert!(evaluate(&bits, 7, &weights).is_finite());
    }
}

#[test]
fn batch_evaluation_and_hashes_equal_one_board_at_a_time_bit_for_bit() {
    let mut rng = Rng::new(0x5EED_00E3);
    let all = boards(0x5EED_00E4, 1000);
    // Default weights, and weight sets that switch on every feature (clean_well included).
    let mut weight_sets = vec![Weights::default()];
    for _ in 0..3 {
        let v: Vec<f32> = Weights::NAMES
            .iter()
            .map(|&n| match n {
                "shallow_depth" | "top_rows" | "near_i_pieces" => rng.range(0, 6) as f32,
                _ => rng.range(-300, 300) as f32 / 97.0,
            })
            .collect();
        weight_sets.push(Weights::from_slice(&v));
    }
    for w in &weight_sets {
        // Batches of every size from 1 to BATCH.
        let mut start = 0;
        let mut size = 1;
        while start < all.len() {
            let group = &all[start..(start + size).min(all.len())];
            let mut batch = eval::Batch::default();
            let mut expected = Vec::new();
            for (_, board) in group {
                let bits = Board::from_field(board);
                let y = rng.range(0, 19) as u32;
                batch.push(&bits, y);
                expected.push(evaluate(&bits, y, w));
            }
            let got = eval::evaluate_batch(&batch, w);
            for (i, e) in expected.iter().enumerate() {
                assert_eq!(
                    got[i].to_bits(),
                    e.to_bits(),
                    "board {} in {w:?}",
                    start + i
                );
            }
            start += size;
            size = size % eval::BATCH + 1;
        }
    }
}

#[test]
fn the_near_i_weights_apply_only_while_an_i_is_coming() {
    use Kind::*;
    let w = Weights {
        ready_rows: 0.5,
        ready_rows_near_i: -2.0,
        cells: -1.0,
        cells_near_i: -0.25,
        near_i_pieces: 3.0,
        ..Weights::default()
    };
    let near = |sequence: &[Kind], depth| {
        let d = w.at_depth(sequence, depth);
        match (d.ready_rows, d.cells) {
            (-1.5, -1.25) => true,
            (0.5, -1.0) => false,
            other => panic!("depth {depth}: ready_rows and cells {other:?}"),
        }
    };
    // Piece 0 is being placed; the window is the next three pieces, 1..=3.
    let sequence = [T, O, S, I, Z, O, O, O, O];
    assert!(near(&sequence, 0));
    assert!(near(&sequence, 2));
    // The I itself being placed is not a coming I; nor is one past the window.
    assert!(!near(&sequence, 3));
    assert!(!near(&[T, O, S, Z, I], 0));
    // At the end of the sequence nothing is coming.
    assert!(!near(&sequence, 8));
    assert!(!near(&sequence, 20));
    // Everything else is left as it is.
    let d = w.at_depth(&sequence, 0);
    let rest = |w: &Weights| {
        let mut v = w.to_vec();
        for name in ["ready_rows", "cells"] {
            let i = Weights::NAMES.iter().position(|n| *n == name).unwrap();
            v[i] = 0.0;
        }
        v
    };
    assert_eq!(rest(&d), rest(&w));
}
