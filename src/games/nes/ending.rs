//! Why a record of the NES search ends where it does: at the stop asked for, or where every
//! line of the beam had ended before it, and then why this one did.

/// Why a record ends where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Ending {
    /// At the stop asked for (a level, a number of lines or pieces).
    Reached,
    /// Its next piece tops out: it spawns into the stack, or has nowhere to go.
    ToppedOut,
    /// Its next piece has places to go, but every lock there counts cycles within the margin
    /// of a failing count ([`crate::games::nes::cycles`]), with the knobs too.
    OnlyCrashes,
    /// Its next piece had safe places, but the beam kept other lines, which all ended later
    /// with fewer points (or, surviving, no further).
    Outscored,
}

impl Ending {
    /// The ending in words, for the summary.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Ending::Reached => "the stop asked for was reached",
            Ending::ToppedOut => "its next piece tops out",
            Ending::OnlyCrashes => {
                "its next piece has only locks whose cycles come too near the ROM's crash"
            }
            Ending::Outscored => {
                "the beam kept other lines past it, and they all ended with fewer points"
            }
        }
    }
}
