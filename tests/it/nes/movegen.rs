//! The NES movegen held against the engine on the spawn states of the committed records and of
//! random play: every placement it finds plays as found, and it finds every placement the engine
//! reaches under the input model (`complete`); the committed fixtures locked where it says
//! (`fixtures`).

mod complete;
mod fixtures;

use super::{fixture, level_after, start_19_9};
use std::collections::HashSet;
use tetris_opt::games::nes::movegen::{placements, InputModel, Placement};
use tetris_opt::games::nes::record::Record;
use tetris_opt::games::nes::rules::{button, Outcome, Round};
use tetris_opt::games::nes::tables::{ORIENTATIONS, SPAWN_TABLE};

/// Plays a placement's taps on a copy of `game` (taps counted from its spawn frame; a tap on
/// frame 0 is the spawn frame's own press, already read) and returns the frame the piece
/// locked on and where.
fn play(game: &Round, p: &Placement) -> (u16, u8, i8, i8) {
    let mut game = *game;
    let mut taps = p.taps.iter().peekable();
    if let Some(t) = taps.next_if(|t| t.frame == 0) {
        game.held = t.buttons;
    }
    for frame in 1..=5000u16 {
        let buttons = taps.next_if(|t| t.frame == frame).map_or(0, |t| t.buttons);
        let events = game.step(buttons);
        assert_eq!(game.outcome, Outcome::Playing);
        if events.locked {
            assert!(taps.next().is_none(), "taps after the lock: {p:?}");
            return (frame, game.piece, game.x, game.y);
        }
    }
    panic!("no lock in 5000 frames: {p:?}");
}

/// The cells a placement fills, sorted.
fn cells(p: &Placement) -> Vec<(i8, i8)> {
    let mut cells: Vec<(i8, i8)> = ORIENTATIONS[p.piece as usize]
        .iter()
        .map(|&(dy, dx)| (p.y + dy, p.x + dx))
        .collect();
    cells.sort_unstable();
    cells
}

/// A piece as it spawned in a record: the game as the search sees it (nothing held on the
/// spawn frame or the one before), the frame a press may first be made on, and the (piece, x,
/// y) and lock frame (from the spawn frame) the record then played.
struct Spawned {
    game: Round,
    first: u16,
    played: (u8, i8, i8),
    lock: u16,
}

/// Every spawn of a record whose piece fits where it spawns (one that does not is a top-out).
fn spawns(record: &Record) -> Vec<Spawned> {
    let mut states = Vec::new();
    let mut pending: Option<(Round, u16, i64)> = Some((Round::new(&record.start), 1, -1));
    let mut game = Round::new(&record.start);
    for (frame, &b) in record.frames.iter().enumerate() {
        let events = game.step(b);
        if events.locked {
            let (state, first, spawn) = pending.take().expect("a lock follows a spawn");
            if state.fits(state.piece, state.x, state.y) {
                states.push(Spawned {
                    game: state,
                    first,
                    played: (game.piece, game.x, game.y),
                    lock: (frame as i64 - spawn) as u16,
                });
            }
        }
        if events.spawned {
            let mut state = game;
            state.held = 0;
            state.held_before = 0;
            pending = Some((state, 0, frame as i64));
        }
        if game.outcome != Outcome::Playing {
            break;
        }
    }
    states
}

/// The spawns of the level 19 solver fixture, found under tap:2.
fn fixture_states() -> Vec<Spawned> {
    let states = spawns(&fixture());
    assert!(states.len() > 500);
    states
}

/// Checks every placement of a state on the engine; returns how many there were.
fn check_placements(game: &Round, model: InputModel, first_press: u16) -> usize {
    let found = placements(game, model, first_press);
    assert!(!found.is_empty());
    let mut positions = HashSet::new();
    let mut shapes = HashSet::new();
    for p in &found {
        assert!(game.fits(p.piece, p.x, p.y), "{p:?}");
        assert!(!game.fits(p.piece, p.x, p.y + 1), "not at rest: {p:?}");
        assert_eq!(
            play(game, p),
            (p.lock_frame, p.piece, p.x, p.y),
            "the engine plays {p:?} elsewhere (level {})",
            game.level
        );
        assert!(positions.insert((p.piece, p.x, p.y)), "twice: {p:?}");
        assert!(shapes.insert(cells(p)), "same cells twice: {p:?}");
        let every = model.tap_every as u16;
        let mut last: Option<u16> = None;
        for t in &p.taps {
            assert!(t.frame >= first_press, "{p:?}");
            assert!(
                (t.frame - first_press).is_multiple_of(every),
                "off the model's beat: {p:?}"
            );
            if let Some(l) = last {
                assert!(
                    t.frame >= l + every,
                    "taps closer than {every} frames: {p:?}"
                );
            }
            assert!(t.frame < p.lock_frame, "{p:?}");
            assert_eq!(t.buttons & (button::DOWN | button::UP | button::START), 0);
            assert!(t.buttons.count_ones() <= 2, "{p:?}");
            last = Some(t.frame);
        }
    }
    found.len()
}

/// A record the search made under `model` locks each piece at one of its placements, on the
/// frame the placement says.
fn assert_played_is_found(s: &Spawned, model: InputModel) {
    let found = placements(&s.game, model, s.first);
    assert!(
        found
            .iter()
            .any(|p| (p.piece, p.x, p.y) == s.played && p.lock_frame == s.lock),
        "the record's {:?} at frame {} is not among {} placements",
        s.played,
        s.lock,
        found.len()
    );
}

#[test]
fn every_placement_plays_on_the_engine_as_found_under_tap_2() {
    let model = InputModel {
        tap_every: 2,
        das: false,
    };
    let mut total = 0;
    for s in fixture_states() {
        total += check_placements(&s.game, model, s.first);
        assert_played_is_found(&s, model);
    }
    assert!(total > 10_000, "{total}");
}

#[test]
fn every_placement_plays_on_the_engine_as_found_under_tap_4() {
    let model = InputModel {
        tap_every: 4,
        das: false,
    };
    let mut fewer = 0;
    for Spawned { game, first, .. } in fixture_states() {
        check_placements(&game, model, first);
        // Every fourth frame is also every other frame: what tap:4 reaches, tap:2 reaches,
        // locking on the same frame (gravity alone decides it).
        let fast: HashSet<(u8, i8, i8, u16)> = placements(&game, InputModel::DEFAULT, first)
            .iter()
            .map(|p| (p.piece, p.x, p.y, p.lock_frame))
            .collect();
        let slow = placements(&game, model, first);
        for p in &slow {
            assert!(
                fast.contains(&(p.piece, p.x, p.y, p.lock_frame)),
                "tap:4 reaches {p:?}, tap:2 does not"
            );
        }
        if slow.len() < fast.len() {
            fewer += 1;
        }
    }
    assert!(fewer > 0, "tap:4 never reaches less than tap:2");
}

#[test]
fn every_placement_plays_on_the_engine_at_other_speeds() {
    let states = fixture_states();
    for (i, Spawned { game, first, .. }) in states.iter().enumerate().step_by(37) {
        for level in [0u8, 8, 13, 29, 40] {
            let mut game = *game;
            game.level = level;
            for every in [2u8, 3, 5] {
                let n = check_placements(
                    &game,
                    InputModel {
                        tap_every: every,
                        das: false,
                    },
                    *first,
                );
                assert!(n > 0, "state {i}");
            }
        }
    }
}

#[test]
fn the_first_piece_can_press_from_frame_1_and_may_press_on_frame_0_after_a_spawn() {
    let record = fixture();
    let game = Round::new(&record.start);
    let found = placements(&game, InputModel::DEFAULT, 1);
    assert!(found.iter().flat_map(|p| &p.taps).all(|t| t.frame % 2 == 1));
    assert!(found.iter().flat_map(|p| &p.taps).any(|t| t.frame == 1));
    let found = placements(&game, InputModel::DEFAULT, 0);
    assert!(found.iter().flat_map(|p| &p.taps).any(|t| t.frame == 0));
    for p in &found {
        assert_eq!(play(&game, p), (p.lock_frame, p.piece, p.x, p.y));
    }
}

#[test]
fn an_empty_field_at_level_19_offers_every_column_of_every_orientation() {
    // Each kind on an empty field: every orientation that fits, at every column, on the floor.
    for kind in SPAWN_TABLE {
        let mut game = Round::new(&start_19_9());
        game.piece = kind;
        let found = placements(&game, InputModel::DEFAULT, 0);
        let orientations: HashSet<u8> = found.iter().map(|p| p.piece).collect();
        let expected = match kind {
            10 => 1,
            8 | 11 | 18 => 2,
            _ => 4,
        };
        assert_eq!(orientations.len(), expected, "kind {kind}");
        for p in &found {
            let bottom = ORIENTATIONS[p.piece as usize]
                .iter()
                .map(|&(dy, _)| p.y + dy)
                .max();
            assert_eq!(bottom, Some(19), "{p:?}");
        }
        // The first piece hangs long enough to reach every column in every orientation.
        for &o in &orientations {
            let dxs = ORIENTATIONS[o as usize].iter().map(|&(_, dx)| dx);
            let (lo, hi) = (dxs.clone().min().unwrap(), dxs.max().unwrap());
            let xs: HashSet<i8> = found.iter().filter(|p| p.piece == o).map(|p| p.x).collect();
            assert_eq!(xs, (-lo..=9 - hi).collect(), "orientation {o}");
        }
    }
}

/// Every NES record committed as a fixture.
fn all_fixtures() -> Vec<(String, Record)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nes");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("read tests/fixtures/nes") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let text = std::fs::read_to_string(&path).unwrap();
            let record = Record::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((path.display().to_string(), record));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty());
    out
}

/// With auto shift allowed, every placement still plays on the engine as found, each place
/// comes once, the taps' placements are all among them, and a slow tapper reaches places it
/// could not reach without holding a direction.
#[test]
fn auto_shift_placements_play_on_the_engine_and_reach_further() {
    let record = fixture();
    let mut played = Round::new(&record.start);
    let mut spawns = 0;
    let mut gained = 0;
    for &buttons in &record.frames {
        let events = played.step(buttons);
        if !events.spawned {
            continue;
        }
        spawns += 1;
        if spawns % 10 != 0 {
            continue;
        }
        // The game as the search sees it at a spawn: nothing held.
        let mut game = played;
        game.held = 0;
        game.held_before = 0;
        for every in [2u8, 6, 20] {
            let taps = placements(
                &game,
                InputModel {
                    tap_every: every,
                    das: false,
                },
                0,
            );
            let held = placements(
                &game,
                InputModel {
                    tap_every: every,
                    das: true,
                },
                0,
            );
            let mut places = HashSet::new();
            for p in &held {
                assert_eq!(play(&game, p), (p.lock_frame, p.piece, p.x, p.y), "{p:?}");
                assert!(places.insert((p.piece, p.x, p.y)), "twice: {p:?}");
            }
            for p in &taps {
                assert!(
                    places.contains(&(p.piece, p.x, p.y)),
                    "lost with auto shift: {p:?}"
                );
            }
            gained += held.len() - taps.len();
        }
    }
    assert!(spawns > 100);
    assert!(gained > 0, "auto shift never reached further");
}
