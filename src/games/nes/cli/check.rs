//! What `check --game nes` prints.

use super::GAME;
use crate::cli::registry::GameCli;
use crate::cli::report::{print_check, write_check, Checked};
use crate::cli::{read_text, verdict, write_file, CliError};
use crate::games::nes::film::Film;
use crate::games::nes::record::Record;
use crate::games::nes::replay::{describe_lock, replay_observed, Report};
use crate::games::nes::rules::{Events, Round};
use crate::kit::text::plural;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

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
    fn of(g: &Round, frame: u64) -> FrameLine {
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
pub(crate) struct CheckOptions<'a> {
    /// The games the binary plays, for a record of another.
    pub(crate) games: &'a [&'a dyn crate::cli::registry::Entry],
    pub(crate) record: &'a Path,
    pub(crate) json: bool,
    /// A line per locked piece and the board after it.
    pub(crate) trace: bool,
    /// A JSON line per frame with the ROM's variables.
    pub(crate) frames: bool,
    /// Also write the record as an FM2 movie from power-on.
    pub(crate) fm2: Option<&'a Path>,
    /// Also write the replay as an HTML page (the viewer of the contest's records).
    pub(crate) html: Option<&'a Path>,
}

/// Replays an NES record and prints its report (last line `Score = N`, the uncapped score).
pub(crate) fn check(options: &CheckOptions) -> Result<(), CliError> {
    let text = read_text(options.record, "record file")?;
    let record = match Record::parse(&text) {
        Ok(r) => r,
        Err(e) => {
            // Without a header there is no start, so no piece to show: the page would be
            // empty, and silence would leave the last run's page looking like this one's.
            for (option, path) in [("--html", options.html), ("--fm2", options.fm2)] {
                if let Some(path) = path {
                    crate::say!(
                        "note: {option} {}: not written, since the record does not parse",
                        path.display()
                    );
                }
            }
            let hint = crate::cli::another_games_hint(options.games, e.first_line.as_deref());
            let message = e.located(&crate::cli::file_name(options.record)) + &hint;
            return print_check(GAME.id(), options.json, Err(&message));
        }
    };
    if let Some(path) = options.fm2 {
        write_file("--fm2", path, crate::games::nes::fm2::movie(&record))?;
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed: Option<std::io::Error> = None;
    let mut frame = 0u64;
    let mut film = Film::default();
    let mut last: Option<Round> = None;
    let report = replay_observed(&record, |game: &Round, events: &Events| {
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
        write_file("--html", path, film.page(&name, &report))?;
    }
    let checked = Checked {
        scorecard: report.scorecard(),
        own: serde_json::json!(report),
        summary: summary(&report),
    };
    let printed = write_check(&mut out, GAME.id(), options.json, Ok(&checked));
    let printed = failed.map_or(Ok(()), Err).and(printed);
    verdict(printed.and_then(|()| out.flush()), true)
}

fn write_lock(out: &mut impl Write, game: &Round, frame: u64) -> std::io::Result<()> {
    writeln!(out, "{}", describe_lock(game, frame))?;
    for row in 0..20 {
        let line: String = (0..10)
            .map(|c| {
                let here = crate::games::nes::tables::ORIENTATIONS[game.piece as usize]
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

/// The summary of a record's report, its last line `Score = N` (uncapped).
fn summary(r: &Report) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_summary(&mut out, r);
    out
}

fn write_summary(out: &mut String, r: &Report) -> std::fmt::Result {
    use std::fmt::Write as _;
    let [c1, c2, c3, c4] = r.clears;
    writeln!(out, "pieces locked: {}", r.pieces)?;
    writeln!(
        out,
        "lines: {} (clears of 1: {c1}, 2: {c2}, 3: {c3}, 4: {c4}), level {}",
        r.lines,
        r.level_text()
    )?;
    writeln!(out, "frames: {}", r.frames)?;
    writeln!(out, "end: {}", r.scorecard().end.text)?;
    if r.unplayed_frames > 0 {
        writeln!(
            out,
            "note: the last {} of the record come after the game ended",
            plural(r.unplayed_frames, "frame")
        )?;
    }
    if let Some(t) = r.transition {
        writeln!(
            out,
            "level 29 transition: score {} after {}, {}, frame {}",
            t.score,
            plural(t.lines, "line"),
            plural(t.pieces, "piece"),
            t.frame
        )?;
    }
    for m in &r.milestones {
        writeln!(
            out,
            "level {}: score {} after {}, {}, frame {}",
            m.level,
            m.at.score,
            plural(m.at.lines, "line"),
            plural(m.at.pieces, "piece"),
            m.at.frame
        )?;
    }
    if (0..crate::games::nes::cycles::FAR).contains(&(r.margin as i32)) {
        writeln!(
            out,
            "cycle margin: {} (the smallest of the game's counts, see docs/NES.md)",
            plural(r.margin as u64, "cycle")
        )?;
    }
    writeln!(out, "ROM score (capped at 999,999): {}", r.rom_score)?;
    writeln!(out, "Score = {}", r.score)
}
