//! 64-bit square sets: bit `i` is square `i` (a1 = bit 0, h8 = bit 63).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::board::square::{File, Rank, Square};

/// `1 << sq` for every square.
const SQUARE_BITS: [u64; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = 1 << sq;
        sq += 1;
    }
    table
};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The 32 light squares.
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The 32 dark squares.
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    /// Ranks 1 and 8.
    pub const BACK_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

    /// The set holding only `sq`: read from a table, one load instead of a shift by a variable
    /// count (several micro-operations on x86-64 without BMI2), on make-move's path.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq as usize])
    }

    /// All squares of `rank`.
    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank as u8))
    }

    /// All squares of `file`.
    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u8)
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq as u8) != 0
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq as u8;
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq as u8);
    }

    /// Adds or removes `sq` (exclusive or).
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq as u8;
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u8)
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u8))
    }

    /// Squares in either set.
    #[inline(always)]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// Squares in both sets.
    #[inline(always)]
    pub const fn intersect(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// Squares in `self` but not in `other`.
    #[inline(always)]
    pub const fn difference(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True when the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros()))
        }
    }

    /// The highest square, if any.
    #[inline(always)]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(63 - self.0.leading_zeros()))
        }
    }

    /// The lowest square of a set known to be non-empty (a1 for an empty set).
    #[inline(always)]
    pub(crate) const fn lowest(self) -> Square {
        Square::from_index_masked(self.0.trailing_zeros())
    }

    /// Shifts every square one rank up (towards rank 8); squares on rank 8 fall off.
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Shifts every square one rank down (towards rank 1); squares on rank 1 fall off.
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Shifts every square one file right; squares on the h-file fall off.
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !0x8080_8080_8080_8080) << 1)
    }

    /// Shifts every square one file left; squares on the a-file fall off.
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !0x0101_0101_0101_0101) >> 1)
    }

    /// The squares in index order, without allocating.
    #[inline(always)]
    pub const fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }

    /// An 8x8 diagram, rank 8 first, `1` for a member and `.` otherwise, rows ended by `\n`.
    pub fn diagram(self) -> String {
        let mut out = String::with_capacity(72);
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                out.push(if self.contains(Square::new(file, *rank)) { '1' } else { '.' });
            }
            out.push('\n');
        }
        out
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_masked(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = SquareIter;

    #[inline(always)]
    fn into_iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;

    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut bb = Bitboard::EMPTY;
        bb.set(Square::E4);
        bb.set(Square::A1);
        assert!(bb.contains(Square::E4));
        assert_eq!(bb.count(), 2);
        assert_eq!(bb.first(), Some(Square::A1));
        assert_eq!(bb.last(), Some(Square::E4));
        bb.remove(Square::A1);
        assert_eq!(bb, Bitboard::from_square(Square::E4));
        let other = Bitboard::from_square(Square::E4).with(Square::H8);
        assert_eq!(bb.union(other).count(), 2);
        assert_eq!(bb.intersect(other), bb);
        assert_eq!(other.difference(bb), Bitboard::from_square(Square::H8));
        assert!(other.more_than_one());
        assert!(!bb.more_than_one());
        assert_eq!(Bitboard::EMPTY.first(), None);
    }

    #[test]
    fn iteration_in_order() {
        let bb: Bitboard = [Square::H8, Square::C3, Square::A1].into_iter().collect();
        let squares: Vec<Square> = bb.iter().collect();
        assert_eq!(squares, vec![Square::A1, Square::C3, Square::H8]);
        assert_eq!(bb.iter().len(), 3);
    }

    #[test]
    fn masks_and_shifts() {
        assert_eq!(Bitboard::rank(Rank::Second).0, 0xff00);
        assert_eq!(Bitboard::file(File::H).count(), 8);
        assert!(Bitboard::file(File::H).contains(Square::H5));
        assert_eq!(Bitboard::from_square(Square::H4).east(), Bitboard::EMPTY);
        assert_eq!(Bitboard::from_square(Square::A4).west(), Bitboard::EMPTY);
        assert_eq!(Bitboard::from_square(Square::D4).north(), Bitboard::from_square(Square::D5));
        assert_eq!(Bitboard::LIGHT_SQUARES.count(), 32);
        for sq in Square::ALL {
            assert_eq!(Bitboard::LIGHT_SQUARES.contains(sq), sq.is_light());
        }
    }

    #[test]
    fn diagram() {
        let bb = Bitboard::from_square(Square::A8).with(Square::H1);
        let text = bb.diagram();
        assert!(text.starts_with("1.......\n"));
        assert!(text.ends_with(".......1\n"));
        assert_eq!(text.lines().count(), 8);
    }
}
