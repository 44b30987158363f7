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

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::str::FromStr;

use crate::board::attacks::{between, bishop_rays, empty_board_attacks, knight_attacks, line, pawn_attacks, rook_rays};
use crate::board::bitboard::Bitboard;
use crate::board::castling::CastlingSide;
use crate::board::color::Color;
use crate::board::moves::{Move, MoveKind};
use crate::board::piece::PieceKind;
use crate::board::square::{File, Rank, Square};
use crate::notation::uci::{Uci, UciError};
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
            let mut parts = Parsed { piece: None, file: None, rank: None, to, promotion: mv.promotion() };
            if kind == PieceKind::Pawn {
                if capture {
                    parts.file = Some(from.file());
                    san.push(b'a' + from.file() as u8);
                }
            } else {
                parts.piece = Some(kind);
                san.push(kind.char_upper() as u8);
                let others = origins.without(from);
                if others.any() {
                    let same_file = (others & Bitboard::file(from.file())).any();
                    let same_rank = (others & Bitboard::rank(from.rank())).any();
                    if !same_file || same_rank {
                        parts.file = Some(from.file());
                        san.push(b'a' + from.file() as u8);
                    }
                    if same_file {
                        parts.rank = Some(from.rank());
                        san.push(b'1' + from.rank() as u8);
                    }
                }
            }
            if capture {
                san.push(b'x');
            }
            san.push_square(to);
            if let Some(promoted) = mv.promotion() {
                san.push(b'=');
                san.push(promoted.char_upper() as u8);
            }
            san.body = Body::Normal(parts);
        }
        if suffix {
            let after = pos.make_move(mv);
            if after.in_check() {
                san.push(if after.has_legal_moves() { b'+' } else { b'#' });
            }
        }
        Ok(san)
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

/// A move token of a line that was not accepted: its index (0-based, among the tokens) and
/// why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("move {} of the line: {error}", index + 1)]
pub struct LineError {
    /// Index of the bad token.
    pub index: usize,
    /// What was wrong with it.
    pub error: SanError,
}

/// The parts of a normal (not castling, not null) SAN move.
#[derive(Clone, Copy)]
struct Parsed {
    piece: Option<PieceKind>,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<PieceKind>,
}

/// What the body of a SAN (suffixes removed) says.
#[derive(Clone, Copy)]
enum Body {
    Castle(CastlingSide),
    Normal(Parsed),
    Null,
}

const NULL_SPELLINGS: [&[u8]; 4] = [b"--", b"Z0", b"0000", b"@@@@"];

/// Removes one annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`) from the end.
fn strip_annotation(text: &[u8]) -> &[u8] {
    match text {
        [rest @ .., b'!' | b'?', b'!' | b'?'] => rest,
        [rest @ .., b'!' | b'?'] => rest,
        _ => text,
    }
}

/// The syntax of a whole SAN token, suffix and annotation included.
#[inline(always)]
fn parse_syntax(bytes: &[u8]) -> Result<Body, SanError> {
    match common_shape(bytes) {
        Some(parsed) => Ok(Body::Normal(parsed)),
        None => parse_uncommon(bytes),
    }
}

/// [`parse_syntax`] for what [`common_shape`] does not read.
#[inline]
fn parse_uncommon(bytes: &[u8]) -> Result<Body, SanError> {
    // Null moves start with one of these; most tokens are spared the comparisons.
    if matches!(bytes.first(), Some(b'-' | b'Z' | b'0' | b'@')) && NULL_SPELLINGS.contains(&bytes) {
        return Ok(Body::Null);
    }
    let body = strip_check(strip_annotation(bytes));
    let body = match body {
        [rest @ .., b'e', b'.', b'p', b'.'] | [rest @ .., b'e', b'p'] => strip_check(rest),
        _ => body,
    };
    parse_body(body)
}

/// Removes a check or mate sign (`+`, `#`, or doubled: `++`) from the end.
fn strip_check(text: &[u8]) -> &[u8] {
    match text {
        [rest @ .., b'+', b'+'] => rest,
        [rest @ .., b'+' | b'#'] => rest,
        _ => text,
    }
}

fn parse_body(body: &[u8]) -> Result<Body, SanError> {
    if let [b'O' | b'0', ..] = body {
        match body {
            b"O-O" | b"0-0" => return Ok(Body::Castle(CastlingSide::KingSide)),
            b"O-O-O" | b"0-0-0" => return Ok(Body::Castle(CastlingSide::QueenSide)),
            _ => {}
        }
    }
    // Read from the end: [promotion], destination, [separator], then a prefix of at most a
    // piece letter, a file and a rank, in that order.
    let mut rest = body;
    let mut promotion = None;
    if let [head @ .., last] = rest {
        if let Some(kind) = promotion_letter(*last) {
            promotion = Some(kind);
            rest = head.strip_suffix(b"=").unwrap_or(head);
        }
    }
    let [head @ .., f, r] = rest else { return Err(SanError::Syntax) };
    let to = Square::from_ascii(&[*f, *r]).map_err(|_| SanError::Syntax)?;
    let mut prefix = match head {
        [h @ .., b'-' | b'x'] => h,
        h => h,
    };
    let mut piece = None;
    if let [first, tail @ ..] = prefix {
        piece = match first {
            b'N' => Some(PieceKind::Knight),
            b'B' => Some(PieceKind::Bishop),
            b'R' => Some(PieceKind::Rook),
            b'Q' => Some(PieceKind::Queen),
            b'K' => Some(PieceKind::King),
            _ => None,
        };
        if piece.is_some() {
            prefix = tail;
        }
    }
    let mut file = None;
    if let [first @ b'a'..=b'h', tail @ ..] = prefix {
        file = Some(File::new(first - b'a'));
        prefix = tail;
    }
    let mut rank = None;
    if let [first @ b'1'..=b'8', tail @ ..] = prefix {
        rank = Some(Rank::new(first - b'1'));
        prefix = tail;
    }
    if !prefix.is_empty() {
        return Err(SanError::Syntax);
    }
    Ok(Body::Normal(Parsed { piece, file, rank, to, promotion }))
}

/// The parts of the commonest moves, read in one match (`e4`, `Nf3`, `Nxf3`, `exd5`, each
/// with an optional `+` or `#`); `None` sends anything else to [`parse_body`], which reads
/// these the same way.
#[inline(always)]
fn common_shape(bytes: &[u8]) -> Option<Parsed> {
    let body = match bytes {
        [rest @ .., b'+' | b'#'] => rest,
        _ => bytes,
    };
    let square = |f: u8, r: u8| Square::new(File::new(f - b'a'), Rank::new(r - b'1'));
    // A table rather than a jump on the letter (see `san_origins`), indexed by the low five
    // bits of the letter's code, which tell the letters apart: B 2, K 11, N 14, Q 17, R 18.
    const LETTERS: [PieceKind; 32] = {
        let mut table = [PieceKind::Pawn; 32];
        table[b'B' as usize & 31] = PieceKind::Bishop;
        table[b'N' as usize & 31] = PieceKind::Knight;
        table[b'Q' as usize & 31] = PieceKind::Queen;
        table[b'R' as usize & 31] = PieceKind::Rook;
        table[b'K' as usize & 31] = PieceKind::King;
        table
    };
    let piece = |p: u8| LETTERS[p as usize & 31];
    let (piece, file, to) = match *body {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (None, None, square(f, r)),
        [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), f @ b'a'..=b'h', r @ b'1'..=b'8']
        | [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (Some(piece(p)), None, square(f, r))
        }
        [from @ b'a'..=b'h', b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (None, Some(File::new(from - b'a')), square(f, r))
        }
        _ => return None,
    };
    Some(Parsed { piece, file, rank: None, to, promotion: None })
}

fn promotion_letter(b: u8) -> Option<PieceKind> {
    match b.to_ascii_lowercase() {
        b'n' => Some(PieceKind::Knight),
        b'b' => Some(PieceKind::Bishop),
        b'r' => Some(PieceKind::Rook),
        b'q' => Some(PieceKind::Queen),
        b'k' => Some(PieceKind::King),
        _ => None,
    }
}

/// `[a-h][1-8][a-h][1-8][nbrq]?`: read as UCI by the line reader.
fn is_uci_shaped(token: &[u8]) -> bool {
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match token {
        [a, b, c, d] => square(*a, *b) && square(*c, *d),
        [a, b, c, d, p] => square(*a, *b) && square(*c, *d) && matches!(p, b'n' | b'b' | b'r' | b'q'),
        _ => false,
    }
}

#[inline(always)]
fn square_bb(sq: Square) -> Bitboard {
    Bitboard::from_square(sq)
}

/// Reads SAN from bytes straight into a move, without building a [`San`]: the PGN reader's
/// tokens (not checked for UTF-8 first: SAN is ASCII, anything else is a syntax error).
pub(crate) fn read_san(pos: &Position, bytes: &[u8], options: &SanOptions) -> Result<Move, SanError> {
    // The commonest shapes go from their parts to the move with no `Body` in between: on the
    // PGN reader's path that saves a tenth of the instructions reading a move takes.
    if let Some(parsed) = common_shape(bytes) {
        return pos.checked(pos.resolve(&parsed)?, bytes, options);
    }
    pos.resolve_body(parse_uncommon(bytes)?, bytes, options)
}

impl Position {
    /// The move `body`, read from `text`, names here, as `options` allow.
    #[inline(always)]
    fn resolve_body(&self, body: Body, text: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        let mv = match body {
            Body::Normal(parsed) => self.resolve(&parsed)?,
            Body::Null if options.allow_null && !self.in_check() => Move::NULL,
            Body::Null => return Err(SanError::Illegal),
            Body::Castle(side) => {
                let us = self.turn();
                let rook = self.castling().rook_square(us, side).ok_or(SanError::Illegal)?;
                let mv = Move::new(self.king_square(us), rook, MoveKind::Castling);
                if !self.castling_is_legal(mv) {
                    return Err(SanError::Illegal);
                }
                mv
            }
        };
        self.checked(mv, text, options)
    }

    /// `mv`, read from `text`, unless strict reading finds the text is not its canonical SAN.
    #[inline(always)]
    fn checked(&self, mv: Move, text: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        if options.mode == SanMode::Strict {
            let canonical = San::from_move(self, mv).map_err(|_| SanError::Illegal)?;
            if canonical.as_bytes() != text {
                return Err(SanError::NotCanonical { mv, canonical });
            }
        }
        Ok(mv)
    }

    /// Finds the one legal move a parsed SAN names.
    #[inline(always)]
    fn resolve(&self, p: &Parsed) -> Result<Move, SanError> {
        let kind = match (p.piece, p.file, p.rank) {
            (Some(kind), _, _) => kind,
            (None, Some(file), Some(rank)) => return self.resolve_fully_specified(Square::new(file, rank), p),
            (None, _, _) => PieceKind::Pawn,
        };
        let mut from_mask = Bitboard::FULL;
        if let Some(file) = p.file {
            from_mask &= Bitboard::file(file);
        } else if kind == PieceKind::Pawn {
            // A pawn capture must name its file: `xd5` or `d5` is a push.
            from_mask &= Bitboard::file(p.to.file());
        }
        if let Some(rank) = p.rank {
            from_mask &= Bitboard::rank(rank);
        }
        let origins = self.san_origins(kind, p.to, from_mask);
        let from = origins.first().ok_or(SanError::Illegal)?;
        let mv = self.san_move(kind, from, p.to, p.promotion).ok_or(SanError::Illegal)?;
        if origins.more_than_one() {
            return Err(SanError::Ambiguous);
        }
        Ok(mv)
    }

    /// `e2e4`-style input without piece letter: whatever stands on the origin moves, read as
    /// UCI (castling as `e1g1` or `e1h1`), and the promotion must match exactly.
    fn resolve_fully_specified(&self, from: Square, p: &Parsed) -> Result<Move, SanError> {
        Ok(Uci::Normal { from, to: p.to, promotion: p.promotion }.to_move(self)?)
    }

    /// The move of a `kind` piece from `from` (known to reach `to` legally) with the given
    /// promotion, or `None` when the promotion does not fit (missing on the last rank, present
    /// elsewhere or for a piece, or to a king).
    #[inline]
    fn san_move(&self, kind: PieceKind, from: Square, to: Square, promotion: Option<PieceKind>) -> Option<Move> {
        if kind != PieceKind::Pawn {
            return promotion.is_none().then(|| Move::new(from, to, MoveKind::Normal));
        }
        let last_rank = if self.turn() == Color::White { Rank::Eighth } else { Rank::First };
        let move_kind = match promotion {
            Some(piece) if to.rank() == last_rank => MoveKind::promotion(piece)?,
            None if to.rank() == last_rank => return None,
            Some(_) => return None,
            None if Some(to) == self.en_passant() && from.file() != to.file() => MoveKind::EnPassant,
            None if from.rank().index().abs_diff(to.rank().index()) == 2 => MoveKind::DoublePush,
            None => MoveKind::Normal,
        };
        Some(Move::new(from, to, move_kind))
    }

    /// Squares in `from_mask` holding a `kind` piece of the side to move that can legally move
    /// to `to` (castling excluded). The SAN reader and writer both rest on this.
    #[inline(always)]
    fn san_origins(&self, kind: PieceKind, to: Square, from_mask: Bitboard) -> Bitboard {
        let us = self.turn();
        let them = !us;
        let ours = self.color_occupancy(us);
        if ours.contains(to) {
            return Bitboard::EMPTY;
        }
        let occupied = self.occupancy();
        let king = self.king_square(us);
        let pieces = self.pieces_of(us, kind) & from_mask;
        let mut origins = if kind != PieceKind::Pawn {
            // One path for every piece rather than a jump on the kind, which reading games (a
            // different kind at every move) mispredicts; only sliders can be blocked.
            const SLIDES: [u64; 6] = [0, 0, !0, !0, !0, 0];
            let mut origins = empty_board_attacks(kind, to) & pieces;
            for from in origins & Bitboard(SLIDES[kind.index()]) {
                if (between(from, to) & occupied).any() {
                    origins.remove(from);
                }
            }
            if kind == PieceKind::King {
                let safe = origins.any() && self.attackers_sparse(to, them, occupied.without(king)).is_empty();
                return if safe { origins } else { Bitboard::EMPTY };
            }
            origins
        } else if self.color_occupancy(them).contains(to) {
            pawn_attacks(them, to) & pieces
        } else if Some(to) == self.en_passant() {
            // The en passant test covers pins and checks itself.
            let capturers = pawn_attacks(them, to) & pieces;
            let mut legal = Bitboard::EMPTY;
            for from in capturers {
                if self.en_passant_is_legal(from, to) {
                    legal.set(from);
                }
            }
            return legal;
        } else {
            self.push_origins(to, pieces, occupied)
        };
        if origins.is_empty() {
            return origins;
        }
        let (checkers, pinned) = self.checkers_and_pins(king, them, occupied);
        if let Some(checker) = checkers.first() {
            if checkers.more_than_one() || !between(king, checker).with(checker).contains(to) {
                return Bitboard::EMPTY;
            }
            // A pinned piece can never answer a check.
            return origins & !pinned;
        }
        for from in pinned & origins {
            if !line(king, from).contains(to) {
                origins.remove(from);
            }
        }
        origins
    }

    /// The pieces checking the king on `king` (of the side to move), and the pieces standing
    /// alone between it and an enemy slider (pinned, when they are its own): one pass over the
    /// enemy sliders on the king's lines, with the small between table.
    #[inline(always)]
    fn checkers_and_pins(&self, king: Square, them: Color, occupied: Bitboard) -> (Bitboard, Bitboard) {
        let theirs = self.color_occupancy(them);
        let queens = self.pieces(PieceKind::Queen);
        let snipers = ((bishop_rays(king) & (self.pieces(PieceKind::Bishop) | queens))
            | (rook_rays(king) & (self.pieces(PieceKind::Rook) | queens)))
            & theirs;
        let mut checkers = ((knight_attacks(king) & self.pieces(PieceKind::Knight))
            | (pawn_attacks(!them, king) & self.pieces(PieceKind::Pawn)))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers.set(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        (checkers, pinned & !theirs)
    }

    /// Pawns among `pawns` that can push to the empty square `to` (one or two steps).
    #[inline(always)]
    fn push_origins(&self, to: Square, pawns: Bitboard, occupied: Bitboard) -> Bitboard {
        let (step, double_rank) = match self.turn() {
            Color::White => (-1, Rank::Fourth),
            Color::Black => (1, Rank::Fifth),
        };
        let Some(one) = to.offset(0, step) else { return Bitboard::EMPTY };
        if pawns.contains(one) {
            return square_bb(one);
        }
        if to.rank() == double_rank && !occupied.contains(one) {
            if let Some(two) = one.offset(0, step) {
                return pawns & square_bb(two);
            }
        }
        Bitboard::EMPTY
    }

    /// True when `mv` (a castling move) is legal.
    fn castling_is_legal(&self, mv: Move) -> bool {
        self.legal_moves_between(square_bb(mv.from()), square_bb(mv.to())).contains(&mv)
    }
}

/// The moves of a line of tokens separated by whitespace, each in SAN or UCI (decided per
/// token, see [`MovesLine::read_token`]), read in turn from a position without allocating.
/// Each item is a move or the index of the first bad token with its error, after which the
/// iterator stops. Move numbers (`1.`) are not part of this notation.
///
/// # Examples
///
/// ```
/// use chesscore_core::{LineError, MovesLine, Position, SanError, SanOptions};
///
/// let start = Position::startpos();
/// let mut line = MovesLine::new(&start, "e4 e7e5 Nf3", &SanOptions::default());
/// assert_eq!(line.by_ref().count(), 3);
/// assert_eq!(line.position().to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
///
/// let moves: Result<Vec<_>, _> = MovesLine::new(&start, "e4 e5 Ke3", &SanOptions::default()).collect();
/// assert_eq!(moves, Err(LineError { index: 2, error: SanError::Illegal }));
/// ```
#[derive(Debug, Clone)]
pub struct MovesLine<'a> {
    position: Position,
    tokens: std::str::SplitAsciiWhitespace<'a>,
    index: usize,
    options: SanOptions,
    failed: bool,
}

impl<'a> MovesLine<'a> {
    /// The moves of `line`, read from `start` with `options` for the SAN tokens.
    pub fn new(start: &Position, line: &'a str, options: &SanOptions) -> MovesLine<'a> {
        MovesLine {
            position: *start,
            tokens: line.split_ascii_whitespace(),
            index: 0,
            options: *options,
            failed: false,
        }
    }

    /// Reads one token as a line does: UCI when it looks like UCI (`e2e4`, `e7e8q`), SAN with
    /// `options` otherwise.
    pub fn read_token(pos: &Position, token: &str, options: &SanOptions) -> Result<Move, SanError> {
        if is_uci_shaped(token.as_bytes()) {
            Ok(token.parse::<Uci>()?.to_move(pos)?)
        } else {
            read_san(pos, token.as_bytes(), options)
        }
    }

    /// The position after the moves read so far.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

impl Iterator for MovesLine<'_> {
    type Item = Result<Move, LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let token = self.tokens.next()?;
        let index = self.index;
        self.index += 1;
        let result = MovesLine::read_token(&self.position, token, &self.options).inspect(|&mv| {
            if mv.is_null() {
                // Only SAN reads a null move (`0000` is not UCI-shaped), and only where it may
                // be played: null moves allowed, the side to move not in check.
                let played = self.position.play_null();
                debug_assert!(played);
            } else {
                self.position.play_unchecked(mv);
            }
        });
        if result.is_err() {
            self.failed = true;
        }
        Some(result.map_err(|error| LineError { index, error }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
