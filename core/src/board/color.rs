//! The two sides.

use std::fmt;
use std::ops::Not;

/// A side: White moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline(always)]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Index 0 (White) or 1 (Black).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side-to-move letter of FEN: `'w'` or `'b'`.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The colour named by a FEN side-to-move letter (`'w'` or `'b'`, lower case only).
    pub const fn from_fen_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline(always)]
    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_letters() {
        assert_eq!(Color::White.fen_char(), 'w');
        assert_eq!(Color::from_fen_char('b'), Some(Color::Black));
        assert_eq!(Color::from_fen_char('B'), None);
        assert_eq!(!Color::White, Color::Black);
        assert_eq!(Color::Black.opposite(), Color::White);
    }
}
