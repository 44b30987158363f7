//! Move generation, playing moves, perft, and move and square notation.

use std::ffi::c_char;
use std::fmt::Write;
use std::mem::MaybeUninit;
use std::ptr;

use super::error::*;
use super::position::{chess_position, position_mut, position_ref};
use super::types::*;
use super::util::{c_ascii, fill_array, guard, guard_code, Out, StackText, TextOut};
use chesscore_core::{Move, MoveKind, Position, Square, Uci, UciCastling, MAX_MOVES};

/// A move in 16 bits, the core's encoding: bits 0-5 origin square, bits 6-11 destination square,
/// bits 12-15 `chess_move_kind`. Castling is the king taking its own rook. 0 means no move.
pub type chess_move = u16;

/// "No move" (also what the UCI null move `0000` reads as).
pub const CHESS_MOVE_NONE: chess_move = 0;

/// Capacity that always holds every legal or pseudo-legal move of a position.
pub const CHESS_MAX_MOVES: usize = 256;

const _: () = assert!(CHESS_MAX_MOVES == MAX_MOVES);

/// Copies the first `cap` of `moves` to `out` (see [`fill_array`]) and returns how many there
/// are.
///
/// # Safety
/// As for [`fill_array`].
pub(crate) unsafe fn fill(moves: impl IntoIterator<Item = Move>, out: *mut chess_move, cap: usize) -> usize {
    // SAFETY: this function's contract is `fill_array`'s.
    unsafe { fill_array(moves.into_iter().map(Move::raw), out, cap) }
}

/// Writes up to `cap` legal moves of `pos` to `out` and returns how many legal moves there are
/// (so a result above `cap` shows the array was short). `out` may be NULL when `cap` is 0 (a
/// count). Returns 0 for a NULL position, or a NULL `out` with `cap` > 0. Does not allocate.
#[no_mangle]
pub unsafe extern "C" fn chess_legal_moves(pos: *const chess_position, out: *mut chess_move, cap: usize) -> usize {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(0, || match unsafe { position_ref(pos) } {
        None => 0,
        Some(pos) if cap == 0 => pos.legal_move_count(),
        Some(_) if out.is_null() => 0,
        // SAFETY: `out` is not NULL, so the caller promised `cap` writable moves there (the C
        // contract); `Move` is a `u16`, and `MaybeUninit` needs no initialised memory.
        Some(pos) => pos.write_legal_moves(unsafe { std::slice::from_raw_parts_mut(out.cast(), cap) }),
    })
}

/// Like `chess_legal_moves` for the first stage of a search: the legal captures (en passant
/// included) and every legal promotion, capturing or not. With `chess_legal_quiets` a
/// partition of the legal moves: the two lists are disjoint, their union is the legal moves,
/// and each keeps the order of `chess_legal_moves`. In check both hold only evasions. Does
/// not allocate.
#[no_mangle]
pub unsafe extern "C" fn chess_legal_captures(pos: *const chess_position, out: *mut chess_move, cap: usize) -> usize {
    // SAFETY: `pos` is NULL or a valid position, and `out` NULL or valid for `cap` writes (the
    // C contract).
    unsafe { write_stage(pos, out, cap, Position::write_legal_captures) }
}

/// Like `chess_legal_moves` for every legal move `chess_legal_captures` leaves out: moves to
/// empty squares that do not promote, castling included.
#[no_mangle]
pub unsafe extern "C" fn chess_legal_quiets(pos: *const chess_position, out: *mut chess_move, cap: usize) -> usize {
    // SAFETY: as for `chess_legal_captures`.
    unsafe { write_stage(pos, out, cap, Position::write_legal_quiets) }
}

/// One stage of the moves, under `chess_legal_moves`' conventions. With `cap` 0 the moves are
/// written to a local array, only to count them.
///
/// # Safety
/// `pos` is NULL or a valid position; `out` is NULL or valid for `cap` writes of a move.
unsafe fn write_stage(
    pos: *const chess_position,
    out: *mut chess_move,
    cap: usize,
    write: fn(&Position, &mut [MaybeUninit<Move>]) -> usize,
) -> usize {
    // SAFETY: `pos` is NULL or a valid position (this function's contract).
    guard(0, || match unsafe { position_ref(pos) } {
        None => 0,
        Some(pos) if cap == 0 => write(pos, &mut [MaybeUninit::uninit(); MAX_MOVES]),
        Some(_) if out.is_null() => 0,
        // SAFETY: `out` is not NULL, so valid for `cap` writes (this function's contract);
        // `Move` is a `u16`, and `MaybeUninit` needs no initialised memory.
        Some(pos) => write(pos, unsafe { std::slice::from_raw_parts_mut(out.cast(), cap) }),
    })
}

/// True when the legal move `mv` checks the other king, found without playing it. For a value
/// that is not a legal move the answer is unspecified, but false for any value that
/// `chess_position_play_unchecked` ignores; false for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_position_gives_check(pos: *const chess_position, mv: chess_move) -> bool {
    guard(false, || {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        unsafe { position_ref(pos) }.is_some_and(|pos| playable(pos, mv).is_some_and(|mv| pos.gives_check(mv)))
    })
}

/// The static exchange value of the legal move `mv`, in centipawns: what the side to move wins
/// (negative: loses) by the exchange `mv` starts on its destination square. Defined exactly so:
/// the swap algorithm on the destination square; piece values P 100, N 300, B 300, R 500,
/// Q 900; the first capture is `mv` itself (en passant captures a pawn; a non-capture, castling
/// included, has gain 0 for the first step); then each side in turn recaptures with its least
/// valuable attacker (pawn, knight, bishop, rook, queen, king; among pieces of one kind the one
/// on the lowest square, a1 = 0 .. h8 = 63), attackers found again after each capture so
/// x-rays through the moved pieces count; either side may stop when continuing would lose (the
/// first capture, `mv`, is always made); pins and checks are ignored, except that a king may
/// recapture only if the other side then has no attacker left; a promotion counts as the pawn
/// it was (no promotion gain). 0 for a NULL position or a value `chess_position_play_unchecked`
/// ignores; unspecified for other values that are not legal moves.
#[no_mangle]
pub unsafe extern "C" fn chess_position_see(pos: *const chess_position, mv: chess_move) -> i32 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(0, || unsafe { position_ref(pos) }.and_then(|pos| playable(pos, mv).map(|mv| pos.see(mv))).unwrap_or(0))
}

/// `chess_position_see(pos, mv) >= threshold`, often decided without the whole exchange.
#[no_mangle]
pub unsafe extern "C" fn chess_position_see_ge(pos: *const chess_position, mv: chess_move, threshold: i32) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(false, || match unsafe { position_ref(pos) }.map(|pos| (pos, playable(pos, mv))) {
        Some((pos, Some(mv))) => pos.see_ge(mv, threshold),
        _ => 0 >= threshold,
    })
}

/// True when `mv`, any 16-bit value (a move from a hash table, say), follows the movement rules
/// in `pos`: exactly the moves `chess_pseudo_legal_moves` lists. Such a move is legal unless it
/// leaves the own king in check; `chess_position_play` refuses it then, and
/// `chess_position_is_legal` tells. False for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_position_is_pseudo_legal(pos: *const chess_position, mv: chess_move) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(false, || unsafe { position_ref(pos) }.is_some_and(|pos| pos.is_pseudo_legal(Move::from_bits(mv))))
}

/// The Polyglot key `pos` would have after the legal move `mv`, without playing it (to prefetch
/// a hash entry): equal to the key of `chess_position_play_into`'s result. The key of `pos`
/// for a value `chess_position_play_unchecked` ignores; 0 for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_position_zobrist_after(pos: *const chess_position, mv: chess_move) -> u64 {
    guard(0, || {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        unsafe { position_ref(pos) }
            .map_or(0, |pos| playable(pos, mv).map_or(pos.zobrist(), |mv| pos.zobrist_after(mv)))
    })
}

/// Like `chess_legal_moves` for pseudo-legal moves: moves that follow the pieces' rules but may
/// leave the own king in check (castling still obeys all of its rules).
#[no_mangle]
pub unsafe extern "C" fn chess_pseudo_legal_moves(
    pos: *const chess_position,
    out: *mut chess_move,
    cap: usize,
) -> usize {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(0, || match unsafe { position_ref(pos) } {
        // SAFETY: `out` is NULL or valid for `cap` writes (the C contract).
        Some(pos) => unsafe { fill(pos.pseudo_legal_moves().iter().copied(), out, cap) },
        None => 0,
    })
}

/// Like `chess_legal_moves` for the moves of the piece on `square` only (0 for a square outside
/// 0..63).
#[no_mangle]
pub unsafe extern "C" fn chess_legal_moves_from(
    pos: *const chess_position,
    square: chess_square,
    out: *mut chess_move,
    cap: usize,
) -> usize {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(0, || match (unsafe { position_ref(pos) }, square_arg(square)) {
        // SAFETY: `out` is NULL or valid for `cap` writes (the C contract).
        (Some(pos), Some(square)) => unsafe { fill(pos.legal_moves_from(square).iter().copied(), out, cap) },
        _ => 0,
    })
}

/// True when `mv` is a legal move in `pos` (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_is_legal(pos: *const chess_position, mv: chess_move) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(false, || match (unsafe { position_ref(pos) }, Move::from_raw(mv)) {
        (Some(pos), Some(mv)) => pos.is_legal(mv),
        _ => false,
    })
}

/// Plays `mv` if it is legal. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_MOVE` (not a
/// move encoding), `CHESS_ERR_ILLEGAL_MOVE` (`CHESS_MOVE_NONE` included). On error the position
/// is unchanged.
#[no_mangle]
pub unsafe extern "C" fn chess_position_play(pos: *mut chess_position, mv: chess_move) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position used by no one else (the C contract).
        let target = unsafe { position_mut(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        let mv = Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)?;
        let mut next = *target;
        next.play(mv).map_err(|_| CHESS_ERR_ILLEGAL_MOVE)?;
        *target = next;
        Ok(())
    })
}

/// `raw` as a move `pos` can play unchecked, if it is one. The one check needed: a value that
/// moves nothing of the side to move (the null move among them), or whose origin is its
/// destination, fails `can_play_unchecked`; bit 15 set is no move kind.
#[inline(always)]
fn playable(pos: &Position, raw: chess_move) -> Option<Move> {
    let mv = Move::from_bits(raw);
    (raw < 0x8000 && pos.can_play_unchecked(mv)).then_some(mv)
}

/// Plays `mv` without checking that it is legal: the fast path for move loops, for moves from
/// `chess_legal_moves`. Any 16-bit value is safe. A value that does not move a piece of the side
/// to move onto a square free of its own pieces and of kings (or is a castling, en passant,
/// double push or promotion without the pieces and empty squares it needs) leaves the position
/// unchanged; any other value that is not a legal move gives an unspecified position that every
/// function still handles. Does nothing for a NULL position or `CHESS_MOVE_NONE`.
#[no_mangle]
pub unsafe extern "C" fn chess_position_play_unchecked(pos: *mut chess_position, mv: chess_move) {
    guard((), || {
        // SAFETY: `pos` is NULL or a valid position used by no one else (the C contract).
        if let Some(pos) = unsafe { position_mut(pos) } {
            if let Some(mv) = playable(pos, mv) {
                play(pos, mv);
            }
        }
    })
}

/// Copy-make: writes into `dst` the position `src` reaches by `mv`, played unchecked as by
/// `chess_position_play_unchecked` (a value it cannot play copies `src` unchanged). `dst` may be
/// uninitialised, or equal to `src`, so a search can keep its positions on its own stack
/// (`chess_position stack[64]`). Does nothing when either is NULL.
#[no_mangle]
pub unsafe extern "C" fn chess_position_play_into(
    src: *const chess_position,
    mv: chess_move,
    dst: *mut chess_position,
) {
    guard((), || {
        // SAFETY: `src` is NULL or a valid position (the C contract).
        let Some(from) = (unsafe { position_ref(src) }) else { return };
        if dst.is_null() {
            return;
        }
        let mv = playable(from, mv);
        // One copy, then the move played in place: this is the hot path of C searches.
        let dst = dst.cast::<Position>();
        if !ptr::eq(src.cast::<Position>(), dst) {
            // SAFETY: `src` is a valid position and `dst` is not NULL, so valid for a write (the C
            // contract); they are not the same position, so they do not overlap.
            unsafe { ptr::copy_nonoverlapping(src.cast::<Position>(), dst, 1) };
        }
        if let Some(mv) = mv {
            // SAFETY: `dst` now holds a valid position, which no one else uses (the C contract).
            play(unsafe { &mut *dst }, mv);
        }
    })
}

/// Plays a move `playable` accepted: ordinary moves inline, the others out of line, so that the
/// hot path of C searches stays small.
#[inline(always)]
fn play(pos: &mut Position, mv: Move) {
    #[inline(never)]
    fn special(pos: &mut Position, mv: Move) {
        pos.play_unchecked(mv);
    }
    if mv.kind() == MoveKind::Normal {
        pos.play_unchecked(mv);
    } else {
        special(pos, mv);
    }
}

/// Passes the turn (a null move): the en passant square is cleared and the clocks advance.
/// `CHESS_ERR_ILLEGAL_MOVE` while in check, with the position unchanged.
#[no_mangle]
pub unsafe extern "C" fn chess_position_play_null(pos: *mut chess_position) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position used by no one else (the C contract).
        let target = unsafe { position_mut(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        let mut next = *target;
        if !next.play_null() {
            return Err(CHESS_ERR_ILLEGAL_MOVE);
        }
        *target = next;
        Ok(())
    })
}

/// Number of leaves of the legal move tree `depth` plies deep (1 at depth 0), counting the last
/// ply without playing it. 0 for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_perft(pos: *const chess_position, depth: u32) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(0, || unsafe { position_ref(pos) }.map_or(0, |pos| pos.perft(depth)))
}

/// Perft split by first move: writes up to `cap` legal moves to `moves` and the leaf count below
/// each (`depth - 1` plies after it) to `counts`, and returns the number of legal moves (0 at
/// depth 0). With `cap` 0 the arrays may be NULL and nothing is counted. Returns 0 for a NULL
/// position, or a NULL array with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_perft_divide(
    pos: *const chess_position,
    depth: u32,
    moves: *mut chess_move,
    counts: *mut u64,
    cap: usize,
) -> usize {
    guard(0, || {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let Some(pos) = (unsafe { position_ref(pos) }) else { return 0 };
        if depth == 0 {
            return 0;
        }
        if cap == 0 {
            return pos.legal_move_count();
        }
        if moves.is_null() || counts.is_null() {
            return 0;
        }
        let divide = pos.divide(depth);
        let total = divide.len();
        for (i, (mv, count)) in divide.take(cap).enumerate() {
            // SAFETY: `i < cap`, and neither array is NULL, so each is valid for `cap` writes
            // (the C contract).
            unsafe {
                moves.add(i).write(mv.raw());
                counts.add(i).write(count);
            }
        }
        total
    })
}

/// Writes `mv` in UCI (`e2e4`, `e7e8q`, castling as `e1g1`, `0000` for `CHESS_MOVE_NONE`).
/// Errors: `CHESS_ERR_INVALID_MOVE`, `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_BUFFER_TOO_SMALL`
/// (6 bytes always suffice).
#[no_mangle]
pub unsafe extern "C" fn chess_move_to_uci(
    mv: chess_move,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    // SAFETY: the arguments are passed on under the same contract.
    unsafe { chess_move_to_uci_with(mv, 0, buf, cap, out_len) }
}

/// `chess_move_to_uci_with` flag: castling as the king taking its own rook (`e1h1`, `b1a1`), the
/// convention of Chess960 positions (`chess_position_is_chess960`) and of engines with
/// `UCI_Chess960` on.
pub const CHESS_UCI_KING_TAKES_ROOK: u32 = 1;

/// `chess_move_to_uci` with `flags`: 0 or `CHESS_UCI_KING_TAKES_ROOK`. Errors: those of
/// `chess_move_to_uci`, and `CHESS_ERR_INVALID_ARGUMENT` for unknown flag bits.
#[no_mangle]
pub unsafe extern "C" fn chess_move_to_uci_with(
    mv: chess_move,
    flags: u32,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        if flags & !CHESS_UCI_KING_TAKES_ROOK != 0 {
            return Err(CHESS_ERR_INVALID_ARGUMENT);
        }
        // SAFETY: `buf` is NULL or valid for `cap` bytes, `out_len` NULL or valid (the C contract).
        let text_out = unsafe { TextOut::new(buf, cap, out_len) }?;
        let mv = Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)?;
        let mut text = StackText::<5>::new();
        let castling = if flags & CHESS_UCI_KING_TAKES_ROOK != 0 {
            UciCastling::KingTakesRook
        } else {
            UciCastling::KingTwoSquares
        };
        write!(text, "{}", Uci::from_move_with(mv, castling)).map_err(|_| CHESS_ERR_INTERNAL)?;
        text_out.write(text.as_bytes())?;
        Ok(())
    })
}

/// Reads a UCI move and finds the legal move of `pos` it names. Castling is accepted as
/// king-takes-rook (`e1h1`) and, in standard chess, as the king's two-square move (`e1g1`);
/// promotion letters are lower case; `0000` gives `CHESS_MOVE_NONE`. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_UCI_SYNTAX`, `CHESS_ERR_ILLEGAL_MOVE`.
#[no_mangle]
pub unsafe extern "C" fn chess_move_from_uci(
    pos: *const chess_position,
    uci: *const c_char,
    out: *mut chess_move,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { super::position::position(pos) }?;
        // SAFETY: `uci` is NULL or a NUL-terminated string (the C contract).
        let uci = unsafe { c_ascii(uci) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let mv = uci.parse::<Uci>().and_then(|uci| uci.to_move(pos)).map_err(|e| e.code())?;
        out.write(mv.raw());
        Ok(())
    })
}

/// The origin square of `mv` (the king's square for castling); `CHESS_NO_SQUARE` for
/// `CHESS_MOVE_NONE` or a value that is not a move encoding.
#[no_mangle]
pub extern "C" fn chess_move_from_square(mv: chess_move) -> chess_square {
    guard(CHESS_NO_SQUARE, || square_ret(valid_move(mv).map(Move::from)))
}

/// The destination square of `mv` (the rook's square for castling); `CHESS_NO_SQUARE` as for
/// `chess_move_from_square`.
#[no_mangle]
pub extern "C" fn chess_move_to_square(mv: chess_move) -> chess_square {
    guard(CHESS_NO_SQUARE, || square_ret(valid_move(mv).map(Move::to)))
}

/// The piece a promotion turns into; `CHESS_NO_KIND` for any other move or value.
#[no_mangle]
pub extern "C" fn chess_move_promotion(mv: chess_move) -> chess_piece_kind {
    guard(CHESS_NO_KIND, || kind_ret(valid_move(mv).and_then(Move::promotion)))
}

/// The kind of `mv`; `CHESS_MOVE_NORMAL` for `CHESS_MOVE_NONE` or a value that is not a move
/// encoding.
#[no_mangle]
pub extern "C" fn chess_move_kind_of(mv: chess_move) -> chess_move_kind {
    guard(CHESS_MOVE_NORMAL, || valid_move(mv).map_or(CHESS_MOVE_NORMAL, |mv| move_kind_ret(mv.kind())))
}

/// A move other than "no move", when `raw` encodes one.
fn valid_move(raw: chess_move) -> Option<Move> {
    Move::from_raw(raw).filter(|mv| !mv.is_null())
}

/// Writes the name of `square` (0 = a1 .. 63 = h8), such as `e4`. Errors:
/// `CHESS_ERR_INVALID_SQUARE`, `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_BUFFER_TOO_SMALL` (3 bytes
/// suffice).
#[no_mangle]
pub unsafe extern "C" fn chess_square_name(
    square: chess_square,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `buf` is NULL or valid for `cap` bytes, `out_len` NULL or valid (the C contract).
        let text_out = unsafe { TextOut::new(buf, cap, out_len) }?;
        let square = square_arg(square).ok_or(CHESS_ERR_INVALID_SQUARE)?;
        text_out.write(&square.name())?;
        Ok(())
    })
}

/// Reads a square name (`a1` .. `h8`, lower case) into its index. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_INVALID_SQUARE`.
#[no_mangle]
pub unsafe extern "C" fn chess_square_parse(name: *const c_char, out: *mut chess_square) -> chess_error {
    guard_code(|| {
        // SAFETY: `name` is NULL or a NUL-terminated string (the C contract).
        let name = unsafe { c_ascii(name) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let square = Square::from_ascii(name.as_bytes()).map_err(|_| CHESS_ERR_INVALID_SQUARE)?;
        out.write(square.index() as chess_square);
        Ok(())
    })
}
