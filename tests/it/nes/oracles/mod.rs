//! The NES oracles: emulators of the real game play NES records and, after every piece, what
//! they read from the game's RAM must equal the plain engine's. `nes_py` plays the committed
//! records on the ROM under nes-py; `fceux` and `tetanes` play the FM2 movies `check --fm2`
//! writes from power-on, sharing `movies`.

mod fceux;
mod movies;
mod nes_py;
mod tetanes;
