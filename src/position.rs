//! Position handles: allocation, copying, and every query of the core.

use std::ptr;

use super::error::*;
use super::types::*;
use super::util::{box_or_oom, free_handle, guard, guard_code, try_box, Out};
use chesscore_core::Position;

/// A chess position: a complete type of fixed size (128 bytes) and alignment (8), so that C can
/// hold positions by value (`chess_position p;`, arrays of them, search stacks) and copy them
/// with `=`. Its contents are private: a `chess_position` is valid once a function has written
/// it (`chess_position_init`, `chess_fen_parse_into`, `chess_position_play_into`, ...) or copied
/// from a valid one, and a position left uninitialised must not be read, as for any C variable.
/// Heap handles (`chess_position_new`, `chess_position_clone`, the FEN readers' `**out`) point to
/// the same type and are released with `chess_position_free`; a position the caller declared is
/// never freed. Games and EPD records hand out positions they own, to read only.
// `u64`s give the alignment of the core's position (checked below).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct chess_position {
    _private: [u64; 16],
}

// The C type is the core's position with its fields hidden: same size, same alignment. A change
// of either is an ABI break (a new soname), which this keeps from happening unnoticed.
const _: () = assert!(size_of::<chess_position>() == size_of::<Position>());
const _: () = assert!(align_of::<chess_position>() == align_of::<Position>());

/// Moves `pos` into a new handle; NULL when memory runs out (instead of aborting the program).
pub(crate) fn new_handle(pos: Position) -> *mut chess_position {
    try_box(pos).cast()
}

/// Like [`new_handle`], reporting a failed allocation as an error code.
pub(crate) fn try_new_handle(pos: Position) -> Result<*mut chess_position, chess_error> {
    box_or_oom(pos).map(<*mut Position>::cast)
}

/// A handle for reading a position stored elsewhere (in a game or an EPD record), valid as long
/// as the borrowed position stays where it is.
pub(crate) fn borrowed_handle(pos: &Position) -> *const chess_position {
    ptr::from_ref(pos).cast()
}

/// The position behind a handle, if it is not NULL.
///
/// # Safety
/// `pos` is NULL or points to a valid position not written during `'a`.
#[inline(always)]
pub(crate) unsafe fn position_ref<'a>(pos: *const chess_position) -> Option<&'a Position> {
    // SAFETY: a `chess_position` is a `Position` (same size and alignment, checked above), and
    // this function's contract makes `pos` NULL or valid.
    unsafe { pos.cast::<Position>().as_ref() }
}

/// The position behind a handle, or [`CHESS_ERR_NULL_POINTER`].
///
/// # Safety
/// As for [`position_ref`].
#[inline(always)]
pub(crate) unsafe fn position<'a>(pos: *const chess_position) -> Result<&'a Position, chess_error> {
    // SAFETY: this function's contract is `position_ref`'s.
    unsafe { position_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)
}

/// The position behind a handle, for writing.
///
/// # Safety
/// `pos` is NULL or points to a valid position used by no one else during `'a`.
#[inline(always)]
pub(crate) unsafe fn position_mut<'a>(pos: *mut chess_position) -> Option<&'a mut Position> {
    // SAFETY: as in `position_ref`, for a position no one else uses (this function's contract).
    unsafe { pos.cast::<Position>().as_mut() }
}

/// Stores `value` in a caller's `chess_position`, initialised or not.
///
/// # Safety
/// `dst` is valid for a write of a position.
#[inline(always)]
pub(crate) unsafe fn write_position(dst: *mut chess_position, value: Position) {
    // SAFETY: a `chess_position` is a `Position`, and `dst` is valid (this function's contract).
    unsafe { dst.cast::<Position>().write(value) };
}

/// Runs a query on the position, or returns `fallback` for a NULL handle (or a caught panic).
#[inline(always)]
pub(crate) fn query<T: Copy>(pos: Option<&Position>, fallback: T, f: impl FnOnce(&Position) -> T) -> T {
    guard(fallback, || pos.map_or(fallback, f))
}

/// A new position holding the standard starting position; NULL when memory runs out.
#[no_mangle]
pub extern "C" fn chess_position_new() -> *mut chess_position {
    guard(ptr::null_mut(), || new_handle(Position::startpos()))
}

/// Writes the standard starting position into `dst` (initialised or not). Does nothing for a
/// NULL `dst`.
#[no_mangle]
pub unsafe extern "C" fn chess_position_init(dst: *mut chess_position) {
    guard((), || {
        if !dst.is_null() {
            // SAFETY: `dst` is not NULL, so it is valid for a write (the C contract).
            unsafe { write_position(dst, Position::startpos()) };
        }
    })
}

/// Writes Chess960 start position `number` into `dst`: 0 to 959 as Scharnagl numbered them
/// (518 is the standard arrangement), in Chess960 mode, White to move, all four castling
/// rights. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` for a number above 959
/// (`dst` unchanged).
#[no_mangle]
pub unsafe extern "C" fn chess_position_init_chess960(dst: *mut chess_position, number: u32) -> chess_error {
    guard_code(|| {
        // SAFETY: `dst` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(dst.cast::<Position>()) }?;
        out.write(Position::chess960_start(number).ok_or(CHESS_ERR_INVALID_ARGUMENT)?);
        Ok(())
    })
}

/// A new handle holding a copy of `pos`; NULL when `pos` is NULL or memory runs out.
#[no_mangle]
pub unsafe extern "C" fn chess_position_clone(pos: *const chess_position) -> *mut chess_position {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    guard(ptr::null_mut(), || unsafe { position_ref(pos) }.map_or(ptr::null_mut(), |p| new_handle(*p)))
}

/// Overwrites `dst` with `src` (no allocation; `dst` may equal `src`), as `*dst = *src` does.
/// Does nothing when either is NULL.
#[no_mangle]
pub unsafe extern "C" fn chess_position_copy(dst: *mut chess_position, src: *const chess_position) {
    guard((), || {
        if !dst.is_null() && !src.is_null() {
            // A copy, not references: `dst` and `src` may be the same position.
            // SAFETY: neither is NULL, so `src` is a valid position and `dst` valid for a write
            // (the C contract); `ptr::copy` allows them to overlap.
            unsafe { ptr::copy(src.cast::<Position>(), dst.cast::<Position>(), 1) };
        }
    })
}

/// Releases a handle from `chess_position_new`, `chess_position_clone` or a FEN reader's
/// `**out` (never a position the caller declared, or one a game or EPD record owns). NULL is
/// accepted and ignored.
#[no_mangle]
pub unsafe extern "C" fn chess_position_free(pos: *mut chess_position) {
    // SAFETY: `pos` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(pos.cast::<Position>()) }
}

/// True when the position is in Chess960 mode (read by `chess_fen_parse_chess960` or made by
/// `chess_position_new_chess960`): castling follows Chess960 rules, UCI writes it as
/// king-takes-rook and FEN castling rights as X-FEN. False for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_position_is_chess960(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::is_chess960)
}

/// The number (0 to 959) of the Chess960 start arrangement the pieces stand in, whatever the
/// side to move, castling rights, clocks and mode; -1 when they stand in none (or `pos` is NULL).
/// The standard start position gives 518.
#[no_mangle]
pub unsafe extern "C" fn chess_position_chess960_number(pos: *const chess_position) -> i32 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, -1, |p| p.chess960_number().map_or(-1, |n| n as i32))
}

/// The side to move (`CHESS_WHITE` for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_turn(pos: *const chess_position) -> chess_color {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, CHESS_WHITE, |p| color_ret(p.turn()))
}

/// The castling rights as a bit set of `CHESS_CASTLING_*` values (0 for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_castling_rights(pos: *const chess_position) -> u8 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| p.castling().bits())
}

/// The en passant square under `mode` (see `chess_ep_mode`), or `CHESS_NO_SQUARE` when there is
/// none, `pos` is NULL or `mode` is unknown.
#[no_mangle]
pub unsafe extern "C" fn chess_position_en_passant(pos: *const chess_position, mode: chess_ep_mode) -> chess_square {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, CHESS_NO_SQUARE, |p| {
        ep_mode_arg(mode).map_or(CHESS_NO_SQUARE, |mode| square_ret(p.en_passant_square(mode)))
    })
}

/// Half-moves since the last capture or pawn move (0 for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_halfmove_clock(pos: *const chess_position) -> u32 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| p.halfmove_clock())
}

/// The move number, starting at 1 and incremented after Black moves (0 for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_fullmove_number(pos: *const chess_position) -> u32 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| p.fullmove_number())
}

/// The piece on `square` (0 = a1 .. 63 = h8); `CHESS_NO_PIECE` for an empty square, a NULL
/// position or a square outside 0..63.
#[no_mangle]
pub unsafe extern "C" fn chess_position_piece_at(pos: *const chess_position, square: chess_square) -> chess_piece {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, CHESS_NO_PIECE, |p| piece_ret(square_arg(square).and_then(|sq| p.piece_at(sq))))
}

/// The squares (bit i = square i) holding pieces of `color` and `kind`; 0 for a NULL position or
/// an unknown colour or kind.
#[no_mangle]
pub unsafe extern "C" fn chess_position_pieces(
    pos: *const chess_position,
    color: chess_color,
    kind: chess_piece_kind,
) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| match (color_arg(color), kind_arg(kind)) {
        (Some(color), Some(kind)) => p.pieces_of(color, kind).0,
        _ => 0,
    })
}

/// The squares holding any piece (0 for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_occupancy(pos: *const chess_position) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| p.occupancy().0)
}

/// The squares holding pieces of `color` (0 for a NULL position or an unknown colour).
#[no_mangle]
pub unsafe extern "C" fn chess_position_color_occupancy(pos: *const chess_position, color: chess_color) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| color_arg(color).map_or(0, |color| p.color_occupancy(color).0))
}

/// The square of `color`'s king (`CHESS_NO_SQUARE` for a NULL position or an unknown colour).
#[no_mangle]
pub unsafe extern "C" fn chess_position_king_square(pos: *const chess_position, color: chess_color) -> chess_square {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, CHESS_NO_SQUARE, |p| {
        square_ret(color_arg(color).map(|color| p.king_square(color)))
    })
}

/// The pieces of colour `by` attacking `square` (0 for a NULL position, an unknown colour or a
/// square outside 0..63).
#[no_mangle]
pub unsafe extern "C" fn chess_position_attackers_to(
    pos: *const chess_position,
    square: chess_square,
    by: chess_color,
) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| match (square_arg(square), color_arg(by)) {
        (Some(square), Some(by)) => p.attackers_to(square, by).0,
        _ => 0,
    })
}

/// The enemy pieces giving check to the side to move (0 for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_checkers(pos: *const chess_position) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| p.checkers().0)
}

/// The pieces of the side to move pinned to their king (0 for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_pinned(pos: *const chess_position) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| p.pinned().0)
}

/// Every square a piece of colour `by` attacks, its own defended pieces included (0 for a NULL
/// position or an unknown colour).
#[no_mangle]
pub unsafe extern "C" fn chess_position_attacks_by(pos: *const chess_position, by: chess_color) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| color_arg(by).map_or(0, |by| p.attacks_by(by).0))
}

/// The squares from which a piece of `kind` of the side to move would attack the other king
/// (a move there gives a direct check); 0 for the king, `CHESS_NO_KIND`, an unknown kind or a
/// NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_position_check_squares(pos: *const chess_position, kind: chess_piece_kind) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, |p| kind_arg(kind).map_or(0, |kind| p.check_squares(kind).0))
}

/// True when the side to move has a legal move, found without listing them: generation stops
/// at the first piece that has one (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_has_legal_moves(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::has_legal_moves)
}

/// The Polyglot Zobrist key (0 for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_zobrist(pos: *const chess_position) -> u64 {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, 0, Position::zobrist)
}

/// The Polyglot key of `pos` computed with the 781 `keys`, laid out as
/// `chess_book_polyglot_random`'s, in place of Polyglot's (with those it is
/// `chess_position_zobrist`); 0 when `pos` or `keys` is NULL.
#[no_mangle]
pub unsafe extern "C" fn chess_position_zobrist_with(pos: *const chess_position, keys: *const u64) -> u64 {
    // SAFETY: `keys` is NULL or points to 781 readable values (this function's contract), not
    // written during the call.
    let keys = unsafe { keys.cast::<[u64; 781]>().as_ref() };
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    let pos = unsafe { position_ref(pos) };
    keys.map_or(0, |keys| query(pos, 0, |pos| pos.zobrist_with(keys)))
}

/// True when the side to move is in check (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_in_check(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::in_check)
}

/// True when the side to move is checkmated (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_is_checkmate(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::is_checkmate)
}

/// True when the side to move is stalemated (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_is_stalemate(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::is_stalemate)
}

/// True when neither side can ever checkmate: no pawns, rooks or queens, and at most one minor
/// piece or only bishops all on squares of one colour (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_is_insufficient_material(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::is_insufficient_material)
}

/// True when `color` alone cannot checkmate whatever the other side plays: no pawn, rook or
/// queen, and no piece but its king, or one knight against only a king and queens, or bishops
/// all on squares of one colour with no knight or pawn on the board (false for a NULL position
/// or an unknown colour).
#[no_mangle]
pub unsafe extern "C" fn chess_position_has_insufficient_material(
    pos: *const chess_position,
    color: chess_color,
) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, |p| {
        color_arg(color).is_some_and(|color| p.has_insufficient_material(color))
    })
}

/// True when the halfmove clock has reached 100 and the side to move has a legal move: a draw
/// may be claimed (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_is_fifty_moves(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::is_fifty_moves)
}

/// True when a fifty-move draw may be claimed now or by announcing a move that brings the clock
/// to 100 (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_can_claim_fifty_moves(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::can_claim_fifty_moves)
}

/// True when the halfmove clock has reached 150 and the side to move is not checkmated: the game
/// is drawn (FIDE's seventy-five-move rule; false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_position_is_seventy_five_moves(pos: *const chess_position) -> bool {
    // SAFETY: `pos` is NULL or a valid position (the C contract).
    query(unsafe { position_ref(pos) }, false, Position::is_seventy_five_moves)
}

/// Bit of `chess_position_castling_rights`: White may castle king side.
pub const CHESS_CASTLING_WHITE_KINGSIDE: u8 = 1;
/// Bit of `chess_position_castling_rights`: White may castle queen side.
pub const CHESS_CASTLING_WHITE_QUEENSIDE: u8 = 2;
/// Bit of `chess_position_castling_rights`: Black may castle king side.
pub const CHESS_CASTLING_BLACK_KINGSIDE: u8 = 4;
/// Bit of `chess_position_castling_rights`: Black may castle queen side.
pub const CHESS_CASTLING_BLACK_QUEENSIDE: u8 = 8;
