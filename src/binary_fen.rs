//! Binary FEN reading and writing.

use super::error::*;
use super::fen::{chess_fen_info, fen_options};
use super::position::{chess_position, position, try_new_handle};
use super::util::{c_slice, guard_code, versioned, write_optional, Out};
use chesscore_core::{BinaryFenError, Position, BINARY_FEN_MAX_LEN};

/// Size of a buffer that holds any binary FEN `chess_position_to_binary_fen` writes (24 bytes
/// at most for a legal position with clocks `0 1`).
pub const CHESS_BINARY_FEN_MAX: usize = 34;

const _: () = assert!(CHESS_BINARY_FEN_MAX == BINARY_FEN_MAX_LEN);

/// Writes the position in binary FEN (the lichess encoding, also that of Stockfish's training
/// data): an occupancy bitboard, a 4-bit code per piece, then the clocks when they are not
/// `0 1`; the en passant square only when the capture is legal, as `chess_fen_write`.
/// `*out_len` (which may be NULL) receives the length, at most `CHESS_BINARY_FEN_MAX`; when
/// `cap` is smaller, `CHESS_ERR_BUFFER_TOO_SMALL` with only `*out_len` set. `buf` may be NULL
/// when `cap` is 0. No NUL is written: the bytes are binary.
#[no_mangle]
pub unsafe extern "C" fn chess_position_to_binary_fen(
    pos: *const chess_position,
    buf: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position(pos) }?;
        if buf.is_null() && cap > 0 {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        let packed = pos.to_binary_fen();
        let len = packed.len();
        // SAFETY: `out_len` is NULL or valid for a write (the C contract).
        unsafe { write_optional(out_len, len) };
        if len > cap {
            return Err(CHESS_ERR_BUFFER_TOO_SMALL);
        }
        // SAFETY: `buf` is not NULL (`cap >= len > 0`) and valid for `cap` bytes (the C
        // contract).
        unsafe { std::ptr::copy_nonoverlapping(packed.as_bytes().as_ptr(), buf, len) };
        Ok(())
    })
}

/// Reads a binary FEN of `len` bytes (`bytes` may be NULL when `len` is 0) and checks the
/// position as `chess_fen_parse` does; trailing zero bytes are padding (a fixed-width field
/// reads as well). On success `*out` receives a new handle to free with `chess_position_free`.
/// Errors: `CHESS_ERR_NULL_POINTER`, a `CHESS_ERR_BINARY_FEN_*` code for malformed bytes, the
/// `CHESS_ERR_FEN_*` code of an invalid position, `CHESS_ERR_OUT_OF_MEMORY`.
///
/// Deprecated (2.0 removes it): `chess_binary_fen_parse_into`, into a position of the caller's or
/// one from `chess_position_new`.
#[deprecated(note = "use chess_binary_fen_parse_into (a position from chess_position_new for a handle)")]
#[no_mangle]
pub unsafe extern "C" fn chess_binary_fen_parse(
    bytes: *const u8,
    len: usize,
    out: *mut *mut chess_position,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `bytes` is NULL or valid for `len` bytes (the C contract).
        let pos = unsafe { read(bytes, len, 0, &mut None) }?;
        out.write(try_new_handle(pos)?);
        Ok(())
    })
}

/// `chess_binary_fen_parse` into a position the caller holds (`chess_position p;`), which may be
/// uninitialised: no allocation. `dst` is untouched on error.
#[no_mangle]
pub unsafe extern "C" fn chess_binary_fen_parse_into(
    bytes: *const u8,
    len: usize,
    dst: *mut chess_position,
) -> chess_error {
    // SAFETY: the arguments are passed on under the same contract, and `info` may be NULL.
    unsafe { chess_binary_fen_parse_with(bytes, len, 0, dst, std::ptr::null_mut()) }
}

/// The general binary FEN reader: `flags` are those of `chess_fen_parse_with`
/// (`CHESS_FEN_CHESS960` reads castling rooks as Chess960, as a Chess960 variant byte does;
/// the drop flags repair the same defects); the position goes into `dst` (untouched on error),
/// and `info`, when not NULL, receives the byte offset of an error (for an invalid position,
/// that of the piece concerned, or 0) or what was dropped.
#[no_mangle]
pub unsafe extern "C" fn chess_binary_fen_parse_with(
    bytes: *const u8,
    len: usize,
    flags: u32,
    dst: *mut chess_position,
    info: *mut chess_fen_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let mut info = unsafe { versioned(info) }?;
        // SAFETY: `dst` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(dst.cast::<Position>()) }?;
        // SAFETY: `bytes` is NULL or valid for `len` bytes (the C contract).
        let pos = unsafe { read(bytes, len, flags, &mut info) }?;
        out.write(pos);
        Ok(())
    })
}

/// Reads the bytes with `flags`, reporting the error offset or the repairs to `info`.
///
/// # Safety
/// `bytes` is NULL or valid for `len` bytes of reads.
unsafe fn read(
    bytes: *const u8,
    len: usize,
    flags: u32,
    info: &mut Option<&mut chess_fen_info>,
) -> Result<Position, chess_error> {
    // SAFETY: this function's contract.
    let bytes = unsafe { c_slice(bytes, len) }?;
    let options = fen_options(flags)?;
    match Position::from_binary_fen_with(bytes, &options) {
        Ok((pos, repairs)) => {
            if let Some(info) = info {
                info.dropped_castling = repairs.dropped_castling;
                info.dropped_en_passant = super::types::square_ret(repairs.dropped_en_passant);
            }
            Ok(pos)
        }
        Err(error) => {
            if let Some(info) = info {
                info.error_offset = error.offset();
            }
            Err(error.code())
        }
    }
}

impl ErrorCode for BinaryFenError {
    fn code(&self) -> chess_error {
        match self {
            BinaryFenError::Counter { .. } => CHESS_ERR_BINARY_FEN_COUNTER,
            BinaryFenError::Variant { .. } => CHESS_ERR_BINARY_FEN_VARIANT,
            BinaryFenError::TrailingBytes { .. } => CHESS_ERR_BINARY_FEN_TRAILING_BYTES,
            BinaryFenError::EnPassantPawn { .. } => CHESS_ERR_BINARY_FEN_EN_PASSANT_PAWN,
            BinaryFenError::Position { error } => error.code(),
            // A kind of fault newer than the codes: still the bytes' fault.
            _ => CHESS_ERR_INVALID_ARGUMENT,
        }
    }
}
