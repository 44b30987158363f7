//! Square geometry as plain functions of squares and bitboards: what a binding needs to build
//! python-chess's tables (`BB_KNIGHT_ATTACKS`, `BB_DIAG_ATTACKS`, `BB_RAYS`, ...) from the
//! library instead of rules of its own.

use super::types::*;
use super::util::guard;
use chesscore_core::{attacks, Bitboard, Color, Piece, Square};

fn piece_arg(piece: chess_piece) -> Option<Piece> {
    let color = match piece >> 3 {
        0 => Color::White,
        1 => Color::Black,
        _ => return None,
    };
    Some(Piece { color, kind: kind_arg(piece & 7)? })
}

/// The squares a `piece` standing on `square` attacks when the squares of `occupied` hold
/// pieces (bit i = square i): a slider stops at the first occupied square in each direction,
/// which it attacks; a pawn attacks its two forward diagonals; whether `square` itself is in
/// `occupied` does not matter. 0 for an invalid piece or square.
#[no_mangle]
pub extern "C" fn chess_bitboard_attacks(piece: chess_piece, square: chess_square, occupied: u64) -> u64 {
    guard(0, || match (piece_arg(piece), square_arg(square)) {
        (Some(piece), Some(sq)) => attacks::piece_attacks(piece, sq, Bitboard(occupied)).0,
        _ => 0,
    })
}

/// The squares strictly between `a` and `b` when they share a rank, file or diagonal; 0
/// otherwise (and for an invalid square).
#[no_mangle]
pub extern "C" fn chess_bitboard_between(a: chess_square, b: chess_square) -> u64 {
    guard(0, || squares(a, b).map_or(0, |(a, b)| attacks::between(a, b).0))
}

/// The whole line, edge to edge, through `a` and `b` when they share a rank, file or
/// diagonal (both included); 0 otherwise, for `a == b`, and for an invalid square.
#[no_mangle]
pub extern "C" fn chess_bitboard_line(a: chess_square, b: chess_square) -> u64 {
    guard(0, || squares(a, b).map_or(0, |(a, b)| attacks::line(a, b).0))
}

fn squares(a: chess_square, b: chess_square) -> Option<(Square, Square)> {
    Some((square_arg(a)?, square_arg(b)?))
}
