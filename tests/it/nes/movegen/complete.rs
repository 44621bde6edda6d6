//! The NES movegen finds every placement the engine reaches: held to an oracle that tries every
//! press on every frame the input model allows, on the spawn states of the fixture, past level
//! 29, and on the fields of random play.

use super::{
    all_fixtures, assert_played_is_found, check_placements, fixture_states, play, spawns, Spawned,
};
use std::collections::HashSet;
use tetris_opt::games::nes::movegen::{placements, InputModel};
use tetris_opt::games::nes::record::Record;
use tetris_opt::games::nes::rules::{button, Round};

/// The presses a model tries on a frame that allows one (as the movegen does: a shift, a turn,
/// or both; Down is not part of the model).
const PRESSES: [u8; 9] = [
    0,
    button::LEFT,
    button::RIGHT,
    button::A,
    button::B,
    button::LEFT | button::A,
    button::LEFT | button::B,
    button::RIGHT | button::A,
    button::RIGHT | button::B,
];

/// Every (piece, x, y, lock frame) the engine itself reaches from `game` under a model, by
/// trying every press on every frame the model allows: an oracle independent of the movegen.
/// Every placement the movegen finds plays on the engine as found, and they are exactly the
/// places (and lock frames) the engine reaches under the model; returns how many.
fn assert_movegen_is_the_engines(s: &Spawned, model: InputModel, what: &str) -> usize {
    check_placements(&s.game, model, s.first);
    let found: HashSet<(u8, i8, i8, u16)> = placements(&s.game, model, s.first)
        .iter()
        .map(|p| (p.piece, p.x, p.y, p.lock_frame))
        .collect();
    assert_eq!(found, engine_reachable(&s.game, model, s.first), "{what}");
    found.len()
}

fn engine_reachable(game: &Round, model: InputModel, first: u16) -> HashSet<(u8, i8, i8, u16)> {
    let every = model.tap_every as u16;
    let allowed = |t: u16| t >= first && (t - first).is_multiple_of(every);
    let key = |g: &Round| (g.piece, g.x, g.y, g.held, g.held_before, g.autorepeat_x);
    let mut seen = HashSet::new();
    let mut frontier = Vec::new();
    let presses: &[u8] = if allowed(0) { &PRESSES } else { &[0] };
    for &b in presses {
        let mut g = *game;
        g.held = b;
        if seen.insert(key(&g)) {
            frontier.push(g);
        }
    }
    let mut out = HashSet::new();
    for t in 1..=5000u16 {
        if frontier.is_empty() {
            break;
        }
        seen.clear();
        let presses: &[u8] = if allowed(t) { &PRESSES } else { &[0] };
        let mut next = Vec::new();
        for g in &frontier {
            for &b in presses {
                let mut g = *g;
                if g.step(b).locked {
                    out.insert((g.piece, g.x, g.y, t));
                } else if seen.insert(key(&g)) {
                    next.push(g);
                }
            }
        }
        frontier = next;
    }
    out
}

#[test]
fn past_level_29_the_movegen_finds_every_placement_and_each_plays_as_found() {
    // The committed game past the transition: one row a frame.
    let path = "tests/fixtures/nes/solver-level19-wait0-to-level39.txt";
    let text = std::fs::read_to_string(path).expect("fixture");
    let states: Vec<Spawned> = spawns(&Record::parse(&text).expect("parses"))
        .into_iter()
        .filter(|s| s.game.level >= 29)
        .collect();
    assert!(states.len() > 200, "{} spawns past level 29", states.len());
    for (i, s) in states.iter().enumerate().step_by(5) {
        assert_played_is_found(s, InputModel::DEFAULT);
        let found = assert_movegen_is_the_engines(s, InputModel::DEFAULT, &format!("state {i}"));
        // Held directions play as found too, and reach at least as far.
        let held = placements(
            &s.game,
            InputModel {
                tap_every: 2,
                das: true,
            },
            s.first,
        );
        for p in &held {
            assert_eq!(play(&s.game, p), (p.lock_frame, p.piece, p.x, p.y), "{p:?}");
        }
        assert!(held.len() >= found, "state {i}");
    }
}

#[test]
fn the_movegen_finds_every_placement_the_engine_reaches() {
    let states = fixture_states();
    for (i, Spawned { game, first, .. }) in states.iter().enumerate().step_by(4) {
        for every in [2u8, 4] {
            let model = InputModel {
                tap_every: every,
                das: false,
            };
            let found: HashSet<(u8, i8, i8, u16)> = placements(game, model, *first)
                .iter()
                .map(|p| (p.piece, p.x, p.y, p.lock_frame))
                .collect();
            let reached = engine_reachable(game, model, *first);
            let missed: Vec<_> = reached.difference(&found).collect();
            let extra: Vec<_> = found.difference(&reached).collect();
            assert!(
                missed.is_empty() && extra.is_empty(),
                "state {i}, tap:{every}: the movegen misses {missed:?} and adds {extra:?}"
            );
        }
    }
    // Slower gravity gives time for tucks and spins under overhangs.
    for (i, Spawned { game, first, .. }) in states.iter().enumerate().step_by(53) {
        let mut game = *game;
        game.level = 8;
        let model = InputModel {
            tap_every: 3,
            das: false,
        };
        let found: HashSet<(u8, i8, i8, u16)> = placements(&game, model, *first)
            .iter()
            .map(|p| (p.piece, p.x, p.y, p.lock_frame))
            .collect();
        assert_eq!(found, engine_reachable(&game, model, *first), "state {i}");
    }
}

#[test]
fn the_movegen_matches_the_engine_on_the_fields_of_random_play() {
    // Random input leaves holes and overhangs at slow gravity: room for tucks and spins.
    let mut checked = 0;
    for (name, record) in all_fixtures() {
        if record.frames.len() > 10_000 {
            continue;
        }
        for (i, s) in spawns(&record).iter().enumerate() {
            for every in [2u8, 5] {
                let model = InputModel {
                    tap_every: every,
                    das: false,
                };
                assert_movegen_is_the_engines(
                    s,
                    model,
                    &format!("{name}, piece {}, tap:{every}", i + 1),
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "{checked}");
}
