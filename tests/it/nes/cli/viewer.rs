//! NES `check --html`: the viewer page says where each piece locked as `check --trace` does,
//! in the ROM's terms (its orientation id, tetriminoX/Y) and with the frame of the lock.

use super::{check, fixture};
use crate::common::film::{film_of, locked_at};
use crate::common::{chromium, dump_dom, element_text, Scratch};

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
