//! Improving a stretch of a finished record.
//!
//! A beam starts from the record's own state at a piece and keeps the record's line in it
//! whatever its rank (a [`Guide`]); every line of the beam that meets one of the
//! record's boards with more points carries the gain on along the record's line. The answer
//! ends on the record's board after the stretch, so the rest of the record plays on unchanged
//! and the whole scores the old score plus the gain. A stretch that ends the record may end
//! on any board: there the beam's best line wins if it scores more. Other evaluation weights or
//! a wider beam than the record was made with find lines its own search passed by; the
//! openings, where the whole-game search was narrowest, gain most.

use crate::games::contest::bitboard::{Board, ContestBoard};
use crate::games::contest::record::Record;
use crate::games::contest::replay::replay_observed;
use crate::games::contest::rules::Kind;
use crate::games::contest::search::{beam_search, Params, UnderWay};
use crate::games::contest::solve::{record_from, verify, SolveError};
use crate::search::width::Schedule;
use crate::search::{DepthStats, Guide, Options, Width};
use thiserror::Error;

/// Why a stretch of a record could not be polished.
#[derive(Debug, Error)]
pub(crate) enum PolishError {
    #[error("the record does not replay: {0}")]
    Invalid(String),
    #[error("--to {to} is not above --from {from}: the range is {}; the pieces searched are FROM+1..=TO", if to < from { "reversed" } else { "empty" })]
    Reversed { from: usize, to: usize },
    #[error(
        "the stretch from piece {from} to piece {to} is not inside the record's {}",
        crate::kit::text::plural(*pieces, "piece")
    )]
    Stretch {
        from: usize,
        to: usize,
        pieces: usize,
    },
    #[error("the search lost the record's line at once (does the policy drop its clears?)")]
    Lost,
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// Refuses a range that is empty whatever the record: `--to` at or below `--from`.
pub(crate) fn check_range(from: usize, to: Option<usize>) -> Result<(), PolishError> {
    match to {
        Some(to) if to <= from => Err(PolishError::Reversed { from, to }),
        _ => Ok(()),
    }
}

/// A polished record.
#[derive(Clone, Debug)]
pub(crate) struct Polished {
    pub(crate) record: Record,
    pub(crate) score: u64,
    /// Points over the record it came from.
    pub(crate) gain: u64,
    /// The last piece (0-based) of the replaced stretch; the record's own from the next on.
    pub(crate) last: usize,
    /// The search's figures, `late` where a time budget found even width 1 too slow.
    pub(crate) stats: DepthStats,
    /// The width changes the search made (a time budget's), which replay it without a clock.
    pub(crate) width_changes: Schedule,
}

/// Searches pieces `from..to` (0-based, `to` exclusive; `None`: to the record's end) of
/// `record` again with `params` (its `start` is ignored) at `width`, and returns the record with that stretch replaced by the search's line,
/// checked by the rules engine (by `params.rules`) to score the old score plus
/// the gain. The policy's endgame is used only when the stretch ends the record.
pub(crate) fn polish(
    sequence: &[Kind],
    record: &Record,
    params: &Params,
    width: &Width,
    (from, to): (usize, Option<usize>),
    progress: &mut dyn FnMut(&DepthStats),
) -> Result<Polished, PolishError> {
    // Per piece: the board and the score after it, and where its tokens begin.
    let mut states: Vec<(Board, u64)> = Vec::new();
    let report = replay_observed(sequence, record, params.rules, &mut |step| {
        states.push((Board::from_field(step.board), step.score));
    });
    if let Some(e) = report.error {
        return Err(PolishError::Invalid(e.to_string()));
    }
    let pieces = states.len();
    check_range(from, to)?;
    let to = to.unwrap_or(pieces);
    if from >= to || to > pieces {
        return Err(PolishError::Stretch { from, to, pieces });
    }
    let pieces_at = record.piece_tokens();
    let mut params = params.clone();
    params.start = match from.checked_sub(1) {
        None => UnderWay::default(),
        Some(i) => UnderWay {
            index: from,
            board: states[i].0,
            score: states[i].1,
        },
    };
    if to < pieces {
        // The endgame is for the last pieces of a game; this stretch ends on a board of it.
        params.ranking.policy.endgame_score_weight = None;
    }
    let guide = Guide {
        boards: states[from..to].iter().map(|(b, _)| b.hash64()).collect(),
        free_end: to == pieces,
    };
    let options = Options::new(width).guide(&guide).progress(progress);
    let solution = beam_search(&sequence[..to], &params, options);
    if solution.placements.is_empty() {
        return Err(PolishError::Lost);
    }
    let last = from + solution.placements.len() - 1;
    // Never below the record's own: the beam keeps the highest score per board. (A board
    // fingerprint collision is left to the rules engine's check below.)
    let gain = solution.score.saturating_sub(states[last].1);
    let middle = record_from(sequence, &params.start, &solution.placements, params.rules)?;
    let rest = pieces_at
        .get(last + 1)
        .map_or(&[][..], |r| &record.tokens[r.start..]);
    let polished = Record {
        tokens: [
            &record.tokens[..pieces_at[from].start],
            &middle.tokens[..],
            rest,
        ]
        .concat(),
    };
    let score = report.score + gain;
    verify(sequence, &polished, score, params.rules)?;
    Ok(Polished {
        record: polished,
        score,
        gain,
        last,
        stats: solution.stats,
        width_changes: solution.width_changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contest::contest_sequence;
    use crate::games::contest::record::Token;
    use crate::games::contest::replay::replay;
    use crate::games::contest::rules::Rules;
    use crate::games::contest::search::RankingParams;
    use crate::games::contest::solve::record_for;
    use crate::kit::policy::{Policy, DEFAULT_SCORE_WEIGHT};

    fn params() -> Params {
        Params {
            ranking: RankingParams {
                score_weight: DEFAULT_SCORE_WEIGHT,
                weights: Default::default(),
                // The games below were worked out for the key without the fill plan (with it,
                // the free end of the ten O pieces finds 168 rather than 120).
                policy: Policy {
                    fill_plan: None,
                    ..Policy::default()
                },
            },
            rules: Rules::default(),
            start: UnderWay::default(),
            objective: Default::default(),
        }
    }

    /// A record made by a narrow beam, to be polished by a wider one.
    fn narrow_record(sequence: &[Kind]) -> Record {
        let p = params();
        let solution = beam_search(sequence, &p, Options::new(&Width::fixed(30)));
        record_for(sequence, &solution.placements, p.rules).unwrap()
    }

    /// The tokens of pieces `range` (0-based) of `record`.
    fn pieces_of(record: &Record, range: std::ops::Range<usize>) -> Vec<Token> {
        let text = record.to_string();
        let pieces: Vec<&str> = text.split(",N").collect();
        let part = pieces[range].join(",N");
        Record::parse(&part).unwrap().tokens
    }

    /// Ten O pieces that clear two rows at pieces 5 and 10 (60 points each, see the merge
    /// tests): one more O on the board before the first clear is worth 72, and after it the
    /// board (one O in the corner) is the same as this line's.
    const TEN_O: &str = "N,L4,D19,N,L2,D19,N,D19,N,R2,D19,N,R4,D19,\
                         N,L4,D19,N,L2,D19,N,D19,N,R2,D19,N,R4,D19";

    #[test]
    fn a_polished_stretch_gains_and_the_record_around_it_is_unchanged() {
        let sequence = vec![Kind::O; 30];
        let options = Rules::default();
        // Three times the same ten pieces, each time from the empty board.
        let record = Record::parse(&[TEN_O; 3].join(",")).unwrap();
        let before = replay(&sequence, &record, options);
        assert_eq!(before.score, 360);
        let mut quiet = |_: &DepthStats| {};
        let stretch = (10, Some(20));
        let polished = polish(
            &sequence,
            &record,
            &params(),
            &Width::fixed(200),
            stretch,
            &mut quiet,
        )
        .unwrap();
        let after = replay(&sequence, &polished.record, options);
        assert!(after.error.is_none(), "{:?}", after.error);
        assert_eq!(after.score, polished.score);
        assert_eq!(polished.score, before.score + polished.gain);
        assert!(polished.gain >= 12, "{}", polished.gain);
        assert!((10..20).contains(&polished.last));
        assert_eq!(polished.record.piece_count(), 30);
        assert_eq!(
            pieces_of(&polished.record, 0..10),
            pieces_of(&record, 0..10)
        );
        let rest = polished.last + 1..30;
        assert_eq!(
            pieces_of(&polished.record, rest.clone()),
            pieces_of(&record, rest)
        );
    }

    #[test]
    fn polishing_to_the_end_keeps_every_piece_and_never_loses_points() {
        let sequence = contest_sequence(11, 100);
        let options = Rules::default();
        let record = narrow_record(&sequence);
        let before = replay(&sequence, &record, options).score;
        // Width 1 cannot beat the record everywhere; the record's own line is kept regardless.
        for width in [1, 50] {
            let polished = polish(
                &sequence,
                &record,
                &params(),
                &Width::fixed(width),
                (0, None),
                &mut |_| {},
            )
            .unwrap();
            assert!(polished.score >= before, "width {width}");
            assert_eq!(polished.last, record.piece_count() - 1);
            assert_eq!(
                replay(&sequence, &polished.record, options).score,
                polished.score
            );
        }
    }

    #[test]
    fn a_stretch_that_ends_the_record_may_end_on_another_board() {
        let sequence = vec![Kind::O; 10];
        let options = Rules::default();
        // Nine pieces of TEN_O, then an O on top of the sixth instead of the second clear.
        let nine = TEN_O.rsplit_once(",N,").unwrap().0;
        let record = Record::parse(&format!("{nine},N,L4,D17")).unwrap();
        assert_eq!(replay(&sequence, &record, options).score, 60);
        let mut boards = Vec::new();
        replay_observed(&sequence, &record, options, &mut |step| {
            boards.push(Board::from_field(step.board).hash64())
        });
        let (wide, width) = (params(), Width::fixed(5000));
        let mut guide = Guide {
            boards,
            free_end: false,
        };
        let guided =
            |guide: &Guide| beam_search(&sequence, &wide, Options::new(&width).guide(guide));
        let kept = guided(&guide);
        guide.free_end = true;
        let free = guided(&guide);
        // Ending on the record's last board is worth 108 at most in this beam; ending anywhere,
        // 120.
        assert_eq!((kept.score, free.score), (108, 120));
        let polished = polish(&sequence, &record, &wide, &width, (0, None), &mut |_| {}).unwrap();
        assert_eq!((polished.score, polished.gain, polished.last), (120, 60, 9));
        assert_eq!(replay(&sequence, &polished.record, options).score, 120);
    }

    #[test]
    fn stretches_outside_the_record_and_records_that_do_not_replay_are_refused() {
        let sequence = contest_sequence(7, 60);
        let record = narrow_record(&sequence);
        let pieces = record.piece_count();
        let mut quiet = |_: &DepthStats| {};
        for stretch in [
            (10, Some(10)),
            (20, Some(10)),
            (0, Some(pieces + 1)),
            (pieces, None),
        ] {
            let error = polish(
                &sequence,
                &record,
                &params(),
                &Width::fixed(5),
                stretch,
                &mut quiet,
            )
            .unwrap_err();
            assert!(
                matches!(
                    error,
                    PolishError::Stretch { .. } | PolishError::Reversed { .. }
                ),
                "{stretch:?}: {error}"
            );
        }
        let mid_air = Record::parse("N,D5").unwrap();
        let error = polish(
            &sequence,
            &mid_air,
            &params(),
            &Width::fixed(5),
            (0, None),
            &mut quiet,
        )
        .unwrap_err();
        assert!(
            matches!(&error, PolishError::Invalid(d) if d.contains("mid-air")),
            "{error}"
        );
    }
}
