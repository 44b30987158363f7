//! Reading the commands of a comment: one byte scan that hands each command to a sink, so that
//! parsing into [`Annotations`] and stripping the commands out share it.

use std::ops::Range;

use super::{Annotations, Arrow, Eval, Highlight, MarkColor, Score};
use crate::board::square::Square;

/// `text` without the commands [`Annotations::parse`] reads, trimmed; where one is taken out,
/// the blanks around it become one space (none at either end).
pub fn strip_commands(text: &str) -> String {
    /// The text before each command, and where the text after the last one starts.
    struct Strip<'t> {
        text: &'t str,
        out: String,
        rest: usize,
    }
    impl CommandSink<'_> for Strip<'_> {
        fn command(&mut self, at: Range<usize>, _: Command<'_>) {
            let before = self.text[self.rest..at.start].trim_end();
            self.out.push_str(before);
            if !before.is_empty() {
                self.out.push(' ');
            }
            // The blanks after the command go with it.
            let after = &self.text[at.end..];
            self.rest = at.end + after.len() - after.trim_start().len();
        }
    }
    let mut strip = Strip { text, out: String::with_capacity(text.len()), rest: 0 };
    for_each_command(text, &mut strip);
    strip.out.push_str(&text[strip.rest..]);
    strip.out.trim().to_string()
}

/// One command, read.
#[derive(Debug, Clone, Copy)]
pub(super) enum Command<'a> {
    Clock(f64),
    Elapsed(f64),
    Eval(Eval),
    /// The list of `%csl` or `%cal`, checked.
    Marks(&'a str),
}

/// What takes the commands of a comment, in order, with where each stands (from its `[` to its
/// `]`).
pub(super) trait CommandSink<'a> {
    fn command(&mut self, at: Range<usize>, command: Command<'a>);
}

impl<'a> CommandSink<'a> for Annotations {
    // Inlined where each command is read, the match falls away.
    #[inline(always)]
    fn command(&mut self, _: Range<usize>, command: Command<'a>) {
        match command {
            Command::Clock(seconds) => self.clock = self.clock.or(Some(seconds)),
            Command::Elapsed(seconds) => self.elapsed = self.elapsed.or(Some(seconds)),
            Command::Eval(eval) => self.eval = self.eval.or(Some(eval)),
            Command::Marks(marks) => self.add_marks(marks),
        }
    }
}

impl Annotations {
    fn add_marks(&mut self, marks: &str) {
        for mark in marks.split(',') {
            match parse_mark(mark.as_bytes()) {
                Some(Mark::Square(highlight)) => self.highlights.push(highlight),
                Some(Mark::Arrow(arrow)) => self.arrows.push(arrow),
                None => {}
            }
        }
    }
}

/// Gives `sink` each command of `text` that parses, in order.
///
/// Bytes, not `str` searches: a lichess export has a command or two in every comment, and
/// reading them this way costs a fifth of what the `str` searches cost. The lichess forms are
/// handed over where they are read, so that the sink, inlined there, stores each value
/// straight away.
#[inline(always)]
pub(super) fn for_each_command<'a>(text: &'a str, sink: &mut impl CommandSink<'a>) {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(offset) = bytes[from..].iter().position(|&b| b == b'[') {
        let start = from + offset;
        from = start + 1;
        if bytes.get(start + 1) != Some(&b'%') {
            continue;
        }
        if let Some(end) = common_command(bytes, start, sink) {
            from = end;
            continue;
        }
        match uncommon_command(text, start) {
            Ok((end, command)) => {
                from = end;
                sink.command(start..end, command);
            }
            Err(NoCommand::Unclosed) => return,
            Err(NoCommand::Text) => from = start + 2,
        }
    }
}

/// Why the `[%` at a place starts no command.
enum NoCommand {
    /// No `]` follows: nothing after it is a command either.
    Unclosed,
    /// The text up to the `]` is no command.
    Text,
}

/// The command whose `[%` stands at `start` of `text` and where it ends (after its `]`), read
/// by [`parse_command`]: what [`common_command`] leaves.
#[cold]
fn uncommon_command(text: &str, start: usize) -> Result<(usize, Command<'_>), NoCommand> {
    let bytes = text.as_bytes();
    let close = bytes[start + 2..].iter().position(|&b| b == b']').ok_or(NoCommand::Unclosed)?;
    let end = start + 2 + close + 1;
    // Both ends are ASCII bytes, so the body is whole characters.
    parse_command(&text[start + 2..end - 1]).map(|command| (end, command)).ok_or(NoCommand::Text)
}

/// The command whose `[%` stands at `start` of `bytes`, given to `sink`, and where it ends
/// (after its `]`), when it is written as lichess writes its clocks and evaluations: the name,
/// one space and the value up to the `]`. These read as [`parse_command`] reads them; the
/// others are left to it.
#[inline(always)]
fn common_command<'a>(bytes: &[u8], start: usize, sink: &mut impl CommandSink<'a>) -> Option<usize> {
    const CLK: u32 = u32::from_le_bytes(*b"clk ");
    const EMT: u32 = u32::from_le_bytes(*b"emt ");
    const EVAL: u32 = u32::from_le_bytes(*b"eval");
    let rest = &bytes[start + 2..];
    let name = u32::from_le_bytes(*rest.first_chunk::<4>()?);
    if name == CLK || name == EMT {
        let (len, seconds) = match rest[4..].first_chunk::<8>().and_then(|value| short_clock(*value)) {
            Some(seconds) => (7, f64::from(seconds)),
            None => {
                let len = rest[4..].iter().position(|b| !(b.is_ascii_digit() || matches!(b, b':' | b'.')))?;
                if rest[4 + len] != b']' {
                    return None;
                }
                (len, parse_time(&rest[4..4 + len])?)
            }
        };
        let end = start + 2 + 4 + len + 1;
        if name == CLK {
            sink.command(start..end, Command::Clock(seconds));
        } else {
            sink.command(start..end, Command::Elapsed(seconds));
        }
        return Some(end);
    }
    if name == EVAL && rest.get(4) == Some(&b' ') {
        let (len, eval) = common_eval(&rest[5..])?;
        let end = start + 2 + 5 + len;
        sink.command(start..end, Command::Eval(eval));
        return Some(end);
    }
    None
}

/// The clock in seconds and the evaluation of `comment` when it is laid out as lichess writes
/// the comment of every move, `[%clk H:MM:SS]` or `[%eval ...] [%clk H:MM:SS]` and nothing
/// else, read straight through; None for any other comment.
#[inline(always)]
pub(super) fn lichess_layout(comment: &[u8]) -> Option<(u32, Option<Eval>)> {
    let (eval, clock) = match comment.strip_prefix(b"[%eval ") {
        Some(rest) => {
            let (len, eval) = common_eval(rest)?;
            (Some(eval), rest[len..].strip_prefix(b" ")?)
        }
        None => (None, comment),
    };
    let clock: &[u8; 14] = clock.try_into().ok()?;
    // `[%clk ` checked as one word.
    let name = u64::from_le_bytes(clock[..8].try_into().ok()?) & 0xFFFF_FFFF_FFFF;
    if name != u64::from_le_bytes(*b"[%clk \0\0") {
        return None;
    }
    Some((short_clock(clock[6..].try_into().ok()?)?, eval))
}

/// The seconds of `H:MM:SS]`, the clock of every lichess move, read as one word: its digits
/// checked and added up without a branch per byte.
#[inline(always)]
fn short_clock(value: [u8; 8]) -> Option<u32> {
    // Bytes 1 and 4 are colons, byte 7 the `]`, the others digits.
    const FIXED_MASK: u64 = 0xFF00_00FF_0000_FF00;
    const FIXED: u64 = u64::from_le_bytes(*b"\0:\0\0:\0\0]");
    const DIGITS: u64 = 0x00FF_FF00_FFFF_00FF;
    let word = u64::from_le_bytes(value);
    // A digit byte becomes 0-9; any other byte, 10 or more.
    let values = (word ^ 0x3030_3030_3030_3030) & DIGITS;
    // A top bit is set where a byte is 10 or more (adding 0x76 cannot carry below 0x80).
    let not_digits = (values | values.wrapping_add(0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080 & DIGITS;
    if word & FIXED_MASK != FIXED || not_digits != 0 {
        return None;
    }
    let byte = |i: u32| (values >> (8 * i)) as u32 & 0xFF;
    Some(byte(0) * 3600 + byte(2) * 600 + byte(3) * 60 + byte(5) * 10 + byte(6))
}

/// The `%eval` value `rest` starts with and its length with the `]`, when written as lichess and
/// engines write it: `-` or not, up to four digits of pawns with up to two decimals, or `#`, `-`
/// or not and up to four digits of moves; then `,` and up to four digits of depth, or not. Read
/// in one pass, as [`parse_eval`] reads it; the other forms are left to it.
#[inline(always)]
fn common_eval(rest: &[u8]) -> Option<(usize, Eval)> {
    // Past the end reads as NUL, which no rule below takes: no slicing, no bounds to check.
    let byte = |at: usize| rest.get(at).copied().unwrap_or(0);
    let digit = |at: usize| byte(at).wrapping_sub(b'0');
    // Up to four digits from `at`: their value, and where they end.
    let number = |mut at: usize| {
        let start = at;
        let mut value = 0;
        while digit(at) < 10 {
            if at - start == 4 {
                return None;
            }
            value = value * 10 + i32::from(digit(at));
            at += 1;
        }
        Some((value, at - start, at))
    };
    let mate = byte(0) == b'#';
    let negative = byte(usize::from(mate)) == b'-';
    let (whole, whole_len, mut at) = number(usize::from(mate) + usize::from(negative))?;
    let score = if mate {
        if whole_len == 0 {
            return None;
        }
        Score::Mate(if negative { -whole } else { whole })
    } else {
        let mut cp = whole * 100;
        let mut decimals = 0;
        if byte(at) == b'.' {
            at += 1;
            // One or two decimals, or none.
            for scale in [10, 1] {
                if digit(at) >= 10 {
                    break;
                }
                cp += i32::from(digit(at)) * scale;
                at += 1;
                decimals += 1;
            }
            if digit(at) < 10 {
                return None;
            }
        }
        // A period alone is no number.
        if whole_len + decimals == 0 {
            return None;
        }
        Score::Centipawns(if negative { -cp } else { cp })
    };
    let depth = if byte(at) == b',' {
        let (depth, len, end) = number(at + 1)?;
        if len == 0 {
            return None;
        }
        at = end;
        Some(depth as u32)
    } else {
        None
    };
    (byte(at) == b']').then_some((at + 1, Eval { score, depth }))
}

/// The command of `body`, the text between `[%` and `]`.
fn parse_command(body: &str) -> Option<Command<'_>> {
    let name_len = body.bytes().position(|b| b.is_ascii_whitespace())?;
    let (name, value) = body.split_at(name_len);
    // Unicode blanks are trimmed too, but the ASCII ones are all there usually are.
    let value = value.trim_ascii();
    let value = if value.ends_with(|c: char| c.is_ascii()) && value.starts_with(|c: char| c.is_ascii()) {
        value
    } else {
        value.trim()
    };
    match name.as_bytes() {
        b"clk" => parse_time(value.as_bytes()).map(Command::Clock),
        b"emt" => parse_time(value.as_bytes()).map(Command::Elapsed),
        b"eval" => parse_eval(value.as_bytes()).map(Command::Eval),
        b"csl" | b"cal" => {
            value.split(',').all(|mark| parse_mark(mark.as_bytes()).is_some()).then_some(Command::Marks(value))
        }
        _ => None,
    }
}

fn all_digits(text: &[u8]) -> bool {
    !text.is_empty() && text.iter().all(u8::is_ascii_digit)
}

/// The value of ASCII digits, none of them checked here; at most 19 of them.
fn digits_value(digits: &[u8]) -> u64 {
    digits.iter().fold(0, |value, &d| value * 10 + u64::from(d - b'0'))
}

/// `text` split at its first `byte`, without it.
fn split_at_byte(text: &[u8], byte: u8) -> Option<(&[u8], &[u8])> {
    let at = text.iter().position(|&b| b == byte)?;
    Some((&text[..at], &text[at + 1..]))
}

/// `H:M:S` with digits in each part and an optional fraction of the seconds, in seconds.
///
/// One pass over the bytes: a lichess export has a clock on every move.
fn parse_time(value: &[u8]) -> Option<f64> {
    // The hours, minutes and whole seconds, then the fraction's digits, as read so far.
    let mut parts = [0u64; 4];
    let mut lengths = [0usize; 4];
    let mut colons = [0usize; 2];
    let mut part = 0;
    for (i, &b) in value.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                parts[part] = parts[part].wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
                lengths[part] += 1;
            }
            b':' if part < 2 => {
                colons[part] = i;
                part += 1;
            }
            b'.' if part == 2 => part = 3,
            _ => return None,
        }
    }
    if part < 2 || lengths[..3].contains(&0) {
        return None;
    }
    let [hours, minutes, whole, fraction] = parts;
    // Parts of up to 15 digits are integers an f64 holds exactly, and the seconds one division
    // of two of them: the value a decimal parse gives, without its cost.
    if lengths[0] > 15 || lengths[1] > 15 || lengths[2] + lengths[3] > 15 {
        let [hours_end, minutes_end] = colons;
        return Some(
            decimal(&value[..hours_end])? * 3600.0
                + decimal(&value[hours_end + 1..minutes_end])? * 60.0
                + decimal(&value[minutes_end + 1..])?,
        );
    }
    let seconds = if lengths[3] == 0 {
        (whole as i64) as f64
    } else {
        let scale = 10u64.pow(lengths[3] as u32);
        ((whole * scale + fraction) as i64) as f64 / (scale as i64) as f64
    };
    // (Through i64, whose conversion is one instruction: every part is below 10^15.)
    Some((hours as i64) as f64 * 3600.0 + (minutes as i64) as f64 * 60.0 + seconds)
}

/// Checked ASCII digits (and a period) as an f64.
fn decimal(text: &[u8]) -> Option<f64> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// `#N` (mate, signed) or a signed number of pawns with at most two decimals, then an
/// optional `,depth`.
fn parse_eval(value: &[u8]) -> Option<Eval> {
    let (score, depth) = match split_at_byte(value, b',') {
        Some((score, depth)) if all_digits(depth) => (score, Some(u32::try_from(small_number(depth)?).ok()?)),
        Some(_) => return None,
        None => (value, None),
    };
    let (negative, unsigned) = match score {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, score),
    };
    if let Some(mate) = score.strip_prefix(b"#") {
        let (negative, digits) = match mate {
            [b'-', rest @ ..] => (true, rest),
            [b'+', rest @ ..] => (false, rest),
            _ => (false, mate),
        };
        if !all_digits(digits) {
            return None;
        }
        let moves = i64::try_from(small_number(digits)?).ok()?;
        let moves = i32::try_from(if negative { -moves } else { moves }).ok()?;
        return Some(Eval { score: Score::Mate(moves), depth });
    }
    let (pawns, hundredths) = split_at_byte(unsigned, b'.').unwrap_or((unsigned, b""));
    let fraction_ok = hundredths.len() <= 2 && hundredths.iter().all(u8::is_ascii_digit);
    let pawns_ok = pawns.len() <= 10 && pawns.iter().all(u8::is_ascii_digit);
    if !fraction_ok || !pawns_ok || (pawns.is_empty() && hundredths.is_empty()) {
        return None;
    }
    let hundredths = digits_value(hundredths) * if hundredths.len() == 1 { 10 } else { 1 };
    let cp = i32::try_from(digits_value(pawns) * 100 + hundredths).ok()?;
    Some(Eval { score: Score::Centipawns(if negative { -cp } else { cp }), depth })
}

/// Checked digits as a number, `None` past what a `u64` holds.
fn small_number(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |value, &d| value.checked_mul(10)?.checked_add(u64::from(d - b'0')))
}

/// A mark of `%csl` or `%cal`: a colour letter and one square (a highlight) or two (an
/// arrow), in either command, as python-chess reads them.
enum Mark {
    Square(Highlight),
    Arrow(Arrow),
}

fn parse_mark(mark: &[u8]) -> Option<Mark> {
    let color = MarkColor::from_letter(*mark.first()?)?;
    let square = |at: usize| mark.get(at..at + 2).and_then(|text| Square::from_ascii(text).ok());
    match mark.len() {
        3 => Some(Mark::Square(Highlight { color, square: square(1)? })),
        5 => Some(Mark::Arrow(Arrow { color, from: square(1)?, to: square(3)? })),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`common_command`] reads of `text` (a command after its `[%`, up to its `]`): its
    /// length and the command.
    fn fast_reading(text: &str) -> Option<(usize, String)> {
        struct Last(Option<String>);
        impl CommandSink<'_> for Last {
            fn command(&mut self, _: Range<usize>, command: Command<'_>) {
                self.0 = Some(format!("{command:?}"));
            }
        }
        let mut last = Last(None);
        let end = common_command(format!("[%{text}").as_bytes(), 0, &mut last)?;
        Some((end - 2, last.0.expect("a command read is given to the sink")))
    }

    #[test]
    fn common_commands_read_as_any_command_reads() {
        let common = [
            "clk 0:03:00",
            "clk 10:00:00",
            "clk 0:00:05.25",
            "emt 1:00:00",
            "eval 0.35",
            "eval #-4",
            "eval -1.2,18",
            "eval -12.05",
            "eval #7,40",
            "eval .5",
            "eval 3.",
            "eval -0",
            "eval 9999.99,9999",
        ];
        let others = [
            "clk 0:3:0",
            "clk 0:00:0x",
            "eval +",
            "eval 1..2",
            "eval 0.355",
            "clk 0:00:60",
            "clk 9:99:99",
            "eval #99999999999",
            "clk 99999999999999999:00:00",
            "clk 0:00:01.1234567890123456789",
            "eval 1,2,3",
            "eval #+3",
            "eval -#3",
            "eval +0.35",
            "eval 12345.6",
            "eval 1.234",
            "eval 1,",
            "eval 0.3,99999",
            "eval #",
            "eval -",
            "eval -.",
            "eval #-",
            "eval #3.5",
            "eval 1 ",
        ];
        for body in common.iter().chain(&others) {
            let text = format!("{body}]");
            let fast = fast_reading(&text);
            let general = parse_command(body).map(|command| (text.len(), format!("{command:?}")));
            assert!(fast.is_some() || !common.contains(body), "{body}");
            // The shortcut may leave a command to the general reading, never read it otherwise.
            if fast.is_some() {
                assert_eq!(fast, general, "{body}");
            }
        }
        // Every eval value of up to six bytes of the characters that matter.
        let alphabet = b"09-#.,+";
        let mut value = Vec::new();
        for len in 0..=6u32 {
            for mut index in 0..alphabet.len().pow(len) {
                value.clear();
                for _ in 0..len {
                    value.push(alphabet[index % alphabet.len()]);
                    index /= alphabet.len();
                }
                let value = std::str::from_utf8(&value).unwrap();
                let text = format!("eval {value}]");
                if let Some((len, command)) = fast_reading(&text) {
                    let general = parse_command(&text[..text.len() - 1]).map(|command| format!("{command:?}"));
                    assert_eq!((len, Some(command)), (text.len(), general), "{text}");
                }
            }
        }
    }

    #[test]
    fn lichess_layout_reads_as_the_loop_reads() {
        let general = |comment: &str| {
            let mut annotations = Annotations::default();
            for_each_command(comment, &mut annotations);
            annotations
        };
        let evals =
            ["", "[%eval 0.17] ", "[%eval -1.5] ", "[%eval #-3] ", "[%eval 0.3,18] ", "[%eval +1] ", "[%eval 1..2] "];
        let clocks = ["[%clk 0:03:00]", "[%clk 1:00:00.5]", "[%clk 0:3:00]", "[%clk 0:03:0x]", "[%clk 0:03:00] ", ""];
        let mut laid_out = 0;
        for eval in evals {
            for clock in clocks {
                for comment in [format!("{eval}{clock}"), format!("{eval} {clock}"), format!("{clock} {eval}")] {
                    laid_out += usize::from(lichess_layout(comment.as_bytes()).is_some());
                    assert_eq!(Annotations::parse(&comment), general(&comment), "{comment}");
                }
            }
        }
        // `[%clk 0:03:00]` alone, and after each of the four well-formed evaluations.
        assert_eq!(laid_out, 5);
        // A later comment of the same move keeps what the first one gave.
        let mut annotations = Annotations::parse("[%eval 0.5] [%clk 0:01:00]");
        annotations.add_from("[%eval -2.0] [%clk 0:00:30]");
        assert_eq!((annotations.clock, annotations.eval.map(|e| e.score)), (Some(60.0), Some(Score::Centipawns(50))));
    }

    #[test]
    fn commands_read_and_written() {
        let sq = |name: &str| Square::from_ascii(name.as_bytes()).unwrap();
        let comment = "[%csl Ga4,Rb5][%cal Ge2e4] [%eval -0.5,18]  x  [%clk 1:00:00] [%emt 0:00:05.25] [%bad 1]";
        let annotations = Annotations::parse(comment);
        assert_eq!(annotations.clock, Some(3600.0));
        assert_eq!(annotations.elapsed, Some(5.25));
        assert_eq!(annotations.eval, Some(Eval { score: Score::Centipawns(-50), depth: Some(18) }));
        assert_eq!(
            annotations.highlights,
            [
                Highlight { color: MarkColor::Green, square: sq("a4") },
                Highlight { color: MarkColor::Red, square: sq("b5") }
            ]
        );
        assert_eq!(annotations.arrows, [Arrow { color: MarkColor::Green, from: sq("e2"), to: sq("e4") }]);
        assert_eq!(strip_commands(comment), "x [%bad 1]");
        assert_eq!(
            annotations.to_string(),
            "[%eval -0.5,18] [%clk 1:00:00] [%emt 0:00:05.25] [%csl Ga4,Rb5][%cal Ge2e4]"
        );
        assert_eq!(Annotations::parse(&annotations.to_string()), annotations);
        for (text, cp) in [("0.35", 35), ("0.1", 10), (".5", 50), ("+2", 200), ("-0.05", -5), ("12.", 1200)] {
            assert_eq!(parse_eval(text.as_bytes()).map(|e| e.score), Some(Score::Centipawns(cp)), "{text}");
        }
        for bad in ["0.355", "", ".", "#", "#x", "1,x", "abc"] {
            assert_eq!(parse_eval(bad.as_bytes()), None, "{bad}");
        }
        for bad in ["[%clk 1:00]", "[%clk a:00:00]", "[%csl Xa4]", "[%cal Ge2e9]", "[%eval]", "[%clk 0:00:01"] {
            assert!(Annotations::parse(bad).is_empty(), "{bad}");
            assert_eq!(strip_commands(bad), bad);
        }
        // The same values as a decimal parse of each part, to the last bit.
        for time in ["0:00:00.1", "1:02:03.456", "0:03:00.5", "12:59:59.999", "0:0:7.", "0:00:01.0000001", "1:00:00.3"]
        {
            let parts: Vec<f64> = time.split(':').map(|part| part.parse().unwrap()).collect();
            let expected = parts[0] * 3600.0 + parts[1] * 60.0 + parts[2];
            assert_eq!(parse_time(time.as_bytes()).map(f64::to_bits), Some(expected.to_bits()), "{time}");
        }
        assert_eq!(parse_time(b"1234567890123456:00:00"), Some(1234567890123456.0 * 3600.0));
        for bad in ["1:00", "1:00:00:00", "a:00:00", "1:00:0a", "1:00:00.x", "1::00", "1:00:"] {
            assert_eq!(parse_time(bad.as_bytes()), None, "{bad}");
        }
        assert_eq!(parse_eval(b"#-4,22"), Some(Eval { score: Score::Mate(-4), depth: Some(22) }));
        assert_eq!(parse_eval(b"#+3").map(|e| e.score), Some(Score::Mate(3)));
        assert_eq!(parse_eval(b"#99999999999"), None);
        assert_eq!(parse_eval(b"1,99999999999"), None);
        assert_eq!(Annotations::default().to_comment("text"), "text");
        let mate = Annotations { eval: Some(Eval { score: Score::Mate(0), depth: None }), ..Annotations::default() };
        assert_eq!(mate.to_comment(""), "[%eval #0]");
    }
}
