//! Text renderings of a position.

use std::ffi::c_char;
use std::fmt::Write;

use super::error::{chess_error, CHESS_ERR_INTERNAL, CHESS_ERR_INVALID_ARGUMENT};
use super::position::{chess_position, position};
use super::util::{guard_code, TextOut};
use chesscore_core::{BoardStyle, Diagram};

/// `chess_position_to_text` style: the board as 8 rows of 8 characters, rank 8 first, joined by
/// newlines (no final one): FEN letters (White upper case) and a space for an empty square.
pub const CHESS_TEXT_BOARD: u32 = 0;
/// `chess_position_to_text` style: FEN letters and `.` for empty squares, separated by spaces,
/// rank numbers on the left and file letters below; every line ends with a newline.
pub const CHESS_TEXT_ASCII: u32 = 1;
/// `chess_position_to_text` style: as `CHESS_TEXT_ASCII` with the Unicode chess symbols, in
/// UTF-8 (`*out_len` counts bytes).
pub const CHESS_TEXT_UNICODE: u32 = 2;

/// Writes the board as text in `style` (`CHESS_TEXT_BOARD`, `CHESS_TEXT_ASCII` or
/// `CHESS_TEXT_UNICODE`). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (an
/// unknown style), `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_position_to_text(
    pos: *const chess_position,
    style: u32,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position(pos) }?;
        let board = match style {
            CHESS_TEXT_BOARD => BoardStyle::Plain,
            CHESS_TEXT_ASCII => BoardStyle::Ascii,
            CHESS_TEXT_UNICODE => BoardStyle::Unicode,
            _ => return Err(CHESS_ERR_INVALID_ARGUMENT),
        };
        // SAFETY: `buf` is NULL or valid for `cap` bytes, `out_len` NULL or valid (the C contract).
        let text_out = unsafe { TextOut::new(buf, cap, out_len) }?;
        // Writing to the sink cannot fail.
        text_out.write_with(|sink| write!(sink, "{}", Diagram::new(pos, board)).map_err(|_| CHESS_ERR_INTERNAL))?;
        Ok(())
    })
}
