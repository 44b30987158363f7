//! Reading what the commands are given: a FEN argument (its errors shown with a caret), standard
//! input for `-`, and EPD files a line at a time.

use std::io::{self, BufRead, Read};
use std::path::Path;

use chesscore_core::variant::{self, VariantPosition};
use chesscore_core::{FenError, Position, FEN_MAX_LEN};

use crate::args::Variant;
use crate::output::io_text;

/// The FEN argument that stands for the standard start position.
pub(crate) const STARTPOS: &str = "startpos";

/// Reads the position a FEN argument stands for: [`STARTPOS`] is the standard start position,
/// and `-` the first non-empty line of standard input (which may say `startpos` too).
pub(crate) fn read(arg: &str, variant: Variant) -> Result<Position, String> {
    let fen = fen_text(arg, &Position::startpos().to_fen())?;
    let parsed = if variant.chess960 { Position::from_fen_chess960(&fen) } else { Position::from_fen(&fen) };
    parsed.map_err(|e| describe(&fen, &e))
}

/// Reads a position of a lichess variant as [`read`] reads a chess one, [`STARTPOS`] standing
/// for the variant's start position.
pub(crate) fn read_variant(arg: &str, variant: variant::Variant) -> Result<VariantPosition, String> {
    let fen = fen_text(arg, variant.starting_fen())?;
    VariantPosition::from_fen(variant, &fen).map_err(|e| format!("invalid {variant} FEN: {e}"))
}

/// The FEN an argument stands for: `-` is the first non-empty line of standard input, and
/// [`STARTPOS`] (there too) is `start`.
fn fen_text(arg: &str, start: &str) -> Result<String, String> {
    let fen = if arg == "-" { stdin_line()? } else { arg.to_string() };
    Ok(if fen.trim() == STARTPOS { start.to_string() } else { fen })
}

/// The first line of standard input that is not blank, without its line end.
fn stdin_line() -> Result<String, String> {
    // A FEN is short: an endless stream without line ends is not read to its end.
    for line in io::stdin().lock().take(1 << 20).lines() {
        let line = line.map_err(|e| format!("cannot read standard input: {}", io_text(&e)))?;
        if !line.trim().is_empty() {
            return Ok(line);
        }
    }
    Err("no FEN on standard input".to_string())
}

/// The error, the FEN and a caret under the place of the error.
fn describe(fen: &str, error: &FenError) -> String {
    let (shown, caret) = show_at(fen, error.offset());
    format!("invalid FEN at byte {} ({}): {error}\n  {shown}\n  {}^", error.offset(), error.field(), " ".repeat(caret))
}

/// At most this many columns of a FEN are shown under an error: as many as the longest FEN a
/// position can have.
const SHOWN_FEN_WIDTH: usize = FEN_MAX_LEN;

/// Marks where a shown FEN was shortened.
pub(crate) const ELLIPSIS: &str = "...";

/// `input` as shown on one line, and the caret's column for byte `offset` in it. Every byte
/// that is not printable ASCII is shown as `\xNN`, so that each byte shown takes one column (a
/// terminal may give a non-ASCII character one column, two or none); an offset at the end or
/// past it points at the last character; and an input wider than [`SHOWN_FEN_WIDTH`] is
/// shortened around the offset, the cuts marked by [`ELLIPSIS`].
fn show_at(input: &str, offset: usize) -> (String, usize) {
    let chars: Vec<(usize, String)> = input.char_indices().map(|(i, c)| (i, show_char(c, false))).collect();
    let Some(at) = chars.iter().rposition(|&(i, _)| i <= offset) else {
        return (String::new(), 0);
    };
    let width = |range: std::ops::Range<usize>| chars[range].iter().map(|(_, shown)| shown.len()).sum::<usize>();
    let total = width(0..chars.len());
    let budget = if total <= SHOWN_FEN_WIDTH { total } else { SHOWN_FEN_WIDTH - 2 * ELLIPSIS.len() };
    // Grow the window around the caret one character each way at a time while it fits.
    let (mut start, mut end, mut used) = (at, at + 1, chars[at].1.len());
    loop {
        let before = (start, end);
        if start > 0 && used + chars[start - 1].1.len() <= budget {
            start -= 1;
            used += chars[start].1.len();
        }
        if end < chars.len() && used + chars[end].1.len() <= budget {
            used += chars[end].1.len();
            end += 1;
        }
        if (start, end) == before {
            break;
        }
    }
    let head = if start > 0 { ELLIPSIS } else { "" };
    let tail = if end < chars.len() { ELLIPSIS } else { "" };
    let shown: String = chars[start..end].iter().map(|(_, shown)| shown.as_str()).collect();
    (format!("{head}{shown}{tail}"), head.len() + width(start..at))
}

/// `c` as a message shows it: printable ASCII as it is, the replacement character that stands
/// for invalid UTF-8 as `?`, other printable characters as they are when `unicode`, and any
/// other character as `\xNN` for each byte of its UTF-8.
pub(crate) fn show_char(c: char, unicode: bool) -> String {
    match c {
        ' '..='~' => c.to_string(),
        char::REPLACEMENT_CHARACTER => "?".to_string(),
        c if unicode && !c.is_control() => c.to_string(),
        c => c.to_string().bytes().map(|b| format!("\\x{b:02X}")).collect(),
    }
}

/// `-` stands for standard input where a file is read.
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How messages name an input file.
pub(crate) fn input_name(path: &Path) -> String {
    if is_stdin(path) {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// The longest EPD line read (64 MiB, by `epd`, `epdtest` and `match --openings`): input is
/// read a line at a time, so a huge file costs no more memory than its longest line, and a
/// device that never ends a line (such as `/dev/zero`) stops with an error.
pub(crate) const EPD_MAX_LINE: usize = 64 << 20;

/// The lines of an EPD file, or of standard input (`-`), one at a time (see [`EPD_MAX_LINE`]).
pub(crate) struct EpdLines {
    input: Box<dyn BufRead>,
    /// The file's name in messages.
    pub(crate) name: String,
    number: usize,
    bytes: Vec<u8>,
}

impl EpdLines {
    pub(crate) fn open(path: &Path) -> Result<EpdLines, String> {
        let name = input_name(path);
        let input: Box<dyn BufRead> = if is_stdin(path) {
            Box::new(io::stdin().lock())
        } else {
            let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {}", io_text(&e)))?;
            Box::new(io::BufReader::new(file))
        };
        Ok(EpdLines { input, name, number: 0, bytes: Vec::new() })
    }

    /// The next line that is not blank, with its number (from 1), `None` for its text when it
    /// is not UTF-8; `None` at the end of the input. A line too long is an error.
    pub(crate) fn next_line(&mut self) -> Result<Option<(usize, Option<&str>)>, String> {
        loop {
            self.number += 1;
            let (number, name) = (self.number, &self.name);
            match chesscore_core::files::read_line(&mut self.input, &mut self.bytes, EPD_MAX_LINE) {
                Ok(0) => return Ok(None),
                Ok(_) => {}
                Err(_) if self.bytes.len() > EPD_MAX_LINE => {
                    let mib = EPD_MAX_LINE >> 20;
                    return Err(format!("line {number} of {name} is longer than {mib} MiB: not read further"));
                }
                Err(e) => return Err(format!("cannot read {name}: {}", io_text(&e))),
            }
            match std::str::from_utf8(&self.bytes) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(_) => break,
                Err(_) => return Ok(Some((number, None))),
            }
        }
        Ok(Some((self.number, std::str::from_utf8(&self.bytes).ok())))
    }
}
