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
//!
//! Here: the token loop and the input buffer. Beside it: `scan` (the scanners over eight or
//! sixteen bytes at a time), `text` (comments, and text checked as UTF-8 or decoded as
//! Windows-1252) and `tags` (tag pair lines).

use std::io;
use std::ops::ControlFlow;

use crate::game::{is_tag_name_byte, Outcome};

use super::error::{Fail, Location, PgnErrorKind, PgnWarning, Rejection, Resync};
use super::source::Source;
use super::visitor::ReaderOptions;

mod scan;
mod tags;
mod text;

use scan::*;
pub(super) use text::utf8;
use text::*;

/// The longest movetext token (move, move number, NAG or result) the reader accepts.
pub const MAX_TOKEN_LEN: usize = 255;

/// Bytes the tokenizer wants in view before it reads a token: a whole token and the byte
/// after it.
const LOOKAHEAD: usize = MAX_TOKEN_LEN + 2;

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

#[cfg(test)]
mod tests;
