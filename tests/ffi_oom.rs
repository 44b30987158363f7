//! Running out of memory through the C ABI, in the style of SQLite's out-of-memory tests: each
//! scenario (a sequence of C calls) runs once to count the allocations made on its thread, then
//! once per allocation with that allocation failing, and once with every allocation from it on
//! failing. Each time, the call that met the failure must return `CHESS_ERR_OUT_OF_MEMORY` (NULL
//! for a function returning a handle) with its outputs untouched, the handles must still answer
//! queries and be freed, nothing may leak, and the process must not abort. (Its own test binary:
//! it replaces the global allocator.) `cargo test --test ffi_oom -- --nocapture` prints how
//! many failure points each scenario has.
// The deprecated functions stay through 1.x, so they are exercised here too.
#![allow(deprecated)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr};
use std::ptr::{self, NonNull};

use chesscore::*;

use chesscore_test_support as common;

/// What the allocator does on this thread.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Allocate, uncounted (the test's own work).
    Off,
    /// Allocate and count.
    Count,
    /// Fail the allocation with this number (from 0), allocate the others.
    FailAt(u64),
    /// Fail every allocation from this number on.
    FailFrom(u64),
}

thread_local! {
    static MODE: Cell<Mode> = const { Cell::new(Mode::Off) };
    /// Allocations counted since the scenario started.
    static COUNT: Cell<u64> = const { Cell::new(0) };
    /// A failure was injected since the last check.
    static HIT: Cell<bool> = const { Cell::new(false) };
    /// Bytes allocated and not freed by this thread.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

/// Whether the allocation now asked for fails.
fn inject() -> bool {
    let mode = MODE.get();
    if mode == Mode::Off {
        return false;
    }
    let n = COUNT.get();
    COUNT.set(n + 1);
    let fail = match mode {
        Mode::FailAt(at) => n == at,
        Mode::FailFrom(from) => n >= from,
        Mode::Off | Mode::Count => false,
    };
    if fail {
        HIT.set(true);
    }
    fail
}

/// The system allocator, failing as `MODE` says and keeping count of live bytes.
struct FailingAllocator;

unsafe impl GlobalAlloc for FailingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if inject() {
            return ptr::null_mut();
        }
        let p = System.alloc(layout);
        if !p.is_null() {
            LIVE.set(LIVE.get() + layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if inject() {
            return ptr::null_mut();
        }
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            LIVE.set(LIVE.get() + layout.size() as isize);
        }
        p
    }

    unsafe fn realloc(&self, old: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if inject() {
            return ptr::null_mut();
        }
        let p = System.realloc(old, layout, new_size);
        if !p.is_null() {
            LIVE.set(LIVE.get() + new_size as isize - layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        LIVE.set(LIVE.get() - layout.size() as isize);
        System.dealloc(p, layout)
    }
}

#[global_allocator]
static ALLOCATOR: FailingAllocator = FailingAllocator;

/// One entry per reader call of a PGN scenario: the code, and what it gave.
type Entry = (i32, u64, u64);

/// What a scenario checks its calls with.
struct Check {
    /// The reader calls so far (capacity reserved before the run, so pushing allocates nothing).
    log: Vec<Entry>,
}

impl Check {
    /// Checks a call that returned `code`; `untouched` tells whether its outputs are as they
    /// were. `None` (stop the scenario) when the call met an injected failure.
    fn check(&mut self, code: chess_error, untouched: bool) -> Option<()> {
        if HIT.replace(false) {
            assert_eq!(code, CHESS_ERR_OUT_OF_MEMORY, "a call that met a failed allocation");
            assert!(untouched, "outputs written by a call that ran out of memory");
            None
        } else {
            assert_ne!(code, CHESS_ERR_OUT_OF_MEMORY, "out of memory without a failed allocation");
            Some(())
        }
    }

    /// Checks a call returning a handle: NULL exactly when it met an injected failure.
    fn handle<T>(&mut self, handle: *mut T) -> Option<*mut T> {
        if HIT.replace(false) {
            assert!(handle.is_null(), "a handle from a call that met a failed allocation");
            None
        } else {
            assert!(!handle.is_null(), "NULL without a failed allocation");
            Some(handle)
        }
    }

    /// Runs `f` with the allocator working (queries after a failure, the test's own work).
    fn quiet<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let mode = MODE.replace(Mode::Off);
        let result = f();
        MODE.set(mode);
        result
    }
}

/// How a scenario fared under every failure point.
struct Report {
    points: u64,
    /// PGN scenarios: reader failures after which the next call went on, and after which the
    /// input ended.
    went_on: u64,
    ended: u64,
}

/// Runs `scenario` under `mode`: its log and the allocations it made. Checks that it leaked
/// nothing.
fn run(mode: Mode, scenario: &dyn Fn(&mut Check) -> Option<()>, log: Vec<Entry>) -> (Vec<Entry>, u64) {
    let mut check = Check { log };
    check.log.clear();
    let live = LIVE.get();
    COUNT.set(0);
    HIT.set(false);
    MODE.set(mode);
    let _ = scenario(&mut check);
    MODE.set(Mode::Off);
    assert!(!HIT.get(), "{mode:?}: a failed allocation no call reported");
    assert_eq!(LIVE.get(), live, "{mode:?}: bytes leaked");
    (check.log, COUNT.get())
}

/// Runs `scenario` at every failure point; see the module documentation.
fn every_failure_point(name: &str, scenario: &dyn Fn(&mut Check) -> Option<()>) -> Report {
    let log = Vec::with_capacity(1 << 16);
    // Once to warm up what the standard library sets up on first use.
    let (log, _) = run(Mode::Off, scenario, log);
    let (baseline, points) = run(Mode::Count, scenario, log);
    assert!(points > 0, "{name}: no allocation to fail");
    let mut report = Report { points, went_on: 0, ended: 0 };
    let mut log = Vec::with_capacity(1 << 16);
    for n in 0..points {
        let (at, count) = run(Mode::FailAt(n), scenario, log);
        assert!(count > n, "{name}: allocation {n} of {points} never came (not deterministic?)");
        // A failure in a reader call: the calls before it as without, and after it the rest
        // of the input (the reader went on) or the end.
        let oom = CHESS_ERR_OUT_OF_MEMORY as i32;
        match at.iter().position(|entry| entry.0 == oom) {
            Some(i) => {
                assert_eq!(at[..i], baseline[..i], "{name}: before the failure at allocation {n}");
                let rest = &at[i + 1..];
                if rest == &baseline[i + 1..] {
                    report.went_on += 1;
                } else {
                    assert_eq!(rest, [(CHESS_END as i32, 0, 0)], "{name}: after the failure at allocation {n}");
                    report.ended += 1;
                }
            }
            // A failure elsewhere stops the scenario.
            None => assert!(baseline.starts_with(&at), "{name}: failure at allocation {n}"),
        }
        let (from, _) = run(Mode::FailFrom(n), scenario, at);
        log = from;
    }
    eprintln!(
        "{name}: {points} allocation failure points{}",
        if report.went_on + report.ended > 0 {
            format!(" (reader: went on after {}, ended after {})", report.went_on, report.ended)
        } else {
            String::new()
        }
    );
    report
}

// ----- handles freed however a scenario ends -----

struct Pos(*mut chess_position);
impl Drop for Pos {
    fn drop(&mut self) {
        unsafe { chess_position_free(self.0) }
    }
}

struct GameHandle(*mut chess_game);
impl Drop for GameHandle {
    fn drop(&mut self) {
        unsafe { chess_game_free(self.0) }
    }
}

struct EpdHandle(*mut chess_epd);
impl Drop for EpdHandle {
    fn drop(&mut self) {
        unsafe { chess_epd_free(self.0) }
    }
}

struct ReaderHandle(*mut chess_pgn_reader);
impl Drop for ReaderHandle {
    fn drop(&mut self) {
        unsafe { chess_pgn_reader_free(self.0) }
    }
}

struct BookHandle(*mut chess_book);
impl Drop for BookHandle {
    fn drop(&mut self) {
        unsafe { chess_book_free(self.0) }
    }
}

struct TablebaseHandle(*mut chess_tablebase);
impl Drop for TablebaseHandle {
    fn drop(&mut self) {
        unsafe { chess_tablebase_free(self.0) }
    }
}

struct BuilderHandle(*mut chess_book_builder);
impl Drop for BuilderHandle {
    fn drop(&mut self) {
        unsafe { chess_book_builder_free(self.0) }
    }
}

struct VariantHandle(*mut chess_variant_position);
impl Drop for VariantHandle {
    fn drop(&mut self) {
        unsafe { chess_variant_position_free(self.0) }
    }
}

fn dangling<T>() -> *mut T {
    NonNull::dangling().as_ptr()
}

const NO_MOVE: chess_move = 0x7777;

/// A text buffer of `N` bytes, filled with `x` so that writes show.
struct Text<const N: usize> {
    buf: [c_char; N],
    len: usize,
}

impl<const N: usize> Text<N> {
    fn new() -> Self {
        Text { buf: [b'x' as c_char; N], len: 99_999 }
    }

    fn untouched(&self) -> bool {
        self.buf.iter().all(|&b| b == b'x' as c_char) && self.len == 99_999
    }

    fn as_str(&self) -> &str {
        unsafe { CStr::from_ptr(self.buf.as_ptr()) }.to_str().unwrap()
    }
}

/// Writes text through `write(buf, cap, out_len)`, first asking for the size with a NULL
/// buffer: both calls checked.
fn text<const N: usize>(
    c: &mut Check,
    write: impl Fn(*mut c_char, usize, *mut usize) -> chess_error,
) -> Option<Text<N>> {
    let mut size = 99_999;
    let code = write(ptr::null_mut(), 0, &mut size);
    c.check(code, size == 99_999)?;
    assert!(code == CHESS_ERR_BUFFER_TOO_SMALL && size < N, "{code:?} {size}");
    let mut out = Text::<N>::new();
    let code = write(out.buf.as_mut_ptr(), N, &mut out.len);
    c.check(code, out.untouched())?;
    assert_eq!((code, out.len), (CHESS_OK, size));
    Some(out)
}

// ----- positions, FEN, SAN -----

const FENS: [&CStr; 3] = [
    c"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    c"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    c"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// A FEN file for `chess_fen_read_file`, written before any failure is armed.
fn fen_file() -> std::ffi::CString {
    let path = std::env::temp_dir().join(format!("chesscore-oom-{}.fen", std::process::id()));
    std::fs::write(&path, format!("\n  \n{}\n", FENS[1].to_str().unwrap())).unwrap();
    std::ffi::CString::new(path.to_str().unwrap()).unwrap()
}

fn fen_and_san(c: &mut Check) -> Option<()> {
    unsafe {
        let file = c.quiet(fen_file);
        // Positions by value need no allocation at all.
        let mut value = std::mem::zeroed::<chess_position>();
        let mut info = chess_fen_info {
            size: size_of::<chess_fen_info>(),
            error_offset: 77,
            dropped_castling: 9,
            dropped_en_passant: 9,
        };
        let code = chess_fen_read_file(file.as_ptr(), &mut value, &mut info);
        c.check(code, info.error_offset == 77)?;
        chess_position_init(&mut value);
        c.check(chess_position_init_chess960(&mut value, 518), true)?;
        let start = Pos(c.handle(chess_position_new())?);
        let _copy = Pos(c.handle(chess_position_clone(start.0))?);
        for fen in FENS {
            let mut out = dangling();
            let code = chess_fen_parse(fen.as_ptr(), &mut out);
            c.check(code, out == dangling())?;
            let pos = Pos(out);
            let code = chess_fen_parse_with(fen.as_ptr(), CHESS_FEN_DROP_BAD_CASTLING, &mut value, &mut info);
            c.check(code, info.dropped_castling == 9)?;
            c.check(chess_fen_parse_into(fen.as_ptr(), &mut value), true)?;
            let mut out = dangling();
            let code = chess_fen_parse_chess960(fen.as_ptr(), &mut out);
            c.check(code, out == dangling())?;
            drop(Pos(out));

            let written = text::<128>(c, |b, n, l| chess_fen_write(pos.0, b, n, l))?;
            assert_eq!(written.as_str(), fen.to_str().unwrap());
            let mut fields = [ptr::null(); 6];
            let mut split = Text::<128>::new();
            let code = chess_fen_split(
                fen.as_ptr(),
                split.buf.as_mut_ptr(),
                128,
                &mut split.len,
                fields.as_mut_ptr(),
                ptr::null_mut(),
            );
            c.check(code, split.untouched())?;
            for style in [CHESS_TEXT_BOARD, CHESS_TEXT_ASCII, CHESS_TEXT_UNICODE] {
                text::<512>(c, |b, n, l| chess_position_to_text(pos.0, style, b, n, l))?;
            }

            let mut moves = [0; 256];
            let count = chess_legal_moves(pos.0, moves.as_mut_ptr(), 256);
            let mut counts = [0u64; 256];
            assert_eq!(chess_perft_divide(pos.0, 2, moves.as_mut_ptr(), counts.as_mut_ptr(), 256), count);
            for &mv in &moves[..count] {
                let san = text::<16>(c, |b, n, l| chess_move_to_san(pos.0, mv, b, n, l))?;
                let mut back = NO_MOVE;
                let code = chess_move_from_san_with(pos.0, san.buf.as_ptr(), CHESS_SAN_STRICT, &mut back);
                c.check(code, back == NO_MOVE)?;
                assert_eq!(back, mv);
                let uci = text::<8>(c, |b, n, l| chess_move_to_uci(mv, b, n, l))?;
                let code = chess_move_from_uci(pos.0, uci.buf.as_ptr(), &mut back);
                c.check(code, true)?;
            }
        }
        let code = chess_fen_from_components(
            c"8/8/8/4k3/8/8/8/4K3".as_ptr(),
            c"w".as_ptr(),
            c"-".as_ptr(),
            c"-".as_ptr(),
            c"0".as_ptr(),
            c"1".as_ptr(),
            &mut value,
            ptr::null_mut(),
        );
        c.check(code, true)?;
        let (mut moves, mut count, mut bad) = ([NO_MOVE; 8], 99, 99);
        let line = c"e4 e7e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6";
        let code = chess_moves_from_line(start.0, line.as_ptr(), 0, moves.as_mut_ptr(), 8, &mut count, &mut bad);
        c.check(code, count == 99 && moves[0] == NO_MOVE)?;
        let code =
            chess_moves_from_line(start.0, c"e4 e5 Ke3".as_ptr(), 0, moves.as_mut_ptr(), 8, &mut count, &mut bad);
        c.check(code, true)?;
        assert_eq!((code, bad), (CHESS_ERR_ILLEGAL_MOVE, 2));
    }
    Some(())
}

// ----- games -----

/// What a game answers to cheap queries.
fn state(game: *mut chess_game) -> (usize, u64, usize, u64) {
    unsafe {
        let ply = chess_game_ply_count(game);
        (
            ply,
            chess_position_zobrist(chess_game_position(game)),
            chess_game_tag_count(game),
            chess_game_moves(game, ptr::null_mut(), 0) as u64,
        )
    }
}

/// A call that changes `game`: when it runs out of memory, the game must answer as before and
/// still export.
fn change(
    c: &mut Check,
    game: *mut chess_game,
    call: impl FnOnce() -> chess_error,
    untouched: impl FnOnce() -> bool,
) -> Option<chess_error> {
    let before = c.quiet(|| state(game));
    let code = call();
    let failed = c.check(code, untouched()).is_none();
    if failed {
        assert_eq!(c.quiet(|| state(game)), before, "a game changed by a call that ran out of memory");
        let exported = c.quiet(|| {
            text::<65536>(&mut Check { log: Vec::new() }, |b, n, l| unsafe { chess_game_to_pgn(game, b, n, l) })
        });
        assert!(exported.is_some());
        return None;
    }
    Some(code)
}

/// Exports the game every way there is.
fn export(c: &mut Check, game: *mut chess_game) -> Option<()> {
    unsafe {
        text::<65536>(c, |b, n, l| chess_game_to_pgn(game, b, n, l))?;
        text::<65536>(c, |b, n, l| chess_game_san_moves(game, b, n, l))?;
        let mut value = Text::<64>::new();
        let code = chess_game_tag(game, c"White".as_ptr(), value.buf.as_mut_ptr(), 64, &mut value.len);
        c.check(code, true)?;
        let (mut name, mut value) = (Text::<64>::new(), Text::<64>::new());
        for i in 0..chess_game_tag_count(game) {
            let code = chess_game_tag_at(
                game,
                i,
                name.buf.as_mut_ptr(),
                64,
                &mut name.len,
                value.buf.as_mut_ptr(),
                64,
                &mut value.len,
            );
            c.check(code, true)?;
        }
    }
    Some(())
}

/// A game of 300 pushes (moves, SAN, UCI), tags set and removed, export, clone, pops.
fn game_scenario(c: &mut Check) -> Option<()> {
    unsafe {
        let start = Pos(c.handle(chess_position_new())?);
        let game = GameHandle(c.handle(chess_game_new(start.0))?);
        let g = game.0;
        let mut moves = [0; 256];
        for ply in 0..300 {
            // Knights go back and forth, with a pawn move now and then so that no repetition
            // ends the game.
            let pos = chess_game_position(g);
            let count = chess_legal_moves(pos, moves.as_mut_ptr(), 256);
            let mv = moves[(ply * 7) % count];
            let mut out = NO_MOVE;
            match ply % 3 {
                0 => change(c, g, || chess_game_push(g, mv), || true)?,
                1 => {
                    let san = text::<16>(c, |b, n, l| chess_move_to_san(pos, mv, b, n, l))?;
                    {
                        let out = &raw mut out;
                        change(c, g, || chess_game_push_san(g, san.buf.as_ptr(), out), || *out == NO_MOVE)?
                    }
                }
                _ => {
                    let flags = if chess_position_is_chess960(pos) { CHESS_UCI_KING_TAKES_ROOK } else { 0 };
                    let uci = text::<8>(c, |b, n, l| chess_move_to_uci_with(mv, flags, b, n, l))?;
                    {
                        let out = &raw mut out;
                        change(c, g, || chess_game_push_uci(g, uci.buf.as_ptr(), out), || *out == NO_MOVE)?
                    }
                }
            };
            if chess_game_outcome(g).result != CHESS_RESULT_ONGOING {
                break;
            }
        }
        // Enough tags for the hash index.
        let names: [&CStr; 20] = [
            c"Event",
            c"Site",
            c"Date",
            c"Round",
            c"White",
            c"Black",
            c"Result",
            c"Annotator",
            c"ECO",
            c"Opening",
            c"WhiteElo",
            c"BlackElo",
            c"TimeControl",
            c"Termination",
            c"Mode",
            c"PlyCount",
            c"Board",
            c"Stage",
            c"Section",
            c"EventDate",
        ];
        for name in names {
            change(c, g, || chess_game_set_tag(g, name.as_ptr(), c"value with \"quotes\" and é".as_ptr()), || true)?;
        }
        change(c, g, || chess_game_set_tag(g, c"White".as_ptr(), c"Morphy".as_ptr()), || true)?;
        change(c, g, || chess_game_remove_tag(g, c"Round".as_ptr()), || true)?;
        export(c, g)?;
        let copy = GameHandle(c.handle(chess_game_clone(g))?);
        export(c, copy.0)?;
        while chess_game_ply_count(copy.0) > 250 {
            let mut out = NO_MOVE;
            let out = &raw mut out;
            change(c, copy.0, || chess_game_pop(copy.0, out), || *out == NO_MOVE)?;
        }
        let fresh = GameHandle(c.handle(chess_game_new(ptr::null()))?);
        export(c, fresh.0)?;
    }
    Some(())
}

/// A game read from PGN, with comments, NAGs and variations: export, clone, and taking back
/// every move (which rebuilds its tree).
fn annotated_game_scenario(c: &mut Check) -> Option<()> {
    let pgn = b"[Event \"x\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n{start} 1. O-O $1 {castles} (1. Ra2 {rook} (1. Kd1) 1... Kd8) 1... O-O-O ( {long} 1... Ra7 2. Rab1 ( 2. Ra2 ) ) 2. Rab1 $14 Rh7 { end } 1-0\n";
    unsafe {
        let mut reader = dangling();
        let code = chess_pgn_reader_from_buffer(pgn.as_ptr(), pgn.len(), &mut reader);
        c.check(code, reader == dangling())?;
        let reader = ReaderHandle(reader);
        let mut out = dangling();
        let code = chess_pgn_reader_next(reader.0, &mut out);
        c.check(code, out == dangling())?;
        assert_eq!(code, CHESS_OK);
        let game = GameHandle(out);
        export(c, game.0)?;
        walk_nodes(c, game.0)?;
        // A move without text as written: its SAN is made from the position.
        let mut mv = NO_MOVE;
        let mv = &raw mut mv;
        change(c, game.0, || chess_game_push_uci(game.0, c"g1g2".as_ptr(), mv), || *mv == NO_MOVE)?;
        walk_nodes(c, game.0)?;
        let copy = GameHandle(c.handle(chess_game_clone(game.0))?);
        export(c, copy.0)?;
        while chess_game_ply_count(game.0) > 0 {
            let mut out = NO_MOVE;
            let out = &raw mut out;
            change(c, game.0, || chess_game_pop(game.0, out), || *out == NO_MOVE)?;
            export(c, game.0)?;
        }
        let mut out = dangling();
        c.check(chess_pgn_reader_next(reader.0, &mut out), out == dangling())?;
    }
    Some(())
}

/// Every node's SAN and position, which replay the path from the start.
fn walk_nodes(c: &mut Check, game: *mut chess_game) -> Option<()> {
    unsafe {
        for node in 1..chess_node_count(game) as chess_node {
            let mut san = Text::<64>::new();
            let code = chess_node_san(game, node, san.buf.as_mut_ptr(), 64, &mut san.len);
            c.check(code, san.untouched())?;
            let mut pos = std::mem::MaybeUninit::<chess_position>::zeroed();
            let code = chess_node_position(game, node, pos.as_mut_ptr());
            let bytes = std::slice::from_raw_parts(pos.as_ptr().cast::<u8>(), size_of::<chess_position>());
            c.check(code, bytes.iter().all(|&b| b == 0))?;
        }
    }
    Some(())
}

// ----- EPD -----

const EPDS: [&CStr; 9] = [
    c"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - bm O-O-O Kd8; am Kf8; id \"castle \\\"long\\\" é\"; acd 12; ce -35; sv 0.5; c0 \"a\" \"b\"; pv O-O-O Rh2 Rd2; x y z; noop; hmvc 3; fmvn 20;",
    c"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
    c"8/8/8/4k3/8/8/8/4K2R w K - 9x oops;",
    c"8/8/8/4k3/8/8/8/4K2R w K - c0 \"open;",
    c"8/8/8/4k3/8/8/8/4K2R w K - hmvc -1;",
    c"8/8/8/4k3/8/8/8/4K2R w K - hmvc \"seven\";",
    c"8/8/8/4k3/8/8/8/4K2R w K - bm \"Rh8\";",
    c"8/8/8/4k3/8/8/8/4K2R w K - pv Rh8 Rh1;",
    c"8/8/8/4k3/8/8/8/4K2R w K - bm Kd1; bm Rh8;",
];

fn epd_scenario(c: &mut Check) -> Option<()> {
    unsafe {
        for (i, line) in EPDS.iter().enumerate() {
            let mut out = dangling();
            let code = chess_epd_parse(line.as_ptr(), &mut out);
            c.check(code, out == dangling())?;
            assert!(i > 1 || code == CHESS_OK, "{line:?}: {code:?}");
            if code != CHESS_OK {
                continue;
            }
            let epd = EpdHandle(out);
            text::<1024>(c, |b, n, l| chess_epd_write(epd.0, b, n, l))?;
            assert!(!chess_epd_position(epd.0).is_null());
            for i in 0..chess_epd_operation_count(epd.0) {
                let opcode = text::<64>(c, |b, n, l| chess_epd_opcode(epd.0, i, b, n, l))?;
                let op = opcode.buf.as_ptr();
                assert!(chess_epd_has(epd.0, op));
                let mut moves = [NO_MOVE; 16];
                chess_epd_moves(epd.0, op, moves.as_mut_ptr(), 16);
                for j in 0..chess_epd_operand_count(epd.0, op) {
                    let kind = chess_epd_operand_kind(epd.0, op, j);
                    let (mut int, mut float, mut mv, mut s) = (7i64, 7.0f64, NO_MOVE, Text::<64>::new());
                    let code = match kind {
                        CHESS_OPERAND_INTEGER => chess_epd_operand_integer(epd.0, op, j, &mut int),
                        CHESS_OPERAND_FLOAT => chess_epd_operand_float(epd.0, op, j, &mut float),
                        CHESS_OPERAND_MOVE => chess_epd_operand_move(epd.0, op, j, &mut mv),
                        _ => chess_epd_operand_string(epd.0, op, j, s.buf.as_mut_ptr(), 64, &mut s.len),
                    };
                    c.check(code, true)?;
                    assert_eq!(code, CHESS_OK);
                }
            }
        }
        let mut out = dangling();
        let code = chess_epd_parse_with(
            c"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - id \"960\";".as_ptr(),
            CHESS_FEN_CHESS960,
            &mut out,
        );
        c.check(code, out == dangling())?;
        drop(EpdHandle(out));
    }
    Some(())
}

// ----- PGN files -----

/// Bytes handed out by `read_chunk`, a few KiB at a time.
struct Feed<'a>(&'a [u8]);

unsafe extern "C" fn read_chunk(user: *mut c_void, buf: *mut u8, cap: usize) -> usize {
    let feed = &mut *user.cast::<Feed<'_>>();
    let n = feed.0.len().min(cap).min(4096);
    ptr::copy_nonoverlapping(feed.0.as_ptr(), buf, n);
    feed.0 = &feed.0[n..];
    n
}

/// Reads `pgn` through a reader from a buffer or a callback: every game with its tags, every
/// error with its details and partial game. Logs each `chess_pgn_reader_next`.
fn read_pgn(c: &mut Check, pgn: &[u8], callback: bool) -> Option<()> {
    unsafe {
        let mut feed = Feed(pgn);
        let mut reader = dangling();
        let code = if callback {
            chess_pgn_reader_from_callback(Some(read_chunk), (&raw mut feed).cast(), &mut reader)
        } else {
            chess_pgn_reader_from_buffer(pgn.as_ptr(), pgn.len(), &mut reader)
        };
        c.check(code, reader == dangling())?;
        let reader = ReaderHandle(reader);
        loop {
            let mut out = dangling();
            let code = chess_pgn_reader_next(reader.0, &mut out);
            let entry = match code {
                CHESS_OK => (0, chess_game_ply_count(out) as u64, chess_game_tag_count(out) as u64),
                CHESS_END => (1, 0, 0),
                _ => {
                    let info = last_error(reader.0);
                    (code as i32, info.game, info.line)
                }
            };
            c.log.push(entry);
            if c.check(code, out == dangling()).is_none() {
                // The reader answers, then goes on or ends (which the log shows), unless
                // allocations keep failing.
                last_error(reader.0);
                if matches!(MODE.get(), Mode::FailFrom(_)) {
                    return None;
                }
                continue;
            }
            match code {
                CHESS_OK => {
                    let game = GameHandle(out);
                    export_tags(c, game.0)?;
                }
                CHESS_END => return Some(()),
                _ => {
                    assert!(last_error(reader.0).message[0] != 0);
                    let mut partial = dangling();
                    let code = chess_pgn_reader_partial_game(reader.0, &mut partial);
                    c.check(code, partial == dangling())?;
                    drop(GameHandle(partial));
                }
            }
        }
    }
}

/// What went wrong in the reader's last call (this call allocates nothing).
unsafe fn last_error(reader: *const chess_pgn_reader) -> chess_pgn_error_info {
    let mut info = std::mem::zeroed::<chess_pgn_error_info>();
    info.size = size_of::<chess_pgn_error_info>();
    assert_eq!(chess_pgn_reader_last_error(reader, &mut info), CHESS_OK);
    info
}

/// The tags of a game read, by index and by name.
fn export_tags(c: &mut Check, game: *mut chess_game) -> Option<()> {
    unsafe {
        let (mut name, mut value) = (Text::<256>::new(), Text::<4096>::new());
        for i in 0..chess_game_tag_count(game) {
            let code = chess_game_tag_at(
                game,
                i,
                name.buf.as_mut_ptr(),
                256,
                &mut name.len,
                value.buf.as_mut_ptr(),
                4096,
                &mut value.len,
            );
            c.check(code, true)?;
            let code = chess_game_tag(game, name.buf.as_ptr(), value.buf.as_mut_ptr(), 4096, &mut value.len);
            c.check(code, true)?;
        }
    }
    Some(())
}

// ----- Polyglot books -----

/// A book read from a buffer and looked up, one built from a game and a PGN file, the two
/// merged.
fn book_scenario(c: &mut Check, bytes: &[u8], pgn: &CStr) -> Option<()> {
    unsafe {
        let mut out = dangling();
        let code = chess_book_from_buffer(bytes.as_ptr(), bytes.len(), &mut out);
        c.check(code, out == dangling())?;
        let book = BookHandle(out);
        let mut start = std::mem::MaybeUninit::<chess_position>::uninit();
        chess_position_init(start.as_mut_ptr());
        let start = start.assume_init();
        let mut entries = [chess_book_entry { r#move: 0, weight: 0, learn: 0 }; 32];
        assert!(chess_book_lookup(book.0, &start, entries.as_mut_ptr(), 32) > 0);
        let mut picked = entries[0];
        c.check(chess_book_pick(book.0, &start, CHESS_BOOK_PICK_WEIGHTED, 42, &mut picked), true)?;

        let mut builder = dangling();
        let code = chess_book_builder_new(ptr::null(), &mut builder);
        c.check(code, builder == dangling())?;
        let builder = BuilderHandle(builder);
        let game = GameHandle(c.handle(chess_game_new(ptr::null()))?);
        for san in [c"e4", c"e5", c"Nf3", c"Nc6", c"Bc4", c"Bc5", c"O-O", c"Nf6", c"d3", c"O-O"] {
            c.check(chess_game_push_san(game.0, san.as_ptr(), ptr::null_mut()), true)?;
        }
        c.check(chess_book_builder_add_game(builder.0, game.0, CHESS_RESULT_DRAW), true)?;
        c.check(chess_book_builder_add_pgn_file(builder.0, pgn.as_ptr()), true)?;
        let mut out = dangling();
        let code = chess_book_builder_finish(builder.0, &mut out);
        c.check(code, out == dangling())?;
        let built = BookHandle(out);
        let mut out = dangling();
        let code = chess_book_merge(book.0, built.0, &mut out);
        c.check(code, out == dangling())?;
        let merged = BookHandle(out);
        assert!(chess_book_entry_count(merged.0) > chess_book_entry_count(book.0));
    }
    Some(())
}

#[test]
fn books_never_abort() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let bytes = std::fs::read(data.join("polyglot/dev.bin")).unwrap();
    let pgn = std::ffi::CString::new(data.join("pgn/dev_edge_cases.pgn").to_str().unwrap()).unwrap();
    every_failure_point("Polyglot books: read, look up, pick, build, merge", &|c| book_scenario(c, &bytes, &pgn));
}

// ----- Syzygy tablebases -----

/// Probes and a ranking, every table file opened under the walk (the open itself, which lists
/// directories through the standard library, runs with the allocator working).
fn tablebase_scenario(c: &mut Check, dirs: &CStr) -> Option<()> {
    unsafe {
        let tb = c.quiet(|| {
            let mut out = ptr::null_mut();
            assert_eq!(chess_tablebase_open(dirs.as_ptr(), &mut out), CHESS_OK);
            TablebaseHandle(out)
        });
        // Captures into smaller tables, pawns, a DTZ table stored for the other side.
        let fens: [&CStr; 4] = [
            c"8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1",
            c"4k3/8/8/8/8/8/4P3/r3K2R w - - 0 1",
            c"8/8/8/4k3/8/8/2p5/4K1Q1 b - - 0 1",
            c"8/4k3/8/3K4/2B2B2/8/8/8 w - - 1 53",
        ];
        let mut last: chess_position = std::mem::zeroed();
        for fen in fens {
            c.quiet(|| assert_eq!(chess_fen_parse_into(fen.as_ptr(), &mut last), CHESS_OK));
            let mut value = 12345;
            let code = chess_tablebase_probe_wdl(tb.0, &last, &mut value);
            assert_eq!(last_tablebase_error(&tb), code);
            c.check(code, value == 12345)?;
            let mut value = 12345;
            let code = chess_tablebase_probe_dtz(tb.0, &last, &mut value);
            assert_eq!(last_tablebase_error(&tb), code);
            c.check(code, value == 12345)?;
        }
        let game = GameHandle(c.quiet(|| chess_game_new(&last)));
        let mut moves = [chess_tablebase_move { r#move: 0, wdl: 0, dtz: 0, rank: 0 }; CHESS_MAX_MOVES];
        let mut count = 7;
        c.check(chess_tablebase_rank_moves(tb.0, game.0, moves.as_mut_ptr(), CHESS_MAX_MOVES, &mut count), count == 7)?;
    }
    Some(())
}

/// The code `chess_tablebase_last_error` gives: recording an error, out of memory included,
/// allocates nothing, so it always has the probe's.
fn last_tablebase_error(tb: &TablebaseHandle) -> chess_error {
    // SAFETY: all zeros is a valid `chess_tablebase_error_info`.
    let mut info: chess_tablebase_error_info = unsafe { std::mem::zeroed() };
    info.size = size_of::<chess_tablebase_error_info>();
    // SAFETY: `tb` is a live handle and `info` states its own size.
    assert_eq!(unsafe { chess_tablebase_last_error(tb.0, &mut info) }, CHESS_OK);
    info.code
}

#[test]
fn tablebase_probes_never_abort() {
    let Some(shared) = common::shared_testdata("out of memory: Syzygy probes") else { return };
    let dirs = std::ffi::CString::new(shared.join("syzygy").to_str().unwrap()).unwrap();
    every_failure_point("Syzygy tablebases: WDL, DTZ, ranking", &|c| tablebase_scenario(c, &dirs));
}

fn pgn_files() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
        .map(|path| (path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&path).unwrap()))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    files
}

/// Variant positions: made from FENs of every variant, copied, written, drawn, played by SAN and
/// UCI; variant EPD records read and written.
fn variant_scenario(c: &mut Check) -> Option<()> {
    let fens: [(chess_variant, &CStr); 4] = [
        (CHESS_VARIANT_CRAZYHOUSE, c"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQ~KB1R[PNbq] w KQkq - 2 3"),
        (CHESS_VARIANT_THREE_CHECK, c"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +1+0"),
        (CHESS_VARIANT_ATOMIC, c"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        (CHESS_VARIANT_HORDE, c"rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
    ];
    unsafe {
        for (variant, fen) in fens {
            let mut out = dangling();
            let code = chess_variant_position_new(variant, fen.as_ptr(), &mut out);
            c.check(code, out == dangling())?;
            let pos = VariantHandle(out);
            let copy = VariantHandle(c.handle(chess_variant_position_clone(pos.0))?);
            text::<1024>(c, |b, n, l| chess_variant_position_fen(copy.0, b, n, l))?;
            text::<32768>(c, |b, n, l| chess_variant_position_to_svg(pos.0, ptr::null(), b, n, l))?;
            let mut moves = [0; CHESS_MAX_VARIANT_MOVES];
            let count = chess_variant_position_legal_moves(pos.0, moves.as_mut_ptr(), moves.len());
            for &mv in &moves[..count.min(8)] {
                let san = text::<64>(c, |b, n, l| chess_variant_position_san(pos.0, mv, b, n, l))?;
                let san = c.quiet(|| std::ffi::CString::new(san.as_str()).unwrap());
                let mut read = NO_MOVE;
                c.check(chess_variant_position_parse_san(pos.0, san.as_ptr(), &mut read), read == NO_MOVE)?;
                let uci = text::<16>(c, |b, n, l| chess_variant_position_uci(pos.0, mv, b, n, l))?;
                let uci = c.quiet(|| std::ffi::CString::new(uci.as_str()).unwrap());
                let mut read = NO_MOVE;
                c.check(chess_variant_position_parse_uci(pos.0, uci.as_ptr(), &mut read), read == NO_MOVE)?;
            }
            if count > 0 {
                c.check(chess_variant_position_play(copy.0, moves[0]), true)?;
            }
        }
        let lines: [(chess_variant, &CStr); 2] = [
            (
                CHESS_VARIANT_CRAZYHOUSE,
                c"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq - bm Q@e2; pv Q@e2 @d4;",
            ),
            (
                CHESS_VARIANT_THREE_CHECK,
                c"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1 bm Bc4; id \"tc\";",
            ),
        ];
        for (variant, line) in lines {
            let mut out = dangling();
            let code = chess_epd_parse_variant(variant, line.as_ptr(), &mut out);
            c.check(code, out == dangling())?;
            let epd = EpdHandle(out);
            text::<1024>(c, |b, n, l| chess_epd_write(epd.0, b, n, l))?;
            assert!(!chess_epd_variant_position(epd.0).is_null());
        }
    }
    Some(())
}

/// Variant games: read from PGN among chess games, written back, built from a position and
/// played, their positions copied out.
fn variant_game_scenario(c: &mut Check) -> Option<()> {
    let pgn = b"[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. @d5 { drop } (4. d4) 4... @e6 *\n\n\
                1. e4 e5 *\n\n[Variant \"Three-check\"]\n\n1. e4 e5 2. Bc4 Nf6 3. Bxf7+ *\n";
    unsafe {
        let mut reader = dangling();
        c.check(chess_pgn_reader_from_buffer(pgn.as_ptr(), pgn.len(), &mut reader), reader == dangling())?;
        let reader = ReaderHandle(reader);
        let mut options = std::mem::zeroed::<chess_pgn_options>();
        options.size = size_of::<chess_pgn_options>();
        options.flags = CHESS_PGN_VARIANTS;
        c.check(chess_pgn_reader_set_options(reader.0, &options), true)?;
        loop {
            let mut out = dangling();
            let code = chess_pgn_reader_next(reader.0, &mut out);
            if code == CHESS_END {
                break;
            }
            c.check(code, out == dangling())?;
            let game = GameHandle(out);
            text::<4096>(c, |b, n, l| chess_game_to_pgn(game.0, b, n, l))?;
            text::<1024>(c, |b, n, l| chess_game_san_moves(game.0, b, n, l))?;
        }
        let mut start = dangling();
        c.check(chess_variant_position_new(CHESS_VARIANT_ATOMIC, ptr::null(), &mut start), start == dangling())?;
        let start = VariantHandle(start);
        let game = GameHandle(c.handle(chess_game_new_variant(start.0))?);
        for san in [c"e4", c"d5", c"exd5"] {
            c.check(chess_game_push_san(game.0, san.as_ptr(), ptr::null_mut()), true)?;
        }
        let copy = GameHandle(c.handle(chess_game_clone(game.0))?);
        c.check(chess_node_variant_position(copy.0, 2, start.0), true)?;
        text::<4096>(c, |b, n, l| chess_game_to_pgn(copy.0, b, n, l))?;
    }
    Some(())
}

#[test]
fn variant_games_never_abort() {
    every_failure_point("variant games: PGN read and written, built, copied", &variant_game_scenario);
}

#[test]
fn variant_positions_never_abort() {
    every_failure_point("variant positions: FEN, copy, SAN, UCI, play", &variant_scenario);
}

#[test]
fn fen_and_san_never_abort() {
    every_failure_point("FEN and SAN", &fen_and_san);
}

#[test]
fn games_never_abort() {
    every_failure_point("game: 300 pushes, tags, export, clone, pop", &game_scenario);
    every_failure_point("game read from PGN: export, clone, pop all", &annotated_game_scenario);
}

#[test]
fn epd_never_aborts() {
    every_failure_point("EPD", &epd_scenario);
}

#[test]
fn pgn_from_a_buffer_never_aborts() {
    let mut total = 0;
    for (name, pgn) in pgn_files() {
        total += every_failure_point(&format!("PGN buffer {name}"), &|c| read_pgn(c, &pgn, false)).points;
    }
    eprintln!("PGN from buffers: {total} allocation failure points");
}

#[test]
fn pgn_from_a_callback_never_aborts() {
    let mut total = 0;
    for (name, pgn) in pgn_files() {
        let report = every_failure_point(&format!("PGN callback {name}"), &|c| read_pgn(c, &pgn, true));
        total += report.points;
    }
    eprintln!("PGN from callbacks: {total} allocation failure points");
}

// ----- board pictures -----

fn svg_scenario(c: &mut Check) -> Option<()> {
    unsafe {
        let mut pos = std::mem::zeroed::<chess_position>();
        chess_position_init(&mut pos);
        let arrows = [chess_svg_arrow { from: 12, to: 28, color: 0 }, chess_svg_arrow { from: 6, to: 21, color: 0 }];
        let fills = [chess_svg_fill { square: 40, color: 0xff00ff80 }];
        let mut options = std::mem::zeroed::<chess_svg_options>();
        options.size = size_of::<chess_svg_options>();
        options.flags = CHESS_SVG_MARK_CHECK;
        options.arrows = arrows.as_ptr();
        options.arrow_count = arrows.len();
        options.fills = fills.as_ptr();
        options.fill_count = fills.len();
        text::<16384>(c, |buf, cap, len| chess_position_to_svg(&pos, &options, buf, cap, len))?;
        text::<16384>(c, |buf, cap, len| chess_position_to_svg(&pos, ptr::null(), buf, cap, len))?;
        Some(())
    }
}

#[test]
fn svg_never_aborts() {
    let report = every_failure_point("SVG with arrows and fills", &svg_scenario);
    assert!(report.points > 0, "the options' arrays are allocated");
}
