//! Reading a book: its bytes in memory, checked once, then searched by key.

use std::fmt;
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::Path;

use crate::board::moves::{Move, MoveList};
use crate::files;
use crate::position::Position;

use super::{choose, BookEntry, BookError, Choice, RawEntry, ENTRY_SIZE};

/// A Polyglot book (see the [module documentation](super)), read-only: a book file read into
/// memory ([`Book::open`]) or bytes in memory ([`Book::from_bytes`]), checked when the book is
/// made: the length must be a positive multiple of 16 and the keys in order. A lookup is a
/// binary search. `Book` is `Send` and `Sync`.
///
/// A book holds its own copy of the bytes, not a mapping of the file: a file changed, cut
/// short or replaced while a book of it is open changes nothing for that book, which goes on
/// giving what the file held when it was opened (a mapped file cut short would kill its
/// reader with `SIGBUS`).
///
/// ```
/// use chesscore_core::polyglot::{Book, BookMove, Choice, RawEntry};
/// use chesscore_core::{Position, Uci};
///
/// // Two replies to 1. e4 (a real book comes from `Book::open("book.bin")`).
/// let pos = Position::startpos().make_move("e2e4".parse::<Uci>()?.to_move(&Position::startpos())?);
/// let entry = |uci: &str, weight| -> Result<RawEntry, Box<dyn std::error::Error>> {
///     let mv = BookMove::from_move(uci.parse::<Uci>()?.to_move(&pos)?);
///     Ok(RawEntry { key: pos.zobrist(), mv, weight, learn: 0 })
/// };
/// let book = Book::from_entries(&[entry("c7c5", 30)?, entry("e7e5", 20)?])?;
/// let bytes = book.as_bytes().to_vec(); // what `book.save(path)` writes
/// let book = Book::from_bytes(bytes)?;
/// let replies: Vec<String> = book.lookup(&pos).map(|e| format!("{} {}", Uci::from_move(&pos, e.mv), e.weight)).collect();
/// assert_eq!(replies, ["c7c5 30", "e7e5 20"]);
/// let best = book.pick(&pos, Choice::Best, 0).expect("an entry");
/// assert_eq!(Uci::from_move(&pos, best.mv).to_string(), "c7c5");
/// assert!(book.lookup(&Position::startpos()).next().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Book {
    bytes: Vec<u8>,
}

/// How [`Book::lookup_with`] filters a position's entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LookupOptions<'a> {
    /// Entries with a lower weight are left out (default 1, so that weight 0 means "never
    /// play": 0 keeps every entry).
    pub min_weight: u16,
    /// Moves left out.
    pub exclude: &'a [Move],
}

impl Default for LookupOptions<'_> {
    fn default() -> Self {
        LookupOptions { min_weight: 1, exclude: &[] }
    }
}

impl Book {
    /// Reads the book file at `path` into memory and checks it. What is not a regular file (a
    /// FIFO, a device, a directory) is refused at once with [`BookError::NotAFile`], without
    /// waiting on a FIFO for a writer.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let (file, metadata) = files::open_for_reading(path)?;
        if !metadata.is_file() {
            return Err(BookError::NotAFile);
        }
        check_length(metadata.len())?;
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(metadata.len() as usize)?;
        // No more than the length checked: a file growing meanwhile is read as it was.
        file.take(metadata.len()).read_to_end(&mut bytes)?;
        // A file cut short meanwhile is checked as read.
        Book::from_bytes(bytes)
    }

    /// A book of `bytes` (a whole book file's contents), checked.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Book, BookError> {
        check_length(bytes.len() as u64)?;
        Book::checked(bytes)
    }

    /// A book holding `entries`, which must be in key order (as [`BookBuilder`] and [`merge`]
    /// give them). Unlike a book file, it may be empty (a book built from games none of which
    /// counted).
    ///
    /// [`BookBuilder`]: super::BookBuilder
    /// [`merge`]: super::merge
    pub fn from_entries(entries: &[RawEntry]) -> Result<Book, BookError> {
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(entries.len() * ENTRY_SIZE)?;
        for entry in entries {
            bytes.extend_from_slice(&entry.to_bytes());
        }
        Book::checked(bytes)
    }

    fn checked(bytes: Vec<u8>) -> Result<Book, BookError> {
        let book = Book { bytes };
        let mut previous = 0;
        for (i, entry) in book.entries().enumerate() {
            if entry.key < previous {
                return Err(BookError::Unsorted { entry: i as u64, key: entry.key, previous });
            }
            previous = entry.key;
        }
        Ok(book)
    }

    /// The book's bytes, as a file holds them.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Writes the book's bytes to `out`.
    pub fn write_to(&self, mut out: impl Write) -> io::Result<()> {
        out.write_all(self.as_bytes())
    }

    /// Writes the book to the file at `path`, replacing it whole: the bytes go to a temporary
    /// file in the same directory, renamed over `path` at the end (see
    /// [`Replacement`](files::Replacement)), so that readers of the old file are not
    /// disturbed and a failed write leaves it as it was.
    pub fn save(&self, path: impl AsRef<Path>) -> io::Result<()> {
        let mut file = files::Replacement::create(path.as_ref(), &[])?;
        self.write_to(&mut file)?;
        file.commit()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.as_bytes().len() / ENTRY_SIZE
    }

    /// True when the book has no entry (only a book made by [`Book::from_entries`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `index` (from 0), as stored.
    pub fn entry(&self, index: usize) -> Option<RawEntry> {
        let bytes = self.as_bytes().get(index * ENTRY_SIZE..(index + 1) * ENTRY_SIZE)?;
        bytes.try_into().ok().map(RawEntry::from_bytes)
    }

    /// Every entry in file order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = RawEntry> + Clone + '_ {
        self.as_bytes().chunks_exact(ENTRY_SIZE).map(|bytes| RawEntry::from_bytes(bytes.try_into().unwrap_or_default()))
    }

    /// The key of entry `index`, which exists.
    fn key_at(&self, index: usize) -> u64 {
        let bytes = &self.as_bytes()[index * ENTRY_SIZE..index * ENTRY_SIZE + 8];
        u64::from_be_bytes(bytes.try_into().unwrap_or_default())
    }

    /// The indices of the entries with `key` (a binary search).
    pub fn key_range(&self, key: u64) -> Range<usize> {
        let first_not_below = |key: u64| {
            let (mut low, mut high) = (0, self.len());
            while low < high {
                let mid = low + (high - low) / 2;
                if self.key_at(mid) < key {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            low
        };
        let start = first_not_below(key);
        let mut end = start;
        while end < self.len() && self.key_at(end) == key {
            end += 1;
        }
        start..end
    }

    /// The entries of `pos` with the default options: in file order, each move converted to the
    /// legal move it names (entries whose move is not legal are left out), weight 0 left out.
    pub fn lookup(&self, pos: &Position) -> Lookup<'_> {
        self.lookup_with(pos, LookupOptions::default())
    }

    /// The entries of `pos` that `options` keeps, in file order, each move converted to the legal
    /// move it names; entries whose move is not legal in `pos` are left out.
    pub fn lookup_with<'a>(&'a self, pos: &Position, options: LookupOptions<'a>) -> Lookup<'a> {
        let range = self.key_range(pos.zobrist());
        // Most positions have no entry: moves are generated only for those that have.
        let legal = if range.is_empty() { MoveList::new() } else { pos.legal_moves() };
        Lookup { book: self, range, legal, chess960: pos.is_chess960(), options }
    }

    /// One of `pos`'s entries (default options), chosen as `choice` says; `random` is any 64-bit
    /// number the caller drew (the same number gives the same entry; see
    /// [`random_from_seed`](super::random_from_seed)). `None` when the position has no entry
    /// (or, for [`Choice::Weighted`], none of positive weight).
    pub fn pick(&self, pos: &Position, choice: Choice, random: u64) -> Option<BookEntry> {
        self.lookup(pos).choose(choice, random)
    }
}

/// The size, not the bytes: a book may hold millions of entries.
impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book").field("entries", &self.len()).finish_non_exhaustive()
    }
}

/// The entries of one position, in file order, as [`Book::lookup`] finds them.
#[derive(Clone)]
pub struct Lookup<'a> {
    book: &'a Book,
    range: Range<usize>,
    legal: MoveList,
    chess960: bool,
    options: LookupOptions<'a>,
}

impl fmt::Debug for Lookup<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lookup").field("entries", &self.range).field("options", &self.options).finish_non_exhaustive()
    }
}

impl Lookup<'_> {
    /// One of the entries, chosen as `choice` says (see [`Book::pick`]).
    pub fn choose(self, choice: Choice, random: u64) -> Option<BookEntry> {
        choose(self, choice, random)
    }
}

impl Iterator for Lookup<'_> {
    type Item = BookEntry;

    fn next(&mut self) -> Option<BookEntry> {
        for index in self.range.by_ref() {
            let Some(entry) = self.book.entry(index) else { break };
            if entry.weight < self.options.min_weight {
                continue;
            }
            let Some(mv) = entry.mv.find_in(&self.legal, self.chess960) else { continue };
            if !self.options.exclude.contains(&mv) {
                return Some(BookEntry { mv, weight: entry.weight, learn: entry.learn });
            }
        }
        None
    }
}

/// A book's length must be a positive multiple of the entry size.
fn check_length(len: u64) -> Result<(), BookError> {
    match len {
        0 => Err(BookError::Empty),
        len if len % ENTRY_SIZE as u64 != 0 => Err(BookError::Length { len }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyglot::BookMove;

    fn entry(key: u64, raw: u16, weight: u16) -> RawEntry {
        RawEntry { key, mv: BookMove::from_raw(raw), weight, learn: 0 }
    }

    #[test]
    fn binary_search_finds_every_key() {
        let entries: Vec<RawEntry> =
            (0..100u64).flat_map(|k| (0..(k % 3) as u16).map(move |m| entry(k * 7, m, 1))).collect();
        let book = Book::from_entries(&entries).unwrap();
        for k in 0..100u64 {
            assert_eq!(book.key_range(k * 7).len() as u64, k % 3, "{k}");
            assert!(book.key_range(k * 7 + 1).is_empty());
        }
        assert_eq!(Book::from_bytes(book.as_bytes().to_vec()).unwrap().len(), entries.len());
    }

    #[test]
    fn malformed_books_are_refused() {
        assert!(matches!(Book::from_bytes(Vec::new()), Err(BookError::Empty)));
        assert!(matches!(Book::from_bytes(vec![0; 17]), Err(BookError::Length { len: 17 })));
        let mut bytes = entry(5, 1, 1).to_bytes().to_vec();
        bytes.extend(entry(4, 1, 1).to_bytes());
        let error = Book::from_bytes(bytes).unwrap_err();
        assert!(matches!(error, BookError::Unsorted { entry: 1, key: 4, previous: 5 }));
        assert_eq!(
            error.to_string(),
            "entry 1 (at byte offset 16) has key 0000000000000004, smaller than key 0000000000000005 of entry 0: \
             the entries are not sorted by key"
        );
        assert_eq!(
            BookError::Length { len: 33 }.to_string(),
            "the length, 33 bytes, is not a multiple of 16: entry 2 (at byte offset 32) is cut short"
        );
    }
}
