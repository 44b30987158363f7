//! The validation of a setup into a position, shared by every reader (FEN, EPD, binary FEN):
//! kings, piece counts, checks, castling rights and the en passant square, each error placed in
//! the reader's input by a [`Site`].

use crate::board::attacks::line;
use crate::board::bitboard::Bitboard;
use crate::board::castling::{back_rank, CastlingRights, CastlingSide};
use crate::board::color::Color;
use crate::board::piece::PieceKind;
use crate::board::square::{File, Rank, Square};
use crate::position::Position;

use super::{FenError, FenOptions, FenRepairs, Repair};

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
pub(crate) fn en_passant_is_plausible(pos: &Position, ep: Square) -> bool {
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
