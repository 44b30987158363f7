//! Moves as 16-bit values, and a fixed-capacity move list.
//!
//! Bit layout of [`Move`] (the C ABI's `chess_move` is the same `uint16_t`):
//!
//! | bits  | meaning |
//! |-------|---------|
//! | 0-5   | origin square (0 = a1 .. 63 = h8) |
//! | 6-11  | destination square |
//! | 12-14 | [`MoveKind`]: 0 normal, 1 double push, 2 en passant, 3 castling, 4-7 promotion to knight, bishop, rook, queen |
//! | 15    | 0 for chess moves; 1 for the variants' two extra moves, with a [`PieceKind`] index in bits 12-14 |
//!
//! With bit 15 set, a move whose origin equals its destination drops the piece of bits 12-14
//! (pawn to queen) there, as crazyhouse plays it; one with distinct squares and the king's
//! index is a pawn promoting to a king, as antichess plays it. Chess positions never generate
//! nor accept either.
//! The value 0 (a1 to a1, normal) is never a legal move and stands for "no move" (the UCI null
//! move `0000`). Castling is encoded as the king capturing its own rook: the origin is the
//! king's square and the destination is the rook's square, in standard chess and Chess960 alike.

use std::fmt;
use std::ops::{Deref, Index};

use arrayvec::ArrayVec;

use crate::board::castling::CastlingSide;
use crate::board::piece::PieceKind;
use crate::board::square::{File, Square};

/// What kind of move a [`Move`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A quiet move or an ordinary capture.
    Normal = 0,
    /// A pawn advancing two squares.
    DoublePush = 1,
    /// A pawn capturing en passant.
    EnPassant = 2,
    /// Castling, encoded as the king taking its own rook.
    Castling = 3,
    /// Promotion to a knight (with or without capture).
    PromoteKnight = 4,
    /// Promotion to a bishop.
    PromoteBishop = 5,
    /// Promotion to a rook.
    PromoteRook = 6,
    /// Promotion to a queen.
    PromoteQueen = 7,
}

impl MoveKind {
    /// The promotion kind for `piece` (knight, bishop, rook or queen).
    pub const fn promotion(piece: PieceKind) -> Option<MoveKind> {
        match piece {
            PieceKind::Knight => Some(MoveKind::PromoteKnight),
            PieceKind::Bishop => Some(MoveKind::PromoteBishop),
            PieceKind::Rook => Some(MoveKind::PromoteRook),
            PieceKind::Queen => Some(MoveKind::PromoteQueen),
            _ => None,
        }
    }
}

/// A move in 16 bits; see the module documentation for the layout. Moves order by their
/// encoding.
///
/// A move holds no notation: [`Uci`](crate::Uci) and [`San`](crate::San) write and read it in the
/// context of a position.
///
/// # Examples
///
/// ```
/// use chesscore_core::{Move, MoveKind, PieceKind, Position, Square, Uci};
///
/// let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K2R w K - 0 1")?;
/// let promotion = Move::new(Square::A7, Square::A8, MoveKind::PromoteQueen);
/// assert!(pos.is_legal(promotion));
/// assert_eq!((promotion.from(), promotion.to(), promotion.promotion()), (Square::A7, Square::A8, Some(PieceKind::Queen)));
/// assert_eq!(Move::from_raw(promotion.raw()), Some(promotion));
///
/// // Castling is the king taking its own rook; UCI writes it as the position's mode wants.
/// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castling);
/// assert!(pos.is_legal(castle));
/// assert_eq!(castle.king_destination(), Square::G1);
/// assert_eq!(Uci::from_move(&pos, castle).to_string(), "e1g1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Move(u16);

impl Move {
    /// "No move" (also the UCI null move `0000`).
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to` of the given kind.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from as u16 | (to as u16) << 6 | (kind as u16) << 12)
    }

    /// A drop of `piece` (pawn to queen) on `to`, as crazyhouse plays it; `None` for a king.
    pub const fn drop(piece: PieceKind, to: Square) -> Option<Move> {
        if matches!(piece, PieceKind::King) {
            return None;
        }
        Some(Move(0x8000 | (piece as u16) << 12 | (to as u16) << 6 | to as u16))
    }

    /// A pawn's move from `from` to `to` promoting to a king, as antichess plays it.
    pub const fn promote_to_king(from: Square, to: Square) -> Move {
        Move(0x8000 | (PieceKind::King as u16) << 12 | (to as u16) << 6 | from as u16)
    }

    /// The move with this bit pattern, or `None` when it encodes no move: the origin equals
    /// the destination (except for [`Move::NULL`] and drops), or bit 15 is set with bits 12-14
    /// naming neither a drop of a pawn to a queen nor a promotion to a king.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let mv = Move(raw);
        let same_square = mv.from() as u8 == mv.to() as u8;
        let valid = if raw & 0x8000 == 0 {
            raw == 0 || !same_square
        } else {
            let piece = (raw >> 12) & 7;
            (same_square && piece <= PieceKind::Queen as u16) || (!same_square && piece == PieceKind::King as u16)
        };
        if valid {
            Some(mv)
        } else {
            None
        }
    }

    /// Any 16 bits as a move, unchecked (a move is only bits: nothing unsafe comes of it). For
    /// moves from outside, such as the C API's, which
    /// [`Position::can_play_unchecked`](crate::Position::can_play_unchecked) then checks whole.
    #[inline(always)]
    pub const fn from_bits(raw: u16) -> Move {
        Move(raw)
    }

    /// The 16-bit encoding.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The origin square (for castling: the king's square).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked(self.0 as u32)
    }

    /// The destination square (for castling: the rook's square).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u32)
    }

    /// The kind of move. For a drop or a king promotion (bit 15 set) it is the bits 12-14 read
    /// as a kind and means nothing: ask [`Move::is_variant_move`] first where those can occur.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        // SAFETY: `MoveKind` is `repr(u8)` with the discriminants 0..8, and the mask keeps the
        // value in that range.
        unsafe { std::mem::transmute::<u8, MoveKind>(((self.0 >> 12) & 7) as u8) }
    }

    /// True for [`Move::NULL`].
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// True for the variants' extra moves: a drop or a promotion to a king (bit 15 set).
    #[inline(always)]
    pub const fn is_variant_move(self) -> bool {
        self.0 & 0x8000 != 0
    }

    /// The piece a drop puts on [`Move::to`], or `None` when the move is no drop.
    #[inline]
    pub const fn drop_piece(self) -> Option<PieceKind> {
        if self.is_variant_move() && self.from() as u8 == self.to() as u8 {
            Some(PieceKind::ALL[((self.0 >> 12) & 7) as usize])
        } else {
            None
        }
    }

    /// True for a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.drop_piece().is_some()
    }

    /// The piece a promotion turns into (a king in antichess).
    #[inline]
    pub const fn promotion(self) -> Option<PieceKind> {
        if self.is_variant_move() {
            return if self.is_drop() { None } else { Some(PieceKind::King) };
        }
        match self.kind() {
            MoveKind::PromoteKnight => Some(PieceKind::Knight),
            MoveKind::PromoteBishop => Some(PieceKind::Bishop),
            MoveKind::PromoteRook => Some(PieceKind::Rook),
            MoveKind::PromoteQueen => Some(PieceKind::Queen),
            _ => None,
        }
    }

    /// True for castling.
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        // All four bits: a drop's piece bits may read as a kind.
        self.0 >> 12 == MoveKind::Castling as u16
    }

    /// True for an en passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == MoveKind::EnPassant as u16
    }

    /// For castling, the wing it goes to (the rook's side of the king).
    pub const fn castling_side(self) -> Option<CastlingSide> {
        if !self.is_castling() {
            None
        } else if (self.to() as u8) > (self.from() as u8) {
            Some(CastlingSide::KingSide)
        } else {
            Some(CastlingSide::QueenSide)
        }
    }

    /// Where the king lands: the destination for every move but castling, where it is the g- or
    /// c-file square of the back rank.
    pub const fn king_destination(self) -> Square {
        match self.castling_side() {
            Some(side) => Square::new(side.king_destination_file(), self.from().rank()),
            None => self.to(),
        }
    }

    /// The file of the destination (used by SAN for pawn captures).
    #[inline]
    pub const fn to_file(self) -> File {
        self.to().file()
    }
}

impl fmt::Debug for Move {
    /// The squares as encoded (castling as king-takes-rook) and the kind: `Move(e1h1 Castling)`;
    /// a variant move names its piece instead: `Move(N@f3 Knight)`, `Move(b7b8k King)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.drop_piece().or(if self.is_variant_move() { self.promotion() } else { None }) {
            Some(piece) => write!(f, "Move({} {piece:?})", self.coordinates(true)),
            None => write!(f, "Move({} {:?})", self.coordinates(true), self.kind()),
        }
    }
}

impl Move {
    /// The move's squares and promotion as UCI names them, castling written as the king taking
    /// its rook or, when `king_takes_rook` is false, as the king's two-square move.
    #[inline]
    pub(crate) fn coordinates(self, king_takes_rook: bool) -> Coordinates {
        if self.is_null() {
            return Coordinates { squares: None, promotion: None, drop: None };
        }
        if let Some(piece) = self.drop_piece() {
            return Coordinates { squares: Some((self.to(), self.to())), promotion: None, drop: Some(piece) };
        }
        let to = if king_takes_rook { self.to() } else { self.king_destination() };
        Coordinates { squares: Some((self.from(), to)), promotion: self.promotion(), drop: None }
    }
}

/// A move in UCI's coordinates (`e2e4`, `e7e8q`, `0000` without squares, `N@f3` for a drop). [`Uci`](crate::Uci)
/// displays through it; it lives with the move so that a move's `Debug` and
/// [`IllegalMoveError`](crate::IllegalMoveError) name a move without the notation layer above.
#[derive(Clone, Copy)]
pub(crate) struct Coordinates {
    /// Origin and destination; `None` for the null move.
    pub(crate) squares: Option<(Square, Square)>,
    /// The promotion piece.
    pub(crate) promotion: Option<PieceKind>,
    /// The piece dropped on the destination (the origin is the destination then).
    pub(crate) drop: Option<PieceKind>,
}

impl fmt::Display for Coordinates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.squares {
            None => f.write_str("0000"),
            Some((_, to)) if self.drop.is_some() => write!(f, "{}@{to}", self.drop.map_or('?', |p| p.char_upper())),
            Some((from, to)) => {
                write!(f, "{from}{to}")?;
                match self.promotion {
                    Some(kind) => write!(f, "{}", kind.char_lower()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Capacity of a [`MoveList`]: more than the most legal moves any position has (218).
pub const MAX_MOVES: usize = 256;

/// A list of moves stored inline (no allocation), filled by move generation. Creating one
/// writes nothing to its 256 slots: only the moves pushed are ever initialised.
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList { moves: ArrayVec::new_const() }
    }

    /// Appends a move; a move beyond the capacity is dropped (no legal position reaches it).
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        let _ = self.moves.try_push(mv);
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when there is no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Keeps only the moves for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        self.moves.retain(|mv| keep(*mv));
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline(always)]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl Index<usize> for MoveList {
    type Output = Move;

    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = arrayvec::IntoIter<Move, MAX_MOVES>;

    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding() {
        let mv = Move::new(Square::E7, Square::E8, MoveKind::PromoteQueen);
        assert_eq!(mv.from(), Square::E7);
        assert_eq!(mv.to(), Square::E8);
        assert_eq!(mv.promotion(), Some(PieceKind::Queen));
        assert_eq!(mv.raw(), 52 | 60 << 6 | 7 << 12);
        assert_eq!(Move::from_raw(mv.raw()), Some(mv));
        assert_eq!(format!("{mv:?}"), "Move(e7e8q PromoteQueen)");
        assert_eq!(format!("{:?}", Move::NULL), "Move(0000 Normal)");
        assert!(Move::from_raw(0x8000 | 12 | 28 << 6).is_none());
        assert!(Move::from_raw(12 | 12 << 6).is_none());
        assert!(Move::from_raw(0x8000 | 5 << 12 | 12 | 12 << 6).is_none());
        assert!(Move::from_raw(0x8000 | 4 << 12 | 12 | 20 << 6).is_none());
        let drop = Move::drop(PieceKind::Knight, Square::F3).unwrap();
        assert_eq!((drop.drop_piece(), drop.to(), drop.promotion()), (Some(PieceKind::Knight), Square::F3, None));
        assert_eq!(Move::from_raw(drop.raw()), Some(drop));
        assert_eq!(format!("{drop:?}"), "Move(N@f3 Knight)");
        assert_eq!(Move::drop(PieceKind::King, Square::F3), None);
        let bishop = Move::drop(PieceKind::Bishop, Square::G3).unwrap();
        let rook = Move::drop(PieceKind::Rook, Square::G3).unwrap();
        assert!(!bishop.is_en_passant() && !rook.is_castling() && rook.castling_side().is_none());
        let king = Move::promote_to_king(Square::B7, Square::B8);
        assert_eq!((king.promotion(), king.is_drop(), king.from()), (Some(PieceKind::King), false, Square::B7));
        assert_eq!(Move::from_raw(king.raw()), Some(king));
        assert_eq!(format!("{king:?}"), "Move(b7b8k King)");
        assert_eq!(std::mem::size_of::<Move>(), 2);
        assert_eq!(std::mem::size_of::<Option<Move>>(), 4);
    }

    #[test]
    fn castling_is_king_takes_rook() {
        let short = Move::new(Square::E1, Square::H1, MoveKind::Castling);
        let long = Move::new(Square::E8, Square::A8, MoveKind::Castling);
        assert_eq!(short.castling_side(), Some(CastlingSide::KingSide));
        assert_eq!(long.castling_side(), Some(CastlingSide::QueenSide));
        assert_eq!(short.king_destination(), Square::G1);
        assert_eq!(long.king_destination(), Square::C8);
        assert_eq!(format!("{short:?}"), "Move(e1h1 Castling)");
    }

    #[test]
    fn list_basics() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        for i in 1..=10u16 {
            list.push(Move::from_raw(i << 6).unwrap());
        }
        assert_eq!(list.len(), 10);
        list.retain(|m| m.to().index() % 2 == 0);
        assert_eq!(list.len(), 5);
        assert_eq!(list.iter().count(), 5);
        assert_eq!(list.clone().into_iter().count(), 5);
        for _ in 0..400 {
            list.push(Move::from_raw(1 << 6).unwrap());
        }
        assert_eq!(list.len(), MAX_MOVES);
    }
}
