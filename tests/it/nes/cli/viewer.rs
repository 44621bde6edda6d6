//! NES `check --html`: the viewer page says where each piece locked as `check --trace` does,
//! in the ROM's terms (its orientation id, tetriminoX/Y) and with the frame of the lock; its
//! "Next" is the ROM's one next piece, drawn in its spawn orientation, and its panel has the
//! level at each piece.

use super::{check, fixture};
use crate::common::film::{film_of, locked_at, shape_picture};
use crate::common::{attribute, chromium, dump_dom, element_text, opening_tag, Scratch};
use tetris_opt::games::nes::tables::{kind_letter, ORIENTATIONS, SPAWN_TABLE};

/// Each `--trace` lock line's orientation, x, y and frame, as the page's line.
fn traced(trace: &str) -> Vec<String> {
    trace
        .lines()
        .filter(|l| l.starts_with("piece "))
        .map(|l| {
            let after = |key: &str, end: char| {
                let rest = &l[l.find(key).unwrap_or_else(|| panic!("{key} in {l}")) + key.len()..];
                rest[..rest.find(end).unwrap()].to_string()
            };
            format!(
                "orientation {} at x={} y={} on frame {}",
                after("(orientation ", ')'),
                after("at x=", ' '),
                after(" y=", ' '),
                after("on frame ", ';')
            )
        })
        .collect()
}

#[test]
fn the_locked_at_line_is_the_traces_orientation_and_frame() {
    let scratch = Scratch::new("nes-viewer");
    let trace = check(&[&"--trace", &fixture()]);
    assert_eq!(trace.code, Some(0), "{trace:#?}");
    let lines = traced(&trace.stdout);
    assert!(lines.len() > 20, "{}", trace.stdout);
    // The ROM's ids, not a state within a kind: some lock is in an orientation past 3.
    assert!(
        lines.iter().any(|l| {
            let id: u32 = l["orientation ".len()..]
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            id > 3
        }),
        "{lines:?}"
    );
    let page = scratch.dir.join("r.html");
    let html = check(&[&"--html", &page, &fixture()]);
    assert_eq!(html.code, Some(0), "{html:#?}");
    let film = film_of(&std::fs::read_to_string(&page).unwrap());
    assert_eq!(film["pieces"].as_u64(), Some(lines.len() as u64));
    for (n, line) in lines.iter().enumerate() {
        assert_eq!(&locked_at(&film, n + 1), line, "piece {}", n + 1);
    }
    let Some(browser) = chromium("NES viewer browser test") else {
        return;
    };
    let n = lines.len() / 2;
    let dom = dump_dom(&browser, &page, &format!("#piece={n}"));
    assert_eq!(element_text(&dom, "position"), lines[n - 1]);
}

/// The ROM's spawn orientation of a kind, as the viewer's `data-shapes` reads it back.
fn spawn_shape(letter: char) -> String {
    let spawn = SPAWN_TABLE
        .into_iter()
        .find(|&o| kind_letter(o) == letter)
        .expect("every kind spawns");
    let cells: Vec<(i32, i32)> = ORIENTATIONS[spawn as usize]
        .iter()
        .map(|&(dy, dx)| (i32::from(dx), i32::from(dy)))
        .collect();
    shape_picture(&cells)
}

/// Each `--trace` lock line's kind letter and the level it locked at.
fn kinds_and_levels(trace: &str) -> Vec<(char, String)> {
    trace
        .lines()
        .filter(|l| l.starts_with("piece "))
        .map(|l| {
            let kind = l.split(' ').nth(2).unwrap().chars().next().unwrap();
            (kind, l.rsplit(' ').next().unwrap().to_string())
        })
        .collect()
}

#[test]
fn the_next_box_shows_the_roms_one_piece_and_the_panel_the_level() {
    let scratch = Scratch::new("nes-viewer-next");
    let trace = check(&[&"--trace", &fixture()]);
    assert_eq!(trace.code, Some(0), "{trace:#?}");
    let pieces = kinds_and_levels(&trace.stdout);
    // The ROM's spawn orientations, as a player sees them: J pointing down, I flat.
    assert_eq!(spawn_shape('J'), "###/..#");
    assert_eq!(spawn_shape('I'), "####");
    let page = scratch.dir.join("r.html");
    let html = check(&[&"--html", &page, &fixture()]);
    assert_eq!(html.code, Some(0), "{html:#?}");
    assert_eq!(
        film_of(&std::fs::read_to_string(&page).unwrap())["next_shown"],
        1
    );
    let Some(browser) = chromium("NES viewer browser test") else {
        return;
    };
    // A piece whose lines raise the level: the panel shows the level after them, which the
    // next piece locks at.
    let level_up = (1..pieces.len() - 1)
        .find(|&n| pieces[n].1 != pieces[n - 1].1)
        .expect("the fixture goes up a level");
    for n in [0, 1, level_up - 1, level_up, pieces.len() / 2] {
        let dom = dump_dom(&browser, &page, &format!("#piece={n}"));
        let (next, level) = &pieces[n];
        assert_eq!(element_text(&dom, "next"), next.to_string(), "piece {n}");
        let drawn = attribute(opening_tag(&dom, "next-canvas"), "data-shapes");
        assert_eq!(drawn, spawn_shape(*next), "the next piece at piece {n}");
        assert_eq!(
            &element_text(&dom, "field-level"),
            level,
            "level at piece {n}"
        );
    }
}
