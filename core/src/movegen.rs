//! Legal move generation with check masks and pin rays (no make-and-test), plus pseudo-legal
//! generation, counting without generating, and legality tests.
//!
//! One generator serves every purpose: it reports moves to a [`MoveSink`] in sets (a piece and
//! its target squares, or a shifted set of pawn targets), so a list sink stores moves while a
//! counting sink only adds population counts.

use std::mem::MaybeUninit;

use crate::attacks::{between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::color::Color;
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::{Rank, Square};

/// Receives generated moves.
trait MoveSink {
    /// Normal moves of a piece (not a pawn) from `from` to each of `targets`.
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves of `kind` to each of `targets`, each coming from `to - back`.
    fn pawns(&mut self, targets: Bitboard, back: i32, kind: MoveKind);
    /// Promotions (four each) to each of `targets`, each coming from `to - back`.
    fn promotions(&mut self, targets: Bitboard, back: i32);
    /// A single move (en passant, castling).
    fn single(&mut self, mv: Move);
}

#[inline(always)]
fn origin(to: Square, back: i32) -> Square {
    Square::from_index_masked((to as i32 - back) as u32)
}

/// A sink taking the moves one by one: lists of any kind.
trait PushMove {
    fn push_move(&mut self, mv: Move);
}

impl<T: PushMove> MoveSink for T {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push_move(Move::new(from, to, MoveKind::Normal));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, back: i32, kind: MoveKind) {
        for to in targets {
            self.push_move(Move::new(origin(to, back), to, kind));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, back: i32) {
        for to in targets {
            let from = origin(to, back);
            self.push_move(Move::new(from, to, MoveKind::PromoteQueen));
            self.push_move(Move::new(from, to, MoveKind::PromoteRook));
            self.push_move(Move::new(from, to, MoveKind::PromoteBishop));
            self.push_move(Move::new(from, to, MoveKind::PromoteKnight));
        }
    }

    #[inline(always)]
    fn single(&mut self, mv: Move) {
        self.push_move(mv);
    }
}

impl PushMove for MoveList {
    #[inline(always)]
    fn push_move(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Writes moves into a caller's array, as many as fit, and counts them all.
struct SliceSink<'a> {
    out: &'a mut [MaybeUninit<Move>],
    len: usize,
}

impl PushMove for SliceSink<'_> {
    #[inline(always)]
    fn push_move(&mut self, mv: Move) {
        if let Some(slot) = self.out.get_mut(self.len) {
            slot.write(mv);
        }
        self.len += 1;
    }
}

/// Counts moves without listing them.
struct Counter(u64);

impl MoveSink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _back: i32, _kind: MoveKind) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _back: i32) {
        self.0 += 4 * targets.count() as u64;
    }

    #[inline(always)]
    fn single(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Restricts generation to moves from and to given squares.
#[derive(Clone, Copy)]
struct Filter {
    from: Bitboard,
    to: Bitboard,
}

const ALL: Filter = Filter { from: Bitboard::FULL, to: Bitboard::FULL };

impl Position {
    /// All legal moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::{Position, San, Square};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")?;
    /// let moves = pos.legal_moves();
    /// assert_eq!(moves.len(), 3); // Kd1, Kf1 and Kxe2
    /// assert!(moves.iter().all(|mv| mv.from() == Square::E1));
    /// assert_eq!(pos.legal_move_count(), 3);
    /// let sans: Vec<String> = moves.iter().map(|&mv| San::from_move(&pos, mv).unwrap().to_string()).collect();
    /// assert!(sans.contains(&"Kxe2".to_string()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true>(&mut list, ALL);
        list
    }

    /// Writes the legal moves, in [`Position::legal_moves`]'s order, into `out` (as many as fit)
    /// and returns how many there are: a caller's own array, filled without a list between.
    #[inline]
    pub fn write_legal_moves(&self, out: &mut [MaybeUninit<Move>]) -> usize {
        let mut sink = SliceSink { out, len: 0 };
        self.generate::<_, true>(&mut sink, ALL);
        sink.len
    }

    /// Number of legal moves, counted without generating them one by one.
    #[inline]
    pub fn legal_move_count(&self) -> usize {
        crate::perft::with_popcnt!(count_moves, self) as usize
    }

    /// The counting core, inlined into each CPU-feature variant of its callers.
    #[inline(always)]
    pub(crate) fn count_moves_inline(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate::<_, true>(&mut counter, ALL);
        counter.0
    }

    /// Legal moves of the piece on `from` (castling included for the king).
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true>(&mut list, Filter { from: Bitboard::from_square(from), to: Bitboard::FULL });
        list
    }

    /// Legal moves whose origin is in `from` and whose destination (the rook's square for
    /// castling) is in `to`.
    pub fn legal_moves_between(&self, from: Bitboard, to: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true>(&mut list, Filter { from, to });
        list
    }

    /// Pseudo-legal moves: moves that follow the pieces' movement rules but may leave the own
    /// king in check. Castling obeys all of its rules (it never passes through check).
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, false>(&mut list, ALL);
        list
    }

    /// True when `mv` is a legal move in this position.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_null() {
            return false;
        }
        let list = self.legal_moves_between(Bitboard::from_square(mv.from()), Bitboard::from_square(mv.to()));
        list.contains(&mv)
    }

    /// True when `mv` follows the movement rules in this position (it may leave the own king in
    /// check): exactly the moves [`Position::pseudo_legal_moves`] lists. Any 16-bit value may be
    /// asked about (a move from a hash table, say); no move that captures a king is pseudo-legal.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let (us, them) = (self.turn(), !self.turn());
        let (from, to) = (mv.from(), mv.to());
        let ours = self.color_occupancy(us);
        let theirs = self.color_occupancy(them);
        let occupied = ours | theirs;
        let Some(piece) = self.kind_at(from).filter(|_| ours.contains(from)) else { return false };
        if mv.is_castling() {
            return piece == PieceKind::King && self.castling_is_pseudo_legal(from, to, occupied);
        }
        if ours.contains(to) || self.pieces(PieceKind::King).contains(to) {
            return false;
        }
        let last_rank = Bitboard::rank(if us == Color::White { Rank::Eighth } else { Rank::First });
        match (piece, mv.kind()) {
            (PieceKind::Pawn, MoveKind::DoublePush) => {
                let over = Square::from_index_masked((from as u32 + to as u32) / 2);
                let second = if us == Color::White { Rank::Second } else { Rank::Seventh };
                from.rank() == second
                    && to.file() == from.file()
                    && to.rank().index().abs_diff(from.rank().index()) == 2
                    && !occupied.contains(over)
                    && !occupied.contains(to)
            }
            (PieceKind::Pawn, MoveKind::EnPassant) => {
                self.en_passant() == Some(to) && self.en_passant_candidates(to).contains(from)
            }
            (PieceKind::Pawn, kind) if kind == MoveKind::Normal || mv.promotion().is_some() => {
                let forward = if us == Color::White { 8 } else { -8 };
                let step = to as i32 - from as i32 == forward && !occupied.contains(to);
                let capture = pawn_attacks(us, from).contains(to) && theirs.contains(to);
                (step || capture) && last_rank.contains(to) == mv.promotion().is_some()
            }
            (_, MoveKind::Normal) => {
                let reach = match piece {
                    PieceKind::Knight => knight_attacks(from),
                    PieceKind::Bishop => bishop_attacks(from, occupied),
                    PieceKind::Rook => rook_attacks(from, occupied),
                    PieceKind::Queen => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
                    PieceKind::King => king_attacks(from),
                    PieceKind::Pawn => Bitboard::EMPTY,
                };
                reach.contains(to)
            }
            _ => false,
        }
    }

    /// Castling from `king` with the rook on `rook`, as the generator allows it.
    pub(crate) fn castling_is_pseudo_legal(&self, king: Square, rook: Square, occupied: Bitboard) -> bool {
        let us = self.turn();
        CastlingSide::ALL.into_iter().any(|side| {
            self.castling().rook_square(us, side) == Some(rook)
                && king == self.king_square(us)
                && !self.is_attacked_with(king, !us, occupied)
                && self.can_castle(king, rook, side, occupied)
        })
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.legal_move_count() > 0
    }

    /// The en passant capture from `from` to `ep` leaves the own king safe.
    pub(crate) fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.turn();
        let king = self.king_square(us);
        let captured = Square::new(ep.file(), from.rank());
        let occupied = (self.occupancy() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
            | Bitboard::from_square(ep);
        let attackers = self.attackers_with(king, !us, occupied) & !Bitboard::from_square(captured);
        attackers.is_empty()
    }

    #[inline(always)]
    fn generate<S: MoveSink, const LEGAL: bool>(&self, sink: &mut S, filter: Filter) {
        let us = self.turn();
        let them = !us;
        let ours = self.color_occupancy(us);
        let theirs = self.color_occupancy(them);
        let occupied = ours | theirs;
        let king = self.king_square(us);
        let checkers = if LEGAL { self.attackers_with(king, them, occupied) } else { Bitboard::EMPTY };

        if filter.from.contains(king) {
            let mut targets = king_attacks(king) & !ours & filter.to;
            if LEGAL {
                let without_king = occupied.without(king);
                for to in targets {
                    if self.is_attacked_with(to, them, without_king) {
                        targets.remove(to);
                    }
                }
            }
            sink.piece(king, targets);
        }
        if checkers.more_than_one() {
            return;
        }

        let mut target_mask = !ours & filter.to;
        if let Some(checker) = checkers.first() {
            target_mask &= between(king, checker).with(checker);
        }
        let pinned = if LEGAL { self.pinned_of(us) } else { Bitboard::EMPTY };
        // A pinned piece cannot help against a check.
        let movable = if checkers.any() { ours & !pinned } else { ours } & filter.from;

        for from in self.pieces(PieceKind::Knight) & movable & !pinned {
            sink.piece(from, knight_attacks(from) & target_mask);
        }
        let queens = self.pieces(PieceKind::Queen);
        for from in (self.pieces(PieceKind::Bishop) | queens) & movable {
            let mut targets = bishop_attacks(from, occupied) & target_mask;
            if pinned.contains(from) {
                targets &= line(king, from);
            }
            sink.piece(from, targets);
        }
        for from in (self.pieces(PieceKind::Rook) | queens) & movable {
            let mut targets = rook_attacks(from, occupied) & target_mask;
            if pinned.contains(from) {
                targets &= line(king, from);
            }
            sink.piece(from, targets);
        }

        let pawns = self.pieces(PieceKind::Pawn) & movable;
        gen_pawns(sink, us, pawns & !pinned, occupied, theirs, target_mask);
        for from in pawns & pinned {
            gen_pawns(sink, us, Bitboard::from_square(from), occupied, theirs, target_mask & line(king, from));
        }

        if let Some(ep) = self.en_passant() {
            // The captured pawn may be the checker even though the ep square is not in the mask.
            let captured = Square::new(ep.file(), if us == Color::White { Rank::Fifth } else { Rank::Fourth });
            if filter.to.contains(ep)
                && (checkers.is_empty() || checkers.contains(captured) || target_mask.contains(ep))
            {
                for from in self.en_passant_candidates(ep) & filter.from {
                    if !LEGAL || self.en_passant_is_legal(from, ep) {
                        sink.single(Move::new(from, ep, MoveKind::EnPassant));
                    }
                }
            }
        }

        if checkers.is_empty() && self.castling().has_color(us) && filter.from.contains(king) {
            // Pseudo-legal generation has not looked for checks yet; castling out of check is
            // never allowed.
            if !LEGAL && self.is_attacked_with(king, them, occupied) {
                return;
            }
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling().rook_square(us, side) {
                    if filter.to.contains(rook) && self.can_castle(king, rook, side, occupied) {
                        sink.single(Move::new(king, rook, MoveKind::Castling));
                    }
                }
            }
        }
    }

    /// Castling conditions besides the rights (the king is known not to be in check): the
    /// squares the king and rook cross and land on are empty but for the two of them, no square
    /// the king crosses is attacked, and the king is safe on arrival, with the rook already on
    /// its new square (in Chess960 the rook may shield the king's destination).
    fn can_castle(&self, king: Square, rook: Square, side: CastlingSide, occupied: Bitboard) -> bool {
        let rank = self.our_back_rank();
        let king_to = Square::new(side.king_destination_file(), rank);
        if !self.is_chess960() {
            // Standard chess: king on e1/e8, rook in the corner. The squares between them must be
            // empty, and the current occupancy decides the attacks on the two king squares (a
            // slider could only reach them through the king, which would be in check). The
            // general path below costs about 6% of bulk perft on castling-rich positions.
            let them = !self.turn();
            let transit = Square::new(side.rook_destination_file(), rank);
            return (between(king, rook) & occupied).is_empty()
                && !self.is_attacked_with(transit, them, occupied)
                && !self.is_attacked_with(king_to, them, occupied);
        }
        let rook_to = Square::new(side.rook_destination_file(), rank);
        let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
        let must_be_empty = (between(king, king_to).with(king_to) | between(rook, rook_to).with(rook_to)) & !movers;
        if (must_be_empty & occupied).any() {
            return false;
        }
        let them = !self.turn();
        let without_king = occupied.without(king);
        if between(king, king_to).into_iter().any(|sq| self.is_attacked_with(sq, them, without_king)) {
            return false;
        }
        let after = (occupied & !movers).with(king_to).with(rook_to);
        !self.is_attacked_with(king_to, them, after)
    }
}

/// Pawn moves of `pawns` (all free to move within `target_mask`), set-wise.
#[inline(always)]
fn gen_pawns<S: MoveSink>(
    sink: &mut S,
    us: Color,
    pawns: Bitboard,
    occupied: Bitboard,
    theirs: Bitboard,
    target_mask: Bitboard,
) {
    if pawns.is_empty() {
        return;
    }
    let (push, third_rank, last_rank) = match us {
        Color::White => (8, Bitboard::rank(Rank::Third), Bitboard::rank(Rank::Eighth)),
        Color::Black => (-8, Bitboard::rank(Rank::Sixth), Bitboard::rank(Rank::First)),
    };
    let forward = |bb: Bitboard| if us == Color::White { bb.north() } else { bb.south() };
    let empty = !occupied;

    let single = forward(pawns) & empty;
    let double = forward(single & third_rank) & empty & target_mask;
    let single = single & target_mask;
    sink.pawns(single & !last_rank, push, MoveKind::Normal);
    sink.promotions(single & last_rank, push);
    sink.pawns(double, 2 * push, MoveKind::DoublePush);

    let capturable = theirs & target_mask;
    let east = forward(pawns.east()) & capturable;
    let west = forward(pawns.west()) & capturable;
    sink.pawns(east & !last_rank, push + 1, MoveKind::Normal);
    sink.promotions(east & last_rank, push + 1);
    sink.pawns(west & !last_rank, push - 1, MoveKind::Normal);
    sink.promotions(west & last_rank, push - 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_has_twenty_moves() {
        let pos = Position::startpos();
        assert_eq!(pos.legal_moves().len(), 20);
        assert_eq!(pos.legal_move_count(), 20);
        assert_eq!(pos.pseudo_legal_moves().len(), 20);
        assert_eq!(pos.legal_moves_from(Square::G1).len(), 2);
        assert!(pos.is_legal(Move::new(Square::E2, Square::E4, MoveKind::DoublePush)));
        assert!(!pos.is_legal(Move::new(Square::E2, Square::E4, MoveKind::Normal)));
        assert!(!pos.is_legal(Move::NULL));
    }
}
