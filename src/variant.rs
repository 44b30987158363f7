//! The lichess variants: variant values, and positions of any variant behind an opaque handle.

use std::ffi::{c_char, CStr};
use std::fmt::Write;
use std::ptr;

use super::error::*;
use super::game::{chess_outcome, result_ret, termination_ret, CHESS_RESULT_ONGOING, CHESS_TERMINATION_NONE};
use super::moves::{chess_move, fill};
use super::setup::{chess_setup, write as setup_ret};
use super::types::*;
use super::util::{box_or_oom, c_ascii, c_bytes, free_handle, guard, guard_code, text_of, Out, StackText, TextOut};
use chesscore_core::variant::{Variant, VariantEpdError, VariantFenError, VariantPosition, MAX_VARIANT_MOVES};
use chesscore_core::Move;

/// The rules a `chess_variant_position` plays by: one of the `CHESS_VARIANT_*` values, fixed for
/// the 1.x ABI.
pub type chess_variant = u8;
/// Standard chess.
pub const CHESS_VARIANT_CHESS: chess_variant = 0;
/// Chess960: castling written king-takes-rook in UCI, X-FEN castling rights.
pub const CHESS_VARIANT_CHESS960: chess_variant = 1;
/// Atomic: captures explode the capturer and the pieces around, pawns aside.
pub const CHESS_VARIANT_ATOMIC: chess_variant = 2;
/// Antichess: captures compulsory, the king an ordinary piece, losing everything wins.
pub const CHESS_VARIANT_ANTICHESS: chess_variant = 3;
/// Crazyhouse: captured pieces go to the captor's pocket, to be dropped back.
pub const CHESS_VARIANT_CRAZYHOUSE: chess_variant = 4;
/// King of the hill: a king reaching d4, d5, e4 or e5 wins.
pub const CHESS_VARIANT_KING_OF_THE_HILL: chess_variant = 5;
/// Three-check: the third check wins.
pub const CHESS_VARIANT_THREE_CHECK: chess_variant = 6;
/// Horde: White's 36 pawns against Black's army.
pub const CHESS_VARIANT_HORDE: chess_variant = 7;
/// Racing kings: no checks, the first king on the eighth rank wins.
pub const CHESS_VARIANT_RACING_KINGS: chess_variant = 8;

/// Capacity that always holds every legal move of a `chess_variant_position` (crazyhouse's drops
/// can take a position past `CHESS_MAX_MOVES`).
pub const CHESS_MAX_VARIANT_MOVES: usize = 512;

const _: () = assert!(CHESS_MAX_VARIANT_MOVES == MAX_VARIANT_MOVES);

/// A position of any variant (opaque): the board, side to move, castling rights, en passant
/// square and clocks, plus crazyhouse's pockets and promoted pieces and three-check's remaining
/// checks. Create it with `chess_variant_position_new` and release it with
/// `chess_variant_position_free`.
// A heap handle, not a complete type like `chess_position`: what a variant adds to the board
// may grow (another variant's counters), and a size fixed in the header would freeze it.
pub struct chess_variant_position {
    pub(crate) pos: VariantPosition,
}

pub(crate) fn variant_arg(variant: chess_variant) -> Option<Variant> {
    Variant::ALL.get(usize::from(variant)).copied()
}

impl ErrorCode for VariantFenError {
    fn code(&self) -> chess_error {
        match self {
            VariantFenError::Fen(e) => e.code(),
            VariantFenError::Pocket => CHESS_ERR_VARIANT_POCKET,
            VariantFenError::Checks => CHESS_ERR_VARIANT_CHECKS,
            VariantFenError::Kings { .. } => CHESS_ERR_VARIANT_KINGS,
            VariantFenError::PawnOnBackRank(_) => CHESS_ERR_FEN_PAWN_ON_BACK_RANK,
            VariantFenError::OppositeCheck => CHESS_ERR_FEN_OPPOSITE_CHECK,
            // A kind of fault newer than the codes: still the text's fault.
            _ => CHESS_ERR_INVALID_TEXT,
        }
    }
}

impl ErrorCode for VariantEpdError {
    fn code(&self) -> chess_error {
        match self {
            VariantEpdError::Epd(e) => e.code(),
            VariantEpdError::Position(e) => e.code(),
            // A kind of fault newer than the codes: still the line's fault.
            _ => CHESS_ERR_INVALID_TEXT,
        }
    }
}

/// The position behind a handle, if it is not NULL.
///
/// # Safety
/// `pos` is NULL or a live handle not written during `'a`.
pub(crate) unsafe fn variant_ref<'a>(pos: *const chess_variant_position) -> Option<&'a VariantPosition> {
    // SAFETY: `pos` is NULL or a live handle (this function's contract).
    unsafe { pos.as_ref() }.map(|handle| &handle.pos)
}

/// Runs a query on the position, or returns `fallback` for a NULL handle (or a caught panic).
fn query<T: Copy>(pos: Option<&VariantPosition>, fallback: T, f: impl FnOnce(&VariantPosition) -> T) -> T {
    guard(fallback, || pos.map_or(fallback, f))
}

/// Writes the variant a name stands for into `*out`: the command line's names (`standard`,
/// `chess960`, `atomic`, `antichess`, `crazyhouse`, `kingofthehill`, `threecheck`, `horde`,
/// `racingkings`), PGN's (`King of the Hill`, `Three-check`, ...), UCI's (`3check`) and the
/// common aliases (`giveaway`, `koth`, `zh`, ...), ignoring case, spaces, hyphens and
/// underscores. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT`,
/// `CHESS_ERR_INVALID_ARGUMENT` (no variant of that name).
#[no_mangle]
pub unsafe extern "C" fn chess_variant_from_name(name: *const c_char, out: *mut chess_variant) -> chess_error {
    guard_code(|| {
        // SAFETY: `name` is NULL or a NUL-terminated string (the C contract).
        let name = unsafe { c_ascii(name) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        out.write(Variant::from_name(name).ok_or(CHESS_ERR_INVALID_ARGUMENT)? as chess_variant);
        Ok(())
    })
}

/// The command line's name of `variant` (`standard`, `chess960`, `atomic`, `antichess`,
/// `crazyhouse`, `kingofthehill`, `threecheck`, `horde`, `racingkings`; static), or NULL for a
/// value that is no variant.
#[no_mangle]
pub extern "C" fn chess_variant_name(variant: chess_variant) -> *const c_char {
    // Every name, NUL-terminated, in the order of the values.
    const NAMES: [&CStr; 9] = [
        c"standard",
        c"chess960",
        c"atomic",
        c"antichess",
        c"crazyhouse",
        c"kingofthehill",
        c"threecheck",
        c"horde",
        c"racingkings",
    ];
    guard(ptr::null(), || NAMES.get(usize::from(variant)).map_or(ptr::null(), |name| name.as_ptr()))
}

/// Reads a FEN of `variant` into a new handle in `*out` (free it with
/// `chess_variant_position_free`); a NULL `fen` gives the variant's start position (Chess960's:
/// the standard arrangement). FENs are read in python-chess's and lichess's forms: crazyhouse
/// pockets `[Qn]` after the placement (or as a ninth rank) and promoted pieces `Q~`, three-check
/// counters as remaining checks (`3+3` after the en passant square) or as checks given
/// (lichess's `+2+1` after the clocks). Castling rights without their king and rook, and an en
/// passant square no double push could have left, are dropped. Errors:
/// `CHESS_ERR_NULL_POINTER` (`out`), `CHESS_ERR_INVALID_ARGUMENT` (no such variant), a
/// `CHESS_ERR_FEN_*` code, `CHESS_ERR_VARIANT_POCKET`, `CHESS_ERR_VARIANT_CHECKS`,
/// `CHESS_ERR_VARIANT_KINGS`, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_new(
    variant: chess_variant,
    fen: *const c_char,
    out: *mut *mut chess_variant_position,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let variant = variant_arg(variant).ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        let pos = if fen.is_null() {
            VariantPosition::new(variant)
        } else {
            // SAFETY: `fen` is a NUL-terminated string (not NULL, and the C contract).
            let bytes = unsafe { c_bytes(fen) }?;
            // Bytes outside ASCII are the FEN's fault, as for the chess readers.
            let text = std::str::from_utf8(bytes).map_err(|_| CHESS_ERR_FEN_INVALID_CHARACTER)?;
            VariantPosition::from_fen(variant, text).map_err(|e| e.code())?
        };
        out.write(box_or_oom(chess_variant_position { pos })?);
        Ok(())
    })
}

/// A new handle holding a copy of `pos`; NULL when `pos` is NULL or memory runs out.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_clone(
    pos: *const chess_variant_position,
) -> *mut chess_variant_position {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    guard(ptr::null_mut(), || match unsafe { variant_ref(pos) } {
        Some(&pos) => box_or_oom(chess_variant_position { pos }).unwrap_or(ptr::null_mut()),
        None => ptr::null_mut(),
    })
}

/// Overwrites `dst` with `src`, variant included (no allocation; `dst` may equal `src`). Does
/// nothing when either is NULL.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_copy(
    dst: *mut chess_variant_position,
    src: *const chess_variant_position,
) {
    guard((), || {
        if !dst.is_null() && !src.is_null() {
            // A copy, not references: `dst` and `src` may be the same handle.
            // SAFETY: neither is NULL, so both are live handles and `dst` is used by no one else
            // (the C contract); `ptr::copy` allows them to overlap.
            unsafe { ptr::copy(src, dst, 1) };
        }
    })
}

/// Releases a handle from `chess_variant_position_new` or `chess_variant_position_clone`. NULL
/// is accepted and ignored.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_free(pos: *mut chess_variant_position) {
    // SAFETY: `pos` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(pos) }
}

/// Writes the FEN in python-chess's form: crazyhouse's pockets in brackets (`[Qn]`, White's
/// pieces first) and promoted pieces marked `~`, three-check's remaining checks (`3+3`) after
/// the en passant square, which is written only when an en passant capture is legal. A
/// crazyhouse FEN may be longer than `CHESS_FEN_MAX`: ask for its length with a NULL `buf` and
/// `cap` 0. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_fen(
    pos: *const chess_variant_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |pos: &VariantPosition, text_out: TextOut| {
        // On the stack: no allocation that could abort when memory runs out.
        // Every piece and pocket piece once, with marks and the other fields: within 1 KiB, as
        // a FEN of at most VARIANT_FEN_MAX_INPUT bytes holds them.
        let mut fen = StackText::<1024>::new();
        pos.write_fen(&mut fen).map_err(|_| CHESS_ERR_INTERNAL)?;
        text_out.write(fen.as_bytes()).map(drop)
    };
    // SAFETY: `pos` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(variant_ref(pos), buf, cap, out_len, write) }
}

/// The variant `pos` plays (`CHESS_VARIANT_CHESS` for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_variant(pos: *const chess_variant_position) -> chess_variant {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, CHESS_VARIANT_CHESS, |p| p.variant() as chess_variant)
}

/// Writes up to `cap` legal moves of `pos` to `out` and returns how many legal moves there are
/// (none once the variant's own ending is reached). `CHESS_MAX_VARIANT_MOVES` always suffices.
/// Drops are moves with bit 15 set and origin equal to destination (bits 12-14: 0 pawn to 4
/// queen); an antichess promotion to a king has bit 15 set and bits 12-14 equal to 5. `out` may
/// be NULL when `cap` is 0 (a count). Returns 0 for a NULL position, or a NULL `out` with
/// `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_legal_moves(
    pos: *const chess_variant_position,
    out: *mut chess_move,
    cap: usize,
) -> usize {
    // SAFETY: `pos` is NULL or a live handle, and `out` NULL or valid for `cap` writes (the C
    // contract).
    query(unsafe { variant_ref(pos) }, 0, |p| unsafe { fill(p.legal_moves().iter().copied(), out, cap) })
}

/// Plays `mv` if it is legal. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_MOVE` (not a
/// move encoding), `CHESS_ERR_ILLEGAL_MOVE` (`CHESS_MOVE_NONE` included). On error the position
/// is unchanged.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_play(pos: *mut chess_variant_position, mv: chess_move) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a live handle used by no one else (the C contract).
        let handle = unsafe { pos.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        let mv = Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)?;
        handle.pos.play(mv).map_err(|_| CHESS_ERR_ILLEGAL_MOVE)
    })
}

/// Writes the SAN of `mv`, a legal move of `pos`: drops as `N@f3` (a pawn's as `@e4`), `+` for
/// check and `#` for checkmate or any move that wins or loses by the variant's own rule.
/// `CHESS_SAN_MAX` bytes always suffice. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_MOVE`, `CHESS_ERR_ILLEGAL_MOVE`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_san(
    pos: *const chess_variant_position,
    mv: chess_move,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |pos: &VariantPosition, text_out: TextOut| {
        let mv = Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)?;
        let san = pos.san(mv).map_err(|_| CHESS_ERR_ILLEGAL_MOVE)?;
        text_out.write(san.as_bytes()).map(drop)
    };
    // SAFETY: `pos` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(variant_ref(pos), buf, cap, out_len, write) }
}

/// Reads a move in lenient SAN (suffixes and annotations optional; `P@e4` and `@e4` both drop
/// a pawn) and finds the legal move of `pos` it names. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_SAN_SYNTAX`, `CHESS_ERR_ILLEGAL_MOVE`,
/// `CHESS_ERR_SAN_AMBIGUOUS`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_parse_san(
    pos: *const chess_variant_position,
    san: *const c_char,
    out: *mut chess_move,
) -> chess_error {
    // SAFETY: the C contract, as `read_move` needs it.
    unsafe { read_move(pos, san, out, |pos, text| pos.parse_san(text).map_err(|e| e.code())) }
}

/// Writes `mv` in UCI as `pos` writes it: drops as `P@e4`, an antichess promotion to a king as
/// `e7e8k`, castling as the king's two-square move (king-takes-rook in Chess960). Any move
/// encoding is written, legal here or not. 6 bytes always suffice. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_MOVE`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_uci(
    pos: *const chess_variant_position,
    mv: chess_move,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |pos: &VariantPosition, text_out: TextOut| {
        let mv = Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)?;
        let mut text = StackText::<5>::new();
        write!(text, "{}", pos.uci(mv)).map_err(|_| CHESS_ERR_INTERNAL)?;
        text_out.write(text.as_bytes()).map(drop)
    };
    // SAFETY: `pos` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(variant_ref(pos), buf, cap, out_len, write) }
}

/// Reads a UCI move (`e2e4`, `e7e8q`, drops as `P@e4`) and finds the legal move of `pos` it
/// names; `0000` gives `CHESS_MOVE_NONE`. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_UCI_SYNTAX`, `CHESS_ERR_ILLEGAL_MOVE`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_parse_uci(
    pos: *const chess_variant_position,
    uci: *const c_char,
    out: *mut chess_move,
) -> chess_error {
    // SAFETY: the C contract, as `read_move` needs it.
    unsafe { read_move(pos, uci, out, |pos, text| pos.parse_uci(text).map_err(|e| e.code())) }
}

/// Reads the move `text` names in `pos` with `read` into `*out`.
///
/// # Safety
///
/// `pos` is NULL or a live handle, `text` NULL or a NUL-terminated string, `out` NULL or valid
/// for a write.
unsafe fn read_move(
    pos: *const chess_variant_position,
    text: *const c_char,
    out: *mut chess_move,
    read: impl FnOnce(&VariantPosition, &str) -> Result<Move, chess_error>,
) -> chess_error {
    guard_code(|| {
        // SAFETY: this function's contract.
        let pos = unsafe { variant_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: this function's contract.
        let text = unsafe { c_ascii(text) }?;
        // SAFETY: this function's contract.
        let out = unsafe { Out::new(out) }?;
        out.write(read(pos, text)?.raw());
        Ok(())
    })
}

/// Number of leaves of the legal move tree `depth` plies deep (1 at depth 0). 0 for a NULL
/// position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_perft(pos: *const chess_variant_position, depth: u32) -> u64 {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, 0, |p| p.perft(depth))
}

/// The outcome of the position, in python-chess's order: the variant's own ending
/// (`CHESS_TERMINATION_VARIANT_WIN`, `_LOSS` or `_DRAW`, for the side to move), checkmate,
/// insufficient material, stalemate, the seventy-five-move rule (not in crazyhouse).
/// Repetitions need a game's history and are not looked at.
/// `{CHESS_RESULT_ONGOING, CHESS_TERMINATION_NONE}` for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_outcome(pos: *const chess_variant_position) -> chess_outcome {
    let ongoing = chess_outcome { result: CHESS_RESULT_ONGOING, termination: CHESS_TERMINATION_NONE };
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, ongoing, |p| chess_outcome {
        result: result_ret(p.outcome()),
        termination: termination_ret(p.termination()),
    })
}

/// True when the side to move is in check (never in antichess or racing kings, nor in atomic
/// with the kings touching); false for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_is_check(pos: *const chess_variant_position) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, VariantPosition::is_check)
}

/// True when the side to move is in check and has no legal move (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_is_checkmate(pos: *const chess_variant_position) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, VariantPosition::is_checkmate)
}

/// True when the side to move has no legal move, is not in check and the variant's own ending
/// is not reached (false for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_is_stalemate(pos: *const chess_variant_position) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, VariantPosition::is_stalemate)
}

/// True when the game is over by the variant's own rule (an exploded king, a king on the hill
/// or the eighth rank, a third check, a side without pieces); false for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_is_variant_end(pos: *const chess_variant_position) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, VariantPosition::is_variant_end)
}

/// True when `color` cannot win by the variant's rules with the material it has (board and
/// pocket), as python-chess decides it per variant; false for a NULL position or an unknown
/// colour.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_has_insufficient_material(
    pos: *const chess_variant_position,
    color: chess_color,
) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, |p| color_arg(color).is_some_and(|c| p.has_insufficient_material(c)))
}

/// The number of pieces of `kind` (`CHESS_PAWN` to `CHESS_QUEEN`) in `color`'s crazyhouse
/// pocket; 0 in the other variants, for a king, an unknown colour or kind, or a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_pocket(
    pos: *const chess_variant_position,
    color: chess_color,
    kind: chess_piece_kind,
) -> u32 {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, 0, |p| match (color_arg(color), kind_arg(kind)) {
        (Some(color), Some(kind)) => u32::from(p.pocket(color).count(kind)),
        _ => 0,
    })
}

/// The crazyhouse pieces that were promoted pawns (bit i = square i; a captured one goes to the
/// pocket as a pawn); 0 in the other variants or for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_promoted(pos: *const chess_variant_position) -> u64 {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, 0, |p| p.promoted().0)
}

/// The checks `color` still has to give to win three-check (3 at the start; 3 in the other
/// variants, which do not count them); 0 for a NULL position or an unknown colour.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_remaining_checks(
    pos: *const chess_variant_position,
    color: chess_color,
) -> u32 {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, 0, |p| color_arg(color).map_or(0, |c| u32::from(p.remaining_checks(c))))
}

/// The side to move (`CHESS_WHITE` for a NULL position).
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_turn(pos: *const chess_variant_position) -> chess_color {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, CHESS_WHITE, |p| color_ret(p.turn()))
}

/// The piece on `square` (0 = a1 .. 63 = h8); `CHESS_NO_PIECE` for an empty square, a NULL
/// position or a square outside 0..63.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_piece_at(
    pos: *const chess_variant_position,
    square: chess_square,
) -> chess_piece {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, CHESS_NO_PIECE, |p| piece_ret(square_arg(square).and_then(|sq| p.piece_at(sq))))
}

/// Writes the board of `pos` as plain data into `*out`: pieces, side to move, the rooks that
/// keep a castling right, the en passant square as recorded, the clocks, and the Chess960 flag
/// (set for `CHESS_VARIANT_CHESS960`). What a variant adds (pockets, promoted pieces, checks)
/// has its own functions. Errors: `CHESS_ERR_NULL_POINTER`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_setup(
    pos: *const chess_variant_position,
    out: *mut chess_setup,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a live handle (the C contract).
        let pos = unsafe { variant_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let setup = pos.to_setup();
        out.write(setup_ret(&setup, pos.variant() == Variant::Chess960));
        Ok(())
    })
}

/// Writes up to `cap` pseudo-legal moves of `pos` to `out` and returns how many there are:
/// the moves the pieces' rules allow, whether or not they leave the mover's king attacked or
/// the variant forbids them (antichess's compulsory captures, racing kings' checks), even once
/// the game is over; crazyhouse adds a drop of each pocket piece on each empty square (pawns
/// not on the back ranks). Every legal move is among them. `CHESS_MAX_VARIANT_MOVES` always
/// suffices; `out` may be NULL when `cap` is 0 (a count). Returns 0 for a NULL position, or a
/// NULL `out` with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_pseudo_legal_moves(
    pos: *const chess_variant_position,
    out: *mut chess_move,
    cap: usize,
) -> usize {
    // SAFETY: `pos` is NULL or a live handle, and `out` NULL or valid for `cap` writes (the C
    // contract).
    query(unsafe { variant_ref(pos) }, 0, |p| unsafe { fill(p.pseudo_legal_moves().iter().copied(), out, cap) })
}

/// The pieces giving check to the side to move (bit i = square i): the enemy pieces attacking
/// its king; 0 when it has no king or several, in antichess, in atomic while the kings touch,
/// and for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_checkers(pos: *const chess_variant_position) -> u64 {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, 0, |p| p.checkers().0)
}

/// When the piece on `square` stands alone between `color`'s king and an enemy rook, bishop or
/// queen on a line, that whole line (edge to edge), along which alone it may move; else 0:
/// also in antichess (the king is an ordinary piece), for a side without exactly one king, a
/// NULL position, an unknown colour or a square outside 0..63.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_pin(
    pos: *const chess_variant_position,
    color: chess_color,
    square: chess_square,
) -> u64 {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, 0, |p| match (color_arg(color), square_arg(square)) {
        (Some(color), Some(sq)) => p.pin_line(color, sq).map_or(0, |line| line.0),
        _ => 0,
    })
}

/// Whether the legal move `mv` (or `CHESS_MOVE_NONE`, the null move) makes every position
/// before it unreachable: it moves a pawn or captures, takes away a castling right, or an en
/// passant capture is possible in `pos`; in three-check a check counts too, in crazyhouse
/// only castling rights do (captured pieces come back as drops). False for a move that is not
/// legal, a value that encodes no move, or a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_is_irreversible(
    pos: *const chess_variant_position,
    mv: chess_move,
) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, |p| Move::from_raw(mv).is_some_and(|mv| p.is_irreversible(mv)))
}

/// True when fifty moves (100 plies) have passed without a capture or a pawn move and the game
/// goes on (a draw either side may claim); never in crazyhouse; false for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_is_fifty_moves(pos: *const chess_variant_position) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, VariantPosition::is_fifty_moves)
}

/// True when seventy-five moves (150 plies) have passed without a capture or a pawn move and a
/// move could still be played (the game is drawn); never in crazyhouse; false for a NULL
/// position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_is_seventy_five_moves(pos: *const chess_variant_position) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, VariantPosition::is_seventy_five_moves)
}

/// True when a fifty-move draw may be claimed now, or by announcing a legal move after which
/// `chess_variant_position_is_fifty_moves` holds; false for a NULL position.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_can_claim_fifty_moves(pos: *const chess_variant_position) -> bool {
    // SAFETY: `pos` is NULL or a live handle (the C contract).
    query(unsafe { variant_ref(pos) }, false, VariantPosition::can_claim_fifty_moves)
}

/// Writes into `*out` what python-chess's variant board would find wrong with `pos`: its
/// `status()` flags, the values of `chess_setup_status` plus python-chess's racing-kings flags
/// (bit 12: a king in check, bit 13: the race already over, bit 14: pawns or extra pieces); 0
/// when it finds nothing. The library holds only positions it can play, but python-chess is
/// stricter in places (more than 16 pieces a side, say). Errors: `CHESS_ERR_NULL_POINTER`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_status(
    pos: *const chess_variant_position,
    out: *mut u32,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a live handle (the C contract).
        let pos = unsafe { variant_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        out.write(pos.status().bits());
        Ok(())
    })
}

/// Writes into a new handle in `*out` (free it with `chess_variant_position_free`) the mirror
/// of `pos`: the board flipped top to bottom with the colours swapped and the other side to
/// move, pockets and remaining checks swapped too. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_VARIANT_KINGS` or another code of `chess_variant_position_new` when the image is
/// no position of the variant (horde's pawns must be White's), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_mirror(
    pos: *const chess_variant_position,
    out: *mut *mut chess_variant_position,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a live handle (the C contract).
        let pos = unsafe { variant_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let mirrored = pos.mirror().map_err(|e| e.code())?;
        out.write(box_or_oom(chess_variant_position { pos: mirrored })?);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header's values are the core's, and the names the core's command-line names.
    #[test]
    fn values_and_names_are_the_cores() {
        let constants = [
            CHESS_VARIANT_CHESS,
            CHESS_VARIANT_CHESS960,
            CHESS_VARIANT_ATOMIC,
            CHESS_VARIANT_ANTICHESS,
            CHESS_VARIANT_CRAZYHOUSE,
            CHESS_VARIANT_KING_OF_THE_HILL,
            CHESS_VARIANT_THREE_CHECK,
            CHESS_VARIANT_HORDE,
            CHESS_VARIANT_RACING_KINGS,
        ];
        for (constant, variant) in constants.into_iter().zip(Variant::ALL) {
            assert_eq!((constant, variant_arg(constant)), (variant as chess_variant, Some(variant)));
            // SAFETY: a variant's name is a static NUL-terminated string.
            assert_eq!(unsafe { CStr::from_ptr(chess_variant_name(constant)) }.to_str(), Ok(variant.name()));
        }
        assert_eq!((variant_arg(9), chess_variant_name(9)), (None, ptr::null()));
    }
}
