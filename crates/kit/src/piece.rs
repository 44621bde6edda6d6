//! The seven piece kinds every game here plays, in the contest rules' index order (each game
//! gives them its own shapes and rotations).

use std::fmt;

/// The seven piece kinds in the rules' index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    I,
    L,
    J,
    T,
    O,
    S,
    Z,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::I,
        Kind::L,
        Kind::J,
        Kind::T,
        Kind::O,
        Kind::S,
        Kind::Z,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        match self {
            Kind::I => 'I',
            Kind::L => 'L',
            Kind::J => 'J',
            Kind::T => 'T',
            Kind::O => 'O',
            Kind::S => 'S',
            Kind::Z => 'Z',
        }
    }

    /// The kind named by a letter, in either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'I' => Kind::I,
            'L' => Kind::L,
            'J' => Kind::J,
            'T' => Kind::T,
            'O' => Kind::O,
            'S' => Kind::S,
            'Z' => Kind::Z,
            _ => return None,
        })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
