//! Castling rights, stored by rook square so that Chess960 needs no other representation.

use std::fmt;

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::square::{File, Rank, Square};

/// The wing a castling move goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`).
    KingSide = 0,
    /// Towards the a-file (`O-O-O`).
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// File the king lands on (g or c), in standard chess and Chess960 alike.
    #[inline]
    pub const fn king_destination_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// File the rook lands on (f or d).
    #[inline]
    pub const fn rook_destination_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The rook's file in standard chess (h or a).
    #[inline]
    pub const fn standard_rook_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::H,
            CastlingSide::QueenSide => File::A,
        }
    }
}

/// Which castling moves are still allowed, and with which rook.
///
/// Each of the four rights (White/Black, king/queen side) is either absent or names the square
/// of its rook on the owner's back rank. [`CastlingRights::bits`] packs the presence of the
/// rights as `1` = White king side, `2` = White queen side, `4` = Black king side,
/// `8` = Black queen side.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CastlingRights {
    mask: u8,
    /// Rook squares by slot; an absent right keeps its standard corner, so that equal rights
    /// compare equal.
    rooks: [Square; 4],
}

impl Default for CastlingRights {
    fn default() -> Self {
        CastlingRights::NONE
    }
}

#[inline(always)]
const fn slot(color: Color, side: CastlingSide) -> usize {
    color as usize * 2 + side as usize
}

const CORNERS: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

impl CastlingRights {
    /// No castling rights.
    pub const NONE: CastlingRights = CastlingRights { mask: 0, rooks: CORNERS };

    /// All four rights with rooks on the corners (`KQkq`).
    pub const STANDARD: CastlingRights = CastlingRights { mask: 0b1111, rooks: CORNERS };

    /// True when no right is left.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.mask == 0
    }

    /// The rights as a bit set (see the type documentation).
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.mask
    }

    /// True when `color` may still castle to `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.mask & (1 << slot(color, side)) != 0
    }

    /// True when `color` has any castling right left.
    #[inline(always)]
    pub const fn has_color(self, color: Color) -> bool {
        self.mask & (0b11 << (2 * color as u8)) != 0
    }

    /// The file of the rook that castles to `side`, if the right exists.
    #[inline]
    pub const fn rook_file(self, color: Color, side: CastlingSide) -> Option<File> {
        match self.rook_square(color, side) {
            Some(sq) => Some(sq.file()),
            None => None,
        }
    }

    /// The square of the rook that castles to `side`, if the right exists.
    #[inline(always)]
    pub const fn rook_square(self, color: Color, side: CastlingSide) -> Option<Square> {
        if self.has(color, side) {
            Some(self.rooks[slot(color, side)])
        } else {
            None
        }
    }

    /// Grants `color` the right to castle to `side` with the rook on `rook_file`.
    pub fn insert(&mut self, color: Color, side: CastlingSide, rook_file: File) {
        self.mask |= 1 << slot(color, side);
        self.rooks[slot(color, side)] = Square::new(rook_file, back_rank(color));
    }

    /// Removes one right.
    pub fn remove(&mut self, color: Color, side: CastlingSide) {
        self.remove_bits(1 << slot(color, side));
    }

    /// Removes both rights of `color`.
    pub fn remove_color(&mut self, color: Color) {
        self.remove_bits(0b11 << (2 * color as u8));
    }

    /// Removes every right whose rook stands on `sq` (the rook moved or was captured).
    pub fn remove_rook_square(&mut self, sq: Square) {
        self.remove_bits(self.rook_bits_on(Bitboard::from_square(sq)));
    }

    /// The rights (as bits) whose rook stands on one of `squares`.
    #[inline(always)]
    pub(crate) fn rook_bits_on(self, squares: Bitboard) -> u8 {
        let mut bits = 0;
        for (i, rook) in self.rooks.iter().enumerate() {
            bits |= (squares.contains(*rook) as u8) << i;
        }
        bits & self.mask
    }

    /// Squares of the rooks that still carry a right.
    #[inline(always)]
    pub(crate) fn rook_squares(self) -> Bitboard {
        let mut squares = Bitboard::EMPTY;
        for (i, rook) in self.rooks.iter().enumerate() {
            squares |= Bitboard(Bitboard::from_square(*rook).0 & 0u64.wrapping_sub(u64::from(self.mask >> i & 1)));
        }
        squares
    }

    /// Removes the rights given as bits.
    #[inline(always)]
    pub(crate) fn remove_bits(&mut self, bits: u8) {
        self.mask &= !bits;
        for (i, rook) in self.rooks.iter_mut().enumerate() {
            if bits >> i & 1 != 0 {
                *rook = CORNERS[i];
            }
        }
    }

    /// The rights in the standard FEN form, `KQkq` order, or `-`.
    pub fn to_fen(self) -> String {
        if self.is_empty() {
            return "-".to_string();
        }
        let mut out = String::with_capacity(4);
        for (i, letter) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
            if self.mask & (1 << i) != 0 {
                out.push(letter);
            }
        }
        out
    }
}

/// The first rank of `color`: rank 1 for White, rank 8 for Black.
#[inline(always)]
pub const fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(sq) = self.rook_square(color, side) {
                    list.entry(&format_args!("{color} {side:?} rook {sq}"));
                }
            }
        }
        list.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_rights() {
        let mut rights = CastlingRights::STANDARD;
        assert_eq!(rights.to_fen(), "KQkq");
        assert_eq!(rights.bits(), 15);
        assert_eq!(rights.rook_square(Color::White, CastlingSide::QueenSide), Some(Square::A1));
        assert_eq!(rights.rook_square(Color::Black, CastlingSide::KingSide), Some(Square::H8));
        rights.remove_rook_square(Square::H1);
        assert_eq!(rights.to_fen(), "Qkq");
        rights.remove_color(Color::Black);
        assert_eq!(rights.to_fen(), "Q");
        assert!(rights.has_color(Color::White));
        rights.remove(Color::White, CastlingSide::QueenSide);
        assert!(rights.is_empty());
        assert_eq!(rights.to_fen(), "-");
        assert_eq!(rights, CastlingRights::NONE);
    }

    #[test]
    fn inner_rook_files() {
        let mut rights = CastlingRights::NONE;
        rights.insert(Color::White, CastlingSide::QueenSide, File::B);
        assert_eq!(rights.rook_square(Color::White, CastlingSide::QueenSide), Some(Square::B1));
        rights.remove_rook_square(Square::A1);
        assert!(rights.has(Color::White, CastlingSide::QueenSide));
        rights.remove_rook_square(Square::B1);
        assert!(rights.is_empty());
        assert_eq!(rights, CastlingRights::NONE);
    }
}
