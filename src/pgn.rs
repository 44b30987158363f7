//! PGN: a reader handing out games, and the tags and PGN export of a game.

use std::ffi::{c_char, c_void};
use std::fmt::Write;
use std::io::{self, Read};

use super::error::*;
use super::fen::c_path;
use super::game::{chess_game, chess_result, record_mut, record_ref, result_ret, CHESS_RESULT_ONGOING};
use super::record::{each_game, Record};
use super::util::{
    box_or_oom, c_ascii, c_slice, c_utf8, fill_array, free_handle, guard, guard_code, oom, text_of, versioned,
    versioned_ref, write_optional, Out, TextOut, Versioned,
};
use chesscore_core::pgn::{
    split_points, BytesSource, Compression, Decompressed, IoSource, ParallelReader, PgnError, PgnReader, ReaderOptions,
    Source, WriteOptions,
};
use chesscore_core::variant::AnyGame;
use chesscore_core::{Game, SanMode};

/// Reads up to `cap` bytes of PGN into `buf` for `chess_pgn_reader_from_callback`: returns how
/// many it stored (1 to `cap`), 0 at the end of the input, or `CHESS_READ_ERROR` when reading
/// failed. `user` is the pointer given to `chess_pgn_reader_from_callback`. Called only from
/// `chess_pgn_reader_next`, on the thread calling it; it must not unwind (no C++ exception or
/// `longjmp` through the library).
pub type chess_read_fn = Option<unsafe extern "C" fn(user: *mut c_void, buf: *mut u8, cap: usize) -> usize>;

/// What a `chess_read_fn` returns when reading failed: `chess_pgn_reader_next` then returns
/// `CHESS_ERR_IO`, and `CHESS_END` afterwards. (`SIZE_MAX`.)
pub const CHESS_READ_ERROR: usize = usize::MAX;

/// A PGN reader (opaque): games one at a time from a file, a buffer or a callback, every move
/// replayed and checked, broken games reported and skipped. Create it with
/// `chess_pgn_reader_open_file`, `_from_buffer` or `_from_callback`, read with
/// `chess_pgn_reader_next`, release it with `chess_pgn_reader_free`.
pub struct chess_pgn_reader {
    games: Games,
    options: ReaderOptions,
    /// The error of the last `chess_pgn_reader_next` call, with what was read of the game.
    error: Option<PgnError>,
    /// `CHESS_PGN_VARIANTS`: variant games are read.
    variants: bool,
}

/// Where a reader's games come from.
#[allow(clippy::large_enum_variant, reason = "one per handle, which is boxed; the serial reader is the common case")]
enum Games {
    /// A file or a buffer not read yet, which threads may still read.
    Unread {
        input: Input,
        threads: usize,
    },
    /// One reader in the caller's thread (a callback reader's only kind).
    Serial(PgnReader<Box<dyn Source>>),
    Parallel(ParallelReader<Game>),
    /// Threads reading games of chess and of the variants (`CHESS_PGN_VARIANTS`).
    ParallelAny(ParallelReader<AnyGame>),
    /// Only while the reading starts, and for good when it could not for want of memory.
    Ended,
}

/// The input of a file or buffer reader, before reading starts.
enum Input {
    File(std::fs::File),
    Buffer(Vec<u8>),
}

/// The reading of `input`, by `threads` threads (one: in the caller's thread), of variant
/// games too when `variants` is set.
fn start(input: Input, threads: usize, options: ReaderOptions, variants: bool) -> Result<Games, chess_error> {
    if threads > 1 {
        let input: Box<dyn Read + Send> = match input {
            Input::File(file) => Box::new(file),
            Input::Buffer(bytes) => Box::new(io::Cursor::new(bytes)),
        };
        let input = Decompressed::new(input);
        return Ok(match variants {
            true => Games::ParallelAny(ParallelReader::any_records(input, threads, options)),
            false => Games::Parallel(ParallelReader::records(input, threads, options)),
        });
    }
    let source = match input {
        Input::File(file) => try_source(IoSource::new(Decompressed::threaded(file))),
        Input::Buffer(bytes) => match Compression::detect(&bytes) {
            None => try_source(BytesSource::new(bytes)),
            Some(_) => try_source(IoSource::new(Decompressed::threaded(io::Cursor::new(bytes)))),
        },
    }?;
    Ok(Games::Serial(PgnReader::with_source(source).with_options(options)))
}

fn try_source(source: impl Source + 'static) -> Result<Box<dyn Source>, chess_error> {
    let source: Box<dyn Source> = chesscore_core::fallible::try_box(source).map_err(oom)?;
    Ok(source)
}

/// A `chess_read_fn` as a `Read`.
struct Callback {
    read: unsafe extern "C" fn(user: *mut c_void, buf: *mut u8, cap: usize) -> usize,
    user: *mut c_void,
}

impl Read for Callback {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // SAFETY: the caller promised a callback that stores at most `cap` bytes into `buf`.
        let n = unsafe { (self.read)(self.user, buf.as_mut_ptr(), buf.len()) };
        // Errors of a kind only, which allocate nothing (a message would).
        if n == CHESS_READ_ERROR {
            Err(io::ErrorKind::Other.into())
        } else if n > buf.len() {
            Err(io::ErrorKind::InvalidData.into())
        } else {
            Ok(n)
        }
    }
}

/// Hands a new reader of `games` to `*out`.
fn open(games: Games, out: Out<*mut chess_pgn_reader>) -> Result<(), chess_error> {
    let reader = chess_pgn_reader { games, options: ReaderOptions::default(), error: None, variants: false };
    out.write(box_or_oom(reader)?);
    Ok(())
}

/// Opens the PGN file at `path` (bytes as the system takes them) and hands a reader to `*out`;
/// the file is read in 64 KiB chunks as games are taken, and closed by
/// `chess_pgn_reader_free`. A gzip or Zstandard file (recognised by its first bytes, whatever
/// its name) is decompressed as it is read; a corrupt or cut one ends in `CHESS_ERR_IO`. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_FILE_NOT_FOUND`,
/// `CHESS_ERR_IO`, `CHESS_ERR_INVALID_TEXT` (a path this system cannot name),
/// `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_open_file(
    path: *const c_char,
    out: *mut *mut chess_pgn_reader,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `path` is NULL or a NUL-terminated string (the C contract).
        let bytes = unsafe { super::util::c_bytes(path) }?;
        let file = std::fs::File::open(c_path(bytes)?).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => CHESS_ERR_FILE_NOT_FOUND,
            _ => CHESS_ERR_IO,
        })?;
        open(Games::Unread { input: Input::File(file), threads: 1 }, out)
    })
}

/// Hands to `*out` a reader of the `len` bytes at `data` (PGN text, or PGN compressed with
/// gzip or Zstandard, recognised by its first bytes; `data` may be NULL when `len` is 0). The
/// bytes are copied, so the caller may free or reuse its buffer as soon as
/// this returns: a reader usually outlives the call that made it, and a copy (fast next to
/// reading the games) spares the caller keeping the buffer alive and unchanged until
/// `chess_pgn_reader_free`. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_from_buffer(
    data: *const u8,
    len: usize,
    out: *mut *mut chess_pgn_reader,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `data` is NULL or valid for `len` bytes of reads (the C contract).
        let bytes = unsafe { c_slice(data, len) }?;
        let mut copy = Vec::new();
        copy.try_reserve_exact(len).map_err(|_| CHESS_ERR_OUT_OF_MEMORY)?;
        copy.extend_from_slice(bytes);
        open(Games::Unread { input: Input::Buffer(copy), threads: 1 }, out)
    })
}

/// Hands to `*out` a reader that gets its bytes from `read(user, buf, cap)` (see
/// `chess_read_fn`), called as `chess_pgn_reader_next` needs more input, with up to 64 KiB at a
/// time. `user` is passed through untouched (it may be NULL) and must stay valid while the
/// reader is used. Bytes compressed with gzip or Zstandard (recognised by the first ones) are
/// decompressed. Errors: `CHESS_ERR_NULL_POINTER` (`read` or `out`), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_from_callback(
    read: chess_read_fn,
    user: *mut c_void,
    out: *mut *mut chess_pgn_reader,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let read = read.ok_or(CHESS_ERR_NULL_POINTER)?;
        let source = try_source(IoSource::new(Decompressed::new(Callback { read, user })))?;
        open(Games::Serial(PgnReader::with_source(source)), out)
    })
}

/// Releases a reader (closing its file). NULL is accepted and ignored. Games it handed out are
/// the caller's and stay valid.
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_free(reader: *mut chess_pgn_reader) {
    // SAFETY: `reader` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(reader) }
}

/// Reads the next game. `CHESS_OK`: `*out` receives a new game (tags, main line, comments, NAGs
/// and variations; the caller frees it with `chess_game_free`). `CHESS_END`: no game is left
/// (again on every later call). Any other code: the game was broken (see the error codes of docs/c.md:
/// a `CHESS_ERR_PGN_...` code, a FEN code for a bad `FEN` tag, `CHESS_ERR_SAN_SYNTAX`,
/// `CHESS_ERR_ILLEGAL_MOVE`, `CHESS_ERR_SAN_AMBIGUOUS` for a bad move, `CHESS_ERR_IO` when reading
/// failed, after which the reader ends); `*out` is untouched, `chess_pgn_reader_last_error`
/// describes it, `chess_pgn_reader_partial_game` gives what was read of it, and the next call
/// goes on with the following game. `CHESS_ERR_NULL_POINTER` for a NULL argument. `CHESS_ERR_OUT_OF_MEMORY`
/// when memory ran out reading the game or for its handle: that game is lost, `*out` is
/// untouched, `chess_pgn_reader_last_error` says where the reader stood, and the next call goes on
/// with the following game, except when the reader's input buffer could not grow (a callback or
/// file reader in a game, comment or tag line too long for the memory left): then the input
/// ends there, and later calls return `CHESS_END`. Either way the reader may be freed.
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_next(
    reader: *mut chess_pgn_reader,
    out: *mut *mut chess_game,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `reader` is NULL or a live handle used by no one else (the C contract).
        let reader = unsafe { reader.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        reader.error = None;
        if let Games::Unread { .. } = reader.games {
            let Games::Unread { input, threads } = std::mem::replace(&mut reader.games, Games::Ended) else {
                unreachable!("matched just above")
            };
            reader.games = start(input, threads, reader.options, reader.variants)?;
        }
        let next = match &mut reader.games {
            Games::Serial(games) if reader.variants => games.next_any_game().map(|game| game.map(Record::from)),
            Games::Serial(games) => games.next_game().map(|game| game.map(Record::Chess)),
            Games::Parallel(games) => games.next().transpose().map(|game| game.map(Record::Chess)),
            Games::ParallelAny(games) => games.next().transpose().map(|game| game.map(Record::from)),
            Games::Unread { .. } | Games::Ended => Ok(None),
        };
        match next {
            Ok(Some(record)) => {
                out.write(chess_game::try_boxed(record)?);
                Ok(())
            }
            Ok(None) => Err(CHESS_END),
            Err(error) => {
                let code = error.kind.code();
                reader.error = Some(error);
                Err(code)
            }
        }
    })
}

/// Cuts the PGN text file at `path` into at most `parts` pieces of whole games of about equal
/// size, for reading them apart (in other processes or on other machines, each with a buffer
/// or file reader of its own): writes to `offsets` (room for `parts`) the byte offset in the
/// file where each piece starts, the first 0 (a piece runs to the next one's offset, the last
/// to the end of the file), and to `*out_count` how many there are (fewer than `parts` when the
/// games are; 1 for an empty file). Each piece read apart gives its games as reading the whole
/// file does (game numbers and lines counted from the piece's start). The games are scanned for
/// where they end, not replayed: a blank line and a tag inside a comment are no boundary.
/// Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (`parts` 0, or a gzip or
/// Zstandard file, whose text has no offsets in the file: read it whole),
/// `CHESS_ERR_FILE_NOT_FOUND`, `CHESS_ERR_IO` (also what is not a regular file: a FIFO, a
/// device such as `/dev/zero`, a directory, refused at once), `CHESS_ERR_INVALID_TEXT` (a path
/// this system cannot name), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_split_file(
    path: *const c_char,
    parts: usize,
    offsets: *mut u64,
    out_count: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `path` is NULL or a NUL-terminated string (the C contract).
        let bytes = unsafe { super::util::c_bytes(path) }?;
        // SAFETY: `out_count` is NULL or valid for a write (the C contract).
        let out_count = unsafe { Out::new(out_count) }?;
        if offsets.is_null() {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        if parts == 0 {
            return Err(CHESS_ERR_INVALID_ARGUMENT);
        }
        let io_error = |e: io::Error| match e.kind() {
            io::ErrorKind::NotFound => CHESS_ERR_FILE_NOT_FOUND,
            _ => CHESS_ERR_IO,
        };
        let mut file = chesscore_core::files::open_regular(c_path(bytes)?).map_err(io_error)?;
        let len = file.metadata().map_err(io_error)?.len();
        let mut head = Vec::new();
        (&mut file).take(4).read_to_end(&mut head).map_err(io_error)?;
        if Compression::detect(&head).is_some() {
            return Err(CHESS_ERR_INVALID_ARGUMENT);
        }
        let input = io::Cursor::new(head).chain(file);
        let points = split_points(input, len, parts).map_err(|e| e.kind.code())?;
        // SAFETY: `offsets` is not NULL, so it is valid for `parts` writes (the C contract), and
        // there are at most `parts` points.
        unsafe { fill_array(points.iter().copied(), offsets, parts) };
        out_count.write(points.len());
        Ok(())
    })
}

/// Flag of `chess_pgn_options`: read moves as strict SAN (exactly the canonical form, check
/// suffix included, as `CHESS_SAN_STRICT`) instead of leniently.
pub const CHESS_PGN_STRICT_SAN: u32 = 1;
/// Flag of `chess_pgn_options`: replace bytes that are not UTF-8, and NUL bytes, in tag values
/// and comments with U+FFFD (without the flag, text that is not UTF-8 is decoded as
/// Windows-1252, with a warning: `chess_game_warning`; NUL bytes refuse the game).
pub const CHESS_PGN_LOSSY_TEXT: u32 = 2;
/// Flag of `chess_pgn_options`: read each game's tags, start position and result only; the
/// movetext is skipped unread (moves neither replayed nor checked, comments not kept), so the
/// games handed out have no moves.
pub const CHESS_PGN_HEADERS_ONLY: u32 = 4;
/// Flag of `chess_pgn_options`: read strictly, refusing what real files hold but the PGN
/// standard does not allow (`CHESS_ERR_PGN_NON_STANDARD`: results `½-½` or with an en dash,
/// move suffixes `e.p.`, `ep`, `++`, Unicode dashes and daggers in moves) and text that is not
/// UTF-8 (`CHESS_ERR_PGN_INVALID_UTF8`) instead of reading them leniently.
pub const CHESS_PGN_STRICT: u32 = 8;

/// Flag of `chess_pgn_options`: read the games of the lichess variants too (a `Variant` tag
/// naming atomic, antichess, crazyhouse, king of the hill, three-check, horde or racing kings),
/// as variant games (`chess_game_variant`); without it they are refused with
/// `CHESS_ERR_PGN_VARIANT`. Threads (`chess_pgn_reader_set_threads`) read them too, the same
/// games in the same order; a variant game broken in its movetext keeps what was read of it
/// (`chess_pgn_reader_partial_game` gives a variant game).
pub const CHESS_PGN_VARIANTS: u32 = 16;

/// Options of a PGN reader, for `chess_pgn_reader_set_options`. The caller sets `size` to
/// `sizeof(chess_pgn_options)`; fields added in later versions are read only when `size` covers
/// them. A limit of 0 means the default.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_pgn_options {
    /// `sizeof(chess_pgn_options)`, set by the caller.
    pub size: usize,
    /// `CHESS_PGN_STRICT_SAN`, `CHESS_PGN_LOSSY_TEXT`, `CHESS_PGN_HEADERS_ONLY`,
    /// `CHESS_PGN_STRICT`, `CHESS_PGN_VARIANTS`, or 0.
    pub flags: u32,
    /// Deepest nesting of variations (default 10,000): deeper breaks the game.
    pub max_depth: u32,
    /// Longest tag pair line, in bytes (default 65,536): longer breaks the game.
    pub max_tag_len: usize,
    /// Longest comment, in bytes (default 1,048,576): longer breaks the game.
    pub max_comment_len: usize,
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_pgn_options {}

/// Reads the games after this call with `options` (see `chess_pgn_options`; the reader starts
/// with the defaults: lenient syntax and SAN, text that is not UTF-8 decoded as Windows-1252,
/// whole games). Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (a `size` smaller than this version's
/// struct, an unknown flag, or a reader whose threads already read), leaving the options as they
/// were.
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_set_options(
    reader: *mut chess_pgn_reader,
    options: *const chess_pgn_options,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `reader` is NULL or a live handle used by no one else (the C contract).
        let reader = unsafe { reader.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `options` is NULL or valid for reads of its `size` bytes (the C contract).
        let options = unsafe { versioned_ref(options) }?.ok_or(CHESS_ERR_NULL_POINTER)?;
        let known = CHESS_PGN_STRICT_SAN
            | CHESS_PGN_LOSSY_TEXT
            | CHESS_PGN_HEADERS_ONLY
            | CHESS_PGN_STRICT
            | CHESS_PGN_VARIANTS;
        if options.flags & !known != 0 {
            return Err(CHESS_ERR_INVALID_ARGUMENT);
        }
        let defaults = ReaderOptions::default();
        let or_default = |value: usize, default: usize| if value == 0 { default } else { value };
        if let Games::Parallel(_) | Games::ParallelAny(_) = reader.games {
            return Err(CHESS_ERR_INVALID_ARGUMENT);
        }
        reader.options = ReaderOptions {
            max_tag_len: or_default(options.max_tag_len, defaults.max_tag_len),
            max_comment_len: or_default(options.max_comment_len, defaults.max_comment_len),
            max_depth: or_default(options.max_depth as usize, defaults.max_depth),
            lossy_utf8: options.flags & CHESS_PGN_LOSSY_TEXT != 0,
            strict: options.flags & CHESS_PGN_STRICT != 0,
            san_mode: if options.flags & CHESS_PGN_STRICT_SAN != 0 { SanMode::Strict } else { SanMode::Lenient },
            headers_only: options.flags & CHESS_PGN_HEADERS_ONLY != 0,
        };
        reader.variants = options.flags & CHESS_PGN_VARIANTS != 0;
        if let Games::Serial(games) = &mut reader.games {
            games.set_options(reader.options);
        }
        Ok(())
    })
}

/// Reads the file or buffer of `reader` with `threads` threads (0: one per core; 1: in the
/// calling thread, the default; more than `CHESS_PGN_MAX_THREADS` read with that many, the
/// count never allocated for), each reading a part of the input that starts where a line
/// looks like a game's first tag, until its games meet the next part's (a part that started
/// inside a comment is dropped). The games come from `chess_pgn_reader_next` in file order, the
/// same as one thread gives them (numbers and error locations counted in the whole input). Call
/// it, and `chess_pgn_reader_set_options`, before the first `chess_pgn_reader_next`. With
/// threads, running out of memory aborts as the standard library's threads and channels do.
/// Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (a callback reader, whose
/// callback is called only on the caller's thread, or a reader that has started reading).
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_set_threads(reader: *mut chess_pgn_reader, threads: u32) -> chess_error {
    guard_code(|| {
        // SAFETY: `reader` is NULL or a live handle used by no one else (the C contract).
        let reader = unsafe { reader.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        let Games::Unread { threads: count, .. } = &mut reader.games else { return Err(CHESS_ERR_INVALID_ARGUMENT) };
        *count = match threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n as usize,
        }
        .min(CHESS_PGN_MAX_THREADS as usize);
        Ok(())
    })
}

/// The most threads a PGN reader reads with (`chess_pgn_reader_set_threads`): more are as many.
/// (The core's `MAX_THREADS`, written out for the header, which a compile-time assertion
/// holds equal.)
pub const CHESS_PGN_MAX_THREADS: u32 = 256;
const _: () = assert!(CHESS_PGN_MAX_THREADS as usize == chesscore_core::pgn::MAX_THREADS);

/// Room for the message of `chess_pgn_error_info`, NUL included.
pub const CHESS_PGN_MESSAGE_MAX: usize = 256;

/// What went wrong in the last `chess_pgn_reader_next` call, as `chess_pgn_reader_last_error`
/// fills it in. The caller sets `size` to `sizeof(chess_pgn_error_info)`; fields added in later
/// versions are written only when `size` covers them.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_pgn_error_info {
    /// `sizeof(chess_pgn_error_info)`, set by the caller.
    pub size: usize,
    /// The code the call returned; `CHESS_OK` when it returned no error (the other fields are
    /// then 0 and the message empty).
    pub code: chess_error,
    /// The number of the broken game, from 1 (broken games counted).
    pub game: u64,
    /// The line where it went wrong, from 1.
    pub line: u64,
    /// The byte column in that line, from 1.
    pub column: u64,
    /// The ply the offending move would have had (1 for the game's first move; in a variation,
    /// counted along it); 0 outside movetext.
    pub ply: u32,
    /// The message, such as `game 2, line 7, column 13: illegal move "e5" at ply 3`: UTF-8,
    /// NUL-terminated, cut at a character boundary when longer than the room.
    pub message: [c_char; CHESS_PGN_MESSAGE_MAX],
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_pgn_error_info {}

/// Fills `info` with what went wrong in the last `chess_pgn_reader_next` call (see
/// `chess_pgn_error_info`). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (a
/// `size` smaller than this version's struct).
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_last_error(
    reader: *const chess_pgn_reader,
    info: *mut chess_pgn_error_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `reader` is NULL or a live handle (the C contract).
        let reader = unsafe { reader.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `info` is NULL or valid for reads and writes of its `size` bytes, and no one
        // else uses it meanwhile (the C contract).
        let info = unsafe { versioned(info) }?.ok_or(CHESS_ERR_NULL_POINTER)?;
        let mut message = CutText { bytes: [0; CHESS_PGN_MESSAGE_MAX], len: 0 };
        let (code, game, line, column, ply) = match &reader.error {
            Some(error) => {
                // Formatted here, into the caller's struct: keeping the text would allocate.
                write!(message, "{error}").map_err(|_| CHESS_ERR_INTERNAL)?;
                let at = error.location;
                (error.kind.code(), error.game, at.line, at.column, error.ply)
            }
            None => (CHESS_OK, 0, 0, 0, 0),
        };
        (info.code, info.game, info.line, info.column, info.ply) = (code, game, line, column, ply);
        for (to, &from) in info.message.iter_mut().zip(&message.bytes) {
            *to = from as c_char;
        }
        Ok(())
    })
}

/// Text cut, at a character boundary, to fit its room with a NUL after it.
pub(crate) struct CutText {
    pub(crate) bytes: [u8; CHESS_PGN_MESSAGE_MAX],
    pub(crate) len: usize,
}

impl std::fmt::Write for CutText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = self.bytes.len() - 1 - self.len;
        let mut take = s.len().min(room);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        self.bytes[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

/// Hands to `*out` a new game holding what was read of the game the last error broke: its tags,
/// and the main line up to the bad move with its comments, NAGs and variations (the caller
/// frees it with `chess_game_free`); a variant game for a variant game broken in its movetext
/// (`CHESS_PGN_VARIANTS`; see `chess_game_variant`). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_END` when the last
/// call returned no error, `CHESS_ERR_OUT_OF_MEMORY`. After a `CHESS_ERR_OUT_OF_MEMORY` from
/// `chess_pgn_reader_next` nothing of the game is kept: the game handed out is empty.
#[no_mangle]
pub unsafe extern "C" fn chess_pgn_reader_partial_game(
    reader: *const chess_pgn_reader,
    out: *mut *mut chess_game,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `reader` is NULL or a live handle (the C contract).
        let reader = unsafe { reader.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let error = reader.error.as_ref().ok_or(CHESS_END)?;
        let record = match (&error.partial, &error.variant_partial) {
            (Some(partial), _) => Record::Chess(partial.try_clone().map_err(oom)?),
            (None, Some(partial)) => Record::Variant(partial.try_clone().map_err(oom)?),
            (None, None) => Record::Chess(Game::try_new(chesscore_core::Position::startpos()).map_err(oom)?),
        };
        out.write(chess_game::try_boxed(record)?);
        Ok(())
    })
}

/// Writes the value of the tag `name` (ASCII, case-sensitive) of `game` (UTF-8, as read:
/// unescaped, nothing filled in). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT`,
/// `CHESS_ERR_PGN_TAG_NOT_FOUND`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_game_tag(
    game: *const chess_game,
    name: *const c_char,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle (the C contract).
        let record = unsafe { record_ref(game) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `name` is NULL or a NUL-terminated string (the C contract).
        let name = unsafe { c_ascii(name) }?;
        // SAFETY: `buf` is NULL or valid for `cap` bytes, `out_len` NULL or valid (the C contract).
        let text_out = unsafe { TextOut::new(buf, cap, out_len) }?;
        let value = record.tag(name).ok_or(CHESS_ERR_PGN_TAG_NOT_FOUND)?;
        text_out.write(value.as_bytes())?;
        Ok(())
    })
}

/// The number of tags of `game` (0 for a NULL game).
#[no_mangle]
pub unsafe extern "C" fn chess_game_tag_count(game: *const chess_game) -> usize {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    guard(0, || unsafe { record_ref(game) }.map_or(0, |record| record.tags().len()))
}

/// Writes the name and the value of the tag at `index` (0 to `chess_game_tag_count - 1`, in file
/// order, then in the order added). Both texts or neither are written: when either buffer is too
/// small, `CHESS_ERR_BUFFER_TOO_SMALL` with both `*name_len` and `*value_len` (each optional)
/// set. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_PGN_TAG_NOT_FOUND` (index out of range),
/// `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_game_tag_at(
    game: *const chess_game,
    index: usize,
    name_buf: *mut c_char,
    name_cap: usize,
    name_len: *mut usize,
    value_buf: *mut c_char,
    value_cap: usize,
    value_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle (the C contract).
        let record = unsafe { record_ref(game) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: each buffer is NULL or valid for its capacity, each length NULL or valid (the C
        // contract).
        let name_out = unsafe { TextOut::new(name_buf, name_cap, name_len) }?;
        // SAFETY: as above.
        let value_out = unsafe { TextOut::new(value_buf, value_cap, value_len) }?;
        let (name, value) = record.tags().get_index(index).ok_or(CHESS_ERR_PGN_TAG_NOT_FOUND)?;
        if name.len() >= name_cap || value.len() >= value_cap {
            // SAFETY: each length is NULL or valid for a write (the C contract).
            unsafe {
                write_optional(name_len, name.len());
                write_optional(value_len, value.len());
            }
            return Err(CHESS_ERR_BUFFER_TOO_SMALL);
        }
        name_out.write(name.as_bytes())?;
        value_out.write(value.as_bytes())?;
        Ok(())
    })
}

/// Writes every tag of `game` in one text, in `chess_game_tag_at`'s order: each name (ASCII)
/// and each value (UTF-8, as `chess_game_tag` writes it) followed by a NUL, so `*out_len` counts
/// the NULs between them (empty for no tags; names and values never hold a NUL). As for every
/// text, a NUL follows the last one too, so `cap` must exceed `*out_len`. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_BUFFER_TOO_SMALL` (with the length needed).
#[no_mangle]
pub unsafe extern "C" fn chess_game_tags(
    game: *const chess_game,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |record: &Record, out: TextOut| {
        out.write_with(|sink| {
            for (name, value) in record.tags().iter() {
                sink.write_bytes(name.as_bytes());
                sink.write_bytes(b"\0");
                sink.write_bytes(value.as_bytes());
                sink.write_bytes(b"\0");
            }
            Ok(())
        })?;
        Ok(())
    };
    // SAFETY: `game` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(record_ref(game), buf, cap, out_len, write) }
}

/// Sets the tag `name` (ASCII) to `value` (UTF-8): a tag already there keeps its place, a new
/// one goes last. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT`,
/// `CHESS_ERR_INVALID_ARGUMENT` for a name PGN cannot hold (a letter or digit first, then
/// letters, digits and `_+#=:-`) and for `FEN`, `SetUp` and `Variant`, which follow the game's
/// start position (`chess_game_to_pgn` writes them), `CHESS_ERR_OUT_OF_MEMORY` (the tags are then
/// unchanged).
#[no_mangle]
pub unsafe extern "C" fn chess_game_set_tag(
    game: *mut chess_game,
    name: *const c_char,
    value: *const c_char,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle used by no one else (the C contract).
        let record = unsafe { record_mut(game) }?;
        // SAFETY: `name` is NULL or a NUL-terminated string (the C contract).
        let name = unsafe { c_ascii(name) }?;
        // SAFETY: `value` is NULL or a NUL-terminated string (the C contract).
        let value = unsafe { c_utf8(value) }?;
        record.tags_mut().try_reserve(1, name.len() + value.len()).map_err(oom)?;
        record.set_tag(name, value).map_err(|e| e.code())
    })
}

/// Removes the tag `name`. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT`,
/// `CHESS_ERR_PGN_TAG_NOT_FOUND`.
#[no_mangle]
pub unsafe extern "C" fn chess_game_remove_tag(game: *mut chess_game, name: *const c_char) -> chess_error {
    guard_code(|| {
        // SAFETY: `game` is NULL or a live handle used by no one else (the C contract).
        let record = unsafe { record_mut(game) }?;
        // SAFETY: `name` is NULL or a NUL-terminated string (the C contract).
        let name = unsafe { c_ascii(name) }?;
        if record.remove_tag(name) {
            Ok(())
        } else {
            Err(CHESS_ERR_PGN_TAG_NOT_FOUND)
        }
    })
}

/// How many warnings the reader gave reading `game` (0 for a NULL game, or one not read from
/// PGN): what lenient reading accepted and the caller may want to know of, at most one of each
/// kind (today one kind: text that is not UTF-8, decoded as Windows-1252).
#[no_mangle]
pub unsafe extern "C" fn chess_game_warning_count(game: *const chess_game) -> usize {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    guard(0, || unsafe { record_ref(game) }.map_or(0, |record| record.warnings().len()))
}

/// Writes warning number `index` (0 to `chess_game_warning_count - 1`) as a message such as
/// `line 3, column 1: text that is not UTF-8 read as Windows-1252` (UTF-8). Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (no such warning),
/// `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_game_warning(
    game: *const chess_game,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |record: &Record, out: TextOut| {
        let warning = record.warnings().get(index).ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        // Formatted on the stack: the message is short.
        let mut message = CutText { bytes: [0; CHESS_PGN_MESSAGE_MAX], len: 0 };
        write!(message, "{warning}").map_err(|_| CHESS_ERR_INTERNAL)?;
        out.write(&message.bytes[..message.len])?;
        Ok(())
    };
    // SAFETY: `game` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(record_ref(game), buf, cap, out_len, write) }
}

/// The game's recorded result: the result token of its movetext when read from PGN, else its
/// `Result` tag when that holds `1-0`, `0-1` or `1/2-1/2`, else `CHESS_RESULT_ONGOING` (`*`).
/// This is what `chess_game_to_pgn` writes; `chess_game_outcome` gives what the rules say of
/// the final position instead. `CHESS_RESULT_ONGOING` for a NULL game.
#[no_mangle]
pub unsafe extern "C" fn chess_game_result(game: *const chess_game) -> chess_result {
    guard(CHESS_RESULT_ONGOING, || {
        // SAFETY: `game` is NULL or a live handle (the C contract).
        unsafe { record_ref(game) }.map_or(CHESS_RESULT_ONGOING, |record| result_ret(record.effective_result()))
    })
}

/// Writes the game as export PGN (UTF-8): the Seven Tag Roster in order (`?`, `????.??.??` or
/// the result for missing ones), the other tags, `SetUp`/`FEN`/`Variant` when the start position
/// needs them, a blank line, then the movetext with comments, NAGs and variations, wrapped
/// before 80 columns, the result (`chess_game_result`) and a line end. `chess_pgn_reader_next`
/// reads it back to the same game. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_BUFFER_TOO_SMALL`, `CHESS_ERR_OUT_OF_MEMORY` (for the stack of nested variations;
/// `buf` is then untouched).
#[no_mangle]
pub unsafe extern "C" fn chess_game_to_pgn(
    game: *const chess_game,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |record: &Record, text_out: TextOut| {
        // The sink never fails and a record holds legal moves only, so the writer fails only
        // when memory for its variation stack runs out, before it writes anything.
        text_out.write_with(|sink| {
            each_game!(record, game => game.write_pgn(sink, &WriteOptions::default()))
                .map_err(|_| CHESS_ERR_OUT_OF_MEMORY)
        })?;
        Ok(())
    };
    // SAFETY: `game` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(record_ref(game), buf, cap, out_len, write) }
}
