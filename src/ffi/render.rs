//! Text renderings of a position.

use std::ffi::c_char;

use super::error::chess_error::{self, CHESS_ERR_INTERNAL};
use super::position::{chess_position, position};
use super::util::{guard_code, TextOut};
use crate::render::Board;

/// Writes a rendering of the position through the text output rule.
///
/// # Safety
/// As for the exported functions below.
unsafe fn render(
    pos: *const chess_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    board: Board,
) -> chess_error {
    guard_code(|| {
        let pos = position(pos)?;
        let text_out = TextOut::new(buf, cap, out_len)?;
        // Writing to the sink cannot fail.
        text_out.write_with(|sink| pos.write_board(sink, board).map_err(|_| CHESS_ERR_INTERNAL))?;
        Ok(())
    })
}

/// Writes the board as 8 rows of 8 characters, rank 8 first, joined by newlines (no final one):
/// FEN letters (White upper case) and a space for an empty square. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_position_board_string(
    pos: *const chess_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    render(pos, buf, cap, out_len, Board::Plain)
}

/// Writes the board with FEN letters and `.` for empty squares, separated by spaces, rank
/// numbers on the left and file letters below; every line ends with a newline. Errors as for
/// `chess_position_board_string`.
#[no_mangle]
pub unsafe extern "C" fn chess_position_to_ascii(
    pos: *const chess_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    render(pos, buf, cap, out_len, Board::Ascii)
}

/// Like `chess_position_to_ascii` with the Unicode chess symbols, in UTF-8 (`*out_len` counts
/// bytes).
#[no_mangle]
pub unsafe extern "C" fn chess_position_to_unicode(
    pos: *const chess_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    render(pos, buf, cap, out_len, Board::Unicode)
}
