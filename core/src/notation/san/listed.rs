//! SAN against a list of legal moves: the writer and reader for the variants, whose
//! legality is not chess's and whose moves include drops and promotions to a king.

use crate::board::bitboard::Bitboard;
use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::square::Square;
use crate::notation::uci::Uci;
use crate::position::IllegalMoveError;

use super::parse::{parse_syntax, Body, Parsed};
use super::{San, SanError};

/// What SAN needs of a position besides its legal moves.
pub(crate) trait SanBoard {
    /// The kind of the piece on `sq`.
    fn kind_at(&self, sq: Square) -> Option<PieceKind>;
    /// True when `mv` takes a piece (en passant included).
    fn is_capture(&self, mv: Move) -> bool;
    /// The suffix the legal move `mv` earns: `#` for mate or a decisive variant ending, `+`
    /// for check, or none.
    fn suffix(&self, mv: Move) -> Option<u8>;
}

impl San {
    /// The SAN of `mv`, one of `moves` (all the legal moves of `board`).
    pub(crate) fn from_listed(
        board: &impl SanBoard,
        moves: &[Move],
        mv: Move,
        suffix: bool,
    ) -> Result<San, IllegalMoveError> {
        if mv.is_null() || !moves.contains(&mv) {
            return Err(IllegalMoveError(mv));
        }
        let (from, to) = (mv.from(), mv.to());
        let mut san = San::new(Body::Null);
        if let Some(piece) = mv.drop_piece() {
            if piece != PieceKind::Pawn {
                san.push(piece.char_upper() as u8);
            }
            san.push(b'@');
            san.push_square(to);
            san.body = Body::Drop(piece, to);
        } else if let Some(side) = mv.castling_side() {
            san.push_str(if side == crate::board::castling::CastlingSide::KingSide { b"O-O" } else { b"O-O-O" });
            san.body = Body::Castle(side);
        } else {
            let kind = board.kind_at(from).unwrap_or(PieceKind::Pawn);
            let others = moves
                .iter()
                .filter(|m| {
                    m.to() == to
                        && m.from() != from
                        && !m.is_drop()
                        && !m.is_castling()
                        && board.kind_at(m.from()) == Some(kind)
                })
                .fold(Bitboard::EMPTY, |others, m| others.with(m.from()));
            san.write_move(mv, kind, board.is_capture(mv), others);
        }
        if let Some(sign) = suffix.then(|| board.suffix(mv)).flatten() {
            san.push(sign);
        }
        Ok(san)
    }
}

/// The move of `moves` (the legal moves of `board`) that SAN `text` names, read leniently.
pub(crate) fn read_listed(
    board: &impl SanBoard,
    moves: &[Move],
    text: &[u8],
    chess960: bool,
) -> Result<Move, SanError> {
    let body = parse_syntax(text)?;
    if let Body::Normal(Parsed { piece: None, file: Some(file), rank: Some(rank), to, promotion }) = body {
        // `g1f3`: whatever stands on the origin moves, read as UCI (as the chess reader does).
        let uci = Uci::Normal { from: Square::new(file, rank), to, promotion };
        return Ok(uci.find_in(moves, chess960)?);
    }
    let named = |m: &Move| match body {
        Body::Null => false,
        Body::Drop(piece, to) => m.drop_piece() == Some(piece) && m.to() == to,
        Body::Castle(side) => m.castling_side() == Some(side),
        Body::Normal(p) => {
            let from = m.from();
            let kind = p.piece.unwrap_or(PieceKind::Pawn);
            !m.is_drop()
                && !m.is_castling()
                && m.to() == p.to
                && board.kind_at(from) == Some(kind)
                && m.promotion() == p.promotion
                && p.file.is_none_or(|f| from.file() == f)
                && p.rank.is_none_or(|r| from.rank() == r)
                // A pawn moving to another file is a capture, which names its file.
                && (kind != PieceKind::Pawn || p.file.is_some() || from.file() == p.to.file())
        }
    };
    let mut found = moves.iter().copied().filter(named);
    match (found.next(), found.next()) {
        (Some(mv), None) => Ok(mv),
        (None, _) => Err(SanError::Illegal),
        (Some(_), Some(_)) => Err(SanError::Ambiguous),
    }
}
