//! The engine client's view of a variant position: `UCI_Variant`, the FEN in python-chess's
//! form and drops in UCI. Chess and Chess960 go through the chess position's own answers, so
//! an engine sees the same commands for them as for a [`Position`](crate::Position).

use crate::board::color::Color;
use crate::board::moves::Move;
use crate::engine::{sealed, EnginePosition};
use crate::notation::uci::UciError;

use super::VariantPosition;

impl sealed::Sealed for VariantPosition {}

impl EnginePosition for VariantPosition {
    fn uci_variant(&self) -> &'static str {
        self.variant.uci_name()
    }

    fn write_start(&self, out: &mut String) {
        match self.as_chess() {
            Some(board) => board.write_start(out),
            None => {
                out.push_str("fen ");
                out.push_str(&self.to_fen());
            }
        }
    }

    fn read_move(&self, text: &str) -> Result<Move, UciError> {
        match self.as_chess() {
            Some(board) => board.read_move(text),
            None => self.parse_uci(text),
        }
    }

    fn play(&mut self, mv: Move) {
        if mv.is_null() {
            // A pass changes no pocket or check count; in check it is refused and nothing moves.
            self.board.play_null();
            self.forget_board_key();
        } else {
            self.play_unchecked(mv);
        }
    }

    fn turn(&self) -> Color {
        VariantPosition::turn(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::board::moves::Move;
    use crate::engine::EnginePosition;
    use crate::variant::{Variant, VariantPosition};

    /// A pass (the engine client's null move) keeps the position equal to what its FEN gives:
    /// the board's key stays as the variant keeps it.
    #[test]
    fn a_pass_leaves_the_position_its_fen_gives() {
        for variant in [Variant::Horde, Variant::Crazyhouse, Variant::Chess] {
            let mut pos = VariantPosition::new(variant);
            EnginePosition::play(&mut pos, Move::NULL);
            let read = VariantPosition::from_fen(variant, &pos.to_fen()).unwrap();
            assert!(read == pos, "{variant}: {}", pos.to_fen());
            assert_eq!(pos.zobrist(), read.zobrist(), "{variant}");
        }
    }
}
