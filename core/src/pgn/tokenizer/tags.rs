//! Tag pair lines: `[Name "value"]`, several on a line or one, unescaped quotes and all.

use super::*;

impl<S: Source> Tokenizer<S> {
    /// The tag pair at `pos` (a `[` in view): its name and its value, unescaped and checked as
    /// text (see [`checked_text`]), and the warning the value gave; consumed up to its `]`.
    pub(in crate::pgn) fn tag_pair(
        &mut self,
        options: &ReaderOptions,
    ) -> Result<(&str, &str, Option<PgnWarning>), Fail> {
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
    pub(in crate::pgn) fn next_tag_name(&mut self, options: &ReaderOptions) -> Result<Option<&str>, Fail> {
        let Some((len, _)) = self.line_in_view(0, options.max_tag_len)? else { return Ok(None) };
        let line = &self.src.data()[self.pos..self.pos + len];
        Ok(parse_tag_line(line).ok().and_then(|spans| utf8(&line[spans.name.0..spans.name.1])))
    }

    /// True when a complete tag pair line, and nothing else, starts `rel` bytes ahead.
    pub(super) fn tag_line_at(&mut self, rel: usize, options: &ReaderOptions) -> Result<bool, Fail> {
        let Some((len, _)) = self.line_in_view(rel, options.max_tag_len)? else { return Ok(false) };
        let line = &self.src.data()[self.pos + rel..self.pos + rel + len];
        Ok(parse_tag_line(line).is_ok_and(|spans| spans.alone && line[spans.end..].trim_ascii().is_empty()))
    }
}

/// The parts of a tag pair line.
pub(super) struct TagSpans {
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
pub(super) fn parse_tag_line(line: &[u8]) -> Result<TagSpans, &'static str> {
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
pub(super) fn plain_tag_line(line: &[u8]) -> Option<TagSpans> {
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
pub(super) fn unescape_into(value: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < value.len() {
        if value[i] == b'\\' && matches!(value.get(i + 1), Some(b'\\' | b'"')) {
            i += 1;
        }
        out.push(value[i]);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
