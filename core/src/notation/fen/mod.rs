//! Forsyth-Edwards Notation: strict reading in two steps (the syntax into a [`Fen`], a
//! [`Setup`] with the place of each field in the text, then validation into a [`Position`])
//! and canonical writing.
//!
//! Accepted input: 4, 5 or 6 fields (missing clocks default to `0` and `1`), separated by one
//! or more spaces or tabs. Leading and trailing spaces, tabs, carriage returns and line feeds
//! are ignored. Any other byte that is not printable ASCII is an error, and so is input longer
//! than [`FEN_MAX_INPUT`] bytes. A fullmove number of 0 is read as 1.

use std::borrow::Cow;
use std::fmt::{self, Write};
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use arrayvec::ArrayVec;

use crate::board::attacks::line;
use crate::board::bitboard::Bitboard;
use crate::board::castling::{back_rank, CastlingRights, CastlingSide};
use crate::board::color::Color;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{File, Rank, Square};
use crate::fallible::Length;
use crate::notation::setup::{BackRank, Setup};
use crate::position::{EnPassantMode, Position};

/// Longest input accepted by the reader, in bytes (whitespace included).
pub const FEN_MAX_INPUT: usize = 256;

/// Longest FEN the writer produces, in bytes (71 for the placement, 4 for castling, 2 for en
/// passant, 10 for each clock, 5 separators and side to move).
pub const FEN_MAX_LEN: usize = 103;

/// A FEN field, as named by errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The input as a whole (length, characters, field count).
    Input,
    /// Piece placement (first field).
    Placement,
    /// Side to move (second field).
    SideToMove,
    /// Castling availability (third field).
    Castling,
    /// En passant target square (fourth field).
    EnPassant,
    /// Halfmove clock (fifth field).
    HalfmoveClock,
    /// Fullmove number (sixth field).
    FullmoveNumber,
}

impl FenField {
    /// The field's name in words for messages, such as `"castling rights"`; `"whole input"`
    /// for [`FenField::Input`].
    pub const fn name(self) -> &'static str {
        match self {
            FenField::Input => "whole input",
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
        }
    }
}

/// Writes [`FenField::name`].
impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a FEN was rejected. Every error knows the field it concerns ([`FenError::field`]) and
/// the byte offset in the input where the problem was found ([`FenError::offset`]; for a
/// [`Setup`], in the FEN that [`Fen`] writes for it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN too long: {length} bytes, at most {FEN_MAX_INPUT} accepted")]
    TooLong { length: usize },
    #[error("invalid character at byte {offset}: only printable ASCII, spaces and tabs are allowed")]
    InvalidCharacter { offset: usize },
    #[error("expected 4 to 6 fields separated by spaces, found {found}")]
    FieldCount { found: usize, offset: usize },
    #[error("expected 8 ranks separated by '/' in the piece placement, found {found}")]
    RankCount { found: usize, offset: usize },
    #[error("rank {rank} describes {width} squares, expected 8")]
    RankWidth { rank: u8, width: usize, offset: usize },
    #[error("invalid empty-square count in rank {rank}: a single digit 1 to 8 is expected")]
    EmptySquareCount { rank: u8, offset: usize },
    #[error("invalid piece letter '{letter}' (expected one of PNBRQK pnbrqk or a digit)")]
    PieceLetter { letter: char, offset: usize },
    #[error("invalid side to move: expected 'w' or 'b'")]
    SideToMove { offset: usize },
    #[error("invalid castling field: expected '-' or at most four distinct letters of KQkq or A-H a-h")]
    Castling { offset: usize },
    #[error("invalid en passant field: expected '-' or a square such as e3")]
    EnPassant { offset: usize },
    #[error("invalid halfmove clock: expected a decimal number from 0 to 4294967295")]
    HalfmoveClock { offset: usize },
    #[error("invalid fullmove number: expected a decimal number from 0 to 4294967295")]
    FullmoveNumber { offset: usize },
    #[error("no {color} king")]
    MissingKing { color: Color, offset: usize },
    #[error("more than one {color} king")]
    TooManyKings { color: Color, offset: usize },
    #[error("{color} has more than 16 pieces")]
    TooManyPieces { color: Color, offset: usize },
    #[error("{color} has more than 8 pawns")]
    TooManyPawns { color: Color, offset: usize },
    #[error("pawn on its first or last rank ({square})")]
    PawnOnBackRank { square: Square, offset: usize },
    #[error("the side not to move is in check")]
    OppositeCheck { offset: usize },
    #[error("impossible check: no single move could have given it")]
    ImpossibleCheck { offset: usize },
    #[error("en passant square {square} without a pawn that could just have advanced two squares")]
    InvalidEnPassant { square: Square, offset: usize },
    #[error("castling right '{letter}' without its king and rook on their home squares")]
    BadCastlingRights { letter: char, offset: usize },
}

impl FenError {
    /// The field the error concerns.
    pub fn field(&self) -> FenField {
        use FenError::*;
        match self {
            Empty | TooLong { .. } | InvalidCharacter { .. } | FieldCount { .. } => FenField::Input,
            RankCount { .. }
            | RankWidth { .. }
            | EmptySquareCount { .. }
            | PieceLetter { .. }
            | MissingKing { .. }
            | TooManyKings { .. }
            | TooManyPieces { .. }
            | TooManyPawns { .. }
            | PawnOnBackRank { .. }
            | OppositeCheck { .. }
            | ImpossibleCheck { .. } => FenField::Placement,
            SideToMove { .. } => FenField::SideToMove,
            Castling { .. } | BadCastlingRights { .. } => FenField::Castling,
            EnPassant { .. } | InvalidEnPassant { .. } => FenField::EnPassant,
            HalfmoveClock { .. } => FenField::HalfmoveClock,
            FullmoveNumber { .. } => FenField::FullmoveNumber,
        }
    }

    /// Byte offset in the input where the problem was found.
    pub fn offset(&self) -> usize {
        use FenError::*;
        match *self {
            Empty => 0,
            TooLong { .. } => FEN_MAX_INPUT,
            InvalidCharacter { offset }
            | FieldCount { offset, .. }
            | RankCount { offset, .. }
            | RankWidth { offset, .. }
            | EmptySquareCount { offset, .. }
            | PieceLetter { offset, .. }
            | SideToMove { offset }
            | Castling { offset }
            | EnPassant { offset }
            | HalfmoveClock { offset }
            | FullmoveNumber { offset }
            | MissingKing { offset, .. }
            | TooManyKings { offset, .. }
            | TooManyPieces { offset, .. }
            | TooManyPawns { offset, .. }
            | PawnOnBackRank { offset, .. }
            | OppositeCheck { offset }
            | ImpossibleCheck { offset }
            | InvalidEnPassant { offset, .. }
            | BadCastlingRights { offset, .. } => offset,
        }
    }
}

/// What to do with a position defect that can be repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Repair {
    /// Reject the FEN (the default).
    #[default]
    Reject,
    /// Drop the offending data and report it in [`FenRepairs`].
    Drop,
}

/// Options for turning a [`Fen`] into a [`Position`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FenOptions {
    /// Read castling rights as Chess960 (X-FEN or Shredder-FEN) and mark the position as such.
    pub chess960: bool,
    /// Castling rights whose king or rook is not on its home square.
    pub bad_castling: Repair,
    /// An en passant square that no double push could have produced.
    pub bad_en_passant: Repair,
    /// Accept checks that no single move could have given (two pawns, or three pieces, giving
    /// check). Move generation handles such positions; they only cannot arise in a game.
    pub allow_impossible_check: bool,
}

/// What [`Repair::Drop`] removed while reading a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FenRepairs {
    /// Castling letters dropped, as `KQkq` bits (1 = `K`, 2 = `Q`, 4 = `k`, 8 = `q`).
    pub dropped_castling: u8,
    /// The en passant square dropped.
    pub dropped_en_passant: Option<Square>,
}

impl FenRepairs {
    /// True when nothing was dropped.
    pub fn is_empty(&self) -> bool {
        self.dropped_castling == 0 && self.dropped_en_passant.is_none()
    }
}

/// How castling rights are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastlingNotation {
    /// `KQkq` in standard chess, X-FEN in Chess960 (the default).
    #[default]
    Auto,
    /// X-FEN: `K`/`Q` for the outermost rook, the file letter for an inner one.
    XFen,
    /// Shredder-FEN: always the rook's file letter (`HAha`).
    Shredder,
}

/// Options for writing a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FenWriteOptions {
    /// Which en passant square to write (default: only when the capture is legal).
    pub en_passant: EnPassantMode,
    /// How to write castling rights.
    pub castling: CastlingNotation,
}

/// A field of a FEN as read: where it starts in the input, and its bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field<'a> {
    pub(crate) offset: usize,
    pub(crate) text: &'a [u8],
}

/// The fields of a FEN, split but not read yet: what the text, the six components and an EPD
/// line each give [`Fields::read`], the one reader of their contents.
#[derive(Debug, Clone)]
pub(crate) struct Fields<'a> {
    /// The fields in order; those past `count` are empty, at `end`.
    pub(crate) list: [Field<'a>; 6],
    pub(crate) count: usize,
    /// Where the text ends, for the fields it leaves out.
    pub(crate) end: usize,
}

impl<'a> Fields<'a> {
    /// Splits `input[start..end]` (which starts and ends with a field) at runs of separators,
    /// into at most `max` fields; returns them and where the text after them resumes (`end`
    /// when nothing is left). The bytes are not checked yet.
    pub(crate) fn split(
        input: &'a [u8],
        start: usize,
        end: usize,
        max: usize,
        is_separator: impl Fn(u8) -> bool,
    ) -> (Fields<'a>, usize) {
        let mut fields = Fields { list: [Field { offset: end, text: &[] }; 6], count: 0, end };
        let mut i = start;
        while i < end && fields.count < max {
            let text = &input[i..end];
            let length = text.iter().position(|&b| is_separator(b)).unwrap_or(text.len());
            fields.list[fields.count] = Field { offset: i, text: &text[..length] };
            fields.count += 1;
            i += length;
            i += input[i..end].iter().take_while(|&&b| is_separator(b)).count();
        }
        (fields, i)
    }

    /// Reads the fields into a [`Fen`]. The first byte that is not printable ASCII is the
    /// error, if any; then too few fields; then each field in order.
    pub(crate) fn read(&self) -> Result<Fen, FenError> {
        // A field read whole holds printable ASCII only: bad bytes are looked for on failure.
        self.read_fields().map_err(|error| match self.first_bad_byte() {
            Some(offset) => FenError::InvalidCharacter { offset },
            None => error,
        })
    }

    fn first_bad_byte(&self) -> Option<usize> {
        self.list[..self.count]
            .iter()
            .find_map(|field| field.text.iter().position(|b| !b.is_ascii_graphic()).map(|i| field.offset + i))
    }

    fn read_fields(&self) -> Result<Fen, FenError> {
        if self.count < 4 {
            return Err(FenError::FieldCount { found: self.count, offset: self.end });
        }
        let [placement, side, castling, en_passant, halfmove_clock, fullmove_number] = self.list;
        let mut fen = Fen {
            setup: Setup::empty(),
            spans: Some(Spans {
                fields: self.list.map(|field| field.offset..field.offset + field.text.len()),
                squares: [0; 64],
                castling: CastlingLetters::Read([None; 4]),
            }),
        };
        let setup = &mut fen.setup;
        let spans = fen.spans.as_mut().expect("a FEN read has its spans");
        read_placement(&mut setup.board, &mut spans.squares, placement)?;
        setup.turn = match side.text {
            [c] => Color::from_fen_char(*c as char),
            _ => None,
        }
        .ok_or(FenError::SideToMove { offset: side.offset })?;
        spans.castling = CastlingLetters::Read(read_castling(setup, castling)?);
        if en_passant.text != b"-" {
            let square = Square::from_ascii(en_passant.text);
            setup.en_passant = Some(square.map_err(|_| FenError::EnPassant { offset: en_passant.offset })?);
        }
        if self.count >= 5 {
            setup.halfmove_clock =
                parse_number(halfmove_clock.text).ok_or(FenError::HalfmoveClock { offset: halfmove_clock.offset })?;
        }
        if self.count == 6 {
            setup.fullmove_number = parse_number(fullmove_number.text)
                .ok_or(FenError::FullmoveNumber { offset: fullmove_number.offset })?
                .max(1);
        }
        Ok(fen)
    }
}

/// The piece each byte names in a placement ([`Piece::from_fen_char`]), looked up at one load.
static PIECE_LETTERS: [Option<Piece>; 256] = {
    let mut letters = [None; 256];
    let mut byte = 0;
    while byte < 256 {
        letters[byte] = Piece::from_fen_char(byte as u8 as char);
        byte += 1;
    }
    letters
};

/// Reads a piece placement into `board`, noting in `squares` where each piece's letter is in
/// the field.
fn read_placement(board: &mut [Option<Piece>; 64], squares: &mut [u8; 64], field: Field<'_>) -> Result<(), FenError> {
    let Field { offset, text } = field;
    // A wrong number of ranks outranks any error inside one.
    let fail = |error| {
        let found = text.iter().filter(|&&b| b == b'/').count() + 1;
        Err(if found == 8 { error } else { FenError::RankCount { found, offset } })
    };
    // The rank being read (7 for the eighth, read first), where it starts and its width so far.
    let mut rank = 7u8;
    let mut rank_start = 0;
    let mut width = 0usize;
    let mut previous_digit = false;
    for (i, &c) in text.iter().enumerate() {
        if let Some(piece) = PIECE_LETTERS[usize::from(c)] {
            previous_digit = false;
            if width < 8 {
                let sq = Square::new(File::new(width as u8), Rank::new(rank));
                board[sq.index()] = Some(piece);
                // The field is at most FEN_MAX_INPUT bytes long.
                squares[sq.index()] = i as u8;
            }
            width += 1;
            continue;
        }
        match c {
            b'/' if width != 8 => {
                return fail(FenError::RankWidth { rank: rank + 1, width, offset: offset + rank_start });
            }
            // A ninth rank: `fail` counts them.
            b'/' if rank == 0 => return fail(FenError::RankCount { found: 9, offset }),
            b'/' => {
                rank -= 1;
                rank_start = i + 1;
                width = 0;
                previous_digit = false;
            }
            b'1'..=b'9' if !previous_digit => {
                previous_digit = true;
                width += usize::from(c - b'0');
            }
            b'0'..=b'9' => return fail(FenError::EmptySquareCount { rank: rank + 1, offset: offset + i }),
            _ => return fail(FenError::PieceLetter { letter: c as char, offset: offset + i }),
        }
    }
    if rank != 0 {
        return fail(FenError::RankCount { found: 8 - usize::from(rank), offset });
    }
    if width != 8 {
        return Err(FenError::RankWidth { rank: 1, width, offset: offset + rank_start });
    }
    Ok(())
}

/// Reads the castling field into `setup.castling_rooks` (the board read already); returns the
/// letters in order with the rook squares they name.
fn read_castling(setup: &mut Setup, field: Field<'_>) -> Result<[Option<(u8, Square)>; 4], FenError> {
    let Field { offset, text } = field;
    let mut letters = [None; 4];
    if text == b"-" {
        return Ok(letters);
    }
    if text.len() > 4 {
        return Err(FenError::Castling { offset: offset + 4 });
    }
    let back_ranks = Color::ALL.map(|color| BackRank::of_setup(setup, color));
    for (i, &c) in text.iter().enumerate() {
        let valid = matches!(c, b'K' | b'Q' | b'k' | b'q' | b'A'..=b'H' | b'a'..=b'h');
        if !valid || text[..i].contains(&c) {
            return Err(FenError::Castling { offset: offset + i });
        }
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rook = back_ranks[color.index()].rook_square(c);
        setup.castling_rooks.set(rook);
        letters[i] = Some((c, rook));
    }
    Ok(letters)
}

/// Where a FEN's fields and pieces are in its text, for error offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Spans {
    /// Each field's bytes; an absent clock is empty, where the text ends.
    fields: [Range<usize>; 6],
    /// Where each piece's letter is in the placement field.
    squares: [u8; 64],
    castling: CastlingLetters,
}

/// The castling letters errors name.
#[derive(Debug, Clone, PartialEq, Eq)]
enum CastlingLetters {
    /// Read from the text, in order, with the rook squares they name.
    Read([Option<(u8, Square)>; 4]),
    /// Those written for the setup ([`Setup::castling_letters`]).
    Written,
}

impl Spans {
    /// The spans of the text `Fen`'s `Display` writes for `setup`.
    fn written(setup: &Setup) -> Spans {
        let mut squares = [0; 64];
        let mut placement = Length(0);
        // Counting bytes cannot fail.
        let _ = write_board(&mut placement, |sq| setup.board[sq.index()], |sq, at| squares[sq.index()] = at as u8);
        let digits = |n: u32| {
            let mut length = Length(0);
            let _ = write!(length, "{n}");
            length.0
        };
        let lengths = [
            placement.0,
            1,
            (setup.castling_rooks.count() as usize).max(1),
            if setup.en_passant.is_some() { 2 } else { 1 },
            digits(setup.halfmove_clock),
            digits(setup.fullmove_number),
        ];
        let mut start = 0;
        let fields = lengths.map(|length| {
            let field = start..start + length;
            start += length + 1;
            field
        });
        Spans { fields, squares, castling: CastlingLetters::Written }
    }
}

/// A FEN read for its syntax: the [`Setup`] it describes, and where each of its fields and
/// pieces is in the text, for the errors of [`Fen::validate`], which checks the position and
/// builds it. A `Fen` made from a setup (`Fen::from(setup)`) counts offsets in the text its
/// `Display` writes: the setup's FEN with the en passant square as recorded and X-FEN castling
/// (`K`/`Q` for the outermost rook on a side, the file letter for another).
///
/// # Examples
///
/// ```
/// use chesscore_core::{Fen, FenError, FenField, FenOptions, Position, Square};
///
/// let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3".parse()?;
/// assert_eq!(fen.setup().en_passant, Some(Square::E3));
/// assert_eq!(fen.field_range(FenField::Castling), Some(48..52));
/// assert_eq!(fen.field_range(FenField::HalfmoveClock), None);
/// assert_eq!(fen.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
///
/// let (pos, _) = fen.validate(&FenOptions::default())?;
/// assert_eq!(pos.to_setup(), *fen.setup());
///
/// // Errors point into the text.
/// let err = "4k3/8/8/8/8/8/8/4K3 w K - 0 1".parse::<Fen>()?.validate(&FenOptions::default());
/// assert_eq!(err, Err(FenError::BadCastlingRights { letter: 'K', offset: 22 }));
/// # Ok::<(), FenError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fen {
    pub(crate) setup: Setup,
    /// `None` for a FEN made from a setup: the spans of the text its `Display` writes, worked
    /// out only when asked for (an error, `field_range`), so that checking a setup costs no
    /// text layout.
    spans: Option<Spans>,
}

#[inline]
fn is_separator(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn parse_number(field: &[u8]) -> Option<u32> {
    if field.is_empty() {
        return None;
    }
    field.iter().try_fold(0u32, |acc, &b| {
        if b.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add(u32::from(b - b'0'))
        } else {
            None
        }
    })
}

impl Fen {
    /// Reads the syntax of a FEN.
    pub fn parse(fen: &str) -> Result<Fen, FenError> {
        Fen::parse_bytes(fen.as_bytes())
    }

    /// Reads the syntax of a FEN given as bytes (which need not be UTF-8: any non-ASCII byte
    /// is reported as [`FenError::InvalidCharacter`]).
    pub fn parse_bytes(input: &[u8]) -> Result<Fen, FenError> {
        if input.len() > FEN_MAX_INPUT {
            return Err(FenError::TooLong { length: input.len() });
        }
        let is_trim = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        let start = input.iter().position(|b| !is_trim(b)).ok_or(FenError::Empty)?;
        let end = input.iter().rposition(|b| !is_trim(b)).map_or(start, |i| i + 1);
        let (fields, next) = Fields::split(input, start, end, 6, is_separator);
        if next < end {
            // A seventh field; a bad byte anywhere still comes first.
            let bad = |b: &u8| !(b.is_ascii_graphic() || is_separator(*b));
            let later = || input[next..end].iter().position(bad).map(|i| next + i);
            return Err(match fields.first_bad_byte().or_else(later) {
                Some(offset) => FenError::InvalidCharacter { offset },
                None => FenError::FieldCount { found: 7, offset: next },
            });
        }
        fields.read()
    }

    /// Reads the six FEN fields given separately, each by itself (none may be empty or hold a
    /// space or tab). Error offsets count in the fields joined by single spaces.
    pub fn from_component_bytes(parts: [&[u8]; 6]) -> Result<Fen, FenError> {
        let mut list = [Field { offset: 0, text: &[] }; 6];
        let mut offset = 0;
        for (i, part) in parts.into_iter().enumerate() {
            // An empty or space-holding component would shift the fields; name it directly.
            if part.is_empty() || part.iter().copied().any(is_separator) {
                return Err(component_error(i, offset));
            }
            list[i] = Field { offset, text: part };
            offset += part.len() + 1;
        }
        let length = offset - 1;
        if length > FEN_MAX_INPUT {
            return Err(FenError::TooLong { length });
        }
        // Line ends before the first field and after the last are ignored, as in a FEN text,
        // even when they make up whole components (which then are no fields).
        let is_line_end = |b: &u8| matches!(b, b'\r' | b'\n');
        for field in list.iter_mut() {
            let ends = field.text.iter().take_while(|b| is_line_end(b)).count();
            field.offset += ends;
            field.text = &field.text[ends..];
            if !field.text.is_empty() {
                break;
            }
        }
        for field in list.iter_mut().rev() {
            let ends = field.text.iter().rev().take_while(|b| is_line_end(b)).count();
            field.text = &field.text[..field.text.len() - ends];
            if !field.text.is_empty() {
                break;
            }
        }
        let Some(last) = list.iter().rev().find(|f| !f.text.is_empty()) else { return Err(FenError::Empty) };
        let end = last.offset + last.text.len();
        let mut fields = Fields { list: [Field { offset: end, text: &[] }; 6], count: 0, end };
        for field in list.into_iter().filter(|f| !f.text.is_empty()) {
            fields.list[fields.count] = field;
            fields.count += 1;
        }
        fields.read()
    }

    /// The position the FEN describes, not checked yet.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The setup, without the offsets.
    pub fn into_setup(self) -> Setup {
        self.setup
    }

    /// Where `field` is in the text this FEN was read from (for one made from a [`Setup`], in
    /// the text its `Display` writes); `None` for a clock the text leaves out.
    /// [`FenField::Input`] spans the text from its first field to its last.
    pub fn field_range(&self, field: FenField) -> Option<Range<usize>> {
        let fields = &self.spans().fields;
        let range = match field {
            FenField::Input => fields[0].start..fields.iter().map(|f| f.end).max().unwrap_or(fields[0].end),
            FenField::Placement => fields[0].clone(),
            FenField::SideToMove => fields[1].clone(),
            FenField::Castling => fields[2].clone(),
            FenField::EnPassant => fields[3].clone(),
            FenField::HalfmoveClock => fields[4].clone(),
            FenField::FullmoveNumber => fields[5].clone(),
        };
        (!range.is_empty()).then_some(range)
    }

    /// Checks the position and builds it: the one validation of every FEN reader and of
    /// [`Position::from_setup`]. Each side has one king, at most 16 pieces and 8 pawns; no pawn
    /// stands on a back rank; the side not to move is not in check, and the checks of the side
    /// to move could come from one move (unless `allow_impossible_check`); every castling right
    /// has its king and rook at home; the en passant square lies behind a pawn that could just
    /// have advanced two squares. The last two can be repaired instead ([`Repair::Drop`]).
    pub fn validate(&self, options: &FenOptions) -> Result<(Position, FenRepairs), FenError> {
        let setup = &self.setup;
        let mut pos = Position::empty(setup.turn);
        for sq in Square::ALL {
            if let Some(piece) = setup.board[sq.index()] {
                pos.put(sq, piece);
            }
        }
        let letters = self.castling_letters();
        let offset = |site| match site {
            Site::Placement => self.field_start(FenField::Placement),
            Site::Square(sq) => self.offset_of(sq),
            Site::CastlingLetter(i) => self.field_start(FenField::Castling) + i,
            Site::EnPassant => self.field_start(FenField::EnPassant),
        };
        let rest = Unplaced {
            castling: &letters,
            en_passant: setup.en_passant,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
        };
        let repairs = check_position(&mut pos, rest, options, offset)?;
        Ok((pos, repairs))
    }

    /// The castling letters in order with the rook squares they name: those read, or those
    /// `Display` writes.
    fn castling_letters(&self) -> ArrayVec<(u8, Square), 64> {
        match self.spans.as_ref().map(|spans| &spans.castling) {
            Some(CastlingLetters::Read(letters)) => letters.iter().flatten().copied().collect(),
            Some(CastlingLetters::Written) | None => self.setup.castling_letters(),
        }
    }

    /// The spans: those read, or those of the text `Display` writes.
    fn spans(&self) -> Cow<'_, Spans> {
        match &self.spans {
            Some(spans) => Cow::Borrowed(spans),
            None => Cow::Owned(Spans::written(&self.setup)),
        }
    }

    /// Where a field (not [`FenField::Input`]) starts.
    fn field_start(&self, field: FenField) -> usize {
        let index = match field {
            FenField::Input | FenField::Placement => 0,
            FenField::SideToMove => 1,
            FenField::Castling => 2,
            FenField::EnPassant => 3,
            FenField::HalfmoveClock => 4,
            FenField::FullmoveNumber => 5,
        };
        self.spans().fields[index].start
    }

    fn offset_of(&self, sq: Square) -> usize {
        let spans = self.spans();
        spans.fields[0].start + usize::from(spans.squares[sq.index()])
    }
}

/// What a position error points at; each reader turns it into an offset in its input.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Site {
    /// The placement as a whole.
    Placement,
    /// The piece on a square.
    Square(Square),
    /// The castling letter at this index of the letters given.
    CastlingLetter(usize),
    /// The en passant square.
    EnPassant,
}

/// What a setup says besides its pieces, for [`check_position`].
pub(crate) struct Unplaced<'a> {
    /// The castling letters in order, with the rook squares they name.
    pub(crate) castling: &'a [(u8, Square)],
    pub(crate) en_passant: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
}

/// The checks of [`Fen::validate`] on a position whose pieces and side to move are placed, the
/// rest still to set from `rest`; `offset` places an error in the input.
#[inline]
pub(crate) fn check_position(
    pos: &mut Position,
    rest: Unplaced<'_>,
    options: &FenOptions,
    offset: impl Fn(Site) -> usize,
) -> Result<FenRepairs, FenError> {
    pos.set_chess960(options.chess960);
    for color in Color::ALL {
        let kings = pos.pieces_of(color, PieceKind::King);
        if kings.is_empty() {
            return Err(FenError::MissingKing { color, offset: offset(Site::Placement) });
        }
        if let Some(second) = kings.iter().nth(1) {
            return Err(FenError::TooManyKings { color, offset: offset(Site::Square(second)) });
        }
    }
    for color in Color::ALL {
        let pieces = pos.color_occupancy(color);
        if pieces.count() > 16 {
            return Err(FenError::TooManyPieces { color, offset: offset(Site::Placement) });
        }
        if pos.pieces_of(color, PieceKind::Pawn).count() > 8 {
            return Err(FenError::TooManyPawns { color, offset: offset(Site::Placement) });
        }
    }
    if let Some(square) = (pos.pieces(PieceKind::Pawn) & Bitboard::BACK_RANKS).first() {
        return Err(FenError::PawnOnBackRank { square, offset: offset(Site::Square(square)) });
    }

    let mut repairs = FenRepairs::default();
    let castling = castling_rights(pos, rest.castling, options, &mut repairs, &offset)?;
    pos.set_castling(castling);

    if let Some(ep) = rest.en_passant {
        if en_passant_is_plausible(pos, ep) {
            pos.set_en_passant(Some(ep));
        } else if options.bad_en_passant == Repair::Drop {
            repairs.dropped_en_passant = Some(ep);
        } else {
            return Err(FenError::InvalidEnPassant { square: ep, offset: offset(Site::EnPassant) });
        }
    }
    pos.set_clocks(rest.halfmove_clock, rest.fullmove_number.max(1));

    let turn = pos.turn();
    if pos.is_attacked(pos.king_square(!turn), turn) {
        return Err(FenError::OppositeCheck { offset: offset(Site::Placement) });
    }
    if !options.allow_impossible_check && !check_is_possible(pos) {
        return Err(FenError::ImpossibleCheck { offset: offset(Site::Placement) });
    }
    pos.finish_setup();
    Ok(repairs)
}

/// Resolves the castling letters against the board, in the order given.
fn castling_rights(
    pos: &Position,
    letters: &[(u8, Square)],
    options: &FenOptions,
    repairs: &mut FenRepairs,
    offset: &impl Fn(Site) -> usize,
) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    for (i, &(letter, rook)) in letters.iter().enumerate() {
        let letter = letter as char;
        let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
        match castling_side(pos, color, rook, options.chess960).filter(|&side| !rights.has(color, side)) {
            Some(side) => rights.insert(color, side, rook.file()),
            None if options.bad_castling == Repair::Drop => {
                repairs.dropped_castling |=
                    1 << (color.index() * 2 + castling_letter_side(letter, pos, color) as usize);
            }
            None => return Err(FenError::BadCastlingRights { letter, offset: offset(Site::CastlingLetter(i)) }),
        }
    }
    Ok(rights)
}

/// An en passant square is plausible when a pawn of the side not to move stands in front of it
/// and both it and the square behind it are empty.
fn en_passant_is_plausible(pos: &Position, ep: Square) -> bool {
    let (ep_rank, dir) = match pos.turn() {
        Color::White => (Rank::Sixth, 1),
        Color::Black => (Rank::Third, -1),
    };
    if ep.rank() != ep_rank {
        return false;
    }
    let (Some(pushed), Some(origin)) = (ep.offset(0, -dir), ep.offset(0, dir)) else {
        return false;
    };
    let occupied = pos.occupancy();
    pos.pieces_of(!pos.turn(), PieceKind::Pawn).contains(pushed) && !occupied.contains(ep) && !occupied.contains(origin)
}

/// Reads the syntax, as [`Fen::parse`].
impl FromStr for Fen {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Fen, FenError> {
        Fen::parse(fen)
    }
}

/// Writes the setup's FEN: all six fields, the en passant square as recorded, castling in
/// X-FEN (see [`Fen`]). A setup that a FEN can hold (at most four castling rights, each on a
/// back rank) reads back equal.
impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = &self.setup;
        write_board(f, |sq| setup.board[sq.index()], |_, _| {})?;
        write!(f, " {} ", setup.turn.fen_char())?;
        if setup.castling_rooks.is_empty() {
            f.write_char('-')?;
        }
        for (letter, _) in setup.castling_letters() {
            f.write_char(letter as char)?;
        }
        match setup.en_passant {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", setup.halfmove_clock, setup.fullmove_number)
    }
}

/// A FEN without a text: its offsets count in the text its `Display` writes.
impl From<Setup> for Fen {
    fn from(setup: Setup) -> Fen {
        Fen { spans: None, setup }
    }
}

impl From<Fen> for Setup {
    fn from(fen: Fen) -> Setup {
        fen.setup
    }
}

/// Writes a piece placement field, telling `piece_written` where each piece's letter goes in
/// it.
fn write_board<W: fmt::Write>(
    out: &mut W,
    piece_at: impl Fn(Square) -> Option<Piece>,
    mut piece_written: impl FnMut(Square, usize),
) -> fmt::Result {
    let mut at = 0;
    for rank in Rank::ALL.into_iter().rev() {
        let mut empty = 0u8;
        for file in File::ALL {
            let sq = Square::new(file, rank);
            match piece_at(sq) {
                Some(piece) => {
                    if empty > 0 {
                        out.write_char((b'0' + empty) as char)?;
                        at += 1;
                        empty = 0;
                    }
                    piece_written(sq, at);
                    out.write_char(piece.fen_char())?;
                    at += 1;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.write_char((b'0' + empty) as char)?;
            at += 1;
        }
        if rank != Rank::First {
            out.write_char('/')?;
            at += 1;
        }
    }
    Ok(())
}

/// The side a castling right of `color` with its rook on `rook` castles to, when the king and
/// that rook stand where the right needs them: both on the back rank, the king on the e-file
/// and the rook in a corner in standard chess.
fn castling_side(pos: &Position, color: Color, rook: Square, chess960: bool) -> Option<CastlingSide> {
    let rank = back_rank(color);
    let king = pos.king_square(color);
    if king.rank() != rank || rook.rank() != rank || !pos.pieces_of(color, PieceKind::Rook).contains(rook) {
        return None;
    }
    let side = if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
    (chess960 || (king.file() == File::E && rook.file() == side.standard_rook_file())).then_some(side)
}

/// The side a castling letter refers to, for reporting a dropped right.
fn castling_letter_side(letter: char, pos: &Position, color: Color) -> CastlingSide {
    match letter.to_ascii_lowercase() {
        'k' => CastlingSide::KingSide,
        'q' => CastlingSide::QueenSide,
        c => {
            let king_file = pos.king_square(color).file();
            if File::from_char(c).is_some_and(|f| f > king_file) {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            }
        }
    }
}

/// Whether the checks against the side to move could have arisen from one legal move.
fn check_is_possible(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() {
        return true;
    }
    let king = pos.king_square(pos.turn());
    if let Some(ep) = pos.en_passant() {
        // The last move was a double push: it gave check itself or uncovered one.
        if checkers.more_than_one() {
            return false;
        }
        let pushed = Square::new(ep.file(), if pos.turn() == Color::White { Rank::Fifth } else { Rank::Fourth });
        let origin = Square::new(ep.file(), if pos.turn() == Color::White { Rank::Seventh } else { Rank::Second });
        if checkers.contains(pushed) {
            return true;
        }
        let before = (pos.occupancy().without(pushed)).with(origin);
        return pos.attackers_with(king, !pos.turn(), before).is_empty();
    }
    if checkers.count() > 2 {
        return false;
    }
    if checkers.more_than_one() {
        let first = checkers.lowest();
        let last = checkers.last().unwrap_or(first);
        let sliders = pos.pieces(PieceKind::Bishop) | pos.pieces(PieceKind::Rook) | pos.pieces(PieceKind::Queen);
        // A double check needs a discovered slider, and two checkers on one line through the
        // king cannot have been uncovered by a single move.
        return (checkers & sliders).any() && !line(first, last).contains(king);
    }
    true
}

impl Position {
    /// Reads a standard-chess FEN, rejecting any invalid position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Fen::parse(fen)?.validate(&FenOptions::default())?.0)
    }

    /// Reads a Chess960 FEN (X-FEN or Shredder-FEN castling).
    pub fn from_fen_chess960(fen: &str) -> Result<Position, FenError> {
        let options = FenOptions { chess960: true, ..FenOptions::default() };
        Ok(Fen::parse(fen)?.validate(&options)?.0)
    }

    /// Reads a FEN with options, reporting what was repaired.
    pub fn from_fen_with(fen: &str, options: &FenOptions) -> Result<(Position, FenRepairs), FenError> {
        Fen::parse(fen)?.validate(options)
    }

    /// Builds a position from the six FEN fields given separately. Error offsets refer to the
    /// fields joined by single spaces.
    pub fn from_fen_components(
        placement: &str,
        side_to_move: &str,
        castling: &str,
        en_passant: &str,
        halfmove_clock: &str,
        fullmove_number: &str,
    ) -> Result<Position, FenError> {
        let parts = [placement, side_to_move, castling, en_passant, halfmove_clock, fullmove_number];
        Position::from_fen_component_bytes(parts.map(str::as_bytes))
    }

    /// Like [`Position::from_fen_components`], with the fields as bytes that need not be UTF-8
    /// (a byte outside printable ASCII is [`FenError::InvalidCharacter`]).
    pub fn from_fen_component_bytes(parts: [&[u8]; 6]) -> Result<Position, FenError> {
        Ok(Fen::from_component_bytes(parts)?.validate(&FenOptions::default())?.0)
    }

    /// Reads the first non-empty line of a `.fen` file, and no more of the file than that:
    /// at most [`FEN_FILE_MAX_BLANK`] bytes of blank lines before it (a file without a FEN
    /// there is `FenError::Empty`) and [`FEN_MAX_INPUT`] + 1 bytes of the line (a longer one is
    /// `FenError::TooLong`). A huge file, a device such as `/dev/zero` or a pipe cost bounded
    /// time and memory.
    pub fn from_fen_file(path: impl AsRef<Path>) -> Result<Position, FenFileError> {
        let path = path.as_ref();
        let file_error = |error: std::io::Error| match error.kind() {
            std::io::ErrorKind::NotFound => FenFileError::NotFound(path.to_path_buf()),
            _ => FenFileError::Io { path: path.to_path_buf(), error },
        };
        let file = std::fs::File::open(path).map_err(file_error)?;
        let mut line = [0; FEN_MAX_INPUT + 1];
        let len = first_fen_line(file, &mut line).map_err(file_error)?;
        let fen = Fen::parse_bytes(&line[..len])?;
        Ok(fen.validate(&FenOptions::default())?.0)
    }

    /// The FEN of this position: en passant only when the capture is legal, castling as
    /// `KQkq` (X-FEN in Chess960).
    pub fn to_fen(&self) -> String {
        self.to_fen_with(&FenWriteOptions::default())
    }

    /// The FEN with chosen en passant and castling conventions.
    pub fn to_fen_with(&self, options: &FenWriteOptions) -> String {
        let mut out = String::with_capacity(FEN_MAX_LEN);
        self.write_fen(&mut out, options).expect("writing to a String cannot fail");
        out
    }

    /// Writes the FEN to any `fmt::Write` (no allocation of its own).
    pub fn write_fen<W: fmt::Write>(&self, out: &mut W, options: &FenWriteOptions) -> fmt::Result {
        self.write_placement(out)?;
        write!(out, " {} ", self.turn().fen_char())?;
        self.write_castling(out, options.castling)?;
        out.write_char(' ')?;
        match self.en_passant_square(options.en_passant) {
            Some(sq) => write!(out, "{sq}")?,
            None => out.write_char('-')?,
        }
        write!(out, " {} {}", self.halfmove_clock(), self.fullmove_number())
    }

    /// The piece placement field.
    pub fn write_placement<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        write_board(out, |sq| self.piece_at(sq), |_, _| {})
    }

    fn write_castling<W: fmt::Write>(&self, out: &mut W, notation: CastlingNotation) -> fmt::Result {
        let rights = self.castling();
        if rights.is_empty() {
            return out.write_char('-');
        }
        let notation = match notation {
            CastlingNotation::Auto if self.is_chess960() => CastlingNotation::XFen,
            other => other,
        };
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(rook) = rights.rook_square(color, side) else { continue };
                let letter = match notation {
                    CastlingNotation::Auto => side_letter(side),
                    CastlingNotation::Shredder => rook.file().to_char(),
                    CastlingNotation::XFen => {
                        BackRank::of_position(self, color).letter(rook).to_ascii_lowercase() as char
                    }
                };
                out.write_char(if color == Color::White { letter.to_ascii_uppercase() } else { letter })?;
            }
        }
        Ok(())
    }
}

fn side_letter(side: CastlingSide) -> char {
    match side {
        CastlingSide::KingSide => 'k',
        CastlingSide::QueenSide => 'q',
    }
}

fn component_error(index: usize, offset: usize) -> FenError {
    match index {
        0 => FenError::RankCount { found: 0, offset },
        1 => FenError::SideToMove { offset },
        2 => FenError::Castling { offset },
        3 => FenError::EnPassant { offset },
        4 => FenError::HalfmoveClock { offset },
        _ => FenError::FullmoveNumber { offset },
    }
}

/// Errors of [`Position::from_fen_file`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FenFileError {
    /// There is no file at the path.
    #[error("file not found: {}", .0.display())]
    NotFound(PathBuf),
    /// The file could not be opened or read.
    #[error("cannot read {}: {error}", path.display())]
    Io {
        /// The file's path.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file's first line is not a valid FEN.
    #[error(transparent)]
    Fen(#[from] FenError),
}

/// How many bytes of blank lines [`Position::from_fen_file`] reads past before giving up on
/// finding a FEN (1 MiB).
pub const FEN_FILE_MAX_BLANK: u64 = 1 << 20;

/// Copies into `line` the first line of `input` holding more than blanks, from its first
/// non-blank byte, cut where `line` is full (one byte over [`FEN_MAX_INPUT`], enough for the
/// reader to refuse it); returns its length, 0 when blank lines run past [`FEN_FILE_MAX_BLANK`]
/// bytes or to the end. Reads through a buffer on the stack: nothing is allocated.
fn first_fen_line(mut input: impl Read, line: &mut [u8]) -> std::io::Result<usize> {
    let mut chunk = [0; 4096];
    let (mut len, mut blank) = (0, 0);
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(len),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for &byte in &chunk[..n] {
            match (len, byte) {
                (0, b' ' | b'\t' | b'\r' | b'\n') => {
                    blank += 1;
                    if blank > FEN_FILE_MAX_BLANK {
                        return Ok(0);
                    }
                }
                (_, b'\n') => return Ok(len),
                _ => {
                    line[len] = byte;
                    len += 1;
                    if len == line.len() {
                        return Ok(len);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn start_position_round_trip() {
        let pos = Position::from_fen(START).unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_fen(), START);
    }

    #[test]
    fn optional_clocks_and_whitespace() {
        let four = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
        assert_eq!(four.to_fen(), START);
        let five = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7").unwrap();
        assert_eq!(five.halfmove_clock(), 7);
        assert_eq!(five.fullmove_number(), 1);
        let spaced = Position::from_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw  KQkq - 0 1\r\n").unwrap();
        assert_eq!(spaced.to_fen(), START);
        assert!(matches!(Position::from_fen("8/8/8/8/8/8/8/8 w"), Err(FenError::FieldCount { found: 2, .. })));
    }

    #[test]
    fn errors_name_field_and_offset() {
        let err = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err();
        assert_eq!(err, FenError::SideToMove { offset: 44 });
        assert_eq!(err.field(), FenField::SideToMove);
        assert_eq!(err.field().to_string(), "side to move");
        let err = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1").unwrap_err();
        assert_eq!(err, FenError::PieceLetter { letter: 'X', offset: 42 });
        let err = Position::from_fen("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
        assert_eq!(err, FenError::RankWidth { rank: 7, width: 7, offset: 9 });
        let err = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w Kq - 0 1").unwrap_err();
        assert_eq!(err, FenError::BadCastlingRights { letter: 'q', offset: 24 });
    }

    #[test]
    fn repairs_drop_and_report() {
        let options = FenOptions { bad_castling: Repair::Drop, bad_en_passant: Repair::Drop, ..FenOptions::default() };
        let (pos, repairs) = Position::from_fen_with("4k3/8/8/8/8/8/8/4K2R w KQk e6 0 1", &options).unwrap();
        assert_eq!(pos.castling().to_fen(), "K");
        assert_eq!(repairs.dropped_castling, 2 | 4);
        assert_eq!(repairs.dropped_en_passant, Some(Square::E6));
    }

    #[test]
    fn en_passant_modes() {
        // Recorded after e2e4 with no black pawn beside: only AsRecorded keeps it.
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        let recorded = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, ..Default::default() };
        assert!(pos.to_fen_with(&recorded).contains(" e3 "));
        assert!(pos.to_fen().contains(" - "));
        // Pinned capturer: pseudo-legal keeps it, legal drops it.
        let pos = Position::from_fen("4k2b/8/8/3pP3/8/8/1K6/8 w - d6 0 2").unwrap();
        assert_eq!(pos.en_passant_square(EnPassantMode::PseudoLegal), Some(Square::D6));
        assert_eq!(pos.en_passant_square(EnPassantMode::Legal), None);
    }

    #[test]
    fn field_ranges_and_components() {
        let fen = Fen::parse(" 8/8/8/8/8/8/8/K6k\tw  - - ").unwrap();
        let fields = [FenField::Placement, FenField::SideToMove, FenField::Castling, FenField::EnPassant];
        assert_eq!(fields.map(|field| fen.field_range(field)), [Some(1..18), Some(19..20), Some(22..23), Some(24..25)]);
        assert_eq!(fen.field_range(FenField::HalfmoveClock), None);
        assert_eq!(fen.field_range(FenField::Input), Some(1..25));
        let pos =
            Position::from_fen_components("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "KQkq", "-", "0", "1")
                .unwrap();
        assert_eq!(pos, Position::startpos());
        assert!(matches!(
            Position::from_fen_components("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "", "-", "0", "1"),
            Err(FenError::Castling { .. })
        ));
        let bytes: [&[u8]; 6] = [b"4k3/8/8/8/8/8/8/4K3", b"w", b"-", b"-", b"0", b"1\xff"];
        assert_eq!(Position::from_fen_component_bytes(bytes), Err(FenError::InvalidCharacter { offset: 29 }));
        let bytes: [&[u8]; 6] = [b"4k3/8/8/8/8/8/8/4K3", b"w", b"-", b"-", b"0", b"1"];
        assert_eq!(Position::from_fen_component_bytes(bytes).unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn components_ignore_line_ends_around_the_fen() {
        // As the text joined by spaces would read: line ends at its ends are trimmed, even when
        // they are a whole component; inside, they are bad bytes.
        let bytes: [&[u8]; 6] = [b"\r\n4k3/8/8/8/8/8/8/4K3", b"w", b"-", b"-", b"0", b"1\r\n"];
        assert_eq!(Position::from_fen_component_bytes(bytes).unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let bytes: [&[u8]; 6] = [b"4k3/8/8/8/8/8/8/4K3", b"w", b"-", b"-", b"\n", b"\n"];
        assert_eq!(Position::from_fen_component_bytes(bytes).unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let bytes: [&[u8]; 6] = [b"\n", b"w", b"-", b"-", b"0", b"1"];
        assert_eq!(Position::from_fen_component_bytes(bytes), Err(FenError::RankCount { found: 1, offset: 2 }));
        let bytes: [&[u8]; 6] = [b"\n", b"\r", b"\n", b"\n", b"\r\n", b"\n"];
        assert_eq!(Position::from_fen_component_bytes(bytes), Err(FenError::Empty));
        let bytes: [&[u8]; 6] = [b"4k3/8/8/8/8/8/8/4K3", b"w\n", b"-", b"-", b"0", b"1"];
        assert_eq!(Position::from_fen_component_bytes(bytes), Err(FenError::InvalidCharacter { offset: 21 }));
    }

    #[test]
    fn file_errors_show_their_cause_once() {
        use std::error::Error;
        // Reading a directory fails after opening it.
        let err = Position::from_fen_file(std::env::temp_dir()).unwrap_err();
        let FenFileError::Io { error, .. } = &err else { panic!("{err:?}") };
        assert!(err.to_string().ends_with(&format!(": {error}")), "{err}");
        assert!(err.source().is_none());
        let err = FenFileError::from(FenError::Empty);
        assert_eq!((err.to_string(), err.source().is_none()), ("empty FEN".to_string(), true));
    }

    #[test]
    fn text_form_of_a_setup() {
        let fen: Fen = "  4k3/8/8/8/8/8/8/4K2R w HK - 3".parse().unwrap();
        // `H` and `K` name one rook: the setup has one right, the text a repeated one.
        assert_eq!(fen.setup().castling_rooks, Bitboard::from_square(Square::H1));
        assert_eq!(fen.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 3 1");
        assert_eq!(fen.validate(&FenOptions::default()), Err(FenError::BadCastlingRights { letter: 'K', offset: 26 }));
        assert!(Fen::from(*fen.setup()).validate(&FenOptions::default()).is_ok());
        // Squares a FEN cannot hold are written all the same, and rejected.
        let mut setup = *fen.setup();
        setup.castling_rooks = Bitboard::from_square(Square::H1).with(Square::G1).with(Square::B3);
        let made = Fen::from(setup);
        assert_eq!(made.to_string(), "4k3/8/8/8/8/8/8/4K2R w KGB - 3 1");
        assert_eq!(made.validate(&FenOptions::default()), Err(FenError::BadCastlingRights { letter: 'G', offset: 24 }));
        let lenient = FenOptions { bad_castling: Repair::Drop, ..FenOptions::default() };
        let (pos, repairs) = made.validate(&lenient).unwrap();
        assert_eq!((pos.castling().to_fen(), repairs.dropped_castling), ("K".to_string(), 1 | 2));
    }
}
