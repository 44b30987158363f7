//! Syzygy endgame tablebases: WDL and DTZ probes, and the ranking of a game's moves.

use std::ffi::c_char;

use super::error::*;
use super::fen::c_path;
use super::game::{chess_game, record_ref};
use super::moves::chess_move;
use super::position::{chess_position, position};
use super::util::{box_or_oom, c_bytes, fill_array, free_handle, guard, guard_code, Out};
use chesscore_core::syzygy::{SyzygyError, Tablebase};
use chesscore_core::Position;

/// Syzygy tables (opaque): the `.rtbw` and `.rtbz` files of one or more directories, opened
/// when a probe first needs them (at most 128 open at once, the least recently used closed
/// first) and read with positioned reads, so a file cut or changed meanwhile gives
/// `CHESS_ERR_TABLEBASE_CORRUPT`, never a signal. No global state: any number of tablebases may
/// exist. Thread safety: any number of threads may probe one tablebase at once (all the probing
/// functions take it `const`); only `chess_tablebase_free` needs it unused. Release it with
/// `chess_tablebase_free`.
pub struct chess_tablebase {
    tb: Tablebase,
}

/// A legal move of a game ranked by `chess_tablebase_rank_moves`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct chess_tablebase_move {
    /// The move.
    pub r#move: chess_move,
    /// `chess_tablebase_probe_wdl` of the position after the move, negated: -2..2 from the
    /// view of the side that plays it.
    pub wdl: i32,
    /// `chess_tablebase_probe_dtz` of the position after the move, negated (the mover's view).
    pub dtz: i32,
    /// The move's rank as Stockfish ranks root moves (greater is better; see
    /// `chess_tablebase_rank_moves`).
    pub rank: i32,
}

impl ErrorCode for SyzygyError {
    fn code(&self) -> chess_error {
        match self {
            SyzygyError::MissingTable { .. } => CHESS_ERR_TABLEBASE_MISSING_TABLE,
            SyzygyError::CastlingRights => CHESS_ERR_TABLEBASE_CASTLING,
            SyzygyError::TooManyPieces(_) => CHESS_ERR_TABLEBASE_TOO_MANY_PIECES,
            SyzygyError::Corrupt { .. } => CHESS_ERR_TABLEBASE_CORRUPT,
            SyzygyError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => CHESS_ERR_FILE_NOT_FOUND,
            SyzygyError::OutOfMemory => CHESS_ERR_OUT_OF_MEMORY,
            // A read error, or a kind of fault newer than the codes.
            _ => CHESS_ERR_IO,
        }
    }
}

/// Hands to `*out` a tablebase of the tables in `paths`: directories separated by ':' (bytes
/// as the system takes them; empty parts are skipped, so "" gives a tablebase without tables).
/// Only the directory listings are read here; each file is read when first probed. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_FILE_NOT_FOUND` (a directory that does not exist),
/// `CHESS_ERR_IO` (one that cannot be listed), `CHESS_ERR_INVALID_TEXT` (a path this system
/// cannot name), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_open(paths: *const c_char, out: *mut *mut chess_tablebase) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `paths` is NULL or NUL-terminated (the C contract).
        let paths = unsafe { c_bytes(paths) }?;
        let mut tb = Tablebase::new();
        for dir in paths.split(|&b| b == b':').filter(|d| !d.is_empty()) {
            tb.add_directory(c_path(dir)?).map_err(|e| e.code())?;
        }
        out.write(box_or_oom(chess_tablebase { tb })?);
        Ok(())
    })
}

/// Releases a tablebase and closes its files (NULL is ignored). No probe may be running on it.
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_free(tb: *mut chess_tablebase) {
    // SAFETY: `tb` is NULL or a live handle no one else uses (the C contract).
    unsafe { free_handle(tb) }
}

/// The most pieces of any table found (WDL or DTZ); 0 for none or a NULL tablebase.
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_max_pieces(tb: *const chess_tablebase) -> u32 {
    // SAFETY: `tb` is NULL or a live handle (the C contract).
    guard(0, || unsafe { tb.as_ref() }.map_or(0, |t| t.tb.max_pieces()))
}

/// One probe of `pos` written to `*out`: the body of `chess_tablebase_probe_wdl` and `_dtz`.
///
/// # Safety
/// `tb` and `pos` are NULL or live handles, `out` NULL or valid for a write.
unsafe fn probe_into(
    tb: *const chess_tablebase,
    pos: *const chess_position,
    out: *mut i32,
    probe: fn(&Tablebase, &Position) -> Result<i32, SyzygyError>,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (this function's contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `tb` is NULL or a live handle (this function's contract).
        let tb = unsafe { tb.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `pos` is NULL or a valid position (this function's contract).
        let pos = unsafe { position(pos) }?;
        out.write(probe(&tb.tb, pos).map_err(|e| e.code())?);
        Ok(())
    })
}

/// Writes to `*wdl` python-chess's `probe_wdl` of `pos`: 2 the side to move wins, 1 it wins
/// but the 50-move rule may save the other side (cursed win), 0 a draw, -1 a loss the 50-move
/// rule saves (blessed loss), -2 a loss; assuming the position arose right after a capture or
/// pawn move. Captures and en passant are searched first, so a position one piece over the
/// tables may have a value. Thread-safe. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_TABLEBASE_MISSING_TABLE`, `CHESS_ERR_TABLEBASE_CASTLING`,
/// `CHESS_ERR_TABLEBASE_TOO_MANY_PIECES`, `CHESS_ERR_TABLEBASE_CORRUPT`, `CHESS_ERR_IO`,
/// `CHESS_ERR_FILE_NOT_FOUND` (a table file removed since the open), `CHESS_ERR_OUT_OF_MEMORY`;
/// `*wdl` is unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_probe_wdl(
    tb: *const chess_tablebase,
    pos: *const chess_position,
    wdl: *mut i32,
) -> chess_error {
    // SAFETY: the pointers are NULL or valid (the C contract).
    unsafe { probe_into(tb, pos, wdl, Tablebase::probe_wdl) }
}

/// Writes to `*dtz` python-chess's `probe_dtz` of `pos`: the distance to the next capture or
/// pawn move in plies, signed like the WDL value (1..100 a win, over 100 a cursed win, 0 a
/// draw, -1..-100 a loss, under -100 a blessed loss), rounded as python-chess rounds (a value
/// n may mean n + 1 plies). Needs the WDL tables as well. Thread-safe. Errors as for
/// `chess_tablebase_probe_wdl`.
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_probe_dtz(
    tb: *const chess_tablebase,
    pos: *const chess_position,
    dtz: *mut i32,
) -> chess_error {
    // SAFETY: the pointers are NULL or valid (the C contract).
    unsafe { probe_into(tb, pos, dtz, Tablebase::probe_dtz) }
}

/// Ranks every legal move at the end of `game`'s main line as Stockfish's root probing does
/// with the 50-move rule on, taking the game's half-move clock and its repetitions into
/// account, and writes them best first to `out` (up to `cap`; `CHESS_MAX_MOVES` always
/// suffices; `out` may be NULL when `cap` is 0); `*out_count` (optional) receives the number
/// of legal moves. The rank: a move's DTZ from the root is 1 (win), 101 (cursed win), -1, -101
/// or 0 after a capture or pawn move (by the WDL value after it), 0 after a move that makes a
/// threefold repetition or reaches 100 half-moves without mate, 1 for a mate, else the DTZ
/// after it, one ply further from zero. With n the half-move clock and rep whether a position
/// repeated since the last irreversible move: a win d with d + n <= 99 and no rep ranks
/// 262144 - d, other wins 131072 - (d + n), draws 0, a loss d with -2d + n < 100 ranks
/// -262144 - d, other losses -131072 + (-d + n). Equal ranks keep the order of
/// `chess_legal_moves`. A winning move comes first whenever there is one. Thread-safe.
/// Errors: those of `chess_tablebase_probe_dtz` for any move (nothing is written then), and
/// `CHESS_ERR_BUFFER_TOO_SMALL` when `cap` is below the number of moves (`*out_count` set,
/// the first `cap` written).
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_rank_moves(
    tb: *const chess_tablebase,
    game: *const chess_game,
    out: *mut chess_tablebase_move,
    cap: usize,
    out_count: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `tb` is NULL or a live handle (the C contract).
        let tb = &unsafe { tb.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?.tb;
        // SAFETY: `game` is NULL or a live handle not written meanwhile (the C contract).
        let record = unsafe { record_ref(game) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        if out.is_null() && cap > 0 {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        let ranked = tb.rank_root_moves(record).map_err(|e| e.code())?;
        let moves =
            ranked.iter().map(|m| chess_tablebase_move { r#move: m.mv.raw(), wdl: m.wdl, dtz: m.dtz, rank: m.rank });
        // SAFETY: `out` is valid for `cap` writes, not NULL unless `cap` is 0 (checked above).
        let count = unsafe { fill_array(moves, out, cap) };
        if !out_count.is_null() {
            // SAFETY: `out_count` is NULL or valid for a write (the C contract).
            unsafe { out_count.write(count) };
        }
        if count > cap {
            return Err(CHESS_ERR_BUFFER_TOO_SMALL);
        }
        Ok(())
    })
}
