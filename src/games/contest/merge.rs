//! Combining records of the same game into one that scores at least as much as the best.
//!
//! The rules carry nothing from one turn to the next but the board and the score, so where two
//! records leave the same board after the same piece, the start of either can go on with the
//! end of the other. Records from different runs meet like this far more often than one would
//! guess (the beam keeps boards that clear to the same shape), so the best path through all of
//! them, found by a dynamic program over (piece, board), can beat every one of them.

use crate::games::contest::bitboard::{Board, ContestBoard};
use crate::games::contest::record::Record;
use crate::games::contest::replay::replay_observed;
use crate::games::contest::rules::{Kind, LockMode, Rules};
use crate::kit::text::FIRST_PIECES;
use ahash::AHashMap;
use thiserror::Error;

/// Why records could not be merged.
#[derive(Debug, Error, PartialEq, Eq)]
pub(crate) enum MergeError {
    #[error("no records to merge")]
    Empty,
    #[error("record {number} does not replay: {detail}")]
    Invalid { number: usize, detail: String },
    /// A record with a mid-air lock, which strict rules refuse, among its first pieces: its
    /// moves were made for other pieces.
    #[error(
        "record {number}: piece {piece} locks in mid-air, among its first pieces: it is likely \
         a record of another sequence"
    )]
    OtherSequence { number: usize, piece: usize },
    /// Every record's first piece locks in mid-air, which strict rules refuse: no strict game
    /// can be made of them.
    #[error("no record's first piece locks at rest, so no strict game can be made of them (merge them with --judge)")]
    NoStrictStart,
}

/// The merged record and where its pieces come from.
#[derive(Clone, Debug)]
pub(crate) struct Merged {
    pub(crate) record: Record,
    pub(crate) score: u64,
    /// Runs of consecutive pieces taken from one record, in order.
    pub(crate) parts: Vec<Part>,
    /// Each record's own score by the merge's rules, in the order given; `None` for one those
    /// rules refuse as a whole (a strict merge takes the resting pieces of a record with
    /// mid-air locks).
    pub(crate) input_scores: Vec<Option<u64>>,
    /// Each record's first piece (1-based) that locks in mid-air, in the order given.
    pub(crate) mid_air: Vec<Option<usize>>,
}

impl Merged {
    /// The best record given that the merge's rules accept as a whole, and its score (the
    /// earlier one on equal scores).
    pub(crate) fn best_input(&self) -> Option<(usize, u64)> {
        (self.input_scores.iter().enumerate())
            .filter_map(|(i, s)| s.map(|s| (i, s)))
            .fold(None, |best, (i, s)| match best {
                Some((_, b)) if b >= s => best,
                _ => Some((i, s)),
            })
    }
}

/// A run of pieces of the merged record taken from one of the records merged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// Index of the record in the list merged.
    pub(crate) record: usize,
    /// The run's first piece (0-based).
    pub(crate) first: usize,
    /// How many pieces the run has.
    pub(crate) pieces: usize,
}

/// One record as the merge sees it.
struct Line {
    /// Per piece: the board after it (as [`Board::hash64`]) and the score after it.
    states: Vec<(u64, u64)>,
    /// Per piece: whether the rules the merge plays by accept it (a judge record's mid-air
    /// locks are not strict moves; the rest of it is).
    usable: Vec<bool>,
    /// Per piece: its tokens (from its `N` to the next piece's).
    tokens: Vec<std::ops::Range<usize>>,
    /// The first piece (0-based) that locks in mid-air.
    mid_air: Option<usize>,
}

/// `record` replayed by the web replay's rules, which accept every strict record and play it
/// the same. A strict merge uses only the pieces that lock at rest: from the same board, the
/// same moves lock such a piece in the same place by both rules, so a record with mid-air locks
/// still lends the rest of its pieces.
fn line_of(sequence: &[Kind], record: &Record, rules: Rules) -> Result<Line, String> {
    let mut states = Vec::new();
    let mut usable = Vec::new();
    let mut mid_air = None;
    let judge = rules.with_lock(LockMode::Judge);
    let report = replay_observed(sequence, record, judge, &mut |step| {
        states.push((Board::from_field(step.board).hash64(), step.score));
        usable.push(step.resting || rules.locks_in_mid_air());
        if !step.resting {
            mid_air = mid_air.or(Some(step.index));
        }
    });
    if let Some(e) = report.error {
        return Err(e.to_string());
    }
    Ok(Line {
        states,
        usable,
        tokens: record.piece_tokens(),
        mid_air,
    })
}

/// The highest-scoring record that plays each piece as one of `records` does from the same
/// board, all replayed by `rules`. A strict merge also takes records that only
/// the web replay's rules accept, and uses their pieces that lock at rest, but refuses a
/// record with a mid-air lock among its first pieces as one of another sequence. On equal scores the longer record is preferred, then the earlier one, so one
/// record merged with itself or with worse ones comes back unchanged.
pub(crate) fn merge(
    sequence: &[Kind],
    records: &[Record],
    rules: Rules,
) -> Result<Merged, MergeError> {
    if records.is_empty() {
        return Err(MergeError::Empty);
    }
    let lines = (records.iter().enumerate())
        .map(|(i, r)| {
            line_of(sequence, r, rules).map_err(|detail| MergeError::Invalid {
                number: i + 1,
                detail,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let other = lines.iter().enumerate().find_map(|(i, l)| {
        let strict = !rules.locks_in_mid_air();
        let piece = l.mid_air.filter(|&p| strict && p < FIRST_PIECES)?;
        Some(MergeError::OtherSequence {
            number: i + 1,
            piece: piece + 1,
        })
    });
    if let Some(error) = other {
        return Err(error);
    }
    let best = best_by_board(&lines);
    let end = best_end(&best).ok_or(MergeError::NoStrictStart)?;
    let from = trace_back(&best, &lines, &end);
    let mut tokens = Vec::new();
    let mut parts: Vec<Part> = Vec::new();
    for (i, &r) in from.iter().enumerate() {
        tokens.extend_from_slice(&records[r].tokens[lines[r].tokens[i].clone()]);
        match parts.last_mut() {
            Some(part) if part.record == r => part.pieces += 1,
            _ => parts.push(Part {
                record: r,
                first: i,
                pieces: 1,
            }),
        }
    }
    let input_scores = (lines.iter())
        .map(|l| {
            let whole = l.usable.iter().all(|&u| u);
            whole.then(|| l.states.last().map_or(0, |&(_, s)| s))
        })
        .collect();
    Ok(Merged {
        record: Record { tokens },
        score: end.score,
        parts,
        input_scores,
        mid_air: lines.iter().map(|l| l.mid_air.map(|p| p + 1)).collect(),
    })
}

/// Per board after a piece (as [`Board::hash64`]): the best score there and the record whose
/// piece got there.
type Reached = AHashMap<u64, (u64, usize)>;

/// The dynamic program: per piece, every board some line leaves after it that a path through
/// the lines reaches, with the best score there. Every strictly valid record's own board is in
/// it, so such a line can always go on.
fn best_by_board(lines: &[Line]) -> Vec<Reached> {
    let pieces = lines.iter().map(|l| l.states.len()).max().unwrap_or(0);
    let mut best: Vec<Reached> = Vec::with_capacity(pieces);
    let empty = Board::default().hash64();
    for i in 0..pieces {
        let mut here = Reached::new();
        for (r, line) in lines.iter().enumerate() {
            let Some(&(board, score)) = line.states.get(i) else {
                continue;
            };
            if !line.usable[i] {
                continue;
            }
            let (before, before_score) = match i.checked_sub(1) {
                None => (empty, 0),
                Some(p) => line.states[p],
            };
            // The turn's points depend only on the board before it and the placement. A line
            // that took a move the rules refuse can only go on where another line meets it.
            let reached = match i.checked_sub(1) {
                None => 0,
                Some(p) => match best[p].get(&before) {
                    Some(&(reached, _)) => reached,
                    None => continue,
                },
            };
            let total = reached + (score - before_score);
            let entry = here.entry(board).or_insert((total, r));
            if total > entry.0 {
                *entry = (total, r);
            }
        }
        best.push(here);
    }
    best
}

/// Where the merged record ends.
struct End {
    /// Its last piece.
    last: usize,
    /// The board after it.
    board: u64,
    score: u64,
    /// The record whose piece got there.
    record: usize,
}

/// The best end: the highest score after any piece (a record may stop anywhere); on equal
/// scores the later piece, so that the pieces placed after the last points are kept, then the
/// earlier record; `None` when no piece was reached.
fn best_end(best: &[Reached]) -> Option<End> {
    let mut end: Option<End> = None;
    for (i, level) in best.iter().enumerate() {
        for (&board, &(score, r)) in level {
            let better = end.as_ref().is_none_or(|e| {
                (score, i, std::cmp::Reverse(r)) > (e.score, e.last, std::cmp::Reverse(e.record))
            });
            if better {
                end = Some(End {
                    last: i,
                    board,
                    score,
                    record: r,
                });
            }
        }
    }
    end
}

/// Back from the end: each piece's record, then the board that record had before it.
fn trace_back(best: &[Reached], lines: &[Line], end: &End) -> Vec<usize> {
    let mut board = end.board;
    let mut from = vec![0usize; end.last + 1];
    for i in (0..=end.last).rev() {
        let r = best[i][&board].1;
        from[i] = r;
        if i > 0 {
            board = lines[r].states[i - 1].0;
        }
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contest::replay::replay;

    /// Ten O pieces. A clears its two bottom rows at piece 5 and again at piece 10 (60 points
    /// each); B waits one piece longer for its first clear (72 points) and then stacks without
    /// clearing. After piece 6 both hold one O in the corner.
    const A: &str = "N,L4,D19,N,L2,D19,N,D19,N,R2,D19,N,R4,D19,\
                     N,L4,D19,N,L2,D19,N,D19,N,R2,D19,N,R4,D19";
    const B: &str = "N,L4,D19,N,L2,D19,N,D19,N,R2,D19,N,L4,D17,N,R4,D19,\
                     N,L2,D19,N,L2,D17,N,D19,N,D17";

    fn parse(text: &str) -> Record {
        Record::parse(text).unwrap()
    }

    fn parts(runs: &[(usize, usize, usize)]) -> Vec<Part> {
        let part = |&(record, first, pieces)| Part {
            record,
            first,
            pieces,
        };
        runs.iter().map(part).collect()
    }

    #[test]
    fn the_start_of_one_record_goes_on_with_the_end_of_another_where_their_boards_meet() {
        let sequence = vec![Kind::O; 10];
        let options = Rules::default();
        let (a, b) = (parse(A), parse(B));
        assert_eq!(replay(&sequence, &a, options).score, 120);
        assert_eq!(replay(&sequence, &b, options).score, 72);
        for records in [[a.clone(), b.clone()], [b.clone(), a.clone()]] {
            let merged = merge(&sequence, &records, options).unwrap();
            assert_eq!(merged.score, 132);
            assert_eq!(replay(&sequence, &merged.record, options).score, 132);
            let b_first = "N,L4,D19,N,L2,D19,N,D19,N,R2,D19,N,L4,D17,N,R4,D19";
            let expected = format!("{b_first},N,L2,D19,N,D19,N,R2,D19,N,R4,D19");
            assert_eq!(merged.record.to_string(), expected);
        }
        // The first four pieces are the same in both: the earlier record is named for them.
        let merged = merge(&sequence, &[a, b], options).unwrap();
        assert_eq!(merged.parts, parts(&[(0, 0, 4), (1, 4, 2), (0, 6, 4)]));
    }

    #[test]
    fn a_record_merged_with_itself_or_a_worse_one_comes_back_unchanged() {
        let sequence = vec![Kind::O; 10];
        let options = Rules::default();
        let a = parse(A);
        let short = parse("N,L4,D19,N,L2,D19");
        let merged = merge(&sequence, &[a.clone(), a.clone(), short], options).unwrap();
        assert_eq!(merged.record, a);
        assert_eq!(merged.score, 120);
        assert_eq!(merged.parts, parts(&[(0, 0, 10)]));
    }

    /// The pieces after a record's last points are pieces placed too: a record merged alone
    /// comes back whole, not cut after its last clear.
    #[test]
    fn a_record_merged_alone_keeps_its_pieces_after_its_last_points() {
        let sequence = vec![Kind::O; 10];
        let options = Rules::default();
        let first_five = "N,L4,D19,N,L2,D19,N,D19,N,R2,D19,N,R4,D19";
        let record = parse(&format!("{first_five},N,L4,D19,N,L2,D19"));
        assert_eq!(replay(&sequence, &record, options).score, 60);
        let merged = merge(&sequence, std::slice::from_ref(&record), options).unwrap();
        assert_eq!(merged.record, record);
        assert_eq!(merged.parts, parts(&[(0, 0, 7)]));
    }

    #[test]
    fn a_strict_merge_uses_the_pieces_of_a_judge_record_that_lock_at_rest() {
        let sequence = vec![Kind::O; 10];
        let strict = Rules::default();
        // B's first six pieces (72 points, the board A has after piece 6), then an O hung in
        // mid-air, which only the web replay's rules accept.
        let b_first = "N,L4,D19,N,L2,D19,N,D19,N,R2,D19,N,L4,D17,N,R4,D19";
        let hanging = parse(&format!("{b_first},N,D5"));
        assert!(replay(&sequence, &hanging, strict).error.is_some());
        let merged = merge(&sequence, &[parse(A), hanging.clone()], strict).unwrap();
        assert_eq!(merged.score, 132);
        assert_eq!(merged.parts, parts(&[(0, 0, 4), (1, 4, 2), (0, 6, 4)]));
        let replayed = replay(&sequence, &merged.record, strict);
        assert!(replayed.error.is_none(), "{:?}", replayed.error);
        assert_eq!(replayed.score, 132);
        // Alone, it gives its pieces up to the hanging one.
        let alone = merge(&sequence, &[hanging], strict).unwrap();
        assert_eq!(
            (alone.score, alone.record.to_string()),
            (72, b_first.to_string())
        );
    }

    #[test]
    fn a_record_that_does_not_replay_is_refused_by_its_number() {
        let sequence = vec![Kind::O; 10];
        let strict = Rules::default();
        let judge = Rules::judge();
        // A piece with no moves is refused by both rules.
        let no_moves = parse("N,L4,D19,N,N,D19");
        for options in [strict, judge] {
            let error = merge(&sequence, &[parse(A), no_moves.clone()], options).unwrap_err();
            assert!(
                matches!(&error, MergeError::Invalid { number: 2, detail } if detail.contains("no moves")),
                "{error}"
            );
        }
        // A mid-air lock among the first pieces, which strict rules refuse, is a record made
        // for other pieces; the web replay's rules take it (one that clears nothing is still
        // a lock), and the merge says where it is.
        let mid_air = parse("N,L4,D5");
        assert_eq!(
            merge(&sequence, &[parse(A), mid_air.clone()], strict).unwrap_err(),
            MergeError::OtherSequence {
                number: 2,
                piece: 1
            }
        );
        let merged = merge(&sequence, std::slice::from_ref(&mid_air), judge).unwrap();
        assert_eq!((merged.score, merged.mid_air), (0, vec![Some(1)]));
        assert_eq!(
            merge(&sequence, &[], strict).unwrap_err(),
            MergeError::Empty
        );
    }
}
