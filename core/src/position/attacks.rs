//! Who attacks a square, the checkers and the pinned pieces (the queries move generation and
//! make-move are built on), and the board queries built on the same tables: what one piece
//! attacks, and the line a pin holds a piece on (python-chess's `attacks` and `pin`).

use crate::board::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks, piece_attacks,
    rook_attacks, rook_rays, slider_attackers,
};
use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::piece::PieceKind;
use crate::board::square::Square;
use crate::position::{Position, COLORS};

impl Position {
    /// Pieces of `color` attacking `sq`, with the current occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, color: Color) -> Bitboard {
        self.attackers_with(sq, color, self.occupancy())
    }

    /// Pieces of `color` attacking `sq` if the occupied squares were `occupied`.
    #[inline(always)]
    pub(crate) fn attackers_with(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let queens = self.boards[PieceKind::Queen.index()];
        let diagonal = self.boards[PieceKind::Bishop.index()] | queens;
        let straight = self.boards[PieceKind::Rook.index()] | queens;
        ((knight_attacks(sq) & self.boards[PieceKind::Knight.index()])
            | (pawn_attacks(!color, sq) & self.boards[PieceKind::Pawn.index()])
            | (king_attacks(sq) & self.boards[PieceKind::King.index()])
            | (bishop_attacks(sq, occupied) & diagonal)
            | (rook_attacks(sq, occupied) & straight))
            & self.boards[COLORS + color.index()]
    }

    /// True when a piece of `by` attacks `sq`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.is_attacked_with(sq, by, self.occupancy())
    }

    /// True when a piece of `by` would attack `sq` if the occupied squares were `occupied`;
    /// stops at the first attacker found, testing the cheap leapers before the sliders.
    #[inline(always)]
    pub(crate) fn is_attacked_with(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.boards[COLORS + by.index()];
        let queens = self.boards[PieceKind::Queen.index()];
        (knight_attacks(sq) & self.boards[PieceKind::Knight.index()] & them).any()
            || (pawn_attacks(!by, sq) & self.boards[PieceKind::Pawn.index()] & them).any()
            || (king_attacks(sq) & self.boards[PieceKind::King.index()] & them).any()
            || (rook_attacks(sq, occupied) & (self.boards[PieceKind::Rook.index()] | queens) & them).any()
            || (bishop_attacks(sq, occupied) & (self.boards[PieceKind::Bishop.index()] | queens) & them).any()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_sparse(self.king_square(self.turn), !self.turn, self.occupancy())
    }

    /// [`Position::attackers_with`] for one square, without the magic tables: the sliders on
    /// the square's lines are few, and testing each one's path with the small between table
    /// keeps clear of the large magic tables, which often miss the cache when positions
    /// change at every call (reading games, unlike generating moves).
    #[inline]
    pub(crate) fn attackers_sparse(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let them = self.boards[COLORS + color.index()];
        let queens = self.boards[PieceKind::Queen.index()];
        let diagonal = (self.boards[PieceKind::Bishop.index()] | queens) & them;
        let straight = (self.boards[PieceKind::Rook.index()] | queens) & them;
        ((knight_attacks(sq) & self.boards[PieceKind::Knight.index()])
            | (pawn_attacks(!color, sq) & self.boards[PieceKind::Pawn.index()])
            | (king_attacks(sq) & self.boards[PieceKind::King.index()]))
            & them
            | slider_attackers(sq, occupied, diagonal, straight)
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Pieces of the side to move pinned to their king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned_of(self.turn)
    }

    /// Pieces of `color` pinned to their own king by an enemy slider.
    #[inline(always)]
    pub fn pinned_of(&self, color: Color) -> Bitboard {
        let king = self.king_square(color);
        let them = self.boards[COLORS + (!color).index()];
        let queens = self.boards[PieceKind::Queen.index()];
        let snipers = ((rook_rays(king) & (self.boards[PieceKind::Rook.index()] | queens))
            | (bishop_rays(king) & (self.boards[PieceKind::Bishop.index()] | queens)))
            & them;
        let occupied = self.occupancy();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.boards[COLORS + color.index()]
    }

    /// The squares the piece on `sq` attacks (its own pieces included, a slider stopping at the
    /// first piece in its way); empty when `sq` is empty. A pawn attacks its two diagonals.
    ///
    /// ```
    /// use chesscore_core::{Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.attacks_from(Square::G1).iter().collect::<Vec<_>>(), [Square::E2, Square::F3, Square::H3]);
    /// assert!(pos.attacks_from(Square::E4).is_empty());
    /// ```
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        let Some(piece) = self.piece_at(sq) else { return Bitboard::EMPTY };
        piece_attacks(piece, sq, self.occupancy())
    }

    /// When the piece of `color` on `sq` is pinned to its king, the whole line (edge to edge)
    /// through the king and the pinned piece, along which alone it may move; else `None`.
    ///
    /// ```
    /// use chesscore_core::{Color, Fen, FenOptions, Square};
    ///
    /// let pos = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1".parse::<Fen>()?.validate(&FenOptions::default())?.0;
    /// assert_eq!(pos.pin_line(Color::White, Square::E2).map(|line| line.count()), Some(8));
    /// assert_eq!(pos.pin_line(Color::Black, Square::E7), None);
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn pin_line(&self, color: Color, sq: Square) -> Option<Bitboard> {
        self.pinned_of(color).contains(sq).then(|| line(self.king_square(color), sq))
    }
}
