//! What a search asks about a move before playing it: whether it gives check, and its static
//! exchange value; and the attack maps behind them.

use crate::board::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks, reaching_squares,
    rook_attacks, rook_rays,
};
use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::moves::{Move, MoveKind};
use crate::board::piece::PieceKind;
use crate::board::square::Square;
use crate::position::Position;

/// The piece values of [`Position::see`], in centipawns, indexed by [`PieceKind::index`]. The
/// king's value never counts: it only recaptures when it cannot be taken back.
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

#[inline(always)]
fn see_value(kind: PieceKind) -> i32 {
    SEE_VALUES[kind.index()]
}

/// Squares attacked by a piece of `kind` and `color` on `sq`, given the occupied squares.
#[inline(always)]
fn piece_attacks(color: Color, kind: PieceKind, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(color, sq),
        PieceKind::Knight => knight_attacks(sq),
        PieceKind::Bishop => bishop_attacks(sq, occupied),
        PieceKind::Rook => rook_attacks(sq, occupied),
        PieceKind::Queen => queen_attacks(sq, occupied),
        PieceKind::King => king_attacks(sq),
    }
}

impl Position {
    /// Every square a piece of `color` attacks (defended own pieces included), with the current
    /// occupancy: the squares the other king may not step on, but for the squares behind it
    /// on a slider's line.
    pub fn attacks_by(&self, color: Color) -> Bitboard {
        let occupied = self.occupancy();
        let pawns = self.pieces_of(color, PieceKind::Pawn);
        let forward = if color == Color::White { pawns.north() } else { pawns.south() };
        let mut attacked = forward.east() | forward.west();
        for kind in [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen, PieceKind::King] {
            for sq in self.pieces_of(color, kind) {
                attacked |= piece_attacks(color, kind, sq, occupied);
            }
        }
        attacked
    }

    /// The squares from which a piece of `kind` of the side to move would attack the other
    /// king, with the current occupancy (none for the king): a move of such a piece to one of
    /// them gives a direct check.
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::{PieceKind, Position, Square};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1")?;
    /// let squares = pos.check_squares(PieceKind::Knight);
    /// assert!(squares.contains(Square::F6) && squares.contains(Square::D6));
    /// assert_eq!(pos.check_squares(PieceKind::Rook).count(), 14);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn check_squares(&self, kind: PieceKind) -> Bitboard {
        let them = !self.turn();
        match kind {
            PieceKind::King => Bitboard::EMPTY,
            // A pawn of ours attacks the king from where a pawn of theirs on the king's square
            // would attack.
            _ => piece_attacks(them, kind, self.king_square(them), self.occupancy()),
        }
    }

    /// True when the legal move `mv` checks the other king, found without playing it (castling
    /// and en passant, rare, are played on a copy).
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::{Move, MoveKind, Position, Square};
    ///
    /// let pos = Position::from_fen("3k4/8/8/8/8/8/4B3/R3K3 w Q - 0 1")?;
    /// assert!(pos.gives_check(Move::new(Square::A1, Square::A8, MoveKind::Normal)));
    /// assert!(!pos.gives_check(Move::new(Square::E2, Square::D3, MoveKind::Normal)));
    /// assert!(pos.gives_check(Move::new(Square::E1, Square::A1, MoveKind::Castling))); // the rook lands on d1
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn gives_check(&self, mv: Move) -> bool {
        self.gives_check_moving(mv, self.code_at(mv.from()))
    }

    /// [`Position::gives_check`], given the code of the piece on the move's origin
    /// ([`Position::code_at`]), which a caller about to play the move has.
    #[inline(always)]
    pub(crate) fn gives_check_moving(&self, mv: Move, moved: u64) -> bool {
        let (from, to) = (mv.from(), mv.to());
        if mv.kind() as u8 > MoveKind::DoublePush as u8 {
            return self.special_gives_check(mv);
        }
        let us = self.turn();
        let king = self.king_square(!us);
        // A direct check: from `to` the piece reaches the king on an empty board and nothing
        // stands between them (the small tables keep clear of the magic ones). A king's legal
        // move never lands next to the other king.
        let reach = reaching_squares(us, moved as usize, king);
        (reach.contains(to) && (between(king, to) & self.occupancy()).is_empty())
            || self.discovers_check(king, from, to)
    }

    /// [`Position::gives_check`] of en passant, castling and promotions, out of the common path.
    #[cold]
    #[inline(never)]
    fn special_gives_check(&self, mv: Move) -> bool {
        let Some(promoted) = mv.promotion() else { return self.make_move(mv).in_check() };
        let (from, to) = (mv.from(), mv.to());
        let king = self.king_square(!self.turn());
        // The pawn's square is empty once it promotes: a new slider may see through it.
        let occupied = self.occupancy().without(from).with(to);
        piece_attacks(self.turn(), promoted, to, occupied).contains(king) || self.discovers_check(king, from, to)
    }

    /// True when a piece leaving `from` for `to` uncovers a check on the other king (on `king`)
    /// by one of our sliders. No slider of ours attacks the king before the move, so only one
    /// on the line through the king and `from` can, and only when `to` is off that line.
    #[inline(always)]
    fn discovers_check(&self, king: Square, from: Square, to: Square) -> bool {
        // Empty when the king and `from` share no line.
        let through = line(king, from);
        if through.contains(to) {
            return false;
        }
        let queens = self.pieces(PieceKind::Queen);
        let sliders = if rook_rays(king).contains(from) {
            self.pieces(PieceKind::Rook) | queens
        } else {
            self.pieces(PieceKind::Bishop) | queens
        };
        let occupied = self.occupancy().without(from);
        (sliders & self.color_occupancy(self.turn()) & through)
            .into_iter()
            .any(|slider| between(king, slider).contains(from) && (between(king, slider) & occupied).is_empty())
    }

    /// The static exchange value of `mv`, a legal move, in centipawns: what the side to move
    /// wins (or loses, if negative) by the exchange `mv` starts on its destination square.
    ///
    /// The definition, exactly (the C function `chess_position_see` shares it):
    ///
    /// - the swap algorithm on the destination square of `mv`; piece values P 100, N 300,
    ///   B 300, R 500, Q 900 ([`SEE_VALUES`]);
    /// - the first capture is `mv` itself: it gains the value of the piece on the destination
    ///   (a pawn for en passant; 0 for a non-capture); castling is worth 0;
    /// - then each side in turn recaptures with its least valuable attacker (pawn, knight,
    ///   bishop, rook, queen, king in that order; among several of one kind, the one on the
    ///   lowest square, a1 = 0 .. h8 = 63), the attackers found again after each capture so
    ///   that x-rays through the pieces that have moved count;
    /// - either side may stop instead of capturing when continuing would lose (a negamax over
    ///   the sequence of gains); the first capture, `mv`, is always made;
    /// - pins and checks are ignored, except that a king may recapture only if the other side
    ///   then has no attacker left on the square;
    /// - a promotion counts as the pawn it was (no promotion gain, and the piece on the square
    ///   is worth a pawn).
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::{Move, MoveKind, Position, Square};
    ///
    /// // Rxd5 wins a pawn for a rook: the pawn on d5 is defended by the pawn on e6.
    /// let pos = Position::from_fen("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1")?;
    /// let rxd5 = Move::new(Square::D1, Square::D5, MoveKind::Normal);
    /// assert_eq!(pos.see(rxd5), 100 - 500);
    /// assert!(pos.see_ge(rxd5, -400) && !pos.see_ge(rxd5, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn see(&self, mv: Move) -> i32 {
        if mv.is_castling() {
            return 0;
        }
        let (to, mut occupied, captured) = self.see_start(mv);
        let Some(mover) = self.kind_at(mv.from()) else { return 0 };
        // gains[d]: what the side making capture d wins if the exchange stopped right after it.
        let mut gains = [0i32; 34];
        gains[0] = captured;
        let mut on_square = see_value(mover);
        let mut side = !self.turn();
        let mut depth = 0;
        let queens = self.pieces(PieceKind::Queen);
        let diagonal = self.pieces(PieceKind::Bishop) | queens;
        let straight = self.pieces(PieceKind::Rook) | queens;
        // Both sides' attackers on the pieces still on the board, found once and then kept up
        // to date: a piece leaving a line through `to` can uncover only a slider on that line.
        let mut attackers = ((knight_attacks(to) & self.pieces(PieceKind::Knight))
            | (king_attacks(to) & self.pieces(PieceKind::King))
            | (pawn_attacks(Color::Black, to) & self.pieces_of(Color::White, PieceKind::Pawn))
            | (pawn_attacks(Color::White, to) & self.pieces_of(Color::Black, PieceKind::Pawn))
            | (bishop_attacks(to, occupied) & diagonal)
            | (rook_attacks(to, occupied) & straight))
            & occupied;
        while let Some((sq, kind)) = self.see_recapture(attackers & self.color_occupancy(side)) {
            let after = occupied.without(sq);
            if kind == PieceKind::King {
                // The king takes only when nothing of the other side attacks the square then.
                let uncovered = (bishop_attacks(to, after) & diagonal) | (rook_attacks(to, after) & straight);
                if ((attackers | uncovered) & after & self.color_occupancy(!side)).any() {
                    break;
                }
            }
            depth += 1;
            gains[depth] = on_square - gains[depth - 1];
            on_square = see_value(kind);
            occupied = after;
            if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen | PieceKind::King) {
                attackers |= bishop_attacks(to, occupied) & diagonal;
            }
            if matches!(kind, PieceKind::Rook | PieceKind::Queen | PieceKind::King) {
                attackers |= rook_attacks(to, occupied) & straight;
            }
            attackers &= occupied;
            side = !side;
        }
        // Going back: each side takes the better of stopping and going on.
        while depth > 0 {
            gains[depth - 1] = gains[depth - 1].min(-gains[depth]);
            depth -= 1;
        }
        gains[0]
    }

    /// True when `self.see(mv) >= threshold`; often decided from the first two captures alone.
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        if mv.is_castling() {
            return 0 >= threshold;
        }
        let (_, _, captured) = self.see_start(mv);
        // The other side can always stop: the exchange never gains more than the first capture.
        if captured < threshold {
            return false;
        }
        // We can always stop after their first recapture: we never lose more than the mover.
        let mover = self.kind_at(mv.from()).map_or(0, see_value);
        if captured - mover >= threshold {
            return true;
        }
        self.see(mv) >= threshold
    }

    /// The destination of `mv`, the occupancy once it is made and the value it captures.
    #[inline(always)]
    fn see_start(&self, mv: Move) -> (Square, Bitboard, i32) {
        let (from, to) = (mv.from(), mv.to());
        let occupied = self.occupancy().without(from);
        if mv.is_en_passant() {
            let captured = Square::new(to.file(), from.rank());
            (to, occupied.without(captured), see_value(PieceKind::Pawn))
        } else {
            (to, occupied, self.kind_at(to).map_or(0, see_value))
        }
    }

    /// The least valuable of `attackers` (the lowest square among several of one kind).
    #[inline(always)]
    fn see_recapture(&self, attackers: Bitboard) -> Option<(Square, PieceKind)> {
        PieceKind::ALL.into_iter().find_map(|kind| (attackers & self.pieces(kind)).first().map(|sq| (sq, kind)))
    }
}
