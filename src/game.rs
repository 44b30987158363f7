//! Games: a start position and the moves played, with undo, repetition and outcome.

use std::ffi::c_char;
use std::ptr;

use super::error::*;
use super::moves::{chess_move, fill};
use super::position::{borrowed_handle, chess_position, position_ref};
use super::util::{box_or_oom, c_ascii, free_handle, guard, guard_code, oom, write_optional, TextOut};
use chesscore_core::{Game, Move, Outcome, Position, Termination};

use super::record::{each_game, Record};
use super::variant::{chess_variant, chess_variant_position, variant_ref, CHESS_VARIANT_CHESS};
use chesscore_core::variant::VariantGame;

/// A game (opaque): a start position, the moves played and every position they reached, with
/// PGN tags and, for a game read from PGN, its comments, NAGs and variations. Create it with
/// `chess_game_new` (or read it with `chess_pgn_reader_next`) and release it with
/// `chess_game_free`. Positions it hands out belong to it: read them, copy them with
/// `chess_position_clone`, but never change or free them.
pub struct chess_game {
    /// Tags, the main line with its positions, and the move tree.
    record: Record,
    /// A copy of a chess game's start position outside the history, whose storage moves as it
    /// grows, so that `chess_game_start` stays valid for the life of the game.
    start: Option<Position>,
}

/// The result of a game.
pub type chess_result = u8;
/// Not over (a draw that may be claimed but has not been leaves the game going).
pub const CHESS_RESULT_ONGOING: chess_result = 0;
/// White won.
pub const CHESS_RESULT_WHITE_WINS: chess_result = 1;
/// Black won.
pub const CHESS_RESULT_BLACK_WINS: chess_result = 2;
/// Drawn.
pub const CHESS_RESULT_DRAW: chess_result = 3;

/// Why a game ended, or which draw may be claimed.
pub type chess_termination = u8;
/// None: the game goes on, or no draw may be claimed.
pub const CHESS_TERMINATION_NONE: chess_termination = 0;
/// The side to move is checkmated.
pub const CHESS_TERMINATION_CHECKMATE: chess_termination = 1;
/// The side to move has no legal move and is not in check.
pub const CHESS_TERMINATION_STALEMATE: chess_termination = 2;
/// Neither side can checkmate (a dead position).
pub const CHESS_TERMINATION_INSUFFICIENT_MATERIAL: chess_termination = 3;
/// 150 half-moves without a capture or pawn move (automatic draw).
pub const CHESS_TERMINATION_SEVENTY_FIVE_MOVES: chess_termination = 4;
/// The position occurred five times (automatic draw).
pub const CHESS_TERMINATION_FIVEFOLD_REPETITION: chess_termination = 5;
/// 100 half-moves without a capture or pawn move (a draw that may be claimed).
pub const CHESS_TERMINATION_FIFTY_MOVES: chess_termination = 6;
/// The position occurred three times, or a move would make it so (a draw that may be
/// claimed).
pub const CHESS_TERMINATION_THREEFOLD_REPETITION: chess_termination = 7;
/// A variant's own rule won the game for the side to move (antichess).
pub const CHESS_TERMINATION_VARIANT_WIN: chess_termination = 8;
/// A variant's own rule lost the game for the side to move (an exploded king, a king on the
/// hill or the eighth rank first, a third check, the horde gone).
pub const CHESS_TERMINATION_VARIANT_LOSS: chess_termination = 9;
/// A variant's own rule drew the game (racing kings).
pub const CHESS_TERMINATION_VARIANT_DRAW: chess_termination = 10;

/// The outcome of a game: the result, and why the game ended (`CHESS_TERMINATION_NONE` while
/// it goes on).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct chess_outcome {
    /// Ongoing, won by either side, or drawn.
    pub result: chess_result,
    /// The automatic ending reached (never `CHESS_TERMINATION_FIFTY_MOVES` or
    /// `CHESS_TERMINATION_THREEFOLD_REPETITION`, which need a claim).
    pub termination: chess_termination,
}

pub(crate) fn result_ret(outcome: Outcome) -> chess_result {
    match outcome {
        Outcome::Ongoing => CHESS_RESULT_ONGOING,
        Outcome::WhiteWins => CHESS_RESULT_WHITE_WINS,
        Outcome::BlackWins => CHESS_RESULT_BLACK_WINS,
        Outcome::Draw => CHESS_RESULT_DRAW,
    }
}

pub(crate) fn termination_ret(termination: Option<Termination>) -> chess_termination {
    match termination {
        None => CHESS_TERMINATION_NONE,
        Some(Termination::Checkmate) => CHESS_TERMINATION_CHECKMATE,
        Some(Termination::Stalemate) => CHESS_TERMINATION_STALEMATE,
        Some(Termination::InsufficientMaterial) => CHESS_TERMINATION_INSUFFICIENT_MATERIAL,
        Some(Termination::SeventyFiveMoves) => CHESS_TERMINATION_SEVENTY_FIVE_MOVES,
        Some(Termination::FivefoldRepetition) => CHESS_TERMINATION_FIVEFOLD_REPETITION,
        Some(Termination::FiftyMoves) => CHESS_TERMINATION_FIFTY_MOVES,
        Some(Termination::ThreefoldRepetition) => CHESS_TERMINATION_THREEFOLD_REPETITION,
        Some(Termination::VariantWin) => CHESS_TERMINATION_VARIANT_WIN,
        Some(Termination::VariantLoss) => CHESS_TERMINATION_VARIANT_LOSS,
        Some(Termination::VariantDraw) => CHESS_TERMINATION_VARIANT_DRAW,
    }
}

impl chess_game {
    /// A handle for `record` (NULL when memory runs out).
    pub(crate) fn boxed(record: Record) -> *mut chess_game {
        chess_game::try_boxed(record).unwrap_or(ptr::null_mut())
    }

    /// A handle for `record`, or `CHESS_ERR_OUT_OF_MEMORY`.
    pub(crate) fn try_boxed(record: Record) -> Result<*mut chess_game, chess_error> {
        let start = record.chess().ok().map(|game| *game.start());
        box_or_oom(chess_game { record, start })
    }
}

/// The record behind a handle, if it is not NULL.
///
/// # Safety
/// `game` is NULL or a live handle not written during `'a`.
pub(crate) unsafe fn record_ref<'a>(game: *const chess_game) -> Option<&'a Record> {
    // SAFETY: `game` is NULL or a live handle (this function's contract).
    unsafe { game.as_ref() }.map(|handle| &handle.record)
}

/// The record behind a handle, for writing. Only the `record` field is borrowed: a reference
/// to the whole handle would also claim `start`, which C may be reading through
/// `chess_game_start`.
///
/// # Safety
/// `game` is NULL or a live handle used by no one else during `'a`.
pub(crate) unsafe fn record_mut<'a>(game: *mut chess_game) -> Result<&'a mut Record, chess_error> {
    if game.is_null() {
        return Err(CHESS_ERR_NULL_POINTER);
    }
    // SAFETY: `game` is not NULL, so it is a live handle no one else uses (this function's
    // contract).
    Ok(unsafe { &mut *ptr::addr_of_mut!((*game).record) })
}

/// Runs a query on the game, or returns `fallback` for a NULL handle (or a caught panic).
fn query<'a, T: Copy>(game: Option<&'a Record>, fallback: T, f: impl FnOnce(&'a Record) -> T) -> T {
    guard(fallback, || game.map_or(fallback, f))
}

/// A new game starting from a copy of `start`, or from the standard starting position when
/// `start` is NULL; null moves are not allowed. NULL when memory runs out.
#[no_mangle]
pub unsafe extern "C" fn chess_game_new(start: *const chess_position) -> *mut chess_game {
    guard(ptr::null_mut(), || {
        // SAFETY: `start` is NULL or a valid position (the C contract).
        let start = unsafe { position_ref(start) }.copied().unwrap_or_else(Position::startpos);
        match Game::try_new(start) {
            Ok(record) => chess_game::boxed(Record::Chess(record)),
            Err(_) => ptr::null_mut(),
        }
    })
}

/// A new game of `start`'s variant starting from a copy of it (see `chess_variant_position`);
/// null moves are never allowed in a variant game. A game of `CHESS_VARIANT_CHESS` or
/// `CHESS_VARIANT_CHESS960` is a chess game, as `chess_game_new` makes. NULL for a NULL
/// `start` or when memory runs out.
#[no_mangle]
pub unsafe extern "C" fn chess_game_new_variant(start: *const chess_variant_position) -> *mut chess_game {
    guard(ptr::null_mut(), || {
        // SAFETY: `start` is NULL or a live handle (the C contract).
        let Some(start) = (unsafe { variant_ref(start) }) else { return ptr::null_mut() };
        let record = match start.as_chess() {
            Some(chess) => Game::try_new(*chess).map(Record::Chess),
            None => VariantGame::try_new(*start).map(Record::Variant),
        };
        record.map_or(ptr::null_mut(), chess_game::boxed)
    })
}

/// The rules `game` is played by (`CHESS_VARIANT_CHESS` for a NULL game). The functions that
/// hand out or take a `chess_position` (`chess_game_position`, `chess_game_start`,
/// `chess_game_position_at`, `chess_node_position`, book and tablebase calls) need a chess game:
/// for a variant game they return NULL or `CHESS_ERR_VARIANT_GAME`, and
/// `chess_node_variant_position` gives its positions. Every other game, tree and PGN function
/// takes games of any variant.
#[no_mangle]
pub unsafe extern "C" fn chess_game_variant(game: *const chess_game) -> chess_variant {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, CHESS_VARIANT_CHESS, |game| game.variant() as chess_variant)
}

/// A new game with everything `game` holds (start, moves, tags, comments, NAGs, variations,
/// result, whether null moves are allowed); NULL for a NULL game or when memory runs out.
#[no_mangle]
pub unsafe extern "C" fn chess_game_clone(game: *const chess_game) -> *mut chess_game {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    guard(ptr::null_mut(), || match unsafe { record_ref(game) }.map(Record::try_clone) {
        Some(Ok(record)) => chess_game::boxed(record),
        _ => ptr::null_mut(),
    })
}

/// Releases a game and every position it handed out. NULL is accepted and ignored.
#[no_mangle]
pub unsafe extern "C" fn chess_game_free(game: *mut chess_game) {
    // SAFETY: `game` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(game) }
}

/// Plays `mv` if it is legal in the current position; `CHESS_MOVE_NONE` is the null move, legal
/// only while null moves are allowed (`chess_game_set_allow_null_moves`) and the side to move is
/// not in check. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_MOVE`,
/// `CHESS_ERR_ILLEGAL_MOVE`, `CHESS_ERR_OUT_OF_MEMORY`; the game is then unchanged.
#[no_mangle]
pub unsafe extern "C" fn chess_game_push(game: *mut chess_game, mv: chess_move) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle used by no one else (the C contract).
        let game = unsafe { record_mut(game) }?;
        let mv = Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)?;
        each_game!(game, game => {
            game.try_reserve(1).map_err(oom)?;
            game.push(mv).map_err(|_| CHESS_ERR_ILLEGAL_MOVE)
        })
    })
}

/// Reads `san` as lenient SAN (see `chess_move_from_san`; the null move `--` as the game allows)
/// and plays it; `*out` (optional) receives the move. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_SAN_SYNTAX`, `CHESS_ERR_ILLEGAL_MOVE`,
/// `CHESS_ERR_SAN_AMBIGUOUS`, `CHESS_ERR_OUT_OF_MEMORY`; the game is then unchanged.
#[no_mangle]
pub unsafe extern "C" fn chess_game_push_san(
    game: *mut chess_game,
    san: *const c_char,
    out: *mut chess_move,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle used by no one else (the C contract).
        let game = unsafe { record_mut(game) }?;
        // SAFETY: `san` is NULL or a NUL-terminated string (the C contract).
        let san = unsafe { c_ascii(san) }?;
        let mv = each_game!(game, game => {
            game.try_reserve(1).map_err(oom)?;
            game.push_san(san).map_err(|e| e.code())?
        });
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        unsafe { write_optional(out, mv.raw()) };
        Ok(())
    })
}

/// Reads `uci` as a UCI move (see `chess_move_from_uci`; `0000` as the game allows null moves)
/// and plays it; `*out` (optional) receives the move. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_UCI_SYNTAX`, `CHESS_ERR_ILLEGAL_MOVE`,
/// `CHESS_ERR_OUT_OF_MEMORY`; the game is then unchanged.
#[no_mangle]
pub unsafe extern "C" fn chess_game_push_uci(
    game: *mut chess_game,
    uci: *const c_char,
    out: *mut chess_move,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle used by no one else (the C contract).
        let game = unsafe { record_mut(game) }?;
        // SAFETY: `uci` is NULL or a NUL-terminated string (the C contract).
        let uci = unsafe { c_ascii(uci) }?;
        let mv = each_game!(game, game => {
            game.try_reserve(1).map_err(oom)?;
            game.push_uci(uci).map_err(|e| e.code())?
        });
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        unsafe { write_optional(out, mv.raw()) };
        Ok(())
    })
}

/// Takes back the last move (no replay from the start), with its comments, NAGs and the
/// variations that replace it in a game read from PGN; `*out` (optional) receives it. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_EMPTY_HISTORY` (no move played),
/// `CHESS_ERR_OUT_OF_MEMORY` (taking back an annotated move rebuilds the game's tree; the game
/// is then unchanged).
#[no_mangle]
pub unsafe extern "C" fn chess_game_pop(game: *mut chess_game, out: *mut chess_move) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle used by no one else (the C contract).
        let mv = each_game!(unsafe { record_mut(game) }?, game => game.try_pop())
            .map_err(oom)?
            .ok_or(CHESS_ERR_EMPTY_HISTORY)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        unsafe { write_optional(out, mv.raw()) };
        Ok(())
    })
}

/// The current position (NULL for a NULL game, or a variant game). It belongs to the game and stays valid until a
/// move is pushed or popped or the game is freed.
#[no_mangle]
pub unsafe extern "C" fn chess_game_position(game: *const chess_game) -> *const chess_position {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, ptr::null(), |game| {
        game.chess().map_or(ptr::null(), |game| borrowed_handle(game.position()))
    })
}

/// The start position (NULL for a NULL game, or a variant game: `chess_game_variant`). It
/// belongs to the game and stays valid until the game is freed.
#[no_mangle]
pub unsafe extern "C" fn chess_game_start(game: *const chess_game) -> *const chess_position {
    guard(ptr::null(), || {
        // SAFETY: `game` is NULL or a live handle (the C contract).
        unsafe { game.as_ref() }.and_then(|handle| handle.start.as_ref()).map_or(ptr::null(), borrowed_handle)
    })
}

/// The position after the first `ply` moves (0 is the start position); NULL for a NULL game, a
/// variant game or a `ply` above the number of moves played. Valid as `chess_game_position`'s.
#[no_mangle]
pub unsafe extern "C" fn chess_game_position_at(game: *const chess_game, ply: usize) -> *const chess_position {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, ptr::null(), |game| {
        game.chess().ok().and_then(|game| game.position_at(ply)).map_or(ptr::null(), borrowed_handle)
    })
}

/// Writes up to `cap` of the moves played, oldest first, to `out` and returns how many have
/// been played. `out` may be NULL when `cap` is 0. Returns 0 for a NULL game, or a NULL `out`
/// with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_game_moves(game: *const chess_game, out: *mut chess_move, cap: usize) -> usize {
    // SAFETY: `game` is NULL or a live handle, and `out` NULL or valid for `cap` writes (the C
    // contract).
    query(unsafe { record_ref(game) }, 0, |game| each_game!(game, game => unsafe { fill(game.moves(), out, cap) }))
}

/// The number of moves (plies) played (0 for a NULL game).
#[no_mangle]
pub unsafe extern "C" fn chess_game_ply_count(game: *const chess_game) -> usize {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, 0, |game| each_game!(game, game => game.moves().len()))
}

/// Writes the SAN of the moves played, suffixes included, separated by single spaces and
/// without move numbers (`e4 e5 Nf3`; empty before the first move; a null move is `--`): a line
/// `chess_moves_from_line` reads back from the start position (with `CHESS_SAN_ALLOW_NULL` when
/// it holds null moves). Unlike `chess_game_mainline_san` (the move tree's main line, as read
/// from PGN), these are the moves played, in canonical SAN. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_game_san_moves(
    game: *const chess_game,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle (the C contract).
        let game = unsafe { record_ref(game) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `buf` is NULL or valid for `cap` bytes, `out_len` NULL or valid (the C contract).
        let text_out = unsafe { TextOut::new(buf, cap, out_len) }?;
        text_out.write_with(|sink| {
            each_game!(game, game => for (i, san) in game.san_moves().enumerate() {
                if i > 0 {
                    sink.write_bytes(b" ");
                }
                sink.write_bytes(san.as_bytes());
            });
            Ok(())
        })?;
        Ok(())
    })
}

/// Allows or forbids null moves from now on (forbidden in a new game, allowed in a game read
/// from PGN). Does nothing for a NULL game.
#[no_mangle]
pub unsafe extern "C" fn chess_game_set_allow_null_moves(game: *mut chess_game, allow: bool) {
    guard((), || {
        // SAFETY: `game` is NULL or a live handle used by no one else (the C contract).
        if let Ok(game) = unsafe { record_mut(game) } {
            each_game!(game, game => game.set_allow_null_moves(allow));
        }
    })
}

/// True when null moves may be pushed (false for a NULL game).
#[no_mangle]
pub unsafe extern "C" fn chess_game_allows_null_moves(game: *const chess_game) -> bool {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, false, |game| each_game!(game, game => game.allows_null_moves()))
}

/// The outcome by the automatic rules, tested in this order: checkmate (the side that mated
/// wins), insufficient material, stalemate, the seventy-five-move rule, fivefold repetition
/// (draws). Draws that need a claim leave the game ongoing (see `chess_game_claimable_draw`).
/// `{CHESS_RESULT_ONGOING, CHESS_TERMINATION_NONE}` for a NULL game.
#[no_mangle]
pub unsafe extern "C" fn chess_game_outcome(game: *const chess_game) -> chess_outcome {
    let ongoing = chess_outcome { result: CHESS_RESULT_ONGOING, termination: CHESS_TERMINATION_NONE };
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, ongoing, |game| {
        each_game!(game, game => chess_outcome {
            result: result_ret(game.outcome()),
            termination: termination_ret(game.termination()),
        })
    })
}

/// The draw the side to move may claim now: `CHESS_TERMINATION_FIFTY_MOVES` (also by announcing
/// a move that completes the fifty moves), else `CHESS_TERMINATION_THREEFOLD_REPETITION` (the
/// position occurred three times, or a legal move would make a position occur the third time),
/// else `CHESS_TERMINATION_NONE` (also when the game is over or NULL).
#[no_mangle]
pub unsafe extern "C" fn chess_game_claimable_draw(game: *const chess_game) -> chess_termination {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(
        unsafe { record_ref(game) },
        CHESS_TERMINATION_NONE,
        |game| each_game!(game, game => termination_ret(game.claimable_draw())),
    )
}

/// How many times the current position has occurred in the game, this time included (0 for a
/// NULL game). Positions are the same when the same side is to move, the pieces stand on the
/// same squares, the castling rights are equal and the same en passant captures are legal.
#[no_mangle]
pub unsafe extern "C" fn chess_game_repetition_count(game: *const chess_game) -> usize {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, 0, |game| each_game!(game, game => game.repetition_count()))
}

/// True when the current position has occurred before since the last irreversible move (a
/// capture, a pawn move, a change of castling rights, a null move): the repetition test of a
/// search, which scores such a position as a draw (false for a NULL game).
#[no_mangle]
pub unsafe extern "C" fn chess_game_is_repetition(game: *const chess_game) -> bool {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, false, |game| each_game!(game, game => game.is_repetition()))
}

/// True when the current position has occurred at least three times (false for a NULL game).
#[no_mangle]
pub unsafe extern "C" fn chess_game_is_threefold_repetition(game: *const chess_game) -> bool {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, false, |game| each_game!(game, game => game.is_threefold_repetition()))
}

/// True when the current position has occurred at least five times: the game is drawn (false
/// for a NULL game).
#[no_mangle]
pub unsafe extern "C" fn chess_game_is_fivefold_repetition(game: *const chess_game) -> bool {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, false, |game| each_game!(game, game => game.is_fivefold_repetition()))
}

/// True when a threefold repetition may be claimed: the current position occurred three times,
/// or a legal move would make a position occur the third time (false for a NULL game).
#[no_mangle]
pub unsafe extern "C" fn chess_game_can_claim_threefold_repetition(game: *const chess_game) -> bool {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { record_ref(game) }, false, |game| each_game!(game, game => game.can_claim_threefold_repetition()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess_position_zobrist;

    /// The positions a game hands out stay readable as documented while the game changes. Miri
    /// checks the pointer rules: `cargo +nightly miri test -p chesscore --lib game::`.
    #[test]
    fn handed_out_positions_live_as_documented() {
        // SAFETY: every pointer passed is a live handle, a C string or NULL where allowed.
        unsafe {
            let game = chess_game_new(ptr::null());
            let start = chess_game_start(game);
            // Enough moves for the history to move to larger storage several times.
            for uci in [c"g1f3", c"g8f6", c"f3g1", c"f6g8"].iter().cycle().take(40) {
                assert_eq!(chess_game_push_uci(game, uci.as_ptr(), ptr::null_mut()), CHESS_OK);
            }
            assert_eq!(chess_position_zobrist(start), Position::startpos().zobrist());
            let current = chess_game_position(game);
            chess_game_set_allow_null_moves(game, true);
            assert_eq!(chess_position_zobrist(current), Position::startpos().zobrist());
            assert_eq!(chess_game_pop(game, ptr::null_mut()), CHESS_OK);
            assert_eq!(chess_position_zobrist(start), Position::startpos().zobrist());
            chess_game_free(game);
        }
    }
}
