//! The browser game (`games::browser`): its rules, move generator, records and replays at the
//! library's level (`library`), `gen`, `check` and `solve` with `--game browser` (`cli`), and
//! its playable page in headless Chromium (`page`).

mod cli;
mod library;
mod page;
