//! The search end to end (`search`, `solve`), held to the plain rules engine: every record it
//! builds replays to the score it claims, whatever the thread count, width schedule or start.

use tetris_opt::games::contest::bitboard::{self, Board, ContestBoard};
use tetris_opt::games::contest::contest_sequence;
use tetris_opt::games::contest::movegen::Placement;
use tetris_opt::games::contest::movegen::{self};
use tetris_opt::games::contest::replay::{replay, End};
use tetris_opt::games::contest::rules::Rules;
use tetris_opt::games::contest::rules::{self, Field, Kind};
use tetris_opt::games::contest::search::{
    beam_search, input_bytes, Params, RankingParams, UnderWay,
};
use tetris_opt::games::contest::solve::{record_for, record_from, start_from};
use tetris_opt::kit::fluid::{best_play_bytes, FillPlan, FillValues};
use tetris_opt::kit::sequence::{generate, Distribution};
use tetris_opt::search::width::{SpeedModel, TimeBudget};
use tetris_opt::search::{Line, Options, Width};

// ---------------------------------------------------------------------------------------------
// 5. End to end
// ---------------------------------------------------------------------------------------------

/// A search's parameters and its width, which these tests vary together.
#[derive(Clone)]
struct Beam {
    params: Params,
    width: Width,
}

fn params(beam_width: usize, piece_limit: usize) -> Beam {
    let params = Params {
        ranking: RankingParams {
            score_weight: 1.0 / 38.0,
            weights: Default::default(),
            policy: Default::default(),
        },
        rules: Rules::default().with_piece_limit(piece_limit),
        start: Default::default(),
        objective: Default::default(),
    };
    Beam {
        params,
        width: Width::fixed(beam_width),
    }
}

/// `beam`'s width with a start in place of the empty board.
fn starting(start: UnderWay, beam: Beam) -> Beam {
    Beam {
        params: Params {
            start,
            ..beam.params
        },
        ..beam
    }
}

/// The search with `beam`'s width and nothing else told.
fn search(sequence: &[Kind], beam: &Beam) -> Line<Placement> {
    beam_search(sequence, &beam.params, Options::new(&beam.width))
}

/// Solves, builds the record, replays it strictly on the plain engine and checks the score;
/// also replays the placements on both engines directly.
fn solve_and_check(sequence: &[Kind], beam: &Beam, what: &str) -> Line<Placement> {
    let solution = search(sequence, beam);
    let params = &beam.params;
    assert!(!solution.placements.is_empty(), "{what}: nothing placed");

    // The placements, locked one by one on both engines, score what the search claims.
    let mut fast = Board::default();
    let mut plain = Field::new();
    let mut fast_score = 0u64;
    let mut plain_score = 0u64;
    for (index, (&kind, &p)) in sequence.iter().zip(&solution.placements).enumerate() {
        let piece = bitboard::piece_at(kind, p.state, p.x as usize, p.y as u32);
        assert!(plain.is_valid(&piece) && rules::is_resting(&plain, &piece));
        let o = bitboard::lock(
            &mut fast,
            kind,
            p.state,
            p.x as usize,
            p.y as u32,
            index,
            params.rules,
        );
        let t = rules::lock(&mut plain, &piece, index, params.rules);
        assert_eq!(o.game_over, None, "{what}: piece {index}");
        assert_eq!(t.game_over, None, "{what}: piece {index}");
        fast_score += o.score as u64;
        plain_score += t.score;
        assert_eq!(fast.to_field(), plain, "{what}: piece {index}");
    }
    assert_eq!(fast_score, solution.score, "{what}");
    assert_eq!(plain_score, solution.score, "{what}");

    let record = record_for(sequence, &solution.placements, params.rules)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(record.piece_count(), solution.placements.len(), "{what}");
    let report = replay(sequence, &record, params.rules);
    assert!(report.valid(), "{what}: {:?}", report.error);
    assert_eq!(report.end, End::RecordEnded, "{what}");
    assert_eq!(report.pieces_locked, solution.placements.len(), "{what}");
    assert_eq!(report.score, solution.score, "{what}");
    solution
}

/// A search from a record's piece: from piece 0 it is the search itself; from the end of the
/// record's sequence it has nothing to place and keeps the record's score; from a piece between, its
/// placements follow the kept pieces into a record the rules score as the search claims.
/// The piece limit is near, and the beam wide enough for several parallel tasks, so that a
/// piece number taken from anything but the start and the depth would show.
#[test]
fn a_search_started_inside_a_record_plays_on_from_there() {
    let sequence = contest_sequence(12358, 200);
    let limit = 160;
    let plain = params(16, limit);
    let whole = search(&sequence, &plain);
    let end = whole.placements.len();
    assert!(end > 100, "{end}");
    let record = record_for(
        &sequence,
        &whole.placements,
        Rules::default().with_piece_limit(limit),
    )
    .unwrap();
    let options = Rules::default().with_piece_limit(limit);
    for (pieces, width) in [(0, 16), (end, 16), (77, 200)] {
        // The sequence as long as the record when starting at its end.
        let sequence = &sequence[..if pieces == end { end } else { 200 }];
        let (start, kept) = start_from(sequence, &record, pieces, options).unwrap();
        assert_eq!(start.index, pieces);
        assert_eq!(kept.piece_count(), pieces);
        let more = search(sequence, &starting(start.clone(), params(width, limit)));
        // The line ends at its last scoring piece (a shorter record of the same score).
        assert!(more.placements.len() < limit - pieces, "from {pieces}");
        assert_eq!(more.placements.is_empty(), pieces == end, "from {pieces}");
        if pieces == 0 {
            assert_eq!(more.placements, whole.placements);
        }
        if pieces == end {
            assert_eq!(more.score, whole.score);
        }
        let rest = record_from(
            sequence,
            &start,
            &more.placements,
            Rules::default().with_piece_limit(limit),
        )
        .unwrap_or_else(|e| panic!("from {pieces}: {e}"));
        let joined = tetris_opt::games::contest::record::Record {
            tokens: [kept.tokens, rest.tokens].concat(),
        };
        let report = replay(sequence, &joined, options);
        assert!(report.valid(), "from {pieces}: {:?}", report.error);
        assert_eq!(
            report.pieces_locked,
            pieces + more.placements.len(),
            "from {pieces}"
        );
        assert_eq!(report.score, more.score, "from {pieces}");
        assert!(more.score > start.score || pieces == end, "from {pieces}");
    }
}

/// The pieces a started search places spawn in the state of their number in the game: with
/// the spawn column filled from row 1 down, an I can spawn only lying (odd numbers), so a
/// search from piece 1 plays on and one from piece 2 ends at once with the start's score.
#[test]
fn a_started_search_spawns_by_the_piece_number_in_the_game() {
    let column = "....#.....\n".repeat(19);
    let board = Board::from_field(&Field::from_picture(&column));
    let sequence = vec![Kind::I; 12];
    let from = |index| {
        let start = UnderWay {
            index,
            board,
            score: 7,
        };
        starting(start, params(4, rules::DEFAULT_PIECE_LIMIT))
    };
    let lying = search(&sequence, &from(1));
    assert!(!lying.placements.is_empty());
    let rest = record_from(
        &sequence,
        &from(1).params.start,
        &lying.placements,
        Rules::default(),
    )
    .unwrap();
    assert!(rest.piece_count() > 0);
    let upright = search(&sequence, &from(2));
    assert!(upright.placements.is_empty());
    assert_eq!(upright.score, 7);
}

#[test]
fn solve_contest_prefix_and_replay_strictly() {
    let sequence = contest_sequence(12358, 300);
    let s = solve_and_check(&sequence, &params(8, rules::DEFAULT_PIECE_LIMIT), "contest");
    assert!(s.score > 0, "no points in 300 pieces");
    eprintln!(
        "contest 300: {} pieces, score {}",
        s.placements.len(),
        s.score
    );
}

#[test]
fn solve_uniform_sequence_and_replay_strictly() {
    let sequence = generate(Distribution::Uniform, 7, 300);
    let s = solve_and_check(&sequence, &params(8, rules::DEFAULT_PIECE_LIMIT), "uniform");
    eprintln!(
        "uniform 300: {} pieces, score {}",
        s.placements.len(),
        s.score
    );
    // A piece limit inside the sequence: the piece at the limit is never placed.
    let s = solve_and_check(&sequence, &params(8, 150), "uniform, limit 150");
    assert!(s.placements.len() <= 149);
}

#[test]
fn beam_search_is_the_same_on_one_and_two_threads() {
    let contest = contest_sequence(12358, 300);
    let uniform = generate(Distribution::Uniform, 11, 120);
    // Width 8 fits one parallel chunk; width 80 spreads over three, so the split is exercised.
    for (sequence, width) in [(&contest, 8), (&uniform, 80)] {
        let p = params(width, rules::DEFAULT_PIECE_LIMIT);
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| search(sequence, &p))
        };
        let one = run(1);
        let two = run(2);
        assert_eq!(one.placements, two.placements, "width {width}");
        assert_eq!(one.score, two.score, "width {width}");
    }
}

/// A fill plan (the fluid model's term, `kit::fluid`) enters the key: with a heavy weight the
/// beam plays another game than without; the game replays strictly with the claimed score and
/// is the same on one and two threads.
#[test]
fn a_fill_plan_changes_the_ranking_and_stays_deterministic() {
    let sequence = contest_sequence(12358, 300);
    let mut planned = params(40, rules::DEFAULT_PIECE_LIMIT);
    planned.params.ranking.policy.fill_plan = Some(FillPlan {
        cap: 175,
        weight: 3.0,
        discount: 0.98,
    });
    let with = solve_and_check(&sequence, &planned, "with a fill plan");
    let without = search(&sequence, &params(40, rules::DEFAULT_PIECE_LIMIT));
    assert_ne!(with.placements, without.placements);
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| search(&sequence, &planned));
    assert_eq!(two.placements, with.placements);
}

/// A sequence that runs on past the piece limit is the same game as its pieces up to the
/// limit: the pieces past it never show, so neither the default policy's fill plan (a table
/// over the pieces, whose mean slope and cap a tail of pieces that never score would change)
/// nor the weights that look ahead for an I see them, from the first piece or from a start
/// inside a record. What the search holds for its input grows with the file by the sequence
/// alone.
#[test]
fn pieces_past_the_limit_leave_the_answer_as_it_is() {
    let limit = 301;
    let long = contest_sequence(1, 4_000);
    let short = &long[..limit];
    let plain = params(24, limit);
    let answer = search(short, &plain);
    let answer_long = search(&long, &plain);
    assert!(answer.placements.len() > 250, "{}", answer.placements.len());
    assert!(
        answer_long.placements == answer.placements,
        "the long sequence's answer differs"
    );
    assert_eq!(answer_long.score, answer.score);

    let rules = Rules::default().with_piece_limit(limit);
    let record = record_for(short, &answer.placements, rules).unwrap();
    let (start, _) = start_from(short, &record, 120, rules).unwrap();
    let started = starting(start, params(40, limit));
    let more = search(short, &started);
    let more_long = search(&long, &started);
    assert!(
        more_long.placements == more.placements,
        "from piece 120: the answers differ"
    );
    assert_eq!(more_long.score, more.score);

    let held = |len| input_bytes(len, &plain.params) as usize;
    assert_eq!(
        held(long.len()) - held(short.len()),
        2 * (long.len() - short.len())
    );
    let cap = plain.params.ranking.policy.fill_plan.as_ref().unwrap().cap;
    // The fill plan's table and the summary's bound play cover the pieces searched only.
    let tables = |pieces| FillValues::bytes(pieces, cap) + best_play_bytes(pieces);
    assert_eq!(held(short.len()), tables(limit) + 2 * limit);
    let no_limit = params(24, 0);
    assert_eq!(
        input_bytes(long.len(), &no_limit.params) as usize,
        tables(long.len()) + 2 * long.len()
    );
}

/// A schedule changes the width from the depths it names (changes past the sequence's end are
/// not reported as made), and the changes a budgeted search reports, given back without the
/// budget, make the same record: a budgeted run can be replayed exactly.
#[test]
fn width_changes_are_followed_and_replay_a_budgeted_search() {
    let sequence = contest_sequence(12358, 400);
    let fixed = search(&sequence, &params(60, 10_000));
    let mut narrowed = params(60, 10_000);
    narrowed.width.width_changes = "100:5,1000:7".parse().unwrap();
    let narrowed = search(&sequence, &narrowed);
    assert_eq!(narrowed.width_changes.0, vec![(100, 5)]);
    assert!(narrowed.stats.expanded < fixed.stats.expanded);
    assert!(fixed.width_changes.0.is_empty());

    // The budget's choices are tested on a model of the machine's speed, not on the clock. A
    // fast machine (1 us per state) has far more than 2 s for 400 pieces at width 400, so the
    // budget widens the beam at its first re-choice (after the 50-piece probe) to the cap and
    // keeps it; a slow one (1 ms per state) narrows a beam of 300 before the probe's end,
    // since at 0.3 s a depth the probe runs late long before its 50 depths. Either schedule
    // replays its record from the same first width.
    let budgeted = |first: usize, seconds_per_state: f64, seconds: f64| {
        let mut beam = params(first, 10_000);
        beam.width.time_budget = Some(TimeBudget {
            seconds,
            max_width: 400,
        });
        let clock = SpeedModel { seconds_per_state };
        beam_search(
            &sequence,
            &beam.params,
            Options::new(&beam.width).clock(&clock),
        )
    };
    let fast = budgeted(60, 1e-6, 2.0);
    assert_eq!(fast.width_changes.0, vec![(50, 400)]);
    let slow = budgeted(300, 1e-3, 60.0);
    let (depth, width) = slow.width_changes.0[0];
    assert!(depth < 50, "{:?}", slow.width_changes);
    assert!((100..300).contains(&width), "{:?}", slow.width_changes);
    assert!(
        slow.stats.expanded as f64 * 1e-3 <= 60.0,
        "{}",
        slow.stats.expanded
    );
    for (first, budgeted) in [(60, fast), (300, slow)] {
        let mut replayed = params(first, 10_000);
        replayed.width.width_changes = budgeted.width_changes.clone();
        let replayed = search(&sequence, &replayed);
        assert_eq!(replayed.placements, budgeted.placements);
        assert_eq!(replayed.score, budgeted.score);
        assert_eq!(replayed.width_changes, budgeted.width_changes);
    }
}

/// A judge-mode solve gives a record that `check --judge` scores as claimed and strict rejects
/// whenever it used a mid-air lock.
#[test]
fn judge_solve_passes_judge_replay() {
    let sequence = contest_sequence(12358, 400);
    let mut beam = params(40, 10_000);
    beam.params.rules = Rules::judge();
    let solution = search(&sequence, &beam);
    let record = record_for(&sequence, &solution.placements, Rules::judge()).expect("record");
    let judged = replay(&sequence, &record, Rules::judge().with_piece_limit(10_000));
    assert!(judged.valid(), "{:?}", judged.error);
    assert_eq!(judged.score, solution.score);
    let strict = replay(&sequence, &record, Rules::default());
    let mut board = Board::default();
    let mut mid_air = false;
    for (i, (&kind, &p)) in sequence.iter().zip(&solution.placements).enumerate() {
        let rest = movegen::path_to(&board, kind, i, p, Rules::default()).is_ok();
        mid_air |= !rest;
        bitboard::lock(
            &mut board,
            kind,
            p.state,
            p.x as usize,
            p.y as u32,
            i,
            Rules::default(),
        );
    }
    assert_eq!(strict.valid(), !mid_air);
}

/// The shipped survival weights load and are what a search for survival ranks by, with no
/// score weight and no endgame; the ranking for points is the shipped default one.
#[test]
fn the_survival_ranking_is_the_shipped_survival_weights() {
    use tetris_opt::kit::policy::{Policy, DEFAULT_SCORE_WEIGHT};
    use tetris_opt::search::Objective;
    let file = include_str!("../../../weights/contest-survive.json");
    let shipped = tetris_opt::kit::eval::Weights::from_json(file).unwrap();
    let survive = RankingParams::default_for(Objective::Survive);
    assert_eq!(survive.weights, shipped);
    assert_eq!(survive.score_weight, 0.0);
    assert_eq!(survive.policy.endgame_score_weight, None);
    let score = RankingParams::default_for(Objective::Score);
    assert_eq!(score.weights, Default::default());
    assert_eq!(score.score_weight, DEFAULT_SCORE_WEIGHT);
    assert_eq!(score.policy, Policy::default());
}
