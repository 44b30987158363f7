//! The scanners of the token loop: runs of blanks and of plain movetext bytes, and the bytes
//! that end a word, a comment or a line, found eight bytes at a time in a `u64` (SWAR) or, on
//! x86-64, sixteen at a time with SSE2; the byte classes they test and the account of lines
//! they keep.

use crate::game::Location;

/// Blanks and line ends, which separate tokens: a bit set over byte values below 64, tested
/// with a shift (comparisons become a jump table that is mispredicted).
pub(super) const BLANKS: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\r' | 1 << b'\n';

#[inline(always)]
pub(super) const fn is_blank(c: u8) -> bool {
    c < 64 && BLANKS >> c & 1 != 0
}

/// Bytes that end a movetext token: blanks, line ends and `{ } ( ) [ ] ; $ " *` (`*` is a
/// token of its own, as the PGN standard has it, even glued to a move: `Nc6*`).
pub(super) const DELIMITER: u8 = 1;
/// Letters and digits, which start the words the fast path reads.
pub(super) const WORD_START: u8 = 2;

/// What each byte value is to the tokenizer.
pub(super) static CLASS: [u8; 256] = {
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
pub(super) fn is_delimiter(c: u8) -> bool {
    CLASS[c as usize] & DELIMITER != 0
}

/// The line being read: its number and where it starts.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lines {
    /// From 1 (lines end with `\n`).
    pub(super) line: u64,
    /// Input offset of the line's first byte.
    pub(super) start: u64,
}

impl Lines {
    /// A line end was read; the next line starts at input offset `next`.
    #[inline(always)]
    pub(super) fn new_line(&mut self, next: u64) {
        self.line += 1;
        self.start = next;
    }

    /// The place of input offset `offset` on this line.
    #[inline(always)]
    pub(super) fn locate(self, offset: u64) -> Location {
        Location { line: self.line, column: offset - self.start + 1, offset }
    }
}

/// The index of the first byte of `data[start..end]` that is no blank or line end (`end` if
/// none), `base` being the input offset of `data[0]`: where lines are counted byte by byte, for
/// the fast path and the general one.
#[inline(always)]
pub(super) fn skip_blanks(data: &[u8], start: usize, end: usize, base: u64, lines: &mut Lines) -> usize {
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
pub(super) fn skip_plain(data: &[u8], start: usize, end: usize, base: u64, lines: &mut Lines) -> usize {
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

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
pub(super) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` equal to `c`; the lowest one set marks the first such
/// byte (higher ones may be false alarms from the borrow, so only the lowest may be used).
#[inline(always)]
pub(super) fn bytes_equal(word: u64, c: u8) -> u64 {
    let x = word ^ (ONES * u64::from(c));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The high bit of each byte of `word` equal to `c`, and of no other byte.
#[inline(always)]
pub(super) fn exact_bytes_equal(word: u64, c: u8) -> u64 {
    let x = word ^ (ONES * u64::from(c));
    // A byte's high bit ends up clear only when all its bits were.
    !(((x & !HIGHS) + !HIGHS) | x) & HIGHS
}

/// True when the bytes `in_word` selects of `next` (those of a word after its first byte, a
/// digit) are digits then periods, at least one: a move number alone (`12.`, `12...`), the
/// commonest word that starts with a digit, told apart from results and moves at once.
#[inline(always)]
pub(super) fn is_move_number(next: u64, in_word: u64) -> bool {
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
pub(super) fn trim_blanks(text: &[u8]) -> &[u8] {
    if let [b' ', first, .., last, b' '] = text {
        if !first.is_ascii_whitespace() && !last.is_ascii_whitespace() {
            return &text[1..text.len() - 1];
        }
    }
    text.trim_ascii()
}

/// Bytes [`plain_step`] classifies at once.
pub(super) const PLAIN_STEP: usize = if cfg!(target_arch = "x86_64") { 16 } else { 8 };

/// For each byte of `chunk`, a bit (the first byte's lowest): the bytes [`unplain_in`] flags,
/// and the line ends. With SSE2, which every x86-64 processor has.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn plain_step(chunk: &[u8; PLAIN_STEP]) -> (u32, u32) {
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
pub(super) fn plain_step(chunk: &[u8; PLAIN_STEP]) -> (u32, u32) {
    plain_step_swar(chunk)
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn plain_step_swar(chunk: &[u8; 8]) -> (u32, u32) {
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
pub(super) fn unplain_in(word: u64) -> u64 {
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
pub(super) fn delimiters_in(word: u64) -> u64 {
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
pub(super) fn word_end(next: u64) -> u64 {
    let low = next.wrapping_sub(ONES * 0x21) & !next & HIGHS;
    // Borrows may set bits above the first such byte, never below.
    low & low.wrapping_neg()
}

/// The index of the first byte of `hay` among `needles`, and whether the bytes before it are all
/// ASCII: sixteen bytes at a time with SSE2, eight at a time after. Comments, tag values and
/// lines are searched this way; inlined, a caller that drops the ASCII answer does not compute it.
#[inline(always)]
pub(super) fn find_any<const N: usize>(hay: &[u8], needles: [u8; N]) -> Option<(usize, bool)> {
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
pub(super) fn find_either(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    find_any(hay, [a, b]).map(|(at, _)| at)
}

/// The first `}` or line end of a comment.
#[inline]
pub(super) fn find_comment_end(hay: &[u8]) -> Option<usize> {
    find_either(hay, b'}', b'\n')
}

/// The first `}`, line end or NUL of a comment, and whether the bytes before it are all ASCII:
/// one pass where the general path would take three. (A NUL stops it, for the general path to
/// report.)
#[inline(always)]
pub(super) fn scan_short_comment(hay: &[u8]) -> Option<(usize, bool)> {
    find_any(hay, [b'}', b'\n', 0])
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
