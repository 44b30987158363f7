//! Files, ranks and squares (0 = a1 .. 63 = h8, `rank * 8 + file`).

use std::fmt;
use std::str::FromStr;

/// A file (column), `A` = 0 .. `H` = 7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank (row), `First` = 0 .. `Eighth` = 7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    /// All files, a to h.
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// The file with this index, masked to 0..8.
    #[inline]
    pub const fn new(index: u8) -> File {
        // SAFETY: `File` is `repr(u8)` with the discriminants 0..8, and the mask keeps the
        // value in that range.
        unsafe { std::mem::transmute::<u8, File>(index & 7) }
    }

    /// The file named by a lower-case letter `a`..`h`.
    #[inline]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new(c as u8 - b'a')),
            _ => None,
        }
    }

    /// Index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter of this file.
    #[inline]
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }
}

impl Rank {
    /// All ranks, first to eighth.
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    /// The rank with this index, masked to 0..8.
    #[inline]
    pub const fn new(index: u8) -> Rank {
        // SAFETY: `Rank` is `repr(u8)` with the discriminants 0..8, and the mask keeps the
        // value in that range.
        unsafe { std::mem::transmute::<u8, Rank>(index & 7) }
    }

    /// The rank named by a digit `1`..`8`.
    #[inline]
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new(c as u8 - b'1')),
            _ => None,
        }
    }

    /// Index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The digit of this rank.
    #[inline]
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The same rank seen from the other side of the board.
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank::new(7 - self as u8)
    }
}

macro_rules! squares {
    ($($name:ident),* $(,)?) => {
        /// A square of the board; the discriminant is its index `rank * 8 + file`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        #[rustfmt::skip]
        pub enum Square { $($name),* }

        impl Square {
            /// All 64 squares in index order, a1 first, h8 last.
            pub const ALL: [Square; 64] = [$(Square::$name),*];
        }
    };
}

#[rustfmt::skip]
squares!(
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
);

/// Error returned when a square name is not a file letter `a`-`h` followed by a digit `1`-`8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid square name (expected a file a-h and a rank 1-8, such as e4)")]
pub struct ParseSquareError;

impl Square {
    /// The square on `file` and `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square::from_index_masked(rank as u32 * 8 + file as u32)
    }

    /// The square with this index, or `None` when `index >= 64`.
    #[inline]
    pub const fn from_index(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square::from_index_masked(index))
        } else {
            None
        }
    }

    /// The square with index `index & 63`; used where the index is known to be in range.
    #[inline(always)]
    pub(crate) const fn from_index_masked(index: u32) -> Square {
        // SAFETY: `Square` is `repr(u8)` with the discriminants 0..64, and the mask keeps the
        // value in that range.
        unsafe { std::mem::transmute::<u8, Square>((index & 63) as u8) }
    }

    /// Parses a two-byte square name such as `b"e4"`.
    pub const fn from_ascii(name: &[u8]) -> Result<Square, ParseSquareError> {
        if name.len() != 2 {
            return Err(ParseSquareError);
        }
        match (File::from_char(name[0] as char), Rank::from_char(name[1] as char)) {
            (Some(file), Some(rank)) => Ok(Square::new(file, rank)),
            _ => Err(ParseSquareError),
        }
    }

    /// Index 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of this square.
    #[inline]
    pub const fn file(self) -> File {
        File::new(self as u8 & 7)
    }

    /// The rank of this square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new(self as u8 >> 3)
    }

    /// The square `files` to the right and `ranks` up from this one, if it is on the board.
    #[inline]
    pub const fn offset(self, files: i32, ranks: i32) -> Option<Square> {
        let file = self.file() as i32 + files;
        let rank = self.rank() as i32 + ranks;
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square::from_index_masked((rank * 8 + file) as u32))
        } else {
            None
        }
    }

    /// True for light squares (h1 is light, a1 is dark).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file() as u8 + self.rank() as u8) % 2 == 1
    }

    /// The square mirrored vertically (e2 <-> e7).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::from_index_masked(self as u32 ^ 56)
    }

    /// The two-character name, e.g. `"e4"`.
    pub fn name(self) -> [u8; 2] {
        [self.file().to_char() as u8, self.rank().to_char() as u8]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_and_names() {
        assert_eq!(Square::A1.index(), 0);
        assert_eq!(Square::H8.index(), 63);
        assert_eq!(Square::E4.index(), 28);
        assert_eq!(Square::new(File::E, Rank::Fourth), Square::E4);
        assert_eq!(Square::E4.to_string(), "e4");
        assert_eq!("h7".parse::<Square>(), Ok(Square::H7));
        for bad in ["", "e", "e9", "i1", "E4", "e44", "4e"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad}");
        }
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_index(sq.index() as u32), Some(sq));
        }
        assert_eq!(Square::from_index(64), None);
    }

    #[test]
    fn geometry() {
        assert_eq!(Square::E4.file(), File::E);
        assert_eq!(Square::E4.rank(), Rank::Fourth);
        assert_eq!(Square::E4.offset(1, 2), Some(Square::F6));
        assert_eq!(Square::H1.offset(1, 0), None);
        assert_eq!(Square::A1.offset(0, -1), None);
        assert!(!Square::A1.is_light());
        assert!(Square::H1.is_light());
        assert!(Square::D1.is_light());
        assert!(!Square::D8.is_light());
        assert_eq!(Square::E2.flip_vertical(), Square::E7);
        assert_eq!(Rank::Second.flip(), Rank::Seventh);
    }
}
