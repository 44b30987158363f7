//! Piece kinds and coloured pieces.

use std::fmt;

use crate::board::color::Color;

/// The kind of a piece, regardless of its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceKind {
    /// All kinds, pawn to king.
    pub const ALL: [PieceKind; 6] =
        [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen, PieceKind::King];

    /// Index 0 (pawn) .. 5 (king).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index, or `None` when `index >= 6`.
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < 6 {
            Some(PieceKind::ALL[index])
        } else {
            None
        }
    }

    /// The lower-case letter used by FEN and UCI promotions: `p n b r q k`.
    pub const fn char_lower(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// The upper-case letter used by SAN: `P N B R Q K`.
    pub const fn char_upper(self) -> char {
        self.char_lower().to_ascii_uppercase()
    }

    /// The kind named by a letter of either case.
    pub const fn from_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceKind::Pawn),
            'n' => Some(PieceKind::Knight),
            'b' => Some(PieceKind::Bishop),
            'r' => Some(PieceKind::Rook),
            'q' => Some(PieceKind::Queen),
            'k' => Some(PieceKind::King),
            _ => None,
        }
    }
}

/// A piece of a given colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn fen_char(self) -> char {
        match self.color {
            Color::White => self.kind.char_upper(),
            Color::Black => self.kind.char_lower(),
        }
    }

    /// The piece named by a FEN letter (`PNBRQK` White, `pnbrqk` Black).
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        match PieceKind::from_char(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }

    /// The Unicode chess symbol (U+2654..U+265F).
    pub const fn unicode_symbol(self) -> char {
        let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
        let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
        match self.color {
            Color::White => white[self.kind as usize],
            Color::Black => black[self.kind as usize],
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_letters_both_ways() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                assert_eq!(Piece::from_fen_char(piece.fen_char()), Some(piece));
            }
        }
        assert_eq!(Piece::from_fen_char('N'), Some(Piece::new(Color::White, PieceKind::Knight)));
        assert_eq!(Piece::from_fen_char('q'), Some(Piece::new(Color::Black, PieceKind::Queen)));
        assert_eq!(Piece::from_fen_char('x'), None);
        assert_eq!(Piece::from_fen_char('1'), None);
        assert_eq!(Piece::new(Color::Black, PieceKind::King).unicode_symbol(), '♚');
    }
}
