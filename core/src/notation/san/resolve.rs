//! Finding the move a SAN names in a position: the pieces that can reach the destination,
//! found with attack tables and checked for pins and checks, without generating the legal moves.

use crate::board::attacks::{between, bishop_rays, empty_board_attacks, knight_attacks, line, pawn_attacks, rook_rays};
use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::moves::{Move, MoveKind};
use crate::board::piece::PieceKind;
use crate::board::square::{Rank, Square};
use crate::notation::uci::Uci;
use crate::position::Position;

use super::parse::{common_shape, parse_uncommon, Body, Parsed};
use super::{San, SanError, SanMode, SanOptions};

#[inline(always)]
fn square_bb(sq: Square) -> Bitboard {
    Bitboard::from_square(sq)
}

/// Reads SAN from bytes straight into a move, without building a [`San`]: the PGN reader's
/// tokens (not checked for UTF-8 first: SAN is ASCII, anything else is a syntax error).
pub(crate) fn read_san(pos: &Position, bytes: &[u8], options: &SanOptions) -> Result<Move, SanError> {
    // The commonest shapes go from their parts to the move with no `Body` in between: on the
    // PGN reader's path that saves a tenth of the instructions reading a move takes.
    if let Some(parsed) = common_shape(bytes) {
        return pos.checked(pos.resolve(&parsed)?, bytes, options);
    }
    pos.resolve_body(parse_uncommon(bytes)?, bytes, options)
}

impl Position {
    /// The move `body`, read from `text`, names here, as `options` allow.
    #[inline(always)]
    pub(super) fn resolve_body(&self, body: Body, text: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        let mv = match body {
            Body::Normal(parsed) => self.resolve(&parsed)?,
            Body::Null if options.allow_null && !self.in_check() => Move::NULL,
            Body::Null => return Err(SanError::Illegal),
            // A drop is no chess SAN (as python-chess reads it on a chess board).
            Body::Drop(..) => return Err(SanError::Syntax),
            Body::Castle(side) => {
                let us = self.turn();
                let rook = self.castling().rook_square(us, side).ok_or(SanError::Illegal)?;
                let mv = Move::new(self.king_square(us), rook, MoveKind::Castling);
                if !self.castling_is_legal(mv) {
                    return Err(SanError::Illegal);
                }
                mv
            }
        };
        self.checked(mv, text, options)
    }

    /// `mv`, read from `text`, unless strict reading finds the text is not its canonical SAN.
    #[inline(always)]
    fn checked(&self, mv: Move, text: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        if options.mode == SanMode::Strict {
            let canonical = San::from_move(self, mv).map_err(|_| SanError::Illegal)?;
            if canonical.as_bytes() != text {
                return Err(SanError::NotCanonical { mv, canonical });
            }
        }
        Ok(mv)
    }

    /// Finds the one legal move a parsed SAN names.
    #[inline(always)]
    fn resolve(&self, p: &Parsed) -> Result<Move, SanError> {
        let kind = match (p.piece, p.file, p.rank) {
            (Some(kind), _, _) => kind,
            (None, Some(file), Some(rank)) => return self.resolve_fully_specified(Square::new(file, rank), p),
            (None, _, _) => PieceKind::Pawn,
        };
        let mut from_mask = Bitboard::FULL;
        if let Some(file) = p.file {
            from_mask &= Bitboard::file(file);
        } else if kind == PieceKind::Pawn {
            // A pawn capture must name its file: `xd5` or `d5` is a push.
            from_mask &= Bitboard::file(p.to.file());
        }
        if let Some(rank) = p.rank {
            from_mask &= Bitboard::rank(rank);
        }
        let origins = self.san_origins(kind, p.to, from_mask);
        let from = origins.first().ok_or(SanError::Illegal)?;
        let mv = self.san_move(kind, from, p.to, p.promotion).ok_or(SanError::Illegal)?;
        if origins.more_than_one() {
            return Err(SanError::Ambiguous);
        }
        Ok(mv)
    }

    /// `e2e4`-style input without piece letter: whatever stands on the origin moves, read as
    /// UCI (castling as `e1g1` or `e1h1`), and the promotion must match exactly.
    fn resolve_fully_specified(&self, from: Square, p: &Parsed) -> Result<Move, SanError> {
        Ok(Uci::Normal { from, to: p.to, promotion: p.promotion }.to_move(self)?)
    }

    /// The move of a `kind` piece from `from` (known to reach `to` legally) with the given
    /// promotion, or `None` when the promotion does not fit (missing on the last rank, present
    /// elsewhere or for a piece, or to a king).
    #[inline]
    pub(super) fn san_move(
        &self,
        kind: PieceKind,
        from: Square,
        to: Square,
        promotion: Option<PieceKind>,
    ) -> Option<Move> {
        if kind != PieceKind::Pawn {
            return promotion.is_none().then(|| Move::new(from, to, MoveKind::Normal));
        }
        let last_rank = if self.turn() == Color::White { Rank::Eighth } else { Rank::First };
        let move_kind = match promotion {
            Some(piece) if to.rank() == last_rank => MoveKind::promotion(piece)?,
            None if to.rank() == last_rank => return None,
            Some(_) => return None,
            None if Some(to) == self.en_passant() && from.file() != to.file() => MoveKind::EnPassant,
            None if from.rank().index().abs_diff(to.rank().index()) == 2 => MoveKind::DoublePush,
            None => MoveKind::Normal,
        };
        Some(Move::new(from, to, move_kind))
    }

    /// Squares in `from_mask` holding a `kind` piece of the side to move that can legally move
    /// to `to` (castling excluded). The SAN reader and writer both rest on this.
    #[inline(always)]
    pub(super) fn san_origins(&self, kind: PieceKind, to: Square, from_mask: Bitboard) -> Bitboard {
        let us = self.turn();
        let them = !us;
        let ours = self.color_occupancy(us);
        if ours.contains(to) {
            return Bitboard::EMPTY;
        }
        let occupied = self.occupancy();
        let king = self.king_square(us);
        let pieces = self.pieces_of(us, kind) & from_mask;
        let mut origins = if kind != PieceKind::Pawn {
            // One path for every piece rather than a jump on the kind, which reading games (a
            // different kind at every move) mispredicts; only sliders can be blocked.
            const SLIDES: [u64; 6] = [0, 0, !0, !0, !0, 0];
            let mut origins = empty_board_attacks(kind, to) & pieces;
            for from in origins & Bitboard(SLIDES[kind.index()]) {
                if (between(from, to) & occupied).any() {
                    origins.remove(from);
                }
            }
            if kind == PieceKind::King {
                let safe = origins.any() && self.attackers_sparse(to, them, occupied.without(king)).is_empty();
                return if safe { origins } else { Bitboard::EMPTY };
            }
            origins
        } else if self.color_occupancy(them).contains(to) {
            pawn_attacks(them, to) & pieces
        } else if Some(to) == self.en_passant() {
            // The en passant test covers pins and checks itself.
            let capturers = pawn_attacks(them, to) & pieces;
            let mut legal = Bitboard::EMPTY;
            for from in capturers {
                if self.en_passant_is_legal(from, to) {
                    legal.set(from);
                }
            }
            return legal;
        } else {
            self.push_origins(to, pieces, occupied)
        };
        if origins.is_empty() {
            return origins;
        }
        let (checkers, pinned) = self.checkers_and_pins(king, them, occupied);
        if let Some(checker) = checkers.first() {
            if checkers.more_than_one() || !between(king, checker).with(checker).contains(to) {
                return Bitboard::EMPTY;
            }
            // A pinned piece can never answer a check.
            return origins & !pinned;
        }
        for from in pinned & origins {
            if !line(king, from).contains(to) {
                origins.remove(from);
            }
        }
        origins
    }

    /// The pieces checking the king on `king` (of the side to move), and the pieces standing
    /// alone between it and an enemy slider (pinned, when they are its own): one pass over the
    /// enemy sliders on the king's lines, with the small between table.
    #[inline(always)]
    fn checkers_and_pins(&self, king: Square, them: Color, occupied: Bitboard) -> (Bitboard, Bitboard) {
        let theirs = self.color_occupancy(them);
        let queens = self.pieces(PieceKind::Queen);
        let snipers = ((bishop_rays(king) & (self.pieces(PieceKind::Bishop) | queens))
            | (rook_rays(king) & (self.pieces(PieceKind::Rook) | queens)))
            & theirs;
        let mut checkers = ((knight_attacks(king) & self.pieces(PieceKind::Knight))
            | (pawn_attacks(!them, king) & self.pieces(PieceKind::Pawn)))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers.set(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        (checkers, pinned & !theirs)
    }

    /// Pawns among `pawns` that can push to the empty square `to` (one or two steps).
    #[inline(always)]
    fn push_origins(&self, to: Square, pawns: Bitboard, occupied: Bitboard) -> Bitboard {
        let (step, double_rank) = match self.turn() {
            Color::White => (-1, Rank::Fourth),
            Color::Black => (1, Rank::Fifth),
        };
        let Some(one) = to.offset(0, step) else { return Bitboard::EMPTY };
        if pawns.contains(one) {
            return square_bb(one);
        }
        if to.rank() == double_rank && !occupied.contains(one) {
            if let Some(two) = one.offset(0, step) {
                return pawns & square_bb(two);
            }
        }
        Bitboard::EMPTY
    }

    /// True when `mv` (a castling move) is legal.
    pub(super) fn castling_is_legal(&self, mv: Move) -> bool {
        self.legal_moves_between(square_bb(mv.from()), square_bb(mv.to())).contains(&mv)
    }
}
