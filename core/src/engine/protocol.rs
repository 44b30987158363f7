//! The UCI protocol as text: the commands a GUI writes and the engine's lines read into typed
//! values. Pure functions, no processes: usable on their own (by a GUI with its own I/O, say).

use std::fmt::Write as _;
use std::time::Duration;

use super::position::EnginePosition;
use crate::board::color::Color;
use crate::board::moves::Move;
use crate::{Uci, UciCastling};

/// A move as the engine writes and reads it. The one place where engine moves meet the core's
/// UCI notation: castling as king-takes-rook when `chess960` (the engine's `UCI_Chess960`)
/// is on, as the king's two-square move otherwise.
fn write_move(mv: Move, chess960: bool, out: &mut String) {
    let castling = if chess960 { UciCastling::KingTakesRook } else { UciCastling::KingTwoSquares };
    let _ = write!(out, "{}", Uci::from_move_with(mv, castling));
}

/// Why a caller's text cannot go on a command line to the engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandTextError {
    /// A character that some runtime reads as the end of a line (or a NUL), which would let
    /// the rest of the text reach the engine as a command of its own.
    #[error("{what} holds {found:?} at byte {at}: line breaks, control characters and NUL cannot go to an engine")]
    LineBreak { what: &'static str, found: char, at: usize },
    /// An option name that is empty, or holds the word `name` or `value`, which the engine
    /// would read as the start of another field of `setoption`.
    #[error("option name {0:?} is empty or holds the word `name` or `value`")]
    AmbiguousName(String),
}

/// Checks text the caller supplies for one UCI command line: refuses NUL, every ASCII control
/// character but the tab (line feed, carriage return, the vertical tab and form feed, and the
/// file, group and record separators are all line ends to some runtime: Python's
/// `str.splitlines`, for one), and the Unicode line ends U+0085, U+2028 and U+2029 (Java's
/// `Scanner.nextLine`, JavaScript, .NET).
///
/// ```
/// use chesscore_core::engine::protocol::check_command_text;
///
/// assert!(check_command_text("value", "64").is_ok());
/// assert!(check_command_text("value", "1\u{2028}go infinite").is_err());
/// ```
pub fn check_command_text(what: &'static str, text: &str) -> Result<(), CommandTextError> {
    let breaks = |c: char| (c.is_ascii_control() && c != '\t') || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}');
    match text.char_indices().find(|&(_, c)| breaks(c)) {
        Some((at, found)) => Err(CommandTextError::LineBreak { what, found, at }),
        None => Ok(()),
    }
}

/// `setoption name NAME [value VALUE]` (no value for a button), after checking both texts with
/// [`check_command_text`] and the name for words the engine would read as fields.
pub fn setoption_command(name: &str, value: Option<&str>) -> Result<String, CommandTextError> {
    check_command_text("option name", name)?;
    if name.split_whitespace().next().is_none() || name.split_whitespace().any(|word| word == "name" || word == "value")
    {
        return Err(CommandTextError::AmbiguousName(name.to_string()));
    }
    Ok(match value {
        Some(value) => {
            check_command_text("option value", value)?;
            format!("setoption name {name} value {value}")
        }
        None => format!("setoption name {name}"),
    })
}

/// `debug on` or `debug off`.
pub fn debug_command(on: bool) -> &'static str {
    if on {
        "debug on"
    } else {
        "debug off"
    }
}

/// `position startpos|fen FEN [moves M1 M2 ...]`: the game's start and its moves (drops as
/// `P@e4`), castling in the engine's convention (`chess960`: the engine has `UCI_Chess960` on).
/// A variant's start is always a FEN, in python-chess's form.
pub fn position_command<P: EnginePosition>(start: &P, moves: impl IntoIterator<Item = Move>, chess960: bool) -> String {
    let mut out = String::from("position ");
    start.write_start(&mut out);
    for (i, mv) in moves.into_iter().enumerate() {
        out.push_str(if i == 0 { " moves " } else { " " });
        write_move(mv, chess960, &mut out);
    }
    out
}

/// What a search may do: every limit of `go`. Unset limits are left out; none at all means
/// `go` alone (most engines then search until `stop`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search in pondering mode (the position is the one after the expected reply).
    pub ponder: bool,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// The longest the search may last by its clock limits (movetime, or the side to move's
    /// remaining time), when it has one.
    pub fn time_bound(&self, turn: Color) -> Option<Duration> {
        let clock = match turn {
            Color::White => self.wtime,
            Color::Black => self.btime,
        };
        match (self.movetime, clock) {
            _ if self.infinite || self.ponder => None,
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// `go` with the limits (`searchmoves` written in the engine's castling convention).
pub fn go_command(limits: &Limits, chess960: bool) -> String {
    let mut out = String::from("go");
    if limits.ponder {
        out.push_str(" ponder");
    }
    let millis = |d: Duration| d.as_millis();
    let mut field = |name: &str, value: Option<u128>| {
        if let Some(value) = value {
            let _ = write!(out, " {name} {value}");
        }
    };
    field("wtime", limits.wtime.map(millis));
    field("btime", limits.btime.map(millis));
    field("winc", limits.winc.map(millis));
    field("binc", limits.binc.map(millis));
    field("movestogo", limits.movestogo.map(u128::from));
    field("depth", limits.depth.map(u128::from));
    field("nodes", limits.nodes.map(u128::from));
    field("mate", limits.mate.map(u128::from));
    field("movetime", limits.movetime.map(millis));
    if limits.infinite {
        out.push_str(" infinite");
    }
    if !limits.searchmoves.is_empty() {
        out.push_str(" searchmoves");
        for &mv in &limits.searchmoves {
            out.push(' ');
            write_move(mv, chess960, &mut out);
        }
    }
    out
}

/// The kind of an engine option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionType {
    Check,
    Spin,
    Combo,
    Button,
    String,
}

/// An option the engine declared with `option name ... type ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOption {
    pub name: String,
    pub kind: OptionType,
    /// The default value as written (`<empty>` read as the empty string); `None` when not given.
    pub default: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// A combo's choices.
    pub vars: Vec<String>,
}

/// A score as the engine reports it: from the point of view of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// The same score from the other side's point of view.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

/// Whether a score is exact or only a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// Win, draw and loss chances in permille, from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// One `info` line, every field typed. Moves are checked against the searched position: an
/// illegal move ends its line there and is kept in `illegal_move`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    pub pv: Vec<Move>,
    /// The MultiPV line's number, from 1 (an engine without MultiPV omits it: read it as 1).
    pub multipv: Option<u32>,
    /// From the side to move's point of view, as UCI gives it.
    pub score: Option<Score>,
    /// The same score from White's point of view.
    pub white_score: Option<Score>,
    pub bound: Bound,
    pub wdl: Option<Wdl>,
    pub currmove: Option<Move>,
    pub currmovenumber: Option<u32>,
    /// Hash table use in permille.
    pub hashfull: Option<u32>,
    pub nps: Option<u64>,
    pub tbhits: Option<u64>,
    pub sbhits: Option<u64>,
    /// CPU use in permille.
    pub cpuload: Option<u32>,
    pub refutation: Vec<Move>,
    /// `currline [cpunr] moves`: the CPU number (if given) and the line.
    pub currline: Option<(Option<u32>, Vec<Move>)>,
    /// `string ...`: the rest of the line.
    pub string: Option<String>,
    /// The first move that was not legal where it stood (its line ends before it).
    pub illegal_move: Option<String>,
    /// Tokens this reader does not know, in order.
    pub unknown: Vec<String>,
}

/// One line from the engine, read into a typed value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineLine {
    IdName(String),
    IdAuthor(String),
    Option(EngineOption),
    UciOk,
    ReadyOk,
    /// `bestmove M [ponder P]`; `best` is `None` for `bestmove (none)` or `0000`. A ponder
    /// move that is not legal after the best move is dropped.
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
    Info(Box<Info>),
    /// A line of no known form (`copyprotection`, `registration`, junk): kept as it was.
    Unknown(String),
}

/// Why an engine line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The move of a `bestmove` line is not legal in the searched position.
    #[error("bestmove `{0}` is not a legal move")]
    IllegalBestMove(String),
    /// A line of this kind that cannot be read.
    #[error("malformed `{0}` line")]
    Malformed(&'static str),
    /// A line longer than the client reads (its limit in bytes).
    #[error("a line longer than {0} bytes")]
    LineTooLong(usize),
}

/// Reads one line the engine wrote; moves are read in `pos`, the searched position (of chess or
/// of a variant: drops such as `P@e4` are read where the variant has them).
pub fn parse_line<P: EnginePosition>(line: &str, pos: &P) -> Result<EngineLine, ProtocolError> {
    let line = line.trim();
    let mut words = line.split_whitespace();
    Ok(match words.next() {
        Some("uciok") => EngineLine::UciOk,
        Some("readyok") => EngineLine::ReadyOk,
        Some("id") => {
            let (key, value) = split_word(rest_after(line, 1));
            match key {
                "name" => EngineLine::IdName(value.to_string()),
                "author" => EngineLine::IdAuthor(value.to_string()),
                _ => EngineLine::Unknown(line.to_string()),
            }
        }
        Some("option") => EngineLine::Option(parse_option(rest_after(line, 1))?),
        Some("bestmove") => parse_bestmove(words, pos)?,
        Some("info") => EngineLine::Info(Box::new(parse_info(rest_after(line, 1), pos))),
        _ => EngineLine::Unknown(line.to_string()),
    })
}

/// The text after the first `n` words.
fn rest_after(line: &str, n: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..n {
        rest = split_word(rest).1;
    }
    rest
}

/// The first word and the text after it (leading whitespace removed).
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(end) => (&text[..end], text[end..].trim_start()),
        None => (text, ""),
    }
}

fn parse_bestmove<'a, P: EnginePosition>(
    mut words: impl Iterator<Item = &'a str>,
    pos: &P,
) -> Result<EngineLine, ProtocolError> {
    let text = words.next().ok_or(ProtocolError::Malformed("bestmove"))?;
    if text == "(none)" || text == "0000" {
        return Ok(EngineLine::BestMove { best: None, ponder: None });
    }
    let best = pos.read_move(text).map_err(|_| ProtocolError::IllegalBestMove(text.to_string()))?;
    let ponder = match (words.next(), words.next()) {
        (Some("ponder"), Some(text)) => {
            let mut after = pos.clone();
            after.play(best);
            after.read_move(text).ok().filter(|mv| !mv.is_null())
        }
        _ => None,
    };
    Ok(EngineLine::BestMove { best: Some(best), ponder })
}

/// `name N... type T [default V...] [min X] [max Y] [var V...]...`: names and values may hold
/// spaces, so each runs to the next keyword.
fn parse_option(text: &str) -> Result<EngineOption, ProtocolError> {
    let mut fields: Vec<(&str, String)> = Vec::new();
    for word in text.split_whitespace() {
        // Until `type`, everything after `name` is the name (`name Use default book type check`);
        // after it, the value keywords start fields.
        let typed = fields.iter().any(|(key, _)| *key == "type");
        let is_keyword = match word {
            "name" => fields.is_empty(),
            "type" => !typed,
            "default" | "min" | "max" | "var" => typed,
            _ => false,
        };
        match fields.last_mut() {
            Some((_, value)) if !is_keyword => {
                if !value.is_empty() {
                    value.push(' ');
                }
                value.push_str(word);
            }
            None if !is_keyword => return Err(ProtocolError::Malformed("option")),
            _ => fields.push((word, String::new())),
        }
    }
    let get = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    let name = get("name").filter(|n| !n.is_empty()).ok_or(ProtocolError::Malformed("option"))?;
    let kind = match get("type") {
        Some("check") => OptionType::Check,
        Some("spin") => OptionType::Spin,
        Some("combo") => OptionType::Combo,
        Some("button") => OptionType::Button,
        Some("string") => OptionType::String,
        _ => return Err(ProtocolError::Malformed("option")),
    };
    let number = |key| get(key).and_then(|v| v.parse().ok());
    Ok(EngineOption {
        name: name.to_string(),
        kind,
        default: get("default").map(|v| if v == "<empty>" { String::new() } else { v.to_string() }),
        min: number("min"),
        max: number("max"),
        vars: fields.iter().filter(|(k, _)| *k == "var").map(|(_, v)| v.clone()).collect(),
    })
}

/// Every `info` keyword, so that a run of moves ends at the next one.
const INFO_KEYWORDS: [&str; 20] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "wdl",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "refutation",
    "currline",
    "string",
    "lowerbound",
    "upperbound",
];

fn parse_info<P: EnginePosition>(text: &str, pos: &P) -> Info {
    let mut info = Info::default();
    let mut rest = text;
    while !rest.is_empty() {
        let (word, after) = split_word(rest);
        rest = after;
        let mut number = || {
            let (value, after) = split_word(rest);
            rest = after;
            value.parse::<u64>().ok()
        };
        let small = |n: Option<u64>| n.and_then(|n| u32::try_from(n).ok());
        match word {
            "depth" => info.depth = small(number()),
            "seldepth" => info.seldepth = small(number()),
            "time" => info.time = number().map(Duration::from_millis),
            "nodes" => info.nodes = number(),
            "multipv" => info.multipv = small(number()),
            "currmovenumber" => info.currmovenumber = small(number()),
            "hashfull" => info.hashfull = small(number()),
            "nps" => info.nps = number(),
            "tbhits" => info.tbhits = number(),
            "sbhits" => info.sbhits = number(),
            "cpuload" => info.cpuload = small(number()),
            "string" => {
                info.string = Some(rest.to_string());
                rest = "";
            }
            "score" => rest = parse_score(rest, pos.turn(), &mut info),
            "wdl" => {
                let (win, draw, loss) = (small(number()), small(number()), small(number()));
                info.wdl = win.zip(draw).zip(loss).map(|((win, draw), loss)| Wdl { win, draw, loss });
            }
            "currmove" => {
                let (text, after) = split_word(rest);
                rest = after;
                match pos.read_move(text) {
                    Ok(mv) => info.currmove = Some(mv),
                    Err(_) => note_illegal(&mut info, text),
                }
            }
            "pv" => info.pv = read_line(&mut rest, pos, &mut info),
            "refutation" => info.refutation = read_line(&mut rest, pos, &mut info),
            "currline" => {
                let (first, after) = split_word(rest);
                let cpu = first.parse::<u32>().ok();
                if cpu.is_some() {
                    rest = after;
                }
                let line = read_line(&mut rest, pos, &mut info);
                info.currline = Some((cpu, line));
            }
            other => info.unknown.push(other.to_string()),
        }
    }
    info
}

/// `cp N|mate N [lowerbound|upperbound]`, after `score`; returns the rest of the text.
fn parse_score<'a>(text: &'a str, turn: Color, info: &mut Info) -> &'a str {
    let (kind, rest) = split_word(text);
    let (value, mut rest) = split_word(rest);
    let score = match (kind, value.parse::<i32>()) {
        ("cp", Ok(cp)) => Some(Score::Cp(cp)),
        ("mate", Ok(n)) => Some(Score::Mate(n)),
        _ => {
            info.unknown.extend([kind, value].iter().filter(|w| !w.is_empty()).map(|w| w.to_string()));
            None
        }
    };
    info.score = score;
    info.white_score = score.map(|s| if turn == Color::White { s } else { s.flip() });
    info.bound = Bound::Exact;
    loop {
        let (word, after) = split_word(rest);
        match word {
            "lowerbound" => info.bound = Bound::Lower,
            "upperbound" => info.bound = Bound::Upper,
            _ => return rest,
        }
        rest = after;
    }
}

/// A run of moves up to the next keyword, played from `pos`: the first illegal one ends the
/// line (it and the moves after it are dropped) and is noted.
fn read_line<P: EnginePosition>(rest: &mut &str, pos: &P, info: &mut Info) -> Vec<Move> {
    let mut line = Vec::new();
    let mut at = pos.clone();
    let mut broken = false;
    loop {
        let (word, after) = split_word(rest);
        if word.is_empty() || INFO_KEYWORDS.contains(&word) {
            return line;
        }
        *rest = after;
        if broken {
            continue;
        }
        match at.read_move(word) {
            Ok(mv) if !mv.is_null() => {
                at.play(mv);
                line.push(mv);
            }
            _ => {
                note_illegal(info, word);
                broken = true;
            }
        }
    }
}

fn note_illegal(info: &mut Info, text: &str) {
    info.illegal_move.get_or_insert_with(|| text.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::UciError;

    fn read_move(pos: &Position, text: &str) -> Result<Move, UciError> {
        pos.read_move(text)
    }

    fn standard_uci(mv: Move) -> String {
        Uci::from_move_with(mv, UciCastling::KingTwoSquares).to_string()
    }

    fn start() -> Position {
        Position::startpos()
    }

    #[test]
    fn commands() {
        assert_eq!(setoption_command("Clear Hash", None).unwrap(), "setoption name Clear Hash");
        assert_eq!(setoption_command("Skill Level", Some("3")).unwrap(), "setoption name Skill Level value 3");
        assert_eq!(debug_command(true), "debug on");
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let castle = read_move(&pos, "e1g1").unwrap();
        let fen = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves";
        assert_eq!(position_command(&pos, [castle], false), format!("{fen} e1g1"));
        assert_eq!(position_command(&pos, [castle], true), format!("{fen} e1h1"));
        assert_eq!(position_command(&start(), [], false), "position startpos");
        let limits = Limits {
            depth: Some(5),
            movetime: Some(Duration::from_millis(250)),
            wtime: Some(Duration::from_secs(60)),
            binc: Some(Duration::from_millis(500)),
            movestogo: Some(7),
            searchmoves: vec![castle],
            ponder: true,
            ..Limits::default()
        };
        assert_eq!(
            go_command(&limits, true),
            "go ponder wtime 60000 binc 500 movestogo 7 depth 5 movetime 250 searchmoves e1h1"
        );
        let all = Limits { nodes: Some(9), mate: Some(2), infinite: true, ..Limits::default() };
        assert_eq!(go_command(&all, false), "go nodes 9 mate 2 infinite");
        assert_eq!(limits.time_bound(Color::White), None);
        let timed = Limits { movetime: Some(Duration::from_millis(50)), ..Limits::default() };
        assert_eq!(timed.time_bound(Color::Black), Some(Duration::from_millis(50)));
    }

    #[test]
    fn caller_text_cannot_start_a_command_of_its_own() {
        let breaks = [
            '\n', '\r', '\0', '\u{0b}', '\u{0c}', '\u{1c}', '\u{1d}', '\u{1e}', '\u{1f}', '\u{7f}', '\u{85}',
            '\u{2028}', '\u{2029}',
        ];
        for c in breaks {
            let text = format!("1{c}go infinite");
            let error = setoption_command("Hash", Some(&text)).unwrap_err();
            assert_eq!(error, CommandTextError::LineBreak { what: "option value", found: c, at: 1 });
            assert!(setoption_command(&format!("Ha{c}sh"), Some("1")).is_err(), "{c:?} in a name");
            assert!(setoption_command(&format!("Ha{c}sh"), None).is_err(), "{c:?} in a button's name");
        }
        assert!(setoption_command("Hash", Some("a\tb")).is_ok());
        assert!(setoption_command("Style", Some("Normal Play é")).is_ok());
        for name in ["", "  ", "A value B", "value", "name", "X name", "Use value"] {
            assert_eq!(setoption_command(name, Some("1")), Err(CommandTextError::AmbiguousName(name.to_string())));
        }
        assert!(setoption_command("Values", Some("value")).is_ok());
    }

    #[test]
    fn handshake_lines() {
        let pos = start();
        assert_eq!(parse_line("id name Stock fish 15", &pos), Ok(EngineLine::IdName("Stock fish 15".into())));
        assert_eq!(parse_line("id author A B", &pos), Ok(EngineLine::IdAuthor("A B".into())));
        assert_eq!(parse_line(" uciok \r", &pos), Ok(EngineLine::UciOk));
        assert_eq!(parse_line("readyok", &pos), Ok(EngineLine::ReadyOk));
        assert_eq!(parse_line("copyprotection ok", &pos), Ok(EngineLine::Unknown("copyprotection ok".into())));
        let Ok(EngineLine::Option(spin)) =
            parse_line("option name Skill Level type spin default 20 min 0 max 20", &pos)
        else {
            panic!()
        };
        assert_eq!(
            (spin.name.as_str(), spin.kind, spin.min, spin.max),
            ("Skill Level", OptionType::Spin, Some(0), Some(20))
        );
        assert_eq!(spin.default.as_deref(), Some("20"));
        let Ok(EngineLine::Option(combo)) =
            parse_line("option name Style type combo default Normal Play var Solid var Normal Play var Risky", &pos)
        else {
            panic!()
        };
        assert_eq!(combo.vars, ["Solid", "Normal Play", "Risky"]);
        assert_eq!(combo.default.as_deref(), Some("Normal Play"));
        let Ok(EngineLine::Option(path)) = parse_line("option name SyzygyPath type string default <empty>", &pos)
        else {
            panic!()
        };
        assert_eq!(path.default.as_deref(), Some(""));
        let Ok(EngineLine::Option(button)) = parse_line("option name Clear Hash type button", &pos) else { panic!() };
        let Ok(EngineLine::Option(odd)) = parse_line("option name Use default max type check default true", &pos)
        else {
            panic!()
        };
        assert_eq!((odd.name.as_str(), odd.default.as_deref()), ("Use default max", Some("true")));
        assert_eq!((button.kind, button.default), (OptionType::Button, None));
        assert_eq!(parse_line("option type spin", &pos), Err(ProtocolError::Malformed("option")));
        assert_eq!(parse_line("option name X type wheel", &pos), Err(ProtocolError::Malformed("option")));
    }

    #[test]
    fn bestmove_lines() {
        let pos = start();
        let e4 = read_move(&pos, "e2e4").unwrap();
        let e5 = read_move(&pos.make_move(e4), "e7e5").unwrap();
        assert_eq!(
            parse_line("bestmove e2e4 ponder e7e5", &pos),
            Ok(EngineLine::BestMove { best: Some(e4), ponder: Some(e5) })
        );
        assert_eq!(
            parse_line("bestmove e2e4 ponder e2e4", &pos),
            Ok(EngineLine::BestMove { best: Some(e4), ponder: None })
        );
        assert_eq!(parse_line("bestmove (none)", &pos), Ok(EngineLine::BestMove { best: None, ponder: None }));
        assert_eq!(parse_line("bestmove 0000", &pos), Ok(EngineLine::BestMove { best: None, ponder: None }));
        assert_eq!(parse_line("bestmove e2e5", &pos), Err(ProtocolError::IllegalBestMove("e2e5".into())));
        assert_eq!(parse_line("bestmove", &pos), Err(ProtocolError::Malformed("bestmove")));
        let castling = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let Ok(EngineLine::BestMove { best: Some(mv), .. }) = parse_line("bestmove e1h1", &castling) else { panic!() };
        assert!(mv.is_castling());
    }

    #[test]
    fn info_lines() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let line = "info depth 12 seldepth 15 multipv 2 score cp -31 upperbound wdl 40 900 60 nodes 12345 nps 999 \
                    hashfull 7 tbhits 1 sbhits 2 cpuload 500 time 42 frob 3 currmove e7e5 currmovenumber 3 \
                    pv e7e5 g1f3 b8c6 refutation d7d5 e4d5 currline 1 c7c5 string hello  world";
        let Ok(EngineLine::Info(info)) = parse_line(line, &pos) else { panic!() };
        assert_eq!((info.depth, info.seldepth, info.multipv), (Some(12), Some(15), Some(2)));
        assert_eq!(
            (info.score, info.white_score, info.bound),
            (Some(Score::Cp(-31)), Some(Score::Cp(31)), Bound::Upper)
        );
        assert_eq!(info.wdl, Some(Wdl { win: 40, draw: 900, loss: 60 }));
        assert_eq!(
            (info.nodes, info.nps, info.hashfull, info.tbhits, info.sbhits),
            (Some(12345), Some(999), Some(7), Some(1), Some(2))
        );
        assert_eq!(
            (info.cpuload, info.time, info.currmovenumber),
            (Some(500), Some(Duration::from_millis(42)), Some(3))
        );
        let uci = |moves: &[Move]| moves.iter().map(|&m| standard_uci(m)).collect::<Vec<_>>();
        assert_eq!(uci(&info.pv), ["e7e5", "g1f3", "b8c6"]);
        assert_eq!(uci(&info.refutation), ["d7d5", "e4d5"]);
        let (cpu, current) = info.currline.clone().unwrap();
        assert_eq!((cpu, uci(&current)), (Some(1), vec!["c7c5".to_string()]));
        assert_eq!(info.currmove.map(standard_uci).as_deref(), Some("e7e5"));
        assert_eq!(info.unknown, ["frob", "3"]);
        assert_eq!(info.string.as_deref(), Some("hello  world"));
        assert_eq!(info.illegal_move, None);

        let Ok(EngineLine::Info(mate)) = parse_line("info score mate -3 lowerbound pv e7e5", &pos) else { panic!() };
        assert_eq!(
            (mate.score, mate.white_score, mate.bound),
            (Some(Score::Mate(-3)), Some(Score::Mate(3)), Bound::Lower)
        );
    }

    #[test]
    fn an_illegal_move_truncates_its_line() {
        let pos = start();
        let Ok(EngineLine::Info(info)) = parse_line("info depth 3 pv e2e4 e2e4 e7e5 score cp 5 nodes 10", &pos) else {
            panic!()
        };
        assert_eq!(info.pv.len(), 1);
        assert_eq!(info.illegal_move.as_deref(), Some("e2e4"));
        assert_eq!((info.score, info.nodes), (Some(Score::Cp(5)), Some(10)));
        let Ok(EngineLine::Info(junk)) = parse_line("info pv zz9 score cp x depth", &pos) else { panic!() };
        assert!(junk.pv.is_empty() && junk.score.is_none() && junk.depth.is_none());
        assert_eq!(junk.illegal_move.as_deref(), Some("zz9"));
    }
}
