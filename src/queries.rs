//! Board queries beside move generation: one piece's attacks, pins, castling rooks, mirroring;
//! and every legal move's SAN in one call.

use std::ffi::c_char;

use super::error::*;
use super::moves::CHESS_MAX_MOVES;
use super::position::{chess_position, position_ref, query, write_position};
use super::san::CHESS_SAN_MAX;
use super::types::*;
use super::util::{guard, text_of, TextOut};
use chesscore_core::{Position, San};

/// The squares the piece on `square` attacks (its own pieces included, a slider stopping at the
/// first piece in its way); 0 when the square is empty, for a NULL position or a square outside
/// 0..63.
#[no_mangle]
pub unsafe extern "C" fn chess_position_attacks(pos: *const chess_position, square: chess_square) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| square_arg(square).map_or(0, |sq| p.attacks_from(sq).0))
}

/// When the piece of `color` on `square` is pinned to its king, the whole line (edge to edge)
/// through that king and the square, along which alone it may move; else 0 (also for a NULL
/// position, an unknown colour or a square outside 0..63).
#[no_mangle]
pub unsafe extern "C" fn chess_position_pin(
    pos: *const chess_position,
    color: chess_color,
    square: chess_square,
) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| match (color_arg(color), square_arg(square)) {
        (Some(color), Some(sq)) => p.pin_line(color, sq).map_or(0, |line| line.0),
        _ => 0,
    })
}

/// The squares of the rooks that keep a castling right (White's on rank 1, Black's on rank 8):
/// the rights with their rooks, as Chess960 needs them (0 for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_castling_rooks(pos: *const chess_position) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| p.castling_rooks().0)
}

/// Writes into `dst` the mirror of `src`: the board flipped top to bottom with the colours
/// swapped, the other side to move, castling rights and the en passant square following, the
/// clocks unchanged. `dst` may be uninitialised or equal to `src`. Does nothing when either is
/// NULL.
#[no_mangle]
pub unsafe extern "C" fn chess_position_mirror(src: *const chess_position, dst: *mut chess_position) {
    guard((), || {
        // SAFETY: `src` is NULL or a valid position (the C contract).
        let Some(from) = (unsafe { position_ref(src) }) else { return };
        if !dst.is_null() {
            let mirrored = from.mirror();
            // SAFETY: `dst` is not NULL, so valid for a write (the C contract); `mirrored` is a
            // value, so `dst` may be `src`.
            unsafe { write_position(dst, mirrored) };
        }
    })
}

/// Writes the SAN of every legal move of `pos` (suffixes included), in the order
/// `chess_legal_moves` writes the moves, separated by single spaces (empty when there is none):
/// a position's moves and their SAN in two calls, for bindings whose every call costs.
/// `CHESS_MAX_MOVES * CHESS_SAN_MAX` bytes always suffice. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_legal_moves_san(
    pos: *const chess_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |pos: &Position, text_out: TextOut| {
        // Made once on the stack, then copied: measuring and writing would make every SAN twice.
        let mut text = [0u8; CHESS_MAX_MOVES * CHESS_SAN_MAX];
        let mut len = 0;
        for (i, mv) in pos.legal_moves().into_iter().enumerate() {
            if i > 0 {
                text[len] = b' ';
                len += 1;
            }
            // A SAN has at most CHESS_SAN_MAX - 1 bytes, so each move takes at most
            // CHESS_SAN_MAX with its space.
            let san = San::from_move(pos, mv).map_err(|_| CHESS_ERR_INTERNAL)?;
            text[len..len + san.as_bytes().len()].copy_from_slice(san.as_bytes());
            len += san.as_bytes().len();
        }
        text_out.write(&text[..len])?;
        Ok(())
    };
    // SAFETY: `pos` is NULL or a valid position, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(position_ref(pos), buf, cap, out_len, write) }
}
