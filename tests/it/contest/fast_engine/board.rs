//! The fast board (`bitboard`, `movegen::valid_map`) held to the plain rules engine: where a
//! piece fits, locking (writes, clears, top-outs, the piece limit), full rows and row removal.

use super::*;
use tetris_opt::games::contest::bitboard::{self, Board, ContestBoard, ROW_MASK};
use tetris_opt::games::contest::movegen::{self};
use tetris_opt::games::contest::rules::Rules;
use tetris_opt::games::contest::rules::{
    self, ContestKind, Field, GameOver, Kind, Piece, HEIGHT, WIDTH,
};

// ---------------------------------------------------------------------------------------------
// 1. valid_map
// ---------------------------------------------------------------------------------------------

#[test]
fn valid_map_matches_is_valid_everywhere() {
    const BOARDS: usize = 1600;
    let mut checked = 0u64;
    let mut valid_seen = 0u64;
    for (n, (family, board)) in boards(0x5EED_0001, BOARDS).into_iter().enumerate() {
        let bits = Board::from_field(&board);
        for kind in Kind::ALL {
            let map = movegen::valid_map(&bits, kind);
            for state in 0..4u8 {
                for (x, column) in map[state as usize].iter().enumerate() {
                    assert_eq!(
                        column & !ROW_MASK,
                        0,
                        "bits beyond row 19: board {n} ({}), {kind} state {state} x {x}{board:?}",
                        FAMILY_NAMES[family]
                    );
                }
                for x in -3..13 {
                    for y in -3..23 {
                        let piece = Piece { kind, state, x, y };
                        let plain = board.is_valid(&piece);
                        checked += 1;
                        valid_seen += plain as u64;
                        if (0..WIDTH).contains(&x) && (0..HEIGHT).contains(&y) {
                            let fast = map[state as usize][x as usize] >> y & 1 == 1;
                            assert_eq!(
                                fast,
                                plain,
                                "board {n} ({}), {kind} state {state} center ({x}, {y}){}",
                                FAMILY_NAMES[family],
                                board.picture(Some(&piece))
                            );
                        } else if y >= 0 || !(0..WIDTH).contains(&x) {
                            // Outside the map's domain below the top: the center cell is off
                            // the grid, so the rules call the position invalid.
                            assert!(!plain, "{kind} state {state} ({x}, {y}) valid off-grid");
                        }
                        // Centers above the top (y < 0) may be valid, but no move goes up
                        // from the spawn's y = 0, so no search ever meets them.
                    }
                }
            }
        }
    }
    assert!(
        valid_seen > checked / 10,
        "too few valid positions to mean much"
    );
    eprintln!("valid_map: {BOARDS} boards, {checked} (kind, state, center) cases");
}

// ---------------------------------------------------------------------------------------------
// 2. lock, full rows, row removal
// ---------------------------------------------------------------------------------------------

/// Locks `piece` as number `index` with both engines under `piece_limit` and compares
/// everything. Returns the plain turn.
fn check_lock(board: &Field, piece: &Piece, index: usize, piece_limit: usize) -> rules::Turn {
    let mut plain = board.clone();
    let limit = Rules::default().with_piece_limit(piece_limit);
    let turn = rules::lock(&mut plain, piece, index, limit);
    let mut fast = Board::from_field(board);
    let outcome = bitboard::lock(
        &mut fast,
        piece.kind,
        piece.state,
        piece.x as usize,
        piece.y as u32,
        index,
        limit,
    );
    let ctx = || {
        format!(
            "{} state {} at ({}, {}), index {index}, limit {piece_limit}{}",
            piece.kind,
            piece.state,
            piece.x,
            piece.y,
            board.picture(Some(piece))
        )
    };
    assert_eq!(fast.to_field(), plain, "board after lock: {}", ctx());
    assert_eq!(outcome.lines, turn.lines, "lines: {}", ctx());
    assert_eq!(outcome.score as u64, turn.score, "score: {}", ctx());
    assert_eq!(outcome.game_over, turn.game_over, "game over: {}", ctx());
    turn
}

#[test]
fn lock_matches_plain_on_random_boards() {
    const BOARDS: usize = 700;
    let mut rng = Rng::new(0x5EED_0002);
    let mut cases = 0u64;
    let mut by_lines = [0u64; 5];
    let mut top_outs = 0u64;
    let mut limits = 0u64;
    for (_, mut board) in boards(0x5EED_0003, BOARDS) {
        // A game never holds a full row between turns (and a lock can clear at most 4).
        open_full_rows(&mut rng, &mut board, &[]);
        for kind in Kind::ALL {
            for piece in all_resting(&board, kind) {
                let index = rng.range(0, 9_999) as usize;
                for limit in [0, index + 1, index + 2, rules::DEFAULT_PIECE_LIMIT] {
                    let turn = check_lock(&board, &piece, index, limit);
                    cases += 1;
                    match turn.game_over {
                        Some(GameOver::TopOut) => top_outs += 1,
                        Some(GameOver::PieceLimit) => limits += 1,
                        _ => by_lines[turn.lines as usize] += 1,
                    }
                }
            }
        }
    }
    assert!(
        top_outs > 0 && limits > 0,
        "{top_outs} top-outs, {limits} limits"
    );
    assert!(by_lines[1..].iter().all(|&n| n > 0), "clears {by_lines:?}");
    eprintln!(
        "lock (random boards): {BOARDS} boards, {cases} locks; clears by rows {by_lines:?}, \
         {top_outs} top-outs, {limits} piece-limit ends"
    );
}

/// Empties one random cell (not in `keep`) of every full row: boards between turns hold none.
fn open_full_rows(rng: &mut Rng, board: &mut Field, keep: &[(i32, i32)]) {
    for y in board.full_rows() {
        let free: Vec<i32> = (0..WIDTH).filter(|&x| !keep.contains(&(x, y))).collect();
        board.set(rng.pick(&free), y, false);
    }
}

/// A board built around `piece` so that each row it covers is, at random, either full once the
/// piece is written or left with a gap elsewhere; other rows random; sometimes every row is
/// occupied (top-out), usually one row is left empty. The piece rests on a support cell when it
/// does not stand on the floor.
fn clear_case(rng: &mut Rng) -> (Field, Piece) {
    let kind = if rng.chance(0.3) { Kind::I } else { rng.kind() };
    let state = rng.range(0, 3) as u8;
    let offs = kind.offsets(state);
    let min_dx = offs.iter().map(|o| o.0).min().unwrap();
    let max_dx = offs.iter().map(|o| o.0).max().unwrap();
    let min_dy = offs.iter().map(|o| o.1).min().unwrap();
    let max_dy = offs.iter().map(|o| o.1).max().unwrap();
    let x = rng.range(-min_dx, WIDTH - 1 - max_dx);
    // Mostly fully on the board; sometimes sticking out of the top (those cells are lost).
    let y_lo = if rng.chance(0.15) { 0 } else { -min_dy };
    let y = rng.range(y_lo, HEIGHT - 1 - max_dy);
    let piece = Piece { kind, state, x, y };
    let cells = piece.cells();
    let is_piece = |cx: i32, cy: i32| cells.contains(&(cx, cy));

    let mut b = Field::new();
    let p = rng.pick(&[0.2, 0.5, 0.8]);
    for yy in 0..HEIGHT {
        for xx in 0..WIDTH {
            if !is_piece(xx, yy) && rng.chance(p) {
                b.set(xx, yy, true);
            }
        }
    }
    // A support under the lowest cell of one column.
    let (sx, sy) = *cells.iter().max_by_key(|c| c.1).unwrap();
    let support = (sx, sy + 1);
    if support.1 < HEIGHT {
        b.set(support.0, support.1, true);
    }
    let piece_rows: Vec<i32> = {
        let mut r: Vec<i32> = cells.iter().map(|c| c.1).filter(|&r| r >= 0).collect();
        r.sort_unstable();
        r.dedup();
        r
    };
    for &row in &piece_rows {
        let others: Vec<i32> = (0..WIDTH).filter(|&xx| !is_piece(xx, row)).collect();
        if rng.chance(0.6) {
            for &xx in &others {
                b.set(xx, row, true);
            }
        } else {
            let free: Vec<i32> = others
                .iter()
                .copied()
                .filter(|&xx| (xx, row) != support)
                .collect();
            b.set(rng.pick(&free), row, false);
        }
    }
    if rng.chance(0.25) {
        // Every row occupied once the piece is written: a top-out, full rows or not.
        for yy in 0..HEIGHT {
            if !piece_rows.contains(&yy) && (0..WIDTH).all(|xx| !b.filled(xx, yy)) {
                b.set(rng.range(0, WIDTH - 1), yy, true);
            }
        }
    } else {
        let free_rows: Vec<i32> = (0..HEIGHT)
            .filter(|r| !piece_rows.contains(r) && *r != support.1)
            .collect();
        let r = rng.pick(&free_rows);
        for xx in 0..WIDTH {
            b.set(xx, r, false);
        }
    }
    open_full_rows(rng, &mut b, &[support]);
    assert!(b.is_valid(&piece));
    (b, piece)
}

#[test]
fn lock_matches_plain_on_clears_and_top_outs() {
    const CASES: usize = 40_000;
    let mut rng = Rng::new(0x5EED_0004);
    let mut by_lines = [0u64; 5];
    let mut split_clears = 0u64;
    let mut top_outs_with_full_rows = 0u64;
    let mut top_outs = 0u64;
    let mut limits = 0u64;
    for _ in 0..CASES {
        let (board, piece) = clear_case(&mut rng);
        let mut written = board.clone();
        written.write(&piece);
        let full = written.full_rows();
        let index = rng.range(0, 20_000) as usize;
        for limit in [0, index + 1, index + 2 + rng.range(0, 5) as usize] {
            let turn = check_lock(&board, &piece, index, limit);
            match turn.game_over {
                Some(GameOver::TopOut) => {
                    top_outs += 1;
                    top_outs_with_full_rows += !full.is_empty() as u64;
                }
                Some(GameOver::PieceLimit) => limits += 1,
                Some(GameOver::SpawnBlocked) => unreachable!("lock never blocks a spawn"),
                None => {
                    by_lines[turn.lines as usize] += 1;
                    if full.windows(2).any(|w| w[1] != w[0] + 1) {
                        split_clears += 1;
                    }
                }
            }
        }
    }
    assert!(
        by_lines.iter().all(|&n| n > 0),
        "clears by rows {by_lines:?}"
    );
    assert!(split_clears > 0 && top_outs_with_full_rows > 0 && limits > 0);
    eprintln!(
        "lock (built clears): {CASES} boards x 3 limits; clears by rows {by_lines:?}, \
         {split_clears} with non-adjacent rows, {top_outs} top-outs ({top_outs_with_full_rows} \
         with full rows), {limits} piece-limit ends"
    );
}

#[test]
fn board_queries_and_row_removal_match_plain() {
    const BOARDS: usize = 3000;
    let mut rng = Rng::new(0x5EED_0005);
    let mut full_boards = 0u64;
    for (_, mut board) in boards(0x5EED_0006, BOARDS) {
        // Make some rows full so that full_rows and clearing have something to find.
        for _ in 0..rng.range(0, 4) {
            let y = rng.range(0, HEIGHT - 1);
            for x in 0..WIDTH {
                board.set(x, y, true);
            }
        }
        let bits = Board::from_field(&board);
        assert_eq!(bits.to_field(), board, "round trip");
        assert_eq!(bits.filled_cells(), board.filled_cells(), "{board:?}");
        let full_mask = bits.full_rows();
        let full_plain: Vec<i32> = (0..HEIGHT).filter(|&y| full_mask >> y & 1 == 1).collect();
        assert_eq!(full_plain, board.full_rows(), "{board:?}");
        assert_eq!(
            bits.occupied_rows() == ROW_MASK,
            board.every_row_occupied(),
            "{board:?}"
        );
        for y in 0..HEIGHT {
            let occupied = (0..WIDTH).any(|x| board.filled(x, y));
            assert_eq!(
                bits.occupied_rows() >> y & 1 == 1,
                occupied,
                "row {y}{board:?}"
            );
        }

        let mut cleared = bits;
        cleared.remove_rows(full_mask);
        let mut plain = board.clone();
        let removed = plain.clear_full_rows();
        assert_eq!(removed, full_mask.count_ones());
        assert_eq!(
            cleared.to_field(),
            plain,
            "clearing {full_plain:?}{board:?}"
        );
        full_boards += (removed > 0) as u64;

        // Any set of rows, full or not, against the plain removal.
        for _ in 0..4 {
            let mask = (rng.0.next_u64() as u32 & rng.0.next_u64() as u32) & ROW_MASK;
            let mut fast = bits;
            fast.remove_rows(mask);
            assert_eq!(
                fast.to_field(),
                remove_rows_plain(&board, mask),
                "removing {mask:020b}{board:?}"
            );
        }
    }
    assert!(full_boards > 0);
}
