//! Syzygy endgame tablebases: WDL and DTZ probes, and the ranking of a game's moves.

use std::cell::RefCell;
use std::ffi::c_char;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use super::error::*;
use super::fen::c_path;
use super::game::{chess_game, record_ref};
use super::moves::chess_move;
use super::pgn::{CutText, CHESS_PGN_MESSAGE_MAX};
use super::position::{chess_position, position};
use super::util::{
    box_or_oom, c_bytes, fill_array, free_handle, guard, guard_code, versioned, versioned_ref, Out, Versioned,
};
use chesscore_core::syzygy::{SyzygyError, Tablebase, TablebaseOptions};
use chesscore_core::Position;

/// Syzygy tables (opaque): the `.rtbw` and `.rtbz` files of one or more directories, opened
/// when a probe first needs them (at most 128 open at once by default, the least recently used
/// closed first) and read with positioned reads, so a file cut or changed meanwhile gives
/// `CHESS_ERR_TABLEBASE_CORRUPT`, never a signal (`chess_tablebase_open_with` can memory-map
/// them instead). No global state: any number of tablebases may exist. Thread safety: any
/// number of threads may probe one tablebase at once (all the probing functions take it
/// `const`); only `chess_tablebase_free` needs it unused. Release it with
/// `chess_tablebase_free`.
pub struct chess_tablebase {
    tb: Tablebase,
    /// Tells this tablebase's errors in the threads' records from those of a freed one at the
    /// same address.
    id: u64,
}

/// Flag of `chess_tablebase_options`: memory-map the table files instead of reading them with
/// positioned reads. Probes are faster; a file cut while mapped raises SIGBUS, as with any
/// mapping.
pub const CHESS_TABLEBASE_MMAP: u32 = 1;

/// Options of `chess_tablebase_open_with`. The caller sets `size` to
/// `sizeof(chess_tablebase_options)`; zero fields are the defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_tablebase_options {
    /// `sizeof(chess_tablebase_options)`, set by the caller.
    pub size: usize,
    /// `CHESS_TABLEBASE_MMAP`, or 0.
    pub flags: u32,
    /// Table files kept open at most, the least recently used closed first (0: the default,
    /// 128).
    pub max_open_files: u32,
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_tablebase_options {}

/// Room for the message of `chess_tablebase_error_info`, NUL included.
pub const CHESS_TABLEBASE_MESSAGE_MAX: usize = 256;

const _: () = assert!(CHESS_TABLEBASE_MESSAGE_MAX == CHESS_PGN_MESSAGE_MAX);

/// What went wrong in the calling thread's last probe of a tablebase, as
/// `chess_tablebase_last_error` fills it in. The caller sets `size` to
/// `sizeof(chess_tablebase_error_info)`; fields added in later versions are written only when
/// `size` covers them.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_tablebase_error_info {
    /// `sizeof(chess_tablebase_error_info)`, set by the caller.
    pub size: usize,
    /// The code the probe returned; `CHESS_OK` when it returned no error (the message is then
    /// empty).
    pub code: chess_error,
    /// The message, naming the table file and what is wrong, such as `corrupt table
    /// /tb/KQvK.rtbw: file too short`: UTF-8, NUL-terminated, cut at a character boundary when
    /// longer than the room.
    pub message: [c_char; CHESS_TABLEBASE_MESSAGE_MAX],
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_tablebase_error_info {}

/// The last probe of the thread: which tablebase, its code and its message. Kept formatted in
/// fixed room, so recording an error never allocates.
struct LastError {
    tb: u64,
    code: chess_error,
    message: CutText,
}

thread_local! {
    static LAST_ERROR: RefCell<LastError> = const {
        RefCell::new(LastError { tb: 0, code: CHESS_OK, message: CutText { bytes: [0; CHESS_PGN_MESSAGE_MAX], len: 0 } })
    };
}

/// Ids of tablebases, from 1 (0: none).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Records the outcome of a probe of `tb` for `chess_tablebase_last_error`, and returns its code.
fn record<T>(tb: &chess_tablebase, result: Result<T, SyzygyError>) -> Result<T, chess_error> {
    LAST_ERROR.with_borrow_mut(|last| match &result {
        Ok(_) if last.tb != tb.id => {}
        Ok(_) => (last.code, last.message.len) = (CHESS_OK, 0),
        Err(error) => {
            (last.tb, last.code, last.message.len) = (tb.id, error.code(), 0);
            // CutText never fails: it cuts what does not fit.
            let _ = write!(last.message, "{error}");
        }
    });
    result.map_err(|e| e.code())
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
/// cannot name), `CHESS_ERR_OUT_OF_MEMORY`. The short form of `chess_tablebase_open_with`,
/// with the default options.
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_open(paths: *const c_char, out: *mut *mut chess_tablebase) -> chess_error {
    // SAFETY: the pointers are NULL or valid (the C contract).
    unsafe { chess_tablebase_open_with(paths, std::ptr::null(), out) }
}

/// `chess_tablebase_open` with `options` (NULL: the defaults; see `chess_tablebase_options`):
/// memory-mapping, the number of files kept open. Errors as for `chess_tablebase_open`, and
/// `CHESS_ERR_INVALID_ARGUMENT` for a `size` smaller than this version's struct or an unknown
/// flag.
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_open_with(
    paths: *const c_char,
    options: *const chess_tablebase_options,
    out: *mut *mut chess_tablebase,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `paths` is NULL or NUL-terminated (the C contract).
        let paths = unsafe { c_bytes(paths) }?;
        let mut settings = TablebaseOptions::default();
        // SAFETY: `options` is NULL or valid for reads of the size it states (the C contract).
        if let Some(o) = unsafe { versioned_ref(options) }? {
            if o.flags & !CHESS_TABLEBASE_MMAP != 0 {
                return Err(CHESS_ERR_INVALID_ARGUMENT);
            }
            settings.mmap = o.flags & CHESS_TABLEBASE_MMAP != 0;
            if o.max_open_files != 0 {
                settings.max_open = o.max_open_files as usize;
            }
        }
        let mut tb = Tablebase::with_options(settings);
        for dir in paths.split(|&b| b == b':').filter(|d| !d.is_empty()) {
            tb.add_directory(c_path(dir)?).map_err(|e| e.code())?;
        }
        out.write(box_or_oom(chess_tablebase { tb, id: NEXT_ID.fetch_add(1, Ordering::Relaxed) })?);
        Ok(())
    })
}

/// Fills `info` with what went wrong in the calling thread's last call of
/// `chess_tablebase_probe_wdl`, `_probe_dtz` or `_rank_moves` on `tb` (see
/// `chess_tablebase_error_info`): each thread has its own, so threads probing one tablebase do
/// not see each other's errors. `CHESS_OK` when that call succeeded, when there was none, or
/// when a later probe of another tablebase failed (a thread keeps one error). Takes no lock and
/// allocates nothing.
/// Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (a `size` smaller than this
/// version's struct).
#[no_mangle]
pub unsafe extern "C" fn chess_tablebase_last_error(
    tb: *const chess_tablebase,
    info: *mut chess_tablebase_error_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `tb` is NULL or a live handle (the C contract).
        let tb = unsafe { tb.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `info` is NULL or valid for reads and writes of its `size` bytes, and no one
        // else uses it meanwhile (the C contract).
        let info = unsafe { versioned(info) }?.ok_or(CHESS_ERR_NULL_POINTER)?;
        LAST_ERROR.with_borrow(|last| {
            let (code, text) = if last.tb == tb.id {
                (last.code, &last.message.bytes[..last.message.len])
            } else {
                (CHESS_OK, &[][..])
            };
            info.code = code;
            info.message = [0; CHESS_TABLEBASE_MESSAGE_MAX];
            for (to, &from) in info.message.iter_mut().zip(text) {
                *to = from as c_char;
            }
        });
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
        out.write(record(tb, probe(&tb.tb, pos))?);
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
/// `*wdl` is unchanged on error, and `chess_tablebase_last_error` names the table and what is
/// wrong.
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
        let tb = unsafe { tb.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `game` is NULL or a live handle not written meanwhile (the C contract).
        let game = unsafe { record_ref(game) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        if out.is_null() && cap > 0 {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        let ranked = record(tb, tb.tb.rank_root_moves(game.chess()?))?;
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
