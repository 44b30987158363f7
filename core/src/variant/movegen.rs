//! Each variant's legal moves, and playing them.
//!
//! King of the hill, three-check, crazyhouse and racing kings keep chess's move rules (one
//! king a side, no moving into check): the chess generator gives their board moves, to which
//! crazyhouse adds drops and from which racing kings removes checks. Atomic, antichess and
//! horde's White play on boards with any number of kings, so their moves start from
//! [`VariantPosition::pseudo_legal`], which assumes nothing about kings.

use std::mem::{size_of, MaybeUninit};
use std::ptr::{self, addr_of_mut};

use crate::board::attacks::{between, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::board::bitboard::Bitboard;
use crate::board::castling::{back_rank, CastlingSide};
use crate::board::color::Color;
use crate::board::moves::{Move, MoveKind};
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{File, Rank, Square};

use crate::position::movegen::PushMove;

use super::{Pocket, Variant, VariantMoveList, VariantPosition, AFTER_BOARD};

// `per_variant!` passes a variant's value, and the functions it calls read the variant back
// as `Variant::ALL[V]`: the two must agree.
const _: () = {
    let mut i = 0;
    while i < Variant::ALL.len() {
        assert!(Variant::ALL[i] as usize == i);
        i += 1;
    }
};

/// Calls `$pos.$f::<V>(args)` with `V` the index of `$variant` in [`Variant::ALL`]: each
/// variant's function compiled apart, chosen once by a direct call (an indirect one would hide
/// from the caller that the function only writes its output, which then goes through a copy).
macro_rules! per_variant {
    ($variant:expr, $pos:ident.$f:ident($($arg:expr),*)) => {
        match $variant {
            Variant::Chess => $pos.$f::<{ Variant::Chess as usize }>($($arg),*),
            Variant::Chess960 => $pos.$f::<{ Variant::Chess960 as usize }>($($arg),*),
            Variant::Atomic => $pos.$f::<{ Variant::Atomic as usize }>($($arg),*),
            Variant::Antichess => $pos.$f::<{ Variant::Antichess as usize }>($($arg),*),
            Variant::Crazyhouse => $pos.$f::<{ Variant::Crazyhouse as usize }>($($arg),*),
            Variant::KingOfTheHill => $pos.$f::<{ Variant::KingOfTheHill as usize }>($($arg),*),
            Variant::ThreeCheck => $pos.$f::<{ Variant::ThreeCheck as usize }>($($arg),*),
            Variant::Horde => $pos.$f::<{ Variant::Horde as usize }>($($arg),*),
            Variant::RacingKings => $pos.$f::<{ Variant::RacingKings as usize }>($($arg),*),
        }
    };
}

/// What three-check asks of a position before a move ([`VariantPosition::check_before`]).
#[derive(Clone, Copy)]
struct CheckBefore {
    uses_a_check: bool,
    /// The moved piece's code, where it was read.
    moved: Option<u64>,
}

const PROMOTIONS: [MoveKind; 4] =
    [MoveKind::PromoteQueen, MoveKind::PromoteRook, MoveKind::PromoteBishop, MoveKind::PromoteKnight];

impl VariantPosition {
    /// The legal moves; none once the variant's own ending is reached.
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantPosition};
    ///
    /// // Captures are compulsory in antichess.
    /// let pos = VariantPosition::from_fen(Variant::Antichess, "8/8/8/3p4/4P3/8/8/8 w - - 0 1")?;
    /// assert_eq!(pos.legal_moves().len(), 1);
    /// # Ok::<(), chesscore_core::variant::VariantFenError>(())
    /// ```
    #[inline]
    pub fn legal_moves(&self) -> VariantMoveList {
        // Filled in the caller's place: made inside the call, the list (a kilobyte) would be
        // copied out of it, and the copy's wide loads of the moves just stored stall.
        let mut out = MaybeUninit::uninit();
        self.fill_legal_moves(&mut out);
        // SAFETY: `fill_legal_moves` writes a whole list into `out` before anything else.
        unsafe { out.assume_init() }
    }

    #[inline(never)]
    fn fill_legal_moves(&self, out: &mut MaybeUninit<VariantMoveList>) {
        self.write_legal_moves(out.write(VariantMoveList::default()));
    }

    fn write_legal_moves(&self, out: &mut VariantMoveList) {
        if self.is_variant_end() {
            return;
        }
        if self.has_chess_moves() {
            self.board.legal_moves_into(out);
            if self.variant == Variant::Crazyhouse {
                self.drops(out);
            }
            return;
        }
        match self.variant {
            Variant::RacingKings => {
                self.board.legal_moves_into(out);
                out.retain(|&mut mv| !self.board.gives_check(mv));
            }
            Variant::Horde => self.pseudo_legal(out),
            Variant::Antichess => {
                self.pseudo_legal(out);
                let theirs = self.color_occupancy(!self.turn());
                let is_capture = |mv: &Move| mv.is_en_passant() || theirs.contains(mv.to());
                if out.iter().any(is_capture) {
                    out.retain(|mv| is_capture(mv));
                }
            }
            Variant::Atomic => {
                self.pseudo_legal(out);
                out.retain(|&mut mv| self.atomic_move_is_legal(mv));
            }
            _ => {}
        }
    }

    /// True when the board's moves are exactly chess's legal moves (plus drops in
    /// crazyhouse): one king a side, moving into check illegal, nothing else forbidden.
    #[inline]
    fn has_chess_moves(&self) -> bool {
        match self.variant {
            Variant::Chess | Variant::Chess960 | Variant::KingOfTheHill | Variant::ThreeCheck | Variant::Crazyhouse => {
                true
            }
            Variant::Horde => self.turn() == Color::Black,
            _ => false,
        }
    }

    /// The number of legal moves, counted without listing them where the chess generator
    /// gives the board's moves.
    pub fn legal_move_count(&self) -> usize {
        if self.is_variant_end() {
            return 0;
        }
        match self.variant {
            Variant::Crazyhouse => self.board.legal_move_count() + self.drop_count(),
            _ if self.has_chess_moves() => self.board.legal_move_count(),
            _ => self.legal_moves().len(),
        }
    }

    /// The number of leaves of the legal move tree `depth` plies deep (1 for depth 0).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.legal_move_count() as u64,
            // The chess generator's own list where it gives all the moves: no copy.
            _ if self.has_chess_moves() && self.variant != Variant::Crazyhouse && !self.is_variant_end() => {
                self.board.legal_moves().iter().map(|&mv| self.make_move(mv).perft(depth - 1)).sum()
            }
            _ => self.legal_moves().iter().map(|&mv| self.make_move(mv).perft(depth - 1)).sum(),
        }
    }

    /// Perft split by first move: each legal move with the leaf count below it (`depth - 1`
    /// plies after the move), counted as the iterator reaches it; no moves at depth 0.
    pub fn divide(&self, depth: u32) -> impl ExactSizeIterator<Item = (Move, u64)> + '_ {
        let moves = if depth == 0 { VariantMoveList::default() } else { self.legal_moves() };
        moves.moves.into_iter().map(move |mv| (mv, self.make_move(mv).perft(depth - 1)))
    }

    /// Plays `mv`, which must be one of [`VariantPosition::legal_moves`]; anything else leaves
    /// the position unspecified (but memory-safe).
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        per_variant!(self.variant, self.play_unchecked_as(mv));
    }

    /// Writes the position after `mv` into `out`: [`VariantPosition::make_move`]. The position
    /// is filled in the caller's place, so that the move is played where it stays (built in a
    /// call and returned, it would be copied out after the move, the copy's wide loads waiting
    /// on the move's narrow stores). Not inlined: behind a call the caller's place is written
    /// directly, where an inlined make-move is built in a local and copied (a call to memcpy).
    #[inline(never)]
    pub(super) fn make_into(&self, mv: Move, out: &mut MaybeUninit<VariantPosition>) {
        per_variant!(self.variant, self.make_into_as(mv, out));
    }

    /// [`VariantPosition::make_into`] by the rules of [`Variant::ALL`]`[V]`, the position's
    /// own. The board and the fields after it are copied apart, 128 and 24 bytes inline: the
    /// whole position's 152 bytes would be a call to memcpy, and field by field they take more
    /// moves (callgrind, every-leaf perft: 4% more instructions).
    #[inline(never)]
    fn make_into_as<const V: usize>(&self, mv: Move, out: &mut MaybeUninit<VariantPosition>) {
        let variant = Variant::ALL[V];
        // Asked of this position, not of the copy about to be written: the question need not
        // wait for the copy's stores.
        let check = self.check_before(variant, mv);
        let place = out.as_mut_ptr();
        let rest = size_of::<VariantPosition>() - AFTER_BOARD;
        // SAFETY: `place` is `out`'s, valid for writes of a whole position and aligned, and
        // `self` another position (`out` is borrowed mutably). The board is written, then the
        // bytes after it: the other fields with their padding (an untyped copy may carry
        // padding). Every field is written before the reference to the position is made.
        let after = unsafe {
            addr_of_mut!((*place).board).write(self.board);
            ptr::copy_nonoverlapping(
                (self as *const VariantPosition).cast::<u8>().add(AFTER_BOARD),
                place.cast::<u8>().add(AFTER_BOARD),
                rest,
            );
            &mut *place
        };
        after.play_as(variant, mv, check);
    }

    /// [`VariantPosition::play_unchecked`] by the rules of [`Variant::ALL`]`[V]`.
    #[inline(never)]
    fn play_unchecked_as<const V: usize>(&mut self, mv: Move) {
        let variant = Variant::ALL[V];
        let check = self.check_before(variant, mv);
        self.play_as(variant, mv, check);
    }

    /// Three-check: whether `mv` uses up a check, asked before the move from the moved piece
    /// and the line it leaves (cheaper than finding the checkers after it), and the moved
    /// piece's code, which the move then need not read again. Nothing in the other variants.
    #[inline(always)]
    fn check_before(&self, variant: Variant, mv: Move) -> CheckBefore {
        if variant != Variant::ThreeCheck {
            return CheckBefore { uses_a_check: false, moved: None };
        }
        let moved = self.board.code_at(mv.from());
        CheckBefore { uses_a_check: self.board.gives_check_moving(mv, moved), moved: Some(moved) }
    }

    /// Plays `mv` by the rules of `variant`, the position's own: a constant in the functions
    /// compiled for one variant, where the tests of the others fold away. `check`: what
    /// [`VariantPosition::check_before`] found.
    #[inline(always)]
    fn play_as(&mut self, variant: Variant, mv: Move, check: CheckBefore) {
        if !self.needs_extras(variant, mv) {
            self.play_board_move(mv, check, variant.is_chess());
            return;
        }
        if let Some(kind) = mv.drop_piece() {
            self.play_pocket_drop(kind, mv.to());
        } else {
            self.play_with_extras(mv);
        }
        self.forget_board_key();
    }

    /// True when `mv` does more than the board's move in `variant`: drops, crazyhouse's
    /// captures, castling, promotions and moves of promoted pieces, atomic's explosions,
    /// promotions to a king.
    #[inline(always)]
    pub(super) fn needs_extras(&self, variant: Variant, mv: Move) -> bool {
        let theirs = self.board.color_occupancy(!self.turn());
        match variant {
            Variant::Crazyhouse => {
                mv.is_variant_move()
                    || mv.kind() != MoveKind::Normal
                    || theirs.contains(mv.to())
                    || self.promoted.contains(mv.from())
            }
            Variant::Atomic => mv.is_en_passant() || theirs.contains(mv.to()),
            Variant::Antichess => mv.is_variant_move(),
            _ => false,
        }
    }

    /// Plays a move that is only the board's move (see [`VariantPosition::needs_extras`]),
    /// counting three-check's check; `keyed`: whether the board's key is kept.
    #[inline(always)]
    fn play_board_move(&mut self, mv: Move, check: CheckBefore, keyed: bool) {
        if check.uses_a_check {
            let left = &mut self.remaining_checks[self.turn().index()];
            *left = left.saturating_sub(1);
        }
        if keyed {
            self.board.play_unchecked_moving::<true>(mv, check.moved);
        } else {
            self.board.play_unchecked_moving::<false>(mv, check.moved);
        }
    }

    /// Crazyhouse: a piece of `kind` from the pocket onto `to`.
    #[inline(always)]
    fn play_pocket_drop(&mut self, kind: PieceKind, to: Square) {
        let us = self.turn();
        if self.pockets[us.index()].remove(kind) {
            self.board.play_drop(Piece { color: us, kind }, to);
        }
    }

    /// Moves that do more than the board's move, drops aside: captures into pockets,
    /// explosions, promotions to a king. Out of line: inlined, they crowd the common path
    /// (crazyhouse's every-leaf perft, callgrind: 2% more instructions).
    #[inline(never)]
    fn play_with_extras(&mut self, mv: Move) {
        let us = self.turn();
        let (from, to) = (mv.from(), mv.to());
        let captured_square = if mv.is_en_passant() { Square::new(to.file(), from.rank()) } else { to };
        let captured = if mv.is_castling() { None } else { self.board.piece_at(captured_square) };
        let king_promotion = mv.is_variant_move();
        let board_move = if king_promotion { Move::new(from, to, MoveKind::PromoteQueen) } else { mv };
        self.board.play_unchecked(board_move);
        if king_promotion {
            self.board.replace_piece(to, Piece { color: us, kind: PieceKind::King });
        }
        match self.variant {
            Variant::Crazyhouse => {
                if let Some(piece) = captured {
                    let kind = if self.promoted.contains(captured_square) { PieceKind::Pawn } else { piece.kind };
                    self.pockets[us.index()].add(kind);
                }
                let moved_promoted = self.promoted.contains(from);
                self.promoted = self.promoted.without(from).without(captured_square);
                if moved_promoted || mv.promotion().is_some() {
                    self.promoted = self.promoted.with(to);
                }
            }
            Variant::Atomic if captured.is_some() => {
                self.board.clear_square(to);
                for sq in king_attacks(to) & !self.board.pieces(PieceKind::Pawn) {
                    self.board.clear_square(sq);
                }
            }
            _ => {}
        }
    }

    /// Crazyhouse drops: pieces of the pocket on empty squares (pawns not on the back ranks)
    /// that leave the king out of check.
    fn drops(&self, out: &mut VariantMoveList) {
        for (kind, targets) in self.drop_targets() {
            for to in targets {
                out.extend_drop(kind, to);
            }
        }
    }

    fn drop_count(&self) -> usize {
        self.drop_targets().map(|(_, targets)| targets.count() as usize).sum()
    }

    /// Each kind the side to move holds, with the squares it may be dropped on.
    fn drop_targets(&self) -> impl Iterator<Item = (PieceKind, Bitboard)> {
        let us = self.turn();
        let pocket = self.pockets[us.index()];
        let mut squares = Bitboard::EMPTY;
        if !pocket.is_empty() {
            let checkers = self.board.checkers();
            squares = !self.occupancy();
            if let Some(checker) = checkers.first() {
                let king = self.board.king_square(us);
                squares &= if checkers.more_than_one() { Bitboard::EMPTY } else { between(king, checker) };
            }
        }
        Pocket::KINDS
            .into_iter()
            .filter(move |&kind| pocket.count(kind) > 0)
            .map(move |kind| (kind, if kind == PieceKind::Pawn { squares & !Bitboard::BACK_RANKS } else { squares }))
    }

    /// The moves the pieces allow, whatever the kings: any number of kings of either side,
    /// kings moving onto attacked squares, pieces capturing kings. Pawns on the first rank
    /// (horde) advance one or two squares, the two-square move leaving no en passant square.
    /// Castling follows chess's conditions, with atomic's exception for squares next to the
    /// enemy king. Antichess adds promotions to a king.
    pub(super) fn pseudo_legal(&self, out: &mut VariantMoveList) {
        let us = self.turn();
        let board = &self.board;
        let ours = board.color_occupancy(us);
        let theirs = board.color_occupancy(!us);
        let occupied = ours | theirs;
        for from in ours & !board.pieces(PieceKind::Pawn) {
            let targets = match board.kind_at(from) {
                Some(PieceKind::Knight) => knight_attacks(from),
                Some(PieceKind::Bishop) => bishop_attacks(from, occupied),
                Some(PieceKind::Rook) => rook_attacks(from, occupied),
                Some(PieceKind::Queen) => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
                Some(PieceKind::King) => king_attacks(from),
                _ => Bitboard::EMPTY,
            };
            for to in targets & !ours {
                out.push(Move::new(from, to, MoveKind::Normal));
            }
        }
        self.pseudo_legal_pawns(out, theirs, occupied);
        if let Some(ep) = board.en_passant() {
            for from in board.en_passant_candidates(ep) {
                out.push(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
        self.pseudo_legal_castling(out, occupied);
    }

    /// The pawn moves of [`VariantPosition::pseudo_legal`] but en passant, set-wise: pushes
    /// onto empty squares (two squares from the start rank, and from the first rank without an
    /// en passant square), captures of `theirs`, promotions on the last rank.
    fn pseudo_legal_pawns(&self, out: &mut VariantMoveList, theirs: Bitboard, occupied: Bitboard) {
        let us = self.turn();
        let pawns = self.pieces_of(us, PieceKind::Pawn);
        // `push`: from a square to the one ahead; the ranks a first step from the first or the
        // start rank reaches, where a second may follow; the rank a double push reaches.
        let (push, second_step, double_push_rank, last) = match us {
            Color::White => (8, [Rank::Second, Rank::Third], Rank::Fourth, Rank::Eighth),
            Color::Black => (-8, [Rank::Seventh, Rank::Sixth], Rank::Fifth, Rank::First),
        };
        let second_step = Bitboard::rank(second_step[0]) | Bitboard::rank(second_step[1]);
        let forward = |bb: Bitboard| if us == Color::White { bb.north() } else { bb.south() };
        let empty = !occupied;
        let single = forward(pawns) & empty;
        self.pawn_moves(out, single, push, last);
        for to in forward(single & second_step) & empty {
            let kind = if to.rank() == double_push_rank { MoveKind::DoublePush } else { MoveKind::Normal };
            out.push(Move::new(origin(to, 2 * push), to, kind));
        }
        self.pawn_moves(out, forward(pawns.east()) & theirs, push + 1, last);
        self.pawn_moves(out, forward(pawns.west()) & theirs, push - 1, last);
    }

    /// Pawn moves to `targets`, each from `to - back`: promotions on the `last` rank.
    #[inline(always)]
    fn pawn_moves(&self, out: &mut VariantMoveList, targets: Bitboard, back: i32, last: Rank) {
        let last = Bitboard::rank(last);
        for to in targets & !last {
            out.push(Move::new(origin(to, back), to, MoveKind::Normal));
        }
        for to in targets & last {
            let from = origin(to, back);
            for kind in PROMOTIONS {
                out.push(Move::new(from, to, kind));
            }
            if self.variant == Variant::Antichess {
                out.push(Move::promote_to_king(from, to));
            }
        }
    }

    fn pseudo_legal_castling(&self, out: &mut VariantMoveList, occupied: Bitboard) {
        let us = self.turn();
        let rank = back_rank(us);
        let king = Square::new(File::E, rank);
        if !self.castling().has_color(us) || !self.pieces_of(us, PieceKind::King).contains(king) {
            return;
        }
        for side in CastlingSide::ALL {
            let Some(rook) = self.castling().rook_square(us, side) else { continue };
            let king_to = Square::new(side.king_destination_file(), rank);
            let rook_to = Square::new(side.rook_destination_file(), rank);
            // As python-chess looks: the king's path without the king, its destination with the
            // rook already moved.
            let without_king = occupied.without(king);
            let after = without_king.without(rook).with(rook_to);
            let path = between(king, king_to).with(king);
            if (between(king, rook) & occupied).is_empty()
                && !path.into_iter().any(|sq| self.attacked_for_king(sq, without_king))
                && !self.attacked_for_king(king_to, after)
            {
                out.push(Move::new(king, rook, MoveKind::Castling));
            }
        }
    }

    /// Whether a king of the side to move would be attacked on `sq` (atomic: never next to
    /// the enemy king, where no capture can reach it).
    fn attacked_for_king(&self, sq: Square, occupied: Bitboard) -> bool {
        let them = !self.turn();
        if self.variant == Variant::Atomic
            && self.pieces_of(them, PieceKind::King).into_iter().any(|k| king_attacks(k).contains(sq))
        {
            return false;
        }
        self.board.attackers_with(sq, them, occupied).any()
    }

    /// Atomic: the move keeps a king of the mover's on the board and, unless it explodes the
    /// enemy king, leaves it out of check. Worked out on the occupancy the move leaves,
    /// without making it.
    fn atomic_move_is_legal(&self, mv: Move) -> bool {
        let us = self.turn();
        let board = &self.board;
        let (from, to) = (mv.from(), mv.to());
        let mut occupied = board.occupancy().without(from);
        let mut our_kings = board.pieces_of(us, PieceKind::King);
        let captured = if mv.is_en_passant() {
            Some(Square::new(to.file(), from.rank()))
        } else {
            board.color_occupancy(!us).contains(to).then_some(to)
        };
        if let Some(captured) = captured {
            // The capturer, the captured piece and every piece but pawns around `to` go.
            let exploded = (king_attacks(to) & !board.pieces(PieceKind::Pawn)).with(to).with(captured).with(from);
            occupied &= !exploded;
            our_kings &= !exploded;
            if our_kings.is_empty() {
                return false;
            }
            if (board.pieces_of(!us, PieceKind::King) & occupied).is_empty() {
                return true;
            }
        } else if mv.is_castling() {
            let side = mv.castling_side().unwrap_or(CastlingSide::KingSide);
            let rank = from.rank();
            let (king_to, rook_to) =
                (Square::new(side.king_destination_file(), rank), Square::new(side.rook_destination_file(), rank));
            occupied = occupied.without(to).with(king_to).with(rook_to);
            our_kings = our_kings.without(from).with(king_to);
        } else {
            occupied = occupied.with(to);
            if our_kings.contains(from) {
                our_kings = our_kings.without(from).with(to);
            }
        }
        let their_kings = board.pieces_of(!us, PieceKind::King) & occupied;
        our_kings.into_iter().all(|king| {
            their_kings.into_iter().any(|k| king_attacks(k).contains(king))
                || (board.attackers_with(king, !us, occupied) & occupied).is_empty()
        })
    }

    /// Atomic: `color`'s king is attacked and not next to the enemy king.
    pub(super) fn atomic_in_check(&self, color: Color) -> bool {
        let Some(king) = self.pieces_of(color, PieceKind::King).first() else { return false };
        let enemy_kings = self.pieces_of(!color, PieceKind::King);
        if (king_attacks(king) & enemy_kings).any() {
            return false;
        }
        self.board.attackers_with(king, !color, self.occupancy()).any()
    }
}

/// The square `back` squares behind `to` (a pawn's origin).
#[inline(always)]
fn origin(to: Square, back: i32) -> Square {
    Square::from_index_masked((to as i32 - back) as u32)
}

impl PushMove for VariantMoveList {
    #[inline(always)]
    fn push_move(&mut self, mv: Move) {
        self.push(mv);
    }
}

impl VariantMoveList {
    fn extend_drop(&mut self, kind: PieceKind, to: Square) {
        if let Some(mv) = Move::drop(kind, to) {
            self.push(mv);
        }
    }
}
