//! What a program asks of a variant position besides its legal moves and endings: the
//! pseudo-legal moves, checkers, pins, whether a move can never be undone, the fifty- and
//! seventy-five-move rules, python-chess's status flags, and the mirror image. python-chess's definitions are followed (its variant boards answer these too).

use crate::board::attacks::{between, bishop_attacks, king_attacks, line, rook_attacks};
use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{Rank, Square};
use crate::notation::setup::SetupStatus;

use super::{Pocket, Variant, VariantFenError, VariantMoveList, VariantPosition};

impl VariantPosition {
    /// The moves the pieces' rules allow the side to move, whether or not they leave its king
    /// attacked or the variant forbids them (antichess's compulsory captures, racing kings'
    /// checks), even once the game is over; crazyhouse adds its drops: each piece of the
    /// pocket on each empty square, pawns not on the back ranks. The legal moves are among
    /// them.
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantPosition};
    ///
    /// // In antichess a capture is compulsory, but the other moves remain pseudo-legal.
    /// let pos = VariantPosition::from_fen(Variant::Antichess, "8/8/8/3p4/4P3/8/8/8 w - - 0 1")?;
    /// assert_eq!((pos.legal_moves().len(), pos.pseudo_legal_moves().len()), (1, 2));
    /// # Ok::<(), chesscore_core::variant::VariantFenError>(())
    /// ```
    pub fn pseudo_legal_moves(&self) -> VariantMoveList {
        let mut out = VariantMoveList::default();
        match self.variant {
            // Boards with any number of kings: the generator that assumes nothing about them.
            Variant::Atomic | Variant::Antichess | Variant::Horde => self.pseudo_legal(&mut out),
            _ => {
                for &mv in self.board.pseudo_legal_moves().iter() {
                    out.push(mv);
                }
            }
        }
        if self.variant == Variant::Crazyhouse {
            let pocket = self.pocket(self.turn());
            let empty = !self.occupancy();
            for kind in Pocket::KINDS.into_iter().filter(|&kind| pocket.count(kind) > 0) {
                let squares = if kind == PieceKind::Pawn { empty & !Bitboard::BACK_RANKS } else { empty };
                for to in squares {
                    if let Some(mv) = Move::drop(kind, to) {
                        out.push(mv);
                    }
                }
            }
        }
        out
    }

    /// True when `mv` is one of [`VariantPosition::pseudo_legal_moves`].
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        !mv.is_null() && self.pseudo_legal_moves().contains(&mv)
    }

    /// The pieces of the side not to move that attack the king of the side to move: none when
    /// it has no king or several (horde's White, antichess, where the king is an ordinary
    /// piece), and none in atomic while the kings touch (no capture can take a king then).
    pub fn checkers(&self) -> Bitboard {
        let us = self.turn();
        let Some(king) = self.single_king(us) else { return Bitboard::EMPTY };
        let touching = (king_attacks(king) & self.pieces_of(!us, PieceKind::King)).any();
        if self.variant == Variant::Antichess || (self.variant == Variant::Atomic && touching) {
            return Bitboard::EMPTY;
        }
        self.board.attackers_to(king, !us)
    }

    /// When the piece on `sq` stands alone between `color`'s king and an enemy rook, bishop or
    /// queen on a line, that whole line (edge to edge); else `None`. A king in antichess is an
    /// ordinary piece: nothing is pinned to it. A side with no king or several has no pins.
    pub fn pin_line(&self, color: Color, sq: Square) -> Option<Bitboard> {
        let king = self.single_king(color).filter(|_| self.variant != Variant::Antichess)?;
        let queens = self.pieces_of(!color, PieceKind::Queen);
        let straight = rook_attacks(king, Bitboard::EMPTY) & (self.pieces_of(!color, PieceKind::Rook) | queens);
        let diagonal = bishop_attacks(king, Bitboard::EMPTY) & (self.pieces_of(!color, PieceKind::Bishop) | queens);
        let alone = Bitboard::from_square(sq);
        (straight | diagonal)
            .into_iter()
            .find(|&sniper| between(sniper, king) & self.occupancy() == alone)
            .map(|sniper| line(king, sniper))
    }

    /// True when no sequence of moves after the legal move `mv` (or the null move) can bring
    /// back this position or one before it: `mv` moves a pawn or captures, takes away a
    /// castling right, or an en passant capture is possible now; in three-check a check
    /// counts too, in crazyhouse only castling rights do (captured pieces and pawns come back
    /// as drops). False for a move that is not legal.
    pub fn is_irreversible(&self, mv: Move) -> bool {
        let is_crazyhouse = self.variant == Variant::Crazyhouse;
        if mv.is_null() {
            return !is_crazyhouse && self.legal_en_passant().is_some();
        }
        if !self.is_legal(mv) {
            return false;
        }
        let after = self.make_move(mv);
        let rooks = |pos: &VariantPosition| pos.to_setup().castling_rooks;
        if (rooks(self) & !rooks(&after)).any() {
            return true;
        }
        if is_crazyhouse {
            return false;
        }
        let zeroing = !mv.is_drop()
            && (self.board.pieces(PieceKind::Pawn).contains(mv.from())
                || self.color_occupancy(!self.turn()).contains(mv.to()));
        zeroing || self.legal_en_passant().is_some() || (self.variant == Variant::ThreeCheck && after.is_check())
    }

    /// The position with the board flipped top to bottom, the colours swapped and the other
    /// side to move, the pockets and remaining checks swapped with them. An error when the
    /// image is no position of the variant (horde's pawns must be White's).
    pub fn mirror(&self) -> Result<VariantPosition, VariantFenError> {
        let mut setup = self.to_setup();
        let board = setup.board;
        for sq in Square::ALL {
            setup.board[sq.flip_vertical().index()] =
                board[sq.index()].map(|piece| Piece::new(!piece.color, piece.kind));
        }
        setup.turn = !setup.turn;
        setup.castling_rooks = flip(setup.castling_rooks);
        setup.en_passant = setup.en_passant.map(Square::flip_vertical);
        let [white, black] = self.remaining_checks;
        VariantPosition::validate(
            self.variant,
            setup,
            [self.pockets[1], self.pockets[0]],
            flip(self.promoted),
            [black, white],
        )
    }

    /// True when fifty moves (100 plies) have passed without a capture or a pawn move and the
    /// game goes on: a draw either side may claim. Never in crazyhouse, whose pieces come back.
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmoves_passed(100)
    }

    /// True when seventy-five moves (150 plies) have passed without a capture or a pawn move
    /// and a move could still be played: the game is drawn. Never in crazyhouse.
    pub fn is_seventy_five_moves(&self) -> bool {
        self.halfmoves_passed(150)
    }

    /// A fifty-move draw may be claimed now, or by announcing a legal move after which
    /// [`VariantPosition::is_fifty_moves`] holds.
    pub fn can_claim_fifty_moves(&self) -> bool {
        self.is_fifty_moves()
            || (self.halfmove_clock() >= 99 && self.legal_moves().iter().any(|&mv| self.make_move(mv).is_fifty_moves()))
    }

    fn halfmoves_passed(&self, plies: u32) -> bool {
        self.variant != Variant::Crazyhouse && self.halfmove_clock() >= plies && self.legal_move_count() > 0
    }

    /// What python-chess's variant board would find wrong with this position: its
    /// `status()` flags. The library holds only positions it can play, but python-chess is
    /// stricter in places (more than 16 pieces a side, a racing kings race already over or
    /// with extra material, an en passant square no capture could use).
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantPosition};
    /// use chesscore_core::SetupStatus;
    ///
    /// let pos = VariantPosition::from_fen(Variant::RacingKings, "3krQK1/8/8/8/1q6/3B1N2/1b6/1R4R1 b - - 0 1")?;
    /// assert_eq!(pos.status(), SetupStatus::RACE_OVER);
    /// assert!(VariantPosition::new(Variant::Horde).status().is_empty());
    /// # Ok::<(), chesscore_core::variant::VariantFenError>(())
    /// ```
    pub fn status(&self) -> SetupStatus {
        let setup = self.to_setup();
        let checks = SetupStatus::TOO_MANY_CHECKERS | SetupStatus::IMPOSSIBLE_CHECK;
        let mut status = setup.status(false);
        // The chess flags about checks, read with the variant's checkers.
        let checkers = self.checkers();
        if checkers.is_empty() {
            status = status.without(checks);
        }
        let white = self.color_occupancy(Color::White);
        let pawns = self.board.pieces(PieceKind::Pawn);
        match self.variant {
            Variant::Antichess => {
                status = status.without(
                    SetupStatus::NO_WHITE_KING
                        | SetupStatus::NO_BLACK_KING
                        | SetupStatus::TOO_MANY_KINGS
                        | SetupStatus::OPPOSITE_CHECK,
                )
            }
            Variant::Atomic => {
                let no_king =
                    if self.turn() == Color::White { SetupStatus::NO_WHITE_KING } else { SetupStatus::NO_BLACK_KING };
                status = status.without(SetupStatus::OPPOSITE_CHECK | no_king);
                if checkers.count() <= 14 {
                    status = status.without(SetupStatus::TOO_MANY_CHECKERS);
                }
                if setup.valid_en_passant().is_none() {
                    status = status.without(SetupStatus::IMPOSSIBLE_CHECK);
                }
            }
            Variant::Horde => {
                status = status.without(SetupStatus::NO_WHITE_KING);
                if white.count() <= 36 {
                    status = status.without(SetupStatus::TOO_MANY_WHITE_PIECES | SetupStatus::TOO_MANY_WHITE_PAWNS);
                }
                let black_pawns = pawns & self.color_occupancy(Color::Black);
                if !(pawns & Bitboard::rank(Rank::Eighth)).any() && !(black_pawns & Bitboard::rank(Rank::First)).any() {
                    status = status.without(SetupStatus::PAWNS_ON_BACKRANK);
                }
                if (white & self.board.pieces(PieceKind::King)).any() {
                    status |= SetupStatus::TOO_MANY_KINGS;
                }
            }
            Variant::Crazyhouse => {
                let pocketed = |kind: Option<PieceKind>| {
                    Color::ALL
                        .into_iter()
                        .map(|c| kind.map_or(self.pocket(c).len(), |k| u32::from(self.pocket(c).count(k))))
                        .sum::<u32>()
                };
                if pawns.count() + pocketed(Some(PieceKind::Pawn)) <= 16 {
                    status = status.without(SetupStatus::TOO_MANY_WHITE_PAWNS | SetupStatus::TOO_MANY_BLACK_PAWNS);
                }
                if self.occupancy().count() + pocketed(None) <= 32 {
                    status = status.without(SetupStatus::TOO_MANY_WHITE_PIECES | SetupStatus::TOO_MANY_BLACK_PIECES);
                }
            }
            Variant::RacingKings => {
                if self.is_check() {
                    status |= SetupStatus::RACE_CHECK | checks;
                }
                let kings_home = Color::ALL
                    .into_iter()
                    .all(|c| (self.pieces_of(c, PieceKind::King) & Bitboard::rank(Rank::Eighth)).any());
                if self.turn() == Color::Black && kings_home {
                    status |= SetupStatus::RACE_OVER;
                }
                let most =
                    [(PieceKind::Knight, 2), (PieceKind::Bishop, 2), (PieceKind::Rook, 2), (PieceKind::Queen, 1)];
                let extra = Color::ALL
                    .into_iter()
                    .any(|c| most.into_iter().any(|(kind, n)| self.pieces_of(c, kind).count() > n));
                if pawns.any() || extra {
                    status |= SetupStatus::RACE_MATERIAL;
                }
            }
            _ => {}
        }
        status
    }

    /// `color`'s king when it has exactly one.
    fn single_king(&self, color: Color) -> Option<Square> {
        let kings = self.pieces_of(color, PieceKind::King);
        kings.first().filter(|_| !kings.more_than_one())
    }
}

/// The squares flipped top to bottom.
fn flip(squares: Bitboard) -> Bitboard {
    Bitboard(squares.0.swap_bytes())
}
