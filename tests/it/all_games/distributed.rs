//! The distributed search (`search::distributed`) run as several processes in one (a thread
//! each, `search::comm::run_local`), for every game: the same line whatever the number of
//! processes, the same line as the one-process search (one order: `search::Order`), and a
//! line the plain engine scores as claimed. The same search under `mpirun` is held to these in
//! `tests/it/all_games/mpi_cli.rs`.

use tetris_opt::games::contest::contest_sequence;
use tetris_opt::games::contest::movegen::Placement;
use tetris_opt::games::contest::rules::{Kind, Rules};
use tetris_opt::games::contest::search::{beam_search, Params, RankingParams};
use tetris_opt::games::contest::solve::record_for;
use tetris_opt::search::comm::run_local;
use tetris_opt::search::{Comm, Objective, Options, Processes, Width};

fn params(objective: Objective) -> Params {
    Params {
        ranking: RankingParams {
            score_weight: 1.0 / 38.0,
            weights: Default::default(),
            policy: Default::default(),
        },
        rules: Rules::default(),
        start: Default::default(),
        objective,
    }
}

/// Runs `work` in one process (`Processes::One`) and as 1, 2, 3 and 4 processes of the
/// distributed search; the one answer all of them give (process 0's).
fn one_answer_for_any_processes<R: PartialEq + std::fmt::Debug + Send>(
    work: impl Fn(Processes) -> R + Sync,
) -> R {
    let one = work(Processes::One);
    for processes in 1..=4 {
        let answers = run_local(processes, |comm: &dyn Comm| work(Processes::Many(comm)));
        let first = answers.into_iter().next().expect("process 0");
        assert_eq!(
            first, one,
            "{processes} processes against the one-process search"
        );
    }
    one
}

/// The line of the one-process search, then of each process count from 1 to 4: (decided then
/// answered placements, score) of process 0. Every process answers with one score, and only
/// process 0 with placements.
fn lines(sequence: &[Kind], params: &Params, width: &Width) -> Vec<(Vec<Placement>, u64)> {
    let mut placements = Vec::new();
    let mut decided = |p: &[Placement]| placements.extend_from_slice(p);
    let options = Options::new(width).decided(&mut decided);
    let solution = beam_search(sequence, params, options);
    placements.extend(solution.placements);
    let one = (placements, solution.score);
    let many = (1..=4).map(|processes| {
        let answers = run_local(processes, |comm| {
            let mut placements = Vec::new();
            let mut decided = |p: &[Placement]| placements.extend_from_slice(p);
            let options = Options::new(width).processes(Processes::Many(comm));
            let solution = beam_search(sequence, params, options.decided(&mut decided));
            let traffic = solution
                .traffic
                .expect("a distributed search reports its traffic");
            assert_eq!(traffic.processes, processes);
            placements.extend(solution.placements);
            (placements, solution.score)
        });
        let score = answers[0].1;
        assert!(
            answers.iter().all(|a| a.1 == score),
            "every process ends on one score"
        );
        assert!(
            answers[1..].iter().all(|a| a.0.is_empty()),
            "only process 0 has the line"
        );
        answers.into_iter().next().expect("process 0")
    });
    std::iter::once(one).chain(many).collect()
}

#[test]
fn every_process_count_gives_one_line_that_replays_to_its_score() {
    for (seed, width, pieces) in [(1, 1, 200), (2, 7, 300), (3, 64, 300), (4, 300, 200)] {
        let sequence = contest_sequence(seed, pieces);
        let params = params(Objective::Score);
        let one = lines(&sequence, &params, &Width::fixed(width));
        let (line, score) = &one[0];
        // Widths 1 and 7 top out on these sequences, so the lines that end early are held to
        // one answer too; the wider beams place every piece.
        if width <= 7 {
            assert!(
                line.len() < pieces,
                "seed {seed}: width {width} placed every piece"
            );
        } else {
            assert_eq!(line.len(), pieces, "seed {seed}: pieces placed");
        }
        for (processes, other) in one.iter().enumerate().skip(1) {
            assert_eq!(
                other, &one[0],
                "seed {seed}, width {width}: {processes} processes against one"
            );
        }
        let record = record_for(&sequence, line, params.rules).expect("a record");
        let report = tetris_opt::games::contest::replay::replay(&sequence, &record, params.rules);
        assert_eq!(
            report.score, *score,
            "seed {seed}: the plain engine's score"
        );
    }
}

/// The olympiad's game through the same search: one line for 1 to 4 processes, which its plain
/// engine replays to the pieces it claims.
#[test]
fn the_olympiads_game_gives_one_line_for_any_process_count() {
    use tetris_opt::games::olympiad::replay::Replay;
    use tetris_opt::games::olympiad::search::{beam_search, default_weights, Params};
    let sequence = tetris_opt::games::olympiad::sequence(9, 400);
    let params = Params {
        weights: default_weights(),
        objective: Objective::Survive,
    };
    let (line, pieces) = one_answer_for_any_processes(|processes| {
        let mut placements = Vec::new();
        let mut decided = |p: &[_]| placements.extend_from_slice(p);
        let width = Width::fixed(40);
        let options = Options::new(&width)
            .processes(processes)
            .decided(&mut decided);
        let found = beam_search(&sequence, &params, options);
        placements.extend(found.placements);
        (placements, found.pieces)
    });
    assert_eq!(pieces, sequence.len(), "every piece placed");
    let mut replay = Replay::new(&sequence);
    for (i, &p) in line.iter().enumerate() {
        replay.play(p, i + 2).expect("a legal placement");
    }
    assert_eq!(replay.finish().pieces_placed, pieces);
}

/// NES Tetris through the same search: one record (frame by frame) for 1 to 4 processes.
#[test]
fn nes_tetris_gives_one_record_for_any_process_count() {
    use tetris_opt::games::nes::eval::Weights;
    use tetris_opt::games::nes::movegen::InputModel;
    use tetris_opt::games::nes::search::{Seam, Stop};
    use tetris_opt::games::nes::start::start;
    let stop = Stop {
        level: None,
        lines: None,
        pieces: Some(40),
    };
    let model = InputModel {
        tap_every: 2,
        das: true,
    };
    let start = start(18, 0).expect("level 18 has a start");
    let (frames, score, pieces, mismatches) = one_answer_for_any_processes(|processes| {
        let search = Seam::new(model, stop, Weights::default());
        let width = Width::fixed(30);
        let options = Options::new(&width).processes(processes);
        let found = search.run(&start, (40, Objective::Score), options);
        (
            found.record.frames,
            found.score,
            found.pieces,
            found.mismatches,
        )
    });
    assert_eq!((pieces, mismatches), (40, 0));
    assert!(score > 0 && !frames.is_empty());
}

/// The browser game through the same search: one game (each piece's moves) for 1 to 4
/// processes.
#[test]
fn the_browser_game_gives_one_game_for_any_process_count() {
    use tetris_opt::games::browser::search::{
        beam_search, default_policy, default_weights, Params,
    };
    use tetris_opt::kit::policy::DEFAULT_SCORE_WEIGHT;
    let sequence = tetris_opt::games::browser::sequence(4, 300);
    let params = Params {
        score_weight: DEFAULT_SCORE_WEIGHT,
        weights: default_weights(),
        policy: default_policy(),
        objective: Objective::Score,
    };
    let (moves, points, pieces) = one_answer_for_any_processes(|processes| {
        let mut moves = Vec::new();
        let mut decided = |pieces: &[Vec<_>]| moves.extend_from_slice(pieces);
        let width = Width::fixed(60);
        let options = Options::new(&width)
            .processes(processes)
            .decided(&mut decided);
        let found = beam_search(&sequence, &params, options);
        (moves, found.points, found.pieces)
    });
    assert_eq!((moves.len(), pieces), (300, 300), "every piece placed");
    assert!(points > 0);
}
