//! Text of the input: comments (after a result, in braces, to the end of the line) and tag
//! values checked as UTF-8, or decoded as Windows-1252, with the one warning a game gets.

use crate::game::PgnWarningKind;

use super::*;

impl<S: Source> Tokenizer<S> {
    /// After a game's result: the comments on the rest of its line belong to the game. They go
    /// to `take` with the warning each gave, or are skipped without it.
    pub(in crate::pgn) fn comments_on_line(
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
    pub(super) fn dollar_nag(&mut self) -> Result<u8, Fail> {
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
    pub(super) fn brace_comment(&mut self, options: &ReaderOptions) -> Result<(&str, Option<PgnWarning>), Fail> {
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
    pub(super) fn line_comment(&mut self, options: &ReaderOptions) -> Result<(&str, Option<PgnWarning>), Fail> {
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
    pub(super) fn comment_text(
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
    pub(super) fn skip_long_token(&mut self) -> Result<(), Fail> {
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
    pub(in crate::pgn) fn skip_comment_rest(&mut self, options: &ReaderOptions) -> Result<bool, Fail> {
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

/// `bytes` as text, with a fast path for ASCII (most tags and comments, every move): the
/// library's check is a call per token, which shows at this rate.
#[inline(always)]
pub(in crate::pgn) fn utf8(bytes: &[u8]) -> Option<&str> {
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
pub(super) fn checked_text<'a>(
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
pub(super) fn warn_once(warned: &mut bool, decoded: bool, at: Location) -> Option<PgnWarning> {
    if !decoded || *warned {
        return None;
    }
    *warned = true;
    Some(PgnWarning { kind: PgnWarningKind::Windows1252, location: at })
}

/// The characters of Windows-1252 bytes 0x80 to 0x9F; the five it leaves undefined are the C1
/// controls of the same value, as the WHATWG encoding standard decodes them. Bytes from 0xA0
/// are the Latin-1 characters of the same value.
pub(super) const WINDOWS_1252_HIGH: [char; 32] = [
    '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}', '\u{2c6}', '\u{2030}',
    '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}', '\u{8f}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}',
    '\u{201d}', '\u{2022}', '\u{2013}', '\u{2014}', '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}',
    '\u{17e}', '\u{178}',
];

/// `raw` decoded as Windows-1252 into `out`, in memory reserved first (an error when there is
/// none).
pub(super) fn decode_windows_1252(raw: &[u8], out: &mut String) -> Result<(), std::collections::TryReserveError> {
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
pub(super) fn repair_text(raw: &[u8], out: &mut String) -> Result<(), std::collections::TryReserveError> {
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
