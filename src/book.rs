//! Polyglot opening books: reading, looking positions up, choosing a move, building a book from
//! games, merging, writing.

use std::ffi::c_char;
use std::fmt::Write as _;

use super::error::*;
use super::fen::c_path;
use super::game::{chess_game, chess_result, record_ref, CHESS_RESULT_BLACK_WINS, CHESS_RESULT_DRAW};
use super::game::{CHESS_RESULT_ONGOING, CHESS_RESULT_WHITE_WINS};
use super::moves::chess_move;
use super::pgn::{CutText, CHESS_PGN_MESSAGE_MAX};
use super::position::{chess_position, position_ref};
use super::util::{
    box_or_oom, c_bytes, c_slice, fill_array, free_handle, guard, guard_code, versioned, versioned_ref, Out, Versioned,
};
use chesscore_core::polyglot::{
    Book, BookBuilder, BookEntry, BookError, BookMove, BuildOptions, Choice, LookupOptions,
};
use chesscore_core::{zobrist, Color, Move, Outcome};

/// A Polyglot opening book (opaque, read-only once made): a file read into memory
/// (`chess_book_open`), bytes copied from a buffer (`chess_book_from_buffer`), a built book
/// (`chess_book_builder_finish`) or a merged one (`chess_book_merge`). Release it with
/// `chess_book_free`. Any number of threads may look positions up in one book at once.
pub struct chess_book {
    book: Book,
}

/// A book entry of a position: the legal move it names (in the library's encoding, castling as
/// the king taking its own rook), its weight and its learn value.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct chess_book_entry {
    /// The legal move.
    pub r#move: chess_move,
    /// Its weight (a higher weight, a better or more often played move).
    pub weight: u16,
    /// Its learn value (kept, not interpreted).
    pub learn: u32,
}

/// An entry as the book stores it (`chess_book_entry_at`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct chess_book_raw_entry {
    /// The Polyglot key of the position (`chess_position_zobrist`).
    pub key: u64,
    /// The move as stored: bits 0-5 destination, 6-11 origin, 12-14 promotion (0 none, 1
    /// knight, 2 bishop, 3 rook, 4 queen); castling as the king taking its own rook. Not a
    /// `chess_move`.
    pub raw_move: u16,
    /// The weight.
    pub weight: u16,
    /// The learn value.
    pub learn: u32,
}

/// Room for the message of `chess_book_error_info`, NUL included.
pub const CHESS_BOOK_MESSAGE_MAX: usize = 256;

const _: () = assert!(CHESS_BOOK_MESSAGE_MAX == CHESS_PGN_MESSAGE_MAX);

/// Why a book could not be read, as `chess_book_open_with` and `chess_book_from_buffer_with`
/// fill it in (on success too). The caller sets `size` to `sizeof(chess_book_error_info)`;
/// fields added in later versions are written only when `size` covers them.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_book_error_info {
    /// `sizeof(chess_book_error_info)`, set by the caller.
    pub size: usize,
    /// The code the call returned (`CHESS_OK` on success).
    pub code: chess_error,
    /// The entry at fault, from 0: the one out of key order (`CHESS_ERR_BOOK_UNSORTED`) or the
    /// one cut short (`CHESS_ERR_BOOK_LENGTH`); 0 otherwise.
    pub entry: u64,
    /// The message, such as `entry 5 (at byte offset 80) has key ..., smaller than key ... of
    /// entry 4: the entries are not sorted by key`; empty on success. UTF-8, NUL-terminated.
    pub message: [c_char; CHESS_BOOK_MESSAGE_MAX],
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_book_error_info {}

/// Flag of `chess_book_lookup_options`: leave out entries whose weight is below `min_weight`
/// (without it the minimum is 1, so entries of weight 0 are left out).
pub const CHESS_BOOK_LOOKUP_MIN_WEIGHT: u32 = 1;

/// Options of `chess_book_lookup_with` and `chess_book_pick_with`. The caller sets `size` to
/// `sizeof(chess_book_lookup_options)`; zero fields are the defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_book_lookup_options {
    /// `sizeof(chess_book_lookup_options)`, set by the caller.
    pub size: usize,
    /// `CHESS_BOOK_LOOKUP_MIN_WEIGHT`, or 0.
    pub flags: u32,
    /// With `CHESS_BOOK_LOOKUP_MIN_WEIGHT`: the lowest weight kept (0 keeps every entry).
    pub min_weight: u16,
    /// Moves left out (`exclude_count` of them; NULL when `exclude_count` is 0).
    pub exclude: *const chess_move,
    /// The number of moves at `exclude`.
    pub exclude_count: usize,
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_book_lookup_options {}

/// How `chess_book_pick` chooses among a position's entries.
pub type chess_book_choice = u8;
/// At random, each entry with a chance proportional to its weight.
pub const CHESS_BOOK_PICK_WEIGHTED: chess_book_choice = 0;
/// At random, every entry alike.
pub const CHESS_BOOK_PICK_UNIFORM: chess_book_choice = 1;
/// The highest weight; the first in file order among equal weights.
pub const CHESS_BOOK_PICK_BEST: chess_book_choice = 2;

/// Flag of `chess_book_build_options`: count White's moves only.
pub const CHESS_BOOK_BUILD_ONLY_WHITE: u32 = 1;
/// Flag of `chess_book_build_options`: count Black's moves only.
pub const CHESS_BOOK_BUILD_ONLY_BLACK: u32 = 2;
/// Flag of `chess_book_build_options`: every entry gets weight 1 instead of its score.
pub const CHESS_BOOK_BUILD_UNIFORM: u32 = 4;
/// Flag of `chess_book_build_options`: count Chess960 games too (skipped otherwise).
pub const CHESS_BOOK_BUILD_CHESS960: u32 = 8;

/// The rules of a `chess_book_builder` (see docs/books.md). The caller sets
/// `size` to `sizeof(chess_book_build_options)`; zero fields are the defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_book_build_options {
    /// `sizeof(chess_book_build_options)`, set by the caller.
    pub size: usize,
    /// `CHESS_BOOK_BUILD_ONLY_WHITE` or `_ONLY_BLACK`, `_UNIFORM`, `_CHESS960`, or 0.
    pub flags: u32,
    /// Only the first this many plies of each game count (0: the default, 40).
    pub max_ply: u32,
    /// Moves played in fewer games are left out (0: the default, 1).
    pub min_games: u64,
    /// Moves scoring under this percentage (0 to 100) for the side that played them are left
    /// out (default 0).
    pub min_score: u32,
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_book_build_options {}

/// A book being built from games (opaque): `chess_book_builder_new`, games added with
/// `chess_book_builder_add_pgn_file` and `chess_book_builder_add_game`, the book made with
/// `chess_book_builder_finish`, released with `chess_book_builder_free`. Its memory grows with
/// the distinct (position, move) pairs counted, not with the games read.
pub struct chess_book_builder {
    builder: BookBuilder,
}

/// Fills `info` (when asked for) with the outcome of reading a book.
fn report(info: Option<&mut chess_book_error_info>, result: &Result<Book, BookError>) -> Result<(), chess_error> {
    let Some(info) = info else { return Ok(()) };
    let mut message = CutText { bytes: [0; CHESS_BOOK_MESSAGE_MAX], len: 0 };
    let (code, entry) = match result {
        Ok(_) => (CHESS_OK, 0),
        Err(error) => {
            write!(message, "{error}").map_err(|_| CHESS_ERR_INTERNAL)?;
            let entry = match error {
                BookError::Unsorted { entry, .. } => *entry,
                BookError::Length { len } => len / 16,
                _ => 0,
            };
            (error.code(), entry)
        }
    };
    (info.code, info.entry) = (code, entry);
    for (to, &from) in info.message.iter_mut().zip(&message.bytes) {
        *to = from as c_char;
    }
    Ok(())
}

/// Hands `book` to `*out`, or its error to the caller, reporting either in `info`.
fn hand_out(
    result: Result<Book, BookError>,
    info: Option<&mut chess_book_error_info>,
    out: Out<*mut chess_book>,
) -> Result<(), chess_error> {
    report(info, &result)?;
    let book = result.map_err(|e| e.code())?;
    out.write(box_or_oom(chess_book { book })?);
    Ok(())
}

/// Opens the book file at `path` (bytes as the system takes them), reading it into memory and
/// checking it (see `chess_book_open_with`). The book is a copy: a file changed, cut short or
/// replaced while the book is open changes nothing for it. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_FILE_NOT_FOUND`, `CHESS_ERR_IO` (also a directory, a
/// FIFO or a device, refused at once),
/// `CHESS_ERR_INVALID_TEXT` (a path this system cannot name), `CHESS_ERR_BOOK_EMPTY`,
/// `CHESS_ERR_BOOK_LENGTH`, `CHESS_ERR_BOOK_UNSORTED`, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_book_open(path: *const c_char, out: *mut *mut chess_book) -> chess_error {
    // SAFETY: the same contract, with no info.
    unsafe { chess_book_open_with(path, out, std::ptr::null_mut()) }
}

/// `chess_book_open`, describing the outcome in `info` (optional; its `size` set by the caller,
/// `CHESS_ERR_INVALID_ARGUMENT` when smaller than this version's struct): the code, the entry
/// at fault and a message naming it.
#[no_mangle]
pub unsafe extern "C" fn chess_book_open_with(
    path: *const c_char,
    out: *mut *mut chess_book,
    info: *mut chess_book_error_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let info = unsafe { versioned(info) }?;
        // SAFETY: `path` is NULL or NUL-terminated (the C contract).
        let path = c_path(unsafe { c_bytes(path) }?)?;
        hand_out(Book::open(path), info, out)
    })
}

/// Hands to `*out` a book of the `len` bytes at `data` (a whole book file's contents), copied,
/// so the caller may free its buffer when this returns. Errors: `CHESS_ERR_NULL_POINTER` (also
/// `data` NULL with `len` > 0), `CHESS_ERR_BOOK_EMPTY`, `CHESS_ERR_BOOK_LENGTH`,
/// `CHESS_ERR_BOOK_UNSORTED`, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_book_from_buffer(data: *const u8, len: usize, out: *mut *mut chess_book) -> chess_error {
    // SAFETY: the same contract, with no info.
    unsafe { chess_book_from_buffer_with(data, len, out, std::ptr::null_mut()) }
}

/// `chess_book_from_buffer`, describing the outcome in `info` as `chess_book_open_with` does.
#[no_mangle]
pub unsafe extern "C" fn chess_book_from_buffer_with(
    data: *const u8,
    len: usize,
    out: *mut *mut chess_book,
    info: *mut chess_book_error_info,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `info` is NULL or valid for its `size` bytes (the C contract).
        let info = unsafe { versioned(info) }?;
        // SAFETY: `data` is NULL or valid for `len` bytes of reads (the C contract).
        let bytes = unsafe { c_slice(data, len) }?;
        hand_out(
            chesscore_core::fallible::try_to_vec(bytes).map_err(BookError::from).and_then(Book::from_bytes),
            info,
            out,
        )
    })
}

/// Releases a book. NULL is accepted and ignored.
#[no_mangle]
pub unsafe extern "C" fn chess_book_free(book: *mut chess_book) {
    // SAFETY: `book` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(book) }
}

/// The entry of `entry` for C.
fn entry_ret(entry: BookEntry) -> chess_book_entry {
    chess_book_entry { r#move: entry.mv.raw(), weight: entry.weight, learn: entry.learn }
}

/// The lookup options of `options` (NULL: the defaults).
///
/// # Safety
/// `options` is NULL or valid for reads, and its `exclude` array for `exclude_count` moves.
unsafe fn lookup_options<'a>(options: *const chess_book_lookup_options) -> Result<LookupOptions<'a>, chess_error> {
    // SAFETY: this function's contract.
    let options = unsafe { versioned_ref(options) }?.ok_or(CHESS_ERR_NULL_POINTER)?;
    if options.flags & !CHESS_BOOK_LOOKUP_MIN_WEIGHT != 0 {
        return Err(CHESS_ERR_INVALID_ARGUMENT);
    }
    let exclude: &[Move] = match (options.exclude.is_null(), options.exclude_count) {
        (_, 0) => &[],
        (true, _) => return Err(CHESS_ERR_NULL_POINTER),
        // SAFETY: `exclude` holds `n` moves (this function's contract), and `Move` is a
        // transparent `u16`, as `chess_move` is.
        (false, n) => unsafe { std::slice::from_raw_parts(options.exclude.cast::<Move>(), n) },
    };
    let min_weight = if options.flags & CHESS_BOOK_LOOKUP_MIN_WEIGHT != 0 { options.min_weight } else { 1 };
    Ok(LookupOptions { min_weight, exclude })
}

/// Writes up to `cap` entries of `pos` to `out` and returns how many the position has, as
/// `chess_legal_moves` does (`out` may be NULL when `cap` is 0): in file order, each move
/// converted to the legal move it names (castling as the library encodes it, so that
/// `chess_move_to_uci` writes `e1g1` and `chess_move_to_uci_with` `e1h1`), entries whose move is
/// not legal in `pos` left out, and entries of weight 0 left out. Returns 0 for a NULL book or
/// position, or a NULL `out` with `cap` > 0. Does not allocate.
#[no_mangle]
pub unsafe extern "C" fn chess_book_lookup(
    book: *const chess_book,
    pos: *const chess_position,
    out: *mut chess_book_entry,
    cap: usize,
) -> usize {
    // SAFETY: `pos` is NULL or a valid position (the C contract). `book` is NULL or a live book (the C contract).
    guard(0, || match (unsafe { book.as_ref() }, unsafe { position_ref(pos) }) {
        // SAFETY: `out` is NULL or valid for `cap` writes (the C contract).
        (Some(book), Some(pos)) => unsafe { fill_array(book.book.lookup(pos).map(entry_ret), out, cap) },
        _ => 0,
    })
}

/// `chess_book_lookup` with `options` (see `chess_book_lookup_options`): the lowest weight
/// kept, moves left out. Returns 0 also for NULL options, a `size` smaller than this version's
/// struct, an unknown flag, or a NULL `exclude` with `exclude_count` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_book_lookup_with(
    book: *const chess_book,
    pos: *const chess_position,
    options: *const chess_book_lookup_options,
    out: *mut chess_book_entry,
    cap: usize,
) -> usize {
    // SAFETY: `book` is NULL or a live book, `pos` NULL or a valid position, `options` NULL or
    // valid for its `size` bytes with its `exclude` holding its count (the C contract).
    guard(0, || match (unsafe { book.as_ref() }, unsafe { position_ref(pos) }, unsafe { lookup_options(options) }) {
        (Some(book), Some(pos), Ok(options)) => {
            // SAFETY: `out` is NULL or valid for `cap` writes (the C contract).
            unsafe { fill_array(book.book.lookup_with(pos, options).map(entry_ret), out, cap) }
        }
        _ => 0,
    })
}

/// Chooses one of `pos`'s entries (as `chess_book_lookup` finds them) into `*out`: by weight
/// (`CHESS_BOOK_PICK_WEIGHTED`: an entry's chance is its share of the weights), uniformly
/// (`CHESS_BOOK_PICK_UNIFORM`) or the best (`CHESS_BOOK_PICK_BEST`: the highest weight, the
/// first in the file among equal ones). `random` is any 64-bit number the caller drew from its
/// own generator: the same number gives the same entry. Returns `CHESS_OK`, or `CHESS_END` when
/// the position has no entry (for `CHESS_BOOK_PICK_WEIGHTED`, none of positive weight). Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (an unknown choice).
#[no_mangle]
pub unsafe extern "C" fn chess_book_pick(
    book: *const chess_book,
    pos: *const chess_position,
    choice: chess_book_choice,
    random: u64,
    out: *mut chess_book_entry,
) -> chess_error {
    let defaults = chess_book_lookup_options {
        size: size_of::<chess_book_lookup_options>(),
        flags: 0,
        min_weight: 0,
        exclude: std::ptr::null(),
        exclude_count: 0,
    };
    // SAFETY: the same contract, with the default options.
    unsafe { chess_book_pick_with(book, pos, &defaults, choice, random, out) }
}

/// `chess_book_pick` among the entries `chess_book_lookup_with` finds with `options`. Errors as
/// `chess_book_pick`, and `CHESS_ERR_INVALID_ARGUMENT` for options it refuses.
#[no_mangle]
pub unsafe extern "C" fn chess_book_pick_with(
    book: *const chess_book,
    pos: *const chess_position,
    options: *const chess_book_lookup_options,
    choice: chess_book_choice,
    random: u64,
    out: *mut chess_book_entry,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `book` is NULL or a live book (the C contract).
        let book = unsafe { book.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        // SAFETY: `options` is NULL or valid for its `size` bytes, its `exclude` holding its count (the C contract).
        let options = unsafe { lookup_options(options) }?;
        let choice = match choice {
            CHESS_BOOK_PICK_WEIGHTED => Choice::Weighted,
            CHESS_BOOK_PICK_UNIFORM => Choice::Uniform,
            CHESS_BOOK_PICK_BEST => Choice::Best,
            _ => return Err(CHESS_ERR_INVALID_ARGUMENT),
        };
        let entry = book.book.lookup_with(pos, options).choose(choice, random).ok_or(CHESS_END)?;
        out.write(entry_ret(entry));
        Ok(())
    })
}

/// The number of entries of the book; 0 for NULL.
#[no_mangle]
pub unsafe extern "C" fn chess_book_entry_count(book: *const chess_book) -> usize {
    // SAFETY: `book` is NULL or a live book (the C contract).
    guard(0, || unsafe { book.as_ref() }.map_or(0, |book| book.book.len()))
}

/// The entries with Polyglot key `key`, a binary search: `*first` the index of the first (when
/// there is none, of the first entry with a greater key, or `chess_book_entry_count`), `*count`
/// their number. Errors: `CHESS_ERR_NULL_POINTER` (`book`, `first` or `count` NULL).
#[no_mangle]
pub unsafe extern "C" fn chess_book_key_range(
    book: *const chess_book,
    key: u64,
    first: *mut usize,
    count: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `book` is NULL or a live book (the C contract).
        let book = unsafe { book.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `first` and `count` are NULL or valid for a write (the C contract).
        let (first, count) = unsafe { (Out::new(first)?, Out::new(count)?) };
        let range = book.book.key_range(key);
        first.write(range.start);
        count.write(range.len());
        Ok(())
    })
}

/// Entry `index` (from 0, in file order) as stored, into `*out`. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (`index` not below
/// `chess_book_entry_count`).
#[no_mangle]
pub unsafe extern "C" fn chess_book_entry_at(
    book: *const chess_book,
    index: usize,
    out: *mut chess_book_raw_entry,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `book` is NULL or a live book (the C contract).
        let book = unsafe { book.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let entry = book.book.entry(index).ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        out.write(chess_book_raw_entry {
            key: entry.key,
            raw_move: entry.mv.raw(),
            weight: entry.weight,
            learn: entry.learn,
        });
        Ok(())
    })
}

/// `mv` as a book stores it (see `chess_book_raw_entry`): castling as the king taking its own
/// rook, promotions 1 to 4. `CHESS_MOVE_NONE` gives 0.
#[no_mangle]
pub extern "C" fn chess_book_raw_move(mv: chess_move) -> u16 {
    guard(0, || BookMove::from_move(Move::from_bits(mv)).raw())
}

/// The 781 constants of the Polyglot format (static, read only), which
/// `chess_position_zobrist` hashes with: 768 piece-square keys (index
/// `64 * (2 * (kind - 1) + white) + square`, `kind` a `chess_piece_kind`, `white` 1 for a white
/// piece), 4 castling keys (White king side, White queen side, Black king side, Black queen
/// side), 8 en passant keys by file, then the key of White to move.
#[no_mangle]
pub extern "C" fn chess_book_polyglot_random() -> *const u64 {
    let keys = zobrist::polyglot_random().as_ptr();
    guard(keys, || keys)
}

/// The legal move of `pos` that the stored move `raw` names, into `*out`, as lookups convert
/// them (castling stored as the king taking its rook, or in standard chess as its two-square
/// move). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_ILLEGAL_MOVE` (no legal move of `pos`).
#[no_mangle]
pub unsafe extern "C" fn chess_book_move_from_raw(
    pos: *const chess_position,
    raw: u16,
    out: *mut chess_move,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let mv = BookMove::from_raw(raw).to_move(pos).ok_or(CHESS_ERR_ILLEGAL_MOVE)?;
        out.write(mv.raw());
        Ok(())
    })
}

/// Writes the book to the file at `path`, replacing it. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_FILE_NOT_FOUND` (no such directory), `CHESS_ERR_IO`, `CHESS_ERR_INVALID_TEXT`.
#[no_mangle]
pub unsafe extern "C" fn chess_book_write_file(book: *const chess_book, path: *const c_char) -> chess_error {
    guard_code(|| {
        // SAFETY: `book` is NULL or a live book (the C contract).
        let book = unsafe { book.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `path` is NULL or NUL-terminated (the C contract).
        let path = c_path(unsafe { c_bytes(path) }?)?;
        book.book.save(path).map_err(|e| BookError::Io(e).code())
    })
}

/// Hands to `*out` the union of books `a` and `b`: a (position, move) pair present in both gets
/// the sum of its weights (scaled per position when the largest exceeds 65535, as in building)
/// and the learn value of `a`'s entry. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_book_merge(
    a: *const chess_book,
    b: *const chess_book,
    out: *mut *mut chess_book,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `a` and `b` are NULL or live books (the C contract).
        let (a, b) = (
            unsafe { a.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?,
            unsafe { b.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?,
        );
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let entries = chesscore_core::polyglot::merge(&a.book, &b.book).map_err(|e| e.code())?;
        let book = Book::from_entries(&entries).map_err(|e| e.code())?;
        out.write(box_or_oom(chess_book { book })?);
        Ok(())
    })
}

/// Hands to `*out` a builder following `options` (NULL: the defaults). Errors:
/// `CHESS_ERR_NULL_POINTER` (`out`), `CHESS_ERR_INVALID_ARGUMENT` (a `size` smaller than this
/// version's struct, an unknown flag, both `_ONLY_WHITE` and `_ONLY_BLACK`, a `min_score`
/// above 100), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_book_builder_new(
    options: *const chess_book_build_options,
    out: *mut *mut chess_book_builder,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let mut rules = BuildOptions::default();
        // SAFETY: `options` is NULL or valid for its `size` bytes (the C contract).
        if let Some(options) = unsafe { versioned_ref(options) }? {
            let known = CHESS_BOOK_BUILD_ONLY_WHITE
                | CHESS_BOOK_BUILD_ONLY_BLACK
                | CHESS_BOOK_BUILD_UNIFORM
                | CHESS_BOOK_BUILD_CHESS960;
            let both = CHESS_BOOK_BUILD_ONLY_WHITE | CHESS_BOOK_BUILD_ONLY_BLACK;
            if options.flags & !known != 0 || options.flags & both == both || options.min_score > 100 {
                return Err(CHESS_ERR_INVALID_ARGUMENT);
            }
            rules.only = match options.flags & both {
                CHESS_BOOK_BUILD_ONLY_WHITE => Some(Color::White),
                CHESS_BOOK_BUILD_ONLY_BLACK => Some(Color::Black),
                _ => None,
            };
            rules.uniform = options.flags & CHESS_BOOK_BUILD_UNIFORM != 0;
            rules.chess960 = options.flags & CHESS_BOOK_BUILD_CHESS960 != 0;
            if options.max_ply != 0 {
                rules.max_ply = options.max_ply;
            }
            rules.min_games = options.min_games.max(1);
            rules.min_score = options.min_score;
        }
        out.write(box_or_oom(chess_book_builder { builder: BookBuilder::new(rules) })?);
        Ok(())
    })
}

/// Counts every game of the PGN file at `path`, read as it streams (a broken game counts up to
/// its problem). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_FILE_NOT_FOUND`, `CHESS_ERR_IO`,
/// `CHESS_ERR_INVALID_TEXT`, `CHESS_ERR_OUT_OF_MEMORY`; the games read before an error stay
/// counted.
#[no_mangle]
pub unsafe extern "C" fn chess_book_builder_add_pgn_file(
    builder: *mut chess_book_builder,
    path: *const c_char,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `builder` is NULL or a live builder no other thread uses meanwhile (the C contract).
        let builder = unsafe { builder.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `path` is NULL or NUL-terminated (the C contract).
        let path = c_path(unsafe { c_bytes(path) }?)?;
        let mut reader = chesscore_core::pgn::PgnReader::open(path).map_err(|e| BookError::Io(e).code())?;
        builder.builder.add_pgn(&mut reader).map(|_| ()).map_err(|e| e.code())
    })
}

/// Counts the main line of `game` as a game with `result` (`CHESS_RESULT_ONGOING` counts
/// nothing). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (an unknown
/// result), `CHESS_ERR_OUT_OF_MEMORY` (nothing counted).
#[no_mangle]
pub unsafe extern "C" fn chess_book_builder_add_game(
    builder: *mut chess_book_builder,
    game: *const chess_game,
    result: chess_result,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `builder` is NULL or a live builder no other thread uses meanwhile (the C contract).
        let builder = unsafe { builder.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `game` is NULL or a live game (the C contract).
        let record = unsafe { record_ref(game) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        let result = match result {
            CHESS_RESULT_ONGOING => Outcome::Ongoing,
            CHESS_RESULT_WHITE_WINS => Outcome::WhiteWins,
            CHESS_RESULT_BLACK_WINS => Outcome::BlackWins,
            CHESS_RESULT_DRAW => Outcome::Draw,
            _ => return Err(CHESS_ERR_INVALID_ARGUMENT),
        };
        let record = record.chess()?;
        builder.builder.add_game(record.start(), record.moves(), result).map_err(|e| e.code())
    })
}

/// Hands to `*out` the book of the games counted so far (which may have no entry); the builder
/// stays as it was. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_book_builder_finish(
    builder: *const chess_book_builder,
    out: *mut *mut chess_book,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `builder` is NULL or a live builder (the C contract).
        let builder = unsafe { builder.as_ref() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let book = builder.builder.build().map_err(|e| e.code())?;
        out.write(box_or_oom(chess_book { book })?);
        Ok(())
    })
}

/// Releases a builder. NULL is accepted and ignored.
#[no_mangle]
pub unsafe extern "C" fn chess_book_builder_free(builder: *mut chess_book_builder) {
    // SAFETY: `builder` is NULL or a handle of this library's, handed back once (the C contract).
    unsafe { free_handle(builder) }
}
