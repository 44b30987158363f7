//! Horde's insufficient material: when White's few remaining pieces can no longer mate
//! Black's king, whatever Black keeps to block its own king's flight squares.
//!
//! The cases follow the published analysis of horde endings (stevepapazis's
//! horde-insufficient-material tests), which python-chess and lichess apply: White is given
//! the benefit of the doubt wherever Black's material could build a mating net around its own
//! king.

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::piece::{Piece, PieceKind};

use super::VariantPosition;

/// Piece counts of one side, bishops split by square colour.
#[derive(Clone, Copy)]
struct Army {
    pawns: u32,
    knights: u32,
    bishops: u32,
    rooks: u32,
    queens: u32,
    light_bishops: u32,
    dark_bishops: u32,
    total: u32,
}

impl Army {
    fn of(pos: &VariantPosition, color: Color) -> Army {
        let count = |kind| pos.pieces_of(color, kind).count();
        let bishops = pos.pieces_of(color, PieceKind::Bishop);
        Army {
            pawns: count(PieceKind::Pawn),
            knights: count(PieceKind::Knight),
            bishops: bishops.count(),
            rooks: count(PieceKind::Rook),
            queens: count(PieceKind::Queen),
            light_bishops: (bishops & Bitboard::LIGHT_SQUARES).count(),
            dark_bishops: (bishops & Bitboard::DARK_SQUARES).count(),
            total: pos.color_occupancy(color).count(),
        }
    }

    fn has_bishop_pair(&self) -> bool {
        self.light_bishops >= 1 && self.dark_bishops >= 1
    }
}

impl VariantPosition {
    pub(super) fn horde_insufficient(&self, color: Color) -> bool {
        // The side with the king can always take the whole horde.
        if color == Color::Black {
            return false;
        }
        let horde = Army::of(self, Color::White);
        let black = Army::of(self, Color::Black);
        // Two bishops of one colour cover all its squares around a king; more add nothing.
        let units = horde.pawns
            + horde.knights
            + horde.rooks
            + horde.queens
            + horde.light_bishops.min(2)
            + horde.dark_bishops.min(2);
        // Black's bishops on the horde bishops' square colour, and on the other one.
        let horde_on_light = horde.light_bishops >= 1;
        let (black_same, black_opposite) = if horde_on_light {
            (black.light_bishops, black.dark_bishops)
        } else {
            (black.dark_bishops, black.light_bishops)
        };
        let black_besides = |n: u32| black.total - n;

        if units == 0 {
            return true;
        }
        if units >= 4 || ((horde.pawns >= 1 || horde.queens >= 1) && units >= 2) {
            return false;
        }
        if horde.rooks >= 1 && units >= 2 {
            // Only a rook and a bishop against a king alone (but for pieces of the bishop's
            // colour) cannot mate.
            let rook_and_bishop_alone =
                units == 2 && horde.rooks == 1 && horde.bishops == 1 && black_besides(black_same) == 1;
            if !rook_and_bishop_alone {
                return false;
            }
        }
        match units {
            1 if black.total == 1 => true,
            1 if horde.queens == 1 => {
                !(black.pawns >= 1 || black.rooks >= 1 || black.light_bishops >= 2 || black.dark_bishops >= 2)
            }
            1 if horde.pawns == 1 => {
                // The pawn's future: insufficient only if neither a queen nor a knight could mate.
                let pawn = self.pieces_of(Color::White, PieceKind::Pawn).first().expect("one pawn");
                [PieceKind::Queen, PieceKind::Knight].into_iter().all(|kind| {
                    let mut promoted = *self;
                    promoted.board.replace_piece(pawn, Piece { color: Color::White, kind });
                    promoted.horde_insufficient(Color::White)
                })
            }
            1 if horde.rooks == 1 => {
                !(black.pawns >= 2
                    || (black.rooks >= 1 && black.pawns >= 1)
                    || (black.rooks >= 1 && black.knights >= 1)
                    || (black.pawns >= 1 && black.knights >= 1))
            }
            1 if horde.bishops == 1 => {
                !(black_opposite >= 2 || (black_opposite >= 1 && black.pawns >= 1) || black.pawns >= 2)
            }
            1 if horde.knights == 1 => {
                let blockers = black.knights >= 2
                    || black.pawns >= 2
                    || (black.rooks >= 1 && black.knights >= 1)
                    || (black.rooks >= 1 && black.bishops >= 1)
                    || (black.knights >= 1 && black.bishops >= 1)
                    || (black.rooks >= 1 && black.pawns >= 1)
                    || (black.knights >= 1 && black.pawns >= 1)
                    || (black.bishops >= 1 && black.pawns >= 1)
                    || (black.has_bishop_pair() && black.pawns >= 1);
                let dark_ok = black.dark_bishops < 2 || black_besides(black.dark_bishops) >= 3;
                let light_ok = black.light_bishops < 2 || black_besides(black.light_bishops) >= 3;
                !(black.total >= 4 && blockers && dark_ok && light_ok)
            }
            2 if black.total == 1 => true,
            2 if horde.knights == 2 => black.pawns + black.bishops + black.knights == 0,
            2 if horde.has_bishop_pair() => {
                !(black.pawns >= 1 || black.bishops >= 1 || (black.knights >= 1 && black.rooks + black.queens >= 1))
            }
            2 if horde.bishops >= 1 && horde.knights >= 1 => {
                !(black.pawns >= 1 || black_opposite >= 1 || black_besides(black_same) >= 3)
            }
            2 => {
                // Two bishops on one colour: Black must block the other colour's squares with
                // two of its pawns, knights and bishops of that colour.
                let blockers = [black.pawns, black_opposite, black.knights];
                blockers.iter().sum::<u32>() < 2
            }
            3 if (horde.knights == 2 && horde.bishops == 1) || horde.knights == 3 || horde.has_bishop_pair() => false,
            // Two bishops of one colour and a knight mate only when Black has a piece to
            // waste a tempo with.
            3 => black.total == 1,
            _ => true,
        }
    }
}
