//! The sets of positions a piece reaches: where it fits ([`valid_map`]), and the fixpoint over
//! those masks from the spawn (or, where every valid set runs from the top, the connected runs
//! without one), which the placements are read from.

use crate::games::contest::bitboard::{shape, Board, COLS, ROW_MASK};
use crate::games::contest::rules::{ContestKind, Kind};

/// Per state and center column: the rows where the piece's center fits.
pub type ValidMap = [[u32; COLS]; 4];

/// Positions where `kind` fits on `board`, for each state and center column.
///
/// One copy per kind, so that its states, columns and offsets are constants the loops unroll
/// over: the contest's search ran 4.1% fewer instructions per state (valgrind, AVX2 build),
/// its share of the native profile went from 9.6% to 7.4%, and the whole search took 0.95x
/// the CPU (width 20,000 over 300 pieces, ten interleaved pairs; without AVX-512, 1.00x built
/// for `x86-64-v3` and 1.01x built native with `-C target-feature=-avx512f`: within the
/// pairs' spread).
#[inline]
pub fn valid_map(board: &Board, kind: Kind) -> ValidMap {
    match kind {
        Kind::I => valid_map_of::<0>(board),
        Kind::L => valid_map_of::<1>(board),
        Kind::J => valid_map_of::<2>(board),
        Kind::T => valid_map_of::<3>(board),
        Kind::O => valid_map_of::<4>(board),
        Kind::S => valid_map_of::<5>(board),
        Kind::Z => valid_map_of::<6>(board),
    }
}

/// [`valid_map`] of the kind `Kind::ALL[K]`.
#[inline(always)]
fn valid_map_of<const K: usize>(board: &Board) -> ValidMap {
    let kind = Kind::ALL[K];
    let mut floored = [0u32; COLS];
    for (f, c) in floored.iter_mut().zip(&board.cols) {
        // Bits 20..31 stand for the floor, so cells below row 19 collide like filled cells.
        *f = c | !ROW_MASK;
    }
    let mut map = [[0u32; COLS]; 4];
    // States that look alike have equal masks: compute each distinct one once.
    let distinct = distinct_states(kind);
    for (state, row) in map.iter_mut().enumerate().take(distinct) {
        let s = shape(kind, state as u8);
        let lo = -(s.min_dx as i32);
        let hi = COLS as i32 - 1 - s.max_dx as i32;
        let offsets = kind.offsets(state as u8);
        for x in lo..=hi {
            let mut blocked = 0u32;
            for &(dx, dy) in &offsets {
                let col = floored[(x + dx) as usize];
                // Center row y collides when cell row y+dy is filled: shift that bit to y.
                // Above the top (y+dy < 0) the shift brings in zeros: always free.
                blocked |= if dy >= 0 { col >> dy } else { col << -dy };
            }
            row[x as usize] = !blocked & ROW_MASK;
        }
    }
    for state in distinct..4 {
        map[state] = map[state % distinct];
    }
    map
}

/// How many rotation states of `kind` have distinct cells: they are the canonical states
/// `0..n` ([`canonical_state`](crate::games::contest::bitboard::canonical_state)), and state `s` looks like state `s % n`.
#[inline]
pub(super) fn distinct_states(kind: Kind) -> usize {
    match kind {
        Kind::O => 1,
        Kind::I | Kind::S | Kind::Z => 2,
        _ => 4,
    }
}

/// All positions reachable from `start` through `valid`, per canonical state and column: only
/// the first `distinct` states are searched, rotation taking canonical state `s` to
/// `(s + 1) % distinct`.
///
/// That is exact. Validity depends only on the cells, and a rotation always goes to the next
/// state, whose cells are those of the next canonical state; so a path through the four states
/// maps onto one through the canonical ones and back (counting rotations gives the real state).
/// The reachable set of a canonical state is therefore the union over the states that look
/// like it, which is all the placements need, and it takes half (I, S, Z) or a quarter (O) of
/// the sweeps.
#[inline]
pub(super) fn reachable(
    valid: &ValidMap,
    distinct: usize,
    start_state: usize,
    start_x: usize,
    start_bits: u32,
) -> ValidMap {
    let mut reach = [[0u32; COLS]; 4];
    reach[start_state][start_x] = fill_down(start_bits, valid[start_state][start_x]);
    if distinct == 1 {
        // Rotating an O changes nothing: one state closed under the moves is all of it.
        sweep_state(&mut reach[0], &valid[0], &[0; COLS]);
        return reach;
    }
    // A state needs another sweep only when it or the state rotating into it changed; a typical
    // board settles after one sweep of each state plus one confirming sweep.
    // The seeded spawn counts as a change: the state after it must be tried even when the
    // spawn state itself cannot move (a stack that blocks shifting but not rotating).
    let next = |s: usize| (s + 1) % distinct;
    let mut dirty = 1u32 << start_state | 1 << next(start_state);
    let mut s = start_state;
    while dirty != 0 {
        if dirty >> s & 1 == 1 {
            dirty &= !(1 << s);
            let prev = (s + distinct - 1) % distinct;
            let from_rotation = reach[prev];
            if sweep_state(&mut reach[s], &valid[s], &from_rotation) {
                dirty |= 1 << next(s);
            }
        }
        s = next(s);
    }
    reach
}

/// Whether every valid set of the first `distinct` states is a run of rows from the top down
/// (or empty): then [`reachable_from_top`] needs no fixpoint. So it is on a board without
/// overhangs, and on most boards whose holes are too small for the piece.
#[inline]
pub(super) fn runs_from_top(valid: &ValidMap, distinct: usize) -> bool {
    // A run from bit 0 up is all ones below its end: adding one clears it whole.
    valid[..distinct]
        .iter()
        .flatten()
        .fold(0, |a, &v| a | (v & v.wrapping_add(1)))
        == 0
}

/// Where every valid set is a run of rows from the top down ([`runs_from_top`]), reachability
/// needs no fixpoint: where a piece can shift or rotate at some row, it can at every row above,
/// the start's row among them. So the reachable set is the (state, column) pairs connected to
/// the start at the start's row ([`connected_at_row`]), each with the whole of its run from that
/// row down ([`runs_below`]).
#[cfg(test)]
pub(super) fn reachable_from_top(
    valid: &ValidMap,
    distinct: usize,
    start_state: usize,
    start_x: usize,
    start_row: u32,
) -> ValidMap {
    let connected = connected_at_row(valid, distinct, start_state, start_x, start_row);
    runs_below(valid, &connected, start_row)
}

/// Per state, the columns (one bit each) the piece reaches from the start by shifts and
/// rotations at the start's row (states past `distinct` stay empty).
#[inline]
pub(super) fn connected_at_row(
    valid: &ValidMap,
    distinct: usize,
    start_state: usize,
    start_x: usize,
    row: u32,
) -> [u32; 4] {
    // Per state, the columns where the piece fits at the row.
    let mut at_row = [0u32; 4];
    for (fits, cols) in at_row.iter_mut().zip(valid).take(distinct) {
        for (x, &v) in cols.iter().enumerate() {
            *fits |= (v >> row & 1) << x;
        }
    }
    let mut connected = [0u32; 4];
    connected[start_state] = 1 << start_x;
    loop {
        let mut grew = false;
        for s in 0..distinct {
            let rotated_from = connected[(s + distinct - 1) % distinct];
            let mut c = connected[s] | (rotated_from & at_row[s]);
            // Shifts left and right along the row, as far as the piece fits.
            loop {
                let wider = (c | c << 1 | c >> 1) & at_row[s];
                if wider == c {
                    break;
                }
                c = wider;
            }
            grew |= c != connected[s];
            connected[s] = c;
        }
        if !grew {
            return connected;
        }
    }
}

/// The reachable set of [`connected_at_row`]'s columns: their valid rows from `row` down.
pub(super) fn runs_below(valid: &ValidMap, connected: &[u32; 4], row: u32) -> ValidMap {
    let below = ROW_MASK & !((1u32 << row) - 1);
    let mut reach = [[0u32; COLS]; 4];
    for (s, &columns) in connected.iter().enumerate() {
        for x in 0..COLS {
            if columns >> x & 1 == 1 {
                reach[s][x] = valid[s][x] & below;
            }
        }
    }
    reach
}

/// Closes one state's reachable set under `D`, `L` and `R`, after adding what rotating from the
/// previous state brings. Returns whether the set grew.
///
/// The set is worked on in a local copy and compared column by column: storing the columns one
/// at a time and then reading the array back whole (to return or compare it) stalls, since such
/// a load cannot be served from the pending narrow stores.
#[inline]
pub(super) fn sweep_state(
    reach: &mut [u32; COLS],
    valid: &[u32; COLS],
    from_rotation: &[u32; COLS],
) -> bool {
    let before = *reach;
    let mut r = before;
    // What rotating brings is added during the first pass to the right, column by column: as
    // a separate whole-array step it would load `from_rotation` (just stored, one column at a
    // time, by the previous state's sweep) as a vector, which stalls the same way. The set
    // reached is the same fixpoint in any order.
    r[0] = fill_down(r[0] | (from_rotation[0] & valid[0]), valid[0]);
    for x in 1..COLS {
        let brought = from_rotation[x] | r[x - 1];
        r[x] = fill_down(r[x] | (brought & valid[x]), valid[x]);
    }
    // One pass each way carries moves along a row across the board; each step waits for its
    // neighbour, so these passes are the serial part.
    loop {
        for x in (0..COLS - 1).rev() {
            r[x] = fill_down(r[x] | (r[x + 1] & valid[x]), valid[x]);
        }
        // Stable unless some column can still gain from a neighbour (a slide after a drop,
        // under an overhang): checked for all columns at once, with no chain between them.
        let mut gains = 0u32;
        for x in 0..COLS {
            let left = if x > 0 { r[x - 1] } else { 0 };
            let right = if x + 1 < COLS { r[x + 1] } else { 0 };
            gains |= (left | right) & valid[x] & !r[x];
        }
        if gains == 0 {
            break;
        }
        for x in 1..COLS {
            r[x] = fill_down(r[x] | (r[x - 1] & valid[x]), valid[x]);
        }
    }
    let changed = r.iter().zip(&before).fold(0, |a, (n, b)| a | (n ^ b)) != 0;
    *reach = r;
    changed
}

/// Extends `bits` (a subset of `valid`) downward through runs of `valid`: adding `bits` to the
/// run carries through every set bit above it, and the xor keeps exactly the bits the carry
/// touched.
#[inline]
pub(super) fn fill_down(bits: u32, valid: u32) -> u32 {
    let b = bits & valid;
    ((valid + b) ^ valid) & valid | b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contest::bitboard::canonical_state;
    use crate::games::contest::rules::SPAWN;

    #[test]
    fn fill_down_stops_at_blocked_rows() {
        let valid = 0b1111_0111_1110u32;
        assert_eq!(fill_down(0b10, valid), 0b0111_1110);
        assert_eq!(fill_down(0b1_0000_0000, valid), 0b1111_0000_0000);
        assert_eq!(fill_down(0, valid), 0);
    }

    /// Wherever every valid set runs from the top (random surfaces, tall ones that block the
    /// spawn's moves, and surfaces with holes and overhangs, most of which do not qualify), the
    /// shortcut finds exactly what the fixpoint finds, for every kind, spawn state and start row.
    #[test]
    fn valid_runs_from_the_top_need_no_fixpoint() {
        let mut rng = crate::kit::sequence::SplitMix64::new(7);
        let (mut compared, mut refused) = (0, 0);
        for n in 0..4000 {
            let mut board = Board::default();
            let tallest = [4, 10, 17, 20][n % 4];
            for c in board.cols.iter_mut() {
                let height = rng.below(tallest + 1) as u32;
                *c = ROW_MASK & !((1u32 << (20 - height)) - 1);
                // Every other board: holes and overhangs, some of them as wide as a piece.
                if n % 2 == 1 && height > 2 {
                    *c &= !(rng.below(1 << 6) as u32) << (20 - height);
                }
            }
            for kind in Kind::ALL {
                let valid = valid_map(&board, kind);
                let distinct = distinct_states(kind);
                if !runs_from_top(&valid, distinct) {
                    refused += 1;
                    continue;
                }
                for index in 0..4 {
                    let start = canonical_state(kind, index) as usize;
                    for row in 0..2 {
                        if valid[start][SPAWN.0 as usize] >> row & 1 == 0 {
                            continue;
                        }
                        let x = SPAWN.0 as usize;
                        assert_eq!(
                            reachable_from_top(&valid, distinct, start, x, row),
                            reachable(&valid, distinct, start, x, 1 << row),
                            "board {n}, {kind:?}, spawn state {index}, row {row}: {:?}",
                            board.cols
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 100_000 && refused > 1000, "{compared} {refused}");
    }
}
