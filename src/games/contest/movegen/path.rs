//! Move lists: the shortest list of moves that takes a piece from its spawn to a placement,
//! by a breadth-first search over single positions (the placements themselves come from the
//! fixpoint over sets of positions in the parent module).

use super::{valid_map, Placement};
use crate::games::contest::bitboard::{canonical_state, Board, COLS};
use crate::games::contest::rules::{Kind, Move, Rules, MAX_MOVES_PER_PIECE, SPAWN};

/// Why no move list could be given for a placement.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PathError {
    #[error("the placement {0:?} is not reachable from the spawn")]
    Unreachable(Placement),
    #[error("the placement {placement:?} needs {moves} moves, more than the 100 allowed")]
    TooLong { placement: Placement, moves: usize },
}

/// A shortest move list (1..=100 moves) taking piece `index` from its spawn to `target` at rest
/// (anywhere where the rules lock pieces in mid-air). When the spawn position is itself the
/// target, a move that does nothing is given, because the contest rejects a piece with no moves.
pub fn path_to(
    board: &Board,
    kind: Kind,
    index: usize,
    target: Placement,
    rules: Rules,
) -> Result<Vec<Move>, PathError> {
    let moves = path_to_any(board, kind, index, rules.locks_in_mid_air(), |s, x, y| {
        canonical_state(kind, s) == target.state && x == target.x && y == target.y
    })
    .ok_or(PathError::Unreachable(target))?;
    let moves = if moves.is_empty() {
        no_op(board, kind, index)
    } else {
        moves
    };
    if moves.len() > MAX_MOVES_PER_PIECE as usize {
        return Err(PathError::TooLong {
            placement: target,
            moves: moves.len(),
        });
    }
    Ok(moves)
}

/// The shortest move list that leaves a piece where it spawned: one blocked move if there is
/// one, else a step left and back (left is then free, and so is the way back).
fn no_op(board: &Board, kind: Kind, index: usize) -> Vec<Move> {
    let valid = valid_map(board, kind);
    let s = index % 4;
    let (x, y) = (SPAWN.0 as usize, SPAWN.1 as u32);
    let fits = |s: usize, x: usize, y: u32| valid[s % 4][x] >> y & 1 == 1;
    if !fits(s, x, y + 1) {
        return vec![Move::Down];
    }
    if !fits(s, x - 1, y) {
        return vec![Move::Left];
    }
    if !fits(s, x + 1, y) {
        return vec![Move::Right];
    }
    if !fits(s + 1, x, y) {
        return vec![Move::Rotate];
    }
    // Every single move is possible here, so stepping left and back returns to the spawn.
    vec![Move::Left, Move::Right]
}

/// Breadth-first search over (state, x, y) from the spawn to the first position accepted by
/// `is_target`; the path is shortest in moves.
fn path_to_any(
    board: &Board,
    kind: Kind,
    index: usize,
    mid_air: bool,
    is_target: impl Fn(u8, u8, u8) -> bool,
) -> Option<Vec<Move>> {
    let valid = valid_map(board, kind);
    let fits = |s: usize, x: i32, y: i32| {
        (0..COLS as i32).contains(&x) && (0..32).contains(&y) && valid[s][x as usize] >> y & 1 == 1
    };
    const N: usize = 4 * COLS * 32;
    let id = |s: usize, x: i32, y: i32| (s * COLS + x as usize) * 32 + y as usize;
    let mut came_from: Vec<Option<(usize, Move)>> = vec![None; N];
    let mut seen = vec![false; N];
    let start = (index % 4, SPAWN.0, SPAWN.1);
    if !fits(start.0, start.1, start.2) {
        return None;
    }
    let mut queue = std::collections::VecDeque::new();
    seen[id(start.0, start.1, start.2)] = true;
    queue.push_back(start);
    while let Some((s, x, y)) = queue.pop_front() {
        let at_rest = !fits(s, x, y + 1);
        if (mid_air || at_rest) && is_target(s as u8, x as u8, y as u8) {
            let mut moves = Vec::new();
            let mut cur = id(s, x, y);
            while let Some((prev, m)) = came_from[cur] {
                moves.push(m);
                cur = prev;
            }
            moves.reverse();
            return Some(moves);
        }
        for m in Move::ALL {
            let (ns, nx, ny) = match m {
                Move::Left => (s, x - 1, y),
                Move::Right => (s, x + 1, y),
                Move::Down => (s, x, y + 1),
                Move::Rotate => ((s + 1) % 4, x, y),
            };
            if fits(ns, nx, ny) && !seen[id(ns, nx, ny)] {
                seen[id(ns, nx, ny)] = true;
                came_from[id(ns, nx, ny)] = Some((id(s, x, y), m));
                queue.push_back((ns, nx, ny));
            }
        }
    }
    None
}
