//! Stockfish training data: `.binpack` (and its `.plain` text) readers and writers.

use std::ffi::c_char;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Cursor, Write};

use super::error::*;
use super::fen::c_path;
use super::moves::chess_move;
use super::position::chess_position;
use super::util::{box_or_oom, c_bytes, c_slice, free_handle, guard, guard_code, oom, Out};
use chesscore_core::binpack::{
    BinpackError, BinpackErrorKind, BinpackReader, BinpackWriter, PlainReader, TrainingEntry,
};
use chesscore_core::{Move, Position};

/// `chess_binpack_reader_open_with` and `chess_binpack_writer_open_with` flag: the `.plain` text
/// form (`fen`, `move`, `score`, `ply`, `result` lines, then `e`) instead of `.binpack`.
pub const CHESS_BINPACK_PLAIN: u32 = 1;

/// One position of training data: the position, the legal move played there, the score (side
/// to move's view, in Stockfish's internal units), the ply, and the game's result from the side
/// to move's view (1, 0 or -1). Binpack stores the ply, not the fullmove number: a position read
/// from it has the fullmove number `ply / 2 + 1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct chess_training_entry {
    /// The position.
    pub position: chess_position,
    /// The move played, legal in the position.
    pub r#move: chess_move,
    /// The score, from the side to move's view.
    pub score: i16,
    /// Half-moves since the game began (at most 16383 in `.binpack`).
    pub ply: u16,
    /// The game's result from the side to move's view: 1, 0 or -1.
    pub result: i8,
}

impl From<&TrainingEntry> for chess_training_entry {
    fn from(entry: &TrainingEntry) -> chess_training_entry {
        // SAFETY: a `chess_position` is a `Position` (same size and alignment, checked in
        // position.rs), with its fields hidden.
        let position = unsafe { std::mem::transmute::<Position, chess_position>(entry.position) };
        chess_training_entry {
            position,
            r#move: entry.mv.raw(),
            score: entry.score,
            ply: entry.ply,
            result: entry.result,
        }
    }
}

/// One entry in fixed-width form, for reading many at once (`chess_binpack_reader_next_records`)
/// into arrays such as numpy's: 34 bytes, the fields at fixed offsets whatever the compiler.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct chess_training_record {
    /// The position's binary FEN without its clocks (`chess_position_to_binary_fen`'s first
    /// bytes), padded with zeros: `chess_binary_fen_parse` reads it back.
    pub board: [u8; 24],
    /// The move played (offset 24).
    pub r#move: chess_move,
    /// The score, from the side to move's view (offset 26).
    pub score: i16,
    /// The ply (offset 28).
    pub ply: u16,
    /// The halfmove clock (offset 30; at most 65535).
    pub halfmove_clock: u16,
    /// The game's result from the side to move's view: 1, 0 or -1 (offset 32).
    pub result: i8,
}

impl From<&TrainingEntry> for chess_training_record {
    fn from(entry: &TrainingEntry) -> chess_training_record {
        let pos = &entry.position;
        let packed = pos.to_binary_fen();
        let len = (8 + (pos.occupancy().count() as usize).div_ceil(2)).min(packed.len());
        let mut board = [0; 24];
        board[..len].copy_from_slice(&packed.as_bytes()[..len]);
        chess_training_record {
            board,
            r#move: entry.mv.raw(),
            score: entry.score,
            ply: entry.ply,
            halfmove_clock: pos.halfmove_clock().min(u32::from(u16::MAX)) as u16,
            result: entry.result,
        }
    }
}

/// A reader of training data, `.binpack` or `.plain`. Create it with
/// `chess_binpack_reader_open`, `_open_with` or `_from_buffer_with`, read with
/// `chess_binpack_reader_next`, release it with `chess_binpack_reader_free`. It holds one chunk
/// (`.binpack`) or one line (`.plain`) in memory at a time.
pub struct chess_binpack_reader {
    entries: Box<dyn Iterator<Item = Result<TrainingEntry, BinpackError>> + Send>,
    /// The byte offset of the last error.
    error_offset: u64,
}

/// A writer of training data, `.binpack` (written as Stockfish's tools write it, chaining the
/// entries of a game) or `.plain`. Create it with `chess_binpack_writer_open` or `_open_with`,
/// add entries with `chess_binpack_writer_write`, end with `chess_binpack_writer_finish`, release
/// it with `chess_binpack_writer_free`.
pub struct chess_binpack_writer {
    /// `None` once finished.
    output: Option<Output>,
}

enum Output {
    Binpack(BinpackWriter<File>),
    Plain(BufWriter<File>),
}

/// The code of a training data error.
impl ErrorCode for BinpackErrorKind {
    fn code(&self) -> chess_error {
        match self {
            BinpackErrorKind::Io(_) => CHESS_ERR_IO,
            BinpackErrorKind::ChunkHeader | BinpackErrorKind::ChunkTooLarge { .. } => CHESS_ERR_BINPACK_CHUNK,
            BinpackErrorKind::Truncated => CHESS_ERR_BINPACK_TRUNCATED,
            BinpackErrorKind::Position(e) => e.code(),
            BinpackErrorKind::IllegalMove => CHESS_ERR_ILLEGAL_MOVE,
            BinpackErrorKind::Score => CHESS_ERR_BINPACK_SCORE,
            BinpackErrorKind::Result => CHESS_ERR_BINPACK_RESULT,
            BinpackErrorKind::Line
            | BinpackErrorKind::LineTooLong
            | BinpackErrorKind::MissingField { .. }
            | BinpackErrorKind::Number { .. } => CHESS_ERR_BINPACK_PLAIN_SYNTAX,
            BinpackErrorKind::Fen(e) => e.code(),
            BinpackErrorKind::Uci(e) => e.code(),
            BinpackErrorKind::Epd(e) => e.code(),
            BinpackErrorKind::Unrepresentable(_) => CHESS_ERR_BINPACK_UNREPRESENTABLE,
            // A kind of fault newer than the codes: still the data's fault.
            _ => CHESS_ERR_BINPACK_TRUNCATED,
        }
    }
}

fn file_error(e: io::Error) -> chess_error {
    match e.kind() {
        io::ErrorKind::NotFound => CHESS_ERR_FILE_NOT_FOUND,
        _ => CHESS_ERR_IO,
    }
}

fn known_flags(flags: u32) -> Result<bool, chess_error> {
    if flags & !CHESS_BINPACK_PLAIN != 0 {
        return Err(CHESS_ERR_INVALID_ARGUMENT);
    }
    Ok(flags & CHESS_BINPACK_PLAIN != 0)
}

fn hand_out<R: io::Read + Send + 'static>(
    input: R,
    plain: bool,
    out: Out<*mut chess_binpack_reader>,
) -> Result<(), chess_error> {
    let entries: Box<dyn Iterator<Item = Result<TrainingEntry, BinpackError>> + Send> =
        if plain { Box::new(PlainReader::new(BufReader::new(input))) } else { Box::new(BinpackReader::new(input)) };
    out.write(box_or_oom(chess_binpack_reader { entries, error_offset: 0 })?);
    Ok(())
}

/// Opens the `.binpack` file at `path` and hands a reader to `*out`. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_FILE_NOT_FOUND`, `CHESS_ERR_IO`, `CHESS_ERR_INVALID_TEXT`
/// (a path this system cannot name), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_reader_open(
    path: *const c_char,
    out: *mut *mut chess_binpack_reader,
) -> chess_error {
    // SAFETY: the arguments are passed on under the same contract.
    unsafe { chess_binpack_reader_open_with(path, 0, out) }
}

/// `chess_binpack_reader_open` with `flags`: `CHESS_BINPACK_PLAIN` reads the `.plain` text
/// form (`CHESS_ERR_INVALID_ARGUMENT` for other bits).
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_reader_open_with(
    path: *const c_char,
    flags: u32,
    out: *mut *mut chess_binpack_reader,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `path` is NULL or a NUL-terminated string (the C contract).
        let path = c_path(unsafe { c_bytes(path) }?)?;
        let plain = known_flags(flags)?;
        hand_out(File::open(path).map_err(file_error)?, plain, out)
    })
}

/// Hands to `*out` a reader of the `len` bytes at `data` (`data` may be NULL when `len` is 0),
/// `.binpack` or, with `CHESS_BINPACK_PLAIN` in `flags`, `.plain`. The bytes are copied. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT`, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_reader_from_buffer_with(
    data: *const u8,
    len: usize,
    flags: u32,
    out: *mut *mut chess_binpack_reader,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `data` is NULL or valid for `len` bytes of reads (the C contract).
        let bytes = unsafe { c_slice(data, len) }?;
        let plain = known_flags(flags)?;
        let copy = chesscore_core::fallible::try_to_vec(bytes).map_err(oom)?;
        hand_out(Cursor::new(copy), plain, out)
    })
}

/// Reads the next entry into `*out`. `CHESS_OK`: an entry. `CHESS_END`: no entry is left (again
/// on every later call). Any other code: the data is malformed (`CHESS_ERR_BINPACK_*`, the
/// binary FEN or FEN code of a bad position, `CHESS_ERR_ILLEGAL_MOVE`, a UCI code) or could not
/// be read (`CHESS_ERR_IO`); `chess_binpack_reader_offset` gives the byte where, and the reading
/// has ended (the next call gives `CHESS_END`). `*out` is written on `CHESS_OK` only.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_reader_next(
    reader: *mut chess_binpack_reader,
    out: *mut chess_training_entry,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `reader` is NULL or a live reader used by no one else (the C contract).
        let reader = unsafe { reader.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        match reader.entries.next() {
            None => Err(CHESS_END),
            Some(Ok(entry)) => {
                out.write(chess_training_entry::from(&entry));
                Ok(())
            }
            Some(Err(error)) => {
                reader.error_offset = error.offset;
                Err(error.kind.code())
            }
        }
    })
}

/// Reads up to `cap` entries into `out` as records; `*count` receives how many. `CHESS_OK`: at
/// least one (fewer than `cap` at the end of the data). `CHESS_END`: none was left. Any other
/// code: the error `chess_binpack_reader_next` would give, after the `*count` records read before
/// it. `out` may be NULL when `cap` is 0.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_reader_next_records(
    reader: *mut chess_binpack_reader,
    out: *mut chess_training_record,
    cap: usize,
    count: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `reader` is NULL or a live reader used by no one else (the C contract).
        let reader = unsafe { reader.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `count` is NULL or valid for a write (the C contract).
        let count = unsafe { Out::new(count) }?;
        if out.is_null() && cap > 0 {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        let mut read = 0;
        let mut status = Ok(());
        while read < cap {
            match reader.entries.next() {
                None => break,
                Some(Ok(entry)) => {
                    // SAFETY: `out` is valid for `cap` records (the C contract) and `read < cap`.
                    unsafe { out.add(read).write(chess_training_record::from(&entry)) };
                    read += 1;
                }
                Some(Err(error)) => {
                    reader.error_offset = error.offset;
                    status = Err(error.kind.code());
                    break;
                }
            }
        }
        count.write(read);
        if status.is_ok() && read == 0 && cap > 0 {
            return Err(CHESS_END);
        }
        status
    })
}

/// The byte offset in the input of the error `chess_binpack_reader_next` returned last (0 before
/// any). NULL gives 0.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_reader_error_offset(reader: *const chess_binpack_reader) -> u64 {
    // SAFETY: `reader` is NULL or a live reader (the C contract).
    guard(0, || unsafe { reader.as_ref() }.map_or(0, |r| r.error_offset))
}

/// Releases a reader (closing its file). NULL is accepted and ignored.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_reader_free(reader: *mut chess_binpack_reader) {
    // SAFETY: `reader` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(reader) }
}

/// Creates (or truncates) the file at `path` and hands a `.binpack` writer of it to `*out`.
/// Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_FILE_NOT_FOUND` (no such directory),
/// `CHESS_ERR_IO`, `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_writer_open(
    path: *const c_char,
    out: *mut *mut chess_binpack_writer,
) -> chess_error {
    // SAFETY: the arguments are passed on under the same contract.
    unsafe { chess_binpack_writer_open_with(path, 0, out) }
}

/// `chess_binpack_writer_open` with `flags`: `CHESS_BINPACK_PLAIN` writes the `.plain` text.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_writer_open_with(
    path: *const c_char,
    flags: u32,
    out: *mut *mut chess_binpack_writer,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `path` is NULL or a NUL-terminated string (the C contract).
        let path = c_path(unsafe { c_bytes(path) }?)?;
        let plain = known_flags(flags)?;
        let file = File::create(path).map_err(file_error)?;
        let output =
            if plain { Output::Plain(BufWriter::new(file)) } else { Output::Binpack(BinpackWriter::new(file)) };
        out.write(box_or_oom(chess_binpack_writer { output: Some(output) })?);
        Ok(())
    })
}

/// Adds an entry. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_MOVE` (not a move
/// encoding), `CHESS_ERR_ILLEGAL_MOVE`, `CHESS_ERR_BINPACK_RESULT` (not -1, 0 or 1),
/// `CHESS_ERR_BINPACK_UNREPRESENTABLE` (`.binpack` holds neither Chess960 castling rights nor a
/// ply over 16383), `CHESS_ERR_IO`, `CHESS_ERR_INVALID_ARGUMENT` after
/// `chess_binpack_writer_finish`. A refused entry writes nothing.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_writer_write(
    writer: *mut chess_binpack_writer,
    entry: *const chess_training_entry,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `writer` is NULL or a live writer used by no one else (the C contract).
        let writer = unsafe { writer.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `entry` is NULL or a valid entry (the C contract).
        let entry = unsafe { entry.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: the entry's position is a valid position (the C contract), a `Position`.
        let position = unsafe { std::mem::transmute::<chess_position, Position>(entry.position) };
        let mv = Move::from_raw(entry.r#move).ok_or(CHESS_ERR_INVALID_MOVE)?;
        let entry = TrainingEntry { position, mv, score: entry.score, ply: entry.ply, result: entry.result };
        match writer.output.as_mut().ok_or(CHESS_ERR_INVALID_ARGUMENT)? {
            Output::Binpack(out) => out.write(&entry).map_err(|e| e.kind.code())?,
            Output::Plain(out) => {
                entry.check().map_err(|kind| kind.code())?;
                write!(out, "{entry}").map_err(|_| CHESS_ERR_IO)?;
            }
        }
        Ok(())
    })
}

/// Writes what the writer still holds and closes the file; later writes are refused. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_IO`; a second call does nothing.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_writer_finish(writer: *mut chess_binpack_writer) -> chess_error {
    guard_code(|| {
        // SAFETY: `writer` is NULL or a live writer used by no one else (the C contract).
        let writer = unsafe { writer.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        match writer.output.take() {
            None => Ok(()),
            Some(Output::Binpack(out)) => out.finish().map(drop).map_err(|e| e.kind.code()),
            Some(Output::Plain(mut out)) => out.flush().map_err(|_| CHESS_ERR_IO),
        }
    })
}

/// Releases a writer, finishing it first if `chess_binpack_writer_finish` was not called (an
/// error is then lost). NULL is accepted and ignored.
#[no_mangle]
pub unsafe extern "C" fn chess_binpack_writer_free(writer: *mut chess_binpack_writer) {
    // SAFETY: `writer` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(writer) }
}
