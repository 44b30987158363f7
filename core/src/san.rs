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
//! - a check or mate suffix, present or absent, never verified (`e4#` reads as `e4`); then
//!   one annotation `!`, `?`, `!!`, `??`, `!?` or `?!` (python-chess rejects these);
//! - castling as `O-O`, `O-O-O`, `0-0` or `0-0-0` (not `o-o`); `Kg1` is a king move, never
//!   castling;
//! - over-specified origins (`Ngf3`, `Ng1f3`), long algebraic with `-` or `x` (`Ng1-f3`,
//!   `e2-e4`, `Ng1xf3`), an `x` that is optional and may stand on a non-capture;
//! - a fully specified origin without piece letter moves whatever stands there (`e2e4`,
//!   `b2c3`, UCI-style castling `e1g1` or `e1h1`);
//! - promotions with or without `=`, letter in either case (`e8=Q`, `e8Q`, `e8q`);
//! - piece letters upper case only: `bxc3` is a pawn capture, `nf3` a syntax error; `Pe4` and
//!   `exd6e.p.` are syntax errors, and so is any leading or trailing whitespace;
//! - the null move as `--`, `Z0`, `0000` or `@@@@`, only when [`SanOptions::allow_null`] is
//!   set (otherwise, and when the side to move is in check, it is an illegal move).
//!
//! [`SanMode::Strict`] accepts only the text [`Position::san`] writes for the move, suffix
//! included; any other spelling of a legal move is [`SanError::NotCanonical`].

use std::fmt;
use std::ops::Deref;

use crate::attacks::{between, bishop_rays, empty_board_attacks, line, pawn_attacks, rook_rays};
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::color::Color;
use crate::moves::{Move, MoveKind};
use crate::piece::PieceKind;
use crate::position::{IllegalMoveError, Position};
use crate::square::{File, Rank, Square};
use crate::uci::UciError;

/// The longest SAN: `Qa1xb2#` or `exd8=Q#`.
pub const SAN_MAX_LEN: usize = 7;

/// A move written in SAN, stored inline (no heap memory); dereferences to `str`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct San {
    bytes: [u8; SAN_MAX_LEN],
    len: u8,
}

impl San {
    const EMPTY: San = San { bytes: [0; SAN_MAX_LEN], len: 0 };

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        // Never more than SAN_MAX_LEN bytes are pushed; `get_mut` keeps that panic-free.
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

    fn from_ascii(text: &[u8]) -> San {
        let mut san = San::EMPTY;
        text.iter().for_each(|&b| san.push(b));
        san
    }

    /// The SAN text.
    #[inline]
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever pushed, so this never falls back.
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }

    /// The SAN as ASCII bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
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
struct Parsed {
    piece: Option<PieceKind>,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<PieceKind>,
}

/// What the body of a SAN (suffixes removed) says.
enum Body {
    Castle(CastlingSide),
    Normal(Parsed),
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
    // A table rather than a jump on the letter (see `san_origins`): the letters' codes modulo
    // 11 are B 0, N 1, Q 4, R 5, K 9.
    const LETTERS: [PieceKind; 11] = {
        let mut table = [PieceKind::Pawn; 11];
        table[b'B' as usize % 11] = PieceKind::Bishop;
        table[b'N' as usize % 11] = PieceKind::Knight;
        table[b'Q' as usize % 11] = PieceKind::Queen;
        table[b'R' as usize % 11] = PieceKind::Rook;
        table[b'K' as usize % 11] = PieceKind::King;
        table
    };
    let piece = |p: u8| LETTERS[p as usize % 11];
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

impl Position {
    /// The SAN of `mv`, check or mate suffix included; `--` for [`Move::NULL`].
    ///
    /// Fails when `mv` is not legal here. Writes into an inline buffer: no allocation.
    pub fn san(&self, mv: Move) -> Result<San, IllegalMoveError> {
        let mut san = self.san_without_suffix(mv)?;
        if !mv.is_null() {
            let after = self.make_move(mv);
            if after.in_check() {
                san.push(if after.has_legal_moves() { b'+' } else { b'#' });
            }
        }
        Ok(san)
    }

    /// The SAN of `mv` without the check or mate suffix (cheaper: the move is not made).
    pub fn san_without_suffix(&self, mv: Move) -> Result<San, IllegalMoveError> {
        let illegal = Err(IllegalMoveError(mv));
        let mut san = San::EMPTY;
        if mv.is_null() {
            san.push(b'-');
            san.push(b'-');
            return Ok(san);
        }
        if let Some(side) = mv.castling_side() {
            if !self.castling_is_legal(mv) {
                return illegal;
            }
            let text: &[u8] = if side == CastlingSide::KingSide { b"O-O" } else { b"O-O-O" };
            return Ok(San::from_ascii(text));
        }
        let (from, to) = (mv.from(), mv.to());
        if !self.color_occupancy(self.turn()).contains(from) {
            return illegal;
        }
        let kind = self.kind_at(from).unwrap_or(PieceKind::King);
        let origins = self.san_origins(kind, to, Bitboard::FULL);
        if !origins.contains(from) || self.san_move(kind, from, to, mv.promotion()) != Some(mv) {
            return illegal;
        }
        let capture = mv.is_en_passant() || self.occupancy().contains(to);
        if kind == PieceKind::Pawn {
            if capture {
                san.push(b'a' + from.file() as u8);
            }
        } else {
            san.push(kind.char_upper() as u8);
            let others = origins.without(from);
            if others.any() {
                let same_file = (others & Bitboard::file(from.file())).any();
                let same_rank = (others & Bitboard::rank(from.rank())).any();
                if !same_file || same_rank {
                    san.push(b'a' + from.file() as u8);
                }
                if same_file {
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
        Ok(san)
    }

    /// The SAN of `mv` as a `String` (see [`Position::san`]).
    pub fn san_string(&self, mv: Move) -> Result<String, IllegalMoveError> {
        self.san(mv).map(|san| san.as_str().to_string())
    }

    /// Reads a move in lenient SAN (see the module documentation); null moves are refused.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        self.parse_san_with(text, &SanOptions::default())
    }

    /// Reads a move in SAN with the given mode and null-move permission.
    pub fn parse_san_with(&self, text: &str, options: &SanOptions) -> Result<Move, SanError> {
        self.parse_san_bytes(text.as_bytes(), options)
    }

    /// [`Position::parse_san_with`] on bytes (the PGN reader's tokens are not checked for
    /// UTF-8 first: SAN is ASCII, anything else is a syntax error).
    pub(crate) fn parse_san_bytes(&self, bytes: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        let mv = self.parse_san_lenient(bytes, options.allow_null)?;
        if options.mode == SanMode::Strict {
            let canonical = self.san(mv).map_err(|_| SanError::Illegal)?;
            if canonical.as_bytes() != bytes {
                return Err(SanError::NotCanonical { mv, canonical });
            }
        }
        Ok(mv)
    }

    #[inline]
    fn parse_san_lenient(&self, bytes: &[u8], allow_null: bool) -> Result<Move, SanError> {
        if let Some(parsed) = common_shape(bytes) {
            return self.resolve(&parsed);
        }
        // Null moves start with one of these; most tokens are spared the comparisons.
        if matches!(bytes.first(), Some(b'-' | b'Z' | b'0' | b'@')) && NULL_SPELLINGS.contains(&bytes) {
            return if allow_null && !self.in_check() { Ok(Move::NULL) } else { Err(SanError::Illegal) };
        }
        let body = strip_annotation(bytes);
        let body = match body {
            [rest @ .., b'+' | b'#'] => rest,
            _ => body,
        };
        match parse_body(body)? {
            Body::Castle(side) => {
                let us = self.turn();
                let rook = self.castling().rook_square(us, side).ok_or(SanError::Illegal)?;
                let mv = Move::new(self.king_square(us), rook, MoveKind::Castling);
                if self.castling_is_legal(mv) {
                    Ok(mv)
                } else {
                    Err(SanError::Illegal)
                }
            }
            Body::Normal(parsed) => self.resolve(&parsed),
        }
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

    /// `e2e4`-style input without piece letter: whatever stands on the origin moves, as in UCI
    /// (castling as `e1g1` or `e1h1`), and the promotion must match exactly.
    fn resolve_fully_specified(&self, from: Square, p: &Parsed) -> Result<Move, SanError> {
        let chess960 = self.is_chess960();
        self.legal_moves_from(from)
            .iter()
            .copied()
            .find(|mv| {
                mv.promotion() == p.promotion
                    && (mv.to() == p.to || (!chess960 && mv.is_castling() && mv.king_destination() == p.to))
            })
            .ok_or(SanError::Illegal)
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
        // Only a piece on a line through its king can be pinned.
        let exposed = origins & (bishop_rays(king) | rook_rays(king));
        let pinned = if exposed.any() { self.pinned_of(us) & exposed } else { Bitboard::EMPTY };
        let checkers = self.checkers();
        if let Some(checker) = checkers.first() {
            if checkers.more_than_one() || !between(king, checker).with(checker).contains(to) {
                return Bitboard::EMPTY;
            }
            // A pinned piece can never answer a check.
            return origins & !pinned;
        }
        for from in pinned {
            if !line(king, from).contains(to) {
                origins.remove(from);
            }
        }
        origins
    }

    /// Pawns among `pawns` that can push to the empty square `to` (one or two steps).
    #[inline]
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

    /// Reads one token of a move line: UCI when it looks like UCI (`e2e4`, `e7e8q`), SAN
    /// otherwise.
    pub fn parse_move_token(&self, token: &str, options: &SanOptions) -> Result<Move, SanError> {
        if is_uci_shaped(token.as_bytes()) {
            Ok(self.parse_uci(token)?)
        } else {
            self.parse_san_with(token, options)
        }
    }

    /// Reads a line of moves separated by whitespace, each in SAN or UCI (decided per token),
    /// playing them in turn from this position. Returns the moves, or the index of the first
    /// bad token and its error. Move numbers (`1.`) are not part of this notation.
    pub fn parse_moves_line(&self, line: &str, options: &SanOptions) -> Result<Vec<Move>, LineError> {
        self.moves_line(line, options).collect()
    }

    /// The moves of a line one at a time, without allocating (see
    /// [`Position::parse_moves_line`]). The iterator stops after the first error.
    pub fn moves_line<'a>(&self, line: &'a str, options: &SanOptions) -> MovesLine<'a> {
        MovesLine { position: *self, tokens: line.split_ascii_whitespace(), index: 0, options: *options, failed: false }
    }
}

/// Iterator over the moves of a line of SAN or UCI tokens; see [`Position::moves_line`].
#[derive(Debug, Clone)]
pub struct MovesLine<'a> {
    position: Position,
    tokens: std::str::SplitAsciiWhitespace<'a>,
    index: usize,
    options: SanOptions,
    failed: bool,
}

impl MovesLine<'_> {
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
        let result = self.position.parse_move_token(token, &self.options).and_then(|mv| {
            if mv.is_null() {
                // UCI's `0000` arrives here without the null-move test SAN applies.
                if self.options.allow_null && self.position.play_null() {
                    return Ok(mv);
                }
                return Err(SanError::Illegal);
            }
            self.position.play_unchecked(mv);
            Ok(mv)
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

    fn san(fen: &str, uci: &str) -> String {
        let p = pos(fen);
        p.san(p.parse_uci(uci).unwrap()).unwrap().to_string()
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
        assert_eq!(Position::startpos().san(Move::NULL).unwrap(), "--");
        assert!(Position::startpos().san(Move::new(Square::E2, Square::E5, MoveKind::Normal)).is_err());
    }

    #[test]
    fn reads_lenient_and_strict() {
        let p = Position::startpos();
        let nf3 = p.parse_uci("g1f3").unwrap();
        for text in ["Nf3", "Nf3!?", "Ngf3", "Ng1f3", "Ng1-f3", "Ng1xf3", "Nxf3", "g1f3", "Nf3#"] {
            assert_eq!(p.parse_san(text), Ok(nf3), "{text}");
        }
        assert_eq!(p.parse_san_with("Nf3", &SanOptions::STRICT), Ok(nf3));
        let err = p.parse_san_with("Ngf3", &SanOptions::STRICT).unwrap_err();
        assert!(matches!(err, SanError::NotCanonical { mv, canonical } if mv == nf3 && canonical == "Nf3"));
        for bad in ["nf3", "Pe4", " e4", "e4 ", "", "e4+#", "e4!!!", "o-o"] {
            assert_eq!(p.parse_san(bad), Err(SanError::Syntax), "{bad:?}");
        }
        assert_eq!(p.parse_san("--"), Err(SanError::Illegal));
        let nulls = SanOptions { allow_null: true, ..SanOptions::default() };
        assert_eq!(p.parse_san_with("Z0", &nulls), Ok(Move::NULL));
        assert_eq!(p.parse_san("Kg1"), Err(SanError::Illegal));
    }

    #[test]
    fn line_reports_first_bad_token() {
        let p = Position::startpos();
        let moves = p.parse_moves_line("e4 e7e5  Nf3\tNc6", &SanOptions::default()).unwrap();
        assert_eq!(moves.len(), 4);
        let err = p.parse_moves_line("e4 e5 Ke3", &SanOptions::default()).unwrap_err();
        assert_eq!(err, LineError { index: 2, error: SanError::Illegal });
        let err = p.parse_moves_line("e4 0000", &SanOptions::default()).unwrap_err();
        assert_eq!(err.index, 1);
        let nulls = SanOptions { allow_null: true, ..SanOptions::default() };
        let mut line = p.moves_line("e4 0000 d4", &nulls);
        assert!(line.by_ref().all(|r| r.is_ok()));
        assert_eq!(line.position().to_fen(), "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2");
    }
}
