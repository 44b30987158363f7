//! Polyglot opening books: reading (into memory, binary search), choosing a move, building a
//! book from PGN games, merging two books.
//!
//! ```
//! use chesscore_core::polyglot::{Book, BookBuilder, BuildOptions, Choice};
//! use chesscore_core::pgn::PgnReader;
//! use chesscore_core::{Position, Uci};
//!
//! let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"1/2-1/2\"]\n\n1. e4 c5 1/2-1/2\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";
//! let mut builder = BookBuilder::new(BuildOptions::default());
//! builder.add_pgn(&mut PgnReader::from_bytes(&pgn[..]))?;
//! let book: Book = builder.build()?;
//! let start = Position::startpos();
//! let moves: Vec<(String, u16)> = book.lookup(&start).map(|e| (Uci::from_move(&start, e.mv).to_string(), e.weight)).collect();
//! assert_eq!(moves, [("e2e4".to_string(), 3)]); // 2 for the win, 1 for the draw; d4 lost: weight 0
//! assert_eq!(book.pick(&start, Choice::Best, 0).map(|e| e.weight), Some(3));
//! # Ok::<(), chesscore_core::polyglot::BookError>(())
//! ```
//!
//! # The format
//! A book is a sequence of 16-byte entries sorted by key, every number big-endian: the
//! position's Polyglot key (`u64`, [`Position::zobrist`]), a move (`u16`), a weight (`u16`) and
//! a learn value (`u32`, kept but not interpreted). The move's bits 0-5 are the destination
//! square, 6-11 the origin (0 = a1 .. 63 = h8), 12-14 the promotion (0 none, 1 knight, 2 bishop,
//! 3 rook, 4 queen). Castling is stored as the king taking its own rook (`e1h1`, `e1a1`, `e8h8`,
//! `e8a8`), which is how [`Move`] encodes it too; [`BookMove::to_move`] finds the legal move an
//! entry names, and [`Uci::from_move`](crate::Uci::from_move) writes it in the position's convention (`e1g1` in
//! standard chess, `e1h1` in Chess960).

mod build;
mod merge;
mod reader;
mod tally;

use std::fmt;

use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::square::Square;
use crate::position::Position;

pub use build::{BookBuilder, BuildOptions, BuildSummary};
pub use merge::merge;
pub use reader::{Book, Lookup, LookupOptions};

/// Bytes per book entry.
pub const ENTRY_SIZE: usize = 16;

/// Why a book could not be read, built or merged.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BookError {
    /// The file could not be opened or read (or a PGN file, while building). Its
    /// message and source are the I/O error's.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The path names a directory, a FIFO, a device or another thing that is not a regular file.
    #[error("not a regular file (a directory, a FIFO or a device?)")]
    NotAFile,
    /// The book has no entry at all.
    #[error("the book is empty (0 bytes)")]
    Empty,
    /// The length is not a multiple of [`ENTRY_SIZE`]: the last entry is cut short.
    #[error("the length, {len} bytes, is not a multiple of 16: entry {} (at byte offset {}) is cut short", len / 16, len / 16 * 16)]
    Length {
        /// The length in bytes.
        len: u64,
    },
    /// An entry's key is smaller than the one before it.
    #[error("entry {entry} (at byte offset {}) has key {key:016x}, smaller than key {previous:016x} of entry {}: the entries are not sorted by key", entry * 16, entry - 1)]
    Unsorted {
        /// The entry out of order, from 0.
        entry: u64,
        /// Its key.
        key: u64,
        /// The key of the entry before it.
        previous: u64,
    },
    /// Memory ran out.
    #[error("out of memory")]
    OutOfMemory,
    /// Reading a PGN input failed (I/O), while building a book.
    #[error("{0}")]
    Pgn(crate::pgn::PgnError),
}

impl From<std::collections::TryReserveError> for BookError {
    fn from(_: std::collections::TryReserveError) -> BookError {
        BookError::OutOfMemory
    }
}

/// A move as a book stores it (see the [module documentation](self) for the bits). Any 16 bits
/// are a `BookMove`; only [`BookMove::to_move`] says whether one names a legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct BookMove(u16);

impl BookMove {
    /// The move with these bits.
    pub const fn from_raw(raw: u16) -> BookMove {
        BookMove(raw)
    }

    /// The 16 bits.
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// How a book stores `mv`: castling as the king taking its own rook, as [`Move`] does.
    pub const fn from_move(mv: Move) -> BookMove {
        let promotion = match mv.promotion() {
            Some(PieceKind::Knight) => 1,
            Some(PieceKind::Bishop) => 2,
            Some(PieceKind::Rook) => 3,
            Some(PieceKind::Queen) => 4,
            _ => 0,
        };
        BookMove(mv.to() as u16 | (mv.from() as u16) << 6 | promotion << 12)
    }

    /// The origin square (bits 6-11).
    pub const fn from_square(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u32)
    }

    /// The destination square (bits 0-5); the rook's square for castling.
    pub const fn to_square(self) -> Square {
        Square::from_index_masked(self.0 as u32)
    }

    /// The promotion field (bits 12-14): 0 none, 1 knight, 2 bishop, 3 rook, 4 queen; 5 to 7
    /// name no piece.
    pub const fn promotion_code(self) -> u8 {
        ((self.0 >> 12) & 7) as u8
    }

    /// The piece a promotion turns into (`None` for codes 0 and 5 to 7).
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.promotion_code() {
            1 => Some(PieceKind::Knight),
            2 => Some(PieceKind::Bishop),
            3 => Some(PieceKind::Rook),
            4 => Some(PieceKind::Queen),
            _ => None,
        }
    }

    /// The legal move of `pos` this names, if any. Castling is accepted as the king taking its
    /// own rook and, in standard chess, also as the king's two-square move (`e1g1`), which some
    /// books store. A promotion code of 5 to 7 or an origin equal to the destination (a drop,
    /// in variant books) names no move.
    pub fn to_move(self, pos: &Position) -> Option<Move> {
        self.find_in(&pos.legal_moves(), pos.is_chess960())
    }

    /// [`BookMove::to_move`] among the legal moves of a position, given once for all its
    /// entries.
    fn find_in(self, legal: &[Move], chess960: bool) -> Option<Move> {
        let (from, to) = (self.from_square(), self.to_square());
        let promotion = match self.promotion_code() {
            0 => None,
            1..=4 => self.promotion(),
            _ => return None,
        };
        legal.iter().copied().find(|mv| {
            mv.from() == from
                && mv.promotion() == promotion
                && (mv.to() == to || (!chess960 && mv.is_castling() && mv.king_destination() == to))
        })
    }
}

impl From<Move> for BookMove {
    fn from(mv: Move) -> BookMove {
        BookMove::from_move(mv)
    }
}

impl fmt::Display for BookMove {
    /// The move as stored, in UCI letters: `e2e4`, `e7e8q`, castling as `e1h1`; a promotion
    /// code that names no piece (5 to 7) is written as its digit (`e7e85`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from_square(), self.to_square())?;
        match (self.promotion(), self.promotion_code()) {
            (Some(kind), _) => write!(f, "{}", kind.char_lower()),
            (None, 0) => Ok(()),
            (None, code) => write!(f, "{code}"),
        }
    }
}

/// One entry of a book, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RawEntry {
    /// The Polyglot key of the position.
    pub key: u64,
    /// The move, as stored.
    pub mv: BookMove,
    /// The weight: how good or how often played the move is, relative to the position's others.
    pub weight: u16,
    /// The learn value (engines' own use; kept, not interpreted).
    pub learn: u32,
}

impl RawEntry {
    /// The entry of 16 stored bytes.
    pub fn from_bytes(bytes: [u8; ENTRY_SIZE]) -> RawEntry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3] = bytes;
        RawEntry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            mv: BookMove(u16::from_be_bytes([m0, m1])),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The 16 bytes the entry is stored as.
    pub fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let mut bytes = [0; ENTRY_SIZE];
        bytes[..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.mv.0.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }
}

impl fmt::Display for RawEntry {
    /// `key(16 hex digits) move weight learn`, the move as stored (see [`BookMove`]'s `Display`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x} {} {} {}", self.key, self.mv, self.weight, self.learn)
    }
}

/// A book entry of a position: its legal move, weight and learn value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BookEntry {
    /// The legal move the entry names.
    pub mv: Move,
    /// Its weight.
    pub weight: u16,
    /// Its learn value.
    pub learn: u32,
}

/// How [`Book::pick`] chooses among a position's entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Choice {
    /// At random, each entry with a chance proportional to its weight (none when every weight is
    /// 0).
    #[default]
    Weighted,
    /// At random, every entry alike.
    Uniform,
    /// The highest weight; the first in file order among equal weights.
    Best,
}

/// A 64-bit number made from `seed` (SplitMix64), for the `random` of [`Book::pick`]: nearby
/// seeds (0, 1, 2, ...) give unrelated numbers. The command line's `--seed N` uses it.
pub const fn random_from_seed(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `random` scaled to `0..n` (the high half of the product, which a uniform `random` spreads
/// evenly).
fn below(random: u64, n: u64) -> u64 {
    ((random as u128 * n as u128) >> 64) as u64
}

/// The entry `choice` picks among `entries`, in file order; `random` is any 64-bit number the
/// caller drew (the same number gives the same entry).
pub(crate) fn choose(
    entries: impl Iterator<Item = BookEntry> + Clone,
    choice: Choice,
    random: u64,
) -> Option<BookEntry> {
    match choice {
        Choice::Best => entries.reduce(|best, e| if e.weight > best.weight { e } else { best }),
        Choice::Uniform => {
            let n = entries.clone().count() as u64;
            entries.clone().nth(below(random, n) as usize)
        }
        Choice::Weighted => {
            let total: u64 = entries.clone().map(|e| u64::from(e.weight)).sum();
            let mut target = below(random, total);
            entries.filter(|e| e.weight > 0).find(|e| {
                let weight = u64::from(e.weight);
                if target < weight {
                    return true;
                }
                target -= weight;
                false
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves::MoveKind;

    #[test]
    fn moves_encode_as_polyglot_does() {
        let e2e4 = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
        assert_eq!(BookMove::from_move(e2e4).raw(), 28 | 12 << 6);
        let promotion = Move::new(Square::A7, Square::B8, MoveKind::PromoteKnight);
        assert_eq!(BookMove::from_move(promotion).to_string(), "a7b8n");
        let castle = Move::new(Square::E1, Square::H1, MoveKind::Castling);
        assert_eq!(BookMove::from_move(castle).to_string(), "e1h1");
        assert_eq!(BookMove::from_raw(0x5000 | 52 << 6 | 60).to_string(), "e7e85");
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(BookMove::from_move(castle).to_move(&pos), Some(castle));
        // The king's two-square move stands for castling in standard chess.
        assert_eq!(BookMove::from_raw(6 | 4 << 6).to_move(&pos), Some(castle));
        assert_eq!(BookMove::from_raw(4 | 4 << 6).to_move(&pos), None);
    }

    #[test]
    fn entries_round_trip_big_endian() {
        let entry = RawEntry { key: 0x463b_9618_1691_fc9c, mv: BookMove(0x031c), weight: 0x0102, learn: 0x0a0b_0c0d };
        let bytes = entry.to_bytes();
        assert_eq!(bytes, [0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 3, 0x1c, 1, 2, 10, 11, 12, 13]);
        assert_eq!(RawEntry::from_bytes(bytes), entry);
        assert_eq!(entry.to_string(), "463b96181691fc9c e2e4 258 168496141");
    }

    #[test]
    fn choices() {
        let mv = |i: u16| Move::from_bits(i << 6 | 63);
        let entries = [(1, 3), (2, 0), (3, 5), (4, 5)].map(|(i, weight)| BookEntry { mv: mv(i), weight, learn: 0 });
        let pick = |choice, random| choose(entries.iter().copied(), choice, random).map(|e| e.mv);
        assert_eq!(pick(Choice::Best, 0), Some(mv(3)));
        // Weights 3, 0, 5, 5 out of 13: the numbers below 3/13 of the range pick the first.
        assert_eq!(pick(Choice::Weighted, 0), Some(mv(1)));
        assert_eq!(pick(Choice::Weighted, u64::MAX / 13 * 3 - 1), Some(mv(1)));
        assert_eq!(pick(Choice::Weighted, u64::MAX / 13 * 3 + 1), Some(mv(3)));
        assert_eq!(pick(Choice::Weighted, u64::MAX), Some(mv(4)));
        assert_eq!(pick(Choice::Uniform, u64::MAX / 4 + 1), Some(mv(2)));
        assert_eq!(choose(std::iter::empty(), Choice::Best, 0), None);
        let zero = [BookEntry { mv: mv(1), weight: 0, learn: 0 }];
        assert_eq!(choose(zero.iter().copied(), Choice::Weighted, 7), None);
        assert_ne!(random_from_seed(0), random_from_seed(1));
    }
}
