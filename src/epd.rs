//! EPD records: reading, looking up operations and their operands, writing.

use std::ffi::c_char;
use std::ptr;

use super::error::*;
use super::fen::fen_options;
use super::moves::{chess_move, fill};
use super::position::{borrowed_handle, chess_position};
use super::util::{box_or_oom, c_ascii, c_utf8, free_handle, guard, guard_code, text_of, Out, TextOut};
use super::variant::{chess_variant, chess_variant_position, variant_arg};
use chesscore_core::variant::VariantPosition;
use chesscore_core::{Epd, Move, Operand, Operation};

/// An EPD record (opaque): a position and its operations, each an opcode with operands. Create
/// it with `chess_epd_parse` (or `chess_epd_parse_variant`) and release it with
/// `chess_epd_free`; it does not change after.
pub struct chess_epd {
    epd: Record,
}

/// A record of a chess position or of a variant's (with its position in a handle to lend).
enum Record {
    Chess(Epd),
    Variant(Epd<VariantPosition>, chess_variant_position),
}

impl Record {
    fn operations(&self) -> &[Operation] {
        match self {
            Record::Chess(epd) => epd.operations(),
            Record::Variant(epd, _) => epd.operations(),
        }
    }

    fn get(&self, opcode: &str) -> Option<&Operation> {
        match self {
            Record::Chess(epd) => epd.get(opcode),
            Record::Variant(epd, _) => epd.get(opcode),
        }
    }

    fn write(&self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        match self {
            Record::Chess(epd) => epd.write(out),
            Record::Variant(epd, _) => epd.write(out),
        }
    }
}

/// The type of an EPD operand.
pub type chess_operand_kind = u8;
/// No such operand.
pub const CHESS_OPERAND_NONE: chess_operand_kind = 0;
/// A move of `bm`, `am` or `pv`, read from SAN.
pub const CHESS_OPERAND_MOVE: chess_operand_kind = 1;
/// An integer such as `12` or `-35`.
pub const CHESS_OPERAND_INTEGER: chess_operand_kind = 2;
/// A finite number with a fraction or an exponent, such as `0.5`.
pub const CHESS_OPERAND_FLOAT: chess_operand_kind = 3;
/// A quoted string, unescaped.
pub const CHESS_OPERAND_STRING: chess_operand_kind = 4;
/// A bare token that is neither a number nor a move.
pub const CHESS_OPERAND_WORD: chess_operand_kind = 5;

fn operand_kind_ret(operand: &Operand) -> chess_operand_kind {
    match operand {
        Operand::Move(_) => CHESS_OPERAND_MOVE,
        Operand::Integer(_) => CHESS_OPERAND_INTEGER,
        Operand::Float(_) => CHESS_OPERAND_FLOAT,
        Operand::String(_) => CHESS_OPERAND_STRING,
        Operand::Word(_) => CHESS_OPERAND_WORD,
    }
}

/// The record behind a handle, if it is not NULL.
///
/// # Safety
/// `epd` is NULL or a live handle.
unsafe fn epd_ref<'a>(epd: *const chess_epd) -> Option<&'a Record> {
    // SAFETY: `epd` is NULL or a live handle (this function's contract).
    unsafe { epd.as_ref() }.map(|handle| &handle.epd)
}

/// The record behind a handle, or [`CHESS_ERR_NULL_POINTER`].
///
/// # Safety
/// As for [`epd_ref`].
unsafe fn epd<'a>(epd: *const chess_epd) -> Result<&'a Record, chess_error> {
    // SAFETY: this function's contract is `epd_ref`'s.
    unsafe { epd_ref(epd) }.ok_or(CHESS_ERR_NULL_POINTER)
}

/// Operand `index` of the operation `opcode`, or [`CHESS_ERR_EPD_NOT_FOUND`].
///
/// # Safety
/// `opcode` is NULL or a NUL-terminated string.
unsafe fn operand(epd: &Record, opcode: *const c_char, index: usize) -> Result<&Operand, chess_error> {
    // SAFETY: `opcode` is NULL or a NUL-terminated string (this function's contract).
    let opcode = unsafe { c_ascii(opcode) }?;
    epd.get(opcode).and_then(|op| op.operands.get(index)).ok_or(CHESS_ERR_EPD_NOT_FOUND)
}

/// Reads a standard-chess EPD line: the four position fields (the en passant field may be left
/// out when nothing follows), then operations `opcode operand...;`. `hmvc` and `fmvn` give the
/// position its clocks (default 0 and 1). Operands are quoted strings (`\` escapes the next
/// character), the SAN moves of `bm`, `am` (moves of the position) and `pv` (played in turn),
/// integers, floats or words. An opcode given twice keeps its first place and its last operands.
/// The line is UTF-8 (strings and words may hold more than ASCII). On success `*out` receives a
/// new handle to free with `chess_epd_free`. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_TEXT` (not UTF-8), `CHESS_ERR_EPD_MISSING_FIELDS`, a `CHESS_ERR_FEN_*` code
/// for the position, `CHESS_ERR_EPD_OPCODE`, `CHESS_ERR_EPD_UNTERMINATED_STRING`,
/// `CHESS_ERR_EPD_INVALID_OPERAND`, `CHESS_ERR_SAN_SYNTAX`, `CHESS_ERR_ILLEGAL_MOVE` or
/// `CHESS_ERR_SAN_AMBIGUOUS` for a move operand, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_parse(line: *const c_char, out: *mut *mut chess_epd) -> chess_error {
    // SAFETY: the arguments are passed on under the same contract.
    unsafe { chess_epd_parse_with(line, 0, out) }
}

/// `chess_epd_parse` with the position read as `chess_fen_parse_with` reads it: `flags`
/// combines `CHESS_FEN_CHESS960` (X-FEN or Shredder-FEN castling, a position in Chess960 mode),
/// `CHESS_FEN_DROP_BAD_CASTLING`, `CHESS_FEN_DROP_BAD_EN_PASSANT` and
/// `CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK`. `CHESS_ERR_INVALID_ARGUMENT` for unknown flag bits.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_parse_with(
    line: *const c_char,
    flags: u32,
    out: *mut *mut chess_epd,
) -> chess_error {
    guard_code(|| {
        let options = fen_options(flags)?;
        // SAFETY: `line` is NULL or a NUL-terminated string (the C contract).
        let line = unsafe { c_utf8(line) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let epd = Epd::parse_with(line, &options).map_err(|e| e.code())?;
        out.write(box_or_oom(chess_epd { epd: Record::Chess(epd) })?);
        Ok(())
    })
}

/// Reads an EPD line of `variant` (a `CHESS_VARIANT_*` value) as `chess_epd_parse` reads a
/// chess one, its position fields as python-chess's variant boards write them: crazyhouse's
/// pockets and promoted pieces in the placement (`[Qn]`, `Q~`; lichess's ninth row `/Qn` too),
/// three-check's remaining checks as a field after the en passant square (`2+3`; without it,
/// 3 each). The moves of `bm`, `am` and `pv` are the variant's SAN (drops `N@f3`, `@e4`). Read
/// the position with `chess_epd_variant_position`; the other `chess_epd_*` functions read and
/// write the record as a chess one's. Errors: those of `chess_epd_parse`,
/// `CHESS_ERR_INVALID_ARGUMENT` (no such variant), `CHESS_ERR_VARIANT_POCKET`,
/// `CHESS_ERR_VARIANT_CHECKS`, `CHESS_ERR_VARIANT_KINGS`.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_parse_variant(
    variant: chess_variant,
    line: *const c_char,
    out: *mut *mut chess_epd,
) -> chess_error {
    guard_code(|| {
        let variant = variant_arg(variant).ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        // SAFETY: `line` is NULL or a NUL-terminated string (the C contract).
        let line = unsafe { c_utf8(line) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let epd = Epd::parse_variant(variant, line).map_err(|e| e.code())?;
        let position = chess_variant_position { pos: *epd.position() };
        out.write(box_or_oom(chess_epd { epd: Record::Variant(epd, position) })?);
        Ok(())
    })
}

/// The position of a record from `chess_epd_parse_variant`, with the clocks of `hmvc` and
/// `fmvn`: NULL for a NULL record or one from `chess_epd_parse`. It belongs to the record
/// (never free or change it) and stays valid until the record is freed.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_variant_position(epd: *const chess_epd) -> *const chess_variant_position {
    // SAFETY: `epd` is NULL or a live handle (the C contract).
    guard(ptr::null(), || match unsafe { epd_ref(epd) } {
        Some(Record::Variant(_, position)) => ptr::from_ref(position),
        _ => ptr::null(),
    })
}

/// Releases a record and its position. NULL is accepted and ignored.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_free(epd: *mut chess_epd) {
    // SAFETY: `epd` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(epd) }
}

/// The position of the record, with the clocks of `hmvc` and `fmvn` (NULL for a NULL record, and
/// for a record of `chess_epd_parse_variant` of a variant other than chess and Chess960). It
/// belongs to the record and stays valid until the record is freed.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_position(epd: *const chess_epd) -> *const chess_position {
    // SAFETY: `epd` is NULL or a live handle (the C contract).
    guard(ptr::null(), || match unsafe { epd_ref(epd) } {
        Some(Record::Chess(epd)) => borrowed_handle(epd.position()),
        Some(Record::Variant(epd, _)) => epd.position().as_chess().map_or(ptr::null(), borrowed_handle),
        None => ptr::null(),
    })
}

/// Writes the canonical EPD: the four position fields as `chess_fen_write` writes them (a
/// variant's as `chess_variant_position_fen` writes them, without the clocks), then
/// each operation as `opcode operand...;` after a space: moves as SAN with suffix, strings
/// quoted with `"` and `\` escaped, floats in their shortest exact form. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_write(
    epd: *const chess_epd,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |epd: &Record, text_out: TextOut| {
        // The sink never fails and a record holds legal moves only, so this cannot fail.
        text_out.write_with(|sink| epd.write(sink).map_err(|_| CHESS_ERR_INTERNAL))?;
        Ok(())
    };
    // SAFETY: `epd` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len` NULL
    // or valid (the C contract).
    unsafe { text_of(epd_ref(epd), buf, cap, out_len, write) }
}

/// The number of operations (0 for a NULL record).
#[no_mangle]
pub unsafe extern "C" fn chess_epd_operation_count(epd: *const chess_epd) -> usize {
    // SAFETY: `epd` is NULL or a live handle (the C contract).
    guard(0, || unsafe { epd_ref(epd) }.map_or(0, |epd| epd.operations().len()))
}

/// Writes the opcode of operation `index` (0 to `chess_epd_operation_count` - 1, in the order
/// of the line). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_EPD_NOT_FOUND` (`index` too
/// large), `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_opcode(
    epd: *const chess_epd,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |epd: &Record, text_out: TextOut| {
        let operation = epd.operations().get(index).ok_or(CHESS_ERR_EPD_NOT_FOUND)?;
        text_out.write(operation.opcode.as_bytes())?;
        Ok(())
    };
    // SAFETY: `epd` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len` NULL
    // or valid (the C contract).
    unsafe { text_of(epd_ref(epd), buf, cap, out_len, write) }
}

/// True when the record has an operation with this opcode (false for NULL arguments or a
/// non-ASCII opcode).
#[no_mangle]
pub unsafe extern "C" fn chess_epd_has(epd: *const chess_epd, opcode: *const c_char) -> bool {
    // SAFETY: `epd` is NULL or a live handle, `opcode` NULL or a NUL-terminated string (the C
    // contract).
    guard(false, || match unsafe { (epd_ref(epd), c_ascii(opcode)) } {
        (Some(epd), Ok(opcode)) => epd.get(opcode).is_some(),
        _ => false,
    })
}

/// The number of operands of the operation `opcode`; 0 when there is no such operation (see
/// `chess_epd_has`), for NULL arguments or a non-ASCII opcode.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_operand_count(epd: *const chess_epd, opcode: *const c_char) -> usize {
    // SAFETY: `epd` is NULL or a live handle, `opcode` NULL or a NUL-terminated string (the C
    // contract).
    guard(0, || match unsafe { (epd_ref(epd), c_ascii(opcode)) } {
        (Some(epd), Ok(opcode)) => epd.get(opcode).map_or(0, |op| op.operands.len()),
        _ => 0,
    })
}

/// The type of operand `index` (from 0) of the operation `opcode`; `CHESS_OPERAND_NONE` when
/// there is no such operand, for NULL arguments or a non-ASCII opcode.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_operand_kind(
    epd: *const chess_epd,
    opcode: *const c_char,
    index: usize,
) -> chess_operand_kind {
    let none = CHESS_OPERAND_NONE;
    // SAFETY: `epd` is NULL or a live handle (the C contract).
    guard(none, || match unsafe { epd_ref(epd) } {
        // SAFETY: `opcode` is NULL or a NUL-terminated string (the C contract).
        Some(epd) => unsafe { operand(epd, opcode, index) }.map_or(none, operand_kind_ret),
        None => none,
    })
}

/// Writes operand `index` of the operation `opcode` when it is a string (unescaped, without its
/// quotes; UTF-8 as read) or a word. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT`
/// (a non-ASCII opcode), `CHESS_ERR_EPD_NOT_FOUND`, `CHESS_ERR_EPD_WRONG_TYPE`,
/// `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_operand_string(
    epd: *const chess_epd,
    opcode: *const c_char,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |epd: &Record, text_out: TextOut| {
        // SAFETY: `opcode` is NULL or a NUL-terminated string (the C contract).
        let text = unsafe { operand(epd, opcode, index) }?.as_str().ok_or(CHESS_ERR_EPD_WRONG_TYPE)?;
        text_out.write(text.as_bytes())?;
        Ok(())
    };
    // SAFETY: `epd` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len` NULL
    // or valid (the C contract).
    unsafe { text_of(epd_ref(epd), buf, cap, out_len, write) }
}

/// Stores operand `index` of the operation `opcode` in `*out` when it is an integer. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_EPD_NOT_FOUND`,
/// `CHESS_ERR_EPD_WRONG_TYPE`.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_operand_integer(
    epd: *const chess_epd,
    opcode: *const c_char,
    index: usize,
    out: *mut i64,
) -> chess_error {
    // SAFETY: the pointers are NULL or valid as `write_operand` needs (the C contract).
    unsafe { write_operand(epd, opcode, index, out, Operand::as_integer) }
}

/// Stores operand `index` of the operation `opcode` in `*out` when it is a number, integer or
/// float. Errors as for `chess_epd_operand_integer`.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_operand_float(
    epd: *const chess_epd,
    opcode: *const c_char,
    index: usize,
    out: *mut f64,
) -> chess_error {
    // SAFETY: the pointers are NULL or valid as `write_operand` needs (the C contract).
    unsafe { write_operand(epd, opcode, index, out, Operand::as_float) }
}

/// Stores operand `index` of the operation `opcode` in `*out` when it is a move. A `pv` move is a
/// move of the position its predecessors reach. Errors as for `chess_epd_operand_integer`.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_operand_move(
    epd: *const chess_epd,
    opcode: *const c_char,
    index: usize,
    out: *mut chess_move,
) -> chess_error {
    // SAFETY: the pointers are NULL or valid as `write_operand` needs (the C contract).
    unsafe { write_operand(epd, opcode, index, out, |op| op.as_move().map(Move::raw)) }
}

/// Stores operand `index` of the operation `opcode` in `*out` when `value` gives it one.
///
/// # Safety
/// `epd` is NULL or a live handle, `opcode` NULL or NUL-terminated, `out` NULL or valid for a
/// write.
unsafe fn write_operand<T>(
    epd: *const chess_epd,
    opcode: *const c_char,
    index: usize,
    out: *mut T,
    value: impl FnOnce(&Operand) -> Option<T>,
) -> chess_error {
    guard_code(|| {
        // SAFETY: this function's contract, for each pointer.
        let (epd, out) = unsafe { (self::epd(epd)?, Out::new(out)?) };
        // SAFETY: `opcode` is NULL or a NUL-terminated string (this function's contract).
        out.write(value(unsafe { operand(epd, opcode, index) }?).ok_or(CHESS_ERR_EPD_WRONG_TYPE)?);
        Ok(())
    })
}

/// Writes up to `cap` move operands of the operation `opcode` (`bm`, `am`: moves of the
/// position; `pv`: a line played in turn), in order, to `out` and returns how many it has. `out`
/// may be NULL when `cap` is 0. Returns 0 when there is no such operation, for NULL arguments, a
/// non-ASCII opcode, or a NULL `out` with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_epd_moves(
    epd: *const chess_epd,
    opcode: *const c_char,
    out: *mut chess_move,
    cap: usize,
) -> usize {
    // SAFETY: `epd` is NULL or a live handle, `opcode` NULL or a NUL-terminated string (the C
    // contract).
    guard(0, || match unsafe { (epd_ref(epd), c_ascii(opcode)) } {
        // SAFETY: `out` is NULL or valid for `cap` writes (the C contract).
        (Some(epd), Ok(opcode)) => epd.get(opcode).map_or(0, |op| unsafe { fill(op.moves(), out, cap) }),
        _ => 0,
    })
}
