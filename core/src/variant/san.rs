//! SAN and UCI for variant moves, through the notation layer's list-based SAN.

use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::square::Square;
use crate::notation::san::{read_listed, San, SanBoard, SanError};
use crate::notation::uci::{Uci, UciCastling, UciError};
use crate::position::IllegalMoveError;

use super::{Variant, VariantPosition};

impl SanBoard for VariantPosition {
    fn kind_at(&self, sq: Square) -> Option<PieceKind> {
        self.board.kind_at(sq)
    }

    fn is_capture(&self, mv: Move) -> bool {
        !mv.is_drop() && (mv.is_en_passant() || self.color_occupancy(!self.turn()).contains(mv.to()))
    }

    fn suffix(&self, mv: Move) -> Option<u8> {
        let after = self.make_move(mv);
        let decisive = after
            .termination()
            .is_some_and(|t| matches!(t, crate::game::Termination::VariantWin | crate::game::Termination::VariantLoss));
        if decisive || after.is_checkmate() {
            Some(b'#')
        } else if after.is_check() {
            Some(b'+')
        } else {
            None
        }
    }
}

impl VariantPosition {
    /// The SAN of the legal move `mv`, with `+` for check and `#` for mate or any decisive
    /// variant ending; drops as `N@f3` and `@e4` for a pawn, as python-chess writes them.
    pub fn san(&self, mv: Move) -> Result<San, IllegalMoveError> {
        San::from_listed(self, &self.legal_moves(), mv, true)
    }

    /// The legal move SAN `text` names (lenient: suffixes and annotations optional; `P@e4`
    /// and `@e4` both drop a pawn).
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        read_listed(self, &self.legal_moves(), text.as_bytes(), self.variant == Variant::Chess960)
    }

    /// `mv` in UCI (drops as `P@e4`; castling king-takes-rook in Chess960 only).
    pub fn uci(&self, mv: Move) -> Uci {
        Uci::from_move_with(mv, self.uci_castling())
    }

    /// The legal move UCI `text` names.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        text.parse::<Uci>()?.find_in(&self.legal_moves(), self.variant == Variant::Chess960)
    }

    fn uci_castling(&self) -> UciCastling {
        if self.variant == Variant::Chess960 {
            UciCastling::KingTakesRook
        } else {
            UciCastling::KingTwoSquares
        }
    }
}
