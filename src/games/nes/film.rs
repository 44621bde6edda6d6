//! The viewer's film of an NES replay ([`crate::kit::film`]): the page draws an orientation as
//! a kind in its order `ILJTOSZ` and a state, and says where a piece locked as `check --trace`
//! does, in the ROM's terms: its orientation id (0-18), `tetriminoX`/`tetriminoY` and the
//! record's frame (from 0) of the lock.

use crate::games::nes::replay::{lock_pending, Report};
use crate::games::nes::rules::{Events, Outcome, Round};
use crate::kit::film::{PanelRow, Spawn};

/// The viewer's film of an NES replay: a frame per locked piece, taken when its lines and
/// points are counted (the rows it cleared are gone by then).
#[derive(Default)]
pub(crate) struct Film {
    film: crate::kit::film::Film,
    /// Kind letters of the pieces locked, in order.
    kinds: String,
    /// The locked piece waiting for its spawn.
    pending: Option<Locked>,
    /// The buttons since the last spawn.
    buttons: Vec<u8>,
    next: u8,
    /// The level the game started at (counted on past 255), once a frame is observed.
    start_level: Option<u16>,
    /// The frames observed so far: the number of the next one.
    frames: u64,
}

/// A piece as it locked: its orientation id, `tetriminoX`, `tetriminoY` and the lock's frame.
#[derive(Clone, Copy)]
struct Locked {
    orientation: u8,
    x: i8,
    y: i8,
    frame: u64,
}

impl Locked {
    /// The film's piece, with what the game says of it after the lock.
    fn piece(self, moves: String, game: &Round, rows: [u16; 20]) -> crate::kit::film::FilmPiece {
        let (_, state) = viewer_piece(self.orientation);
        crate::kit::film::FilmPiece {
            x: i32::from(self.x),
            y: i32::from(self.y),
            state,
            fields: vec![
                ("orientation", i64::from(self.orientation)),
                ("frame", self.frame as i64),
                ("level", i64::from(game.level_count())),
            ],
            moves,
            score: game.score.uncapped(),
            lines: game.lines() as u64,
            rows,
            filled: None,
            game_over: match game.outcome {
                Outcome::Playing => None,
                Outcome::ToppedOut => Some("a piece spawned into the stack"),
                Outcome::Crashed => {
                    Some("this lock's cycles may crash the ROM or delay its next piece")
                }
            },
        }
    }
}

impl Film {
    /// Takes one frame of the replay and the buttons held on it.
    pub(crate) fn observe(&mut self, game: &Round, events: &Events, buttons: u8) {
        self.start_level.get_or_insert(game.level_count());
        self.buttons.push(buttons);
        if events.locked {
            self.pending = Some(Locked {
                orientation: game.piece,
                x: game.x,
                y: game.y,
                frame: self.frames,
            });
        }
        self.frames += 1;
        if events.spawned {
            self.buttons.clear();
        }
        let ended = game.outcome != Outcome::Playing;
        if game.play_state == crate::games::nes::rules::play_state::GOAL_CHECK || ended {
            if let Some(locked) = self.pending.take() {
                self.kinds.push(viewer_piece(locked.orientation).0);
                let moves = crate::games::nes::record::runs_text(&self.buttons);
                self.film
                    .observe_piece(locked.piece(moves, game, game.rows()));
            }
        }
        self.next = game.next;
    }

    /// Ends the film after the last frame: a piece that locked before the record ended but
    /// whose lines were not counted yet (or that the game has not even written into the field)
    /// is shown where it locked, as the report counts it.
    pub(crate) fn finish(&mut self, game: &Round) {
        let Some(locked) = self.pending.take() else {
            return;
        };
        let mut rows = game.rows();
        if lock_pending(game) {
            for &(dy, dx) in &crate::games::nes::tables::ORIENTATIONS[game.piece as usize] {
                rows[(game.y + dy) as usize] |= 1 << (game.x + dx);
            }
        }
        self.kinds.push(viewer_piece(locked.orientation).0);
        let moves = crate::games::nes::record::runs_text(&self.buttons);
        let mut piece = locked.piece(moves, game, rows);
        piece.game_over = None;
        self.film.observe_piece(piece);
        self.next = game.next;
    }

    /// The page: `name` is the record's path as the user gave it.
    pub(crate) fn page(&self, name: &str, report: &Report) -> String {
        let mut kinds = self.kinds.clone();
        kinds.push(viewer_piece(self.next).0);
        let file = std::path::Path::new(name)
            .file_name()
            .map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
        // Numbers as the contest's page writes them, with thousands separators.
        use crate::kit::text::{grouped, grouped_plural};
        let transition = report.transition.map_or(String::new(), |t| {
            format!(", level 29 transition {}", grouped(t.score))
        });
        self.film.page(crate::kit::film::GamePage {
            name,
            window_title: format!(
                "{file} \u{2014} {} \u{2014} tetris-opt NES",
                grouped(report.score)
            ),
            summary: format!(
                "NES Tetris: {}, {}, level {}, score {} (ROM {}){transition}",
                grouped_plural(report.pieces, "piece"),
                grouped_plural(u64::from(report.lines), "line"),
                report.level,
                grouped(report.score),
                grouped(report.rom_score)
            ),
            kinds,
            offsets: viewer_offsets(),
            // The ROM's next box shows the one piece after the current one.
            next_shown: 1,
            spawn: Spawn::ByKind(spawn_states()),
            // The level after each piece's lines are counted, as the ROM shows it beside them.
            panel: vec![PanelRow {
                label: "Level",
                field: "level",
                start: i64::from(self.start_level.unwrap_or(u16::from(report.level))),
            }],
            locked_at: "orientation {orientation} at x={x} y={y} on frame {frame}",
            error: None,
            fill_chart: None,
        })
    }
}

/// The viewer's kind letter and state of an orientation.
fn viewer_piece(orientation: u8) -> (char, u8) {
    let first = match orientation {
        0..=3 => 0,
        4..=7 => 4,
        8 | 9 => 8,
        10 => 10,
        11 | 12 => 11,
        13..=16 => 13,
        _ => 17,
    };
    (
        crate::games::nes::tables::kind_letter(orientation),
        orientation.saturating_sub(first).min(3),
    )
}

/// The state each kind spawns in, in the viewer's kind order `ILJTOSZ`: the ROM's spawn
/// orientation of the kind ([`crate::games::nes::tables::SPAWN_TABLE`]).
fn spawn_states() -> [u8; 7] {
    let table = crate::games::nes::tables::SPAWN_TABLE;
    let letters = "ILJTOSZ".as_bytes();
    std::array::from_fn(|k| {
        let spawn = table
            .iter()
            .find(|&&o| crate::games::nes::tables::kind_letter(o) as u8 == letters[k])
            .expect("every kind spawns in one orientation");
        viewer_piece(*spawn).1
    })
}

/// The orientations' cells as the viewer takes them: by kind in its order `ILJTOSZ`, then by
/// state, `(dx, dy)`.
fn viewer_offsets() -> [[[(i32, i32); 4]; 4]; 7] {
    let mut out = [[[(0, 0); 4]; 4]; 7];
    for (k, letter) in "ILJTOSZ".chars().enumerate() {
        for o in 0..19u8 {
            if crate::games::nes::tables::kind_letter(o) != letter {
                continue;
            }
            let (_, state) = viewer_piece(o);
            let cells = crate::games::nes::tables::ORIENTATIONS[o as usize]
                .map(|(dy, dx)| (dx as i32, dy as i32));
            for slot in out[k].iter_mut().skip(state as usize) {
                *slot = cells;
            }
        }
    }
    out
}
