//! The C view of colours, pieces, squares and move kinds, and conversions to the core types.
//!
//! Every value that crosses the boundary is a fixed-width integer type with named constants,
//! not a C `enum`, whose size a compiler flag (`-fshort-enums`) would change. Values from C are
//! checked before use: any bit pattern is safe.

use chesscore_core::{Color, EnPassantMode, MoveKind, Piece, PieceKind, Square};

/// A side: `CHESS_WHITE` or `CHESS_BLACK`.
pub type chess_color = u8;
/// White (moves first).
pub const CHESS_WHITE: chess_color = 0;
/// Black.
pub const CHESS_BLACK: chess_color = 1;

/// The kind of a piece, regardless of colour; `CHESS_NO_KIND` (0) for none.
pub type chess_piece_kind = u8;
/// No piece (an empty square, or a move that does not promote).
pub const CHESS_NO_KIND: chess_piece_kind = 0;
/// Pawn.
pub const CHESS_PAWN: chess_piece_kind = 1;
/// Knight.
pub const CHESS_KNIGHT: chess_piece_kind = 2;
/// Bishop.
pub const CHESS_BISHOP: chess_piece_kind = 3;
/// Rook.
pub const CHESS_ROOK: chess_piece_kind = 4;
/// Queen.
pub const CHESS_QUEEN: chess_piece_kind = 5;
/// King.
pub const CHESS_KING: chess_piece_kind = 6;

/// A piece of a given colour: `kind | color << 3` (so `piece & 7` is its `chess_piece_kind` and
/// `piece >> 3` its `chess_color`); `CHESS_NO_PIECE` (0) for none.
pub type chess_piece = u8;
/// An empty square.
pub const CHESS_NO_PIECE: chess_piece = 0;
/// White pawn.
pub const CHESS_WHITE_PAWN: chess_piece = 1;
/// White knight.
pub const CHESS_WHITE_KNIGHT: chess_piece = 2;
/// White bishop.
pub const CHESS_WHITE_BISHOP: chess_piece = 3;
/// White rook.
pub const CHESS_WHITE_ROOK: chess_piece = 4;
/// White queen.
pub const CHESS_WHITE_QUEEN: chess_piece = 5;
/// White king.
pub const CHESS_WHITE_KING: chess_piece = 6;
/// Black pawn.
pub const CHESS_BLACK_PAWN: chess_piece = 9;
/// Black knight.
pub const CHESS_BLACK_KNIGHT: chess_piece = 10;
/// Black bishop.
pub const CHESS_BLACK_BISHOP: chess_piece = 11;
/// Black rook.
pub const CHESS_BLACK_ROOK: chess_piece = 12;
/// Black queen.
pub const CHESS_BLACK_QUEEN: chess_piece = 13;
/// Black king.
pub const CHESS_BLACK_KING: chess_piece = 14;

/// What kind of move a `chess_move` is (its bits 12-15).
pub type chess_move_kind = u8;
/// A quiet move or an ordinary capture.
pub const CHESS_MOVE_NORMAL: chess_move_kind = 0;
/// A pawn advancing two squares.
pub const CHESS_MOVE_DOUBLE_PUSH: chess_move_kind = 1;
/// A pawn capturing en passant.
pub const CHESS_MOVE_EN_PASSANT: chess_move_kind = 2;
/// Castling, encoded as the king taking its own rook.
pub const CHESS_MOVE_CASTLING: chess_move_kind = 3;
/// Promotion to a knight.
pub const CHESS_MOVE_PROMOTE_KNIGHT: chess_move_kind = 4;
/// Promotion to a bishop.
pub const CHESS_MOVE_PROMOTE_BISHOP: chess_move_kind = 5;
/// Promotion to a rook.
pub const CHESS_MOVE_PROMOTE_ROOK: chess_move_kind = 6;
/// Promotion to a queen.
pub const CHESS_MOVE_PROMOTE_QUEEN: chess_move_kind = 7;

/// Which en passant square to report. FEN records the square after every double push; Polyglot
/// hashing counts it only when a pawn of the side to move stands beside the pushed pawn;
/// repetition and canonical FEN count it only when the capture is legal.
pub type chess_ep_mode = u8;
/// The square as recorded: set after every double push.
pub const CHESS_EP_AS_RECORDED: chess_ep_mode = 0;
/// Only when a pawn of the side to move stands beside the pawn that advanced two squares.
pub const CHESS_EP_PSEUDO_LEGAL: chess_ep_mode = 1;
/// Only when an en passant capture is legal (what `chess_fen_write` writes).
pub const CHESS_EP_LEGAL: chess_ep_mode = 2;

/// A square, 0 = a1 .. 63 = h8 (`rank * 8 + file`), or `CHESS_NO_SQUARE`.
pub type chess_square = i32;

/// "No square": returned by square queries when there is none.
pub const CHESS_NO_SQUARE: chess_square = -1;

pub(crate) fn color_arg(color: chess_color) -> Option<Color> {
    match color {
        CHESS_WHITE => Some(Color::White),
        CHESS_BLACK => Some(Color::Black),
        _ => None,
    }
}

pub(crate) fn kind_arg(kind: chess_piece_kind) -> Option<PieceKind> {
    PieceKind::from_index(usize::from(kind).checked_sub(1)?)
}

pub(crate) fn ep_mode_arg(mode: chess_ep_mode) -> Option<EnPassantMode> {
    match mode {
        CHESS_EP_AS_RECORDED => Some(EnPassantMode::AsRecorded),
        CHESS_EP_PSEUDO_LEGAL => Some(EnPassantMode::PseudoLegal),
        CHESS_EP_LEGAL => Some(EnPassantMode::Legal),
        _ => None,
    }
}

pub(crate) fn square_arg(square: chess_square) -> Option<Square> {
    Square::from_index(u32::try_from(square).ok()?)
}

/// A square for C: its index, or [`CHESS_NO_SQUARE`].
pub(crate) fn square_ret(square: Option<Square>) -> chess_square {
    square.map_or(CHESS_NO_SQUARE, |sq| sq.index() as chess_square)
}

pub(crate) fn color_ret(color: Color) -> chess_color {
    match color {
        Color::White => CHESS_WHITE,
        Color::Black => CHESS_BLACK,
    }
}

pub(crate) fn kind_ret(kind: Option<PieceKind>) -> chess_piece_kind {
    kind.map_or(CHESS_NO_KIND, |kind| kind.index() as chess_piece_kind + 1)
}

pub(crate) fn piece_ret(piece: Option<Piece>) -> chess_piece {
    piece.map_or(CHESS_NO_PIECE, |piece| kind_ret(Some(piece.kind)) | color_ret(piece.color) << 3)
}

pub(crate) fn move_kind_ret(kind: MoveKind) -> chess_move_kind {
    kind as chess_move_kind
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_the_documented_layout() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let code = piece_ret(Some(Piece::new(color, kind)));
                assert_eq!(code & 7, kind_ret(Some(kind)));
                assert_eq!(code >> 3, color_ret(color));
                assert_eq!(kind_arg(code & 7), Some(kind));
                assert_eq!(color_arg(code >> 3), Some(color));
            }
        }
        let pieces = [CHESS_WHITE_PAWN, CHESS_WHITE_KING, CHESS_BLACK_PAWN, CHESS_BLACK_QUEEN];
        let kinds = [(Color::White, PieceKind::Pawn), (Color::White, PieceKind::King), (Color::Black, PieceKind::Pawn)];
        for (code, (color, kind)) in pieces.into_iter().zip(kinds.into_iter().chain([(Color::Black, PieceKind::Queen)]))
        {
            assert_eq!(piece_ret(Some(Piece::new(color, kind))), code);
        }
        for (kind, code) in [(MoveKind::Normal, CHESS_MOVE_NORMAL), (MoveKind::PromoteQueen, CHESS_MOVE_PROMOTE_QUEEN)]
        {
            assert_eq!(move_kind_ret(kind), code);
        }
        assert_eq!((kind_arg(0), kind_arg(7), color_arg(2)), (None, None, None));
        assert_eq!((square_arg(64), square_arg(-1)), (None, None));
        assert_eq!(square_ret(square_arg(63)), 63);
    }
}
