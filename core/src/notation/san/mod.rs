//! Standard Algebraic Notation: writing it exactly as python-chess does, and reading it either
//! leniently (what real PGN files contain) or strictly (canonical SAN only).
//!
//! Neither direction allocates, and neither generates all legal moves: the pieces that can
//! reach the destination square are found with attack tables and then checked for pins and
//! checks, which is also how the writer finds the other pieces it must disambiguate from.
//!
//! # Writing
//! Piece letter (none for pawns), the least disambiguation among *legal* moves of the same
//! piece kind to the same square (the origin file if that is unique, else the rank if that is
//! unique, else both), `x` for captures (en passant included), the destination, `=Q` for
//! promotions, `O-O`/`O-O-O` for castling, then `+` for check or `#` for mate. The null move
//! is `--`.
//!
//! # Reading
//! [`SanMode::Lenient`] accepts what python-chess's `Board.parse_san` accepts, plus annotation
//! suffixes:
//! - a check or mate suffix, present or absent, never verified (`e4#` reads as `e4`), also
//!   doubled (`++`, as older books write check or mate); an en passant mark `e.p.` or `ep`
//!   before or after it (`exd6e.p.`); then one annotation `!`, `?`, `!!`, `??`, `!?` or `?!`
//!   (python-chess rejects the annotations, the doubled sign and the mark; its PGN reader takes
//!   the same moves);
//! - castling as `O-O`, `O-O-O`, `0-0` or `0-0-0` (not `o-o`); `Kg1` is a king move, never
//!   castling;
//! - over-specified origins (`Ngf3`, `Ng1f3`), long algebraic with `-` or `x` (`Ng1-f3`,
//!   `e2-e4`, `Ng1xf3`), an `x` that is optional and may stand on a non-capture;
//! - a fully specified origin without piece letter moves whatever stands there (`e2e4`,
//!   `b2c3`, UCI-style castling `e1g1` or `e1h1`);
//! - promotions with or without `=`, letter in either case (`e8=Q`, `e8Q`, `e8q`);
//! - piece letters upper case only: `bxc3` is a pawn capture, `nf3` a syntax error; `Pe4` is a
//!   syntax error, and so is any leading or trailing whitespace;
//! - the null move as `--`, `Z0`, `0000` or `@@@@`, only when [`SanOptions::allow_null`] is
//!   set (otherwise, and when the side to move is in check, it is an illegal move).
//!
//! [`SanMode::Strict`] accepts only the text [`San::from_move`] writes for the move, suffix
//! included; any other spelling of a legal move is [`SanError::NotCanonical`].
//!
//! Reading has two steps: `FromStr` checks the syntax into a [`San`], then [`San::to_move`]
//! finds the move in a position. [`MovesLine`] reads a line of SAN or UCI moves.
//!
//! The [`San`] type and its writer are here; the syntax in `parse`, finding the move in a
//! position in `resolve`, lines of moves in `line`.

mod line;
mod listed;
mod parse;
mod resolve;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::str::FromStr;

use crate::board::bitboard::Bitboard;
use crate::board::castling::CastlingSide;
use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::square::Square;
use crate::notation::uci::UciError;
use crate::position::{IllegalMoveError, Position};

/// The longest SAN written: `Qa1xb2#` or `exd8=Q#`.
pub const SAN_MAX_LEN: usize = 7;

/// The longest text of valid SAN syntax that lenient reading accepts, `Qa1-b2=Q++!?` (a piece,
/// origin, separator, destination, promotion, doubled suffix and annotation): longer text is a
/// syntax error before it is looked at.
const INPUT_MAX_LEN: usize = 12;

/// A move in SAN, as [`San::from_move`] writes it or as text read with `FromStr` spells it
/// (any lenient spelling: see the module documentation). Stored inline, with the parts the
/// text names, so no heap memory is involved and [`San::to_move`] needs no second parse;
/// dereferences to `str`.
///
/// # Examples
///
/// ```
/// use chesscore_core::{Position, San, SanError, SanOptions};
///
/// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
/// let castle = "O-O".parse::<San>()?.to_move(&pos)?;
/// assert_eq!(San::from_move(&pos, castle)?, "O-O");
///
/// // Lenient reading takes real-world spellings; strict reading only the canonical one.
/// let rook = "Ra1-d1!?".parse::<San>()?;
/// assert_eq!(San::from_move(&pos, rook.to_move(&pos)?)?, "Rd1");
/// assert!(matches!(rook.to_move_with(&pos, &SanOptions::STRICT), Err(SanError::NotCanonical { .. })));
///
/// assert_eq!("Nz3".parse::<San>(), Err(SanError::Syntax));
/// assert_eq!("Nf3".parse::<San>()?.to_move(&pos), Err(SanError::Illegal));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct San {
    bytes: [u8; INPUT_MAX_LEN],
    len: u8,
    /// What the text says, a function of the text.
    body: Body,
}

impl San {
    #[inline(always)]
    fn new(body: Body) -> San {
        San { bytes: [0; INPUT_MAX_LEN], len: 0, body }
    }

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        // Never more than INPUT_MAX_LEN bytes are pushed; `get_mut` keeps that panic-free.
        if let Some(slot) = self.bytes.get_mut(self.len as usize) {
            *slot = byte;
            self.len += 1;
        }
    }

    #[inline(always)]
    fn push_square(&mut self, sq: Square) {
        self.push(b'a' + sq.file() as u8);
        self.push(b'1' + sq.rank() as u8);
    }

    fn push_str(&mut self, text: &[u8]) {
        text.iter().for_each(|&b| self.push(b));
    }

    /// The SAN of `mv` in `pos`, check or mate suffix included; `--` for [`Move::NULL`].
    ///
    /// Fails when `mv` is not legal in `pos`. Writes into an inline buffer: no allocation.
    pub fn from_move(pos: &Position, mv: Move) -> Result<San, IllegalMoveError> {
        San::write(pos, mv, true)
    }

    /// The SAN of `mv` in `pos` without the check or mate suffix (cheaper: the move is not
    /// made).
    pub fn from_move_without_suffix(pos: &Position, mv: Move) -> Result<San, IllegalMoveError> {
        San::write(pos, mv, false)
    }

    /// Both writers in one body, so that the SAN is built in place and returned once.
    #[inline(always)]
    fn write(pos: &Position, mv: Move, suffix: bool) -> Result<San, IllegalMoveError> {
        let illegal = Err(IllegalMoveError(mv));
        // One value filled in place: copying a `San` between locals costs more than filling it.
        let mut san = San::new(Body::Null);
        if mv.is_null() {
            san.push_str(b"--");
            return Ok(san);
        }
        if mv.is_variant_move() {
            return illegal;
        }
        if let Some(side) = mv.castling_side() {
            if !pos.castling_is_legal(mv) {
                return illegal;
            }
            san.body = Body::Castle(side);
            san.push_str(if side == CastlingSide::KingSide { b"O-O" } else { b"O-O-O" });
        } else {
            let (from, to) = (mv.from(), mv.to());
            if !pos.color_occupancy(pos.turn()).contains(from) {
                return illegal;
            }
            let kind = pos.kind_at(from).unwrap_or(PieceKind::King);
            let origins = pos.san_origins(kind, to, Bitboard::FULL);
            if !origins.contains(from) || pos.san_move(kind, from, to, mv.promotion()) != Some(mv) {
                return illegal;
            }
            let capture = mv.is_en_passant() || pos.occupancy().contains(to);
            san.write_move(mv, kind, capture, origins.without(from));
        }
        if suffix {
            let after = pos.make_move(mv);
            if after.in_check() {
                san.push(if after.has_legal_moves() { b'+' } else { b'#' });
            }
        }
        Ok(san)
    }

    /// Writes the body of a piece's or pawn's move (no castling, no drop): `kind` moving `mv`,
    /// taking when `capture`, told apart from `others`, the origins of the other pieces of its
    /// kind that can go there (pawns name their file when they take, and nothing else).
    #[inline(always)]
    fn write_move(&mut self, mv: Move, kind: PieceKind, capture: bool, others: Bitboard) {
        let (from, to) = (mv.from(), mv.to());
        let mut parts = Parsed { piece: None, file: None, rank: None, to, promotion: mv.promotion() };
        if kind == PieceKind::Pawn {
            if capture {
                parts.file = Some(from.file());
                self.push(b'a' + from.file() as u8);
            }
        } else {
            parts.piece = Some(kind);
            self.push(kind.char_upper() as u8);
            if others.any() {
                let same_file = (others & Bitboard::file(from.file())).any();
                let same_rank = (others & Bitboard::rank(from.rank())).any();
                if !same_file || same_rank {
                    parts.file = Some(from.file());
                    self.push(b'a' + from.file() as u8);
                }
                if same_file {
                    parts.rank = Some(from.rank());
                    self.push(b'1' + from.rank() as u8);
                }
            }
        }
        if capture {
            self.push(b'x');
        }
        self.push_square(to);
        if let Some(promoted) = mv.promotion() {
            self.push(b'=');
            self.push(promoted.char_upper() as u8);
        }
        self.body = Body::Normal(parts);
    }

    /// The legal move of `pos` this names, read leniently; null moves are refused.
    #[inline]
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        self.to_move_with(pos, &SanOptions::default())
    }

    /// The legal move of `pos` this names, with the given mode and null-move permission.
    #[inline]
    pub fn to_move_with(&self, pos: &Position, options: &SanOptions) -> Result<Move, SanError> {
        // Inlined with what it calls, reading the text of a `San` and finding its move compile
        // to one piece of code, as if the text were read straight into a move.
        pos.resolve_body(self.body, self.as_bytes(), options)
    }

    /// The SAN text.
    #[inline]
    pub fn as_str(&self) -> &str {
        // Checking UTF-8 at every access took 7% of the time of writing a move's SAN and reading
        // it back.
        debug_assert!(self.as_bytes().is_ascii());
        // SAFETY: only ASCII is ever stored: the writer pushes letters, digits and `x=+#-`, and
        // `FromStr` keeps text that SAN syntax accepted, which is ASCII alone.
        unsafe { std::str::from_utf8_unchecked(self.as_bytes()) }
    }

    /// The SAN as ASCII bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

impl FromStr for San {
    type Err = SanError;

    /// Checks the syntax of lenient SAN (see the module documentation); only
    /// [`SanError::Syntax`] can come of it.
    #[inline]
    fn from_str(text: &str) -> Result<San, SanError> {
        let bytes = text.as_bytes();
        if bytes.len() > INPUT_MAX_LEN {
            return Err(SanError::Syntax);
        }
        let mut san = San::new(parse_syntax(bytes)?);
        copy_short(&mut san.bytes, bytes);
        san.len = bytes.len() as u8;
        Ok(san)
    }
}

/// Copies `text`, at most [`INPUT_MAX_LEN`] bytes, to the start of `out` with two overlapping
/// copies of a fixed size, a few moves instead of a call to `memcpy`.
#[inline(always)]
fn copy_short(out: &mut [u8; INPUT_MAX_LEN], text: &[u8]) {
    let n = text.len();
    match n {
        8.. => {
            out[..8].copy_from_slice(&text[..8]);
            out[n - 8..n].copy_from_slice(&text[n - 8..]);
        }
        4..=7 => {
            out[..4].copy_from_slice(&text[..4]);
            out[n - 4..n].copy_from_slice(&text[n - 4..]);
        }
        2..=3 => {
            out[..2].copy_from_slice(&text[..2]);
            out[n - 2..n].copy_from_slice(&text[n - 2..]);
        }
        1 => out[0] = text[0],
        _ => {}
    }
}

/// Equal texts: the parts are read from the text.
impl PartialEq for San {
    fn eq(&self, other: &San) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for San {}

impl Hash for San {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl Deref for San {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for San {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for San {
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for San {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "San({:?})", self.as_str())
    }
}

/// Why a SAN (or UCI) move was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SanError {
    /// The text is not a move in the accepted notation.
    #[error("invalid move syntax")]
    Syntax,
    /// Well formed, but no legal move matches (or a null move where none is allowed).
    #[error("illegal move")]
    Illegal,
    /// More than one legal move matches.
    #[error("ambiguous move")]
    Ambiguous,
    /// Strict mode: the text names a legal move, but is not its canonical SAN.
    #[error("not canonical SAN (expected {canonical})")]
    NotCanonical {
        /// The move the text names.
        mv: Move,
        /// The canonical SAN of that move.
        canonical: San,
    },
}

impl From<UciError> for SanError {
    fn from(e: UciError) -> SanError {
        match e {
            UciError::Syntax => SanError::Syntax,
            UciError::Illegal => SanError::Illegal,
        }
    }
}

/// How much variation SAN reading accepts (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SanMode {
    /// Real-world input: optional or wrong check suffixes, annotations, `0-0`, long algebraic.
    #[default]
    Lenient,
    /// Exactly the canonical SAN, suffix included.
    Strict,
}

/// Options for reading moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SanOptions {
    /// Lenient (default) or strict.
    pub mode: SanMode,
    /// Accept the null move (`--`; leniently also `Z0`, `0000`, `@@@@`) as [`Move::NULL`].
    pub allow_null: bool,
}

impl SanOptions {
    /// Strict reading, no null moves.
    pub const STRICT: SanOptions = SanOptions { mode: SanMode::Strict, allow_null: false };
}

pub use line::{LineError, MovesLine};
pub(crate) use listed::{read_listed, SanBoard};
use parse::{parse_syntax, Body, Parsed};
pub(crate) use resolve::read_san;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves::MoveKind;
    use crate::notation::uci::Uci;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn uci(p: &Position, uci: &str) -> Move {
        uci.parse::<Uci>().unwrap().to_move(p).unwrap()
    }

    fn read(p: &Position, text: &str) -> Result<Move, SanError> {
        text.parse::<San>()?.to_move(p)
    }

    fn read_with(p: &Position, text: &str, options: &SanOptions) -> Result<Move, SanError> {
        text.parse::<San>()?.to_move_with(p, options)
    }

    fn san(fen: &str, text: &str) -> String {
        let p = pos(fen);
        San::from_move(&p, uci(&p, text)).unwrap().to_string()
    }

    #[test]
    fn writes_disambiguation() {
        // Knights on a2, e2, e4 and c3 reached by all: file, rank or both as needed.
        let fen = "4k3/8/8/8/4N3/8/N3N3/4K3 w - - 0 1";
        assert_eq!(san(fen, "a2c3"), "Nac3");
        assert_eq!(san(fen, "e2c3"), "Ne2c3");
        assert_eq!(san(fen, "e4c3"), "N4c3");
        // A pinned rook does not make the other one ambiguous.
        assert_eq!(san("4k3/8/8/8/1b6/8/3R4/R3K3 w - - 0 1", "a1d1"), "Rd1");
        assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"), "O-O-O");
        assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"), "exd6");
        assert_eq!(san("3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), "b8=Q+");
        assert_eq!(san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8#");
        assert_eq!(San::from_move(&Position::startpos(), Move::NULL).unwrap(), "--");
        assert!(San::from_move(&Position::startpos(), Move::new(Square::E2, Square::E5, MoveKind::Normal)).is_err());
    }

    #[test]
    fn reads_lenient_and_strict() {
        let p = Position::startpos();
        let nf3 = uci(&p, "g1f3");
        for text in ["Nf3", "Nf3!?", "Ngf3", "Ng1f3", "Ng1-f3", "Ng1xf3", "Nxf3", "g1f3", "Nf3#"] {
            assert_eq!(read(&p, text), Ok(nf3), "{text}");
            assert_eq!(read_san(&p, text.as_bytes(), &SanOptions::default()), Ok(nf3), "{text}");
        }
        assert_eq!(read_with(&p, "Nf3", &SanOptions::STRICT), Ok(nf3));
        let err = read_with(&p, "Ngf3", &SanOptions::STRICT).unwrap_err();
        assert!(matches!(err, SanError::NotCanonical { mv, canonical } if mv == nf3 && canonical == "Nf3"));
        for bad in ["nf3", "Pe4", " e4", "e4 ", "", "e4+#", "e4!!!", "o-o", "Qa1-b2=Q+!?!"] {
            assert_eq!(bad.parse::<San>(), Err(SanError::Syntax), "{bad:?}");
        }
        assert_eq!(read(&p, "--"), Err(SanError::Illegal));
        let nulls = SanOptions { allow_null: true, ..SanOptions::default() };
        assert_eq!(read_with(&p, "Z0", &nulls), Ok(Move::NULL));
        assert_eq!(read(&p, "Kg1"), Err(SanError::Illegal));
    }

    #[test]
    fn line_reports_first_bad_token() {
        let p = Position::startpos();
        let read_line =
            |line: &str, options: &SanOptions| MovesLine::new(&p, line, options).collect::<Result<Vec<_>, _>>();
        let moves = read_line("e4 e7e5  Nf3\tNc6", &SanOptions::default()).unwrap();
        assert_eq!(moves.len(), 4);
        let err = read_line("e4 e5 Ke3", &SanOptions::default()).unwrap_err();
        assert_eq!(err, LineError { index: 2, error: SanError::Illegal });
        let err = read_line("e4 0000", &SanOptions::default()).unwrap_err();
        assert_eq!(err.index, 1);
        let nulls = SanOptions { allow_null: true, ..SanOptions::default() };
        let mut line = MovesLine::new(&p, "e4 0000 d4", &nulls);
        assert!(line.by_ref().all(|r| r.is_ok()));
        assert_eq!(line.position().to_fen(), "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2");
    }

    #[test]
    fn the_longest_input_fits() {
        let p = pos("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
        let longest = "Qa1-b2=Q++!?";
        assert_eq!(longest.len(), INPUT_MAX_LEN);
        assert_eq!(longest.parse::<San>().map(|san| san.len()), Ok(INPUT_MAX_LEN));
        assert_eq!(read(&p, longest), Err(SanError::Illegal));
        assert_eq!(read(&p, "Qa1-b2+!?"), Ok(Move::new(Square::A1, Square::B2, MoveKind::Normal)));
        assert_eq!(read(&p, "Qa1-b2++!?"), Ok(Move::new(Square::A1, Square::B2, MoveKind::Normal)));
        let ep = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let capture = Move::new(Square::E5, Square::D6, MoveKind::EnPassant);
        for text in ["exd6e.p.", "exd6ep", "exd6e.p.+", "exd6+e.p.", "exd6ep!", "e5d6e.p."] {
            assert_eq!(read(&ep, text), Ok(capture), "{text}");
        }
        assert_eq!(read(&ep, "exd6e.p"), Err(SanError::Syntax));
        assert_eq!(read(&ep, "exd6+++"), Err(SanError::Syntax));
    }

    #[test]
    fn written_parts_are_the_parts_read() {
        // `to_move` on a written SAN uses the parts the writer stored, not the text.
        let p = pos("4k3/8/8/8/4N3/8/N3N3/4K3 w - - 0 1");
        for &mv in p.legal_moves().iter() {
            let written = San::from_move(&p, mv).unwrap();
            assert_eq!(written.to_move_with(&p, &SanOptions::STRICT), Ok(mv), "{written}");
            assert_eq!(written.as_str().parse::<San>(), Ok(written));
        }
    }
}
