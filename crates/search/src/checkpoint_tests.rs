//! Tests of the snapshots: a search resumed from a snapshot taken after any depth answers with
//! the line of the search it was taken from, and a damaged snapshot is refused, never trusted.
use super::streaming_tests::{run as toy_run, Toy};
use super::*;
use std::cell::RefCell;

/// A snapshot taken after `done` depths, with the codes decided by then.
struct Taken {
    done: usize,
    snapshot: Vec<u8>,
    decided: Vec<u16>,
}

/// Takes a snapshot after each depth in `at`, with the decided codes so far, and stops the
/// search after the last one where `stop` says so.
struct Taker<'a> {
    at: Vec<usize>,
    stop: bool,
    decided: &'a RefCell<Vec<u16>>,
    taken: Vec<Taken>,
}

impl Checkpoints for Taker<'_> {
    fn due(&mut self, done: usize) -> bool {
        self.at.contains(&done)
    }
    fn take(&mut self, done: usize, snapshot: checkpoint::Snapshotter<'_>) -> bool {
        let snapshot = snapshot.to_bytes();
        let decided = self.decided.borrow().clone();
        self.taken.push(Taken {
            done,
            snapshot,
            decided,
        });
        self.stop && self.at.last() == Some(&done)
    }
}

/// Where [`search_on`] searches, and when it stops.
#[derive(Clone, Copy)]
struct On<'a> {
    processes: Processes<'a>,
    /// Stop after the last snapshot asked for.
    stop: bool,
}

const ONE: On<'static> = On {
    processes: Processes::One,
    stop: false,
};

/// The decided codes and the answer of a search from `resume` (or the start), taking the
/// snapshots `at` asks for.
fn search(
    game: &Toy,
    run: &Run<u64>,
    width: &Width,
    at: Vec<usize>,
    resume: Option<&[u8]>,
) -> (Vec<u16>, Line<u16>, Vec<Taken>) {
    search_on(game, run, width, (at, resume), ONE)
}

/// [`search`] as `on` says: over processes, or stopping after its last snapshot.
fn search_on(
    game: &Toy,
    run: &Run<u64>,
    width: &Width,
    (at, resume): (Vec<usize>, Option<&[u8]>),
    on: On<'_>,
) -> (Vec<u16>, Line<u16>, Vec<Taken>) {
    // A budget reads a clock that counts states, so that its widths are the same every time.
    let clock = width::SpeedModel {
        seconds_per_state: 1e-4,
    };
    let decided = RefCell::new(Vec::new());
    let mut take = |codes: &[u16]| decided.borrow_mut().extend_from_slice(codes);
    let mut taker = Taker {
        at,
        stop: on.stop,
        decided: &decided,
        taken: Vec::new(),
    };
    let mut options = (Options::new(width).clock(&clock))
        .processes(on.processes)
        .decided(&mut take)
        .checkpoints(&mut taker);
    if let Some(bytes) = resume {
        options = options.resume(bytes);
    }
    let line = beam_search(game, run, options);
    let taken = std::mem::take(&mut taker.taken);
    (decided.into_inner(), line, taken)
}

/// The whole line of the search resumed from `taken` (the codes decided before it, those
/// decided after, then its answer's), and its answer.
fn resumed_from(game: &Toy, run: &Run<u64>, width: &Width, taken: &Taken) -> (Vec<u16>, Line<u16>) {
    let (after, again, _) = search(game, run, width, vec![], Some(&taken.snapshot));
    let joined = [taken.decided.clone(), after, again.placements.clone()].concat();
    (joined, again)
}

/// Over narrow and wide beams (the wide ones take the expansion's bound), beams that die,
/// both objectives and a width schedule: the codes decided before a snapshot, then those of
/// the search resumed from it, then its answer, are the uninterrupted search's line, score
/// and statistics.
#[test]
fn a_search_resumed_from_any_depth_answers_with_the_uninterrupted_line() {
    let (mut resumed, mut ended_before) = (0, 0);
    for seed in 0..6u64 {
        for (beam_width, changes) in [(1, vec![]), (8, vec![(30, 3), (90, 20)]), (900, vec![])] {
            for (deaths_from, death_rate) in [(usize::MAX, 0), (60, 500), (40, 600)] {
                for objective in [Objective::Score, Objective::Survive] {
                    let game = Toy {
                        children: 3,
                        deaths_from,
                        death_rate,
                    };
                    let depths = 140;
                    let run = toy_run(seed, depths, objective);
                    let width = Width {
                        beam_width,
                        width_changes: width::Schedule(changes.clone()),
                        time_budget: None,
                    };
                    let at: Vec<usize> = vec![1, 2, 7, 8, 9, 30, 31, 64, 91, 139, 140];
                    let (decided, line, taken) = search(&game, &run, &width, at, None);
                    let whole = [decided, line.placements.clone()].concat();
                    for taken in &taken {
                        let done = taken.done;
                        let case = format!(
                            "seed {seed} width {beam_width} deaths {deaths_from} {objective:?} \
                             resumed after {done}"
                        );
                        let summary = checkpoint::summary::<Toy>(
                            &taken.snapshot,
                            depths,
                            crate::comm::Place::ONE,
                        );
                        assert_eq!(summary.map(|s| s.done), Ok(done), "{case}");
                        let (joined, again) = resumed_from(&game, &run, &width, taken);
                        assert_eq!(joined, whole, "{case}");
                        assert_eq!(again.score, line.score, "{case}");
                        assert_eq!(again.width_changes.0, line.width_changes.0, "{case}");
                        assert_eq!(again.stats.expanded, line.stats.expanded, "{case}");
                        assert_eq!(again.stats.pieces, line.stats.pieces, "{case}");
                        resumed += 1;
                        // The answer ends at a state the snapshot carried as the best so far.
                        ended_before += usize::from(whole.len() < done);
                    }
                }
            }
        }
    }
    assert!(resumed > 100, "{resumed} resumed");
    assert!(
        ended_before >= 3,
        "{ended_before} ended before their snapshot"
    );
}

/// A search under a time budget, whose widths the budget re-chooses as it goes (on a clock
/// that counts states), resumes to the same widths and line.
#[test]
fn a_budgeted_search_resumes_to_the_same_widths() {
    let game = Toy {
        children: 3,
        deaths_from: usize::MAX,
        death_rate: 0,
    };
    let depths = 900;
    let run = toy_run(9, depths, Objective::Score);
    let width = Width {
        beam_width: 30,
        width_changes: width::Schedule::default(),
        time_budget: Some(width::TimeBudget {
            seconds: 8.0,
            max_width: 400,
        }),
    };
    let at = vec![5, 10, 49, 50, 51, 120, 299, 300, 301, 650];
    let (decided, line, taken) = search(&game, &run, &width, at, None);
    assert!(line.width_changes.0.len() >= 2, "{:?}", line.width_changes);
    let whole = [decided, line.placements.clone()].concat();
    for taken in &taken {
        let (joined, again) = resumed_from(&game, &run, &width, taken);
        assert_eq!(joined, whole, "resumed after {}", taken.done);
        assert_eq!(again.width_changes.0, line.width_changes.0);
    }
}

/// A snapshot cut anywhere, or with a count or a field changed, or of another search, is
/// refused with an error, without a panic.
#[test]
fn a_damaged_snapshot_is_refused() {
    let game = Toy {
        children: 3,
        deaths_from: usize::MAX,
        death_rate: 0,
    };
    let run = toy_run(5, 60, Objective::Score);
    let width = Width::fixed(40);
    let (_, _, taken) = search(&game, &run, &width, vec![20], None);
    let snapshot = &taken[0].snapshot;
    assert!(checkpoint::summary::<Toy>(snapshot, 60, crate::comm::Place::ONE).is_ok());
    for cut in 0..snapshot.len() {
        assert!(
            checkpoint::summary::<Toy>(&snapshot[..cut], 60, crate::comm::Place::ONE).is_err(),
            "cut at {cut}"
        );
    }
    // Each count and number of the header and the trail's made huge.
    for at in (8..snapshot.len().min(400)).step_by(8) {
        let mut bad = snapshot.clone();
        bad[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        let _ = checkpoint::summary::<Toy>(&bad, 60, crate::comm::Place::ONE);
    }
    assert!(matches!(
        checkpoint::summary::<Toy>(snapshot, 61, crate::comm::Place::ONE),
        Err(checkpoint::SnapshotError::Depths { .. })
    ));
    assert_eq!(
        checkpoint::summary::<Toy>(b"not a snapshot at all", 60, crate::comm::Place::ONE),
        Err(checkpoint::SnapshotError::Magic)
    );
}

/// Spread over 1, 2 and 3 processes (threads of this one), each process's snapshot taken
/// after any depth resumes, on that process of a job of as many, to the one-process search's
/// line; a search asked to stop after a snapshot stops there on every process, and its
/// snapshots go on to the same line.
#[test]
fn a_distributed_search_resumes_from_its_processes_snapshots() {
    let game = Toy {
        children: 3,
        deaths_from: 70,
        death_rate: 300,
    };
    let depths = 120;
    let run = toy_run(4, depths, Objective::Score);
    let width = Width {
        beam_width: 40,
        width_changes: width::Schedule(vec![(50, 90)]),
        time_budget: None,
    };
    let (decided, line, _) = search(&game, &run, &width, vec![], None);
    let (whole, score) = ([decided, line.placements].concat(), line.score);
    let at = vec![1, 2, 8, 9, 17, 50, 51, 100];
    for processes in 1..=3 {
        for stop in [false, true] {
            let answers = comm::run_local(processes, |comm| {
                let on = On {
                    processes: Processes::Many(comm),
                    stop,
                };
                search_on(&game, &run, &width, (at.clone(), None), on)
            });
            let (decided, line, taken) = &answers[0];
            assert_eq!(line.stopped, stop, "{processes} processes");
            assert_eq!(taken.len(), at.len(), "{processes} processes");
            if !stop {
                assert_eq!([&decided[..], &line.placements].concat(), whole);
            }
            for k in 0..answers[0].2.len() {
                let resumed = comm::run_local(processes, |comm| {
                    let taken = &answers[comm.rank()].2[k];
                    let on = On {
                        processes: Processes::Many(comm),
                        stop: false,
                    };
                    search_on(&game, &run, &width, (vec![], Some(&taken.snapshot)), on)
                });
                let (after, again, _) = &resumed[0];
                let taken = &answers[0].2[k];
                let joined = [&taken.decided[..], after, &again.placements].concat();
                let case = format!("{processes} processes, resumed after {}", taken.done);
                assert_eq!(joined, whole, "{case}");
                assert_eq!(again.score, score, "{case}");
            }
        }
    }
}

/// A snapshot resumes only where it was taken: a process's on another process, or in a job
/// of another size, and one process's in a distributed search, are refused, naming both.
#[test]
fn a_snapshot_is_refused_on_another_process() {
    let game = Toy {
        children: 3,
        deaths_from: usize::MAX,
        death_rate: 0,
    };
    let run = toy_run(6, 40, Objective::Score);
    let width = Width::fixed(20);
    let answers = comm::run_local(2, |comm| {
        let on = On {
            processes: Processes::Many(comm),
            stop: false,
        };
        search_on(&game, &run, &width, (vec![10], None), on)
    });
    let of_process_1 = &answers[1].2[0].snapshot;
    let spread = |process, processes| crate::comm::Place {
        spread: true,
        process,
        processes,
    };
    assert!(checkpoint::summary::<Toy>(of_process_1, 40, spread(1, 2)).is_ok());
    for place in [spread(0, 2), spread(1, 3), crate::comm::Place::ONE] {
        let refused = checkpoint::summary::<Toy>(of_process_1, 40, place);
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err(match place.spread {
                true => format!(
                    "taken on process 1 of a distributed search of 2, not on process {} of a \
                     distributed search of {}",
                    place.process, place.processes
                ),
                false => "taken on process 1 of a distributed search of 2, not on a search \
                          in one process"
                    .to_string(),
            })
        );
    }
    let (_, _, taken) = search(&game, &run, &width, vec![10], None);
    assert!(checkpoint::summary::<Toy>(&taken[0].snapshot, 40, spread(0, 1)).is_err());
}
