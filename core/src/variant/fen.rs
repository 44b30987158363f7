//! Variant FENs as python-chess and lichess write them: crazyhouse pockets (`[Qn]` after the
//! board, or lichess's ninth row `/Qn`) and promoted pieces (`Q~`), three-check counters as
//! remaining checks (`3+3` after the en passant square) or as checks given (lichess's `+2+1`
//! after the clocks).

use std::cell::Cell;
use std::fmt;

use arrayvec::ArrayVec;

use crate::board::bitboard::Bitboard;
use crate::board::castling::{back_rank, CastlingRights, CastlingSide};
use crate::board::color::Color;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{File, Rank, Square};
use crate::notation::fen::validate::en_passant_is_plausible;
use crate::notation::fen::write::write_board;
use crate::notation::fen::{CastlingNotation, Fen, FenError, FenOptions};
use crate::notation::setup::Setup;
use crate::position::Position;

use super::{Pocket, Variant, VariantPosition};

/// The longest variant FEN read: room for crazyhouse's pockets and promoted marks besides
/// the chess fields.
pub const VARIANT_FEN_MAX_INPUT: usize = 512;

/// Why a variant FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VariantFenError {
    /// The FEN's own fields are malformed (or, for chess and Chess960, the position invalid).
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A crazyhouse pocket with a character that is no piece letter (or a king, or more than
    /// 64 pieces of a kind), or a pocket in another variant.
    #[error("invalid pocket (only crazyhouse has one: piece letters, no king)")]
    Pocket,
    /// A three-check counter that is not `W+B` (remaining checks, 0 to 3) or `+W+B` (checks
    /// given).
    #[error("invalid three-check counter")]
    Checks,
    /// The variant wants another number of kings for this side.
    #[error("{variant} needs {needed} for {color:?}")]
    Kings {
        /// The variant.
        variant: Variant,
        /// The side.
        color: Color,
        /// What the variant needs, in words.
        needed: &'static str,
    },
    /// A pawn on the first or eighth rank (horde allows White's on the first).
    #[error("pawn on the back rank at {0}")]
    PawnOnBackRank(Square),
    /// The side not to move is in check (racing kings: either side is, checks being
    /// illegal there).
    #[error("a king is in check that no legal move could have left so")]
    OppositeCheck,
}

impl VariantPosition {
    /// Reads a FEN of `variant` in python-chess's or lichess's form (see the module
    /// documentation). Castling rights without their king and rook are dropped, as is an en
    /// passant square no double push could have left.
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantPosition};
    /// use chesscore_core::Color;
    ///
    /// let lichess = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +1+0";
    /// let pos = VariantPosition::from_fen(Variant::ThreeCheck, lichess)?;
    /// assert_eq!(pos.remaining_checks(Color::White), 2);
    /// assert_eq!(pos.to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+3 0 2");
    /// # Ok::<(), chesscore_core::variant::VariantFenError>(())
    /// ```
    pub fn from_fen(variant: Variant, fen: &str) -> Result<VariantPosition, VariantFenError> {
        // Read without allocating: the C API promises an error, not an abort, when memory runs
        // out. The chess fields are gathered into `text`, which the FEN reader then reads.
        if fen.len() > VARIANT_FEN_MAX_INPUT {
            return Err(FenError::TooLong { length: fen.len() }.into());
        }
        let field = |i: usize| fen.split_ascii_whitespace().nth(i);
        let mut checks = [3u8; 2];
        let mut counter_field = None;
        if variant == Variant::ThreeCheck {
            if let Some(given) = field(6).filter(|f| f.starts_with('+')) {
                let [w, b] = read_counter(&given[1..]).ok_or(VariantFenError::Checks)?;
                (checks, counter_field) = ([3 - w, 3 - b], Some(6));
            } else if let Some(remaining) = field(4).filter(|f| f.contains('+')) {
                (checks, counter_field) = (read_counter(remaining).ok_or(VariantFenError::Checks)?, Some(4));
            }
        }
        let (placement, pocket_text) = split_pocket(field(0).unwrap_or(""));
        if pocket_text.is_some() && variant != Variant::Crazyhouse {
            return Err(VariantFenError::Pocket);
        }
        let pockets = read_pockets(pocket_text.unwrap_or(""))?;
        let mut text = ArrayVec::<u8, VARIANT_FEN_MAX_INPUT>::new();
        let promoted = strip_promoted(placement, &mut text);
        for (i, part) in fen.split_ascii_whitespace().enumerate().skip(1) {
            if Some(i) != counter_field {
                // Shorter than the input: fits.
                let _ = text.try_push(b' ');
                let _ = text.try_extend_from_slice(part.as_bytes());
            }
        }
        let setup = Fen::parse_bytes(&text)?.into_setup();
        VariantPosition::validate(variant, setup, pockets, promoted, checks)
    }

    /// The position of `variant` a setup and the variant's extras describe, checked as
    /// [`VariantPosition::from_fen`] checks them (every reader goes through here).
    pub(super) fn validate(
        variant: Variant,
        setup: Setup,
        pockets: [Pocket; 2],
        promoted: Bitboard,
        checks: [u8; 2],
    ) -> Result<VariantPosition, VariantFenError> {
        if variant.is_chess() {
            let options = FenOptions { chess960: variant == Variant::Chess960, ..FenOptions::default() };
            let (board, _) = Position::from_setup(setup, &options)?;
            return Ok(VariantPosition::from_parts(board, variant, [Pocket::default(); 2], Bitboard::EMPTY, checks));
        }

        let mut board = Position::empty(setup.turn);
        for sq in Square::ALL {
            if let Some(piece) = setup.board[sq.index()] {
                board.put(sq, piece);
            }
        }
        check_kings(&board, variant)?;
        let horde_first_rank = if variant == Variant::Horde { Bitboard::rank(Rank::First) } else { Bitboard::EMPTY };
        let misplaced = board.pieces(PieceKind::Pawn)
            & Bitboard::BACK_RANKS
            & !(horde_first_rank & board.color_occupancy(Color::White));
        if let Some(sq) = misplaced.first() {
            return Err(VariantFenError::PawnOnBackRank(sq));
        }
        if variant != Variant::Antichess {
            board.set_castling(castling_rights(&board, setup.castling_rooks));
        }
        if let Some(ep) = setup.en_passant.filter(|&ep| en_passant_is_plausible(&board, ep)) {
            board.set_en_passant(Some(ep));
        }
        board.set_clocks(setup.halfmove_clock, setup.fullmove_number.max(1));
        board.finish_setup();
        let promoted = if variant == Variant::Crazyhouse { promoted & board.occupancy() } else { Bitboard::EMPTY };
        let pos = VariantPosition::from_parts(board, variant, pockets, promoted, checks);
        if pos.opposite_check() {
            return Err(VariantFenError::OppositeCheck);
        }
        Ok(pos)
    }

    pub(super) fn from_parts(
        board: Position,
        variant: Variant,
        pockets: [Pocket; 2],
        promoted: Bitboard,
        remaining_checks: [u8; 2],
    ) -> VariantPosition {
        let mut pos = VariantPosition { board, variant, pockets, promoted, remaining_checks };
        pos.forget_board_key();
        pos
    }

    /// The FEN in python-chess's form: crazyhouse's promoted pieces marked `~` and pockets in
    /// brackets (White's pieces, then Black's, queen to pawn), three-check's remaining checks
    /// after the en passant square, which is written only when an en passant capture is legal.
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(100);
        self.write_fen(&mut out).expect("writing to a String cannot fail");
        out
    }

    /// [`VariantPosition::to_fen`] into any writer, without allocating.
    pub fn write_fen<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        let mark = Cell::new(false);
        let mut marked = MarkPromoted { out: &mut *out, mark: &mark };
        write_board(&mut marked, |sq| self.board.piece_at(sq), |sq, _| mark.set(self.promoted.contains(sq)))?;
        if self.variant == Variant::Crazyhouse {
            out.write_char('[')?;
            for color in Color::ALL {
                for kind in [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight, PieceKind::Pawn] {
                    let letter = Piece { color, kind }.fen_char();
                    for _ in 0..self.pockets[color.index()].count(kind) {
                        out.write_char(letter)?;
                    }
                }
            }
            out.write_char(']')?;
        }
        write!(out, " {} ", self.turn().fen_char())?;
        self.board.write_castling(out, CastlingNotation::Auto)?;
        match self.legal_en_passant() {
            Some(sq) => write!(out, " {sq}")?,
            None => out.write_str(" -")?,
        }
        if self.variant == Variant::ThreeCheck {
            write!(out, " {}+{}", self.remaining_checks[0], self.remaining_checks[1])?;
        }
        write!(out, " {} {}", self.halfmove_clock(), self.fullmove_number())
    }

    /// The en passant square when a legal move captures there.
    pub fn legal_en_passant(&self) -> Option<Square> {
        let ep = self.board.en_passant()?;
        self.legal_moves().iter().any(|mv| mv.is_en_passant() && mv.to() == ep).then_some(ep)
    }
}

/// A writer that puts a `~` after the piece written once `mark` is set (the board writer tells
/// of each piece just before writing it).
struct MarkPromoted<'a, W> {
    out: &'a mut W,
    mark: &'a Cell<bool>,
}

impl<W: fmt::Write> fmt::Write for MarkPromoted<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.out.write_str(s)
    }

    fn write_char(&mut self, c: char) -> fmt::Result {
        self.out.write_char(c)?;
        if self.mark.take() && c.is_ascii_alphabetic() {
            self.out.write_char('~')?;
        }
        Ok(())
    }
}

/// `W+B`, each 0 to 3.
fn read_counter(text: &str) -> Option<[u8; 2]> {
    let (w, b) = text.split_once('+')?;
    let read = |s: &str| s.parse::<u8>().ok().filter(|&n| n <= 3);
    Some([read(w)?, read(b)?])
}

/// The placement without its pocket, and the pocket's text: `board[pocket]` or lichess's
/// ninth row `board/pocket`.
fn split_pocket(placement: &str) -> (&str, Option<&str>) {
    if let Some(inner) = placement.strip_suffix(']') {
        if let Some((board, pocket)) = inner.split_once('[') {
            return (board, Some(pocket));
        }
    }
    if placement.matches('/').count() == 8 {
        if let Some((board, pocket)) = placement.rsplit_once('/') {
            return (board, Some(pocket));
        }
    }
    (placement, None)
}

fn read_pockets(text: &str) -> Result<[Pocket; 2], VariantFenError> {
    let mut pockets = [Pocket::default(); 2];
    for c in text.chars() {
        let piece = Piece::from_fen_char(c).filter(|p| p.kind != PieceKind::King);
        if !piece.is_some_and(|p| pockets[p.color.index()].add(p.kind)) {
            return Err(VariantFenError::Pocket);
        }
    }
    Ok(pockets)
}

/// Writes the placement without its `~` marks into `text`; returns the squares of the marked
/// pieces.
fn strip_promoted(placement: &str, text: &mut ArrayVec<u8, VARIANT_FEN_MAX_INPUT>) -> Bitboard {
    let mut promoted = Bitboard::EMPTY;
    let (mut rank, mut file) = (7i32, 0i32);
    for c in placement.chars() {
        match c {
            '~' => {
                if let (Ok(r), Ok(f)) = (u8::try_from(rank), u8::try_from(file - 1)) {
                    if r < 8 && f < 8 {
                        promoted = promoted.with(Square::new(File::new(f), Rank::new(r)));
                    }
                }
                continue;
            }
            '/' => {
                rank -= 1;
                file = 0;
            }
            '1'..='8' => file += c as i32 - '0' as i32,
            _ => file += 1,
        }
        let mut bytes = [0; 4];
        // Shorter than the input: fits.
        let _ = text.try_extend_from_slice(c.encode_utf8(&mut bytes).as_bytes());
    }
    promoted
}

fn check_kings(board: &Position, variant: Variant) -> Result<(), VariantFenError> {
    for color in Color::ALL {
        let kings = board.pieces_of(color, PieceKind::King).count();
        let needed = match variant {
            Variant::Antichess => continue,
            Variant::Atomic if kings <= 1 => continue,
            Variant::Atomic => "at most one king",
            Variant::Horde if color == Color::White && kings == 0 => continue,
            Variant::Horde if color == Color::White => "no king",
            _ if kings == 1 => continue,
            _ => "exactly one king",
        };
        return Err(VariantFenError::Kings { variant, color, needed });
    }
    Ok(())
}

/// The rights of `rooks` whose king and rook stand where standard castling needs them (the
/// king on the e-file of its back rank, the rook in a corner of it); the others are dropped.
fn castling_rights(board: &Position, rooks: Bitboard) -> CastlingRights {
    let mut rights = CastlingRights::NONE;
    for color in Color::ALL {
        let rank = back_rank(color);
        let king = board.pieces_of(color, PieceKind::King);
        if king != Bitboard::from_square(Square::new(File::E, rank)) {
            continue;
        }
        for side in CastlingSide::ALL {
            let rook = Square::new(side.standard_rook_file(), rank);
            if rooks.contains(rook) && board.pieces_of(color, PieceKind::Rook).contains(rook) {
                rights.insert(color, side, rook.file());
            }
        }
    }
    rights
}
