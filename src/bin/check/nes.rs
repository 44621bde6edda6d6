//! What `check --game nes` prints.

use crate::shared::cli::{read_text, stdout_failed, CliError};
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use tetris_opt::games::nes::engine::{Events, NesGame, Outcome};
use tetris_opt::games::nes::record::NesRecord;
use tetris_opt::games::nes::replay::{
    describe_lock, lock_pending, replay_observed, End, NesReport,
};

/// One frame of `check --game nes --frames`: the ROM's variables the oracle also prints.
#[derive(Serialize)]
struct FrameLine {
    frame: u64,
    play_state: u8,
    score: u64,
    lines: u32,
    level: u8,
    piece: u8,
    next: u8,
    x: i8,
    y: i8,
    rng: u16,
    spawn_count: u8,
    spawn_id: u8,
    frame_counter: u8,
    fall_timer: u8,
    autorepeat_x: u8,
    autorepeat_y: u8,
    hold_down_points: u8,
    vram_row: u8,
}

impl FrameLine {
    fn of(g: &NesGame, frame: u64) -> FrameLine {
        FrameLine {
            frame,
            play_state: g.play_state,
            score: g.score.rom(),
            lines: g.lines(),
            level: g.level,
            piece: g.piece,
            next: g.next,
            x: g.x,
            y: g.y,
            rng: g.rng,
            spawn_count: g.spawn_count,
            spawn_id: g.spawn_id,
            frame_counter: g.frame_counter,
            fall_timer: g.fall_timer,
            autorepeat_x: g.autorepeat_x,
            autorepeat_y: g.autorepeat_y,
            hold_down_points: g.hold_down_points,
            vram_row: g.vram_row,
        }
    }
}

/// What `check --game nes` is asked for.
pub struct CheckOptions<'a> {
    pub record: &'a Path,
    pub json: bool,
    /// A line per locked piece and the board after it.
    pub trace: bool,
    /// A JSON line per frame with the ROM's variables.
    pub frames: bool,
    /// Also write the record as an FM2 movie from power-on.
    pub fm2: Option<&'a Path>,
    /// Also write the replay as an HTML page (the viewer of the contest's records).
    pub html: Option<&'a Path>,
}

/// Replays an NES record and prints its report (last line `Score = N`, the uncapped score).
pub fn check(options: &CheckOptions) -> Result<(), CliError> {
    // A record that cannot be read still gets the last line scripts read, with a zero.
    let text = read_text(options.record, "record file").inspect_err(|e| {
        let mut out = std::io::stdout().lock();
        let _ = if options.json {
            writeln!(
                out,
                "{}",
                serde_json::json!({"valid": false, "error": e.message, "score": 0})
            )
        } else {
            writeln!(out, "Score = 0")
        };
    })?;
    let record = match NesRecord::parse(&text) {
        Ok(r) => r,
        Err(e) => {
            let message = format!("{}: {e}", options.record.display());
            return crate::invalid_record(options.json, message);
        }
    };
    if let Some(path) = options.fm2 {
        std::fs::write(path, tetris_opt::games::nes::fm2::movie(&record))
            .map_err(|e| CliError::usage(format!("cannot write {}: {e}", path.display())))?;
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed: Option<std::io::Error> = None;
    let mut frame = 0u64;
    let mut film = FilmMaker::default();
    let mut last: Option<NesGame> = None;
    let report = replay_observed(&record, |game: &NesGame, events: &Events| {
        if options.html.is_some() {
            film.observe(game, events, record.frames[frame as usize]);
            last = Some(*game);
        }
        if failed.is_none() {
            if options.frames {
                let line = serde_json::to_string(&FrameLine::of(game, frame)).expect("serializes");
                failed = writeln!(out, "{line}").err();
            }
            if options.trace && events.locked {
                failed = write_lock(&mut out, game, frame).err();
            }
        }
        frame += 1;
    });
    if let Some(game) = &last {
        film.finish(game);
    }
    if let Some(path) = options.html {
        let name = options.record.display().to_string();
        std::fs::write(path, film.page(&name, &report))
            .map_err(|e| CliError::usage(format!("cannot write {}: {e}", path.display())))?;
    }
    let printed = if options.json {
        let json = serde_json::json!({"valid": true, "report": report});
        writeln!(out, "{json}")
    } else {
        write_summary(&mut out, &report)
    };
    failed
        .map_or(Ok(()), Err)
        .and(printed)
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failed(e, "the report"))
}

fn write_lock(out: &mut impl Write, game: &NesGame, frame: u64) -> std::io::Result<()> {
    writeln!(out, "{}", describe_lock(game, frame))?;
    for row in 0..20 {
        let line: String = (0..10)
            .map(|c| {
                let here = tetris_opt::games::nes::tables::ORIENTATIONS[game.piece as usize]
                    .iter()
                    .any(|&(dy, dx)| game.y + dy == row && game.x + dx == c);
                if here {
                    '@'
                } else if game.filled(row as usize, c as usize) {
                    '#'
                } else {
                    '.'
                }
            })
            .collect();
        writeln!(out, "{line}")?;
    }
    writeln!(out)
}

fn write_summary(out: &mut impl Write, r: &NesReport) -> std::io::Result<()> {
    let [c1, c2, c3, c4] = r.clears;
    writeln!(out, "pieces locked: {}", r.pieces)?;
    writeln!(
        out,
        "lines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4}), level {}{}",
        r.lines,
        r.level,
        match r.level_count {
            256.. => format!(" ({} counted past 255)", r.level_count),
            _ => String::new(),
        }
    )?;
    writeln!(out, "frames: {}", r.frames)?;
    match r.end {
        End::ToppedOut => writeln!(out, "end: topped out")?,
        End::RecordEnded => writeln!(out, "end: the record ended")?,
        End::Crashed => writeln!(
            out,
            "end: the last clear crashes the ROM (level {}, see docs/NES.md)",
            r.level
        )?,
    }
    if r.unplayed_frames > 0 {
        writeln!(
            out,
            "note: the last {} frames of the record come after the game ended",
            r.unplayed_frames
        )?;
    }
    if let Some(t) = r.transition {
        writeln!(
            out,
            "level 29 transition: score {} after {} lines, {} pieces, frame {}",
            t.score, t.lines, t.pieces, t.frame
        )?;
    }
    for m in &r.milestones {
        writeln!(
            out,
            "level {}: score {} after {} lines, {} pieces, frame {}",
            m.level, m.at.score, m.at.lines, m.at.pieces, m.at.frame
        )?;
    }
    writeln!(out, "ROM score (capped at 999,999): {}", r.rom_score)?;
    writeln!(out, "Score = {}", r.score)
}

/// The viewer's film of an NES replay: a frame per locked piece, taken when its lines and
/// points are counted (the rows it cleared are gone by then).
#[derive(Default)]
struct FilmMaker {
    film: tetris_opt::viewer::Film,
    /// Kind letters of the pieces locked, in order.
    kinds: String,
    /// The locked piece waiting for its spawn: kind, x, y, state.
    pending: Option<(char, i32, i32, u8)>,
    /// The buttons since the last spawn.
    buttons: Vec<u8>,
    next: u8,
}

impl FilmMaker {
    fn observe(&mut self, game: &NesGame, events: &Events, buttons: u8) {
        self.buttons.push(buttons);
        if events.locked {
            let (kind, state) = viewer_piece(game.piece);
            self.pending = Some((kind, game.x as i32, game.y as i32, state));
        }
        if events.spawned {
            self.buttons.clear();
        }
        let ended = game.outcome != Outcome::Playing;
        if game.play_state == tetris_opt::games::nes::engine::play_state::GOAL_CHECK || ended {
            if let Some((kind, x, y, state)) = self.pending.take() {
                self.kinds.push(kind);
                self.film.observe_piece(tetris_opt::viewer::FilmPiece {
                    x,
                    y,
                    state,
                    moves: tetris_opt::games::nes::record::runs_text(&self.buttons),
                    score: game.score.uncapped(),
                    lines: game.lines() as u64,
                    rows: game.rows(),
                    game_over: match game.outcome {
                        Outcome::Playing => None,
                        Outcome::ToppedOut => Some("a piece spawned into the stack"),
                        Outcome::Crashed => Some("the ROM crashes on this clear"),
                    },
                });
            }
        }
        self.next = game.next;
    }

    /// Ends the film after the last frame: a piece that locked before the record ended but
    /// whose lines were not counted yet (or that the game has not even written into the field)
    /// is shown where it locked, as the report counts it.
    fn finish(&mut self, game: &NesGame) {
        let Some((kind, x, y, state)) = self.pending.take() else {
            return;
        };
        let mut rows = game.rows();
        if lock_pending(game) {
            for &(dy, dx) in &tetris_opt::games::nes::tables::ORIENTATIONS[game.piece as usize] {
                rows[(game.y + dy) as usize] |= 1 << (game.x + dx);
            }
        }
        self.kinds.push(kind);
        self.film.observe_piece(tetris_opt::viewer::FilmPiece {
            x,
            y,
            state,
            moves: tetris_opt::games::nes::record::runs_text(&self.buttons),
            score: game.score.uncapped(),
            lines: game.lines() as u64,
            rows,
            game_over: None,
        });
        self.next = game.next;
    }

    fn page(&self, name: &str, report: &NesReport) -> String {
        let mut kinds = self.kinds.clone();
        kinds.push(viewer_piece(self.next).0);
        let file = Path::new(name)
            .file_name()
            .map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
        // Numbers as the contest's page writes them, with thousands separators.
        let grouped = tetris_opt::games::tencent::stats::grouped;
        let transition = report.transition.map_or(String::new(), |t| {
            format!(", level 29 transition {}", grouped(t.score))
        });
        tetris_opt::viewer::Film::page_for_game(
            &self.film,
            tetris_opt::viewer::GamePage {
                name,
                window_title: format!(
                    "{file} \u{2014} {} \u{2014} tetris-opt NES",
                    grouped(report.score)
                ),
                summary: format!(
                    "NES Tetris: {} pieces, {} lines, level {}, score {} (ROM {}){transition}",
                    report.pieces,
                    report.lines,
                    report.level,
                    grouped(report.score),
                    grouped(report.rom_score)
                ),
                kinds,
                offsets: viewer_offsets(),
            },
        )
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
        tetris_opt::games::nes::tables::kind_letter(orientation),
        orientation.saturating_sub(first).min(3),
    )
}

/// The orientations' cells as the viewer takes them: by kind in its order `ILJTOSZ`, then by
/// state, `(dx, dy)`.
fn viewer_offsets() -> [[[(i32, i32); 4]; 4]; 7] {
    let mut out = [[[(0, 0); 4]; 4]; 7];
    for (k, letter) in "ILJTOSZ".chars().enumerate() {
        for o in 0..19u8 {
            if tetris_opt::games::nes::tables::kind_letter(o) != letter {
                continue;
            }
            let (_, state) = viewer_piece(o);
            let cells = tetris_opt::games::nes::tables::ORIENTATIONS[o as usize]
                .map(|(dy, dx)| (dx as i32, dy as i32));
            for slot in out[k].iter_mut().skip(state as usize) {
                *slot = cells;
            }
        }
    }
    out
}
