//! FEN reading and writing.

use std::ffi::c_char;
use std::ptr;

use super::error::*;
use super::position::{chess_position, position_ref, try_new_handle};
use super::types::{chess_square, square_ret};
use super::util::{c_bytes, guard_code, text_of, versioned, Out, StackText, TextOut, Versioned};
use chesscore_core::{
    CastlingNotation, EnPassantMode, Fen, FenError, FenField, FenFileError, FenOptions, FenRepairs, FenWriteOptions,
    Position, Repair, FEN_MAX_LEN,
};

/// Size of a buffer that holds any FEN `chess_fen_write` produces, NUL included.
pub const CHESS_FEN_MAX: usize = 104;

const _: () = assert!(CHESS_FEN_MAX == FEN_MAX_LEN + 1);

/// Reads a standard-chess FEN (4 to 6 fields; missing clocks read as `0 1`) and checks that the
/// position is legal. On success `*out` receives a new handle to free with `chess_position_free`.
/// Errors: `CHESS_ERR_NULL_POINTER`, a `CHESS_ERR_FEN_*` code, `CHESS_ERR_OUT_OF_MEMORY`.
///
/// Deprecated (2.0 removes it): `chess_fen_parse_into`, into a position of the caller's or one
/// from `chess_position_new`.
#[deprecated(note = "use chess_fen_parse_into (a position from chess_position_new for a handle)")]
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse(fen: *const c_char, out: *mut *mut chess_position) -> chess_error {
    // SAFETY: `fen` is NULL or a NUL-terminated string, `out` NULL or valid for a write (the C
    // contract).
    guard_code(|| unsafe { parse_handle(fen, 0, out) })
}

/// Reads a Chess960 FEN: castling rights in X-FEN (`KQkq` for the outermost rook on a side, a
/// file letter for an inner one) or Shredder-FEN (`HAha`), king and rooks anywhere on the back
/// rank. The position is in Chess960 mode: castling is king-takes-rook in UCI, and FEN writing
/// uses X-FEN. Otherwise as `chess_fen_parse`.
///
/// Deprecated (2.0 removes it): `chess_fen_parse_with` with the flag `CHESS_FEN_CHESS960`.
#[deprecated(note = "use chess_fen_parse_with with CHESS_FEN_CHESS960")]
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse_chess960(fen: *const c_char, out: *mut *mut chess_position) -> chess_error {
    // SAFETY: `fen` is NULL or a NUL-terminated string, `out` NULL or valid for a write (the C
    // contract).
    guard_code(|| unsafe { parse_handle(fen, CHESS_FEN_CHESS960, out) })
}

/// `chess_fen_parse` into a position the caller holds (`chess_position p;`), which may be
/// uninitialised: no allocation. `dst` is untouched on error.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse_into(fen: *const c_char, dst: *mut chess_position) -> chess_error {
    // SAFETY: the arguments are passed on under the same contract, and `info` may be NULL.
    unsafe { chess_fen_parse_with(fen, 0, dst, ptr::null_mut()) }
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

/// Details of a FEN reading, for the readers that take one (it may be NULL). The caller sets
/// `size` to `sizeof(chess_fen_info)`; fields added in later versions are written only when
/// `size` covers them (`CHESS_ERR_INVALID_ARGUMENT` when it is smaller than this version's).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct chess_fen_info {
    /// `sizeof(chess_fen_info)`, set by the caller.
    pub size: usize,
    /// On a `CHESS_ERR_FEN_*` error: the byte offset where the FEN went wrong (for messages
    /// such as "error at column 17").
    pub error_offset: usize,
    /// On success: the castling letters the drop flags removed, as `KQkq` bits (1 = `K`, 2 =
    /// `Q`, 4 = `k`, 8 = `q`).
    pub dropped_castling: u8,
    /// On success: the en passant square the drop flags removed, or `CHESS_NO_SQUARE`.
    pub dropped_en_passant: chess_square,
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_fen_info {}

/// The general FEN reader: `flags` combines `CHESS_FEN_CHESS960`, `CHESS_FEN_DROP_BAD_CASTLING`,
/// `CHESS_FEN_DROP_BAD_EN_PASSANT` and `CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK` (0 reads as
/// `chess_fen_parse`); the position goes into `dst` (untouched on error), and `info`, when not
/// NULL, receives the error offset or what was dropped. Errors: those of `chess_fen_parse`, and
/// `CHESS_ERR_INVALID_ARGUMENT` for unknown flag bits or a short `info`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_parse_with(
    fen: *const c_char,
    flags: u32,
    dst: *mut chess_position,
    info: *mut chess_fen_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let mut info = unsafe { versioned(info) }?;
        // SAFETY: `fen` is NULL or a NUL-terminated string (the C contract).
        let fen = unsafe { c_bytes(fen) }?;
        // SAFETY: `dst` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(dst.cast::<Position>()) }?;
        let (pos, dropped) = read(fen, flags, &mut info)?;
        out.write(pos);
        if let Some(info) = info {
            info.dropped_castling = dropped.dropped_castling;
            info.dropped_en_passant = square_ret(dropped.dropped_en_passant);
        }
        Ok(())
    })
}

/// Reads `fen` with `flags`, reporting the error offset to `info`.
fn read(fen: &[u8], flags: u32, info: &mut Option<&mut chess_fen_info>) -> Result<(Position, FenRepairs), chess_error> {
    let options = fen_options(flags)?;
    Fen::parse_bytes(fen).and_then(|f| f.validate(&options)).map_err(|e| fen_failure(&e, info))
}

/// The reading options `CHESS_FEN_*` flags ask for (`CHESS_ERR_INVALID_ARGUMENT` for unknown
/// bits).
pub(crate) fn fen_options(flags: u32) -> Result<FenOptions, chess_error> {
    let known = CHESS_FEN_CHESS960
        | CHESS_FEN_DROP_BAD_CASTLING
        | CHESS_FEN_DROP_BAD_EN_PASSANT
        | CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK;
    if flags & !known != 0 {
        return Err(CHESS_ERR_INVALID_ARGUMENT);
    }
    let repair = |flag| if flags & flag != 0 { Repair::Drop } else { Repair::Reject };
    Ok(FenOptions {
        chess960: flags & CHESS_FEN_CHESS960 != 0,
        bad_castling: repair(CHESS_FEN_DROP_BAD_CASTLING),
        bad_en_passant: repair(CHESS_FEN_DROP_BAD_EN_PASSANT),
        allow_impossible_check: flags & CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK != 0,
    })
}

/// The code of a FEN error, its offset reported to `info`.
pub(crate) fn fen_failure(error: &FenError, info: &mut Option<&mut chess_fen_info>) -> chess_error {
    if let Some(info) = info {
        info.error_offset = error.offset();
    }
    error.code()
}

/// Reads a FEN into a new handle.
///
/// # Safety
/// As for the exported readers.
unsafe fn parse_handle(fen: *const c_char, flags: u32, out: *mut *mut chess_position) -> Result<(), chess_error> {
    // SAFETY: `fen` is NULL or a NUL-terminated string (this function's contract).
    let fen = unsafe { c_bytes(fen) }?;
    // SAFETY: `out` is NULL or valid for a write (this function's contract).
    let out = unsafe { Out::new(out) }?;
    let (pos, _) = read(fen, flags, &mut None)?;
    out.write(try_new_handle(pos)?);
    Ok(())
}

/// Builds a position from the six FEN fields given separately (none may be empty or hold a
/// space) into `dst` (untouched on error). Error offsets, reported to `info` (which may be
/// NULL), count in the fields joined by single spaces. Otherwise as `chess_fen_parse_into`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_from_components(
    placement: *const c_char,
    side_to_move: *const c_char,
    castling: *const c_char,
    en_passant: *const c_char,
    halfmove_clock: *const c_char,
    fullmove_number: *const c_char,
    dst: *mut chess_position,
    info: *mut chess_fen_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let mut info = unsafe { versioned(info) }?;
        // SAFETY: each field is NULL or a NUL-terminated string (the C contract).
        let parts = unsafe {
            [
                c_bytes(placement)?,
                c_bytes(side_to_move)?,
                c_bytes(castling)?,
                c_bytes(en_passant)?,
                c_bytes(halfmove_clock)?,
                c_bytes(fullmove_number)?,
            ]
        };
        // SAFETY: `dst` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(dst.cast::<Position>()) }?;
        let pos = Position::from_fen_component_bytes(parts).map_err(|e| fen_failure(&e, &mut info))?;
        out.write(pos);
        Ok(())
    })
}

/// Splits a FEN into its six fields, checking their syntax (not the position), with absent
/// clocks filled in as `0` and `1`. The fields are copied into `buf`, each NUL-terminated, and
/// `fields` (an array of 6) receives pointers to them in FEN order. `*out_len` is the length of
/// the copied text without its final NUL (so `cap` must exceed it). `info` as for
/// `chess_fen_parse_with`.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_split(
    fen: *const c_char,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    fields: *mut *const c_char,
    info: *mut chess_fen_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let mut info = unsafe { versioned(info) }?;
        // SAFETY: `fen` is NULL or a NUL-terminated string (the C contract).
        let fen = unsafe { c_bytes(fen) }?;
        // SAFETY: `buf` is NULL or valid for `cap` bytes, `out_len` NULL or valid (the C contract).
        let text_out = unsafe { TextOut::new(buf, cap, out_len) }?;
        if fields.is_null() {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        let parsed = Fen::parse_bytes(fen).map_err(|e| fen_failure(&e, &mut info))?;
        // The fields as written, the absent clocks filled in.
        let order = [
            (FenField::Placement, &b""[..]),
            (FenField::SideToMove, b""),
            (FenField::Castling, b""),
            (FenField::EnPassant, b""),
            (FenField::HalfmoveClock, b"0"),
            (FenField::FullmoveNumber, b"1"),
        ];
        let parts = order.map(|(field, absent)| parsed.field_range(field).map_or(absent, |range| &fen[range]));
        let start = text_out
            .write_with(|sink| {
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        sink.write_bytes(b"\0");
                    }
                    sink.write_bytes(part);
                }
                Ok(())
            })?
            .cast_const();
        let mut offset = 0;
        for (i, part) in parts.iter().enumerate() {
            // SAFETY: `fields` is not NULL, so it holds 6 pointers (the C contract), one for each
            // part; `offset` is where part `i` starts in the text just copied to `buf`.
            unsafe { fields.add(i).write(start.add(offset)) };
            offset += part.len() + 1;
        }
        Ok(())
    })
}

/// Reads the first non-empty line of a FEN file (and no more of the file: at most 1 MiB of
/// blank lines before it, then one line) into `dst` (untouched on error). Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_FILE_NOT_FOUND`, `CHESS_ERR_IO`, `CHESS_ERR_INVALID_TEXT`
/// (a path this system cannot represent), a `CHESS_ERR_FEN_*` code (its offset within the line
/// reported to `info`, as for `chess_fen_parse_with`), `CHESS_ERR_INVALID_ARGUMENT` (a short
/// `info`).
#[no_mangle]
pub unsafe extern "C" fn chess_fen_read_file(
    path: *const c_char,
    dst: *mut chess_position,
    info: *mut chess_fen_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let mut info = unsafe { versioned(info) }?;
        // SAFETY: `path` is NULL or a NUL-terminated string (the C contract).
        let path = c_path(unsafe { c_bytes(path) }?)?;
        // SAFETY: `dst` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(dst.cast::<Position>()) }?;
        let pos = Position::from_fen_file(path).map_err(|e| match e {
            FenFileError::NotFound(_) => CHESS_ERR_FILE_NOT_FOUND,
            FenFileError::Io { .. } => CHESS_ERR_IO,
            FenFileError::Fen(e) => fen_failure(&e, &mut info),
            // A kind of failure newer than the codes: still reading the file.
            _ => CHESS_ERR_IO,
        })?;
        out.write(pos);
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
    // SAFETY: the arguments are passed on under the same contract.
    unsafe { chess_fen_write_with(pos, 0, buf, cap, out_len) }
}

/// `chess_fen_write_with` flag: the en passant square as recorded (after every double push)
/// rather than only when the capture is legal.
pub const CHESS_FEN_WRITE_EP_AS_RECORDED: u32 = 1;
/// `chess_fen_write_with` flag: the en passant square when a pawn of the side to move stands
/// beside the pawn that advanced two squares (as X-FEN and Polyglot count it).
pub const CHESS_FEN_WRITE_EP_PSEUDO_LEGAL: u32 = 2;
/// `chess_fen_write_with` flag: castling rights in X-FEN (`KQkq` for the outermost rook, the
/// file letter for an inner one), in standard chess too.
pub const CHESS_FEN_WRITE_XFEN: u32 = 4;
/// `chess_fen_write_with` flag: castling rights in Shredder-FEN (the rooks' files, `HAha`).
pub const CHESS_FEN_WRITE_SHREDDER: u32 = 8;

/// `chess_fen_write` with `flags`: at most one of `CHESS_FEN_WRITE_EP_AS_RECORDED` and
/// `CHESS_FEN_WRITE_EP_PSEUDO_LEGAL`, at most one of `CHESS_FEN_WRITE_XFEN` and
/// `CHESS_FEN_WRITE_SHREDDER` (0 writes as `chess_fen_write`). `CHESS_ERR_INVALID_ARGUMENT` for
/// unknown bits or both of a pair.
#[no_mangle]
pub unsafe extern "C" fn chess_fen_write_with(
    pos: *const chess_position,
    flags: u32,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |pos: &Position, text_out: TextOut| {
        let options = fen_write_options(flags)?;
        let mut fen = StackText::<FEN_MAX_LEN>::new();
        pos.write_fen(&mut fen, &options).map_err(|_| CHESS_ERR_INTERNAL)?;
        text_out.write(fen.as_bytes())?;
        Ok(())
    };
    // SAFETY: `pos` is NULL or a valid position, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(position_ref(pos), buf, cap, out_len, write) }
}

/// The writing options `CHESS_FEN_WRITE_*` flags ask for (`CHESS_ERR_INVALID_ARGUMENT` for
/// unknown bits or both of a pair).
pub(crate) fn fen_write_options(flags: u32) -> Result<FenWriteOptions, chess_error> {
    let en_passant = match flags & (CHESS_FEN_WRITE_EP_AS_RECORDED | CHESS_FEN_WRITE_EP_PSEUDO_LEGAL) {
        0 => EnPassantMode::Legal,
        CHESS_FEN_WRITE_EP_AS_RECORDED => EnPassantMode::AsRecorded,
        CHESS_FEN_WRITE_EP_PSEUDO_LEGAL => EnPassantMode::PseudoLegal,
        _ => return Err(CHESS_ERR_INVALID_ARGUMENT),
    };
    let castling = match flags & !(CHESS_FEN_WRITE_EP_AS_RECORDED | CHESS_FEN_WRITE_EP_PSEUDO_LEGAL) {
        0 => CastlingNotation::Auto,
        CHESS_FEN_WRITE_XFEN => CastlingNotation::XFen,
        CHESS_FEN_WRITE_SHREDDER => CastlingNotation::Shredder,
        _ => return Err(CHESS_ERR_INVALID_ARGUMENT),
    };
    Ok(FenWriteOptions { en_passant, castling })
}
