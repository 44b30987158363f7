//! The streaming reader: a tokenizer over a [`Source`], the replay of every move, the
//! callbacks of a [`Visitor`] and the recovery after a broken game.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::fen::{FenField, FenOptions, Repair};
use crate::game::Outcome;
use crate::moves::Move;
use crate::position::Position;
use crate::san::{SanError, SanMode, SanOptions};

use super::error::{Location, PgnError, PgnErrorKind};
use super::record::{GameRecord, RecordBuilder};
use super::source::{BytesSource, IoSource, Source};
use super::tags::is_tag_name_byte;
use crate::fallible::{try_box, try_push, try_string, try_to_vec};
use std::collections::TryReserveError;

/// The longest movetext token (move, move number, NAG or result) the reader accepts.
pub const MAX_TOKEN_LEN: usize = 255;

/// Bytes the tokenizer wants in view before it reads a token: a whole token and the byte
/// after it.
const LOOKAHEAD: usize = MAX_TOKEN_LEN + 2;

/// Limits and choices of a [`PgnReader`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReaderOptions {
    /// Longest tag pair line, in bytes (default 64 KiB).
    pub max_tag_len: usize,
    /// Longest comment, in bytes (default 1 MiB).
    pub max_comment_len: usize,
    /// Deepest nesting of variations (default 10,000).
    pub max_depth: usize,
    /// Replace invalid UTF-8 in tag values and comments with U+FFFD instead of rejecting the
    /// game (default false).
    pub lossy_utf8: bool,
    /// How moves are read (default [`SanMode::Lenient`]). Null moves (`--`) are always
    /// accepted.
    pub san_mode: SanMode,
    /// Read each game's tags and start position only: the movetext is skipped unread (its
    /// moves neither replayed nor checked, its comments not kept) up to the game's result
    /// (default false). A [`Visitor`] sees `begin_movetext` and `end_game`, nothing between.
    pub headers_only: bool,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            max_tag_len: 64 * 1024,
            max_comment_len: 1024 * 1024,
            max_depth: 10_000,
            lossy_utf8: false,
            san_mode: SanMode::Lenient,
            headers_only: false,
        }
    }
}

/// Whether the reader should go on with what a callback announced, or skip it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[must_use]
pub enum Flow {
    /// Read it.
    Continue,
    /// Skip it: scanned only for where it ends, its moves neither read nor checked.
    Skip,
}

/// Callbacks for the events of a game, in input order; see [`PgnReader::read_game`].
///
/// Every method but [`Visitor::end_game`] has a default that ignores the event. Variations
/// are skipped unless [`Visitor::begin_variation`] asks for them, so a visitor that only wants
/// the main line never sees variation moves.
pub trait Visitor {
    /// What [`Visitor::end_game`] makes of a game.
    type Output;

    /// A game begins: `game` is its number in the input, from 1 (broken games count). A
    /// visitor reused after a broken game resets its state here.
    fn begin_game(&mut self, game: u64) {
        let _ = game;
    }

    /// A tag pair, value unescaped (`\"` and `\\`). A repeated name comes again.
    fn tag(&mut self, name: &str, value: &str) {
        let _ = (name, value);
    }

    /// The tags are over. [`Flow::Skip`] skips the movetext: no start position is set up, no
    /// move read or checked, and [`Visitor::end_game`] follows.
    fn end_tags(&mut self) -> Flow {
        Flow::Continue
    }

    /// The movetext begins from `start` (from the `FEN` tag, or the standard position).
    fn begin_movetext(&mut self, start: &Position) {
        let _ = start;
    }

    /// A legal move (or null move): its SAN as written (move number and `!`/`?` suffix
    /// removed), the move, and the positions before and after it. [`Flow::Skip`] skips the
    /// rest of the movetext.
    fn san(&mut self, san: &str, mv: Move, before: &Position, after: &Position) -> Flow {
        let _ = (san, mv, before, after);
        Flow::Continue
    }

    /// A NAG (`$n`, or `!` = 1, `?` = 2, `!!` = 3, `??` = 4, `!?` = 5, `?!` = 6; also the
    /// symbols `=` 10, `∞` 13, `+=` 14, `=+` 15, `+/-` 16, `-/+` 17, `+-` 18, `-+` 19).
    fn nag(&mut self, nag: u8) {
        let _ = nag;
    }

    /// A comment, `{...}` or `;` to the end of the line, without its delimiters and without
    /// leading and trailing whitespace; CRLF inside is turned into LF.
    fn comment(&mut self, text: &str) {
        let _ = text;
    }

    /// A `(`: a variation replacing the last move read. [`Flow::Skip`] (the default) skips it
    /// up to its `)`; with [`Flow::Continue`] its moves come next, then
    /// [`Visitor::end_variation`].
    fn begin_variation(&mut self) -> Flow {
        Flow::Skip
    }

    /// The `)` of a variation the visitor read.
    fn end_variation(&mut self) {}

    /// The game is over: `result` is its movetext's result token, if it had one.
    fn end_game(&mut self, result: Option<Outcome>) -> Self::Output;
}

/// One line being read: the main line, or a variation.
#[derive(Clone, Copy)]
struct Line {
    /// The positions before and after the line's last move, `positions[current]` being the
    /// latter: a move writes the other slot, so each move copies one position, not two.
    positions: [Position; 2],
    current: usize,
    /// Plies from the game's start to the current position.
    ply: u32,
    /// True once the line has a move.
    has_move: bool,
    /// Where the `(` of a variation stands.
    opened: Location,
}

impl Line {
    fn new(start: Position, ply: u32, opened: Location) -> Line {
        Line { positions: [start; 2], current: 0, ply, has_move: false, opened }
    }

    /// The position before the last move (a variation starts from here).
    fn before(&self) -> &Position {
        &self.positions[self.current ^ 1]
    }

    /// Reads `san` in the current position.
    #[inline(always)]
    fn parse(&self, san: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        self.positions[self.current].parse_san_bytes(san, options)
    }

    /// Plays `mv`, just read from `san` and legal (or a null move), and tells the visitor.
    #[inline(always)]
    fn play<V: Visitor>(&mut self, visitor: &mut V, san: &str, mv: Move) -> Flow {
        let before = self.current;
        let after = before ^ 1;
        self.positions[after] = self.positions[before];
        if mv.is_null() {
            self.positions[after].play_null();
        } else {
            self.positions[after].play_unchecked(mv);
        }
        self.current = after;
        self.ply += 1;
        self.has_move = true;
        visitor.san(san, mv, &self.positions[before], &self.positions[after])
    }
}

/// How many bytes of `token` are a move number: `12.`, `12...` (possibly glued to the move),
/// or digits alone (a number without its dot; `0000` is the null move, though).
#[inline(always)]
fn move_number_len(token: &[u8]) -> usize {
    let mut digits = 0;
    while digits < token.len() && token[digits].is_ascii_digit() {
        digits += 1;
    }
    let mut dots = digits;
    while dots < token.len() && token[dots] == b'.' {
        dots += 1;
    }
    if digits > 0 && (dots > digits || (digits == token.len() && token != b"0000")) {
        dots
    } else {
        0
    }
}

/// `san` split into the move and the NAG of its `!`/`?` suffix; `None` when the marks are no
/// annotation (`!!!`).
#[inline(always)]
fn split_suffix(san: &[u8]) -> Option<(&[u8], Option<u8>)> {
    if !matches!(san, [.., b'!' | b'?']) {
        return Some((san, None));
    }
    let marks = san.iter().rev().take_while(|&&b| b == b'!' || b == b'?').count();
    let (body, marks) = san.split_at(san.len() - marks);
    Some((body, Some(suffix_nag(marks)?)))
}

/// How to get past the rest of a broken game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resync {
    /// The error left the input at the start of the next game.
    None,
    /// Skip to the end of the game: from inside the tag section, a comment or a `;` line, at
    /// a variation depth.
    Game { in_tags: bool, in_comment: bool, in_line: bool, depth: u32 },
    /// The input cannot be read on (its buffer could not grow): it ends here.
    Stop,
}

impl Resync {
    const MOVETEXT: Resync = Resync::Game { in_tags: false, in_comment: false, in_line: false, depth: 0 };

    fn at_depth(depth: usize) -> Resync {
        Resync::Game { in_tags: false, in_comment: false, in_line: false, depth: depth as u32 }
    }
}

/// What to do before reading the next game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    Nothing,
    Resync(Resync),
    /// An I/O error, or a buffer that could not grow, was reported: the input has ended, for
    /// good.
    Stop,
}

/// An error on its way to becoming a [`PgnError`].
struct Fail {
    kind: PgnErrorKind,
    at: Location,
    ply: u32,
    text: Vec<u8>,
    resync: Resync,
}

impl Fail {
    /// An error with a copy of `text`; [`PgnErrorKind::OutOfMemory`] (recovering as `resync`
    /// says all the same) when there is no memory for it.
    fn new(kind: PgnErrorKind, at: Location, ply: u32, text: &[u8], resync: Resync) -> Fail {
        // The error keeps 64 bytes of it; one more tells that it was cut.
        match try_to_vec(&text[..text.len().min(65)]) {
            Ok(text) => Fail { kind, at, ply, text, resync },
            Err(_) => Fail { kind: PgnErrorKind::OutOfMemory, at, ply, text: Vec::new(), resync },
        }
    }
}

/// How skipped movetext ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SkipEnd {
    /// A result token (at depth 0, or inside a skipped variation).
    Result(Outcome),
    /// The `)` closing a skipped variation.
    Closed,
    /// A `[`: the next game's tags (not consumed).
    NextGame,
    /// The end of the input.
    Eof,
}

/// Bytes that end a movetext token.
const fn delimiters() -> [bool; 256] {
    let mut table = [false; 256];
    let list = b" \t\r\n{}()[];$\"";
    let mut i = 0;
    while i < list.len() {
        table[list[i] as usize] = true;
        i += 1;
    }
    table
}

static DELIMITER: [bool; 256] = delimiters();

/// `bytes` as text, with a fast path for ASCII (most tags and comments, every move): the
/// library's check is a call per token, which shows at this rate.
#[inline(always)]
fn utf8(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

/// A tag value or comment as text: UTF-8 without NUL bytes (which C strings cannot hold, so a
/// value would come out cut short). With `lossy` (`ReaderOptions::lossy_utf8`) invalid bytes and
/// NULs become U+FFFD in `repaired` instead.
fn checked_text<'a>(raw: &'a [u8], lossy: bool, repaired: &'a mut String) -> Result<&'a str, PgnErrorKind> {
    match utf8(raw) {
        Some(text) if !raw.contains(&0) => Ok(text),
        _ if lossy => {
            repair_text(raw, repaired).map_err(|_| PgnErrorKind::OutOfMemory)?;
            Ok(repaired)
        }
        Some(_) => Err(PgnErrorKind::NulByte),
        None => Err(PgnErrorKind::InvalidUtf8),
    }
}

/// `String::from_utf8_lossy(raw)` with NULs replaced too, into `out`, in memory reserved
/// first (an error when there is none).
fn repair_text(raw: &[u8], out: &mut String) -> Result<(), TryReserveError> {
    // Run twice: to measure, then to write into memory reserved for exactly that.
    let emit = |put: &mut dyn FnMut(&str)| {
        for chunk in raw.utf8_chunks() {
            for (i, piece) in chunk.valid().split('\0').enumerate() {
                if i > 0 {
                    put("\u{fffd}");
                }
                put(piece);
            }
            if !chunk.invalid().is_empty() {
                put("\u{fffd}");
            }
        }
    };
    let mut length = 0;
    emit(&mut |piece| length += piece.len());
    out.clear();
    out.try_reserve(length)?;
    emit(&mut |piece| out.push_str(piece));
    Ok(())
}

/// The high bits of the bytes of `word` that are movetext delimiters other than blanks and
/// line ends (`{ } ( ) [ ] ; $ "`), plus possibly bytes after the first one (only the lowest
/// set bit is exact, which is enough to know whether there is any).
#[inline(always)]
fn delimiters_in(word: u64) -> u64 {
    // With bit 0x20 set, `[` and `{`, `]` and `}` coincide, and with bit 0x01 too, `(` and
    // `)`; the only other bytes that then match are control characters.
    let y = word | (ONES * 0x20);
    bytes_equal(y, b'{')
        | bytes_equal(y, b'}')
        | bytes_equal(y | ONES, b')')
        | bytes_equal(y, b';')
        | bytes_equal(y, b'$')
        | bytes_equal(y, b'"')
}

/// The index of the first byte of `hay` equal to `a` or `b`, eight bytes at a time: comments,
/// tag values and lines are searched this way.
#[inline]
fn find_either(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    let mut chunks = hay.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let found = bytes_equal(word, a) | bytes_equal(word, b);
        if found != 0 {
            return Some(offset + found.trailing_zeros() as usize / 8);
        }
        offset += 8;
    }
    chunks.remainder().iter().position(|&c| c == a || c == b).map(|i| offset + i)
}

/// The first `}` or line end of a comment.
#[inline]
fn find_comment_end(hay: &[u8]) -> Option<usize> {
    find_either(hay, b'}', b'\n')
}

/// The first `}`, line end or NUL of a comment, and whether the bytes before it are all ASCII:
/// one pass where the general code would take three. (A NUL stops it, for the general code to
/// report.)
#[inline(always)]
fn scan_short_comment(hay: &[u8]) -> Option<(usize, bool)> {
    let mut high = 0;
    let mut chunks = hay.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let found = bytes_equal(word, b'}') | bytes_equal(word, b'\n') | bytes_equal(word, 0);
        if found != 0 {
            // The high bits of the bytes before the first one found.
            let before = (found & found.wrapping_neg()).wrapping_sub(1) & HIGHS;
            return Some((offset + found.trailing_zeros() as usize / 8, high | (word & before) == 0));
        }
        high |= word & HIGHS;
        offset += 8;
    }
    let rest = chunks.remainder();
    let end = rest.iter().position(|&c| c == b'}' || c == b'\n' || c == 0)?;
    Some((offset + end, high == 0 && rest[..end].is_ascii()))
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` equal to `c`; the lowest one set marks the first such
/// byte (higher ones may be false alarms from the borrow, so only the lowest may be used).
#[inline(always)]
fn bytes_equal(word: u64, c: u8) -> u64 {
    let x = word ^ (ONES * u64::from(c));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The length of a blank-delimited token whose first byte is followed by the 8 bytes of
/// `next` (little endian), or 9 when none of them ends it. A token ends at the first byte
/// below 0x21 (a blank, a line end, or another control character); the other delimiters
/// (`{`, `(`, `$`...) are not looked for: a token that runs into one never reads as a move or
/// a move number, so the general code, which splits tokens exactly, gets it.
#[inline(always)]
fn short_token_len(next: u64) -> usize {
    let low = next.wrapping_sub(ONES * 0x21) & !next & HIGHS;
    if low == 0 {
        9
    } else {
        1 + low.trailing_zeros() as usize / 8
    }
}

/// The parts of a tag pair line.
struct TagSpans {
    name: (usize, usize),
    value: (usize, usize),
    /// Index just after the closing `]`.
    end: usize,
    /// Only whitespace (or another tag) follows on the line.
    alone: bool,
}

/// Reads `[Name "value"]` at the start of `line` (which holds the rest of the input's line,
/// without its `\n`).
///
/// The value ends at a `"` followed by optional blanks and `]`. Files in the wild hold
/// unescaped quotes (`[Black "engine "x""]`) and several tags on a line, so among such quotes
/// the first one that leaves only blanks or another tag after its `]` wins; failing that, the
/// first one at all. `\"` does not end the value, unless no other quote can.
fn parse_tag_line(line: &[u8]) -> Result<TagSpans, &'static str> {
    let blank = |b: u8| b == b' ' || b == b'\t';
    let mut i = 1;
    while i < line.len() && blank(line[i]) {
        i += 1;
    }
    let name_start = i;
    if i >= line.len() || !line[i].is_ascii_alphanumeric() {
        return Err("expected a tag name after '['");
    }
    while i < line.len() && is_tag_name_byte(line[i]) {
        i += 1;
    }
    let name = (name_start, i);
    while i < line.len() && blank(line[i]) {
        i += 1;
    }
    if i >= line.len() || line[i] != b'"' {
        return Err("expected a quoted value after the tag name");
    }
    let value_start = i + 1;
    for escapes in [true, false] {
        let mut first = None;
        let mut j = value_start;
        while j < line.len() {
            let Some(k) = find_either(&line[j..], b'"', b'\\') else { break };
            j += k;
            match line[j] {
                b'\\' if escapes => j += 1,
                b'"' => {
                    let mut k = j + 1;
                    while k < line.len() && blank(line[k]) {
                        k += 1;
                    }
                    if k < line.len() && line[k] == b']' {
                        let end = k + 1;
                        let mut t = end;
                        while t < line.len() && (blank(line[t]) || line[t] == b'\r') {
                            t += 1;
                        }
                        let alone = t == line.len() || line[t] == b'[';
                        let spans = TagSpans { name, value: (value_start, j), end, alone };
                        if alone {
                            return Ok(spans);
                        }
                        first.get_or_insert(spans);
                    }
                }
                _ => {}
            }
            j += 1;
        }
        if let Some(spans) = first {
            return Ok(spans);
        }
    }
    Err("expected '\"]' to close the tag value")
}

/// `value` with `\\` and `\"` unescaped (other backslashes kept), appended to `out`.
fn unescape_into(value: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < value.len() {
        if value[i] == b'\\' && matches!(value.get(i + 1), Some(b'\\' | b'"')) {
            i += 1;
        }
        out.push(value[i]);
        i += 1;
    }
}

/// The NAG of a suffix annotation.
fn suffix_nag(text: &[u8]) -> Option<u8> {
    match text {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

/// The NAG of an evaluation symbol written as a token of its own.
fn symbol_nag(text: &[u8]) -> Option<u8> {
    let nag = match text {
        b"=" => 10,
        b"+=" => 14,
        b"=+" => 15,
        b"+/-" => 16,
        b"-/+" => 17,
        b"+-" => 18,
        b"-+" => 19,
        _ => match std::str::from_utf8(text).ok()? {
            "∞" => 13,
            "⩲" => 14,
            "⩱" => 15,
            "±" => 16,
            "∓" => 17,
            _ => return None,
        },
    };
    Some(nag)
}

fn result_token(text: &[u8]) -> Option<Outcome> {
    match text {
        b"1-0" => Some(Outcome::WhiteWins),
        b"0-1" => Some(Outcome::BlackWins),
        b"1/2-1/2" => Some(Outcome::Draw),
        b"*" => Some(Outcome::Ongoing),
        _ => None,
    }
}

/// Which standard the `Variant` tag names: `Some(false)` standard chess, `Some(true)`
/// Chess960, `None` anything else.
fn variant_is_chess960(variant: &str) -> Option<bool> {
    const STANDARD: [&str; 6] = ["", "standard", "chess", "normal", "from position", "fromposition"];
    const CHESS960: [&str; 7] =
        ["chess960", "chess 960", "960", "fischerandom", "fischerrandom", "fischer random", "freestyle"];
    // Compared in place: a lower-case copy would allocate.
    let variant = variant.trim();
    let is = |names: &[&str]| names.iter().any(|name| variant.eq_ignore_ascii_case(name));
    if is(&STANDARD) {
        Some(false)
    } else if is(&CHESS960) {
        Some(true)
    } else {
        None
    }
}

/// A streaming PGN reader: games one at a time, every move replayed and checked, broken games
/// reported and skipped. See the [module documentation](super) for the format it reads.
///
/// Memory stays bounded whatever the input size: the reader holds a buffer of about
/// [`CHUNK_SIZE`](super::CHUNK_SIZE) bytes (more only while one comment or tag pair needs it,
/// up to the [`ReaderOptions`] limits) and one position per open variation.
pub struct PgnReader<S> {
    src: S,
    /// Index in `src.data()` of the next byte.
    pos: usize,
    /// Input offset of `src.data()[0]`.
    base: u64,
    eof: bool,
    /// The error of a failed read. The input ends where it happened: the games read before it
    /// come first, then the game it cut short is reported with this error (or, between games,
    /// the error alone), and nothing after.
    failed_read: Option<PgnErrorKind>,
    line: u64,
    /// Input offset of the current line's first byte.
    line_start: u64,
    options: ReaderOptions,
    games: u64,
    pending: Pending,
    /// True while the movetext of a game is read (for the ply of errors).
    in_movetext: bool,
    lines: Vec<Line>,
    /// The start position tags of the game being read.
    fen: Vec<u8>,
    fen_at: Option<Location>,
    variant: Option<(String, Location)>,
    /// Unescaped tag values, normalised comments.
    scratch: Vec<u8>,
    /// Comment text after CRLF or UTF-8 repair.
    text: String,
    builder: RecordBuilder,
}

impl PgnReader<IoSource<File>> {
    /// Opens the file at `path` for reading.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        Ok(PgnReader::with_source(IoSource::new(File::open(path)?)))
    }
}

impl<R: Read> PgnReader<IoSource<R>> {
    /// Reads from any [`Read`] (a file, a pipe, a decompressor, a C callback), in chunks.
    pub fn new(reader: R) -> Self {
        PgnReader::with_source(IoSource::new(reader))
    }
}

impl<B: AsRef<[u8]>> PgnReader<BytesSource<B>> {
    /// Reads bytes already in memory, in place: the reader borrows or owns `bytes` and copies
    /// nothing.
    pub fn from_bytes(bytes: B) -> Self {
        PgnReader::with_source(BytesSource::new(bytes))
    }
}

impl<S: Source> PgnReader<S> {
    /// Reads from any [`Source`].
    pub fn with_source(src: S) -> Self {
        PgnReader {
            src,
            pos: 0,
            base: 0,
            eof: false,
            failed_read: None,
            line: 1,
            line_start: 0,
            options: ReaderOptions::default(),
            games: 0,
            pending: Pending::Nothing,
            in_movetext: false,
            lines: Vec::new(),
            fen: Vec::new(),
            fen_at: None,
            variant: None,
            scratch: Vec::new(),
            text: String::new(),
            builder: RecordBuilder::default(),
        }
    }

    /// The same reader with other options.
    pub fn with_options(mut self, options: ReaderOptions) -> Self {
        self.options = options;
        self
    }

    /// Uses `options` from the next game on.
    pub fn set_options(&mut self, options: ReaderOptions) {
        self.options = options;
    }

    /// The options in use.
    pub fn options(&self) -> &ReaderOptions {
        &self.options
    }

    /// How many games have been started, broken ones included.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// Bytes of input consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Where the reader stands in the input.
    pub fn location(&self) -> Location {
        let offset = self.base + self.pos as u64;
        Location { line: self.line, column: offset - self.line_start + 1, offset }
    }

    /// The location of the byte `rel` bytes ahead, on the current line.
    fn location_ahead(&self, rel: usize) -> Location {
        let mut at = self.location();
        at.column += rel as u64;
        at.offset += rel as u64;
        at
    }

    /// The next whole game as a [`GameRecord`]; `Ok(None)` at the end of the input.
    ///
    /// A broken game is an `Err` whose [`PgnError::partial`] holds what was read of it; the
    /// next call goes on with the following game.
    ///
    /// Running out of memory is an `Err` of [`PgnErrorKind::OutOfMemory`], without a partial
    /// game, instead of an abort. The game is lost; the next call goes on with the following
    /// one, except when the input buffer could not grow: then the input ends there (as after
    /// [`PgnErrorKind::Io`]).
    pub fn next_game(&mut self) -> Result<Option<GameRecord>, PgnError> {
        let mut builder = std::mem::take(&mut self.builder);
        let result = match self.read_game(&mut builder) {
            Ok(Some(Some(game))) => Ok(Some(game)),
            Ok(None) => Ok(None),
            // The builder ran out of memory; the game was read to its end all the same.
            Ok(Some(None)) => Err(PgnError::new(PgnErrorKind::OutOfMemory, self.games, self.location(), 0, b"")),
            Err(mut e) => {
                // A game the builder dropped has no partial game to give.
                if builder.out_of_memory() || e.kind == PgnErrorKind::OutOfMemory {
                    e.kind = PgnErrorKind::OutOfMemory;
                } else {
                    match builder.take_partial().and_then(try_box) {
                        Ok(partial) => e.partial = Some(partial),
                        Err(_) => e.kind = PgnErrorKind::OutOfMemory,
                    }
                }
                Err(e)
            }
        };
        self.builder = builder;
        result
    }

    /// Reads the next game through `visitor`; `Ok(None)` at the end of the input.
    ///
    /// A broken game is an `Err` (the visitor has seen the events before the problem); the
    /// next call skips the rest of that game and goes on with the following one.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> Result<Option<V::Output>, PgnError> {
        match std::mem::replace(&mut self.pending, Pending::Nothing) {
            Pending::Stop => {
                self.pending = Pending::Stop;
                return Ok(None);
            }
            Pending::Resync(resync) => {
                if let Err(fail) = self.resync(resync) {
                    return Err(self.report(fail));
                }
            }
            Pending::Nothing => {}
        }
        self.game(visitor).map_err(|fail| self.report(fail))
    }

    /// Skips the next game without reading its moves; false at the end of the input.
    pub fn skip_game(&mut self) -> Result<bool, PgnError> {
        struct Skipper;
        impl Visitor for Skipper {
            type Output = ();
            fn end_tags(&mut self) -> Flow {
                Flow::Skip
            }
            fn end_game(&mut self, _: Option<Outcome>) {}
        }
        Ok(self.read_game(&mut Skipper)?.is_some())
    }

    fn report(&mut self, mut fail: Fail) -> PgnError {
        // An error on the last line read, after a read failed, comes from the cut (a tag, a
        // comment or a move missing its end): the failure is what broke the game.
        // (Running out of memory is what this call met, though.)
        let rest = self.src.data().get(self.pos..).unwrap_or_default();
        if self.failed_read.is_some() && !rest.contains(&b'\n') && fail.kind != PgnErrorKind::OutOfMemory {
            fail.kind = self.failed_read.take().unwrap_or(fail.kind);
        }
        self.pending = match (&fail.kind, fail.resync) {
            (PgnErrorKind::Io(_), _) | (_, Resync::Stop) => Pending::Stop,
            (_, Resync::None) => Pending::Nothing,
            (_, resync) => Pending::Resync(resync),
        };
        PgnError::new(fail.kind, self.games, fail.at, fail.ply, &fail.text)
    }

    fn fail(&self, kind: PgnErrorKind, at: Location, text: &[u8], resync: Resync) -> Fail {
        Fail::new(kind, at, self.ply(), text, resync)
    }

    /// [`PgnErrorKind::OutOfMemory`] at the current place, recovering as `resync` says.
    fn out_of_memory(&self, resync: Resync) -> Fail {
        self.fail(PgnErrorKind::OutOfMemory, self.location(), b"", resync)
    }

    /// The ply the next move of the line being read would have; 0 outside movetext.
    fn ply(&self) -> u32 {
        match self.lines.last() {
            Some(line) if self.in_movetext => line.ply + 1,
            _ => 0,
        }
    }

    // ----- input -----

    /// Releases the bytes before `pos` and reads more; false at the end of the input.
    fn fill(&mut self, want: usize) -> Result<bool, Fail> {
        if self.eof {
            return Ok(false);
        }
        if self.pos > 0 {
            self.src.release(self.pos);
            self.base += self.pos as u64;
            self.pos = 0;
        }
        match self.src.read_more(want) {
            Ok(0) => {
                self.eof = true;
                Ok(false)
            }
            Ok(_) => Ok(true),
            // The buffer could not grow for what the reader needs in view: no way on.
            Err(e) if e.kind() == io::ErrorKind::OutOfMemory => Err(self.out_of_memory(Resync::Stop)),
            Err(e) => {
                // The bytes already read are read on to a complete game; see `failed_read`.
                self.eof = true;
                self.failed_read = Some(PgnErrorKind::Io(e));
                Ok(false)
            }
        }
    }

    /// At the end of the input: an error when a failed read ended it, so that a game cut short
    /// is never taken for a whole one. (Reported once: the input ends with it.)
    fn end_of_input(&mut self) -> Result<(), Fail> {
        match self.failed_read.take() {
            Some(kind) => Err(self.fail(kind, self.location(), b"", Resync::Stop)),
            None => Ok(()),
        }
    }

    /// Moves past `n` bytes holding `newlines` line ends, the last at relative index `last_nl`.
    #[inline]
    fn advance(&mut self, n: usize, newlines: u64, last_nl: usize) {
        if newlines > 0 {
            self.line += newlines;
            self.line_start = self.base + (self.pos + last_nl + 1) as u64;
        }
        self.pos += n;
    }

    /// Skips blanks, line ends, byte order marks and `%` escape lines, then makes sure a whole
    /// token is in view. Returns the next byte (not consumed), or `None` at the end.
    #[inline]
    fn skip_space(&mut self) -> Result<Option<u8>, Fail> {
        loop {
            let buf = self.src.data();
            let mut i = self.pos;
            let mut escape = false;
            let mut found = None;
            while i < buf.len() {
                match buf[i] {
                    b' ' | b'\t' | b'\r' => i += 1,
                    b'\n' => {
                        i += 1;
                        self.line += 1;
                        self.line_start = self.base + i as u64;
                    }
                    0xEF if buf.len() - i >= 3 && buf[i + 1] == 0xBB && buf[i + 2] == 0xBF => {
                        // A mark at the start of a line is not part of it: columns (and the
                        // escape rule) start after it.
                        if self.base + i as u64 == self.line_start {
                            self.line_start += 3;
                        }
                        i += 3;
                    }
                    b'%' if self.base + i as u64 == self.line_start => {
                        escape = true;
                        break;
                    }
                    b => {
                        found = Some(b);
                        break;
                    }
                }
            }
            let in_view = buf.len() - i;
            self.pos = i;
            if escape {
                self.skip_line()?;
                continue;
            }
            if let Some(b) = found {
                // Refilling when less than a token is in view also completes a byte order
                // mark the window end split.
                if in_view >= LOOKAHEAD || !self.fill(LOOKAHEAD)? {
                    if self.failed_read.is_some() && self.runs_into_the_end(b) {
                        self.end_of_input()?;
                    }
                    return Ok(Some(b));
                }
                continue;
            }
            if !self.fill(LOOKAHEAD)? {
                return Ok(None);
            }
        }
    }

    /// True when the token starting with `first` at `pos` reaches the end of the input: cut by
    /// a failed read, it may be the start of a longer one (`O-O` of `O-O-O`, `$1` of `$14`). A
    /// bracket, brace, parenthesis or `;` means the same whatever follows.
    fn runs_into_the_end(&self, first: u8) -> bool {
        let rest = &self.src.data()[self.pos + 1..];
        (first == b'$' || !DELIMITER[first as usize]) && !rest.iter().any(|&b| DELIMITER[b as usize])
    }

    /// Consumes up to the end of the line (its `\n` included), streaming.
    fn skip_line(&mut self) -> Result<(), Fail> {
        loop {
            let buf = &self.src.data()[self.pos..];
            if let Some(i) = find_either(buf, b'\n', b'\n') {
                self.advance(i + 1, 1, i);
                return Ok(());
            }
            self.pos += buf.len();
            if !self.fill(LOOKAHEAD)? {
                return Ok(());
            }
        }
    }

    /// The length of the line from `pos` (without its `\n`) once all of it is in view, or
    /// `None` when it is longer than `limit`.
    fn line_in_view(&mut self, from: usize, limit: usize) -> Result<Option<usize>, Fail> {
        loop {
            let buf = &self.src.data()[self.pos + from..];
            if let Some(i) = find_either(buf, b'\n', b'\n') {
                return Ok((i <= limit).then_some(i));
            }
            if buf.len() > limit {
                return Ok(None);
            }
            if !self.fill(LOOKAHEAD)? {
                return Ok(Some(self.src.data().len() - self.pos - from));
            }
        }
    }

    /// The length of the token at `pos` (up to the next delimiter or the end of the input);
    /// more than [`MAX_TOKEN_LEN`] when it is too long. `skip_space` put it in view.
    #[inline]
    fn token_len(&self) -> usize {
        let buf = &self.src.data()[self.pos..];
        let limit = buf.len().min(MAX_TOKEN_LEN + 1);
        buf[..limit].iter().position(|&b| DELIMITER[b as usize]).unwrap_or(limit)
    }

    // ----- games -----

    fn game<V: Visitor>(&mut self, visitor: &mut V) -> Result<Option<V::Output>, Fail> {
        // Between games: blanks, escape lines and `;` remarks belong to no game.
        self.in_movetext = false;
        let first = loop {
            match self.skip_space()? {
                None if self.failed_read.is_some() => {
                    // The read error is all there is of the next game.
                    self.games += 1;
                    return self.end_of_input().map(|()| None);
                }
                None => return Ok(None),
                Some(b';') => self.skip_line()?,
                Some(b) => break b,
            }
        };
        self.games += 1;
        visitor.begin_game(self.games);
        self.tags(visitor, first)?;
        if visitor.end_tags() == Flow::Skip {
            let result = self.skip_rest(0)?;
            return Ok(Some(visitor.end_game(result)));
        }
        let start = self.start_position()?;
        visitor.begin_movetext(&start);
        let result = if self.options.headers_only { self.skip_rest(0)? } else { self.movetext(visitor, start)? };
        Ok(Some(visitor.end_game(result)))
    }

    /// Reads the tag section (possibly empty); `first` is the first byte in view.
    fn tags<V: Visitor>(&mut self, visitor: &mut V, first: u8) -> Result<(), Fail> {
        self.fen.clear();
        self.fen_at = None;
        self.variant = None;
        let mut next = Some(first);
        loop {
            // Anything else starts the movetext, a `;` comment included: after the tags it is
            // the game's first comment (the writer puts one there when the text holds a `}`).
            match next {
                Some(b'[') => self.tag(visitor)?,
                _ => return Ok(()),
            }
            next = self.skip_space()?;
        }
    }

    fn tag<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Fail> {
        let at = self.location();
        let in_tags = Resync::Game { in_tags: true, in_comment: false, in_line: true, depth: 0 };
        let limit = self.options.max_tag_len;
        let Some(len) = self.line_in_view(0, limit)? else {
            return Err(self.fail(PgnErrorKind::TagTooLong { limit }, at, b"", in_tags));
        };
        let line = &self.src.data()[self.pos..self.pos + len];
        let spans = match parse_tag_line(line) {
            Ok(spans) => spans,
            Err(reason) => {
                return Err(self.fail(PgnErrorKind::BadTag { reason }, at, line, in_tags));
            }
        };
        let raw = &line[spans.value.0..spans.value.1];
        // Most values have nothing to unescape, and are read in place.
        let raw = if find_either(raw, b'\\', b'\\').is_some() {
            self.scratch.clear();
            // Unescaping only shortens it.
            if self.scratch.try_reserve(raw.len()).is_err() {
                return Err(Fail::new(PgnErrorKind::OutOfMemory, at, 0, b"", in_tags));
            }
            unescape_into(raw, &mut self.scratch);
            &self.scratch[..]
        } else {
            raw
        };
        // Tag names are ASCII by their syntax.
        let name = utf8(&line[spans.name.0..spans.name.1]).unwrap_or_default();
        let value = match checked_text(raw, self.options.lossy_utf8, &mut self.text) {
            Ok(value) => value,
            Err(kind) => return Err(Fail::new(kind, at, 0, line, in_tags)),
        };
        let kept = match name {
            "FEN" => {
                self.fen.clear();
                self.fen_at = Some(at);
                self.fen.try_reserve(value.len()).map(|()| self.fen.extend_from_slice(value.as_bytes()))
            }
            "Variant" => try_string(value).map(|variant| self.variant = Some((variant, at))),
            _ => Ok(()),
        };
        if kept.is_err() {
            return Err(Fail::new(PgnErrorKind::OutOfMemory, at, 0, b"", in_tags));
        }
        visitor.tag(name, value);
        self.pos += spans.end;
        Ok(())
    }

    /// The start position the tags describe (see the module documentation).
    fn start_position(&self) -> Result<Position, Fail> {
        let skip_movetext = Resync::MOVETEXT;
        let chess960 = match &self.variant {
            None => false,
            Some((variant, at)) => match variant_is_chess960(variant) {
                Some(chess960) => chess960,
                None => {
                    let kind = try_string(variant).map_or(PgnErrorKind::OutOfMemory, PgnErrorKind::UnsupportedVariant);
                    return Err(self.fail(kind, *at, b"", skip_movetext));
                }
            },
        };
        let lenient = FenOptions {
            chess960,
            bad_castling: Repair::Drop,
            bad_en_passant: Repair::Drop,
            allow_impossible_check: true,
        };
        let fen = match self.fen_at {
            Some(_) => &self.fen[..],
            _ if chess960 => {
                let mut start = Position::startpos();
                start.set_chess960(true);
                return Ok(start);
            }
            _ => return Ok(Position::startpos()),
        };
        let parsed = crate::fen::Fen::parse_bytes(fen).and_then(|parsed| {
            if chess960 {
                return parsed.validate(&lenient).map(|(pos, _)| pos);
            }
            // Castling rights that only make sense in Chess960 make it a Chess960 game.
            let strict_castling = FenOptions { bad_castling: Repair::Reject, ..lenient };
            match parsed.validate(&strict_castling) {
                Err(e) if e.field() == FenField::Castling => {
                    let as960 = FenOptions { chess960: true, ..strict_castling };
                    parsed.validate(&as960).or_else(|_| parsed.validate(&lenient)).map(|(pos, _)| pos)
                }
                other => other.map(|(pos, _)| pos),
            }
        });
        parsed.map_err(|e| {
            let at = self.fen_at.unwrap_or_default();
            self.fail(PgnErrorKind::InvalidFen(e), at, fen, skip_movetext)
        })
    }

    /// Reads the movetext, replaying every move; returns the result token, if any.
    fn movetext<V: Visitor>(&mut self, visitor: &mut V, start: Position) -> Result<Option<Outcome>, Fail> {
        let san_options = SanOptions { mode: self.options.san_mode, allow_null: true };
        self.lines.clear();
        if try_push(&mut self.lines, Line::new(start, 0, Location::default())).is_err() {
            return Err(self.out_of_memory(Resync::MOVETEXT));
        }
        self.in_movetext = true;
        loop {
            if self.fast_tokens(visitor, &san_options) == Flow::Skip {
                return self.skip_rest(self.lines.len() as u32 - 1);
            }
            let Some(c) = self.skip_space()? else {
                self.end_of_input()?;
                return self.game_over(None);
            };
            match c {
                b'{' => {
                    let text = self.brace_comment(self.lines.len() - 1)?;
                    visitor.comment(text);
                }
                b';' => {
                    let text = self.line_comment(self.lines.len() - 1)?;
                    visitor.comment(text);
                }
                b'(' => self.open_variation(visitor)?,
                b')' => {
                    let at = self.location();
                    self.pos += 1;
                    if self.lines.len() == 1 {
                        return Err(self.fail(PgnErrorKind::UnmatchedParen, at, b")", Resync::MOVETEXT));
                    }
                    self.lines.pop();
                    visitor.end_variation();
                }
                b'[' => return self.game_over(None),
                b'$' => {
                    let nag = self.dollar_nag()?;
                    visitor.nag(nag);
                }
                b'}' | b']' | b'"' => {
                    let depth = self.lines.len() - 1;
                    let at = self.location();
                    self.pos += 1;
                    let kind = PgnErrorKind::UnexpectedChar(c as char);
                    return Err(self.fail(kind, at, &[c], Resync::at_depth(depth)));
                }
                _ => {
                    let len = self.token_len();
                    let depth = self.lines.len() - 1;
                    if len > MAX_TOKEN_LEN {
                        let at = self.location();
                        let kind = PgnErrorKind::TokenTooLong { limit: MAX_TOKEN_LEN };
                        let fail =
                            self.fail(kind, at, &self.src.data()[self.pos..self.pos + 64], Resync::at_depth(depth));
                        // The rest of the token is skipped with the game.
                        self.pos += MAX_TOKEN_LEN;
                        return Err(fail);
                    }
                    if let Some(outcome) = result_token(&self.src.data()[self.pos..self.pos + len]) {
                        self.pos += len;
                        if depth > 0 {
                            return self.game_over(Some(outcome));
                        }
                        self.comments_after_result(visitor)?;
                        return Ok(Some(outcome));
                    }
                    if self.move_token(visitor, len, &san_options)? == Flow::Skip {
                        return self.skip_rest(self.lines.len() as u32 - 1);
                    }
                }
            }
        }
    }

    /// Reads the common movetext tokens straight from the buffer (blanks, line ends, comments
    /// on one line, move numbers, moves) and stops on anything else (a result, a variation, a
    /// bad move...) or near the end of what is in view, leaving it to the general code, which
    /// reads that one token (and reports it if it is wrong); then this goes on.
    #[inline(always)]
    fn fast_tokens<V: Visitor>(&mut self, visitor: &mut V, options: &SanOptions) -> Flow {
        let data = self.src.data();
        // A token starting before `limit` is in view whole, with the byte after it (at the end
        // of the input too, unless a failed read ended it).
        let limit =
            if self.eof && self.failed_read.is_none() { data.len() } else { data.len().saturating_sub(LOOKAHEAD) };
        let max_comment = self.options.max_comment_len;
        let Some(line) = self.lines.last_mut() else { return Flow::Continue };
        let (mut i, mut line_no, mut line_start) = (self.pos, self.line, self.line_start);
        let mut flow = Flow::Continue;
        while flow == Flow::Continue {
            // A bit test rather than comparisons, which become a jump table that is mispredicted.
            const BLANKS: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\r' | 1 << b'\n';
            while i < limit {
                let c = data[i];
                if c >= 64 || BLANKS >> c & 1 == 0 {
                    break;
                }
                if c == b'\n' {
                    line_no += 1;
                    line_start = self.base + i as u64 + 1;
                }
                i += 1;
            }
            if i >= limit {
                break;
            }
            match data[i] {
                b'{' => {
                    let rest = &data[i + 1..];
                    let Some((close, ascii)) = scan_short_comment(rest) else { break };
                    if rest[close] != b'}' || !ascii || close > max_comment {
                        break;
                    }
                    // SAFETY: the comment was just found to be ASCII.
                    visitor.comment(unsafe { std::str::from_utf8_unchecked(rest[..close].trim_ascii()) });
                    i += close + 2;
                }
                b if b.is_ascii_alphanumeric() => {
                    // Near the end of the input the general code reads the token.
                    let Some(next) = data.get(i + 1..i + 9) else { break };
                    let next = u64::from_le_bytes(next.try_into().unwrap_or_default());
                    let len = short_token_len(next);
                    // Control characters other than blanks and line ends do not end tokens. The
                    // byte that ends this one is in `next` already: no load to wait for.
                    if len > 8 || BLANKS >> (next >> (8 * (len - 1)) & 0x3f) & 1 == 0 {
                        break;
                    }
                    let token = &data[i..i + len];
                    let skip = if b.is_ascii_digit() {
                        // `1-0`, `0-1` and `1/2-1/2` have a `-` or `/` second.
                        if matches!(token.get(1), Some(b'-' | b'/')) && result_token(token).is_some() {
                            break;
                        }
                        move_number_len(token)
                    } else {
                        0
                    };
                    let Some((san, suffix)) = split_suffix(&token[skip..]) else { break };
                    if !san.is_empty() {
                        let Ok(mv) = line.parse(san, options) else { break };
                        // The token's bytes after its first (an ASCII letter or digit) are
                        // the low `len - 1` bytes of `next`.
                        let rest = if len > 1 { next & (u64::MAX >> (8 * (9 - len))) } else { 0 };
                        if rest & HIGHS != 0 {
                            break;
                        }
                        // SAFETY: every byte of the token was just found to be ASCII.
                        let text = unsafe { std::str::from_utf8_unchecked(san) };
                        flow = line.play(visitor, text, mv);
                    }
                    if let Some(nag) = suffix {
                        visitor.nag(nag);
                    }
                    i += len;
                }
                _ => break,
            }
        }
        self.pos = i;
        self.line = line_no;
        self.line_start = line_start;
        flow
    }

    /// The visitor asked to skip the rest of the movetext: scans it for the result.
    fn skip_rest(&mut self, depth: u32) -> Result<Option<Outcome>, Fail> {
        let (end, _) = self.skip_movetext(depth, false, false)?;
        Ok(match end {
            SkipEnd::Result(outcome) => Some(outcome),
            SkipEnd::Eof => return self.end_of_input().map(|()| None),
            _ => None,
        })
    }

    /// The movetext ended (result token inside a variation, next game's tags, end of input):
    /// fine at depth 0, an unclosed variation otherwise.
    fn game_over(&self, result: Option<Outcome>) -> Result<Option<Outcome>, Fail> {
        match self.lines.last() {
            Some(line) if self.lines.len() > 1 => {
                let kind = PgnErrorKind::UnclosedVariation { opened: line.opened };
                Err(self.fail(kind, self.location(), b"", Resync::None))
            }
            _ => Ok(result),
        }
    }

    /// Comments on the line of the result belong to the game.
    fn comments_after_result<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Fail> {
        loop {
            let buf = &self.src.data()[self.pos..];
            let blanks = buf.iter().take_while(|&&b| b == b' ' || b == b'\t' || b == b'\r').count();
            if blanks == buf.len() && !self.eof {
                self.pos += blanks;
                self.fill(LOOKAHEAD)?;
                continue;
            }
            match buf.get(blanks).copied() {
                Some(b'{') => {
                    self.pos += blanks;
                    let text = self.brace_comment(0)?;
                    visitor.comment(text);
                }
                Some(b';') => {
                    self.pos += blanks;
                    let text = self.line_comment(0)?;
                    visitor.comment(text);
                }
                // The line ends here only if the input does.
                None => return self.end_of_input(),
                _ => return Ok(()),
            }
        }
    }

    /// A move token of `len` bytes at `pos`: move number, SAN with suffix annotation, or an
    /// evaluation symbol.
    fn move_token<V: Visitor>(&mut self, visitor: &mut V, len: usize, options: &SanOptions) -> Result<Flow, Fail> {
        let token = &self.src.data()[self.pos..self.pos + len];
        let skip = move_number_len(token);
        let depth = self.lines.len() - 1;
        let Some((san, suffix)) = split_suffix(&token[skip..]) else {
            let at = self.location_ahead(skip);
            let fail = self.fail(PgnErrorKind::InvalidNag, at, token, Resync::at_depth(depth));
            self.pos += len;
            return Err(fail);
        };
        if san.is_empty() {
            self.pos += len;
            if let Some(nag) = suffix {
                visitor.nag(nag);
            }
            return Ok(Flow::Continue);
        }
        let line = &mut self.lines[depth];
        let mv = match line.parse(san, options) {
            Ok(mv) => mv,
            // Evaluation symbols are rare: looked for only when the token is no move.
            Err(_) if suffix.is_none() && symbol_nag(san).is_some() => {
                self.pos += len;
                visitor.nag(symbol_nag(san).unwrap_or_default());
                return Ok(Flow::Continue);
            }
            Err(e) => {
                let ply = line.ply + 1;
                let fail =
                    Fail::new(PgnErrorKind::Move(e), self.location_ahead(skip), ply, san, Resync::at_depth(depth));
                self.pos += len;
                return Err(fail);
            }
        };
        // A move was read from it, so it is ASCII.
        let flow = line.play(visitor, utf8(san).unwrap_or_default(), mv);
        self.pos += len;
        if let Some(nag) = suffix {
            visitor.nag(nag);
        }
        Ok(flow)
    }

    /// `$` and a number from 0 to 255.
    fn dollar_nag(&mut self) -> Result<u8, Fail> {
        let at = self.location();
        let start = self.pos;
        self.pos += 1;
        let len = self.token_len();
        let digits = &self.src.data()[self.pos..self.pos + len.min(MAX_TOKEN_LEN)];
        let value = match digits {
            [] => None,
            d if d.len() <= 3 && d.iter().all(u8::is_ascii_digit) => {
                u8::try_from(d.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0'))).ok()
            }
            _ => None,
        };
        self.pos += len.min(MAX_TOKEN_LEN);
        let text = &self.src.data()[start..self.pos];
        value.ok_or_else(|| {
            self.fail(PgnErrorKind::InvalidNag, at, text, Resync::at_depth(self.lines.len().saturating_sub(1)))
        })
    }

    /// A `(`: checks it may open a variation here, then reads or skips it.
    fn open_variation<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Fail> {
        let at = self.location();
        self.pos += 1;
        let depth = self.lines.len() - 1;
        let top = self.lines[depth];
        if !top.has_move {
            return Err(self.fail(PgnErrorKind::VariationWithoutMove, at, b"(", Resync::at_depth(depth + 1)));
        }
        if depth >= self.options.max_depth {
            let kind = PgnErrorKind::TooDeep { limit: self.options.max_depth };
            return Err(self.fail(kind, at, b"(", Resync::at_depth(depth + 1)));
        }
        // Room first, so that the visitor hears of no variation the reader cannot hold.
        if self.lines.try_reserve(1).is_err() {
            return Err(self.fail(PgnErrorKind::OutOfMemory, at, b"(", Resync::at_depth(depth + 1)));
        }
        if visitor.begin_variation() == Flow::Continue {
            self.lines.push(Line::new(*top.before(), top.ply - 1, at));
            return Ok(());
        }
        match self.skip_movetext(1, true, false)? {
            (SkipEnd::Closed, _) => Ok(()),
            _ => Err(self.fail(PgnErrorKind::UnclosedVariation { opened: at }, self.location(), b"", Resync::None)),
        }
    }

    /// A `{` comment at `pos`; `depth` is the variation depth, for recovery.
    fn brace_comment(&mut self, depth: usize) -> Result<&str, Fail> {
        let at = self.location();
        let limit = self.options.max_comment_len;
        let mut i = 1;
        let mut newlines = 0;
        let mut last_nl = 0;
        let close = loop {
            let buf = &self.src.data()[self.pos..];
            match find_comment_end(&buf[i..]).map(|k| i + k) {
                Some(end) if buf[end] == b'}' => break end,
                // A line end with the next line's first byte in view.
                Some(nl) if nl + 1 < buf.len() || self.eof => {
                    newlines += 1;
                    last_nl = nl;
                    i = nl + 1;
                    if buf.get(i) == Some(&b'[') && self.tag_line_at(i)? {
                        // The comment runs into the next game's tags: it was never closed.
                        self.advance(i, newlines, last_nl);
                        return Err(self.fail(PgnErrorKind::UnterminatedComment, at, b"", Resync::None));
                    }
                    continue;
                }
                // A line end at the end of what is in view: look again after the refill.
                Some(nl) => i = nl,
                None => i = buf.len(),
            }
            if i - 1 > limit {
                self.advance(i, newlines, last_nl);
                let resync = Resync::Game { in_tags: false, in_comment: true, in_line: false, depth: depth as u32 };
                return Err(self.fail(PgnErrorKind::CommentTooLong { limit }, at, b"", resync));
            }
            if !self.fill(LOOKAHEAD)? {
                self.advance(i, newlines, last_nl);
                return Err(self.fail(PgnErrorKind::UnterminatedComment, at, b"", Resync::None));
            }
        };
        if close - 1 > limit {
            self.advance(close + 1, newlines, last_nl);
            return Err(self.fail(PgnErrorKind::CommentTooLong { limit }, at, b"", Resync::at_depth(depth)));
        }
        let start = self.pos + 1;
        let end = self.pos + close;
        let has_cr = newlines > 0 && self.src.data()[start..end].contains(&b'\r');
        self.advance(close + 1, newlines, last_nl);
        self.comment_text(start, end, has_cr, at, depth)
    }

    /// A `;` comment at `pos`, to the end of its line.
    fn line_comment(&mut self, depth: usize) -> Result<&str, Fail> {
        let at = self.location();
        let limit = self.options.max_comment_len;
        let Some(len) = self.line_in_view(0, limit)? else {
            let resync = Resync::Game { in_tags: false, in_comment: false, in_line: true, depth: depth as u32 };
            return Err(self.fail(PgnErrorKind::CommentTooLong { limit }, at, b"", resync));
        };
        let (start, end) = (self.pos + 1, self.pos + len);
        self.pos += len;
        self.comment_text(start, end, false, at, depth)
    }

    /// The text of a comment at `start..end` of the buffer: trimmed, line ends made LF (the CRs
    /// before an LF go, however many, so that reading what was written changes nothing), UTF-8
    /// checked (or repaired).
    fn comment_text(
        &mut self,
        start: usize,
        end: usize,
        has_cr: bool,
        at: Location,
        depth: usize,
    ) -> Result<&str, Fail> {
        let raw = self.src.data()[start..end].trim_ascii();
        let ply = self.ply();
        let raw = if has_cr {
            self.scratch.clear();
            // Dropping CRs only shortens it.
            if self.scratch.try_reserve(raw.len()).is_err() {
                return Err(Fail::new(PgnErrorKind::OutOfMemory, at, ply, b"", Resync::at_depth(depth)));
            }
            let mut rest = raw;
            while let Some(i) = rest.iter().position(|&b| b == b'\n') {
                let line = &rest[..i];
                let crs = line.iter().rev().take_while(|&&b| b == b'\r').count();
                self.scratch.extend_from_slice(&line[..line.len() - crs]);
                self.scratch.push(b'\n');
                rest = &rest[i + 1..];
            }
            self.scratch.extend_from_slice(rest);
            &self.scratch[..]
        } else {
            raw
        };
        checked_text(raw, self.options.lossy_utf8, &mut self.text)
            .map_err(|kind| Fail::new(kind, at, ply, &raw[..raw.len().min(64)], Resync::at_depth(depth)))
    }

    /// True when a complete tag pair line, and nothing else, starts `rel` bytes ahead.
    fn tag_line_at(&mut self, rel: usize) -> Result<bool, Fail> {
        let limit = self.options.max_tag_len;
        let Some(len) = self.line_in_view(rel, limit)? else { return Ok(false) };
        let line = &self.src.data()[self.pos + rel..self.pos + rel + len];
        Ok(parse_tag_line(line).is_ok_and(|spans| spans.alone && line[spans.end..].trim_ascii().is_empty()))
    }

    // ----- skipping -----

    /// Scans movetext without reading it, from variation depth `depth`, to the end of the game
    /// (a result at depth 0, the next game's `[`, the end of input) or, with `close_at_zero`,
    /// to the `)` that brings the depth to 0. Comments are skipped whole (one that runs into
    /// the next game's tags ends there). Returns how it ended and the depth then.
    fn skip_movetext(
        &mut self,
        mut depth: u32,
        close_at_zero: bool,
        mut in_comment: bool,
    ) -> Result<(SkipEnd, u32), Fail> {
        loop {
            if in_comment {
                if self.skip_comment_rest()? {
                    return Ok((SkipEnd::NextGame, depth));
                }
                in_comment = false;
            }
            self.fast_skip();
            let Some(c) = self.skip_space()? else { return Ok((SkipEnd::Eof, depth)) };
            match c {
                b'{' => {
                    self.pos += 1;
                    in_comment = true;
                }
                b';' => self.skip_line()?,
                b'(' => {
                    self.pos += 1;
                    depth += 1;
                }
                b')' => {
                    self.pos += 1;
                    if depth > 0 {
                        depth -= 1;
                        if depth == 0 && close_at_zero {
                            return Ok((SkipEnd::Closed, 0));
                        }
                    }
                }
                b'[' => return Ok((SkipEnd::NextGame, depth)),
                _ => {
                    let len = self.token_len();
                    if len > MAX_TOKEN_LEN {
                        self.skip_long_token()?;
                        continue;
                    }
                    let token = &self.src.data()[self.pos..self.pos + len.max(1)];
                    let result = result_token(token);
                    self.pos += len.max(1);
                    if let Some(outcome) = result {
                        if depth == 0 || close_at_zero {
                            return Ok((SkipEnd::Result(outcome), depth));
                        }
                    }
                }
            }
        }
    }

    /// Skips the common movetext straight from the buffer (blanks, line ends, comments on one
    /// line, tokens that cannot be a result or hold a delimiter) and stops on anything else, or
    /// near the end of what is in view, for [`PgnReader::skip_movetext`] to handle.
    #[inline]
    fn fast_skip(&mut self) {
        let data = self.src.data();
        let limit =
            if self.eof && self.failed_read.is_none() { data.len() } else { data.len().saturating_sub(LOOKAHEAD) };
        let (mut i, mut line_no, mut line_start) = (self.pos, self.line, self.line_start);
        const BLANKS: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\r' | 1 << b'\n';
        while i < limit {
            let c = data[i];
            if c < 64 && BLANKS >> c & 1 != 0 {
                if c == b'\n' {
                    line_no += 1;
                    line_start = self.base + i as u64 + 1;
                }
                i += 1;
            } else if c == b'{' {
                match find_comment_end(&data[i + 1..]) {
                    Some(close) if data[i + 1 + close] == b'}' => i += close + 2,
                    _ => break,
                }
            } else if c.is_ascii_alphanumeric() {
                let Some(next) = data.get(i + 1..i + 9) else { break };
                let next = u64::from_le_bytes(next.try_into().unwrap_or_default());
                let len = short_token_len(next);
                // Results (`1-0`, `0-1`, `1/2-1/2`) and tokens holding a delimiter or ended by
                // another control character are left to the general code.
                let inside = if len > 1 { u64::MAX >> (8 * (9 - len)) } else { 0 };
                if len > 8
                    || BLANKS >> (next >> (8 * (len - 1)) & 0x3f) & 1 == 0
                    || delimiters_in(next) & inside != 0
                    || (matches!(c, b'0' | b'1') && matches!(next as u8, b'-' | b'/'))
                {
                    break;
                }
                i += len;
            } else {
                break;
            }
        }
        self.pos = i;
        self.line = line_no;
        self.line_start = line_start;
    }

    /// Consumes a token too long to look at, streaming.
    fn skip_long_token(&mut self) -> Result<(), Fail> {
        loop {
            let buf = &self.src.data()[self.pos..];
            match buf.iter().position(|&b| DELIMITER[b as usize]) {
                Some(i) => {
                    self.pos += i;
                    return Ok(());
                }
                None => {
                    self.pos += buf.len();
                    if !self.fill(LOOKAHEAD)? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Consumes the rest of a `{` comment, streaming. True when the comment ran into the next
    /// game's tags (left unconsumed).
    fn skip_comment_rest(&mut self) -> Result<bool, Fail> {
        loop {
            let buf = &self.src.data()[self.pos..];
            match find_comment_end(buf) {
                Some(i) if buf[i] == b'}' => {
                    self.pos += i + 1;
                    return Ok(false);
                }
                Some(i) => {
                    self.advance(i + 1, 1, i);
                    if self.src.data().len() - self.pos < 2 {
                        self.fill(LOOKAHEAD)?;
                    }
                    if self.src.data().get(self.pos) == Some(&b'[') && self.tag_line_at(0)? {
                        return Ok(true);
                    }
                }
                None => {
                    self.pos += buf.len();
                    if !self.fill(LOOKAHEAD)? {
                        return Ok(false);
                    }
                }
            }
        }
    }

    /// Skips the rest of a broken game.
    fn resync(&mut self, resync: Resync) -> Result<(), Fail> {
        let Resync::Game { in_tags, in_comment, in_line, depth } = resync else { return Ok(()) };
        if in_line {
            self.skip_line()?;
        }
        if in_tags {
            // The rest of the tag section (up to a blank line: after one, a tag begins the
            // next game), then the movetext.
            loop {
                let line = self.line;
                match self.skip_space()? {
                    Some(b'[' | b';') if self.line == line => self.skip_line()?,
                    _ => break,
                }
            }
        }
        self.skip_movetext(depth, false, in_comment)?;
        Ok(())
    }
}

impl<S: Source> Iterator for PgnReader<S> {
    type Item = Result<GameRecord, PgnError>;

    /// [`PgnReader::next_game`], as an iterator: broken games come as `Err` and the iteration
    /// goes on.
    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

impl<S> std::fmt::Debug for PgnReader<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgnReader")
            .field("games", &self.games)
            .field("offset", &(self.base + self.pos as u64))
            .field("line", &self.line)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_end_is_the_first_control_byte() {
        // Every byte value at every place, among token bytes.
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut next = *b"Nxe5+!?a";
                next[at] = b;
                let expected = next.iter().position(|&c| c < 0x21).map_or(9, |k| k + 1);
                assert_eq!(short_token_len(u64::from_le_bytes(next)), expected, "{b:#x} at {at}");
            }
        }
        assert_eq!(find_either(b"abc}def\nghi", b'}', b'\n'), Some(3));
        assert_eq!(find_either(b"0123456789abcdef\n", b'}', b'\n'), Some(16));
        assert_eq!(find_either(b"0123456789", b'}', b'\n'), None);
        assert_eq!(scan_short_comment(b" [%clk 0:05:00] } 2. d4"), Some((16, true)));
        assert_eq!(scan_short_comment("caf\u{e9} } x".as_bytes()), Some((6, false)));
        assert_eq!(scan_short_comment("long ascii text } then caf\u{e9}".as_bytes()), Some((16, true)));
        assert_eq!(scan_short_comment("a\u{e9}\n}".as_bytes()), Some((3, false)));
        assert_eq!(scan_short_comment(b"no end"), None);
    }

    #[test]
    fn tag_line_shapes() {
        fn value(line: &str) -> (&str, bool) {
            let spans = parse_tag_line(line.as_bytes()).unwrap();
            (&line[spans.value.0..spans.value.1], spans.alone)
        }
        assert_eq!(value(r#"[Event "x"]"#), ("x", true));
        assert_eq!(value(r#"[ Event   "x" ]  "#), ("x", true));
        assert_eq!(value(r#"[Black "engine "x""]"#), (r#"engine "x""#, true));
        assert_eq!(value(r#"[Site "a \"b\""]"#), (r#"a \"b\""#, true));
        assert_eq!(value(r#"[A "1"] [B "2"]"#), ("1", true));
        assert_eq!(value(r#"[A "1"] 1. e4"#), ("1", false));
        assert_eq!(value(r#"[Path "C:\"]"#), (r"C:\", true));
        assert!(parse_tag_line(b"[Event x]").is_err());
        assert!(parse_tag_line(b"[\"x\"]").is_err());
        assert!(parse_tag_line(b"[Event \"x").is_err());
        let mut out = Vec::new();
        unescape_into(br#"a\"b\\c\d"#, &mut out);
        assert_eq!(out, br#"a"b\c\d"#);
    }
}
