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

use crate::board::square::Square;

pub use parse::strip_commands;
use parse::{for_each_command, lichess_layout};

mod parse;

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
    #[inline]
    pub fn parse(comment: &str) -> Annotations {
        // In line, so that the caller's code sees a lichess comment's empty lists and keeps its
        // values in registers.
        match lichess_layout(comment.as_bytes()) {
            Some((clock, eval)) => Annotations { clock: Some(f64::from(clock)), eval, ..Annotations::default() },
            None => {
                let mut annotations = Annotations::default();
                for_each_command(comment, &mut annotations);
                annotations
            }
        }
    }

    /// Adds the commands of `comment`, a later comment of the same move: a clock, elapsed time
    /// or evaluation already read stays, highlights and arrows are appended.
    pub fn add_from(&mut self, comment: &str) {
        match lichess_layout(comment.as_bytes()) {
            Some((clock, eval)) => {
                self.clock = self.clock.or(Some(f64::from(clock)));
                self.eval = self.eval.or(eval);
            }
            None => for_each_command(comment, self),
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
