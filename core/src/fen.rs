//! Forsyth-Edwards Notation: strict reading in two steps (syntax into a [`Fen`], then
//! validation into a [`Position`]) and canonical writing.
//!
//! Accepted input: 4, 5 or 6 fields (missing clocks default to `0` and `1`), separated by one
//! or more spaces or tabs. Leading and trailing spaces, tabs, carriage returns and line feeds
//! are ignored. Any other byte that is not printable ASCII is an error, and so is input longer
//! than [`FEN_MAX_INPUT`] bytes. A fullmove number of 0 is read as 1.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::attacks::{between, line};
use crate::bitboard::Bitboard;
use crate::castling::{back_rank, CastlingRights, CastlingSide};
use crate::color::Color;
use crate::piece::{Piece, PieceKind};
use crate::position::{EnPassantMode, Position};
use crate::square::{File, Rank, Square};

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
/// the byte offset in the input where the problem was found ([`FenError::offset`]).
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

/// A castling letter as written, with its position in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CastlingLetter {
    letter: u8,
    offset: usize,
}

/// A FEN read for its syntax only: every field is well formed, but the position it describes
/// has not been checked. [`Fen::validate`] turns it into a [`Position`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fen {
    board: [Option<Piece>; 64],
    turn: Color,
    castling: [Option<CastlingLetter>; 4],
    en_passant: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    square_offsets: [u16; 64],
    field_offsets: [usize; 6],
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
        if let Some(i) = input[start..end].iter().position(|&b| !(b.is_ascii_graphic() || is_separator(b))) {
            return Err(FenError::InvalidCharacter { offset: start + i });
        }

        let mut fields: [(usize, &[u8]); 6] = [(end, &[]); 6];
        let mut count = 0;
        let mut i = start;
        while i < end {
            let field_start = i;
            while i < end && !is_separator(input[i]) {
                i += 1;
            }
            if count == 6 {
                return Err(FenError::FieldCount { found: 7, offset: field_start });
            }
            fields[count] = (field_start, &input[field_start..i]);
            count += 1;
            while i < end && is_separator(input[i]) {
                i += 1;
            }
        }
        if count < 4 {
            return Err(FenError::FieldCount { found: count, offset: end });
        }

        let mut fen = Fen {
            board: [None; 64],
            turn: Color::White,
            castling: [None; 4],
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            square_offsets: [0; 64],
            field_offsets: fields.map(|(offset, _)| offset),
        };
        fen.parse_placement(fields[0].0, fields[0].1)?;

        let (offset, side) = fields[1];
        fen.turn = match side {
            [c] => Color::from_fen_char(*c as char),
            _ => None,
        }
        .ok_or(FenError::SideToMove { offset })?;

        fen.parse_castling(fields[2].0, fields[2].1)?;

        let (offset, ep) = fields[3];
        if ep != b"-" {
            fen.en_passant = Some(Square::from_ascii(ep).map_err(|_| FenError::EnPassant { offset })?);
        }
        if count >= 5 {
            let (offset, clock) = fields[4];
            fen.halfmove_clock = parse_number(clock).ok_or(FenError::HalfmoveClock { offset })?;
        }
        if count == 6 {
            let (offset, number) = fields[5];
            fen.fullmove_number = parse_number(number).ok_or(FenError::FullmoveNumber { offset })?.max(1);
        }
        Ok(fen)
    }

    fn parse_placement(&mut self, offset: usize, field: &[u8]) -> Result<(), FenError> {
        let ranks = field.split(|&b| b == b'/').count();
        if ranks != 8 {
            return Err(FenError::RankCount { found: ranks, offset });
        }
        let mut rank_offset = offset;
        for (i, rank_text) in field.split(|&b| b == b'/').enumerate() {
            let rank = Rank::new(7 - i as u8);
            let rank_number = rank.index() as u8 + 1;
            let mut width = 0usize;
            let mut previous_digit = false;
            for (j, &c) in rank_text.iter().enumerate() {
                let at = rank_offset + j;
                if c.is_ascii_digit() {
                    if previous_digit || c == b'0' {
                        return Err(FenError::EmptySquareCount { rank: rank_number, offset: at });
                    }
                    previous_digit = true;
                    width += usize::from(c - b'0');
                } else {
                    previous_digit = false;
                    let piece = Piece::from_fen_char(c as char)
                        .ok_or(FenError::PieceLetter { letter: c as char, offset: at })?;
                    if width < 8 {
                        let sq = Square::new(File::new(width as u8), rank);
                        self.board[sq.index()] = Some(piece);
                        self.square_offsets[sq.index()] = at as u16;
                    }
                    width += 1;
                }
            }
            if width != 8 {
                return Err(FenError::RankWidth { rank: rank_number, width, offset: rank_offset });
            }
            rank_offset += rank_text.len() + 1;
        }
        Ok(())
    }

    fn parse_castling(&mut self, offset: usize, field: &[u8]) -> Result<(), FenError> {
        if field == b"-" {
            return Ok(());
        }
        if field.len() > 4 {
            return Err(FenError::Castling { offset: offset + 4 });
        }
        for (i, &c) in field.iter().enumerate() {
            let valid = matches!(c, b'K' | b'Q' | b'k' | b'q' | b'A'..=b'H' | b'a'..=b'h');
            if !valid || field[..i].contains(&c) {
                return Err(FenError::Castling { offset: offset + i });
            }
            self.castling[i] = Some(CastlingLetter { letter: c, offset: offset + i });
        }
        Ok(())
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The en passant square as written.
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// The halfmove clock (0 when the field is absent).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The fullmove number (1 when the field is absent or 0).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Checks the position and builds it.
    pub fn validate(&self, options: &FenOptions) -> Result<(Position, FenRepairs), FenError> {
        let placement = self.field_offsets[0];
        let mut pos = Position::empty(self.turn);
        pos.set_chess960(options.chess960);
        for sq in Square::ALL {
            if let Some(piece) = self.board[sq.index()] {
                pos.put(sq, piece);
            }
        }

        for color in Color::ALL {
            let kings = pos.pieces_of(color, PieceKind::King);
            if kings.is_empty() {
                return Err(FenError::MissingKing { color, offset: placement });
            }
            if let Some(second) = kings.iter().nth(1) {
                return Err(FenError::TooManyKings { color, offset: self.offset_of(second) });
            }
        }
        for color in Color::ALL {
            let pieces = pos.color_occupancy(color);
            if pieces.count() > 16 {
                return Err(FenError::TooManyPieces { color, offset: placement });
            }
            if pos.pieces_of(color, PieceKind::Pawn).count() > 8 {
                return Err(FenError::TooManyPawns { color, offset: placement });
            }
        }
        if let Some(square) = (pos.pieces(PieceKind::Pawn) & Bitboard::BACK_RANKS).first() {
            return Err(FenError::PawnOnBackRank { square, offset: self.offset_of(square) });
        }

        let mut repairs = FenRepairs::default();
        let castling = self.castling_rights(&pos, options, &mut repairs)?;
        pos.set_castling(castling);

        if let Some(ep) = self.en_passant {
            if self.en_passant_is_plausible(&pos, ep) {
                pos.set_en_passant(Some(ep));
            } else if options.bad_en_passant == Repair::Drop {
                repairs.dropped_en_passant = Some(ep);
            } else {
                return Err(FenError::InvalidEnPassant { square: ep, offset: self.field_offsets[3] });
            }
        }
        pos.set_clocks(self.halfmove_clock, self.fullmove_number);

        let them = !self.turn;
        if pos.is_attacked(pos.king_square(them), self.turn) {
            return Err(FenError::OppositeCheck { offset: placement });
        }
        if !options.allow_impossible_check && !check_is_possible(&pos) {
            return Err(FenError::ImpossibleCheck { offset: placement });
        }
        pos.finish_setup();
        Ok((pos, repairs))
    }

    fn offset_of(&self, sq: Square) -> usize {
        usize::from(self.square_offsets[sq.index()])
    }

    /// Resolves the castling letters against the board.
    fn castling_rights(
        &self,
        pos: &Position,
        options: &FenOptions,
        repairs: &mut FenRepairs,
    ) -> Result<CastlingRights, FenError> {
        let mut rights = CastlingRights::NONE;
        for entry in self.castling.iter().flatten() {
            let letter = entry.letter as char;
            let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
            let resolved = resolve_castling_letter(pos, color, letter.to_ascii_lowercase(), options.chess960)
                .filter(|&(side, _)| !rights.has(color, side));
            match resolved {
                Some((side, file)) => rights.insert(color, side, file),
                None if options.bad_castling == Repair::Drop => {
                    repairs.dropped_castling |=
                        1 << (color.index() * 2 + castling_letter_side(letter, pos, color) as usize);
                }
                None => return Err(FenError::BadCastlingRights { letter, offset: entry.offset }),
            }
        }
        Ok(rights)
    }

    /// An en passant square is plausible when a pawn of the side not to move stands in front
    /// of it and both it and the square behind it are empty.
    fn en_passant_is_plausible(&self, pos: &Position, ep: Square) -> bool {
        let (ep_rank, dir) = match self.turn {
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
        pos.pieces_of(!self.turn, PieceKind::Pawn).contains(pushed)
            && !occupied.contains(ep)
            && !occupied.contains(origin)
    }
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

/// The side and rook file a castling letter (lower-cased) names, when the king and that rook
/// stand where the right needs them.
fn resolve_castling_letter(pos: &Position, color: Color, letter: char, chess960: bool) -> Option<(CastlingSide, File)> {
    let rank = back_rank(color);
    let king = pos.king_square(color);
    if king.rank() != rank {
        return None;
    }
    let rooks = pos.pieces_of(color, PieceKind::Rook) & Bitboard::rank(rank);
    let has_rook = |file: File| rooks.contains(Square::new(file, rank));
    if !chess960 {
        // Standard chess: king on e1/e8, rooks on the corners; H/A are accepted for K/Q.
        let side = match letter {
            'k' | 'h' => CastlingSide::KingSide,
            'q' | 'a' => CastlingSide::QueenSide,
            _ => return None,
        };
        let file = side.standard_rook_file();
        return (king.file() == File::E && has_rook(file)).then_some((side, file));
    }
    let side_of = |file: File| if file > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
    match letter {
        'k' => rooks.iter().filter(|sq| sq.file() > king.file()).last().map(|sq| (CastlingSide::KingSide, sq.file())),
        'q' => rooks.iter().find(|sq| sq.file() < king.file()).map(|sq| (CastlingSide::QueenSide, sq.file())),
        c => {
            let file = File::from_char(c)?;
            (file != king.file() && has_rook(file)).then(|| (side_of(file), file))
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
        // An empty or space-holding component would shift the fields; name it directly.
        for (i, part) in parts.iter().enumerate() {
            let offset = parts[..i].iter().map(|p| p.len() + 1).sum::<usize>();
            if part.is_empty() || part.iter().copied().any(is_separator) {
                return Err(component_error(i, offset));
            }
        }
        // Joined on the stack (the C ABI's reader allocates nothing): a longer FEN is refused
        // anyway, as `parse_bytes` would.
        let length = parts.iter().map(|p| p.len()).sum::<usize>() + parts.len() - 1;
        if length > FEN_MAX_INPUT {
            return Err(FenError::TooLong { length });
        }
        let mut joined = [b' '; FEN_MAX_INPUT];
        let mut at = 0;
        for part in parts {
            joined[at..at + part.len()].copy_from_slice(part);
            at += part.len() + 1;
        }
        Ok(Fen::parse_bytes(&joined[..length])?.validate(&FenOptions::default())?.0)
    }

    /// Reads the first non-empty line of a `.fen` file, and no more of the file than that:
    /// at most [`FEN_FILE_MAX_BLANK`] bytes of blank lines before it (a file without a FEN
    /// there is `FenError::Empty`) and [`FEN_MAX_INPUT`] + 1 bytes of the line (a longer one is
    /// `FenError::TooLong`). A huge file, a device such as `/dev/zero` or a pipe cost bounded
    /// time and memory.
    pub fn from_fen_file(path: impl AsRef<Path>) -> Result<Position, FenFileError> {
        let path = path.as_ref();
        let file_error = |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::NotFound => FenFileError::NotFound(path.to_path_buf()),
            _ => FenFileError::Io { path: path.to_path_buf(), message: e.to_string() },
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
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0u8;
            for file in File::ALL {
                match self.piece_at(Square::new(file, rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.write_char((b'0' + empty) as char)?;
                            empty = 0;
                        }
                        out.write_char(piece.fen_char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.write_char((b'0' + empty) as char)?;
            }
            if rank != Rank::First {
                out.write_char('/')?;
            }
        }
        Ok(())
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
                        // K/Q name the outermost rook on that side; an inner rook needs its file.
                        let beyond = between(rook, Square::new(side.standard_rook_file(), rook.rank()))
                            .with(Square::new(side.standard_rook_file(), rook.rank()))
                            .without(rook);
                        if (beyond & self.pieces_of(color, PieceKind::Rook)).any() {
                            rook.file().to_char()
                        } else {
                            side_letter(side)
                        }
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

/// Splits a FEN into its six fields, filling absent clocks with `"0"` and `"1"`. The fields
/// are checked as [`Fen::parse`] checks them.
pub fn split(fen: &str) -> Result<[&str; 6], FenError> {
    Fen::parse(fen)?;
    let mut fields = ["", "", "", "", "0", "1"];
    for (slot, field) in
        fields.iter_mut().zip(fen.split([' ', '\t']).filter(|f| !f.trim_matches(['\r', '\n']).is_empty()))
    {
        *slot = field.trim_matches(['\r', '\n']);
    }
    Ok(fields)
}

/// Errors of [`Position::from_fen_file`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenFileError {
    #[error("file not found: {}", .0.display())]
    NotFound(PathBuf),
    #[error("cannot read {}: {message}", path.display())]
    Io { path: PathBuf, message: String },
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
    fn split_and_components() {
        assert_eq!(split("8/8/8/8/8/8/8/K6k w - -").unwrap(), ["8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"]);
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
}
