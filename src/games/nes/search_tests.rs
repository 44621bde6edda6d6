//! The NES search's tests: its states and codes through their encoding.

use super::resume::KeptError;
use super::*;
use crate::games::nes::eval::cost;
use crate::games::nes::rules::button;
use crate::games::nes::start::start;
use crate::search::wire::round_trip;

/// Plays a level 18 game, each piece where the search's own key puts it best, until it
/// has cleared rows and placed at least `pieces`; returns the state reached and the codes
/// played.
fn greedy_game(search: &Seam, pieces: u64) -> (State, Vec<NesCode>) {
    let mut state = State::root(&start(18, 0).expect("level 18 has a start"));
    let mut played = Vec::new();
    while state.game.pieces < pieces || state.game.clears == [0; 4] {
        assert!(state.game.pieces < 200, "the greedy game clears no rows");
        let game = &state.game;
        let rows = game.rows();
        let all = placements(game, search.model, state.first_press());
        let (_, code) = all
            .iter()
            .enumerate()
            .filter_map(|(order, p)| {
                let code = NesCode::of(order, p)?;
                let (after, cleared, _) = place(&rows, p.piece, p.x, p.y);
                let (points, _, _) = clear_points(game.lines(), game.level, cleared);
                Some((cost(&after, &search.weights) - points as f64, code))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .expect("a spawned piece has a placement");
        state = search.play_out(&state, &code);
        assert!(!state.dead, "the greedy game topped out");
        played.push(code);
    }
    (state, played)
}

#[test]
fn states_and_codes_of_a_played_game_round_trip_through_their_encoding() {
    let stop = Stop {
        level: None,
        lines: None,
        pieces: None,
    };
    let model = InputModel {
        tap_every: 2,
        das: true,
    };
    let search = Seam::new(model, stop, Weights::default());
    let (state, played) = greedy_game(&search, 12);
    let game = &state.game;
    assert!(game.rows().iter().any(|&r| r != 0), "{game:?}");
    assert!(game.score.uncapped() > 0 && game.lines() > 0, "{game:?}");
    assert!(state.spawn_frame > 0);

    // Between spawns, so that the buttons of two frames and the auto shift differ.
    let mut moving = state.game;
    for buttons in [button::RIGHT, button::RIGHT, button::A] {
        moving.step(buttons);
    }
    assert_ne!(moving.held, moving.held_before);
    let over = Round {
        outcome: Outcome::ToppedOut,
        play_state: play_state::GAME_OVER,
        ..state.game
    };
    let states = [
        State::default(),
        state,
        State {
            game: moving,
            ..state
        },
        State {
            done: true,
            ..state
        },
        State {
            game: over,
            dead: true,
            ..state
        },
    ];
    for s in &states {
        let back = round_trip(s);
        assert_eq!(back.game, s.game);
        assert_eq!(back.spawn_frame, s.spawn_frame);
        assert_eq!(back.done, s.done);
        assert_eq!(back.dead, s.dead);
        assert_eq!(back, *s);
    }

    let mut codes = played;
    codes.extend(
        placements(&state.game, model, state.first_press())
            .iter()
            .enumerate()
            .filter_map(|(order, p)| NesCode::of(order, p)),
    );
    assert!(codes.iter().any(|c| c.count >= 3));
    assert!(codes.iter().any(|c| c.runs.iter().any(|r| r.frames > 1)));
    for c in &codes {
        let back = round_trip(c);
        assert_eq!(
            (back.order, back.piece, back.x, back.y, back.count),
            (c.order, c.piece, c.x, c.y, c.count)
        );
        assert_eq!(back.runs, c.runs);
    }
}

/// A record's first pieces played on the plain engine give the very state the search's own
/// play-out of them reached, from the whole record and from one cut after those pieces' lines
/// (an interrupted solve's).
#[test]
fn a_records_kept_pieces_rebuild_the_searchs_state() {
    let stop = Stop {
        level: None,
        lines: None,
        pieces: None,
    };
    let search = Seam::new(InputModel::DEFAULT, stop, Weights::default());
    let (_, played) = greedy_game(&search, 12);
    let begin = start(18, 0).expect("level 18 has a start");
    let found = search.record(&begin, &played);
    let mut state = State::root(&begin);
    for kept in 0..=played.len() {
        let whole = search
            .kept(&found.record, kept)
            .expect("the pieces are there");
        assert_eq!(whole.state, state, "{kept} pieces kept");
        assert_eq!(whole.pieces(), kept);
        assert_eq!(whole.piece_starts, found.piece_starts[..kept]);
        if let Some(&end) = found.piece_starts.get(kept).filter(|_| kept > 0) {
            let cut = Record {
                start: begin,
                frames: found.record.frames[..end].to_vec(),
            };
            let from_cut = search.kept(&cut, kept).expect("the cut record's pieces");
            assert_eq!(
                from_cut.state, state,
                "{kept} pieces kept of the cut record"
            );
            assert_eq!(from_cut.frames, whole.frames);
        }
        if let Some(code) = played.get(kept) {
            state = search.play_out(&state, code);
        }
    }
    let more = search.kept(&found.record, played.len() + 1);
    assert!(
        matches!(more, Err(KeptError::TooShort { have, .. }) if have == played.len() as u64),
        "{more:?}"
    );
    let stopping = Seam::new(
        InputModel::DEFAULT,
        Stop {
            pieces: Some(5),
            ..stop
        },
        Weights::default(),
    );
    assert_eq!(
        stopping.kept(&found.record, 5).map(|k| k.pieces()),
        Err(KeptError::Stopped(5))
    );
}
