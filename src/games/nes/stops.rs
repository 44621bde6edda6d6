//! How a solved game ended against the stops it was asked for, in the summary's words: a
//! game that stopped at the lines or pieces asked for before the level asked for did what it
//! was told, and the summary says so rather than that it fell short.

use super::replay::Report;
use super::search::Stop;
use crate::kit::text::plural;

impl Stop {
    /// The summary's line about the level asked for (`--until-level`, or the level 29
    /// transition), where the game did not reach it: that it stopped first at the lines or
    /// pieces asked for, or that it ended short of it. `None` where no level was asked for or
    /// the game reached it.
    pub(crate) fn missed_level(&self, report: &Report) -> Option<String> {
        let level = self.level?;
        // The transition is the level-up to 29 the replay marks; past it the count says.
        let reached = match level {
            29 => report.transition.is_some(),
            _ => report.level_count >= level,
        };
        if reached {
            return None;
        }
        let target = match level {
            29 => "the level 29 transition".to_string(),
            _ => format!("level {level}"),
        };
        if let Some(lines) = self.lines.filter(|&lines| report.lines >= lines) {
            return Some(format!(
                "the game stopped at {}, as --lines {lines} asked, before {target}",
                plural(report.lines, "line")
            ));
        }
        if let Some(pieces) = self.pieces.filter(|&pieces| report.pieces >= pieces) {
            return Some(format!(
                "the game stopped after {}, as --pieces {pieces} asked, before {target}",
                plural(report.pieces, "piece")
            ));
        }
        Some(format!("the game did not reach {target}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nes::replay::{End, Transition};

    fn report(lines: u32, level_count: u16, pieces: u64) -> Report {
        Report {
            score: 0,
            rom_score: 0,
            lines,
            level: level_count.min(255) as u8,
            level_count,
            pieces,
            clears: [0; 4],
            frames: 0,
            end: End::RecordEnded,
            unplayed_frames: 0,
            transition: (level_count >= 29).then_some(Transition {
                frame: 0,
                score: 0,
                lines,
                pieces,
            }),
            milestones: Vec::new(),
            margin: crate::games::nes::cycles::FAR as i16,
        }
    }

    fn stop(level: Option<u16>, lines: Option<u32>, pieces: Option<u64>) -> Stop {
        Stop {
            level,
            lines,
            pieces,
        }
    }

    #[test]
    fn a_game_stopped_at_the_lines_asked_for_says_so() {
        let missed = stop(Some(20), Some(5), None).missed_level(&report(5, 19, 14));
        assert_eq!(
            missed.as_deref(),
            Some("the game stopped at 5 lines, as --lines 5 asked, before level 20")
        );
        // A double past the count stops there too.
        let missed = stop(Some(29), Some(1), None).missed_level(&report(2, 19, 9));
        assert_eq!(
            missed.as_deref(),
            Some("the game stopped at 2 lines, as --lines 1 asked, before the level 29 transition")
        );
    }

    #[test]
    fn a_game_stopped_at_the_pieces_asked_for_says_so() {
        let missed = stop(Some(20), None, Some(1)).missed_level(&report(0, 19, 1));
        assert_eq!(
            missed.as_deref(),
            Some("the game stopped after 1 piece, as --pieces 1 asked, before level 20")
        );
    }

    #[test]
    fn a_game_that_ended_short_of_every_stop_did_not_reach_the_level() {
        let missed = stop(Some(20), Some(50), None).missed_level(&report(7, 19, 30));
        assert_eq!(missed.as_deref(), Some("the game did not reach level 20"));
        let missed = stop(Some(29), None, None).missed_level(&report(120, 28, 300));
        assert_eq!(
            missed.as_deref(),
            Some("the game did not reach the level 29 transition")
        );
    }

    #[test]
    fn a_game_that_reached_the_level_or_had_none_asked_for_says_nothing() {
        assert_eq!(
            stop(Some(20), Some(5), None).missed_level(&report(10, 20, 25)),
            None
        );
        assert_eq!(
            stop(Some(29), None, None).missed_level(&report(230, 29, 600)),
            None
        );
        assert_eq!(
            stop(None, Some(5), None).missed_level(&report(5, 19, 14)),
            None
        );
    }
}
