//! Legal move generation with check masks and pin rays (no make-and-test), plus pseudo-legal
//! generation, counting without generating, and legality tests.
//!
//! One generator serves every purpose: it reports moves to a [`MoveSink`] in sets (a piece and
//! its target squares, or a shifted set of pawn targets), so a list sink stores moves while a
//! counting sink only adds population counts.

use std::mem::MaybeUninit;

use crate::board::attacks::{between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks};
use crate::board::bitboard::Bitboard;
use crate::board::castling::CastlingSide;
use crate::board::color::Color;
use crate::board::moves::{Move, MoveKind, MoveList};
use crate::board::piece::PieceKind;
use crate::board::square::{Rank, Square};
use crate::position::Position;

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
    /// True once the sink needs no more moves: the generator may stop then.
    #[inline(always)]
    fn satisfied(&self) -> bool {
        false
    }
}

#[inline(always)]
fn origin(to: Square, back: i32) -> Square {
    Square::from_index_masked((to as i32 - back) as u32)
}

/// A sink taking the moves one by one: lists of any kind (the variants' list too).
pub(crate) trait PushMove {
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

/// Only notes whether there is a move, and asks to stop at the first one.
struct AnyMove(bool);

impl MoveSink for AnyMove {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _back: i32, _kind: MoveKind) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _back: i32) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn single(&mut self, _mv: Move) {
        self.0 = true;
    }

    #[inline(always)]
    fn satisfied(&self) -> bool {
        self.0
    }
}

/// Restricts generation to moves from and to given squares, and to one stage.
#[derive(Clone, Copy)]
struct Filter {
    from: Bitboard,
    to: Bitboard,
    stage: Stage,
}

/// Which moves of a staged search to generate. Every caller passes a constant, so the tests on
/// it fold away in each inlined copy of the generator.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    All,
    /// Captures (en passant included) and every promotion.
    Captures,
    /// Every other move: non-promoting moves to empty squares, and castling.
    Quiets,
}

impl Stage {
    /// The destinations a non-pawn piece may move to in this stage.
    #[inline(always)]
    fn piece_targets(self, theirs: Bitboard, empty: Bitboard) -> Bitboard {
        match self {
            Stage::All => Bitboard::FULL,
            Stage::Captures => theirs,
            Stage::Quiets => empty,
        }
    }

    /// The destinations of pawn pushes in this stage: pushes to the last rank promote.
    #[inline(always)]
    fn push_targets(self, last_rank: Bitboard) -> Bitboard {
        match self {
            Stage::All => Bitboard::FULL,
            Stage::Captures => last_rank,
            Stage::Quiets => !last_rank,
        }
    }

    #[inline(always)]
    fn captures(self) -> bool {
        self != Stage::Quiets
    }

    #[inline(always)]
    fn quiets(self) -> bool {
        self != Stage::Captures
    }
}

const ALL: Filter = Filter { from: Bitboard::FULL, to: Bitboard::FULL, stage: Stage::All };
const CAPTURES: Filter = Filter { stage: Stage::Captures, ..ALL };
const QUIETS: Filter = Filter { stage: Stage::Quiets, ..ALL };

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

    /// The legal moves pushed into any list, in [`Position::legal_moves`]'s order.
    #[inline(always)]
    pub(crate) fn legal_moves_into<S: PushMove>(&self, list: &mut S) {
        self.generate::<_, true>(list, ALL);
    }

    /// Writes the legal moves, in [`Position::legal_moves`]'s order, into `out` (as many as fit)
    /// and returns how many there are: a caller's own array, filled without a list between.
    #[inline]
    pub fn write_legal_moves(&self, out: &mut [MaybeUninit<Move>]) -> usize {
        let mut sink = SliceSink { out, len: 0 };
        self.generate::<_, true>(&mut sink, ALL);
        sink.len
    }

    /// The legal captures (en passant included) and every legal promotion, capturing or not:
    /// the first stage of a search after the hash move, and all of quiescence. In check, only
    /// the evasions among them, generated as such. With [`Position::legal_quiets`] a partition
    /// of the legal moves; each lists its moves in the order of [`Position::legal_moves`].
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::Position;
    ///
    /// let pos = Position::from_fen("4k3/1P6/8/3p4/4P3/8/8/4K2R w K - 0 1")?;
    /// let captures = pos.legal_captures();
    /// assert_eq!(captures.len(), 5); // exd5 and the four promotions on b8
    /// let quiets = pos.legal_quiets();
    /// assert!(quiets.iter().all(|mv| !captures.contains(mv)));
    /// assert_eq!(captures.len() + quiets.len(), pos.legal_moves().len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true>(&mut list, CAPTURES);
        list
    }

    /// The legal moves that [`Position::legal_captures`] leaves out: moves to empty squares
    /// that do not promote, castling included.
    #[inline]
    pub fn legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true>(&mut list, QUIETS);
        list
    }

    /// [`Position::legal_captures`] written into a caller's array, as many as fit; returns how
    /// many there are.
    #[inline]
    pub fn write_legal_captures(&self, out: &mut [MaybeUninit<Move>]) -> usize {
        let mut sink = SliceSink { out, len: 0 };
        self.generate::<_, true>(&mut sink, CAPTURES);
        sink.len
    }

    /// [`Position::legal_quiets`] written into a caller's array, as many as fit; returns how
    /// many there are.
    #[inline]
    pub fn write_legal_quiets(&self, out: &mut [MaybeUninit<Move>]) -> usize {
        let mut sink = SliceSink { out, len: 0 };
        self.generate::<_, true>(&mut sink, QUIETS);
        sink.len
    }

    /// Number of legal moves, counted without generating them one by one.
    #[inline]
    pub fn legal_move_count(&self) -> usize {
        crate::position::perft::with_popcnt!(count_moves, self) as usize
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
        self.generate::<_, true>(
            &mut list,
            Filter { from: Bitboard::from_square(from), to: Bitboard::FULL, stage: Stage::All },
        );
        list
    }

    /// Legal moves whose origin is in `from` and whose destination (the rook's square for
    /// castling) is in `to`.
    pub fn legal_moves_between(&self, from: Bitboard, to: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true>(&mut list, Filter { from, to, stage: Stage::All });
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
    /// Such a move is legal unless it leaves the own king in check, which [`Position::play`]
    /// refuses.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        // Bit 15 is outside every move kind's encoding.
        if mv.raw() >= 0x8000 {
            return false;
        }
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

    /// True when the side to move has at least one legal move: the generator stops at the
    /// first piece that has one (usually the king), so this is cheaper than a count.
    #[inline]
    pub fn has_legal_moves(&self) -> bool {
        let mut any = AnyMove(false);
        self.generate::<_, true>(&mut any, ALL);
        any.0
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
        let stage_targets = filter.stage.piece_targets(theirs, !occupied);

        if filter.from.contains(king) {
            let mut targets = king_attacks(king) & !ours & filter.to & stage_targets;
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
        if checkers.more_than_one() || sink.satisfied() {
            return;
        }

        // Destinations that answer a check (all but our own pieces when there is none).
        let mut evasion_mask = !ours & filter.to;
        if let Some(checker) = checkers.first() {
            evasion_mask &= between(king, checker).with(checker);
        }
        let target_mask = evasion_mask & stage_targets;
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
        if sink.satisfied() {
            return;
        }

        let last_rank = Bitboard::rank(if us == Color::White { Rank::Eighth } else { Rank::First });
        let pawn_masks = PawnMasks {
            push: evasion_mask & filter.stage.push_targets(last_rank),
            capture: if filter.stage.captures() { evasion_mask & theirs } else { Bitboard::EMPTY },
        };
        let pawns = self.pieces(PieceKind::Pawn) & movable;
        gen_pawns(sink, us, pawns & !pinned, occupied, pawn_masks);
        for from in pawns & pinned {
            gen_pawns(sink, us, Bitboard::from_square(from), occupied, pawn_masks.within(line(king, from)));
        }

        if let Some(ep) = self.en_passant().filter(|_| filter.stage.captures()) {
            // The captured pawn may be the checker even though the ep square is not in the mask.
            let captured = Square::new(ep.file(), if us == Color::White { Rank::Fifth } else { Rank::Fourth });
            if filter.to.contains(ep)
                && (checkers.is_empty() || checkers.contains(captured) || evasion_mask.contains(ep))
            {
                for from in self.en_passant_candidates(ep) & filter.from {
                    if !LEGAL || self.en_passant_is_legal(from, ep) {
                        sink.single(Move::new(from, ep, MoveKind::EnPassant));
                    }
                }
            }
        }

        if filter.stage.quiets() && checkers.is_empty() && self.castling().has_color(us) && filter.from.contains(king) {
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

/// The destinations pawns may reach: by a push (empty squares only) and by a capture.
#[derive(Clone, Copy)]
struct PawnMasks {
    push: Bitboard,
    capture: Bitboard,
}

impl PawnMasks {
    /// Both masks restricted to `squares` (a pinned pawn's line).
    #[inline(always)]
    fn within(self, squares: Bitboard) -> PawnMasks {
        PawnMasks { push: self.push & squares, capture: self.capture & squares }
    }
}

/// Pawn moves of `pawns` (all free to move within `masks`), set-wise.
#[inline(always)]
fn gen_pawns<S: MoveSink>(sink: &mut S, us: Color, pawns: Bitboard, occupied: Bitboard, masks: PawnMasks) {
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
    let double = forward(single & third_rank) & empty & masks.push;
    let single = single & masks.push;
    sink.pawns(single & !last_rank, push, MoveKind::Normal);
    sink.promotions(single & last_rank, push);
    sink.pawns(double, 2 * push, MoveKind::DoublePush);

    let east = forward(pawns.east()) & masks.capture;
    let west = forward(pawns.west()) & masks.capture;
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
