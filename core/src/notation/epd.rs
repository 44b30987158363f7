//! EPD (Extended Position Description): the four position fields of a FEN followed by
//! operations, each an opcode with operands and a closing `;`:
//!
//! ```text
//! r3k2r/8/8/8/8/8/8/R3K2R b KQkq - bm O-O-O; id "castle \"long\""; acd 12; ce -35;
//! ```
//!
//! # Reading
//! - The four position fields are read as strict FEN, by the FEN reader itself (error offsets
//!   count in the line); the en passant field may be left out when no operation follows
//!   (python-chess accepts that too). The `hmvc` and `fmvn`
//!   operations, when present, give the position its clocks (default 0 and 1); they stay in
//!   the operation list.
//! - An opcode starts with a letter and continues with letters, digits and `_`.
//! - Operands are separated by whitespace: a quoted string (`\` takes the next character
//!   literally, so `\"` and `\\`), or a bare token. The operands of `bm` and `am` are SAN moves
//!   of the position, those of `pv` a SAN sequence played in turn (lenient SAN, see
//!   [`crate::SanMode`]; no null moves). Other bare tokens are integers (`12`, `-35`, `+3`),
//!   finite floats (`0.5`, `1e3`) or otherwise words.
//! - An opcode given twice keeps its first place and its last operands, as in python-chess.
//! - Leading and trailing whitespace of the line is ignored; the last `;` may be missing.
//!
//! Differences from python-chess: it keeps only the first string, or the whole rest of the
//! operation as one string or number, where this reader keeps every operand (`c0 "a" "b"` has
//! two strings; `xyz one two` two words); it rejects `bm 0-0` (a number that is not one),
//! which reads as castling here; and a quoted operand of `bm`, `am` or `pv` is an error here.
//!
//! # Writing
//! [`Epd`]'s `Display` writes the canonical form: the four fields as [`Position::to_fen`]
//! writes them (en passant only when the capture is legal), then each operation as
//! `opcode operand...;`, separated by single spaces. Moves are written as SAN with suffix,
//! strings quoted with `"` and `\` escaped, floats in their shortest round-trip form (always
//! with a `.` or exponent), words as read. python-chess sorts the moves of `bm` and `am` by
//! their SAN; here they keep their order. A string cannot hold a line break.
//!
//! # Variant positions
//! An `Epd<VariantPosition>` ([`Epd::parse_variant`]) holds a position of a lichess variant:
//! the position fields are read and written as
//! [`VariantPosition::from_fen`](crate::variant::VariantPosition::from_fen) and
//! [`VariantPosition::to_fen`](crate::variant::VariantPosition::to_fen) have them, as
//! python-chess's variant boards do: crazyhouse's
//! pockets and promoted pieces in the placement field (`[Qn]`, `Q~`; lichess's ninth row `/Qn`
//! is read too), three-check's remaining checks as a field of their own after the en passant
//! square (`2+3`; left out, both sides have 3). Move operands are the variant's SAN: drops
//! (`N@f3`, `@e4`) and `#` for a decisive variant ending. python-chess requires the three-check
//! field when operations follow, and its crazyhouse board writes no operations.

use std::collections::hash_map::{Entry, HashMap};
use std::collections::TryReserveError;
use std::fmt::{self, Write};

use arrayvec::ArrayString;

use crate::board::moves::Move;
use crate::fallible::{try_push, try_string, Length};
use crate::notation::fen::syntax::{Field, Fields};
use crate::notation::fen::{FenError, FenOptions, FenWriteOptions, FEN_MAX_INPUT, FEN_MAX_LEN};
use crate::notation::san::{San, SanError};
use crate::notation::uci::Uci;
use crate::position::Position;

/// An operand of an EPD operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A move of `bm`, `am` or `pv`, read from SAN.
    Move(Move),
    /// An integer.
    Integer(i64),
    /// A finite number with a fraction or exponent.
    Float(f64),
    /// A quoted string, unescaped.
    String(String),
    /// A bare token that is neither a number nor a move.
    Word(String),
}

impl Operand {
    /// The move, for a move operand.
    pub fn as_move(&self) -> Option<Move> {
        match self {
            Operand::Move(mv) => Some(*mv),
            _ => None,
        }
    }

    /// The integer, for an integer operand.
    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Operand::Integer(n) => Some(*n),
            _ => None,
        }
    }

    /// The number, for an integer or float operand.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Operand::Integer(n) => Some(*n as f64),
            Operand::Float(x) => Some(*x),
            _ => None,
        }
    }

    /// The text, for a string or word operand.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Operand::String(s) | Operand::Word(s) => Some(s),
            _ => None,
        }
    }
}

/// One operation: an opcode and its operands (possibly none, like `noop;`).
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// The opcode, such as `bm` or `c0`.
    pub opcode: String,
    /// The operands in order.
    pub operands: Vec<Operand>,
}

impl Operation {
    /// The move operands, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.operands.iter().filter_map(Operand::as_move)
    }
}

/// Why an EPD line was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EpdError {
    /// Fewer than the placement, side to move and castling fields.
    #[error("missing position fields: expected placement, side to move, castling and en passant")]
    MissingFields,
    /// The position fields (with the clocks of `hmvc`/`fmvn`) are not a valid FEN position;
    /// its offset counts in the line.
    #[error("invalid position: {0}")]
    Position(FenError),
    /// An opcode that does not start with a letter or holds other characters than letters,
    /// digits and `_`.
    #[error("invalid opcode `{0}`: an opcode is a letter followed by letters, digits or '_'")]
    Opcode(String),
    /// A quoted string without its closing quote.
    #[error("unterminated string in operation `{0}`")]
    UnterminatedString(String),
    /// An operand of the wrong type, such as a string in `bm` or a negative `hmvc`.
    #[error("invalid operand `{operand}` of operation `{opcode}`")]
    Operand {
        /// The operation.
        opcode: String,
        /// The operand as written.
        operand: String,
    },
    /// A move operand that is not a legal move of the position (or, in `pv`, of the position
    /// the earlier moves reach).
    #[error("operand {} `{operand}` of operation `{opcode}`: {error}", index + 1)]
    Move {
        /// The operation.
        opcode: String,
        /// Index of the operand.
        index: usize,
        /// The operand as written.
        operand: String,
        /// What is wrong with it.
        error: SanError,
    },
    /// Memory ran out while reading the line (reading reports it instead of aborting, so that
    /// the C ABI can return `CHESS_ERR_OUT_OF_MEMORY`).
    #[error("out of memory")]
    OutOfMemory,
}

/// The message shows the FEN error, which is therefore not the `source`.
impl From<FenError> for EpdError {
    fn from(error: FenError) -> EpdError {
        EpdError::Position(error)
    }
}

impl From<TryReserveError> for EpdError {
    fn from(_: TryReserveError) -> EpdError {
        EpdError::OutOfMemory
    }
}

/// `text` as an owned string, or [`EpdError::OutOfMemory`].
fn owned(text: &str) -> Result<String, EpdError> {
    Ok(try_string(text)?)
}

/// An EPD record: a position (a chess [`Position`], or a
/// [`VariantPosition`](crate::variant::VariantPosition) of any variant) and its operations.
#[derive(Debug, Clone, PartialEq)]
pub struct Epd<P = Position> {
    position: P,
    operations: Vec<Operation>,
}

/// A position an [`Epd`] can hold: a chess [`Position`] or a
/// [`VariantPosition`](crate::variant::VariantPosition). Sealed: what the record needs of it is
/// the crate's own.
pub trait EpdPosition: Copy + sealed::Sealed {}

impl EpdPosition for Position {}

pub(crate) mod sealed {
    use std::fmt;

    use crate::board::moves::Move;
    use crate::notation::san::{San, SanError};
    use crate::notation::uci::Uci;

    /// What an EPD record writes and plays in its position (the reader is given the
    /// position's reader).
    pub trait Sealed: Sized {
        /// Writes the position fields: the FEN without its clocks.
        fn write_fields<W: fmt::Write>(&self, out: &mut W) -> fmt::Result;
        /// The legal move a (lenient) SAN names.
        fn read_san(&self, token: &str) -> Result<Move, SanError>;
        /// The SAN, with suffix, of a legal move.
        fn san_of(&self, mv: Move) -> Option<San>;
        /// Whether `mv` is legal here.
        fn legal(&self, mv: Move) -> bool;
        /// Plays the legal move `mv`.
        fn play_legal(&mut self, mv: Move);
        /// `mv` in UCI, for error messages.
        fn uci_of(&self, mv: Move) -> Uci;
    }
}

use sealed::Sealed;

/// A FEN without its two clock fields.
pub(crate) fn without_clocks(fen: &str) -> &str {
    fen.rsplitn(3, ' ').nth(2).unwrap_or(fen)
}

/// The chess position of an EPD's four fields and clocks.
fn chess_fields(
    options: &FenOptions,
    fields: &Fields<'_>,
    (halfmove, fullmove): (u32, u32),
) -> Result<Position, EpdError> {
    // Bounded as the FEN of these fields and clocks would be.
    let digits = |n: u32| {
        let mut length = Length(0);
        let _ = write!(length, "{n}");
        length.0
    };
    let length =
        fields.list[..4].iter().map(|f| f.text.len() + 1).sum::<usize>() + digits(halfmove) + 1 + digits(fullmove);
    if length > FEN_MAX_INPUT {
        return Err(FenError::TooLong { length }.into());
    }
    let mut fen = fields.read()?;
    fen.setup.halfmove_clock = halfmove;
    fen.setup.fullmove_number = fullmove.max(1);
    Ok(fen.validate(options)?.0)
}

impl Sealed for Position {
    fn write_fields<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        let mut fen = ArrayString::<FEN_MAX_LEN>::new();
        self.write_fen(&mut fen, &FenWriteOptions::default())?;
        out.write_str(without_clocks(&fen))
    }

    fn read_san(&self, token: &str) -> Result<Move, SanError> {
        token.parse::<San>().and_then(|san| san.to_move(self))
    }

    fn san_of(&self, mv: Move) -> Option<San> {
        San::from_move(self, mv).ok()
    }

    fn legal(&self, mv: Move) -> bool {
        self.is_legal(mv)
    }

    fn play_legal(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    fn uci_of(&self, mv: Move) -> Uci {
        Uci::from_move(self, mv)
    }
}

/// An operand as written, before it is given a type.
enum RawOperand<'a> {
    Quoted(String),
    Bare(&'a str),
}

impl RawOperand<'_> {
    /// Appends the operand as written (a string with its quotes) to `out`.
    fn push_text(&self, out: &mut String) -> Result<(), EpdError> {
        match self {
            RawOperand::Quoted(s) => {
                out.try_reserve(s.len() + 2)?;
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            RawOperand::Bare(s) => {
                out.try_reserve(s.len())?;
                out.push_str(s);
            }
        }
        Ok(())
    }
}

/// [`EpdError::Operand`] for the operands `raw` of `opcode`, written as they were.
fn operand_error(opcode: &str, raw: &[RawOperand<'_>]) -> EpdError {
    let error = || -> Result<EpdError, EpdError> {
        let mut operand = String::new();
        for part in raw {
            part.push_text(&mut operand)?;
        }
        Ok(EpdError::Operand { opcode: owned(opcode)?, operand })
    };
    error().unwrap_or_else(|oom| oom)
}

type RawOperation<'a> = (&'a str, Vec<RawOperand<'a>>);

fn is_opcode(text: &str) -> bool {
    let mut bytes = text.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Splits the operation part into opcodes and raw operands.
fn split_operations(mut rest: &str) -> Result<Vec<RawOperation<'_>>, EpdError> {
    let mut operations: Vec<RawOperation<'_>> = Vec::new();
    // Where each opcode is, so that a line of n operations reads in time linear in n.
    let mut places: HashMap<&str, usize> = HashMap::new();
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ';');
        if rest.is_empty() {
            return Ok(operations);
        }
        let end = rest.find(|c: char| c.is_ascii_whitespace() || c == ';').unwrap_or(rest.len());
        let opcode = &rest[..end];
        if !is_opcode(opcode) {
            return Err(EpdError::Opcode(owned(opcode)?));
        }
        rest = &rest[end..];
        let mut operands = Vec::new();
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
            if rest.is_empty() {
                break;
            }
            if let Some(tail) = rest.strip_prefix(';') {
                rest = tail;
                break;
            }
            if let Some(tail) = rest.strip_prefix('"') {
                let mut text = String::new();
                let mut chars = tail.char_indices();
                let mut closed = None;
                while let Some((i, c)) = chars.next() {
                    match c {
                        '"' => {
                            closed = Some(i + 1);
                            break;
                        }
                        '\\' => {
                            if let Some((_, c)) = chars.next() {
                                text.try_reserve(c.len_utf8())?;
                                text.push(c);
                            }
                        }
                        c => {
                            text.try_reserve(c.len_utf8())?;
                            text.push(c);
                        }
                    }
                }
                let Some(end) = closed else { return Err(EpdError::UnterminatedString(owned(opcode)?)) };
                rest = &tail[end..];
                try_push(&mut operands, RawOperand::Quoted(text))?;
            } else {
                let end = rest.find(|c: char| c.is_ascii_whitespace() || c == ';').unwrap_or(rest.len());
                try_push(&mut operands, RawOperand::Bare(&rest[..end]))?;
                rest = &rest[end..];
            }
        }
        places.try_reserve(1)?;
        match places.entry(opcode) {
            Entry::Occupied(place) => operations[*place.get()].1 = operands,
            Entry::Vacant(place) => {
                try_push(&mut operations, (opcode, operands))?;
                place.insert(operations.len() - 1);
            }
        }
    }
}

/// A bare token as a number or a word.
fn bare_operand(token: &str) -> Result<Operand, EpdError> {
    if let Ok(n) = token.parse::<i64>() {
        return Ok(Operand::Integer(n));
    }
    // Rust also reads `inf`, `nan` and `infinity`: only digit-led forms count as numbers.
    let numeric = token.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'));
    Ok(match token.parse::<f64>() {
        Ok(x) if numeric && x.is_finite() => Operand::Float(x),
        _ => Operand::Word(owned(token)?),
    })
}

/// The clock an `hmvc` or `fmvn` operation gives, if present.
fn clock(operations: &[RawOperation<'_>], name: &str) -> Result<Option<u32>, EpdError> {
    let Some((opcode, operands)) = operations.iter().find(|(op, _)| *op == name) else { return Ok(None) };
    let bad = || operand_error(opcode, operands);
    match operands.as_slice() {
        [RawOperand::Bare(token)] => token.parse::<u32>().map(Some).map_err(|_| bad()),
        _ => Err(bad()),
    }
}

impl Epd {
    /// Reads a standard-chess EPD line.
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        Epd::parse_with(line, &FenOptions::default())
    }

    /// Reads an EPD line with FEN options (Chess960, repairs). Running out of memory is
    /// [`EpdError::OutOfMemory`], not an abort.
    pub fn parse_with(line: &str, options: &FenOptions) -> Result<Epd, EpdError> {
        Epd::read(line, |_| false, |fields, _, clocks| chess_fields(options, fields, clocks))
    }
}

impl<P: EpdPosition> Epd<P> {
    /// An EPD of `position` without operations. Its clocks are not written unless `hmvc` and
    /// `fmvn` operations are added.
    pub fn new(position: P) -> Epd<P> {
        Epd { position, operations: Vec::new() }
    }

    /// The one EPD reader: the position fields (four, and one more where `takes_field` says
    /// the token after them is one) read by `read_fields` with the clocks of `hmvc` and
    /// `fmvn`, then the operations. Its errors are `E`'s, which holds the reader's own and
    /// those `read_fields` gives (a variant's position errors).
    pub(crate) fn read<E: From<EpdError>>(
        line: &str,
        takes_field: impl Fn(&str) -> bool,
        read_fields: impl FnOnce(&Fields<'_>, Option<&str>, (u32, u32)) -> Result<P, E>,
    ) -> Result<Epd<P>, E> {
        let bytes = line.as_bytes();
        let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
        let end = bytes.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |i| i + 1);
        // The position fields are split as a FEN's, at any whitespace; the operations follow.
        let (mut fields, mut rest) = Fields::split(bytes, start, end, 4, |b| b.is_ascii_whitespace());
        match fields.count {
            4 => {}
            // Only when nothing follows; the placeholder is not in the line, and a `-` is no error.
            3 => {
                fields.list[3] = Field { offset: end, text: b"-" };
                fields.count = 4;
            }
            _ => return Err(EpdError::MissingFields.into()),
        }
        // A field of the variant's own after the en passant square (three-check's counter).
        let next = line[rest..end].split(|c: char| c.is_ascii_whitespace()).next().unwrap_or("");
        let extra = takes_field(next).then_some(next);
        if extra.is_some() {
            rest += next.len();
        }
        // Some suites (ERET's among them) write a fifth `-` after the en passant field: it
        // stands for no operation and is passed over.
        let operations_text = line[rest..end].trim_start();
        let operations_text = match operations_text.strip_prefix('-') {
            Some(after) if after.is_empty() || after.starts_with(|c: char| c.is_ascii_whitespace()) => after,
            _ => operations_text,
        };
        let raw = split_operations(operations_text)?;
        let halfmove = clock(&raw, "hmvc")?.unwrap_or(0);
        let fullmove = clock(&raw, "fmvn")?.unwrap_or(1);
        let position = read_fields(&fields, extra, (halfmove, fullmove))?;
        let mut operations = Vec::new();
        operations.try_reserve_exact(raw.len()).map_err(EpdError::from)?;
        for (opcode, operands) in raw {
            let operands = typed_operands(&position, opcode, operands)?;
            operations.push(Operation { opcode: owned(opcode)?, operands });
        }
        Ok(Epd { position, operations })
    }

    /// The position, with the clocks of `hmvc` and `fmvn`.
    pub fn position(&self) -> &P {
        &self.position
    }

    /// The operations in order.
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    /// The operation with this opcode.
    pub fn get(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode == opcode)
    }

    /// The first operand of this opcode as a string (for `id`, `c0`, ...).
    pub fn string(&self, opcode: &str) -> Option<&str> {
        self.get(opcode)?.operands.first()?.as_str()
    }

    /// The moves of `bm` (best moves).
    pub fn best_moves(&self) -> Vec<Move> {
        self.get("bm").map(|op| op.moves().collect()).unwrap_or_default()
    }

    /// The moves of `am` (moves to avoid).
    pub fn avoid_moves(&self) -> Vec<Move> {
        self.get("am").map(|op| op.moves().collect()).unwrap_or_default()
    }

    /// Sets an operation, replacing one with the same opcode in place or appending it. Moves
    /// must be legal in the position (for `pv`, played in turn).
    pub fn set(&mut self, opcode: &str, operands: Vec<Operand>) -> Result<(), EpdError> {
        if !is_opcode(opcode) {
            return Err(EpdError::Opcode(opcode.to_string()));
        }
        let mut pos = self.position;
        for (index, operand) in operands.iter().enumerate() {
            match operand {
                Operand::Move(mv) => {
                    let legal = if opcode == "pv" { pos.legal(*mv) } else { self.position.legal(*mv) };
                    if !legal {
                        let operand = self.position.uci_of(*mv).to_string();
                        return Err(EpdError::Move {
                            opcode: opcode.to_string(),
                            index,
                            operand,
                            error: SanError::Illegal,
                        });
                    }
                    if opcode == "pv" {
                        pos.play_legal(*mv);
                    }
                }
                Operand::Float(x) if !x.is_finite() => {
                    return Err(EpdError::Operand { opcode: opcode.to_string(), operand: x.to_string() })
                }
                _ => {}
            }
        }
        let operation = Operation { opcode: opcode.to_string(), operands };
        match self.operations.iter_mut().find(|op| op.opcode == opcode) {
            Some(existing) => *existing = operation,
            None => self.operations.push(operation),
        }
        Ok(())
    }

    /// Removes the operation with this opcode; returns it.
    pub fn remove(&mut self, opcode: &str) -> Option<Operation> {
        let index = self.operations.iter().position(|op| op.opcode == opcode)?;
        Some(self.operations.remove(index))
    }

    /// Writes the canonical EPD (see the module documentation).
    pub fn write<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        self.position.write_fields(out)?;
        for op in &self.operations {
            out.write_char(' ')?;
            self.write_operation(op, out)?;
        }
        Ok(())
    }

    /// Writes one operation as the canonical form has it: `opcode operand...;`, moves in SAN
    /// of this position. Fails for a move operand that is not legal here.
    pub fn write_operation<W: fmt::Write>(&self, op: &Operation, out: &mut W) -> fmt::Result {
        out.write_str(&op.opcode)?;
        let mut pos = self.position;
        for operand in &op.operands {
            out.write_char(' ')?;
            match operand {
                Operand::Move(mv) => {
                    // `set` and `parse` admit legal moves only.
                    let san = pos.san_of(*mv).ok_or(fmt::Error)?;
                    out.write_str(&san)?;
                    if op.opcode == "pv" {
                        pos.play_legal(*mv);
                    }
                }
                Operand::Integer(n) => write!(out, "{n}")?,
                Operand::Float(x) => write!(out, "{x:?}")?,
                Operand::String(s) => {
                    out.write_char('"')?;
                    for c in s.chars() {
                        if c == '"' || c == '\\' {
                            out.write_char('\\')?;
                        }
                        out.write_char(c)?;
                    }
                    out.write_char('"')?;
                }
                Operand::Word(w) => out.write_str(w)?,
            }
        }
        out.write_char(';')
    }
}

/// Gives raw operands their types: moves for `bm`, `am` and `pv`, numbers, strings, words.
fn typed_operands<P: EpdPosition>(
    position: &P,
    opcode: &str,
    raw: Vec<RawOperand<'_>>,
) -> Result<Vec<Operand>, EpdError> {
    let moves = matches!(opcode, "bm" | "am" | "pv");
    let mut pos = *position;
    let mut operands = Vec::new();
    operands.try_reserve_exact(raw.len())?;
    for (index, operand) in raw.into_iter().enumerate() {
        let typed = match operand {
            quoted @ RawOperand::Quoted(_) if moves => return Err(operand_error(opcode, &[quoted])),
            RawOperand::Quoted(s) => Operand::String(s),
            RawOperand::Bare(token) if moves => {
                let mv = match pos.read_san(token) {
                    Ok(mv) => mv,
                    Err(error) => {
                        return Err(EpdError::Move { opcode: owned(opcode)?, index, operand: owned(token)?, error })
                    }
                };
                if opcode == "pv" {
                    pos.play_legal(mv);
                }
                Operand::Move(mv)
            }
            RawOperand::Bare(token) => bare_operand(token)?,
        };
        operands.push(typed);
    }
    Ok(operands)
}

impl<P: EpdPosition> fmt::Display for Epd<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

impl std::str::FromStr for Epd {
    type Err = EpdError;

    fn from_str(s: &str) -> Result<Epd, EpdError> {
        Epd::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_and_round_trip() {
        let line = r#"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - bm O-O-O Kd8; c0 "say \"hi\" \\ ok" "2nd"; ce -35; sv 0.5; x y z; noop;"#;
        let epd = Epd::parse(line).unwrap();
        assert_eq!(epd.best_moves().len(), 2);
        assert_eq!(epd.string("c0"), Some(r#"say "hi" \ ok"#));
        assert_eq!(epd.get("c0").unwrap().operands.len(), 2);
        assert_eq!(epd.get("ce").unwrap().operands, [Operand::Integer(-35)]);
        assert_eq!(epd.get("sv").unwrap().operands, [Operand::Float(0.5)]);
        assert_eq!(epd.get("x").unwrap().operands, [Operand::Word("y".into()), Operand::Word("z".into())]);
        assert!(epd.get("noop").unwrap().operands.is_empty());
        assert_eq!(epd.to_string(), line);
    }

    #[test]
    fn clocks_and_errors() {
        let epd = Epd::parse("8/8/8/4k3/8/8/8/4K2R w K - hmvc 7; fmvn 30;").unwrap();
        assert_eq!(epd.position().to_fen(), "8/8/8/4k3/8/8/8/4K2R w K - 7 30");
        assert_eq!(Epd::parse("8/8/8/4k3/8/8/8/4K2R w"), Err(EpdError::MissingFields));
        assert!(matches!(Epd::parse("8/8/8/4k3/8/8/8/4K2R w K - hmvc -1;"), Err(EpdError::Operand { .. })));
        assert!(matches!(Epd::parse("8/8/8/4k3/8/8/8/4K2R w K - 0 1 bm Rh8;"), Err(EpdError::Opcode(_))));
        // A fifth `-`, as ERET's suite writes, is passed over; a word after it is an opcode.
        let eret = Epd::parse("8/8/8/4k3/8/8/8/4K2R w K - - bm Rh8; id \"x\";").unwrap();
        assert_eq!((eret.best_moves().len(), eret.string("id")), (1, Some("x")));
        assert_eq!(Epd::parse("8/8/8/4k3/8/8/8/4K2R w K - -").unwrap().operations().len(), 0);
        assert!(matches!(Epd::parse("8/8/8/4k3/8/8/8/4K2R w K - -x bm Rh8;"), Err(EpdError::Opcode(_))));
        assert!(matches!(Epd::parse("8/8/8/4k3/8/8/8/4K2R w K - c0 \"open;"), Err(EpdError::UnterminatedString(_))));
        assert!(matches!(
            Epd::parse("8/8/8/4k3/8/8/8/4K2R w K - pv Rh8 Rh1;"),
            Err(EpdError::Move { index: 1, error: SanError::Illegal, .. })
        ));
        let mut epd = Epd::new(Position::startpos());
        assert!(epd.set("bm", vec![Operand::Move(Move::NULL)]).is_err());
        epd.set("id", vec![Operand::String("start".into())]).unwrap();
        assert_eq!(epd.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";");
        assert!(epd.remove("id").is_some());
    }

    #[test]
    fn position_errors_show_their_cause_once() {
        use std::error::Error;
        let err = Epd::parse("  8/8/8/4k3/8/8/8/8 w - - id \"no white king\";").unwrap_err();
        assert_eq!(err, EpdError::Position(FenError::MissingKing { color: crate::Color::White, offset: 2 }));
        assert_eq!(err.to_string(), "invalid position: no white king");
        assert!(err.source().is_none());
    }
}
