//! Editable setups: a board that need not be a valid position, held by the caller as a plain
//! struct, with python-chess's queries on any board (status flags, attackers, pins, moves).

use std::ffi::c_char;

use super::error::*;
use super::fen::{chess_fen_info, fen_failure, fen_options, fen_write_options, CHESS_FEN_CHESS960};
use super::moves::{chess_move, fill};
use super::position::{chess_position, position, write_position};
use super::types::*;
use super::util::{c_bytes, guard, guard_code, versioned, Out, StackText, TextOut};
use chesscore_core::{Bitboard, Fen, Move, Piece, Position, Setup, FEN_MAX_LEN};

/// A board as plain data, checked by nothing: any pieces anywhere, any castling rights and en
/// passant square. The caller holds it (`chess_setup s;`) and edits its fields freely; the
/// `chess_setup_*` functions read it. Every field is checked when read: a piece code outside
/// the `chess_piece` values, a `turn` other than `CHESS_WHITE`/`CHESS_BLACK`, an `en_passant`
/// other than a square or `CHESS_NO_SQUARE`, or a `chess960` other than 0 or 1 makes the
/// setup unreadable (`CHESS_ERR_INVALID_ARGUMENT`, or the query's empty answer).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct chess_setup {
    /// The piece on each square, a1 = 0 .. h8 = 63; `CHESS_NO_PIECE` for an empty one.
    pub board: [chess_piece; 64],
    /// The squares of the rooks that keep a castling right (bit `1 << square`).
    pub castling_rooks: u64,
    /// Halfmoves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The number of the move.
    pub fullmove_number: u32,
    /// The side to move.
    pub turn: chess_color,
    /// The en passant square as recorded, or `CHESS_NO_SQUARE`.
    pub en_passant: chess_square,
    /// 1 for Chess960 castling rules (any back-rank arrangement), 0 for standard chess.
    pub chess960: u8,
}

/// `chess_setup_moves`: the legal moves.
pub const CHESS_SETUP_LEGAL: u32 = 1;
/// `chess_setup_moves`: the pseudo-legal moves.
pub const CHESS_SETUP_PSEUDO_LEGAL: u32 = 2;

/// The setup a struct holds with its Chess960 mode, or `None` when a field is out of range.
fn read(s: &chess_setup) -> Option<(Setup, bool)> {
    let mut setup = Setup::empty();
    for (square, &code) in setup.board.iter_mut().zip(s.board.iter()) {
        *square = match code {
            CHESS_NO_PIECE => None,
            code => Some(Piece::new(color_arg(code >> 3)?, kind_arg(code & 7)?)),
        };
    }
    setup.castling_rooks = Bitboard(s.castling_rooks);
    setup.halfmove_clock = s.halfmove_clock;
    setup.fullmove_number = s.fullmove_number;
    setup.turn = color_arg(s.turn)?;
    setup.en_passant = match s.en_passant {
        CHESS_NO_SQUARE => None,
        sq => Some(square_arg(sq)?),
    };
    let chess960 = match s.chess960 {
        0 => false,
        1 => true,
        _ => return None,
    };
    Some((setup, chess960))
}

/// The struct holding `setup`.
pub(crate) fn write(setup: &Setup, chess960: bool) -> chess_setup {
    chess_setup {
        board: setup.board.map(piece_ret),
        castling_rooks: setup.castling_rooks.0,
        halfmove_clock: setup.halfmove_clock,
        fullmove_number: setup.fullmove_number,
        turn: color_ret(setup.turn),
        en_passant: square_ret(setup.en_passant),
        chess960: u8::from(chess960),
    }
}

/// The setup behind a pointer: `CHESS_ERR_NULL_POINTER`, or `CHESS_ERR_INVALID_ARGUMENT` for a
/// field out of range.
///
/// # Safety
/// `s` is NULL or valid for a read.
unsafe fn setup_arg(s: *const chess_setup) -> Result<(Setup, bool), chess_error> {
    // SAFETY: `s` is NULL or valid (this function's contract); every bit pattern of the struct's
    // integer fields is a value.
    let s = unsafe { s.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
    read(s).ok_or(CHESS_ERR_INVALID_ARGUMENT)
}

/// Runs a query on the setup, `fallback` for a NULL or unreadable one (or a caught panic).
///
/// # Safety
/// `s` is NULL or valid for a read.
unsafe fn query<T: Copy>(s: *const chess_setup, fallback: T, f: impl FnOnce(&Setup, bool) -> T) -> T {
    // SAFETY: this function's contract is `setup_arg`'s.
    guard(fallback, || unsafe { setup_arg(s) }.map_or(fallback, |(setup, chess960)| f(&setup, chess960)))
}

/// Writes the setup of position `pos` into `out` (its Chess960 mode included). Errors:
/// `CHESS_ERR_NULL_POINTER`.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_from_position(pos: *const chess_position, out: *mut chess_setup) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position(pos) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        out.write(write(&pos.to_setup(), pos.is_chess960()));
        Ok(())
    })
}

/// Reads the syntax of a FEN into `out`, checking nothing about the position (two kings, bad
/// castling rights and the like are kept as written). `flags`: 0, or `CHESS_FEN_CHESS960` to
/// mark the setup as Chess960 (castling letters are read the same way either way). Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (other flag bits, a short `info`), a
/// syntax `CHESS_ERR_FEN_*` code with its offset reported to `info` (which may be NULL).
#[no_mangle]
pub unsafe extern "C" fn chess_setup_from_fen(
    fen: *const c_char,
    flags: u32,
    out: *mut chess_setup,
    info: *mut chess_fen_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let mut info = unsafe { versioned(info) }?;
        // SAFETY: `fen` is NULL or a NUL-terminated string (the C contract).
        let fen = unsafe { c_bytes(fen) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        if flags & !CHESS_FEN_CHESS960 != 0 {
            return Err(CHESS_ERR_INVALID_ARGUMENT);
        }
        let parsed = Fen::parse_bytes(fen).map_err(|e| fen_failure(&e, &mut info))?;
        out.write(write(parsed.setup(), flags & CHESS_FEN_CHESS960 != 0));
        Ok(())
    })
}

/// Checks the setup and builds its position into `dst` (untouched on error), as
/// `chess_fen_parse_with` reads a FEN with `flags` (`CHESS_FEN_CHESS960` is implied by the
/// setup's `chess960`); error offsets count in the FEN `chess_setup_to_fen` writes with
/// `CHESS_FEN_WRITE_EP_AS_RECORDED`. Errors: those of `chess_fen_parse_with`.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_to_position(
    s: *const chess_setup,
    flags: u32,
    dst: *mut chess_position,
    info: *mut chess_fen_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let mut info = unsafe { versioned(info) }?;
        // SAFETY: `s` is NULL or valid for a read (the C contract).
        let (setup, chess960) = unsafe { setup_arg(s) }?;
        if dst.is_null() {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        let mut options = fen_options(flags)?;
        options.chess960 |= chess960;
        let (pos, _) = Position::from_setup(setup, &options).map_err(|e| fen_failure(&e, &mut info))?;
        // SAFETY: `dst` is not NULL, so valid for a write (the C contract).
        unsafe { write_position(dst, pos) };
        Ok(())
    })
}

/// Writes the setup's FEN; `flags` as for `chess_fen_write_with` (by default the en passant
/// square only when a legal move takes there). Castling rights are written as they stand,
/// valid or not. `CHESS_FEN_MAX` bytes suffice when at most four castling rights are set;
/// more rights write more letters. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_ARGUMENT`, `CHESS_ERR_BUFFER_TOO_SMALL` (with `*out_len` set).
#[no_mangle]
pub unsafe extern "C" fn chess_setup_to_fen(
    s: *const chess_setup,
    flags: u32,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `s` is NULL or valid for a read (the C contract).
        let (setup, chess960) = unsafe { setup_arg(s) }?;
        // SAFETY: `buf` is NULL or valid for `cap` bytes, `out_len` NULL or valid (the C contract).
        let text_out = unsafe { TextOut::new(buf, cap, out_len) }?;
        let options = fen_write_options(flags)?;
        // 64 rights, each a letter, on top of the longest FEN.
        let mut fen = StackText::<{ FEN_MAX_LEN + 64 }>::new();
        setup.write_fen(&mut fen, chess960, &options).map_err(|_| CHESS_ERR_INTERNAL)?;
        text_out.write(fen.as_bytes())?;
        Ok(())
    })
}

/// Writes python-chess's status flags of the setup to `*out` (`CHESS_SETUP_STATUS_*` bits, 0 for
/// a valid position). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_status(s: *const chess_setup, out: *mut u32) -> chess_error {
    guard_code(|| {
        // SAFETY: `s` is NULL or valid for a read (the C contract).
        let (setup, chess960) = unsafe { setup_arg(s) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        out.write(setup.status(chess960).bits());
        Ok(())
    })
}

/// `chess_setup_status` bit: White has no king (the values are python-chess's `STATUS_*`).
pub const CHESS_SETUP_STATUS_NO_WHITE_KING: u32 = 1 << 0;
/// Black has no king.
pub const CHESS_SETUP_STATUS_NO_BLACK_KING: u32 = 1 << 1;
/// More than two kings.
pub const CHESS_SETUP_STATUS_TOO_MANY_KINGS: u32 = 1 << 2;
/// More than 8 white pawns.
pub const CHESS_SETUP_STATUS_TOO_MANY_WHITE_PAWNS: u32 = 1 << 3;
/// More than 8 black pawns.
pub const CHESS_SETUP_STATUS_TOO_MANY_BLACK_PAWNS: u32 = 1 << 4;
/// A pawn on the first or last rank.
pub const CHESS_SETUP_STATUS_PAWNS_ON_BACKRANK: u32 = 1 << 5;
/// More than 16 white pieces.
pub const CHESS_SETUP_STATUS_TOO_MANY_WHITE_PIECES: u32 = 1 << 6;
/// More than 16 black pieces.
pub const CHESS_SETUP_STATUS_TOO_MANY_BLACK_PIECES: u32 = 1 << 7;
/// Castling rights besides those of `chess_setup_clean_castling_rooks`.
pub const CHESS_SETUP_STATUS_BAD_CASTLING_RIGHTS: u32 = 1 << 8;
/// An en passant square `chess_setup_valid_en_passant` does not keep.
pub const CHESS_SETUP_STATUS_INVALID_EP_SQUARE: u32 = 1 << 9;
/// The side not to move is in check.
pub const CHESS_SETUP_STATUS_OPPOSITE_CHECK: u32 = 1 << 10;
/// No piece on the board.
pub const CHESS_SETUP_STATUS_EMPTY: u32 = 1 << 11;
/// More than two checkers.
pub const CHESS_SETUP_STATUS_TOO_MANY_CHECKERS: u32 = 1 << 15;
/// A check no single move could have given.
pub const CHESS_SETUP_STATUS_IMPOSSIBLE_CHECK: u32 = 1 << 16;

/// Writes up to `cap` moves of the setup to `out` and returns how many there are: with
/// `CHESS_SETUP_LEGAL` the legal ones, with `CHESS_SETUP_PSEUDO_LEGAL` all the pieces allow
/// (python-chess's move generation on any board; en passant only on a valid square). A board
/// of many pieces may have more than `CHESS_MAX_MOVES`: a result above `cap` shows the array
/// was short. 0 for a NULL or unreadable setup, another `which`, or a NULL `out` with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_moves(
    s: *const chess_setup,
    which: u32,
    out: *mut chess_move,
    cap: usize,
) -> usize {
    // SAFETY: `s` is NULL or valid for a read (the C contract).
    unsafe {
        query(s, 0, |setup, chess960| {
            let moves = match which {
                CHESS_SETUP_LEGAL => setup.legal_moves(chess960),
                CHESS_SETUP_PSEUDO_LEGAL => setup.pseudo_legal_moves(chess960),
                _ => return 0,
            };
            // SAFETY: `out` is NULL or valid for `cap` writes (the C contract).
            fill(moves, out, cap)
        })
    }
}

/// Plays `mv` on the setup as python-chess's `push` does on any board (see the C guide):
/// `CHESS_MOVE_NONE` passes the turn. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_ARGUMENT` (an unreadable setup), `CHESS_ERR_INVALID_MOVE` (bits that are no
/// move), `CHESS_ERR_ILLEGAL_MOVE` (an empty origin square); the setup is unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_play(s: *mut chess_setup, mv: chess_move) -> chess_error {
    guard_code(|| {
        // SAFETY: `s` is NULL or valid for reads and writes (the C contract).
        let (mut setup, chess960) = unsafe { setup_arg(s) }?;
        let mv = Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)?;
        if !mv.is_null() && setup.board[mv.from().index()].is_none() {
            return Err(CHESS_ERR_ILLEGAL_MOVE);
        }
        setup.play_unchecked(mv, chess960);
        // SAFETY: `s` was read above, so it is not NULL and valid for a write (the C contract).
        unsafe { s.write(write(&setup, chess960)) };
        Ok(())
    })
}

/// The pieces of `by` attacking `sq` (bit `1 << square`); 0 for a bad argument.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_attackers(s: *const chess_setup, sq: chess_square, by: chess_color) -> u64 {
    // SAFETY: `s` is NULL or valid for a read (the C contract).
    unsafe {
        query(s, 0, |setup, _| match (square_arg(sq), color_arg(by)) {
            (Some(sq), Some(by)) => setup.attackers_to(sq, by, setup.occupancy()).0,
            _ => 0,
        })
    }
}

/// The squares the piece on `sq` attacks; 0 for an empty square or a bad argument.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_attacks(s: *const chess_setup, sq: chess_square) -> u64 {
    // SAFETY: `s` is NULL or valid for a read (the C contract).
    unsafe { query(s, 0, |setup, _| square_arg(sq).map_or(0, |sq| setup.attacks(sq).0)) }
}

/// The pieces checking the king of the side to move (the highest one when it has several);
/// 0 without one or for a bad argument.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_checkers(s: *const chess_setup) -> u64 {
    // SAFETY: `s` is NULL or valid for a read (the C contract).
    unsafe { query(s, 0, |setup, _| setup.checkers().0) }
}

/// When the piece on `sq` is pinned to the king of `color`, the line it may move on; every
/// square (`UINT64_MAX`) otherwise, also for a bad argument.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_pin(s: *const chess_setup, color: chess_color, sq: chess_square) -> u64 {
    // SAFETY: `s` is NULL or valid for a read (the C contract).
    unsafe {
        query(s, u64::MAX, |setup, _| match (color_arg(color), square_arg(sq)) {
            (Some(color), Some(sq)) => setup.pin(color, sq).0,
            _ => u64::MAX,
        })
    }
}

/// The square of the king of `color` (the highest when there are several, as python-chess),
/// or `CHESS_NO_SQUARE`.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_king(s: *const chess_setup, color: chess_color) -> chess_square {
    // SAFETY: `s` is NULL or valid for a read (the C contract).
    unsafe { query(s, CHESS_NO_SQUARE, |setup, _| square_ret(color_arg(color).and_then(|c| setup.king(c)))) }
}

/// The castling rights that can stand on this board (a subset of `castling_rooks`); 0 for a bad
/// argument.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_clean_castling_rooks(s: *const chess_setup) -> u64 {
    // SAFETY: `s` is NULL or valid for a read (the C contract).
    unsafe { query(s, 0, |setup, chess960| setup.clean_castling_rooks(chess960).0) }
}

/// The en passant square when it can stand (behind a pawn that could just have advanced two
/// squares), else `CHESS_NO_SQUARE`.
#[no_mangle]
pub unsafe extern "C" fn chess_setup_valid_en_passant(s: *const chess_setup) -> chess_square {
    // SAFETY: `s` is NULL or valid for a read (the C contract).
    unsafe { query(s, CHESS_NO_SQUARE, |setup, _| square_ret(setup.valid_en_passant())) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_out_of_range_is_refused() {
        let start = write(&Setup::default(), false);
        assert_eq!(read(&start), Some((Setup::default(), false)));
        let mut bad = [start; 5];
        bad[0].board[3] = 7;
        bad[1].board[60] = 16;
        bad[2].turn = 2;
        bad[3].en_passant = 64;
        bad[4].chess960 = 2;
        for s in bad {
            assert_eq!(read(&s), None);
        }
    }
}
