//! How each variant's games end, checks, and which material can still win, as lichess rules
//! them and python-chess decides them.

use crate::board::attacks::king_attacks;
use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::piece::PieceKind;
use crate::board::square::Rank;
use crate::game::{Outcome, Termination};

use super::{Variant, VariantPosition};

/// d4, e4, d5 and e5: king of the hill's goal.
const CENTER: Bitboard = Bitboard(0x0000_0018_1800_0000);

impl VariantPosition {
    /// True when the variant's own rule has ended the game (an exploded king, a king on the
    /// hill, a third check, a side without pieces, a king on the eighth rank that Black cannot
    /// answer): there are no legal moves then.
    #[inline]
    pub fn is_variant_end(&self) -> bool {
        match self.variant {
            Variant::Chess | Variant::Chess960 | Variant::Crazyhouse => false,
            Variant::Atomic => Color::ALL.into_iter().any(|c| self.pieces_of(c, PieceKind::King).is_empty()),
            Variant::Antichess | Variant::Horde => Color::ALL.into_iter().any(|c| self.color_occupancy(c).is_empty()),
            Variant::KingOfTheHill => (self.board.pieces(PieceKind::King) & CENTER).any(),
            Variant::ThreeCheck => self.remaining_checks.contains(&0),
            Variant::RacingKings => self.racing_kings_end(),
        }
    }

    /// White has reached the eighth rank: over unless Black, to move, can still reach it with
    /// a king move onto a square White does not attack.
    fn racing_kings_end(&self) -> bool {
        let goal = Bitboard::rank(Rank::Eighth);
        if (self.board.pieces(PieceKind::King) & goal).is_empty() {
            return false;
        }
        let black_king = self.pieces_of(Color::Black, PieceKind::King);
        let Some(king) = black_king.first() else { return true };
        if self.turn() == Color::White || goal.contains(king) {
            return true;
        }
        let targets = king_attacks(king) & goal & !self.color_occupancy(Color::Black);
        targets.into_iter().all(|sq| self.board.attackers_with(sq, Color::White, self.occupancy()).any())
    }

    /// How the variant's own rule decides the ended game, from the side to move's view.
    fn variant_termination(&self) -> Option<(Outcome, Termination)> {
        let us = self.turn();
        let win = (Outcome::win_for(us), Termination::VariantWin);
        let loss = (Outcome::win_for(!us), Termination::VariantLoss);
        let draw = (Outcome::Draw, Termination::VariantDraw);
        if !self.is_variant_end() {
            // Antichess's stalemate is a win, checked with the moves below.
            if self.variant == Variant::Antichess && self.legal_moves().is_empty() {
                return Some(win);
            }
            return None;
        }
        let has = |c: Color, bb: Bitboard| (bb & self.color_occupancy(c)).any();
        let kings = self.board.pieces(PieceKind::King);
        // Where no rule below decides (no king left at all, a side to move that still has
        // pieces in antichess), the game ends as python-chess says: a stalemate.
        Some(match self.variant {
            Variant::Atomic if kings.is_empty() => return None,
            Variant::Atomic if has(us, kings) => win,
            Variant::Atomic => loss,
            Variant::Antichess if self.color_occupancy(us).is_empty() => win,
            Variant::Antichess => return None,
            Variant::Horde if self.color_occupancy(us).is_empty() => loss,
            Variant::Horde => win,
            Variant::KingOfTheHill if has(us, kings & CENTER) => win,
            Variant::ThreeCheck if self.remaining_checks == [0, 0] => draw,
            Variant::ThreeCheck if self.remaining_checks[us.index()] == 0 => win,
            Variant::RacingKings => {
                let goal = kings & Bitboard::rank(Rank::Eighth);
                match (has(us, goal), has(!us, goal)) {
                    (true, true) => draw,
                    (true, false) => win,
                    _ => loss,
                }
            }
            _ => loss,
        })
    }

    /// True when the side to move is in check (never in antichess, nor in atomic with the
    /// kings touching or a king gone).
    pub fn is_check(&self) -> bool {
        let us = self.turn();
        match self.variant {
            Variant::Antichess => false,
            Variant::Atomic => self.atomic_in_check(us),
            Variant::Horde if us == Color::White => false,
            _ => self.board.in_check(),
        }
    }

    /// Checkmate: in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.legal_moves().is_empty()
    }

    /// Stalemate: no legal move, not in check, and no variant ending reached (antichess
    /// counts it as a win: [`VariantPosition::termination`]).
    pub fn is_stalemate(&self) -> bool {
        !self.is_variant_end() && !self.is_check() && self.legal_moves().is_empty()
    }

    /// Why the game is over in this position, in python-chess's order: the variant's own
    /// rule, checkmate, insufficient material, stalemate, the seventy-five-move rule (not in
    /// crazyhouse). Repetitions need a game's history.
    pub fn termination(&self) -> Option<Termination> {
        self.decided().map(|(_, termination)| termination)
    }

    /// The result of this position: [`Outcome::Ongoing`] while [`VariantPosition::termination`]
    /// is `None`.
    pub fn outcome(&self) -> Outcome {
        self.decided().map_or(Outcome::Ongoing, |(outcome, _)| outcome)
    }

    pub(super) fn decided(&self) -> Option<(Outcome, Termination)> {
        if let Some(decided) = self.variant_termination() {
            return Some(decided);
        }
        let moves = self.legal_moves();
        if moves.is_empty() && self.is_check() {
            return Some((Outcome::win_for(!self.turn()), Termination::Checkmate));
        }
        if self.is_insufficient_material() {
            return Some((Outcome::Draw, Termination::InsufficientMaterial));
        }
        if moves.is_empty() {
            return Some((Outcome::Draw, Termination::Stalemate));
        }
        if self.variant != Variant::Crazyhouse && self.halfmove_clock() >= 150 {
            return Some((Outcome::Draw, Termination::SeventyFiveMoves));
        }
        None
    }

    /// True when neither side can win by the variant's rules with the material left.
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL.into_iter().all(|c| self.has_insufficient_material(c))
    }

    /// True when `color` cannot win with the material on the board (and in the pockets), as
    /// python-chess decides it per variant: `false` whenever a win remains possible.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        match self.variant {
            Variant::Chess | Variant::Chess960 => self.board.has_insufficient_material(color),
            Variant::KingOfTheHill | Variant::RacingKings => false,
            Variant::ThreeCheck => (self.color_occupancy(color) & !self.board.pieces(PieceKind::King)).is_empty(),
            Variant::Crazyhouse => self.crazyhouse_insufficient(),
            Variant::Atomic => self.atomic_insufficient(color),
            Variant::Antichess => self.antichess_insufficient(color),
            Variant::Horde => self.horde_insufficient(color),
        }
    }

    /// Only kings and at most one minor piece on the board and in the pockets together.
    fn crazyhouse_insufficient(&self) -> bool {
        let board = &self.board;
        let pockets = self.pockets;
        let in_pockets = |kind: PieceKind| pockets.iter().any(|p| p.count(kind) > 0);
        let heavy_or_pawn =
            board.pieces(PieceKind::Pawn) | board.pieces(PieceKind::Rook) | board.pieces(PieceKind::Queen);
        let effective_promoted = self.promoted & !board.pieces(PieceKind::King) & !board.pieces(PieceKind::Pawn);
        board.occupancy().count() + pockets.iter().map(|p| p.len()).sum::<u32>() <= 3
            && effective_promoted.is_empty()
            && heavy_or_pawn.is_empty()
            && ![PieceKind::Pawn, PieceKind::Rook, PieceKind::Queen].into_iter().any(in_pockets)
    }

    fn atomic_insufficient(&self, color: Color) -> bool {
        let board = &self.board;
        let kings = board.pieces(PieceKind::King);
        let ours = self.color_occupancy(color);
        let theirs = self.color_occupancy(!color);
        if (theirs & kings).is_empty() {
            return false;
        }
        if (ours & !kings).is_empty() {
            return true;
        }
        let bishops = board.pieces(PieceKind::Bishop);
        if (theirs & !kings).any() {
            // Their own pieces may explode next to their king, unless only bishops that
            // cannot meet remain.
            if board.occupancy() == bishops | kings {
                let white = bishops & self.color_occupancy(Color::White);
                let black = bishops & self.color_occupancy(Color::Black);
                if (white & Bitboard::DARK_SQUARES).is_empty() {
                    return (black & Bitboard::LIGHT_SQUARES).is_empty();
                }
                if (white & Bitboard::LIGHT_SQUARES).is_empty() {
                    return (black & Bitboard::DARK_SQUARES).is_empty();
                }
            }
            return false;
        }
        if (board.pieces(PieceKind::Queen) | board.pieces(PieceKind::Pawn)).any() {
            return false;
        }
        let knights = board.pieces(PieceKind::Knight);
        if (knights | bishops | board.pieces(PieceKind::Rook)).count() == 1 {
            return true;
        }
        if board.occupancy() == knights | kings {
            return knights.count() <= 2;
        }
        false
    }

    fn antichess_insufficient(&self, color: Color) -> bool {
        let board = &self.board;
        let ours = self.color_occupancy(color);
        let theirs = self.color_occupancy(!color);
        if ours.is_empty() {
            return false;
        }
        if theirs.is_empty() {
            return true;
        }
        if board.occupancy() == board.pieces(PieceKind::Bishop) {
            // Only bishops: ours can all be taken only if some stand on the colour theirs do.
            let some_light = (ours & Bitboard::LIGHT_SQUARES).any();
            let some_dark = (ours & Bitboard::DARK_SQUARES).any();
            let theirs_all_dark = (theirs & Bitboard::LIGHT_SQUARES).is_empty();
            let theirs_all_light = (theirs & Bitboard::DARK_SQUARES).is_empty();
            return (some_light && theirs_all_dark) || (some_dark && theirs_all_light);
        }
        let knights = board.pieces(PieceKind::Knight);
        if board.occupancy() == knights && knights.count() == 2 {
            // Two knights, one each: whether they can ever meet depends on the move parity.
            let white_light = (self.color_occupancy(Color::White) & Bitboard::LIGHT_SQUARES).any();
            let black_dark = (self.color_occupancy(Color::Black) & Bitboard::DARK_SQUARES).any();
            return (self.turn() == color) ^ white_light ^ black_dark;
        }
        false
    }

    /// The side not to move is in check: no position a legal move leads to (racing kings:
    /// neither side may be; antichess has no check).
    pub(super) fn opposite_check(&self) -> bool {
        let them = !self.turn();
        match self.variant {
            // python-chess allows it in atomic: a king may be left "in check" once the
            // enemy king has exploded.
            Variant::Antichess | Variant::Atomic => false,
            Variant::RacingKings => self.board.in_check() || self.king_attacked(them),
            Variant::Horde if them == Color::White => false,
            _ => self.king_attacked(them),
        }
    }

    fn king_attacked(&self, color: Color) -> bool {
        self.pieces_of(color, PieceKind::King)
            .into_iter()
            .any(|k| self.board.attackers_with(k, !color, self.occupancy()).any())
    }
}
