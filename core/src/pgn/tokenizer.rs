//! The PGN tokenizer: the bytes of a [`Source`] as tag pairs and movetext tokens, with the one
//! account of lines and columns.
//!
//! Movetext goes through one token loop, [`Tokenizer::movetext`], whatever is done with it: a
//! [`Consumer`] that reads it (the replay of the moves, for a visitor or a record) gets words,
//! comments and NAGs, with the limits of [`ReaderOptions`] enforced; one that skips it (headers
//! only, a game or variation skipped, the rest of a broken game) gets only what structures it,
//! variations and results, while comments stream past whatever their size. The loop's fast path
//! takes the common tokens (blanks, line ends, words of up to 8 bytes, one-line comments) eight
//! bytes at a time straight from the buffer; anything else, or anything near the end of what is
//! in view, goes through the general path, one token at a time.

use std::io;
use std::ops::ControlFlow;

use crate::game::{is_tag_name_byte, Outcome};

use super::error::{Fail, Location, PgnErrorKind, PgnWarning, PgnWarningKind, Rejection, Resync};
use super::reader::ReaderOptions;
use super::source::Source;

/// The longest movetext token (move, move number, NAG or result) the reader accepts.
pub const MAX_TOKEN_LEN: usize = 255;

/// Bytes the tokenizer wants in view before it reads a token: a whole token and the byte
/// after it.
const LOOKAHEAD: usize = MAX_TOKEN_LEN + 2;

/// Blanks and line ends, which separate tokens: a bit set over byte values below 64, tested
/// with a shift (comparisons become a jump table that is mispredicted).
const BLANKS: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\r' | 1 << b'\n';

#[inline(always)]
const fn is_blank(c: u8) -> bool {
    c < 64 && BLANKS >> c & 1 != 0
}

/// Bytes that end a movetext token: blanks, line ends and `{ } ( ) [ ] ; $ " *` (`*` is a
/// token of its own, as the PGN standard has it, even glued to a move: `Nc6*`).
const DELIMITER: u8 = 1;
/// Letters and digits, which start the words the fast path reads.
const WORD_START: u8 = 2;

/// What each byte value is to the tokenizer.
static CLASS: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if is_blank(c) || matches!(c, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$' | b'"' | b'*') {
            table[b] = DELIMITER;
        } else if c.is_ascii_alphanumeric() {
            table[b] = WORD_START;
        }
        b += 1;
    }
    table
};

#[inline(always)]
fn is_delimiter(c: u8) -> bool {
    CLASS[c as usize] & DELIMITER != 0
}

/// A movetext token, as a [`Consumer`] gets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// The bytes up to the next delimiter (from the fast path, to the next blank: see
    /// [`Consumer::token`]), without the move number they may start with (`12.`, `12...`, or
    /// digits alone): a move, a suffix annotation, an evaluation symbol, or a move and its
    /// suffix (`e4!`). (Reading consumers only; move numbers alone are no token.)
    Word(Word<'a>),
    /// A comment, `{...}` or `;` to the end of the line: trimmed, line ends as LF, UTF-8
    /// without NUL (or repaired). (Reading consumers only.)
    Comment(&'a str),
    /// `$` and a number from 0 to 255. (Reading consumers only.)
    Nag(u8),
    /// A `(`, at its place.
    Open(Location),
    /// A `)`.
    Close,
    /// A result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(Outcome),
}

/// The text of a [`Token::Word`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Word<'a> {
    /// ASCII, as every move and suffix is.
    Ascii(&'a str),
    /// Anything else: an evaluation symbol (`±`), or nothing a reader knows.
    Other(&'a [u8]),
}

impl<'a> Word<'a> {
    fn new(bytes: &'a [u8]) -> Word<'a> {
        if bytes.is_ascii() {
            // SAFETY: ASCII is valid UTF-8.
            Word::Ascii(unsafe { std::str::from_utf8_unchecked(bytes) })
        } else {
            Word::Other(bytes)
        }
    }

    pub(super) fn bytes(self) -> &'a [u8] {
        match self {
            Word::Ascii(text) => text.as_bytes(),
            Word::Other(bytes) => bytes,
        }
    }
}

/// What the tokens of movetext go to.
pub(super) trait Consumer {
    /// True to get every token; false to get only [`Token::Open`], [`Token::Close`] and
    /// [`Token::Result`], the rest skipped unread.
    const READS: bool;
    /// Why the consumer stopped the tokens.
    type Stop;

    /// Takes a token; [`ControlFlow::Break`] ends the movetext loop. A rejection is about that
    /// token, and fails there.
    ///
    /// A reading consumer must reject, without effect, a [`Token::Word`] that is no move,
    /// suffix or evaluation symbol: the fast path hands over the bytes between blanks without
    /// looking for delimiters in them, and when a rejected word turns out to run into one
    /// (`e4)`, `Nf3{`, which none of those can hold), the tokenizer reads it again, split
    /// exactly, instead of failing.
    fn token<'a>(&mut self, token: Token<'a>) -> Result<ControlFlow<Self::Stop>, Rejection<'a>>;

    /// The variation depth the consumer is at, from which the rest of the game is skipped when
    /// the tokenizer finds an error.
    fn depth(&self) -> u32;

    /// The text of the comment that comes next gave a warning. (Reading consumers only.)
    fn warning(&mut self, warning: PgnWarning) {
        let _ = warning;
    }
}

/// How the movetext loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ended<T> {
    /// The consumer stopped it.
    Consumer(T),
    /// A `[` outside comments: the next game's tags (not consumed).
    NextGame,
    /// The end of the input.
    Input,
}

/// What the general path found.
enum Slow<'a> {
    /// A token, where it starts, and the warning its text gave (a comment decoded as
    /// Windows-1252).
    Token(Token<'a>, Location, Option<PgnWarning>),
    /// Something a skipping consumer does not get.
    Skipped,
    NextGame,
    End,
}

/// What takes a comment and the warning its text gave.
pub(super) type TakeComment<'a> = dyn FnMut(&str, Option<PgnWarning>) + 'a;

/// The line being read: its number and where it starts.
#[derive(Debug, Clone, Copy)]
struct Lines {
    /// From 1 (lines end with `\n`).
    line: u64,
    /// Input offset of the line's first byte.
    start: u64,
}

impl Lines {
    /// A line end was read; the next line starts at input offset `next`.
    #[inline(always)]
    fn new_line(&mut self, next: u64) {
        self.line += 1;
        self.start = next;
    }

    /// The place of input offset `offset` on this line.
    #[inline(always)]
    fn locate(self, offset: u64) -> Location {
        Location { line: self.line, column: offset - self.start + 1, offset }
    }
}

/// The index of the first byte of `data[start..end]` that is no blank or line end (`end` if
/// none), `base` being the input offset of `data[0]`: where lines are counted byte by byte, for
/// the fast path and the general one.
#[inline(always)]
fn skip_blanks(data: &[u8], start: usize, end: usize, base: u64, lines: &mut Lines) -> usize {
    // Tokens are most often one space apart: that takes no loop.
    if let [b' ', next, ..] = data[start..end] {
        if !is_blank(next) {
            return start + 1;
        }
    }
    let mut i = start;
    for &c in &data[start..end] {
        if !is_blank(c) {
            break;
        }
        if c == b'\n' {
            lines.new_line(base + i as u64 + 1);
        }
        i += 1;
    }
    i
}

/// What a skipping consumer passes over in bulk, from `start` (at a token's start or between
/// tokens): words of bytes [`unplain_in`] does not flag, blanks, line ends (counted, as
/// [`skip_blanks`] counts them) and comments on one line. Returns the start of the first token
/// it leaves to the general path (one holding a flagged byte, or that the last eight bytes
/// before `end` hold in part), or the end of the last comment when that reaches `end`.
#[inline(always)]
fn skip_plain(data: &[u8], start: usize, end: usize, base: u64, lines: &mut Lines) -> usize {
    let mut i = start;
    // No token starts before this: the end of the last comment passed over.
    let mut floor = start;
    while let Some(chunk) = data.get(i..end).and_then(|rest| rest.first_chunk::<PLAIN_STEP>()) {
        let (flagged, line_ends) = plain_step(chunk);
        // The line ends before the first flagged byte (all of them when none is).
        let line_ends = line_ends & (flagged.wrapping_sub(1) & !flagged);
        if line_ends != 0 {
            lines.line += u64::from(line_ends.count_ones());
            lines.start = base + (i + 32 - line_ends.leading_zeros() as usize) as u64;
        }
        if flagged == 0 {
            i += PLAIN_STEP;
            continue;
        }
        i += flagged.trailing_zeros() as usize;
        // A comment on one line is passed over as the general path would (the word glued
        // before it, if any, is of unflagged bytes too).
        let rest = &data[i + 1..];
        match find_comment_end(rest) {
            Some(close) if data[i] == b'{' && rest[close] == b'}' => {
                i += close + 2;
                floor = i;
            }
            _ => break,
        }
    }
    if i > end {
        return i;
    }
    // Back to the start of the token the scan stopped in, if any: no line end lies between.
    if i == end || !is_blank(data[i]) {
        while i > floor && !is_blank(data[i - 1]) {
            i -= 1;
        }
    }
    i
}

/// The tag pairs and movetext tokens of a [`Source`], and where they stand.
pub(super) struct Tokenizer<S> {
    src: S,
    /// Index in `src.data()` of the next byte.
    pos: usize,
    /// Input offset of `src.data()[0]`.
    base: u64,
    eof: bool,
    /// The error of a failed read. The input ends where it happened: the games read before it
    /// come first, then the game it cut short is reported with this error (or, between games,
    /// the error alone), and nothing after.
    failed_read: Option<io::Error>,
    lines: Lines,
    /// Unescaped tag values, normalised comments.
    scratch: Vec<u8>,
    /// Tag values and comments after UTF-8 repair or Windows-1252 decoding.
    text: String,
    /// True once text of the game being read was decoded as Windows-1252: the warning is given
    /// once per game.
    warned: bool,
    /// `%` escape lines skipped so far: lines that are neither blank nor text.
    escape_lines: u64,
}

impl<S> Tokenizer<S> {
    /// Bytes of input consumed so far.
    pub(super) fn bytes_read(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Where the tokenizer stands in the input.
    pub(super) fn location(&self) -> Location {
        self.lines.locate(self.bytes_read())
    }

    /// How many `%` escape lines were skipped so far.
    pub(super) fn escape_lines(&self) -> u64 {
        self.escape_lines
    }

    /// A new game begins: its text may warn again.
    pub(super) fn begin_game(&mut self) {
        self.warned = false;
    }
}

impl<S: Source> Tokenizer<S> {
    /// Counts offsets, lines and columns as if the input began at `start` of a larger one.
    pub(super) fn start_at(&mut self, start: Location) {
        self.base = start.offset;
        self.lines = Lines { line: start.line, start: start.offset + 1 - start.column };
    }

    pub(super) fn new(src: S) -> Tokenizer<S> {
        Tokenizer {
            src,
            pos: 0,
            base: 0,
            eof: false,
            failed_read: None,
            lines: Lines { line: 1, start: 0 },
            scratch: Vec::new(),
            text: String::new(),
            warned: false,
            escape_lines: 0,
        }
    }

    // ----- input -----

    /// Releases the bytes before `pos` to the source.
    fn release_consumed(&mut self) {
        if self.pos > 0 {
            self.src.release(self.pos);
            self.base += self.pos as u64;
            self.pos = 0;
        }
    }

    /// The source, every byte consumed so far released to it: its data starts where the
    /// tokenizer stands.
    pub(super) fn source_at_position(&mut self) -> &mut S {
        self.release_consumed();
        &mut self.src
    }

    /// Releases the bytes before `pos` and reads more; false at the end of the input.
    fn fill(&mut self, want: usize) -> Result<bool, Fail> {
        if self.eof {
            return Ok(false);
        }
        self.release_consumed();
        match self.src.read_more(want) {
            Ok(0) => {
                self.eof = true;
                Ok(false)
            }
            Ok(_) => Ok(true),
            // The buffer could not grow for what the tokenizer needs in view: no way on.
            Err(e) if e.kind() == io::ErrorKind::OutOfMemory => {
                Err(Fail::new(PgnErrorKind::OutOfMemory, self.location(), b"", Resync::Stop))
            }
            Err(e) => {
                // The bytes already read are read on to a complete game; see `failed_read`.
                self.eof = true;
                self.failed_read = Some(e);
                Ok(false)
            }
        }
    }

    /// At the end of the input: an error when a failed read ended it, so that a game cut short
    /// is never taken for a whole one. (Reported once: the input ends with it.)
    pub(super) fn end_of_input(&mut self) -> Result<(), Fail> {
        match self.failed_read.take() {
            Some(e) => Err(Fail::new(PgnErrorKind::Io(e), self.location(), b"", Resync::Stop)),
            None => Ok(()),
        }
    }

    /// The error of a failed read that cut the line being read, if any: what broke a game found
    /// broken on it (a tag, a comment or a move missing its end).
    pub(super) fn take_read_error_on_this_line(&mut self) -> Option<io::Error> {
        let rest = self.src.data().get(self.pos..).unwrap_or_default();
        if rest.contains(&b'\n') {
            None
        } else {
            self.failed_read.take()
        }
    }

    /// Moves past `n` bytes holding `newlines` line ends, the last at relative index `last_nl`.
    #[inline]
    fn advance(&mut self, n: usize, newlines: u64, last_nl: usize) {
        if newlines > 0 {
            self.lines.line += newlines - 1;
            self.lines.new_line(self.base + (self.pos + last_nl + 1) as u64);
        }
        self.pos += n;
    }

    /// Skips blanks, line ends, byte order marks and `%` escape lines, then makes sure a whole
    /// token is in view. Returns the next byte (not consumed), or `None` at the end.
    #[inline]
    pub(super) fn skip_space(&mut self) -> Result<Option<u8>, Fail> {
        // One line end before the next tag or token, as between the tag pairs of a game, takes
        // no loop.
        let buf = self.src.data();
        if let [b'\n', next, ..] = buf[self.pos..] {
            if !is_blank(next) && !matches!(next, b'%' | 0xEF) && buf.len() - self.pos > LOOKAHEAD {
                self.pos += 1;
                self.lines.new_line(self.base + self.pos as u64);
                return Ok(Some(next));
            }
        }
        loop {
            let buf = self.src.data();
            let mut i = self.pos;
            let mut escape = false;
            let mut found = None;
            while i < buf.len() {
                i = skip_blanks(buf, i, buf.len(), self.base, &mut self.lines);
                match buf.get(i) {
                    Some(0xEF) if buf.len() - i >= 3 && buf[i + 1] == 0xBB && buf[i + 2] == 0xBF => {
                        // A mark at the start of a line is not part of it: columns (and the
                        // escape rule) start after it.
                        if self.base + i as u64 == self.lines.start {
                            self.lines.start += 3;
                        }
                        i += 3;
                    }
                    Some(b'%') if self.base + i as u64 == self.lines.start => {
                        escape = true;
                        break;
                    }
                    Some(&b) => {
                        found = Some(b);
                        break;
                    }
                    None => break,
                }
            }
            let in_view = buf.len() - i;
            self.pos = i;
            if escape {
                self.escape_lines += 1;
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
        (first == b'$' || !is_delimiter(first)) && !rest.iter().any(|&b| is_delimiter(b))
    }

    /// Consumes up to the end of the line (its `\n` included), streaming.
    pub(super) fn skip_line(&mut self) -> Result<(), Fail> {
        loop {
            let buf = &self.src.data()[self.pos..];
            if let Some(i) = find_any(buf, [b'\n']).map(|(at, _)| at) {
                self.advance(i + 1, 1, i);
                return Ok(());
            }
            self.pos += buf.len();
            if !self.fill(LOOKAHEAD)? {
                return Ok(());
            }
        }
    }

    /// The length of the line from `pos + from` (without its `\n`) once all of it is in view,
    /// and whether it is ASCII; `None` when it is longer than `limit`.
    fn line_in_view(&mut self, from: usize, limit: usize) -> Result<Option<(usize, bool)>, Fail> {
        loop {
            let buf = &self.src.data()[self.pos + from..];
            if let Some((i, ascii)) = find_any(buf, [b'\n']) {
                return Ok((i <= limit).then_some((i, ascii)));
            }
            if buf.len() > limit {
                return Ok(None);
            }
            if !self.fill(LOOKAHEAD)? {
                let line = &self.src.data()[self.pos + from..];
                return Ok(Some((line.len(), line.is_ascii())));
            }
        }
    }

    /// The length of the token at `pos` (up to the next delimiter or the end of the input);
    /// more than [`MAX_TOKEN_LEN`] when it is too long. `skip_space` put it in view.
    #[inline]
    fn token_len(&self) -> usize {
        let buf = &self.src.data()[self.pos..];
        let limit = buf.len().min(MAX_TOKEN_LEN + 1);
        buf[..limit].iter().position(|&b| is_delimiter(b)).unwrap_or(limit)
    }

    // ----- tag pairs -----

    /// The tag pair at `pos` (a `[` in view): its name and its value, unescaped and checked as
    /// text (see [`checked_text`]), and the warning the value gave; consumed up to its `]`.
    pub(super) fn tag_pair(&mut self, options: &ReaderOptions) -> Result<(&str, &str, Option<PgnWarning>), Fail> {
        let at = self.location();
        let limit = options.max_tag_len;
        let Some((len, ascii)) = self.line_in_view(0, limit)? else {
            return Err(Fail::new(PgnErrorKind::TagTooLong { limit }, at, b"", Resync::TAGS));
        };
        let line = &self.src.data()[self.pos..self.pos + len];
        if let (Some(spans), true) = (plain_tag_line(line), ascii) {
            self.pos += spans.end;
            // SAFETY: the line is ASCII.
            let text = |(start, end): (usize, usize)| unsafe { std::str::from_utf8_unchecked(&line[start..end]) };
            return Ok((text(spans.name), text(spans.value), None));
        }
        let spans = match parse_tag_line(line) {
            Ok(spans) => spans,
            Err(reason) => return Err(Fail::new(PgnErrorKind::BadTag { reason }, at, line, Resync::TAGS)),
        };
        self.pos += spans.end;
        let raw = &line[spans.value.0..spans.value.1];
        // Most values have nothing to unescape, and are read in place.
        let raw = if find_any(raw, [b'\\']).is_some() {
            self.scratch.clear();
            // Unescaping only shortens it.
            if self.scratch.try_reserve(raw.len()).is_err() {
                return Err(Fail::new(PgnErrorKind::OutOfMemory, at, b"", Resync::TAGS));
            }
            unescape_into(raw, &mut self.scratch);
            &self.scratch[..]
        } else {
            raw
        };
        // Tag names are ASCII by their syntax.
        let name = utf8(&line[spans.name.0..spans.name.1]).unwrap_or_default();
        match checked_text(raw, options, &mut self.text) {
            Ok((value, decoded)) => Ok((name, value, warn_once(&mut self.warned, decoded, at))),
            Err(kind) => Err(Fail::new(kind, at, line, Resync::TAGS)),
        }
    }

    /// The name of the tag pair at `pos` (a `[` in view), not consumed; `None` when the line
    /// is no tag pair.
    pub(super) fn next_tag_name(&mut self, options: &ReaderOptions) -> Result<Option<&str>, Fail> {
        let Some((len, _)) = self.line_in_view(0, options.max_tag_len)? else { return Ok(None) };
        let line = &self.src.data()[self.pos..self.pos + len];
        Ok(parse_tag_line(line).ok().and_then(|spans| utf8(&line[spans.name.0..spans.name.1])))
    }

    /// True when a complete tag pair line, and nothing else, starts `rel` bytes ahead.
    fn tag_line_at(&mut self, rel: usize, options: &ReaderOptions) -> Result<bool, Fail> {
        let Some((len, _)) = self.line_in_view(rel, options.max_tag_len)? else { return Ok(false) };
        let line = &self.src.data()[self.pos + rel..self.pos + rel + len];
        Ok(parse_tag_line(line).is_ok_and(|spans| spans.alone && line[spans.end..].trim_ascii().is_empty()))
    }

    // ----- movetext -----

    /// Hands the movetext tokens from `pos` on to `consumer` until it stops them, the next
    /// game's tags begin, or the input ends.
    pub(super) fn movetext<C: Consumer>(
        &mut self,
        options: &ReaderOptions,
        consumer: &mut C,
    ) -> Result<Ended<C::Stop>, Fail> {
        loop {
            if let ControlFlow::Break(stop) = self.fast_tokens(options.max_comment_len, consumer)? {
                return Ok(Ended::Consumer(stop));
            }
            let (token, at) = match self.slow_token(C::READS, options) {
                Ok(Slow::Token(token, at, warning)) => {
                    if let Some(warning) = warning {
                        consumer.warning(warning);
                    }
                    (token, at)
                }
                Ok(Slow::Skipped) => continue,
                Ok(Slow::NextGame) => return Ok(Ended::NextGame),
                Ok(Slow::End) => return Ok(Ended::Input),
                Err(fail) => return Err(fail.within(consumer.depth())),
            };
            if let ControlFlow::Break(stop) = consumer.token(token).map_err(|rejection| rejection.at(at))? {
                return Ok(Ended::Consumer(stop));
            }
        }
    }

    /// The fast path: the common tokens straight from the buffer (blanks, line ends, words of
    /// up to 8 bytes ended by a blank or line end, comments on one line: ASCII ones up to the
    /// comment limit for a reading consumer, any for a skipping one), until anything else, or
    /// the end of what is in view, is left to the general path. Its state stays in registers.
    #[inline(always)]
    fn fast_tokens<C: Consumer>(
        &mut self,
        max_comment_len: usize,
        consumer: &mut C,
    ) -> Result<ControlFlow<C::Stop>, Fail> {
        let data = self.src.data();
        // A token starting before `limit` is in view whole, with the byte after it (at the end
        // of the input too, unless a failed read ended it).
        let limit =
            if self.eof && self.failed_read.is_none() { data.len() } else { data.len().saturating_sub(LOOKAHEAD) };
        let base = self.base;
        let (mut i, mut lines) = (self.pos, self.lines);
        let mut flow = Ok(ControlFlow::Continue(()));
        // (A token may end past `limit`.)
        while i < limit {
            if !C::READS {
                i = skip_plain(data, i, limit, base, &mut lines);
                if i >= limit {
                    break;
                }
            }
            i = skip_blanks(data, i, limit, base, &mut lines);
            if i >= limit {
                break;
            }
            let c = data[i];
            // Where the token starts (a word's move number is none of it).
            let mut start = i;
            let (word_start, mut word_len) = (i, 0);
            let token = if c == b'{' {
                let rest = &data[i + 1..];
                if C::READS {
                    let Some((close, ascii)) = scan_short_comment(rest) else { break };
                    if rest[close] != b'}' || !ascii || close > max_comment_len {
                        break;
                    }
                    i += close + 2;
                    // SAFETY: the comment was just found to be ASCII.
                    Token::Comment(unsafe { std::str::from_utf8_unchecked(trim_blanks(&rest[..close])) })
                } else {
                    match find_comment_end(rest) {
                        Some(close) if rest[close] == b'}' => i += close + 2,
                        _ => break,
                    }
                    continue;
                }
            } else if CLASS[c as usize] & WORD_START != 0 {
                // Near the end of the input the general path reads the token.
                let Some(window) = data[i..].first_chunk::<9>() else { break };
                let [_, next @ ..] = *window;
                let next = u64::from_le_bytes(next);
                let end = word_end(next);
                if end == 0 {
                    break;
                }
                // The byte that ends the word is in `next` already: no load to wait for. Control
                // characters other than blanks and line ends do not end words: such words are
                // left to the general path, and so are words that are not ASCII (the first byte
                // is), and for a skipping consumer words that may hold a delimiter. (A skipping
                // consumer looks for results, and some are not ASCII: `1–0`.)
                // (A reading consumer rejects a word that runs into a delimiter, see
                // `Consumer::token`; it is read again then. Checking every word first would cost
                // more.)
                let shift = end.trailing_zeros() - 7;
                let before_end = (end >> 7) - 1;
                let unusual = if C::READS { next & HIGHS } else { next & HIGHS | delimiters_in(next) };
                if !is_blank((next >> shift) as u8) || unusual & before_end != 0 {
                    break;
                }
                let len = 1 + shift as usize / 8;
                // SAFETY: the word was just found to be ASCII.
                let word = unsafe { std::str::from_utf8_unchecked(&window[..len]) };
                i += len;
                word_len = len;
                if !c.is_ascii_digit() {
                    if !C::READS {
                        continue;
                    }
                    Token::Word(Word::Ascii(word))
                } else if is_move_number(next, before_end) {
                    continue;
                } else if let Some(outcome) = result_token(word.as_bytes()) {
                    Token::Result(outcome)
                } else {
                    let number = move_number_len(word.as_bytes());
                    if !C::READS || number == len {
                        continue;
                    }
                    start += number;
                    Token::Word(Word::Ascii(&word[number..]))
                }
            } else {
                break;
            };
            match consumer.token(token) {
                Ok(ControlFlow::Continue(())) => {}
                Ok(stop) => {
                    flow = Ok(stop);
                    break;
                }
                Err(_) if data[word_start..word_start + word_len].iter().any(|&b| is_delimiter(b)) => {
                    // The word runs into a delimiter: the general path splits it exactly.
                    i = word_start;
                    break;
                }
                Err(rejection) => {
                    flow = Err(rejection.at(lines.locate(base + start as u64)));
                    break;
                }
            }
        }
        self.pos = i;
        self.lines = lines;
        flow
    }

    /// The general path: one token of any kind, refilling the buffer as needed, checking the
    /// limits for a reading consumer (`reads`) and streaming what a skipping one does not get.
    fn slow_token(&mut self, reads: bool, options: &ReaderOptions) -> Result<Slow<'_>, Fail> {
        let Some(c) = self.skip_space()? else { return Ok(Slow::End) };
        let at = self.location();
        let token = match c {
            b'{' if reads => {
                let (text, warning) = self.brace_comment(options)?;
                return Ok(Slow::Token(Token::Comment(text), at, warning));
            }
            b'{' => {
                self.pos += 1;
                return Ok(if self.skip_comment_rest(options)? { Slow::NextGame } else { Slow::Skipped });
            }
            b';' if reads => {
                let (text, warning) = self.line_comment(options)?;
                return Ok(Slow::Token(Token::Comment(text), at, warning));
            }
            b';' => {
                self.skip_line()?;
                return Ok(Slow::Skipped);
            }
            b'(' => {
                self.pos += 1;
                Token::Open(at)
            }
            b')' => {
                self.pos += 1;
                Token::Close
            }
            b'*' => {
                self.pos += 1;
                Token::Result(Outcome::Ongoing)
            }
            b'[' => return Ok(Slow::NextGame),
            b'$' if reads => Token::Nag(self.dollar_nag()?),
            b'}' | b']' | b'"' => {
                self.pos += 1;
                if !reads {
                    return Ok(Slow::Skipped);
                }
                return Err(Fail::new(PgnErrorKind::UnexpectedChar(c as char), at, &[c], Resync::MOVETEXT));
            }
            _ => {
                if c == b'$' {
                    // Skipped with the word after it, as a NAG is read.
                    self.pos += 1;
                }
                let len = self.token_len();
                if len > MAX_TOKEN_LEN {
                    if !reads {
                        self.skip_long_token()?;
                        return Ok(Slow::Skipped);
                    }
                    let kind = PgnErrorKind::TokenTooLong { limit: MAX_TOKEN_LEN };
                    let fail = Fail::new(kind, at, &self.src.data()[self.pos..self.pos + 64], Resync::MOVETEXT);
                    // The rest of the token is skipped with the game.
                    self.pos += MAX_TOKEN_LEN;
                    return Err(fail);
                }
                let start = self.pos;
                self.pos += len;
                let word = &self.src.data()[start..start + len];
                let number = move_number_len(word);
                // The results that are not standard PGN are not ASCII.
                let (outcome, standard) = match result_token(word) {
                    None if !word.is_ascii() => (lenient_result_token(word), false),
                    outcome => (outcome, true),
                };
                match outcome {
                    Some(_) if reads && options.strict && !standard && c != b'$' => {
                        let kind = PgnErrorKind::NonStandard { what: "result not written 1-0, 0-1, 1/2-1/2 or *" };
                        return Err(Fail::new(kind, at, word, Resync::MOVETEXT));
                    }
                    Some(outcome) if c != b'$' => Token::Result(outcome),
                    _ if reads && number < len => {
                        return Ok(Slow::Token(Token::Word(Word::new(&word[number..])), at.ahead(number), None))
                    }
                    _ => return Ok(Slow::Skipped),
                }
            }
        };
        Ok(Slow::Token(token, at, None))
    }

    /// After a game's result: the comments on the rest of its line belong to the game. They go
    /// to `take` with the warning each gave, or are skipped without it.
    pub(super) fn comments_on_line(
        &mut self,
        options: &ReaderOptions,
        mut take: Option<&mut TakeComment<'_>>,
    ) -> Result<(), Fail> {
        loop {
            let buf = &self.src.data()[self.pos..];
            // Blanks, but not the line end.
            let blanks = buf.iter().take_while(|&&b| is_blank(b) && b != b'\n').count();
            if blanks == buf.len() && !self.eof {
                self.pos += blanks;
                self.fill(LOOKAHEAD)?;
                continue;
            }
            let first = buf.get(blanks).copied();
            self.pos += blanks;
            match (first, take.as_mut()) {
                (Some(b'{'), Some(take)) => {
                    let (text, warning) = self.brace_comment(options)?;
                    take(text, warning);
                }
                // A `;` comment ends the line: read or skipped, the reader stands after it.
                (Some(b';'), Some(take)) => {
                    let (text, warning) = self.line_comment(options)?;
                    take(text, warning);
                    return self.skip_line();
                }
                (Some(b'{'), None) => {
                    self.pos += 1;
                    if self.skip_comment_rest(options)? {
                        return Ok(());
                    }
                }
                (Some(b';'), None) => return self.skip_line(),
                // The line ends here only if the input does.
                (None, _) => return self.end_of_input(),
                _ => return Ok(()),
            }
        }
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
        value.ok_or_else(|| Fail::new(PgnErrorKind::InvalidNag, at, text, Resync::MOVETEXT))
    }

    /// A `{` comment at `pos`, and the warning its text gave.
    fn brace_comment(&mut self, options: &ReaderOptions) -> Result<(&str, Option<PgnWarning>), Fail> {
        let at = self.location();
        let limit = options.max_comment_len;
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
                    if buf.get(i) == Some(&b'[') && self.tag_line_at(i, options)? {
                        // The comment runs into the next game's tags: it was never closed.
                        self.advance(i, newlines, last_nl);
                        return Err(Fail::new(PgnErrorKind::UnterminatedComment, at, b"", Resync::None));
                    }
                    continue;
                }
                // A line end at the end of what is in view: look again after the refill.
                Some(nl) => i = nl,
                None => i = buf.len(),
            }
            if i - 1 > limit {
                self.advance(i, newlines, last_nl);
                let resync = Resync::Game { in_tags: false, in_comment: true, in_line: false, depth: 0 };
                return Err(Fail::new(PgnErrorKind::CommentTooLong { limit }, at, b"", resync));
            }
            if !self.fill(LOOKAHEAD)? {
                self.advance(i, newlines, last_nl);
                return Err(Fail::new(PgnErrorKind::UnterminatedComment, at, b"", Resync::None));
            }
        };
        if close - 1 > limit {
            self.advance(close + 1, newlines, last_nl);
            return Err(Fail::new(PgnErrorKind::CommentTooLong { limit }, at, b"", Resync::MOVETEXT));
        }
        let start = self.pos + 1;
        let end = self.pos + close;
        let has_cr = newlines > 0 && self.src.data()[start..end].contains(&b'\r');
        self.advance(close + 1, newlines, last_nl);
        self.comment_text(start, end, has_cr, at, options)
    }

    /// A `;` comment at `pos`, to the end of its line, and the warning its text gave.
    fn line_comment(&mut self, options: &ReaderOptions) -> Result<(&str, Option<PgnWarning>), Fail> {
        let at = self.location();
        let limit = options.max_comment_len;
        let Some((len, _)) = self.line_in_view(0, limit)? else {
            let resync = Resync::Game { in_tags: false, in_comment: false, in_line: true, depth: 0 };
            return Err(Fail::new(PgnErrorKind::CommentTooLong { limit }, at, b"", resync));
        };
        let (start, end) = (self.pos + 1, self.pos + len);
        self.pos += len;
        self.comment_text(start, end, false, at, options)
    }

    /// The text of a comment at `start..end` of the buffer: trimmed, line ends made LF (the CRs
    /// before an LF go, however many, so that reading what was written changes nothing), checked
    /// as text (see [`checked_text`]); and the warning it gave.
    fn comment_text(
        &mut self,
        start: usize,
        end: usize,
        has_cr: bool,
        at: Location,
        options: &ReaderOptions,
    ) -> Result<(&str, Option<PgnWarning>), Fail> {
        let raw = self.src.data()[start..end].trim_ascii();
        let raw = if has_cr {
            self.scratch.clear();
            // Dropping CRs only shortens it.
            if self.scratch.try_reserve(raw.len()).is_err() {
                return Err(Fail::new(PgnErrorKind::OutOfMemory, at, b"", Resync::MOVETEXT));
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
        match checked_text(raw, options, &mut self.text) {
            Ok((text, decoded)) => Ok((text, warn_once(&mut self.warned, decoded, at))),
            Err(kind) => Err(Fail::new(kind, at, &raw[..raw.len().min(64)], Resync::MOVETEXT)),
        }
    }

    /// Consumes a token too long to look at, streaming.
    fn skip_long_token(&mut self) -> Result<(), Fail> {
        loop {
            let buf = &self.src.data()[self.pos..];
            match buf.iter().position(|&b| is_delimiter(b)) {
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
    pub(super) fn skip_comment_rest(&mut self, options: &ReaderOptions) -> Result<bool, Fail> {
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
                    if self.src.data().get(self.pos) == Some(&b'[') && self.tag_line_at(0, options)? {
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
}

/// How many bytes of `word` are a move number: `12.`, `12...` (possibly glued to the move),
/// digits alone (a number without its dot; `0000` is the null move, though), or periods alone
/// or before a move (the PGN standard makes a period a token: `2 . Nf3`, `1. ... e5`, `...e5`).
#[inline(always)]
fn move_number_len(word: &[u8]) -> usize {
    let mut digits = 0;
    while digits < word.len() && word[digits].is_ascii_digit() {
        digits += 1;
    }
    let mut dots = digits;
    while dots < word.len() && word[dots] == b'.' {
        dots += 1;
    }
    if dots > digits || (digits > 0 && digits == word.len() && word != b"0000") {
        dots
    } else {
        0
    }
}

/// The result a token stands for (`*` is a token of its own, read apart).
fn result_token(text: &[u8]) -> Option<Outcome> {
    match text {
        b"1-0" => Some(Outcome::WhiteWins),
        b"0-1" => Some(Outcome::BlackWins),
        b"1/2-1/2" => Some(Outcome::Draw),
        _ => None,
    }
}

/// The result a token that is not standard PGN stands for: `½-½`, or an en dash for the
/// hyphen (`1–0`, `0–1`, `1/2–1/2`, `½–½`), as word processors write them.
#[cold]
fn lenient_result_token(text: &[u8]) -> Option<Outcome> {
    let (left, right) = std::str::from_utf8(text).ok()?.split_once(['-', '\u{2013}'])?;
    match (left, right) {
        ("1", "0") => Some(Outcome::WhiteWins),
        ("0", "1") => Some(Outcome::BlackWins),
        ("1/2" | "\u{bd}", "1/2" | "\u{bd}") => Some(Outcome::Draw),
        _ => None,
    }
}

// ----- text -----

/// `bytes` as text, with a fast path for ASCII (most tags and comments, every move): the
/// library's check is a call per token, which shows at this rate.
#[inline(always)]
pub(super) fn utf8(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

/// A tag value or comment as text: UTF-8 without NUL bytes (which C strings cannot hold, so a
/// value would come out cut short), and whether it was decoded as Windows-1252. With
/// `lossy_utf8` invalid bytes and NULs become U+FFFD in `repaired`; otherwise, unless reading
/// strictly, text that is not UTF-8 is decoded as Windows-1252 there (Latin-1 and Windows files
/// are common, and every byte means a character in that code page).
fn checked_text<'a>(
    raw: &'a [u8],
    options: &ReaderOptions,
    repaired: &'a mut String,
) -> Result<(&'a str, bool), PgnErrorKind> {
    match utf8(raw) {
        Some(text) if !raw.contains(&0) => Ok((text, false)),
        _ if options.lossy_utf8 => {
            repair_text(raw, repaired).map_err(|_| PgnErrorKind::OutOfMemory)?;
            Ok((repaired, false))
        }
        Some(_) => Err(PgnErrorKind::NulByte),
        None if raw.contains(&0) || options.strict => Err(PgnErrorKind::InvalidUtf8),
        None => {
            decode_windows_1252(raw, repaired).map_err(|_| PgnErrorKind::OutOfMemory)?;
            Ok((repaired, true))
        }
    }
}

/// The warning for text just decoded as Windows-1252 (`decoded`) at `at`, unless the game has
/// had it.
fn warn_once(warned: &mut bool, decoded: bool, at: Location) -> Option<PgnWarning> {
    if !decoded || *warned {
        return None;
    }
    *warned = true;
    Some(PgnWarning { kind: PgnWarningKind::Windows1252, location: at })
}

/// The characters of Windows-1252 bytes 0x80 to 0x9F; the five it leaves undefined are the C1
/// controls of the same value, as the WHATWG encoding standard decodes them. Bytes from 0xA0
/// are the Latin-1 characters of the same value.
const WINDOWS_1252_HIGH: [char; 32] = [
    '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}', '\u{2c6}', '\u{2030}',
    '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}', '\u{8f}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}',
    '\u{201d}', '\u{2022}', '\u{2013}', '\u{2014}', '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}',
    '\u{17e}', '\u{178}',
];

/// `raw` decoded as Windows-1252 into `out`, in memory reserved first (an error when there is
/// none).
fn decode_windows_1252(raw: &[u8], out: &mut String) -> Result<(), std::collections::TryReserveError> {
    let char_of = |b: u8| match b {
        0x80..=0x9f => WINDOWS_1252_HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    };
    out.clear();
    out.try_reserve(raw.iter().map(|&b| char_of(b).len_utf8()).sum())?;
    out.extend(raw.iter().map(|&b| char_of(b)));
    Ok(())
}

/// `String::from_utf8_lossy(raw)` with NULs replaced too, into `out`, in memory reserved
/// first (an error when there is none).
fn repair_text(raw: &[u8], out: &mut String) -> Result<(), std::collections::TryReserveError> {
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

// ----- tag pair lines -----

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

/// The parts of `line` when it is a tag pair written the plain way, `[Name "value"]` and
/// nothing after it (a CR aside), the value holding no quote, backslash or NUL: what
/// [`parse_tag_line`] reads of such a line, found with one search of the value, and a value
/// with nothing to unescape or reject.
#[inline(always)]
fn plain_tag_line(line: &[u8]) -> Option<TagSpans> {
    let body = line.strip_suffix(b"\r").unwrap_or(line);
    let body = body.strip_suffix(b"\"]")?;
    if !body.get(1)?.is_ascii_alphanumeric() {
        return None;
    }
    let name_end = 1 + body[1..].iter().position(|&b| !is_tag_name_byte(b))?;
    if body.get(name_end..name_end + 2)? != b" \"" {
        return None;
    }
    let value_start = name_end + 2;
    if find_any(&body[value_start..], [b'"', b'\\', 0]).is_some() {
        return None;
    }
    Some(TagSpans { name: (1, name_end), value: (value_start, body.len()), end: body.len() + 2, alone: true })
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

// ----- eight bytes at a time -----

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` equal to `c`; the lowest one set marks the first such
/// byte (higher ones may be false alarms from the borrow, so only the lowest may be used).
#[inline(always)]
fn bytes_equal(word: u64, c: u8) -> u64 {
    let x = word ^ (ONES * u64::from(c));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The high bit of each byte of `word` equal to `c`, and of no other byte.
#[inline(always)]
fn exact_bytes_equal(word: u64, c: u8) -> u64 {
    let x = word ^ (ONES * u64::from(c));
    // A byte's high bit ends up clear only when all its bits were.
    !(((x & !HIGHS) + !HIGHS) | x) & HIGHS
}

/// True when the bytes `in_word` selects of `next` (those of a word after its first byte, a
/// digit) are digits then periods, at least one: a move number alone (`12.`, `12...`), the
/// commonest word that starts with a digit, told apart from results and moves at once.
#[inline(always)]
fn is_move_number(next: u64, in_word: u64) -> bool {
    let highs = in_word & HIGHS;
    let dots = exact_bytes_equal(next, b'.') & highs;
    let x = next ^ (ONES * u64::from(b'0'));
    // A byte's high bit ends up clear only when it was 0 to 9.
    let digits = !(((x & !HIGHS) + ONES * 0x76) | x) & highs;
    let from_first_dot = highs & !((dots & dots.wrapping_neg()).wrapping_sub(1));
    dots != 0 && dots | digits == highs && dots == from_first_dot
}

/// `text` without the ASCII blanks at either end; the usual single space at each end is taken
/// without a loop.
#[inline(always)]
fn trim_blanks(text: &[u8]) -> &[u8] {
    if let [b' ', first, .., last, b' '] = text {
        if !first.is_ascii_whitespace() && !last.is_ascii_whitespace() {
            return &text[1..text.len() - 1];
        }
    }
    text.trim_ascii()
}

/// Bytes [`plain_step`] classifies at once.
const PLAIN_STEP: usize = if cfg!(target_arch = "x86_64") { 16 } else { 8 };

/// For each byte of `chunk`, a bit (the first byte's lowest): the bytes [`unplain_in`] flags,
/// and the line ends. With SSE2, which every x86-64 processor has.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn plain_step(chunk: &[u8; PLAIN_STEP]) -> (u32, u32) {
    use std::arch::x86_64::*;
    // SAFETY: the load reads the 16 bytes of `chunk`, unaligned; SSE2 is always there.
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr().cast());
        let splat = |c: u8| _mm_set1_epi8(c as i8);
        let equal = |c: u8| _mm_cmpeq_epi8(v, splat(c));
        // Signed comparisons: bytes above 0x7F are below every ASCII byte, so `controls`
        // holds them.
        let within = |lo: u8, hi: u8| _mm_and_si128(_mm_cmpgt_epi8(v, splat(lo - 1)), _mm_cmplt_epi8(v, splat(hi + 1)));
        let line_ends = equal(b'\n');
        let blanks = _mm_or_si128(_mm_or_si128(equal(b'\t'), equal(b'\r')), line_ends);
        let controls = _mm_andnot_si128(blanks, _mm_cmplt_epi8(v, splat(0x20)));
        let punctuation = _mm_or_si128(
            _mm_or_si128(within(0x24, 0x2A), within(0x2C, 0x2D)),
            _mm_or_si128(equal(b'/'), within(0x3A, 0x3C)),
        );
        let brackets = _mm_cmpgt_epi8(_mm_or_si128(v, splat(0x20)), splat(0x7A));
        let flagged = _mm_or_si128(_mm_or_si128(controls, punctuation), brackets);
        (_mm_movemask_epi8(flagged) as u32, _mm_movemask_epi8(line_ends) as u32)
    }
}

/// [`plain_step`] eight bytes at a time, without SSE2.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn plain_step(chunk: &[u8; PLAIN_STEP]) -> (u32, u32) {
    plain_step_swar(chunk)
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn plain_step_swar(chunk: &[u8; 8]) -> (u32, u32) {
    let word = u64::from_le_bytes(*chunk);
    // The high bits of the eight bytes, gathered into the top byte in order.
    let bits = |highs: u64| ((highs >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
    (bits(unplain_in(word)), bits(exact_bytes_equal(word, b'\n')))
}

/// The high bits of the bytes of `word` that a skipping consumer must not pass over in bulk:
/// those that may start or end a comment, a variation, a tag, a NAG, an escape line or a
/// result (`-`, `/`, `*`, bytes above 0x7F), control characters other than line ends, and a few
/// more beside them. The letters, digits, blanks and `! # + . = ?` of moves and move numbers
/// are never flagged; of the bytes left unflagged (`" > @` and `` ` ``), none makes a token such a
/// consumer acts on, alone or in a word.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn unplain_in(word: u64) -> u64 {
    // In seven bits, so that the additions carry into no other byte (as in `delimiters_in`).
    let x = word & !HIGHS;
    let at_least = |v: u64, lo: u8| v + ONES * u64::from(0x80 - lo);
    let within = |lo: u8, hi: u8| at_least(x, lo) & !at_least(x, hi + 1);
    let equal = |c: u8| !((x ^ (ONES * u64::from(c))) + ONES * 0x7F);
    let controls = !at_least(x, 0x20) & !equal(b'\t') & !equal(b'\n') & !equal(b'\r');
    // `$` to `*`, `,` and `-`, `/`, `:` to `<`, and with bit 0x20 set `[` to DEL.
    let punctuation = within(0x24, 0x2A) | within(0x2C, 0x2D) | equal(b'/') | within(0x3A, 0x3C);
    let brackets = at_least(x | (ONES * 0x20), 0x7B);
    (word | controls | punctuation | brackets) & HIGHS
}

/// The high bits of the bytes of `word` that may be movetext delimiters other than blanks and
/// line ends (`{ } ( ) [ ] ; $ "`): those, and a few bytes beside them that words hardly
/// hold (`# % & ' * : < \ ^ _ | ~`, DEL, and bytes above 0x7F that are one of these plus 0x80).
/// Nothing a move, a move number, a suffix or a result is made of.
#[inline(always)]
fn delimiters_in(word: u64) -> u64 {
    // In seven bits, so that the additions carry into no other byte; with the high bit set
    // after an addition when the byte is at least the bound.
    let x = word & !HIGHS;
    let at_least = |lo: u8| x + ONES * u64::from(0x80 - lo);
    // `"` to `*`, `:` to `<`, and, with bit 0x20 set, `[` to DEL (`{` and `}` among them).
    let quote_to_paren = at_least(0x22) & !at_least(0x2B);
    let semicolon = at_least(0x3A) & !at_least(0x3D);
    let brackets = (x | (ONES * 0x20)) + ONES * (0x80 - 0x7B);
    (quote_to_paren | semicolon | brackets) & HIGHS
}

/// The high bit of the first byte of `next` below 0x21 (a blank, a line end or another control
/// character), 0 when there is none: where a word whose first byte is followed by the 8 bytes of
/// `next` (little endian) ends. The other delimiters (`{`, `(`, `$`...) are looked for apart
/// ([`delimiters_in`]).
#[inline(always)]
fn word_end(next: u64) -> u64 {
    let low = next.wrapping_sub(ONES * 0x21) & !next & HIGHS;
    // Borrows may set bits above the first such byte, never below.
    low & low.wrapping_neg()
}

/// The index of the first byte of `hay` among `needles`, and whether the bytes before it are all
/// ASCII: sixteen bytes at a time with SSE2, eight at a time after. Comments, tag values and
/// lines are searched this way; inlined, a caller that drops the ASCII answer does not compute it.
#[inline(always)]
fn find_any<const N: usize>(hay: &[u8], needles: [u8; N]) -> Option<(usize, bool)> {
    let mut offset = 0;
    let mut ascii = true;
    #[cfg(target_arch = "x86_64")]
    while let Some(chunk) = hay[offset..].first_chunk::<16>() {
        use std::arch::x86_64::*;
        // SAFETY: the load reads the 16 bytes of `chunk`, unaligned; SSE2 is always there.
        let (found, highs) = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let mut any = _mm_setzero_si128();
            for needle in needles {
                any = _mm_or_si128(any, _mm_cmpeq_epi8(v, _mm_set1_epi8(needle as i8)));
            }
            (_mm_movemask_epi8(any) as u32, _mm_movemask_epi8(v) as u32)
        };
        if found != 0 {
            // The high bits of the bytes before the first one found.
            let before = (found & found.wrapping_neg()) - 1;
            return Some((offset + found.trailing_zeros() as usize, ascii && highs & before == 0));
        }
        ascii &= highs == 0;
        offset += 16;
    }
    let mut chunks = hay[offset..].chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let found = needles.iter().fold(0, |found, &needle| found | bytes_equal(word, needle));
        if found != 0 {
            let before = (found & found.wrapping_neg()).wrapping_sub(1) & HIGHS;
            return Some((offset + found.trailing_zeros() as usize / 8, ascii && word & before == 0));
        }
        ascii &= word & HIGHS == 0;
        offset += 8;
    }
    let rest = chunks.remainder();
    let end = rest.iter().position(|c| needles.contains(c))?;
    Some((offset + end, ascii && rest[..end].is_ascii()))
}

/// The index of the first byte of `hay` equal to `a` or `b`.
#[inline]
fn find_either(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    find_any(hay, [a, b]).map(|(at, _)| at)
}

/// The first `}` or line end of a comment.
#[inline]
fn find_comment_end(hay: &[u8]) -> Option<usize> {
    find_either(hay, b'}', b'\n')
}

/// The first `}`, line end or NUL of a comment, and whether the bytes before it are all ASCII:
/// one pass where the general path would take three. (A NUL stops it, for the general path to
/// report.)
#[inline(always)]
fn scan_short_comment(hay: &[u8]) -> Option<(usize, bool)> {
    find_any(hay, [b'}', b'\n', 0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::BytesSource;

    #[test]
    fn move_numbers_told_apart() {
        // Every word of up to eight bytes of these after a first digit, as the fast path sees
        // it: the bytes after the first in a word, a blank after them.
        let alphabet = b"09.-/x";
        for len in 1..=8u32 {
            for mut index in 0..alphabet.len().pow(len - 1) {
                let mut word = vec![b'1'];
                for _ in 1..len {
                    word.push(alphabet[index % alphabet.len()]);
                    index /= alphabet.len();
                }
                let mut next = [b' '; 8];
                next[..word.len() - 1].copy_from_slice(&word[1..]);
                let in_word = (0x80u64 << (8 * (len - 1))) >> 7;
                let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
                let expected = digits < word.len() && word[digits..].iter().all(|&b| b == b'.');
                assert_eq!(is_move_number(u64::from_le_bytes(next), in_word.wrapping_sub(1)), expected, "{word:?}");
                if expected {
                    assert_eq!(move_number_len(&word), word.len());
                }
            }
        }
    }

    #[test]
    fn word_end_and_delimiters() {
        // Every byte value at every place, among word bytes.
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut next = *b"Nxe5+!?a";
                next[at] = b;
                let word = u64::from_le_bytes(next);
                let end = next.iter().position(|&c| c < 0x21).map_or(0, |k| 0x80 << (8 * k));
                assert_eq!(word_end(word), end, "{b:#x} at {at}");
                let first = delimiters_in(word).trailing_zeros() as usize / 8;
                if is_delimiter(b) && !is_blank(b) {
                    assert_eq!(first, at, "{b:#x} at {at}");
                }
                if b.is_ascii_alphanumeric() || b"!+-./=?@".contains(&b) {
                    assert_eq!(first, 8, "{b:#x} at {at}");
                }
            }
        }
        assert_eq!(find_either(b"abc}def\nghi", b'}', b'\n'), Some(3));
        assert_eq!(find_either(b"0123456789abcdef\n", b'}', b'\n'), Some(16));
        assert_eq!(find_either(b"0123456789", b'}', b'\n'), None);
        for len in 0..40 {
            let mut hay = vec![b'x'; len];
            assert_eq!(find_either(&hay, b'}', b'\n'), None);
            for at in 0..len {
                hay[at] = b'\n';
                assert_eq!(find_either(&hay, b'}', b'\n'), Some(at));
                hay[at..].fill(b'}');
                assert_eq!(find_either(&hay, b'}', b'\n'), Some(at));
                hay.fill(b'x');
            }
        }
        assert_eq!(scan_short_comment(b" [%clk 0:05:00] } 2. d4"), Some((16, true)));
        assert_eq!(scan_short_comment("caf\u{e9} } x".as_bytes()), Some((6, false)));
        assert_eq!(scan_short_comment("long ascii text } then caf\u{e9}".as_bytes()), Some((16, true)));
        assert_eq!(scan_short_comment("a\u{e9}\n}".as_bytes()), Some((3, false)));
        assert_eq!(scan_short_comment(b"no end"), None);
        // Each end at each place, with a byte that is not ASCII before it, at it or after it.
        for len in 1..48 {
            for end in [b'}', b'\n', 0] {
                for at in 0..len {
                    for high in [None, Some(0), Some(at), Some(len - 1)] {
                        let mut hay = vec![b'x'; len];
                        if let Some(high) = high {
                            hay[high] = 0xe9;
                        }
                        hay[at] = end;
                        let ascii = high.is_none_or(|high| high >= at);
                        assert_eq!(scan_short_comment(&hay), Some((at, ascii)), "{len} {at} {high:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn plain_runs() {
        // Every byte value at every place, among move bytes, in both ways of classifying.
        for b in 0..=255u8 {
            let flagged = !(b.is_ascii_alphanumeric() || b"\t\n\r !\"#+.=>?@`".contains(&b));
            for at in 0..16 {
                let mut bytes = *b"\n1.e4\ne5 2.Nf3\r\n";
                bytes[at] = b;
                let bits = |pick: &dyn Fn(u8) -> bool| (0..16).filter(|&k| pick(bytes[k])).fold(0, |m, k| m | 1 << k);
                let expected = (bits(&|c| c == b'\n'), bits(&|c| c == b && flagged));
                let (step_flagged, step_line_ends) = plain_step(bytes[..PLAIN_STEP].try_into().unwrap());
                let mask = (1u32 << PLAIN_STEP) - 1;
                assert_eq!((step_flagged, step_line_ends), (expected.1 & mask, expected.0 & mask), "{b:#x} at {at}");
                let (low, high) = bytes.split_at(8);
                let swar = |half: &[u8]| plain_step_swar(half.try_into().unwrap());
                let ((lf, ll), (hf, hl)) = (swar(low), swar(high));
                assert_eq!((lf | hf << 8, ll | hl << 8), (expected.1, expected.0), "{b:#x} at {at}");
            }
        }
        // The lines before `stop`, counted byte by byte.
        let lines_before = |data: &[u8], stop: usize| {
            let mut lines = Lines { line: 1, start: 0 };
            for (k, &c) in data[..stop].iter().enumerate() {
                if c == b'\n' {
                    lines.new_line(100 + k as u64 + 1);
                }
            }
            (lines.line, lines.start)
        };
        // Stops at the start of the first token with a byte that matters to a skipping reader,
        // with the lines before it counted.
        for (text, stop) in [
            ("1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6 4. Ba4 Nf6 O-O", 41),
            ("1. e4 e5 2. Nf3 {x} Nc6 (Nf6)", 24),
            ("12. Qxd8+ Kxd8\n\n13. Rd1#\n1-0", 25),
            ("e4 e5 (e6) d4", 6),
            ("e4\n%escape\n", 3),
            ("e4 \u{bd}-\u{bd}", 3),
            // Comments on one line are passed over; one on two lines is not.
            ("1. e4 { [%clk 0:03:00] } 1... e5 {a} 2. Nf3 {\n} Nc6 {b}", 44),
            ("1. e4 { [%eval -0.3] }e5(Nf3 e6)", 22),
        ] {
            // Room for whole steps.
            let padded = format!("{text}{}", " ".repeat(2 * PLAIN_STEP));
            let data = padded.as_bytes();
            let mut lines = Lines { line: 1, start: 0 };
            assert_eq!(skip_plain(data, 0, data.len(), 100, &mut lines), stop, "{text:?}");
            assert_eq!((lines.line, lines.start), lines_before(data, stop), "{text:?}");
        }
        // Near the end, at the start of a token or between tokens (never inside one the end
        // cuts), the lines before it counted.
        let data = b"1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7";
        for end in 0..data.len() {
            let mut lines = Lines { line: 1, start: 0 };
            let stop = skip_plain(data, 0, end, 100, &mut lines);
            assert!(stop <= end && (stop == 0 || is_blank(data[stop - 1]) || is_blank(data[stop])), "{end}");
            assert!(stop <= 45, "{end}");
            assert_eq!((lines.line, lines.start), lines_before(data, stop), "{end}");
        }
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

        // The plain shape reads as the general reading does; the other shapes are left to it.
        let spans = |s: TagSpans| (s.name, s.value, s.end, s.alone);
        let plain = [r#"[Event "x"]"#, "[Event \"x\"]\r", r#"[Site "https://lichess.org/abc"]"#, r#"[A_1+#=:- ""]"#];
        for line in plain {
            let (fast, general) = (plain_tag_line(line.as_bytes()), parse_tag_line(line.as_bytes()));
            assert_eq!(fast.map(spans), Some(spans(general.unwrap())), "{line}");
        }
        let others = [
            r#"[ Event "x"]"#,
            r#"[Event  "x"]"#,
            r#"[Event "x" ]"#,
            r#"[Event "x"] "#,
            r#"[Black "engine "x""]"#,
            r#"[Site "a \"b\""]"#,
            "[Event \"a\0b\"]",
            r#"[A "1"] [B "2"]"#,
            r#"[_A "1"]"#,
            r#"[Event x]"#,
            "[Event \"x\"]\r\r",
        ];
        for line in others {
            assert!(plain_tag_line(line.as_bytes()).is_none(), "{line}");
        }
    }

    /// Collects what a consumer gets, reading or skipping; rejects the word `reject`, and, as a
    /// reading consumer must (see [`Consumer::token`]), the words that hold a delimiter.
    struct Collect<const READS: bool> {
        tokens: Vec<String>,
        reject: &'static str,
    }

    impl<const R: bool> Consumer for Collect<R> {
        const READS: bool = R;
        type Stop = ();

        fn token<'a>(&mut self, token: Token<'a>) -> Result<ControlFlow<()>, Rejection<'a>> {
            let text = match token {
                Token::Word(word)
                    if word.bytes() == self.reject.as_bytes() || word.bytes().iter().any(|&b| is_delimiter(b)) =>
                {
                    return Err(Rejection::new(PgnErrorKind::InvalidNag, word.bytes(), Resync::MOVETEXT));
                }
                Token::Word(word) => String::from_utf8_lossy(word.bytes()).into_owned(),
                Token::Comment(text) => format!("{{{text}}}"),
                Token::Nag(nag) => format!("${nag}"),
                Token::Open(at) => format!("(@{}:{}", at.line, at.column),
                Token::Close => ")".to_string(),
                Token::Result(outcome) => outcome.to_string(),
            };
            self.tokens.push(text);
            Ok(if matches!(token, Token::Result(_)) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
        }

        fn depth(&self) -> u32 {
            0
        }
    }

    /// The tokens of `movetext` up to a result, how the loop ended and where it stopped; or
    /// where the word `reject` is.
    fn tokens<const READS: bool>(
        movetext: &str,
        reject: &'static str,
    ) -> Result<(Vec<String>, Ended<()>, Location), Location> {
        let mut tokenizer = Tokenizer::new(BytesSource::new(movetext.as_bytes()));
        let mut collect = Collect::<READS> { tokens: Vec::new(), reject };
        match tokenizer.movetext(&ReaderOptions::default(), &mut collect) {
            Ok(ended) => Ok((collect.tokens, ended, tokenizer.location())),
            Err(fail) => Err(fail.at),
        }
    }

    #[test]
    fn one_loop_reads_and_skips() {
        // Long enough for the fast path to take most of it: it stops a token's length short of
        // the end of what is in view.
        let filler = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(20);
        let common = format!("{filler}\n12.e4 {{ clk }} e5!? ( {{ caf\u{e9} }} ; rest\n$14 Nf3 (O-O-O) ) ");
        let text = common.clone() + "1/2-1/2 {after}";
        let (read, ended, at) = tokens::<true>(&text, "").unwrap();
        assert_eq!((ended, at.line, at.column), (Ended::Consumer(()), 3, 26));
        let read: Vec<_> = read.iter().skip(80).collect();
        let want = ["e4", "{clk}", "e5!?", "(@2:20", "{caf\u{e9}}", "{rest}", "$14", "Nf3", "(@3:9", "O-O-O", ")", ")"];
        assert_eq!(read, [&want[..], &["1/2-1/2"]].concat());
        // A rejected word fails where it stands, move number left out, on either path.
        let at = |line, column| {
            let line_start = if line == 2 { filler.len() + 1 } else { common.find("$14").unwrap() };
            Location { line, column, offset: (line_start + column as usize - 1) as u64 }
        };
        assert_eq!(tokens::<true>(&text, "e4").unwrap_err(), at(2, 4));
        assert_eq!(tokens::<true>(&text, "O-O-O").unwrap_err(), at(3, 10));
        assert_eq!(tokens::<true>(&format!("{filler}\n12.e4"), "e4").unwrap_err(), at(2, 4));
        // The skipping consumer gets the structure only, whatever the bytes between.
        let junk = format!("}}x ] \"q $300 $1-0 {} {{ {} }} 1/2-1/2 {{after}}", "a".repeat(300), "b".repeat(2 << 20));
        let (skipped, ended, _) = tokens::<false>(&(common + &junk), "").unwrap();
        assert_eq!(ended, Ended::Consumer(()));
        assert_eq!(skipped, ["(@2:20", "(@3:9", ")", ")", "1/2-1/2"]);
        assert_eq!(tokens::<false>("e4 {open\n[Event \"x\"]\n", "").unwrap().1, Ended::NextGame);
        assert_eq!(tokens::<true>("e4 [Event \"x\"]\n", "").unwrap().1, Ended::NextGame);
        assert_eq!(tokens::<true>("e4 e5", "").unwrap().1, Ended::Input);
    }
}
