//! Commands in comments, as lichess, chess.com, ChessBase and engines write them:
//! `[%clk 0:03:00]` (the clock after the move), `[%emt 0:00:05]` (the time the move took),
//! `[%eval 0.35]`, `[%eval #-4]`, `[%eval 0.35,18]` (an evaluation, with its depth),
//! `[%csl Ga4,Rb5]` (highlighted squares) and `[%cal Ge2e4]` (arrows).
//!
//! Comments are kept as written, commands included, so a game is written back as it was read;
//! [`Annotations::parse`] reads the commands of a comment into values, [`strip_commands`] gives
//! the rest of its text, and [`Annotations::to_comment`] writes them back in the same form.
//! Commands are read as python-chess reads them: the first `%clk`, `%emt` and `%eval` count,
//! every `%csl` and `%cal` does, and a command that does not parse is text.

use std::fmt;
use std::ops::Range;

use crate::square::Square;

/// An evaluation of the position after a move, from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// In centipawns: positive when White stands better (`[%eval 0.35]` is 35, `[%eval -1.2]`
    /// is -120).
    Centipawns(i32),
    /// Mate in this many moves: positive when White mates, negative when Black does
    /// (`[%eval #-4]` is -4). 0 after mate.
    Mate(i32),
}

/// An `[%eval ...]` command: the score and, when given, the search depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score, from White's side.
    pub score: Score,
    /// The depth of the search (`[%eval 0.35,18]` is 18), if given.
    pub depth: Option<u32>,
}

/// The colour of a highlight or an arrow: its letter in the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarkColor {
    /// `R`.
    Red,
    /// `G`.
    Green,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl MarkColor {
    fn from_letter(letter: u8) -> Option<MarkColor> {
        match letter {
            b'R' => Some(MarkColor::Red),
            b'G' => Some(MarkColor::Green),
            b'Y' => Some(MarkColor::Yellow),
            b'B' => Some(MarkColor::Blue),
            _ => None,
        }
    }

    /// The letter the commands write: `R`, `G`, `Y` or `B`.
    pub fn letter(self) -> char {
        match self {
            MarkColor::Red => 'R',
            MarkColor::Green => 'G',
            MarkColor::Yellow => 'Y',
            MarkColor::Blue => 'B',
        }
    }
}

/// A highlighted square of `[%csl ...]` (`Ga4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Highlight {
    /// Its colour.
    pub color: MarkColor,
    /// The square.
    pub square: Square,
}

/// An arrow of `[%cal ...]` (`Ge2e4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Its colour.
    pub color: MarkColor,
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
}

/// What the commands of a comment (or of all the comments after a move) say.
///
/// # Examples
///
/// ```
/// use chesscore_core::pgn::{strip_commands, Annotations, Eval, Score};
///
/// let comment = "[%eval #-4,22] [%clk 0:03:00.5] Black mates";
/// let annotations = Annotations::parse(comment);
/// assert_eq!(annotations.clock, Some(180.5));
/// assert_eq!(annotations.eval, Some(Eval { score: Score::Mate(-4), depth: Some(22) }));
/// assert_eq!(strip_commands(comment), "Black mates");
/// assert_eq!(annotations.to_comment("Black mates"), "Black mates [%eval #-4,22] [%clk 0:03:00.5]");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Annotations {
    /// `[%clk H:MM:SS]`: the time left on the mover's clock after the move, in seconds.
    pub clock: Option<f64>,
    /// `[%emt H:MM:SS]`: the time the move took, in seconds.
    pub elapsed: Option<f64>,
    /// `[%eval ...]`: the evaluation after the move.
    pub eval: Option<Eval>,
    /// `[%csl ...]`: highlighted squares, in order.
    pub highlights: Vec<Highlight>,
    /// `[%cal ...]`: arrows, in order.
    pub arrows: Vec<Arrow>,
}

impl Annotations {
    /// The commands of `comment`.
    pub fn parse(comment: &str) -> Annotations {
        let mut annotations = Annotations::default();
        annotations.add_from(comment);
        annotations
    }

    /// Adds the commands of `comment`, a later comment of the same move: a clock, elapsed time
    /// or evaluation already read stays, highlights and arrows are appended.
    pub fn add_from(&mut self, comment: &str) {
        for (_, command) in commands(comment) {
            match command {
                Command::Clock(seconds) => self.clock = self.clock.or(Some(seconds)),
                Command::Elapsed(seconds) => self.elapsed = self.elapsed.or(Some(seconds)),
                Command::Eval(eval) => self.eval = self.eval.or(Some(eval)),
                Command::Marks(marks) => {
                    for mark in marks.split(',') {
                        match parse_mark(mark.as_bytes()) {
                            Some(Mark::Square(highlight)) => self.highlights.push(highlight),
                            Some(Mark::Arrow(arrow)) => self.arrows.push(arrow),
                            None => {}
                        }
                    }
                }
            }
        }
    }

    /// True when there is no command to write.
    pub fn is_empty(&self) -> bool {
        self.clock.is_none()
            && self.elapsed.is_none()
            && self.eval.is_none()
            && self.highlights.is_empty()
            && self.arrows.is_empty()
    }

    /// A comment of `text` (commands in it are kept) followed by these commands, as lichess
    /// writes them: `[%eval ...] [%clk ...] [%emt ...] [%csl ...][%cal ...]`, separated from
    /// the text by a space.
    pub fn to_comment(&self, text: &str) -> String {
        let commands = self.to_string();
        match (text.is_empty(), commands.is_empty()) {
            (_, true) => text.to_string(),
            (true, false) => commands,
            (false, false) => format!("{text} {commands}"),
        }
    }
}

/// The commands, as [`Annotations::to_comment`] writes them.
impl fmt::Display for Annotations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A space between commands, none before the first, none between highlights and
        // arrows (lichess glues them).
        let mut any = false;
        let mut space = |f: &mut fmt::Formatter<'_>, glued: bool| {
            let written = if any && !glued { f.write_str(" ") } else { Ok(()) };
            any = true;
            written
        };
        if let Some(Eval { score, depth }) = self.eval {
            space(f, false)?;
            match score {
                Score::Centipawns(cp) => {
                    let (sign, abs) = (if cp < 0 { "-" } else { "" }, cp.unsigned_abs());
                    let hundredths = abs % 100;
                    if hundredths % 10 == 0 {
                        write!(f, "[%eval {sign}{}.{}", abs / 100, hundredths / 10)?;
                    } else {
                        write!(f, "[%eval {sign}{}.{hundredths:02}", abs / 100)?;
                    }
                }
                Score::Mate(moves) => write!(f, "[%eval #{moves}")?,
            }
            if let Some(depth) = depth {
                write!(f, ",{depth}")?;
            }
            f.write_str("]")?;
        }
        for (name, seconds) in [("clk", self.clock), ("emt", self.elapsed)] {
            if let Some(seconds) = seconds {
                space(f, false)?;
                write!(f, "[%{name} ")?;
                write_time(f, seconds)?;
                f.write_str("]")?;
            }
        }
        if !self.highlights.is_empty() {
            space(f, false)?;
            f.write_str("[%csl ")?;
            for (i, h) in self.highlights.iter().enumerate() {
                write!(f, "{}{}{}", if i > 0 { "," } else { "" }, h.color.letter(), h.square)?;
            }
            f.write_str("]")?;
        }
        if !self.arrows.is_empty() {
            space(f, !self.highlights.is_empty())?;
            f.write_str("[%cal ")?;
            for (i, a) in self.arrows.iter().enumerate() {
                write!(f, "{}{}{}{}", if i > 0 { "," } else { "" }, a.color.letter(), a.from, a.to)?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

/// `H:MM:SS`, with the fraction of a second when there is one (to the millisecond).
fn write_time(f: &mut fmt::Formatter<'_>, seconds: f64) -> fmt::Result {
    let millis = (seconds.max(0.0) * 1000.0).round() as u64;
    let (hours, minutes, secs, fraction) =
        (millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000);
    write!(f, "{hours}:{minutes:02}:{secs:02}")?;
    if fraction > 0 {
        let digits = format!("{fraction:03}");
        write!(f, ".{}", digits.trim_end_matches('0'))?;
    }
    Ok(())
}

/// `text` without the commands [`Annotations::parse`] reads, trimmed; where one is taken out,
/// the blanks around it become one space (none at either end).
pub fn strip_commands(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    for (range, _) in commands(text) {
        let before = text[rest..range.start].trim_end();
        out.push_str(before);
        if !before.is_empty() {
            out.push(' ');
        }
        rest = range.end;
        // The blanks after the command go with it.
        rest += text[rest..].len() - text[rest..].trim_start().len();
    }
    out.push_str(&text[rest..]);
    out.trim().to_string()
}

/// One command, read.
#[derive(Debug, Clone, Copy)]
enum Command<'a> {
    Clock(f64),
    Elapsed(f64),
    Eval(Eval),
    /// The list of `%csl` or `%cal`, checked.
    Marks(&'a str),
}

/// The commands of `text` that parse, and where each stands (from its `[` to its `]`).
fn commands(text: &str) -> impl Iterator<Item = (Range<usize>, Command<'_>)> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(found) = text[from..].find("[%") {
            let start = from + found;
            let Some(close) = text[start..].find(']') else {
                from = text.len();
                return None;
            };
            let end = start + close + 1;
            from = start + 2;
            if let Some(command) = parse_command(&text[start + 2..end - 1]) {
                from = end;
                return Some((start..end, command));
            }
        }
        None
    })
}

/// The command of `body`, the text between `[%` and `]`.
fn parse_command(body: &str) -> Option<Command<'_>> {
    let name_len = body.find(|c: char| c.is_ascii_whitespace())?;
    let (name, value) = body.split_at(name_len);
    let value = value.trim();
    match name {
        "clk" => parse_time(value).map(Command::Clock),
        "emt" => parse_time(value).map(Command::Elapsed),
        "eval" => parse_eval(value).map(Command::Eval),
        "csl" | "cal" => {
            value.split(',').all(|mark| parse_mark(mark.as_bytes()).is_some()).then_some(Command::Marks(value))
        }
        _ => None,
    }
}

fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `H:M:S` with digits in each part and an optional fraction of the seconds, in seconds.
fn parse_time(value: &str) -> Option<f64> {
    let mut parts = value.split(':');
    let (hours, minutes, seconds) = (parts.next()?, parts.next()?, parts.next()?);
    let (whole, fraction) = seconds.split_once('.').unwrap_or((seconds, ""));
    if parts.next().is_some() || !all_digits(hours) || !all_digits(minutes) || !all_digits(whole) {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let hours: f64 = hours.parse().ok()?;
    let minutes: f64 = minutes.parse().ok()?;
    Some(hours * 3600.0 + minutes * 60.0 + seconds.parse::<f64>().ok()?)
}

/// `#N` (mate, signed) or a signed number of pawns with at most two decimals, then an
/// optional `,depth`.
fn parse_eval(value: &str) -> Option<Eval> {
    let (score, depth) = match value.split_once(',') {
        Some((score, depth)) if all_digits(depth) => (score, Some(depth.parse().ok()?)),
        Some(_) => return None,
        None => (value, None),
    };
    if let Some(mate) = score.strip_prefix('#') {
        let digits = mate.strip_prefix(['+', '-']).unwrap_or(mate);
        if !all_digits(digits) {
            return None;
        }
        return Some(Eval { score: Score::Mate(mate.parse().ok()?), depth });
    }
    let negative = score.starts_with('-');
    let unsigned = score.strip_prefix(['+', '-']).unwrap_or(score);
    let (pawns, hundredths) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let fraction_ok = hundredths.len() <= 2 && hundredths.bytes().all(|b| b.is_ascii_digit());
    let pawns_ok = pawns.len() <= 10 && pawns.bytes().all(|b| b.is_ascii_digit());
    if !fraction_ok || !pawns_ok || (pawns.is_empty() && hundredths.is_empty()) {
        return None;
    }
    let pawns: i64 = if pawns.is_empty() { 0 } else { pawns.parse().ok()? };
    let hundredths: i64 = match hundredths.len() {
        0 => 0,
        1 => hundredths.parse::<i64>().ok()? * 10,
        _ => hundredths.parse().ok()?,
    };
    let cp = i32::try_from(pawns * 100 + hundredths).ok()?;
    Some(Eval { score: Score::Centipawns(if negative { -cp } else { cp }), depth })
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
            assert_eq!(parse_eval(text).map(|e| e.score), Some(Score::Centipawns(cp)), "{text}");
        }
        for bad in ["0.355", "", ".", "#", "#x", "1,x", "abc"] {
            assert_eq!(parse_eval(bad), None, "{bad}");
        }
        for bad in ["[%clk 1:00]", "[%clk a:00:00]", "[%csl Xa4]", "[%cal Ge2e9]", "[%eval]", "[%clk 0:00:01"] {
            assert!(Annotations::parse(bad).is_empty(), "{bad}");
            assert_eq!(strip_commands(bad), bad);
        }
        assert_eq!(Annotations::default().to_comment("text"), "text");
        let mate = Annotations { eval: Some(Eval { score: Score::Mate(0), depth: None }), ..Annotations::default() };
        assert_eq!(mate.to_comment(""), "[%eval #0]");
    }
}
