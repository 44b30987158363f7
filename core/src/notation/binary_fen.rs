//! Binary FEN: the compact position encoding of lichess (and of Stockfish's training data and
//! shakmaty's `PackedSetup`).
//!
//! The layout, in order:
//!
//! 1. the occupied squares, a 64-bit big-endian bitboard (bit `i` = square `i`, a1 = 0);
//! 2. one 4-bit code per occupied square, from a1 upwards, two to a byte, the first in the low
//!    half: `0`-`11` are the white and black pawn, knight, bishop, rook, queen and king
//!    (`2 * kind + colour`, Black = 1), `12` a pawn that has just advanced two squares (the en
//!    passant square is behind it; its colour follows from its rank), `13` and `14` a white and a
//!    black rook with a castling right, `15` the black king with Black to move;
//! 3. when the clocks are not `0 1`: the halfmove clock, then the ply (`2 * (fullmove - 1)`, plus
//!    one with Black to move), each in unsigned LEB128, the ply left out when it is 0 or 1;
//! 4. optionally a variant byte (0 standard, 2 Chess960, 3 from a position: all standard chess
//!    here; the other variants are [`VariantPosition::to_binary_fen`]'s).
//!
//! Trailing zero bytes are left out by the writer and read as zeros, so a fixed-width field
//! padded with zeros (such as the 24 bytes of a Stockfish training entry) reads as well. A legal
//! position without clocks takes at most 24 bytes, any position at most
//! [`BINARY_FEN_MAX_LEN`].
//!
//! [`VariantPosition::to_binary_fen`]: crate::variant::VariantPosition::to_binary_fen

use std::fmt;

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{Rank, Square};
use crate::notation::fen::validate::{check_position, Site, Unplaced};
use crate::notation::fen::{FenError, FenField, FenOptions, FenRepairs};
use crate::notation::setup::{castling_letters, BackRank};
use crate::position::{EnPassantMode, Position};

/// Longest binary FEN [`Position::to_binary_fen`] writes: 8 bytes of occupancy, 16 of codes for
/// 32 pieces and 5 for each clock in LEB128.
pub const BINARY_FEN_MAX_LEN: usize = 34;

/// Longest binary FEN of a variant position
/// ([`VariantPosition::to_binary_fen`](crate::variant::VariantPosition::to_binary_fen)): 8 bytes
/// of occupancy, 32 of codes for 64 pieces, 5 for each clock, the variant byte, 5 of crazyhouse
/// pockets and 8 of promoted pieces. It is also the longest input the variant reader accepts.
pub const VARIANT_BINARY_FEN_MAX_LEN: usize = 64;

/// Longest input the reader accepts: a board of 64 pieces (32 bytes of codes), both clocks and
/// the variant byte. Longer input is [`BinaryFenError::TrailingBytes`].
pub const BINARY_FEN_MAX_INPUT: usize = 8 + 32 + 5 + 5 + 1;

/// Codes 12 to 15 (see the module documentation).
const EN_PASSANT_PAWN: u8 = 12;
const WHITE_CASTLING_ROOK: u8 = 13;
const BLACK_CASTLING_ROOK: u8 = 14;
const BLACK_KING_TO_MOVE: u8 = 15;

/// The variant bytes that mean standard chess.
const VARIANT_STANDARD: u8 = 0;
const VARIANT_CHESS960: u8 = 2;
const VARIANT_FROM_POSITION: u8 = 3;

/// A position in binary FEN, as [`Position::to_binary_fen`] writes it: at most
/// [`BINARY_FEN_MAX_LEN`] bytes ([`VARIANT_BINARY_FEN_MAX_LEN`] for a variant position), without
/// trailing zeros. `Debug` and `Display` write it in lower-case hexadecimal.
///
/// # Examples
///
/// ```
/// use chesscore_core::Position;
///
/// let packed = Position::startpos().to_binary_fen();
/// assert_eq!(packed.len(), 24);
/// assert_eq!(packed.to_string(), "ffff00000000ffff2d844ad200000000111111113e955be3");
/// assert_eq!(Position::from_binary_fen(packed.as_bytes())?, Position::startpos());
/// # Ok::<(), chesscore_core::BinaryFenError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BinaryFen {
    bytes: [u8; VARIANT_BINARY_FEN_MAX_LEN],
    len: u8,
}

impl BinaryFen {
    /// The encoding.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Its length in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Always false: a position has kings, so its encoding has bytes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl AsRef<[u8]> for BinaryFen {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl fmt::Display for BinaryFen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_bytes().iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for BinaryFen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BinaryFen({self})")
    }
}

/// Why bytes are not a binary FEN of a position. Every error has the byte offset where it was
/// found ([`BinaryFenError::offset`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BinaryFenError {
    /// A move counter that does not fit in 32 bits (or its LEB128 runs past 5 bytes).
    #[error("binary FEN: the {field} at byte {offset} does not fit in 32 bits")]
    Counter { field: FenField, offset: usize },
    /// A variant byte other than standard chess (0), Chess960 (2) or from a position (3).
    #[error("binary FEN: variant byte {variant} at byte {offset} is not standard chess")]
    Variant { variant: u8, offset: usize },
    /// A non-zero byte after the position, or input longer than [`BINARY_FEN_MAX_INPUT`].
    #[error("binary FEN: unexpected byte at {offset} after the position")]
    TrailingBytes { offset: usize },
    /// An en passant pawn (code 12) that is not on the fourth or fifth rank, or a second one.
    #[error("binary FEN: en passant pawn at byte {offset} on {square}, which cannot have just advanced two squares")]
    EnPassantPawn { square: Square, offset: usize },
    /// The bytes are well formed but the position is not valid; `error` says why, its offset
    /// the byte of the piece it concerns (of the castling rook, of the en passant pawn), or 0
    /// for the position as a whole.
    #[error("binary FEN: not a valid position: {error} (byte {})", .error.offset())]
    Position { error: FenError },
}

impl BinaryFenError {
    /// The byte offset where the problem was found.
    pub fn offset(&self) -> usize {
        match self {
            BinaryFenError::Counter { offset, .. }
            | BinaryFenError::Variant { offset, .. }
            | BinaryFenError::TrailingBytes { offset }
            | BinaryFenError::EnPassantPawn { offset, .. } => *offset,
            BinaryFenError::Position { error } => error.offset(),
        }
    }
}

/// Builds a binary FEN: the board, then what the caller appends.
pub(crate) struct BinaryFenWriter {
    bytes: [u8; VARIANT_BINARY_FEN_MAX_LEN],
    len: usize,
}

impl BinaryFenWriter {
    /// The occupancy and the piece codes of `pos`, the pawn that has just advanced two squares
    /// past `en_passant` (when given) marked as such.
    #[inline]
    pub(crate) fn board(pos: &Position, en_passant: Option<Square>) -> BinaryFenWriter {
        let occupied = pos.occupancy();
        let mut bytes = [0u8; VARIANT_BINARY_FEN_MAX_LEN];
        bytes[..8].copy_from_slice(&occupied.0.to_be_bytes());

        let ep_pawn =
            en_passant.map_or(Bitboard::EMPTY, |ep| Bitboard::from_square(Square::from_index_masked(ep as u32 ^ 8)));
        let castling_rooks = pos.castling().rook_squares();
        let black_king = match pos.turn() {
            Color::White => Bitboard::EMPTY,
            Color::Black => pos.pieces_of(Color::Black, PieceKind::King),
        };
        let white = pos.color_occupancy(Color::White);
        let code = |sq: Square| -> u8 {
            let bb = Bitboard::from_square(sq);
            if (bb & (ep_pawn | castling_rooks | black_king)).any() {
                if ep_pawn.contains(sq) {
                    EN_PASSANT_PAWN
                } else if black_king.contains(sq) {
                    BLACK_KING_TO_MOVE
                } else if white.contains(sq) {
                    WHITE_CASTLING_ROOK
                } else {
                    BLACK_CASTLING_ROOK
                }
            } else {
                // Every occupied square has a kind.
                let kind = pos.kind_at(sq).map_or(0, |kind| kind as u8);
                2 * kind + u8::from(!white.contains(sq))
            }
        };
        let mut len = 8;
        let mut squares = occupied.iter();
        while let Some(low) = squares.next() {
            let high = squares.next().map_or(0, code);
            bytes[len] = code(low) | high << 4;
            len += 1;
        }
        BinaryFenWriter { bytes, len }
    }

    /// Appends a byte.
    pub(crate) fn byte(&mut self, b: u8) {
        self.bytes[self.len] = b;
        self.len += 1;
    }

    /// Appends `n` in unsigned LEB128.
    pub(crate) fn leb128(&mut self, mut n: u64) {
        while n > 0x7f {
            self.byte(n as u8 | 0x80);
            n >>= 7;
        }
        self.byte(n as u8);
    }

    /// The encoding, without its trailing zeros.
    pub(crate) fn finish(self) -> BinaryFen {
        let mut len = self.len;
        while len > 0 && self.bytes[len - 1] == 0 {
            len -= 1;
        }
        BinaryFen { bytes: self.bytes, len: len as u8 }
    }
}

/// The ply of a position: `2 * (fullmove - 1)`, plus one with Black to move.
pub(crate) fn ply(pos: &Position) -> u64 {
    2 * (u64::from(pos.fullmove_number()) - 1) + pos.turn().index() as u64
}

impl Position {
    /// The position in binary FEN (see [`BinaryFen`]), with the en passant square written only
    /// when the capture is legal, as [`Position::to_fen`] writes it. Byte for byte what
    /// lichess and shakmaty's `PackedSetup::pack_standard` write for the position.
    pub fn to_binary_fen(&self) -> BinaryFen {
        let mut out = BinaryFenWriter::board(self, self.en_passant_square(EnPassantMode::Legal));
        let halfmoves = self.halfmove_clock();
        let ply = ply(self);
        if halfmoves > 0 || ply > 1 {
            out.leb128(u64::from(halfmoves));
        }
        if ply > 1 {
            out.leb128(ply);
        }
        out.finish()
    }

    /// Reads a binary FEN of a standard-chess position, rejecting any invalid position (the
    /// checks of [`Position::from_fen`]). A Chess960 variant byte reads the castling rights as
    /// Chess960.
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::{BinaryFenError, FenError, Position};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R b KQ - 3 40")?;
    /// let bytes = pos.to_binary_fen();
    /// assert_eq!(Position::from_binary_fen(bytes.as_bytes())?, pos);
    ///
    /// // The same squares with a bad variant byte, and without the white king.
    /// let mut bad = bytes.as_bytes().to_vec();
    /// bad.push(7);
    /// assert_eq!(Position::from_binary_fen(&bad).unwrap_err().offset(), bytes.len());
    /// let no_king = [0, 0, 0, 0, 0, 0, 0, 1, 0];
    /// assert!(matches!(
    ///     Position::from_binary_fen(&no_king),
    ///     Err(BinaryFenError::Position { error: FenError::MissingKing { .. } })
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_binary_fen(bytes: &[u8]) -> Result<Position, BinaryFenError> {
        Position::from_binary_fen_with(bytes, &FenOptions::default()).map(|(pos, _)| pos)
    }

    /// [`Position::from_binary_fen`] with the options of a FEN reading (Chess960 castling, the
    /// repairs), reporting what was repaired.
    pub fn from_binary_fen_with(bytes: &[u8], options: &FenOptions) -> Result<(Position, FenRepairs), BinaryFenError> {
        decode(bytes, options)
    }
}

/// Reads bytes past the end as zeros (the writer leaves trailing zeros out).
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte_at(&self, at: usize) -> u8 {
        self.bytes.get(at).copied().unwrap_or(0)
    }

    fn byte(&mut self) -> u8 {
        let b = self.byte_at(self.at);
        self.at += 1;
        b
    }

    /// An unsigned LEB128 number of at most 32 bits (5 bytes).
    fn leb128(&mut self, field: FenField) -> Result<u64, BinaryFenError> {
        let offset = self.at;
        let mut n = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.byte();
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(BinaryFenError::Counter { field, offset })
    }
}

/// Decodes and checks a binary FEN of standard chess.
#[inline]
fn decode(bytes: &[u8], options: &FenOptions) -> Result<(Position, FenRepairs), BinaryFenError> {
    RawBinaryFen::read(bytes, BINARY_FEN_MAX_INPUT)?.into_chess(bytes, options)
}

/// The board, clocks and variant byte of a binary FEN, read but not checked as a position.
pub(crate) struct RawBinaryFen {
    /// The pieces and the side to move.
    pub(crate) pos: Position,
    occupied: Bitboard,
    /// The rooks with codes 13 and 14.
    pub(crate) castling_rooks: Bitboard,
    /// The square behind the pawn with code 12.
    pub(crate) en_passant: Option<Square>,
    halfmove_clock: u64,
    clock_offset: usize,
    ply: u64,
    ply_offset: usize,
    /// The variant byte (0 when absent) and its offset.
    pub(crate) variant: u8,
    pub(crate) variant_offset: usize,
}

impl RawBinaryFen {
    /// Reads the board, the clocks and the variant byte of at most `max_input` bytes. The
    /// pieces go straight into the position.
    #[inline]
    pub(crate) fn read(bytes: &[u8], max_input: usize) -> Result<RawBinaryFen, BinaryFenError> {
        if bytes.len() > max_input {
            return Err(BinaryFenError::TrailingBytes { offset: max_input });
        }
        let mut reader = Reader { bytes, at: 0 };
        let mut occupancy = [0u8; 8];
        occupancy.iter_mut().for_each(|b| *b = reader.byte());
        let occupied = Bitboard(u64::from_be_bytes(occupancy));
        let byte_of = |sq: Square| byte_of(occupied, sq);

        let mut pos = Position::empty(Color::White);
        let mut castling_rooks = Bitboard::EMPTY;
        let mut en_passant = None;
        let mut black_king_to_move = false;
        // The special codes, rare: out of the loop's way.
        let mut special = |pos: &mut Position, sq: Square, code: u8| -> Result<(), BinaryFenError> {
            let piece = match code {
                EN_PASSANT_PAWN => {
                    let color = match sq.rank() {
                        Rank::Fourth => Color::White,
                        Rank::Fifth => Color::Black,
                        _ => return Err(BinaryFenError::EnPassantPawn { square: sq, offset: byte_of(sq) }),
                    };
                    if en_passant.is_some() {
                        return Err(BinaryFenError::EnPassantPawn { square: sq, offset: byte_of(sq) });
                    }
                    en_passant = Some(Square::from_index_masked(sq as u32 ^ 8));
                    Piece::new(color, PieceKind::Pawn)
                }
                WHITE_CASTLING_ROOK | BLACK_CASTLING_ROOK => {
                    castling_rooks.set(sq);
                    let color = if code == WHITE_CASTLING_ROOK { Color::White } else { Color::Black };
                    Piece::new(color, PieceKind::Rook)
                }
                // The one code left: BLACK_KING_TO_MOVE.
                _ => {
                    black_king_to_move = true;
                    Piece::new(Color::Black, PieceKind::King)
                }
            };
            pos.put(sq, piece);
            Ok(())
        };
        for (i, sq) in occupied.iter().enumerate() {
            let code = (reader.byte_at(8 + i / 2) >> (4 * (i & 1))) & 15;
            if code < EN_PASSANT_PAWN {
                // Codes 0 to 11: `2 * kind + colour`.
                pos.put_code(sq, usize::from(code >> 1), usize::from(code & 1));
            } else {
                special(&mut pos, sq, code)?;
            }
        }
        reader.at = 8 + (occupied.count() as usize).div_ceil(2);

        let clock_offset = reader.at;
        let halfmove_clock = reader.leb128(FenField::HalfmoveClock)?;
        let ply_offset = reader.at;
        let ply = reader.leb128(FenField::FullmoveNumber)?;
        let variant_offset = reader.at;
        let variant = reader.byte();
        pos.set_turn(if black_king_to_move || ply % 2 == 1 { Color::Black } else { Color::White });
        Ok(RawBinaryFen {
            pos,
            occupied,
            castling_rooks,
            en_passant,
            halfmove_clock,
            clock_offset,
            ply,
            ply_offset,
            variant,
            variant_offset,
        })
    }

    /// The byte holding the code of the piece on `sq`.
    pub(crate) fn byte_of(&self, sq: Square) -> usize {
        byte_of(self.occupied, sq)
    }

    /// The halfmove clock and the fullmove number.
    pub(crate) fn clocks(&self) -> Result<(u32, u32), BinaryFenError> {
        let halfmove_clock = u32::try_from(self.halfmove_clock)
            .map_err(|_| BinaryFenError::Counter { field: FenField::HalfmoveClock, offset: self.clock_offset })?;
        let fullmove_number = u32::try_from(1 + self.ply / 2)
            .map_err(|_| BinaryFenError::Counter { field: FenField::FullmoveNumber, offset: self.ply_offset })?;
        Ok((halfmove_clock, fullmove_number))
    }

    /// The standard-chess position (variant byte 0, 2 or 3), nothing but zeros after it, with
    /// the checks of a FEN reading, their errors placed at the byte of the piece (or of the
    /// position) they concern.
    pub(crate) fn into_chess(
        self,
        bytes: &[u8],
        options: &FenOptions,
    ) -> Result<(Position, FenRepairs), BinaryFenError> {
        check_zeros(bytes, self.variant_offset + 1)?;
        if !matches!(self.variant, VARIANT_STANDARD | VARIANT_CHESS960 | VARIANT_FROM_POSITION) {
            return Err(BinaryFenError::Variant { variant: self.variant, offset: self.variant_offset });
        }
        let (halfmove_clock, fullmove_number) = self.clocks()?;
        let mut pos = self.pos;
        let letters = castling_letters(self.castling_rooks, |color| BackRank::of_position(&pos, color));
        let en_passant = self.en_passant;
        let rest = Unplaced { castling: &letters, en_passant, halfmove_clock, fullmove_number };
        let options = FenOptions { chess960: options.chess960 || self.variant == VARIANT_CHESS960, ..*options };
        let offset = |site| match site {
            Site::Placement => 0,
            Site::Square(sq) => self.byte_of(sq),
            Site::CastlingLetter(i) => self.byte_of(letters[i].1),
            Site::EnPassant => en_passant.map_or(0, |ep| self.byte_of(Square::from_index_masked(ep as u32 ^ 8))),
        };
        let repairs =
            check_position(&mut pos, rest, &options, offset).map_err(|error| BinaryFenError::Position { error })?;
        Ok((pos, repairs))
    }
}

/// The byte holding the code of the piece on `sq` of `occupied`.
fn byte_of(occupied: Bitboard, sq: Square) -> usize {
    8 + (occupied.0 & ((1u64 << sq as u32) - 1)).count_ones() as usize / 2
}

/// Refuses a non-zero byte from `from` on.
pub(crate) fn check_zeros(bytes: &[u8], from: usize) -> Result<(), BinaryFenError> {
    match bytes.iter().skip(from).position(|&b| b != 0) {
        Some(extra) => Err(BinaryFenError::TrailingBytes { offset: from + extra }),
        None => Ok(()),
    }
}
