//! The errors of reading a FEN, each naming its field and its offset in the text.

use std::fmt;

use super::FEN_MAX_INPUT;
use crate::board::color::Color;
use crate::board::square::Square;

/// A FEN field, as named by errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The input as a whole (length, characters, field count).
    Input,
    /// Piece placement (first field).
    Placement,
    /// Side to move (second field).
    SideToMove,
    /// Castling availability (third field).
    Castling,
    /// En passant target square (fourth field).
    EnPassant,
    /// Halfmove clock (fifth field).
    HalfmoveClock,
    /// Fullmove number (sixth field).
    FullmoveNumber,
}

impl FenField {
    /// The field's name in words for messages, such as `"castling rights"`; `"whole input"`
    /// for [`FenField::Input`].
    pub const fn name(self) -> &'static str {
        match self {
            FenField::Input => "whole input",
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
        }
    }
}

/// Writes [`FenField::name`].
impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a FEN was rejected. Every error knows the field it concerns ([`FenError::field`]) and
/// the byte offset in the input where the problem was found ([`FenError::offset`]; for a
/// [`Setup`](crate::Setup), in the FEN that [`Fen`](crate::Fen) writes for it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN too long: {length} bytes, at most {FEN_MAX_INPUT} accepted")]
    TooLong { length: usize },
    #[error("invalid character at byte {offset}: only printable ASCII, spaces and tabs are allowed")]
    InvalidCharacter { offset: usize },
    #[error("expected 4 to 6 fields separated by spaces, found {found}")]
    FieldCount { found: usize, offset: usize },
    #[error("expected 8 ranks separated by '/' in the piece placement, found {found}")]
    RankCount { found: usize, offset: usize },
    #[error("rank {rank} describes {width} squares, expected 8")]
    RankWidth { rank: u8, width: usize, offset: usize },
    #[error("invalid empty-square count in rank {rank}: a single digit 1 to 8 is expected")]
    EmptySquareCount { rank: u8, offset: usize },
    #[error("invalid piece letter '{letter}' (expected one of PNBRQK pnbrqk or a digit)")]
    PieceLetter { letter: char, offset: usize },
    #[error("invalid side to move: expected 'w' or 'b'")]
    SideToMove { offset: usize },
    #[error("invalid castling field: expected '-' or at most four distinct letters of KQkq or A-H a-h")]
    Castling { offset: usize },
    #[error("invalid en passant field: expected '-' or a square such as e3")]
    EnPassant { offset: usize },
    #[error("invalid halfmove clock: expected a decimal number from 0 to 4294967295")]
    HalfmoveClock { offset: usize },
    #[error("invalid fullmove number: expected a decimal number from 0 to 4294967295")]
    FullmoveNumber { offset: usize },
    #[error("no {color} king")]
    MissingKing { color: Color, offset: usize },
    #[error("more than one {color} king")]
    TooManyKings { color: Color, offset: usize },
    #[error("{color} has more than 16 pieces")]
    TooManyPieces { color: Color, offset: usize },
    #[error("{color} has more than 8 pawns")]
    TooManyPawns { color: Color, offset: usize },
    #[error("pawn on its first or last rank ({square})")]
    PawnOnBackRank { square: Square, offset: usize },
    #[error("the side not to move is in check")]
    OppositeCheck { offset: usize },
    #[error("impossible check: no single move could have given it")]
    ImpossibleCheck { offset: usize },
    #[error("en passant square {square} without a pawn that could just have advanced two squares")]
    InvalidEnPassant { square: Square, offset: usize },
    #[error("castling right '{letter}' without its king and rook on their home squares")]
    BadCastlingRights { letter: char, offset: usize },
}

impl FenError {
    /// The field the error concerns.
    pub fn field(&self) -> FenField {
        use FenError::*;
        match self {
            Empty | TooLong { .. } | InvalidCharacter { .. } | FieldCount { .. } => FenField::Input,
            RankCount { .. }
            | RankWidth { .. }
            | EmptySquareCount { .. }
            | PieceLetter { .. }
            | MissingKing { .. }
            | TooManyKings { .. }
            | TooManyPieces { .. }
            | TooManyPawns { .. }
            | PawnOnBackRank { .. }
            | OppositeCheck { .. }
            | ImpossibleCheck { .. } => FenField::Placement,
            SideToMove { .. } => FenField::SideToMove,
            Castling { .. } | BadCastlingRights { .. } => FenField::Castling,
            EnPassant { .. } | InvalidEnPassant { .. } => FenField::EnPassant,
            HalfmoveClock { .. } => FenField::HalfmoveClock,
            FullmoveNumber { .. } => FenField::FullmoveNumber,
        }
    }

    /// Byte offset in the input where the problem was found.
    pub fn offset(&self) -> usize {
        use FenError::*;
        match *self {
            Empty => 0,
            TooLong { .. } => FEN_MAX_INPUT,
            InvalidCharacter { offset }
            | FieldCount { offset, .. }
            | RankCount { offset, .. }
            | RankWidth { offset, .. }
            | EmptySquareCount { offset, .. }
            | PieceLetter { offset, .. }
            | SideToMove { offset }
            | Castling { offset }
            | EnPassant { offset }
            | HalfmoveClock { offset }
            | FullmoveNumber { offset }
            | MissingKing { offset, .. }
            | TooManyKings { offset, .. }
            | TooManyPieces { offset, .. }
            | TooManyPawns { offset, .. }
            | PawnOnBackRank { offset, .. }
            | OppositeCheck { offset }
            | ImpossibleCheck { offset }
            | InvalidEnPassant { offset, .. }
            | BadCastlingRights { offset, .. } => offset,
        }
    }
}
