//! Moves in UCI notation: `e2e4`, `e7e8q`, `0000` for the null move, and castling as the
//! king's two-square move (`e1g1`) in standard chess or as the king taking its own rook
//! (`e1h1`) in Chess960.

use std::fmt;
use std::str::FromStr;

use crate::board::moves::{Coordinates, Move};
use crate::board::piece::PieceKind;
use crate::board::square::Square;
use crate::position::Position;

/// Why a UCI move was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UciError {
    /// Not of the form `<from><to>[promotion]` with two distinct squares, nor a drop
    /// `<piece>@<square>`, nor `0000`.
    #[error("invalid UCI move syntax")]
    Syntax,
    /// Well formed, but not a legal move in the position (in chess a drop such as `N@f3` never
    /// is).
    #[error("illegal move")]
    Illegal,
}

/// How UCI writes castling, which a [`Move`] encodes as the king taking its own rook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UciCastling {
    /// To the king's destination (`e1g1`, `e8c8`): standard chess.
    KingTwoSquares,
    /// To the rook's square (`e1h1`, `b1a1`): Chess960, and engines with `UCI_Chess960` on.
    KingTakesRook,
}

/// A move as UCI text spells it, not yet tied to a position: [`Uci::to_move`] finds the legal
/// move it names, [`Uci::from_move`] spells a move the way its position's mode wants.
///
/// `FromStr` checks the syntax (lower-case promotion letters, two distinct squares); `Display`
/// writes the text back.
///
/// # Examples
///
/// ```
/// use chesscore_core::{Position, Uci, UciError};
///
/// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
/// let castle = "e1g1".parse::<Uci>()?.to_move(&pos)?;
/// assert!(castle.is_castling());
/// assert_eq!(Uci::from_move(&pos, castle).to_string(), "e1g1");
///
/// // In Chess960 mode the same move is the king taking its rook.
/// let chess960 = Position::from_fen_chess960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
/// assert_eq!(Uci::from_move(&chess960, castle).to_string(), "e1h1");
///
/// assert_eq!("e1e1".parse::<Uci>(), Err(UciError::Syntax));
/// assert_eq!("e1e3".parse::<Uci>()?.to_move(&pos), Err(UciError::Illegal));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Uci {
    /// The piece on `from` moving to `to`, becoming `promotion` when set. Castling is a king
    /// move, to its destination or to its rook's square (see [`UciCastling`]).
    Normal {
        /// The origin square.
        from: Square,
        /// The destination square.
        to: Square,
        /// The promotion piece.
        promotion: Option<PieceKind>,
    },
    /// A drop (crazyhouse): `N@f3`, `P@e4` (the piece letter in upper case).
    Drop {
        /// The piece dropped, pawn to queen.
        piece: PieceKind,
        /// The square it lands on.
        to: Square,
    },
    /// The null move, `0000`.
    Null,
}

impl Uci {
    /// `mv` as the position's mode writes it: castling as the king's two-square move in
    /// standard chess, as king-takes-rook in Chess960 ([`Position::is_chess960`]).
    pub fn from_move(pos: &Position, mv: Move) -> Uci {
        let castling = if pos.is_chess960() { UciCastling::KingTakesRook } else { UciCastling::KingTwoSquares };
        Uci::from_move_with(mv, castling)
    }

    /// `mv` with castling written as `castling` says, whatever the position's mode.
    #[inline]
    pub fn from_move_with(mv: Move, castling: UciCastling) -> Uci {
        match mv.coordinates(castling == UciCastling::KingTakesRook) {
            Coordinates { squares: Some((_, to)), drop: Some(piece), .. } => Uci::Drop { piece, to },
            Coordinates { squares: Some((from, to)), promotion, .. } => Uci::Normal { from, to, promotion },
            Coordinates { squares: None, .. } => Uci::Null,
        }
    }

    /// The legal move of `pos` this names. Castling is accepted as king-takes-rook (`e1h1`)
    /// and, in standard chess only, as the king's two-square move (`e1g1`). [`Uci::Null`]
    /// gives [`Move::NULL`], which only null-move aware callers play.
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciError> {
        match *self {
            Uci::Null => Ok(Move::NULL),
            Uci::Drop { .. } => Err(UciError::Illegal),
            Uci::Normal { from, .. } => self.find_in(&pos.legal_moves_from(from), pos.is_chess960()),
        }
    }

    /// The move of `moves` (legal moves of one position) this names; castling also as the
    /// king's two-square move unless `chess960`.
    pub(crate) fn find_in(&self, moves: &[Move], chess960: bool) -> Result<Move, UciError> {
        let found = match *self {
            Uci::Null => return Ok(Move::NULL),
            Uci::Drop { piece, to } => moves.iter().find(|mv| mv.drop_piece() == Some(piece) && mv.to() == to),
            Uci::Normal { from, to, promotion } => moves.iter().find(|mv| {
                mv.from() == from
                    && !mv.is_drop()
                    && mv.promotion() == promotion
                    && (mv.to() == to || (!chess960 && mv.is_castling() && mv.king_destination() == to))
            }),
        };
        found.copied().ok_or(UciError::Illegal)
    }
}

impl FromStr for Uci {
    type Err = UciError;

    /// `<from><to>[promotion]` (`e2e4`, `e7e8q`), a drop (`N@f3`) or `0000`.
    fn from_str(text: &str) -> Result<Uci, UciError> {
        let bytes = text.as_bytes();
        if bytes == b"0000" {
            return Ok(Uci::Null);
        }
        if let [piece, b'@', square @ ..] = bytes {
            return match (PieceKind::from_char(*piece as char), Square::from_ascii(square)) {
                (Some(piece), Ok(to)) if bytes[0].is_ascii_uppercase() && piece != PieceKind::King => {
                    Ok(Uci::Drop { piece, to })
                }
                _ => Err(UciError::Syntax),
            };
        }
        let (squares, promotion) = match bytes {
            [squares @ .., letter] if bytes.len() == 5 && letter.is_ascii_lowercase() => {
                (squares, Some(PieceKind::from_char(*letter as char).ok_or(UciError::Syntax)?))
            }
            squares if bytes.len() == 4 => (squares, None),
            _ => return Err(UciError::Syntax),
        };
        let from = Square::from_ascii(&squares[0..2]).map_err(|_| UciError::Syntax)?;
        let to = Square::from_ascii(&squares[2..4]).map_err(|_| UciError::Syntax)?;
        if from == to {
            return Err(UciError::Syntax);
        }
        Ok(Uci::Normal { from, to, promotion })
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let coordinates = match *self {
            Uci::Null => Coordinates { squares: None, promotion: None, drop: None },
            Uci::Drop { piece, to } => Coordinates { squares: Some((to, to)), promotion: None, drop: Some(piece) },
            Uci::Normal { from, to, promotion } => Coordinates { squares: Some((from, to)), promotion, drop: None },
        };
        coordinates.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves::MoveKind;

    fn read(pos: &Position, text: &str) -> Result<Move, UciError> {
        text.parse::<Uci>()?.to_move(pos)
    }

    #[test]
    fn castling_both_forms() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let short = read(&pos, "e1g1").unwrap();
        assert!(short.is_castling());
        assert_eq!(read(&pos, "e1h1"), Ok(short));
        assert_eq!(Uci::from_move(&pos, short).to_string(), "e1g1");
        assert_eq!(Uci::from_move_with(short, UciCastling::KingTakesRook).to_string(), "e1h1");
        assert_eq!(Uci::from_move(&pos, read(&pos, "e1c1").unwrap()).to_string(), "e1c1");
        assert_eq!(read(&pos, "e1e1"), Err(UciError::Syntax));
        assert_eq!(read(&pos, "e1e3"), Err(UciError::Illegal));
        assert_eq!(read(&pos, "e1d1q"), Err(UciError::Illegal));
        assert_eq!(read(&pos, "E1D1"), Err(UciError::Syntax));
        assert_eq!(read(&pos, "0000"), Ok(Move::NULL));
        assert_eq!(read(&pos, "N@f3"), Err(UciError::Illegal));
        assert_eq!(read(&pos, "n@f3"), Err(UciError::Syntax));
        assert_eq!(read(&pos, "e1d1Q"), Err(UciError::Syntax));
        assert_eq!(read(&pos, "e1d1x"), Err(UciError::Syntax));
        assert_eq!(read(&pos, "e1d"), Err(UciError::Syntax));
        assert_eq!(read(&pos, ""), Err(UciError::Syntax));
    }

    #[test]
    fn chess960_reads_only_king_takes_rook() {
        let pos = Position::from_fen_chess960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let short = read(&pos, "e1h1").unwrap();
        assert!(short.is_castling());
        assert_eq!(Uci::from_move(&pos, short).to_string(), "e1h1");
        assert_eq!(read(&pos, "e1g1"), Err(UciError::Illegal));
    }

    #[test]
    fn writes_and_reads_back() {
        let promotion = Move::new(Square::E7, Square::E8, MoveKind::PromoteQueen);
        let uci = Uci::from_move_with(promotion, UciCastling::KingTwoSquares);
        assert_eq!(uci, Uci::Normal { from: Square::E7, to: Square::E8, promotion: Some(PieceKind::Queen) });
        assert_eq!(uci.to_string(), "e7e8q");
        assert_eq!("e7e8q".parse::<Uci>(), Ok(uci));
        assert_eq!(Uci::from_move_with(Move::NULL, UciCastling::KingTakesRook), Uci::Null);
        assert_eq!(Uci::Null.to_string(), "0000");
    }
}
