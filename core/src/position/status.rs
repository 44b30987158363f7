//! Game-ending conditions that depend on the position alone (repetition needs a history and
//! lives with games).

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::piece::PieceKind;
use crate::position::Position;

impl Position {
    /// The side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_moves()
    }

    /// The side to move is not in check and has no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_moves()
    }

    /// Neither side can ever checkmate: no pawns, rooks or queens, and either at most one
    /// minor piece on the board (K v K, K+N v K, K+B v K) or only bishops, all on squares of
    /// one colour. K+N v K+N and K+B v K+B on opposite colours are not dead (a mate is
    /// possible, if only with help), so they do not count.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen);
        if heavy.any() {
            return false;
        }
        let bishops = self.pieces(PieceKind::Bishop);
        let minors = self.pieces(PieceKind::Knight) | bishops;
        if minors.count() <= 1 {
            return true;
        }
        self.pieces(PieceKind::Knight).is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// True when `color` alone cannot checkmate, whatever the other side plays (a helpmate
    /// included): it has no pawn, rook or queen, and either no piece but its king, or one
    /// knight while the other side has nothing but its king and queens (no piece that could
    /// hem its own king in), or only bishops while every bishop on the board stands on squares
    /// of one colour and no knight or pawn is left. A game where this holds for the side out of
    /// time is drawn, not lost (FIDE 6.9).
    ///
    /// ```
    /// use chesscore_core::{Color, Position};
    ///
    /// let knight = Position::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1")?;
    /// assert!(knight.has_insufficient_material(Color::White));
    /// // A black rook could hem its king in: a knight can then mate.
    /// let against_rook = Position::from_fen("8/8/4k3/4r3/8/3NK3/8/8 w - - 0 1")?;
    /// assert!(!against_rook.has_insufficient_material(Color::White));
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let own = self.color_occupancy(color);
        let heavy = self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen);
        if (own & heavy).any() {
            return false;
        }
        if (own & self.pieces(PieceKind::Knight)).any() {
            let blockers =
                self.color_occupancy(!color) & !self.pieces(PieceKind::King) & !self.pieces(PieceKind::Queen);
            return own.count() <= 2 && blockers.is_empty();
        }
        let bishops = self.pieces(PieceKind::Bishop);
        if (own & bishops).any() {
            let one_colour =
                (bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty();
            return one_colour && (self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::Knight)).is_empty();
        }
        true
    }

    /// The halfmove clock has reached 100 and the game is not already over by mate or
    /// stalemate: a draw may be claimed.
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmove_clock() >= 100 && self.has_legal_moves()
    }

    /// A fifty-move draw may be claimed now or by announcing a move that brings the clock to
    /// 100 (a legal move that is neither a capture nor a pawn move, after which the game is
    /// not over).
    pub fn can_claim_fifty_moves(&self) -> bool {
        if self.is_fifty_moves() {
            return true;
        }
        if self.halfmove_clock() != 99 {
            return false;
        }
        self.legal_moves().iter().any(|&mv| {
            let after = self.make_move(mv);
            after.halfmove_clock() == 100 && after.has_legal_moves()
        })
    }

    /// The halfmove clock has reached 150 and the game is not already over by mate: the game
    /// is drawn automatically (FIDE's seventy-five-move rule).
    pub fn is_seventy_five_moves(&self) -> bool {
        self.halfmove_clock() >= 150 && !self.is_checkmate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn mate_and_stalemate() {
        let mate = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert!(mate.is_checkmate());
        assert!(!mate.is_stalemate());
        let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert!(stale.is_stalemate());
        assert!(!stale.is_checkmate());
        assert!(!Position::startpos().is_checkmate());
    }

    #[test]
    fn insufficient_material() {
        assert!(pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1").is_insufficient_material());
        assert!(pos("8/8/8/4k3/8/8/8/4KN2 w - - 0 1").is_insufficient_material());
        assert!(pos("8/8/8/4kb2/8/8/8/4K3 w - - 0 1").is_insufficient_material());
        // Bishops on one colour (f1 and c8 are both light).
        assert!(pos("2b5/8/8/4k3/8/8/8/4KB2 w - - 0 1").is_insufficient_material());
        assert!(!pos("1b6/8/8/4k3/8/8/8/4KB2 w - - 0 1").is_insufficient_material());
        assert!(!pos("1n6/8/8/4k3/8/8/8/4KN2 w - - 0 1").is_insufficient_material());
        assert!(!pos("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1").is_insufficient_material());
        assert!(!pos("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1").is_insufficient_material());
    }

    #[test]
    fn move_rules() {
        let p = pos("8/8/8/4k3/8/8/8/4K2R w - - 99 80");
        assert!(!p.is_fifty_moves());
        assert!(p.can_claim_fifty_moves());
        let p = pos("8/8/8/4k3/8/8/8/4K2R w - - 150 80");
        assert!(p.is_fifty_moves());
        assert!(p.is_seventy_five_moves());
    }
}
