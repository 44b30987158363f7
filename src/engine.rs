//! UCI engines: starting one, its id and options, searches with their results and a callback
//! for each `info` line.

use std::cell::UnsafeCell;
use std::ffi::{c_char, c_int, c_void, CString, OsString};
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::time::Duration;

use super::error::*;
use super::game::{chess_game, record_ref};
use super::moves::chess_move;
use super::position::{chess_position, position_ref};
use super::record::each_game;
use super::util::{
    box_or_oom, c_bytes, c_utf8, free_handle, guard, guard_code, text_of, versioned_ref, Out, TextOut, Versioned,
};
use chesscore_core::engine::{
    Analysis, Bound, Engine, EngineCommand, EngineControl, EngineOption, EnginePosition, Info, Limits, OptionType,
    Score, Search,
};
use chesscore_core::Move;

/// A running UCI engine (opaque), from `chess_engine_start`, released with `chess_engine_free`.
/// One thread at a time uses an engine, except `chess_engine_stop` and `chess_engine_ponderhit`,
/// which any thread may call, also during a search; distinct engines may run in distinct
/// threads.
pub struct chess_engine {
    /// Reached only through [`engine_ref`] and [`engine_mut`], by one thread at a time.
    engine: UnsafeCell<Engine>,
    /// Shared by every thread.
    control: EngineControl,
}

/// How to start an engine, for `chess_engine_start`. The caller sets `size` to
/// `sizeof(chess_engine_options)`; zero fields are the defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_engine_options {
    /// `sizeof(chess_engine_options)`, set by the caller.
    pub size: usize,
    /// The arguments after the program name (`arg_count` strings; NULL when 0).
    pub args: *const *const c_char,
    pub arg_count: usize,
    /// The engine's working directory; NULL: the caller's.
    pub working_dir: *const c_char,
    /// The longest wait for any answer, in milliseconds (default 10,000): `uciok`, `readyok`,
    /// the next line of a search, or the end of a timed search beyond its time.
    pub timeout_ms: u32,
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_engine_options {}

/// Starts the engine at `path` (run directly, not through a shell; a name without '/' is
/// looked up on PATH) and does the `uci` handshake. `options` may be NULL (the defaults).
/// Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (a `size` smaller than this
/// version's struct), `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_ENGINE_NOT_STARTED`,
/// `CHESS_ERR_ENGINE_EXITED`, `CHESS_ERR_ENGINE_TIMEOUT` (no `uciok` in time); the process is
/// gone after a failure.
///
/// The engine runs in a process group of its own, which is killed whole after a fault and by
/// `chess_engine_free`: no process the engine started is left, and none is waited for. No
/// signal disposition of the program is changed: a write to an engine that died fails with
/// `CHESS_ERR_ENGINE_EXITED` (SIGPIPE is blocked in the writing thread for the write, and the
/// one it raised is taken). Whatever the engine writes, memory stays bounded (a line over
/// 1 MiB is `CHESS_ERR_ENGINE_PROTOCOL`) and no call waits past its deadline (see
/// `chess_engine_analyse_game`).
#[no_mangle]
pub unsafe extern "C" fn chess_engine_start(
    path: *const c_char,
    options: *const chess_engine_options,
    out: *mut *mut chess_engine,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `path` is NULL or NUL-terminated (the C contract).
        let mut command = EngineCommand::new(PathBuf::from(unsafe { os_string(path) }?));
        // SAFETY: `options` is NULL or valid for its `size` bytes (the C contract).
        if let Some(options) = unsafe { versioned_ref(options) }? {
            if options.arg_count > 0 {
                if options.args.is_null() {
                    return Err(CHESS_ERR_NULL_POINTER);
                }
                // SAFETY: `args` holds `arg_count` strings (the C contract).
                let args = unsafe { std::slice::from_raw_parts(options.args, options.arg_count) };
                // SAFETY: each argument is NULL or NUL-terminated (the C contract).
                command.args = args.iter().map(|&arg| unsafe { os_string(arg) }).collect::<Result<_, _>>()?;
            }
            if !options.working_dir.is_null() {
                // SAFETY: `working_dir` is NUL-terminated (the C contract).
                command.working_dir = Some(PathBuf::from(unsafe { os_string(options.working_dir) }?));
            }
            if options.timeout_ms > 0 {
                command.timeout = Duration::from_millis(options.timeout_ms.into());
            }
        }
        let engine = Engine::start(&command).map_err(|e| e.code())?;
        out.write(box_or_oom(chess_engine { control: engine.control(), engine: UnsafeCell::new(engine) })?);
        Ok(())
    })
}

/// A NUL-terminated string as an OS string (any bytes but NUL).
///
/// # Safety
/// `s` is NULL or a NUL-terminated string.
unsafe fn os_string(s: *const c_char) -> Result<OsString, chess_error> {
    // SAFETY: this function's contract.
    Ok(OsString::from_vec(unsafe { c_bytes(s) }?.to_vec()))
}

/// Sends `quit`, gives the engine half a second to exit, then kills it; frees the handle
/// (NULL: no effect). No child process or descriptor is left.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_free(engine: *mut chess_engine) {
    // SAFETY: `engine` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(engine) }
}

/// The engine of a handle.
///
/// # Safety
/// `engine` is NULL or a live handle that no other thread drives meanwhile.
unsafe fn engine_ref<'a>(engine: *const chess_engine) -> Result<&'a Engine, chess_error> {
    // SAFETY: this function's contract: the handle is live and nothing mutates its engine.
    unsafe { engine.as_ref().map(|handle| &*handle.engine.get()) }.ok_or(CHESS_ERR_NULL_POINTER)
}

/// The engine of a handle, to drive (only its `control` is shared with other threads, so the
/// handle itself is never borrowed mutably).
///
/// # Safety
/// `engine` is NULL or a live handle that nothing else uses meanwhile but its `control`.
unsafe fn engine_mut<'a>(engine: *mut chess_engine) -> Result<&'a mut Engine, chess_error> {
    // SAFETY: this function's contract: the handle is live and this is its engine's only use.
    unsafe { engine.cast_const().as_ref().map(|handle| &mut *handle.engine.get()) }.ok_or(CHESS_ERR_NULL_POINTER)
}

/// Sends `stop` to the engine: the search running in another thread (an infinite one, or a
/// `CHESS_LIMIT_PONDER` one) ends and gives its best move as usual. Any thread may call this,
/// also during a search; with no search running the engine ignores it. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_ENGINE_EXITED` (the engine is gone).
#[no_mangle]
pub unsafe extern "C" fn chess_engine_stop(engine: *const chess_engine) -> chess_error {
    // SAFETY: `engine` is NULL or a live handle (the C contract); `control` is shared.
    guard_code(|| unsafe { engine.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?.control.stop().map_err(|e| e.code()))
}

/// Sends `ponderhit`: the expected reply of a `CHESS_LIMIT_PONDER` search was played, and the
/// search goes on as a normal one with its limits (the clocks, typically). Any thread may call
/// this, also during the search. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_ENGINE_EXITED`.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_ponderhit(engine: *const chess_engine) -> chess_error {
    // SAFETY: `engine` is NULL or a live handle (the C contract); `control` is shared.
    guard_code(|| unsafe { engine.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?.control.ponderhit().map_err(|e| e.code()))
}

/// The engine's `id name` (empty when it gave none), as text.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_name(
    engine: *const chess_engine,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |engine: &Engine, out: TextOut| out.write(engine.name().unwrap_or_default().as_bytes()).map(drop);
    // SAFETY: `engine` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(engine_ref(engine).ok(), buf, cap, out_len, write) }
}

/// The engine's `id author` (empty when it gave none), as text.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_author(
    engine: *const chess_engine,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |engine: &Engine, out: TextOut| out.write(engine.author().unwrap_or_default().as_bytes()).map(drop);
    // SAFETY: `engine` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(engine_ref(engine).ok(), buf, cap, out_len, write) }
}

/// The type of an engine option (`uint8_t`): `CHESS_OPTION_CHECK` .. `CHESS_OPTION_STRING`.
pub type chess_option_type = u8;
pub const CHESS_OPTION_CHECK: chess_option_type = 0;
pub const CHESS_OPTION_SPIN: chess_option_type = 1;
pub const CHESS_OPTION_COMBO: chess_option_type = 2;
pub const CHESS_OPTION_BUTTON: chess_option_type = 3;
pub const CHESS_OPTION_STRING: chess_option_type = 4;

/// An option the engine declared, as `chess_engine_option_at` writes it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_engine_option {
    pub option_type: chess_option_type,
    /// A spin's range (0 when not given).
    pub min: i64,
    pub max: i64,
    /// A combo's number of choices (`chess_engine_option_var`).
    pub var_count: usize,
}

/// How many options the engine declared (0 for NULL).
#[no_mangle]
pub unsafe extern "C" fn chess_engine_option_count(engine: *const chess_engine) -> usize {
    // SAFETY: `engine` is NULL or a live handle (the C contract).
    guard(0, || unsafe { engine_ref(engine) }.map_or(0, |engine| engine.options().len()))
}

/// Option `index` of the engine.
///
/// # Safety
/// `engine` is NULL or a live handle.
unsafe fn option_at<'a>(engine: *const chess_engine, index: usize) -> Result<&'a EngineOption, chess_error> {
    // SAFETY: this function's contract.
    option(unsafe { engine_ref(engine) }?, index)
}

/// Option `index` of `engine`, or `CHESS_ERR_INVALID_ARGUMENT`.
fn option(engine: &Engine, index: usize) -> Result<&EngineOption, chess_error> {
    engine.options().get(index).ok_or(CHESS_ERR_INVALID_ARGUMENT)
}

/// The type, range and number of choices of option `index` (in the engine's order). Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (no such option).
#[no_mangle]
pub unsafe extern "C" fn chess_engine_option_at(
    engine: *const chess_engine,
    index: usize,
    out: *mut chess_engine_option,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `engine` is NULL or a live handle (the C contract).
        let option = unsafe { option_at(engine, index) }?;
        let option_type = match option.kind {
            OptionType::Check => CHESS_OPTION_CHECK,
            OptionType::Spin => CHESS_OPTION_SPIN,
            OptionType::Combo => CHESS_OPTION_COMBO,
            OptionType::Button => CHESS_OPTION_BUTTON,
            OptionType::String => CHESS_OPTION_STRING,
        };
        out.write(chess_engine_option {
            option_type,
            min: option.min.unwrap_or(0),
            max: option.max.unwrap_or(0),
            var_count: option.vars.len(),
        });
        Ok(())
    })
}

/// The name of option `index`, as text. Errors as for `chess_engine_option_at`.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_option_name(
    engine: *const chess_engine,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |engine: &Engine, out: TextOut| {
        let name = &option(engine, index)?.name;
        out.write(name.as_bytes()).map(drop)
    };
    // SAFETY: `engine` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(engine_ref(engine).ok(), buf, cap, out_len, write) }
}

/// The default value of option `index` (empty when none), as text. Errors as for
/// `chess_engine_option_at`.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_option_default(
    engine: *const chess_engine,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |engine: &Engine, out: TextOut| {
        let default = option(engine, index)?.default.as_deref().unwrap_or_default();
        out.write(default.as_bytes()).map(drop)
    };
    // SAFETY: `engine` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(engine_ref(engine).ok(), buf, cap, out_len, write) }
}

/// Choice `var` of combo option `index`, as text. Errors as for `chess_engine_option_at` (also
/// for no such choice).
#[no_mangle]
pub unsafe extern "C" fn chess_engine_option_var(
    engine: *const chess_engine,
    index: usize,
    var: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |engine: &Engine, out: TextOut| {
        let text = option(engine, index)?.vars.get(var).ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        out.write(text.as_bytes()).map(drop)
    };
    // SAFETY: `engine` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(engine_ref(engine).ok(), buf, cap, out_len, write) }
}

/// `setoption name NAME value VALUE` (`value` NULL for a button). `UCI_Chess960` set to `true`
/// makes castling moves go to the engine as king-takes-rook. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_TEXT` (nothing is sent, the engine goes on: text that is not UTF-8, or
/// that holds a character some runtime reads as a line end: any ASCII control character but
/// the tab, U+0085, U+2028 or U+2029; a name that is empty or holds the word `name` or
/// `value`), `CHESS_ERR_ENGINE_EXITED`.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_set_option(
    engine: *mut chess_engine,
    name: *const c_char,
    value: *const c_char,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `engine` is NULL or a live handle no other thread uses meanwhile (the C contract).
        let engine = unsafe { engine_mut(engine) }?;
        // SAFETY: the string is NULL or NUL-terminated (the C contract).
        let name = unsafe { c_utf8(name) }?;
        // SAFETY: the string is NULL or NUL-terminated (the C contract).
        let value = if value.is_null() { None } else { Some(unsafe { c_utf8(value) }?) };
        engine.set_option(name, value).map_err(|e| e.code())
    })
}

/// `isready`, waiting for `readyok` (within the timeout). Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_ENGINE_EXITED`, `CHESS_ERR_ENGINE_TIMEOUT`.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_is_ready(engine: *mut chess_engine) -> chess_error {
    // SAFETY: `engine` is NULL or a live handle no other thread uses meanwhile (the C contract).
    guard_code(|| unsafe { engine_mut(engine) }?.is_ready().map_err(|e| e.code()))
}

/// `ucinewgame`, then `isready`. Errors as for `chess_engine_is_ready`.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_new_game(engine: *mut chess_engine) -> chess_error {
    // SAFETY: `engine` is NULL or a live handle no other thread uses meanwhile (the C contract).
    guard_code(|| unsafe { engine_mut(engine) }?.new_game().map_err(|e| e.code()))
}

/// Flag of `chess_limits`: search until the callback asks to stop or `chess_engine_stop` is
/// called (`go infinite`).
pub const CHESS_LIMIT_INFINITE: u32 = 1;
/// Flag of `chess_limits`: ponder on the position (`go ponder`, usually with the clocks and
/// with the expected reply as the last move): the search runs until `chess_engine_ponderhit`
/// (then it goes on with its limits) or `chess_engine_stop`, called from another thread.
pub const CHESS_LIMIT_PONDER: u32 = 2;

/// The limits of a search (`go`). The caller sets `size` to `sizeof(chess_limits)`; a zero
/// field is no limit of that kind (all zero: `go` alone, which most engines search until
/// stopped: give one limit at least, or a callback that stops). Every other value of a field's
/// type is sent as it is: depths, mates and move counts up to 4,294,967,295, nodes up to
/// 2^64 - 1, times in milliseconds up to 4,294,967,295 (about 49.7 days).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_limits {
    /// `sizeof(chess_limits)`, set by the caller.
    pub size: usize,
    pub depth: u32,
    /// Search for a mate in this many moves.
    pub mate: u32,
    pub nodes: u64,
    pub movetime_ms: u32,
    /// The clocks: remaining times, increments, moves to the next time control.
    pub wtime_ms: u32,
    pub btime_ms: u32,
    pub winc_ms: u32,
    pub binc_ms: u32,
    pub movestogo: u32,
    /// How many best lines (sets the `MultiPV` option when it differs; 0: as it is, 1 at start).
    pub multipv: u32,
    /// `CHESS_LIMIT_INFINITE`, `CHESS_LIMIT_PONDER` or 0.
    pub flags: u32,
    /// Search only these root moves (`searchmove_count` of them; NULL when 0).
    pub searchmoves: *const chess_move,
    pub searchmove_count: usize,
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_limits {}

/// What kind of score a `chess_info` holds (`uint8_t`).
pub type chess_score_kind = u8;
/// No score in this line.
pub const CHESS_SCORE_NONE: chess_score_kind = 0;
/// Centipawns.
pub const CHESS_SCORE_CP: chess_score_kind = 1;
/// Mate in `score` moves (negative: the side to move is mated).
pub const CHESS_SCORE_MATE: chess_score_kind = 2;

/// Whether a score is exact or a bound (`uint8_t`).
pub type chess_bound = u8;
pub const CHESS_BOUND_EXACT: chess_bound = 0;
pub const CHESS_BOUND_LOWER: chess_bound = 1;
pub const CHESS_BOUND_UPPER: chess_bound = 2;

/// One `info` line of a search (for the callback) or the last one of a MultiPV line (from
/// `chess_analysis_line`). A field the engine did not send is 0. `pv` and `string` point into
/// memory of the library: valid during the callback, or as long as the analysis.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_info {
    /// The MultiPV line, from 1.
    pub multipv: u32,
    pub depth: u32,
    pub seldepth: u32,
    /// Hash table use in permille.
    pub hashfull: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    pub tbhits: u64,
    pub score_kind: chess_score_kind,
    pub bound: chess_bound,
    /// Whether `wdl_win`, `wdl_draw` and `wdl_loss` (permille, side to move) were sent.
    pub has_wdl: bool,
    /// From the side to move's point of view, as UCI gives it.
    pub score: i32,
    /// The same from White's point of view.
    pub white_score: i32,
    pub wdl_win: u32,
    pub wdl_draw: u32,
    pub wdl_loss: u32,
    pub currmove: chess_move,
    pub currmovenumber: u32,
    /// The principal variation, legal from the searched position (cut before any illegal move).
    pub pv: *const chess_move,
    pub pv_len: usize,
    /// The `string` field, NUL-terminated; NULL when none.
    pub string: *const c_char,
}

/// Called with each `info` line; a non-zero return sends `stop` (the search then ends with
/// the engine's best move as usual). It must not call the engine it is searching with.
pub type chess_info_fn = Option<unsafe extern "C" fn(payload: *mut c_void, info: *const chess_info) -> c_int>;

/// The result of a search (opaque): best move, expected reply, the last info of each MultiPV
/// line. Released with `chess_analysis_free`; read from any number of threads.
pub struct chess_analysis {
    best_move: chess_move,
    ponder_move: chess_move,
    lines: Vec<InfoOut>,
}

/// A `chess_info` with the memory its pointers point into.
struct InfoOut {
    info: chess_info,
    _pv: Vec<chess_move>,
    _string: Option<CString>,
}

impl InfoOut {
    fn new(info: &Info) -> InfoOut {
        let pv: Vec<chess_move> = info.pv.iter().map(|mv| mv.raw()).collect();
        // A NUL cannot come from a line of text the engine wrote, but junk may hold one.
        let string = info.string.as_ref().and_then(|s| CString::new(s.as_str()).ok());
        let (score_kind, score) = score_parts(info.score);
        let wdl = info.wdl;
        let info = chess_info {
            multipv: info.multipv.unwrap_or(1),
            depth: info.depth.unwrap_or(0),
            seldepth: info.seldepth.unwrap_or(0),
            hashfull: info.hashfull.unwrap_or(0),
            nodes: info.nodes.unwrap_or(0),
            time_ms: info.time.map_or(0, |t| t.as_millis() as u64),
            nps: info.nps.unwrap_or(0),
            tbhits: info.tbhits.unwrap_or(0),
            score_kind,
            bound: match info.bound {
                Bound::Exact => CHESS_BOUND_EXACT,
                Bound::Lower => CHESS_BOUND_LOWER,
                Bound::Upper => CHESS_BOUND_UPPER,
            },
            has_wdl: wdl.is_some(),
            score,
            white_score: score_parts(info.white_score).1,
            wdl_win: wdl.map_or(0, |w| w.win),
            wdl_draw: wdl.map_or(0, |w| w.draw),
            wdl_loss: wdl.map_or(0, |w| w.loss),
            currmove: info.currmove.map_or(0, Move::raw),
            currmovenumber: info.currmovenumber.unwrap_or(0),
            pv: pv.as_ptr(),
            pv_len: pv.len(),
            string: string.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
        };
        InfoOut { info, _pv: pv, _string: string }
    }
}

fn score_parts(score: Option<Score>) -> (chess_score_kind, i32) {
    match score {
        None => (CHESS_SCORE_NONE, 0),
        Some(Score::Cp(cp)) => (CHESS_SCORE_CP, cp),
        Some(Score::Mate(n)) => (CHESS_SCORE_MATE, n),
    }
}

/// The core's limits and MultiPV count from a `chess_limits`.
///
/// # Safety
/// `limits` is NULL or valid for its `size` bytes, its `searchmoves` holding their count.
unsafe fn read_limits(limits: *const chess_limits) -> Result<(Limits, Option<u32>), chess_error> {
    // SAFETY: this function's contract.
    let c = unsafe { versioned_ref(limits) }?.ok_or(CHESS_ERR_NULL_POINTER)?;
    if c.flags & !(CHESS_LIMIT_INFINITE | CHESS_LIMIT_PONDER) != 0 {
        return Err(CHESS_ERR_INVALID_ARGUMENT);
    }
    let searchmoves = if c.searchmove_count == 0 {
        Vec::new()
    } else if c.searchmoves.is_null() {
        return Err(CHESS_ERR_NULL_POINTER);
    } else {
        // SAFETY: `searchmoves` holds its count (this function's contract).
        let raw = unsafe { std::slice::from_raw_parts(c.searchmoves, c.searchmove_count) };
        raw.iter().map(|&mv| Move::from_raw(mv).ok_or(CHESS_ERR_INVALID_MOVE)).collect::<Result<_, _>>()?
    };
    let some = |n: u32| (n > 0).then_some(n);
    let millis = |n: u32| some(n).map(|ms| Duration::from_millis(ms.into()));
    let limits = Limits {
        depth: some(c.depth),
        nodes: (c.nodes > 0).then_some(c.nodes),
        mate: some(c.mate),
        movetime: millis(c.movetime_ms),
        wtime: millis(c.wtime_ms),
        btime: millis(c.btime_ms),
        winc: millis(c.winc_ms),
        binc: millis(c.binc_ms),
        movestogo: some(c.movestogo),
        infinite: c.flags & CHESS_LIMIT_INFINITE != 0,
        ponder: c.flags & CHESS_LIMIT_PONDER != 0,
        searchmoves,
    };
    Ok((limits, some(c.multipv)))
}

/// Searches `pos` (no history) and waits for the best move: `chess_engine_analyse_game`
/// without a game or callback.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_analyse(
    engine: *mut chess_engine,
    pos: *const chess_position,
    limits: *const chess_limits,
    out: *mut *mut chess_analysis,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: the pointers are NULL or valid, and `callback` may be called with `payload`
        // (the C contract).
        unsafe { run_search(engine, pos, [], limits, None, std::ptr::null_mut(), out) }
    })
}

/// Searches the current position of `game` (its moves go to the engine, for repetitions) with
/// `limits`, calling `callback` (may be NULL) with `payload` for each `info` line as it
/// arrives, and waits for the best move. No output of the engine extends a wait: the next line
/// showing the search's progress (not junk, not `info string`) must come within the timeout of
/// the last one, a timed search must end within its time and the timeout, and after a stop
/// (from the callback or `chess_engine_stop`) the best move must come within the timeout.
/// Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_ARGUMENT` (a `size` too small, an unknown flag), `CHESS_ERR_INVALID_MOVE`
/// (in `searchmoves`), `CHESS_ERR_ENGINE_EXITED` (it crashed, say), `CHESS_ERR_ENGINE_TIMEOUT`
/// (no line within the timeout, or a timed search that overran its time by as much),
/// `CHESS_ERR_ENGINE_PROTOCOL` (an illegal best move, a line over 1 MiB). After an engine error
/// the engine is gone: free it and start another.
#[no_mangle]
pub unsafe extern "C" fn chess_engine_analyse_game(
    engine: *mut chess_engine,
    game: *const chess_game,
    limits: *const chess_limits,
    callback: chess_info_fn,
    payload: *mut c_void,
    out: *mut *mut chess_analysis,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle (the C contract).
        let game = unsafe { record_ref(game) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: the pointers are NULL or valid, and `callback` may be called with `payload`
        // (the C contract).
        each_game!(game, game => unsafe { run_search(engine, game.start(), game.moves(), limits, callback, payload, out) })
    })
}

/// Runs a search and writes its analysis to `out`.
///
/// # Safety
/// `engine` is NULL or a live handle nothing else uses meanwhile, `limits` as for
/// [`read_limits`], `out` NULL or valid for a write, and `callback` callable with `payload`.
unsafe fn run_search<P: EnginePosition>(
    engine: *mut chess_engine,
    start: &P,
    moves: impl IntoIterator<Item = Move>,
    limits: *const chess_limits,
    callback: chess_info_fn,
    payload: *mut c_void,
    out: *mut *mut chess_analysis,
) -> Result<(), chess_error> {
    // SAFETY: this function's contract, for each pointer.
    let (out, engine, (limits, multipv)) = unsafe { (Out::new(out)?, engine_mut(engine)?, read_limits(limits)?) };
    let mut search: Search<'_, P> = engine.search(start, moves, &limits, multipv).map_err(|e| e.code())?;
    if let Some(callback) = callback {
        let mut stopped = false;
        while let Some(info) = search.next() {
            let info = InfoOut::new(&info.map_err(|e| e.code())?);
            // SAFETY: the callback takes this payload (this function's contract).
            if unsafe { callback(payload, &info.info) } != 0 && !stopped {
                stopped = true;
                search.stop().map_err(|e| e.code())?;
            }
        }
    }
    let analysis: Analysis = search.finish().map_err(|e| e.code())?;
    out.write(box_or_oom(chess_analysis {
        best_move: analysis.best_move.map_or(0, Move::raw),
        ponder_move: analysis.ponder_move.map_or(0, Move::raw),
        lines: analysis.lines.iter().map(InfoOut::new).collect(),
    })?);
    Ok(())
}

/// Frees an analysis (NULL: no effect).
#[no_mangle]
pub unsafe extern "C" fn chess_analysis_free(analysis: *mut chess_analysis) {
    // SAFETY: `analysis` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(analysis) }
}

/// The engine's best move; `CHESS_MOVE_NONE` when it had none (mate or stalemate) or for NULL.
#[no_mangle]
pub unsafe extern "C" fn chess_analysis_best_move(analysis: *const chess_analysis) -> chess_move {
    // SAFETY: `analysis` is NULL or a live analysis (the C contract).
    guard(0, || unsafe { analysis.as_ref() }.map_or(0, |a| a.best_move))
}

/// The reply the engine expects (`bestmove ... ponder P`); `CHESS_MOVE_NONE` when none.
#[no_mangle]
pub unsafe extern "C" fn chess_analysis_ponder_move(analysis: *const chess_analysis) -> chess_move {
    // SAFETY: `analysis` is NULL or a live analysis (the C contract).
    guard(0, || unsafe { analysis.as_ref() }.map_or(0, |a| a.ponder_move))
}

/// How many MultiPV lines the analysis holds (0 for NULL).
#[no_mangle]
pub unsafe extern "C" fn chess_analysis_line_count(analysis: *const chess_analysis) -> usize {
    // SAFETY: `analysis` is NULL or a live analysis (the C contract).
    guard(0, || unsafe { analysis.as_ref() }.map_or(0, |a| a.lines.len()))
}

/// The last info of line `index` (0 = the best line): its pointers live as long as the
/// analysis. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (no such line).
#[no_mangle]
pub unsafe extern "C" fn chess_analysis_line(
    analysis: *const chess_analysis,
    index: usize,
    out: *mut chess_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `analysis` is NULL or a live analysis (the C contract).
        let analysis = unsafe { analysis.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        out.write(analysis.lines.get(index).ok_or(CHESS_ERR_INVALID_ARGUMENT)?.info);
        Ok(())
    })
}
