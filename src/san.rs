//! SAN: writing and reading moves, and lines of SAN or UCI moves.

use std::ffi::c_char;

use super::error::*;
use super::moves::{chess_move, fill};
use super::position::{chess_position, position, position_ref};
use super::util::{c_ascii, guard, guard_code, text_of, write_optional, Out, TextOut};
use chesscore_core::{Move, MovesLine, Position, San, SanMode, SanOptions, SAN_MAX_LEN};

/// Size of a buffer that holds any SAN `chess_move_to_san` writes, NUL included.
pub const CHESS_SAN_MAX: usize = 8;

const _: () = assert!(CHESS_SAN_MAX == SAN_MAX_LEN + 1);

/// Flag for SAN reading: accept only the canonical SAN, check or mate suffix included
/// (otherwise reading is lenient).
pub const CHESS_SAN_STRICT: u32 = 1;
/// Flag for SAN reading: accept the null move (`--`; leniently also `Z0`, `0000`, `@@@@`) as
/// `CHESS_MOVE_NONE` when the side to move is not in check.
pub const CHESS_SAN_ALLOW_NULL: u32 = 2;

/// The reading options of a `CHESS_SAN_*` flag set; unknown bits are an error.
fn san_options(flags: u32) -> Result<SanOptions, chess_error> {
    if flags & !(CHESS_SAN_STRICT | CHESS_SAN_ALLOW_NULL) != 0 {
        return Err(CHESS_ERR_INVALID_ARGUMENT);
    }
    let mode = if flags & CHESS_SAN_STRICT != 0 { SanMode::Strict } else { SanMode::Lenient };
    Ok(SanOptions { mode, allow_null: flags & CHESS_SAN_ALLOW_NULL != 0 })
}

/// Writes the SAN of `mv`, a legal move of `pos`, with its check or mate suffix (`Nf3`, `exd6`,
/// `e8=Q+`, `O-O-O#`); `CHESS_MOVE_NONE` gives `--`. `CHESS_SAN_MAX` bytes always suffice.
/// Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_MOVE`, `CHESS_ERR_ILLEGAL_MOVE`,
/// `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_move_to_san(
    pos: *const chess_position,
    mv: chess_move,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |pos: &Position, text_out: TextOut| {
        let mv = Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)?;
        let san = San::from_move(pos, mv).map_err(|_| CHESS_ERR_ILLEGAL_MOVE)?;
        text_out.write(san.as_bytes())?;
        Ok(())
    };
    // SAFETY: `pos` is NULL or a valid position, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(position_ref(pos), buf, cap, out_len, write) }
}

/// Reads a move in lenient SAN, as real PGN files hold it: check and mate suffixes present,
/// absent or wrong; one annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`); `0-0`; over-specified
/// origins and long algebraic (`Ngf3`, `Ng1-f3`); promotions with or without `=`. No null
/// moves. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_SAN_SYNTAX`,
/// `CHESS_ERR_ILLEGAL_MOVE`, `CHESS_ERR_SAN_AMBIGUOUS`.
#[no_mangle]
pub unsafe extern "C" fn chess_move_from_san(
    pos: *const chess_position,
    san: *const c_char,
    out: *mut chess_move,
) -> chess_error {
    // SAFETY: the arguments are passed on under the same contract.
    guard(CHESS_ERR_INTERNAL, || unsafe { chess_move_from_san_with(pos, san, 0, out) })
}

/// Reads a move in SAN as `flags` (a set of `CHESS_SAN_*` bits; 0 is `chess_move_from_san`)
/// asks: `CHESS_SAN_STRICT` accepts only the text `chess_move_to_san` writes, suffix included
/// (`CHESS_ERR_SAN_NOT_CANONICAL` for another spelling of a legal move), `CHESS_SAN_ALLOW_NULL`
/// reads a null move (`--`, `Z0`, `0000`, `@@@@`) as `CHESS_MOVE_NONE`. Errors as for
/// `chess_move_from_san`, those two, and `CHESS_ERR_INVALID_ARGUMENT` for unknown flag bits.
#[no_mangle]
pub unsafe extern "C" fn chess_move_from_san_with(
    pos: *const chess_position,
    san: *const c_char,
    flags: u32,
    out: *mut chess_move,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position(pos) }?;
        // SAFETY: `san` is NULL or a NUL-terminated string (the C contract).
        let san = unsafe { c_ascii(san) }?;
        let options = san_options(flags)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let mv = san.parse::<San>().and_then(|san| san.to_move_with(pos, &options)).map_err(|e| e.code())?;
        out.write(mv.raw());
        Ok(())
    })
}

/// Reads a line of moves separated by spaces, tabs or line breaks, each token in UCI when it
/// looks like UCI (`e2e4`, `e7e8q`) and in SAN (as `flags` asks) otherwise. The moves are read
/// in turn from `pos`, each in the position the earlier ones reach; `pos` itself is not changed.
///
/// On success `*out_count` receives the number of moves and the first `cap` of them are stored
/// in `out` (which may be NULL when `cap` is 0). When a token is bad, nothing is stored but
/// `*error_index` (optional): the index of the first bad token, counting from 0, and its code is
/// returned (`CHESS_ERR_SAN_SYNTAX`, `CHESS_ERR_ILLEGAL_MOVE`, `CHESS_ERR_SAN_AMBIGUOUS`,
/// `CHESS_ERR_SAN_NOT_CANONICAL`). Other errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_INVALID_ARGUMENT` (unknown flag bits).
#[no_mangle]
pub unsafe extern "C" fn chess_moves_from_line(
    pos: *const chess_position,
    line: *const c_char,
    flags: u32,
    out: *mut chess_move,
    cap: usize,
    out_count: *mut usize,
    error_index: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position(pos) }?;
        // SAFETY: `line` is NULL or a NUL-terminated string (the C contract).
        let line = unsafe { c_ascii(line) }?;
        let options = san_options(flags)?;
        if out.is_null() && cap > 0 {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        // SAFETY: `out_count` is NULL or valid for a write (the C contract).
        let out_count = unsafe { Out::new(out_count) }?;
        // The whole line is checked before anything is stored, so a bad token leaves `out` as
        // it was; then it is read again, without allocating either time.
        if let Some(Err(e)) = MovesLine::new(pos, line, &options).find(Result::is_err) {
            // SAFETY: `error_index` is NULL or valid for a write (the C contract).
            unsafe { write_optional(error_index, e.index) };
            return Err(e.error.code());
        }
        // SAFETY: `out` is NULL or valid for `cap` writes (the C contract).
        out_count.write(unsafe { fill(MovesLine::new(pos, line, &options).filter_map(Result::ok), out, cap) });
        Ok(())
    })
}
