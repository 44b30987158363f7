//! FEN reading and writing.

use std::ffi::{c_char, c_int};

use super::error::chess_error::{self, *};
use super::error::{fen_error, fen_file_error};
use super::position::{chess_position, position, try_new_handle};
use super::types::{
    castling_notation_arg, chess_castling_notation, chess_ep_mode, ep_mode_arg, square_ret, CastlingNotationArg,
    EpModeArg,
};
use super::util::{c_bytes, guard, guard_code, write_optional, Out, StackText, TextOut};
use crate::fen::split;
use crate::{Fen, FenError, FenOptions, FenWriteOptions, Position, Repair, FEN_MAX_LEN};

/// Size of a buffer that holds any FEN `chess_fen_write` produces, NUL included.
pub const CHESS_FEN_MAX: usize = 104;

const _: () = assert!(CHESS_FEN_MAX == FEN_MAX_LEN + 1);

/// Reads a standard-chess FEN (4 to 6 fields; missing clocks read as `0 1`) and checks that the
/// position is legal. On success `*out` receives a new handle to free with `chess_position_free`.
/// Errors: `CHESS_ERR_NULL_POINTER`, a `CHESS_ERR_FEN_*` code, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse(fen: *const c_char, out: *mut *mut chess_position) -> chess_error {
    guard(CHESS_ERR_INTERNAL, || chess_fen_parse_ex(fen, out, std::ptr::null_mut()))
}

/// `chess_fen_parse`, also storing the byte offset where a FEN error was found in
/// `*error_offset` (which may be NULL, and is written only when a `CHESS_ERR_FEN_*` code is
/// returned), for messages like "error at column 17".
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse_ex(
    fen: *const c_char,
    out: *mut *mut chess_position,
    error_offset: *mut usize,
) -> chess_error {
    guard_code(|| parse(fen, &FenOptions::default(), out, error_offset))
}

fn read_fen(fen: &[u8], options: &FenOptions) -> Result<Position, FenError> {
    Ok(Fen::parse_bytes(fen)?.validate(options)?.0)
}

/// `chess_fen_parse_with` flag: read Chess960 castling (X-FEN or Shredder-FEN).
pub const CHESS_FEN_CHESS960: u32 = 1;
/// `chess_fen_parse_with` flag: drop castling rights whose king or rook is not at home.
pub const CHESS_FEN_DROP_BAD_CASTLING: u32 = 2;
/// `chess_fen_parse_with` flag: drop an en passant square no double push could have made.
pub const CHESS_FEN_DROP_BAD_EN_PASSANT: u32 = 4;
/// `chess_fen_parse_with` flag: accept checks no single move could have given (two pawns
/// checking, three checkers); move generation handles such positions.
pub const CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK: u32 = 8;

/// What `chess_fen_parse_with` dropped from the FEN it read.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct chess_fen_repairs {
    /// Castling letters dropped, as `KQkq` bits (1 = `K`, 2 = `Q`, 4 = `k`, 8 = `q`).
    pub dropped_castling: u8,
    /// The en passant square dropped, or `CHESS_NO_SQUARE`.
    pub dropped_en_passant: c_int,
}

/// `chess_fen_parse_ex` with reading options: `flags` is a combination of `CHESS_FEN_CHESS960`,
/// `CHESS_FEN_DROP_BAD_CASTLING`, `CHESS_FEN_DROP_BAD_EN_PASSANT` and
/// `CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK` (0 reads as `chess_fen_parse`). When `repairs` is not NULL
/// it receives, on success, what the drop flags removed. Errors: those of `chess_fen_parse_ex`,
/// and `CHESS_ERR_INVALID_ARGUMENT` for unknown flag bits.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse_with(
    fen: *const c_char,
    flags: u32,
    out: *mut *mut chess_position,
    repairs: *mut chess_fen_repairs,
    error_offset: *mut usize,
) -> chess_error {
    guard_code(|| {
        let known = CHESS_FEN_CHESS960
            | CHESS_FEN_DROP_BAD_CASTLING
            | CHESS_FEN_DROP_BAD_EN_PASSANT
            | CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK;
        if flags & !known != 0 {
            return Err(CHESS_ERR_INVALID_ARGUMENT);
        }
        let repair = |flag| if flags & flag != 0 { Repair::Drop } else { Repair::Reject };
        let options = FenOptions {
            chess960: flags & CHESS_FEN_CHESS960 != 0,
            bad_castling: repair(CHESS_FEN_DROP_BAD_CASTLING),
            bad_en_passant: repair(CHESS_FEN_DROP_BAD_EN_PASSANT),
            allow_impossible_check: flags & CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK != 0,
        };
        let fen = c_bytes(fen)?;
        let out = Out::new(out)?;
        let (pos, dropped) =
            Fen::parse_bytes(fen).and_then(|f| f.validate(&options)).map_err(|e| fen_error(&e, error_offset))?;
        out.write(try_new_handle(pos)?);
        write_optional(
            repairs,
            chess_fen_repairs {
                dropped_castling: dropped.dropped_castling,
                dropped_en_passant: square_ret(dropped.dropped_en_passant),
            },
        );
        Ok(())
    })
}

/// Reads a FEN into a new handle, `error_offset` as for `chess_fen_parse_ex`.
///
/// # Safety
/// As for the exported readers.
unsafe fn parse(
    fen: *const c_char,
    options: &FenOptions,
    out: *mut *mut chess_position,
    error_offset: *mut usize,
) -> Result<(), chess_error> {
    let fen = c_bytes(fen)?;
    let out = Out::new(out)?;
    let pos = read_fen(fen, options).map_err(|e| fen_error(&e, error_offset))?;
    out.write(try_new_handle(pos)?);
    Ok(())
}

/// Reads a Chess960 FEN: castling rights in X-FEN (`KQkq` for the outermost rook on a side, a
/// file letter for an inner one) or Shredder-FEN (`HAha`), king and rooks anywhere on the back
/// rank. The position is in Chess960 mode: castling is king-takes-rook in UCI (see
/// `chess_move_to_uci_in`), and FEN writing uses X-FEN. Otherwise as `chess_fen_parse`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse_chess960(fen: *const c_char, out: *mut *mut chess_position) -> chess_error {
    guard(CHESS_ERR_INTERNAL, || chess_fen_parse_chess960_ex(fen, out, std::ptr::null_mut()))
}

/// `chess_fen_parse_chess960` with the error offset of `chess_fen_parse_ex`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse_chess960_ex(
    fen: *const c_char,
    out: *mut *mut chess_position,
    error_offset: *mut usize,
) -> chess_error {
    guard_code(|| parse(fen, &FenOptions { chess960: true, ..FenOptions::default() }, out, error_offset))
}

/// Builds a position from the six FEN fields given separately (none may be empty or hold a
/// space). Error offsets count in the fields joined by single spaces. Otherwise as
/// `chess_fen_parse_ex`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_from_components(
    placement: *const c_char,
    side_to_move: *const c_char,
    castling: *const c_char,
    en_passant: *const c_char,
    halfmove_clock: *const c_char,
    fullmove_number: *const c_char,
    out: *mut *mut chess_position,
    error_offset: *mut usize,
) -> chess_error {
    guard_code(|| {
        let parts = [
            c_bytes(placement)?,
            c_bytes(side_to_move)?,
            c_bytes(castling)?,
            c_bytes(en_passant)?,
            c_bytes(halfmove_clock)?,
            c_bytes(fullmove_number)?,
        ];
        let out = Out::new(out)?;
        let pos = Position::from_fen_component_bytes(parts).map_err(|e| fen_error(&e, error_offset))?;
        out.write(try_new_handle(pos)?);
        Ok(())
    })
}

/// Splits a FEN into its six fields, checking their syntax (not the position), with absent
/// clocks filled in as `0` and `1`. The fields are copied into `buf`, each NUL-terminated, and
/// `fields` (an array of 6) receives pointers to them in FEN order. `*out_len` is the length of
/// the copied text without its final NUL (so `cap` must exceed it). `error_offset` as for
/// `chess_fen_parse_ex`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_split(
    fen: *const c_char,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    fields: *mut *const c_char,
    error_offset: *mut usize,
) -> chess_error {
    guard_code(|| {
        let fen = c_bytes(fen)?;
        let text_out = TextOut::new(buf, cap, out_len)?;
        if fields.is_null() {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        Fen::parse_bytes(fen).map_err(|e| fen_error(&e, error_offset))?;
        // The syntax is valid, so the text is ASCII.
        let text = std::str::from_utf8(fen).map_err(|_| CHESS_ERR_INTERNAL)?;
        let parts = split(text).map_err(|e| fen_error(&e, error_offset))?;
        let start = text_out
            .write_with(|sink| {
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        sink.write_bytes(b"\0");
                    }
                    sink.write_bytes(part.as_bytes());
                }
                Ok(())
            })?
            .cast_const();
        let mut offset = 0;
        for (i, part) in parts.iter().enumerate() {
            fields.add(i).write(start.add(offset));
            offset += part.len() + 1;
        }
        Ok(())
    })
}

/// Reads the first non-empty line of a FEN file. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_FILE_NOT_FOUND`, `CHESS_ERR_IO`, `CHESS_ERR_INVALID_TEXT` (a path this system
/// cannot represent), a `CHESS_ERR_FEN_*` code (offset within the line, as for
/// `chess_fen_parse_ex`), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_read_file(
    path: *const c_char,
    out: *mut *mut chess_position,
    error_offset: *mut usize,
) -> chess_error {
    guard_code(|| {
        let path = c_path(c_bytes(path)?)?;
        let out = Out::new(out)?;
        let pos = Position::from_fen_file(path).map_err(|e| fen_file_error(&e, error_offset))?;
        out.write(try_new_handle(pos)?);
        Ok(())
    })
}

#[cfg(unix)]
pub(crate) fn c_path(bytes: &[u8]) -> Result<&std::path::Path, chess_error> {
    use std::os::unix::ffi::OsStrExt;
    Ok(std::path::Path::new(std::ffi::OsStr::from_bytes(bytes)))
}

#[cfg(not(unix))]
pub(crate) fn c_path(bytes: &[u8]) -> Result<&std::path::Path, chess_error> {
    std::str::from_utf8(bytes).map(std::path::Path::new).map_err(|_| CHESS_ERR_INVALID_TEXT)
}

/// Writes the FEN of `pos`: en passant square only when the capture is legal, castling as
/// `KQkq` (X-FEN in a Chess960 position). `CHESS_FEN_MAX` bytes always suffice. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_write(
    pos: *const chess_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let legal = chess_ep_mode::CHESS_EP_LEGAL as EpModeArg;
    guard(CHESS_ERR_INTERNAL, || chess_fen_write_with(pos, legal, buf, cap, out_len))
}

/// `chess_fen_write` with the en passant square chosen by `mode` (`CHESS_ERR_INVALID_ARGUMENT`
/// for an unknown mode).
#[no_mangle]
pub unsafe extern "C" fn chess_fen_write_with(
    pos: *const chess_position,
    mode: EpModeArg,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let auto = chess_castling_notation::CHESS_CASTLING_NOTATION_AUTO as CastlingNotationArg;
    guard(CHESS_ERR_INTERNAL, || chess_fen_write_ex(pos, mode, auto, buf, cap, out_len))
}

/// `chess_fen_write` with the en passant square chosen by `mode` and castling rights written in
/// `castling` notation (a standard-chess position may be written in Shredder-FEN or X-FEN too,
/// for programs that want one dialect). `CHESS_ERR_INVALID_ARGUMENT` for an unknown mode or
/// notation.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_write_ex(
    pos: *const chess_position,
    mode: EpModeArg,
    castling: CastlingNotationArg,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        let pos = position(pos)?;
        let text_out = TextOut::new(buf, cap, out_len)?;
        let en_passant = ep_mode_arg(mode).ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        let castling = castling_notation_arg(castling).ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        let mut fen = StackText::<FEN_MAX_LEN>::new();
        pos.write_fen(&mut fen, &FenWriteOptions { en_passant, castling }).map_err(|_| CHESS_ERR_INTERNAL)?;
        text_out.write(fen.as_bytes())?;
        Ok(())
    })
}
