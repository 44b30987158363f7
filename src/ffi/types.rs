//! The C view of colours, pieces, squares and move kinds, and conversions to the core types.

use std::ffi::c_int;

use crate::{CastlingNotation, Color, EnPassantMode, MoveKind, Piece, PieceKind, Square};

/// A side.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum chess_color {
    /// White (moves first).
    CHESS_WHITE = 0,
    /// Black.
    CHESS_BLACK = 1,
}

/// The kind of a piece, regardless of colour; 0 means none.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum chess_piece_kind {
    /// No piece (an empty square, or a move that does not promote).
    CHESS_NO_KIND = 0,
    /// Pawn.
    CHESS_PAWN = 1,
    /// Knight.
    CHESS_KNIGHT = 2,
    /// Bishop.
    CHESS_BISHOP = 3,
    /// Rook.
    CHESS_ROOK = 4,
    /// Queen.
    CHESS_QUEEN = 5,
    /// King.
    CHESS_KING = 6,
}

/// A piece of a given colour: `kind | color << 3` (so `piece & 7` is its `chess_piece_kind` and
/// `piece >> 3` its `chess_color`); 0 means no piece.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum chess_piece {
    /// An empty square.
    CHESS_NO_PIECE = 0,
    /// White pawn.
    CHESS_WHITE_PAWN = 1,
    /// White knight.
    CHESS_WHITE_KNIGHT = 2,
    /// White bishop.
    CHESS_WHITE_BISHOP = 3,
    /// White rook.
    CHESS_WHITE_ROOK = 4,
    /// White queen.
    CHESS_WHITE_QUEEN = 5,
    /// White king.
    CHESS_WHITE_KING = 6,
    /// Black pawn.
    CHESS_BLACK_PAWN = 9,
    /// Black knight.
    CHESS_BLACK_KNIGHT = 10,
    /// Black bishop.
    CHESS_BLACK_BISHOP = 11,
    /// Black rook.
    CHESS_BLACK_ROOK = 12,
    /// Black queen.
    CHESS_BLACK_QUEEN = 13,
    /// Black king.
    CHESS_BLACK_KING = 14,
}

/// What kind of move a `chess_move` is (its bits 12-15).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum chess_move_kind {
    /// A quiet move or an ordinary capture.
    CHESS_MOVE_NORMAL = 0,
    /// A pawn advancing two squares.
    CHESS_MOVE_DOUBLE_PUSH = 1,
    /// A pawn capturing en passant.
    CHESS_MOVE_EN_PASSANT = 2,
    /// Castling, encoded as the king taking its own rook.
    CHESS_MOVE_CASTLING = 3,
    /// Promotion to a knight.
    CHESS_MOVE_PROMOTE_KNIGHT = 4,
    /// Promotion to a bishop.
    CHESS_MOVE_PROMOTE_BISHOP = 5,
    /// Promotion to a rook.
    CHESS_MOVE_PROMOTE_ROOK = 6,
    /// Promotion to a queen.
    CHESS_MOVE_PROMOTE_QUEEN = 7,
}

/// Which en passant square to report or write. FEN records the square after every double push;
/// Polyglot hashing counts it only when a pawn of the side to move stands beside the pushed pawn;
/// repetition and canonical FEN count it only when the capture is legal.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum chess_ep_mode {
    /// The square as recorded: set after every double push.
    CHESS_EP_AS_RECORDED = 0,
    /// Only when a pawn of the side to move stands beside the pawn that advanced two squares.
    CHESS_EP_PSEUDO_LEGAL = 1,
    /// Only when an en passant capture is legal (the default of `chess_fen_write`).
    CHESS_EP_LEGAL = 2,
}

/// How castling rights are written in a FEN.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum chess_castling_notation {
    /// `KQkq` in standard chess, X-FEN in Chess960 (the default of `chess_fen_write`).
    CHESS_CASTLING_NOTATION_AUTO = 0,
    /// X-FEN: `K`/`Q` (`k`/`q`) for the outermost rook on a side, the file letter for an inner
    /// one.
    CHESS_CASTLING_NOTATION_XFEN = 1,
    /// Shredder-FEN: always the rook's file letter (`HAha`).
    CHESS_CASTLING_NOTATION_SHREDDER = 2,
}

/// A `chess_color` as C passes it: any int, checked before use.
pub type ColorArg = c_int;
/// A `chess_piece_kind` as C passes it: any int, checked before use.
pub type KindArg = c_int;
/// A `chess_ep_mode` as C passes it: any int, checked before use.
pub type EpModeArg = c_int;
/// A `chess_castling_notation` as C passes it: any int, checked before use.
pub type CastlingNotationArg = c_int;

/// "No square": returned by square queries when there is none.
// The cast makes cbindgen write `(int)-1`, which is safe inside any C expression.
#[allow(clippy::unnecessary_cast)]
pub const CHESS_NO_SQUARE: c_int = -1 as c_int;

pub(crate) fn color_arg(color: ColorArg) -> Option<Color> {
    match color {
        0 => Some(Color::White),
        1 => Some(Color::Black),
        _ => None,
    }
}

pub(crate) fn kind_arg(kind: KindArg) -> Option<PieceKind> {
    PieceKind::from_index(usize::try_from(kind).ok()?.checked_sub(1)?)
}

pub(crate) fn ep_mode_arg(mode: EpModeArg) -> Option<EnPassantMode> {
    match mode {
        0 => Some(EnPassantMode::AsRecorded),
        1 => Some(EnPassantMode::PseudoLegal),
        2 => Some(EnPassantMode::Legal),
        _ => None,
    }
}

pub(crate) fn castling_notation_arg(notation: CastlingNotationArg) -> Option<CastlingNotation> {
    match notation {
        0 => Some(CastlingNotation::Auto),
        1 => Some(CastlingNotation::XFen),
        2 => Some(CastlingNotation::Shredder),
        _ => None,
    }
}

pub(crate) fn square_arg(square: c_int) -> Option<Square> {
    Square::from_index(u32::try_from(square).ok()?)
}

/// A square for C: its index, or [`CHESS_NO_SQUARE`].
pub(crate) fn square_ret(square: Option<Square>) -> c_int {
    square.map_or(CHESS_NO_SQUARE, |sq| sq.index() as c_int)
}

impl From<Color> for chess_color {
    fn from(color: Color) -> chess_color {
        match color {
            Color::White => chess_color::CHESS_WHITE,
            Color::Black => chess_color::CHESS_BLACK,
        }
    }
}

impl From<Option<PieceKind>> for chess_piece_kind {
    fn from(kind: Option<PieceKind>) -> chess_piece_kind {
        use chess_piece_kind::*;
        match kind {
            None => CHESS_NO_KIND,
            Some(PieceKind::Pawn) => CHESS_PAWN,
            Some(PieceKind::Knight) => CHESS_KNIGHT,
            Some(PieceKind::Bishop) => CHESS_BISHOP,
            Some(PieceKind::Rook) => CHESS_ROOK,
            Some(PieceKind::Queen) => CHESS_QUEEN,
            Some(PieceKind::King) => CHESS_KING,
        }
    }
}

impl From<Option<Piece>> for chess_piece {
    fn from(piece: Option<Piece>) -> chess_piece {
        use chess_piece::*;
        let Some(piece) = piece else { return CHESS_NO_PIECE };
        let [pawn, knight, bishop, rook, queen, king] = match piece.color {
            Color::White => [
                CHESS_WHITE_PAWN,
                CHESS_WHITE_KNIGHT,
                CHESS_WHITE_BISHOP,
                CHESS_WHITE_ROOK,
                CHESS_WHITE_QUEEN,
                CHESS_WHITE_KING,
            ],
            Color::Black => [
                CHESS_BLACK_PAWN,
                CHESS_BLACK_KNIGHT,
                CHESS_BLACK_BISHOP,
                CHESS_BLACK_ROOK,
                CHESS_BLACK_QUEEN,
                CHESS_BLACK_KING,
            ],
        };
        match piece.kind {
            PieceKind::Pawn => pawn,
            PieceKind::Knight => knight,
            PieceKind::Bishop => bishop,
            PieceKind::Rook => rook,
            PieceKind::Queen => queen,
            PieceKind::King => king,
        }
    }
}

impl From<MoveKind> for chess_move_kind {
    fn from(kind: MoveKind) -> chess_move_kind {
        use chess_move_kind::*;
        match kind {
            MoveKind::Normal => CHESS_MOVE_NORMAL,
            MoveKind::DoublePush => CHESS_MOVE_DOUBLE_PUSH,
            MoveKind::EnPassant => CHESS_MOVE_EN_PASSANT,
            MoveKind::Castling => CHESS_MOVE_CASTLING,
            MoveKind::PromoteKnight => CHESS_MOVE_PROMOTE_KNIGHT,
            MoveKind::PromoteBishop => CHESS_MOVE_PROMOTE_BISHOP,
            MoveKind::PromoteRook => CHESS_MOVE_PROMOTE_ROOK,
            MoveKind::PromoteQueen => CHESS_MOVE_PROMOTE_QUEEN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_follow_the_documented_layout() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let code = chess_piece::from(Some(Piece::new(color, kind))) as c_int;
                assert_eq!(code & 7, chess_piece_kind::from(Some(kind)) as c_int);
                assert_eq!(code >> 3, chess_color::from(color) as c_int);
                assert_eq!(kind_arg(code & 7), Some(kind));
                assert_eq!(color_arg(code >> 3), Some(color));
            }
        }
        assert_eq!(kind_arg(0), None);
        assert_eq!(kind_arg(7), None);
        assert_eq!(kind_arg(-1), None);
        assert_eq!(color_arg(2), None);
        assert_eq!(square_arg(64), None);
        assert_eq!(square_arg(-1), None);
        assert_eq!(square_ret(square_arg(63)), 63);
    }
}
