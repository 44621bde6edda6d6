//! The NES oracles: emulators of the real game play NES records and, after every piece, what
//! they read from the game's RAM must equal the plain engine's. `nes_py` plays the committed
//! records on the ROM under nes-py; `fceux`, `tetanes` and `nestopia` play the FM2 movies
//! `check --fm2` writes from power-on, sharing `movies`; `nestopia` also holds the picture's
//! playfield to the RAM's.

mod fceux;
mod movies;
mod nes_py;
mod nestopia;
mod tetanes;
