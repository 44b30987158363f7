//! Piece edits the variants' rules make besides chess moves: drops, explosions and a pawn
//! promoting to a king. Each keeps the key, the castling rights and the piece codes consistent.

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::piece::Piece;
use crate::board::square::Square;
use crate::board::zobrist;

use super::Position;

impl Position {
    /// Puts `piece` on the empty square `sq` and passes the turn: a crazyhouse drop. The
    /// halfmove clock counts on (a drop is no capture nor pawn move) and the en passant
    /// square goes.
    pub(crate) fn play_drop(&mut self, piece: Piece, sq: Square) {
        let mut key = self.key ^ zobrist::white_to_move_key() ^ self.hashed_en_passant_key();
        self.ep = None;
        key ^= self.add(piece.color, piece.kind, sq);
        self.halfmove_clock = self.halfmove_clock.wrapping_add(1);
        self.fullmove_number = self.fullmove_number.wrapping_add((self.turn == Color::Black) as u32);
        self.turn = !self.turn;
        self.key = key;
    }

    /// Removes the piece on `sq`, if any, with the castling rights it carried (a rook with a
    /// right, or a king): what an atomic explosion does to each square it reaches.
    pub(crate) fn clear_square(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        let touched = Bitboard::from_square(sq);
        if (touched & self.castling_squares).any() {
            self.key ^= self.update_castling(touched);
        }
        self.key ^= self.remove(piece.color, piece.kind, sq);
        Some(piece)
    }

    /// Puts `piece` on `sq` in place of what stands there (antichess's promotion to a king,
    /// played as a queen promotion first).
    pub(crate) fn replace_piece(&mut self, sq: Square, piece: Piece) {
        if let Some(old) = self.piece_at(sq) {
            self.key ^= self.remove(old.color, old.kind, sq);
        }
        self.key ^= self.add(piece.color, piece.kind, sq);
    }
}
