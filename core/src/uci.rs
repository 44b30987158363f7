//! Reading moves in UCI notation (`e2e4`, `e7e8q`, `e1g1` or `e1h1` for castling, `0000`).

use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;

/// Why a UCI move was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// Not of the form `<from><to>[promotion]` with two distinct squares.
    #[error("invalid UCI move syntax")]
    Syntax,
    /// Well formed, but not a legal move in the position.
    #[error("illegal move")]
    Illegal,
}

impl Position {
    /// `mv` in UCI as this position's convention writes it: castling as the king's two-square
    /// move in standard chess, as king-takes-rook in Chess960.
    pub fn uci(&self, mv: Move) -> String {
        if self.is_chess960() {
            mv.to_uci_chess960()
        } else {
            mv.to_uci()
        }
    }

    /// Reads a UCI move and finds the legal move it names. Castling is accepted as the king's
    /// two-square move (`e1g1`, standard chess only) and as king-takes-rook (`e1h1`). `0000`
    /// gives [`Move::NULL`], which only null-move aware callers play.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        let bytes = text.as_bytes();
        if bytes == b"0000" {
            return Ok(Move::NULL);
        }
        if bytes.len() == 4 && bytes[1] == b'@' {
            // A drop (crazyhouse notation): well formed, never legal here.
            return match (PieceKind::from_char(bytes[0] as char), Square::from_ascii(&bytes[2..4])) {
                (Some(_), Ok(_)) if bytes[0].is_ascii_uppercase() => Err(UciError::Illegal),
                _ => Err(UciError::Syntax),
            };
        }
        if bytes.len() != 4 && bytes.len() != 5 {
            return Err(UciError::Syntax);
        }
        let from = Square::from_ascii(&bytes[0..2]).map_err(|_| UciError::Syntax)?;
        let to = Square::from_ascii(&bytes[2..4]).map_err(|_| UciError::Syntax)?;
        if from == to {
            return Err(UciError::Syntax);
        }
        let promotion = match bytes.get(4) {
            None => None,
            Some(&c) if c.is_ascii_lowercase() => Some(PieceKind::from_char(c as char).ok_or(UciError::Syntax)?),
            Some(_) => return Err(UciError::Syntax),
        };
        let chess960 = self.is_chess960();
        self.legal_moves_from(from)
            .iter()
            .copied()
            .find(|mv| {
                mv.promotion() == promotion
                    && (mv.to() == to || (!chess960 && mv.is_castling() && mv.king_destination() == to))
            })
            .ok_or(UciError::Illegal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_both_forms() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let short = pos.parse_uci("e1g1").unwrap();
        assert!(short.is_castling());
        assert_eq!(pos.parse_uci("e1h1"), Ok(short));
        assert_eq!(short.to_uci(), "e1g1");
        assert_eq!(pos.parse_uci("e1c1").unwrap().to_uci(), "e1c1");
        assert_eq!(pos.parse_uci("e1e1"), Err(UciError::Syntax));
        assert_eq!(pos.parse_uci("e1e3"), Err(UciError::Illegal));
        assert_eq!(pos.parse_uci("e1d1q"), Err(UciError::Illegal));
        assert_eq!(pos.parse_uci("E1D1"), Err(UciError::Syntax));
        assert_eq!(pos.parse_uci("0000"), Ok(Move::NULL));
        assert_eq!(pos.parse_uci("N@f3"), Err(UciError::Illegal));
    }
}
