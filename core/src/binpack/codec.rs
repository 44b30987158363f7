//! The binpack encoding: a chain's 32-byte stem and the bit stream of the entries chained to
//! it (each move as piece and destination indices, each score change zig-zag coded).

use super::{BinpackError, BinpackErrorKind, TrainingEntry, MAX_PLY, STEM_LEN};
use crate::board::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::bitboard::Bitboard;
use crate::board::castling::CastlingSide;
use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::square::{Rank, Square};
use crate::notation::fen::FenOptions;
use crate::position::{EnPassantMode, Position};

/// Signed to unsigned as the format codes numbers: 0, -1, 1, -2, 2, ... become 0, 1, 2, 3, 4.
#[inline]
pub(super) fn zigzag(n: i16) -> u16 {
    ((n << 1) ^ (n >> 15)) as u16
}

#[inline]
pub(super) fn unzigzag(n: u16) -> i16 {
    ((n >> 1) as i16) ^ -((n & 1) as i16)
}

/// Bits needed to tell `count` choices apart (0 for one choice).
#[inline]
pub(super) fn index_bits(count: u32) -> u32 {
    if count <= 1 {
        0
    } else {
        32 - (count - 1).leading_zeros()
    }
}

/// The square of the `n`th (from 0) member of `set`, lowest first.
#[inline]
pub(super) fn nth_square(set: Bitboard, n: u32) -> Option<Square> {
    let mut bits = set.0;
    for _ in 0..n {
        bits &= bits.wrapping_sub(1);
    }
    Square::from_index(bits.trailing_zeros())
}

/// How many members of `set` come before `sq`.
#[inline]
pub(super) fn index_of(set: Bitboard, sq: Square) -> u32 {
    (set.0 & ((1u64 << sq as u32) - 1)).count_ones()
}

/// The squares a piece of the side to move on `from` may go to, as the format counts them:
/// pawns their pushes and captures (the en passant square when the capture is legal), the king
/// every neighbouring square without a piece of its own, the others their attacks.
pub(super) fn destinations(pos: &Position, from: Square, kind: PieceKind) -> Bitboard {
    let us = pos.turn();
    let ours = pos.color_occupancy(us);
    let occupied = pos.occupancy();
    match kind {
        PieceKind::Pawn => {
            let mut targets = pos.color_occupancy(!us);
            if let Some(ep) = pos.en_passant_square(EnPassantMode::Legal) {
                targets.set(ep);
            }
            let mut to = pawn_attacks(us, from) & targets;
            let (step, start) = match us {
                Color::White => (8, Rank::Second),
                Color::Black => (-8, Rank::Seventh),
            };
            let single = Square::from_index_masked((from as i32 + step) as u32);
            if !occupied.contains(single) {
                to.set(single);
                let double = Square::from_index_masked((from as i32 + 2 * step) as u32);
                if from.rank() == start && !occupied.contains(double) {
                    to.set(double);
                }
            }
            to
        }
        PieceKind::Knight => knight_attacks(from) & !ours,
        PieceKind::Bishop => bishop_attacks(from, occupied) & !ours,
        PieceKind::Rook => rook_attacks(from, occupied) & !ours,
        PieceKind::Queen => queen_attacks(from, occupied) & !ours,
        PieceKind::King => king_attacks(from) & !ours,
    }
}

/// The rank a pawn of `color` promotes from.
pub(super) fn promotion_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::Seventh,
        Color::Black => Rank::Second,
    }
}

/// The legal move of `pos` from `from` to `to` (the rook's square for castling) promoting to
/// `promotion`.
pub(super) fn legal_move(pos: &Position, from: Square, to: Square, promotion: Option<PieceKind>) -> Option<Move> {
    pos.legal_moves_from(from).iter().copied().find(|mv| mv.to() == to && mv.promotion() == promotion)
}

/// The 16-bit move of a stem: kind (0 normal, 1 promotion, 2 castling, 3 en passant), origin,
/// destination (castling: the rook's square), promotion piece from the knight.
pub(super) fn stem_move(mv: Move) -> u16 {
    let kind: u16 = if mv.promotion().is_some() {
        1
    } else if mv.is_castling() {
        2
    } else if mv.is_en_passant() {
        3
    } else {
        0
    };
    let promotion = mv.promotion().map_or(0, |p| p as u16 - PieceKind::Knight as u16);
    kind << 14 | (mv.from() as u16) << 8 | (mv.to() as u16) << 2 | promotion
}

/// The 32 bytes of a stem.
pub(super) fn stem(entry: &TrainingEntry) -> [u8; STEM_LEN] {
    let pos = &entry.position;
    let mut bytes = [0u8; STEM_LEN];
    let packed = pos.to_binary_fen();
    let board_len = (8 + (pos.occupancy().count() as usize).div_ceil(2)).min(packed.len());
    bytes[..board_len].copy_from_slice(&packed.as_bytes()[..board_len]);
    bytes[24..26].copy_from_slice(&stem_move(entry.mv).to_be_bytes());
    bytes[26..28].copy_from_slice(&zigzag(entry.score).to_be_bytes());
    let ply_result = entry.ply | zigzag(i16::from(entry.result)) << 14;
    bytes[28..30].copy_from_slice(&ply_result.to_be_bytes());
    // The halfmove clock as Stockfish's tools keep it: in 16 bits.
    let clock = pos.halfmove_clock().min(u32::from(u16::MAX)) as u16;
    bytes[30..32].copy_from_slice(&clock.to_be_bytes());
    bytes
}

/// A stem's entry; `offset` is where the stem starts, for errors.
pub(super) fn read_stem(bytes: &[u8; STEM_LEN], offset: u64) -> Result<TrainingEntry, BinpackError> {
    let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
    let (mut position, _) = Position::from_binary_fen_with(&bytes[..24], &options)
        .map_err(|e| BinpackErrorKind::Position(e.clone()).at(offset + e.offset() as u64))?;
    let raw = u16::from_be_bytes([bytes[24], bytes[25]]);
    let from = Square::from_index_masked(u32::from(raw >> 8 & 63));
    let to = Square::from_index_masked(u32::from(raw >> 2 & 63));
    let promotion = (raw >> 14 == 1).then(|| PieceKind::ALL[usize::from(raw & 3) + 1]);
    let score = unzigzag(u16::from_be_bytes([bytes[26], bytes[27]]));
    let ply_result = u16::from_be_bytes([bytes[28], bytes[29]]);
    let ply = ply_result & MAX_PLY;
    let result = match unzigzag(ply_result >> 14) {
        r @ -1..=1 => r as i8,
        _ => return Err(BinpackErrorKind::Result.at(offset + 28)),
    };
    let clock = u16::from_be_bytes([bytes[30], bytes[31]]);
    position.set_clocks(u32::from(clock), u32::from(ply / 2) + 1);
    let mv = legal_move(&position, from, to, promotion).ok_or(BinpackErrorKind::IllegalMove.at(offset + 24))?;
    Ok(TrainingEntry { position, mv, score, ply, result })
}

/// The position after the entry's move, with the clocks a following entry has.
pub(super) fn next_position(entry: &TrainingEntry) -> Position {
    let mut next = entry.position.make_move(entry.mv);
    let ply = entry.ply.wrapping_add(1);
    next.set_clocks(next.halfmove_clock(), u32::from(ply / 2) + 1);
    next
}

/// A chain's bit stream, read most significant bit first.
pub(super) struct BitReader<'a> {
    pub(super) bytes: &'a [u8],
    /// Bits read so far.
    pub(super) at: usize,
}

impl BitReader<'_> {
    fn bits(&mut self, count: u32) -> Option<u32> {
        let mut value = 0;
        for _ in 0..count {
            let byte = *self.bytes.get(self.at / 8)?;
            value = value << 1 | u32::from(byte >> (7 - self.at % 8) & 1);
            self.at += 1;
        }
        Some(value)
    }

    pub(super) fn bytes_used(&self) -> usize {
        self.at.div_ceil(8)
    }
}

/// A chain's bit stream, written most significant bit first.
#[derive(Default)]
pub(super) struct BitWriter {
    pub(super) bytes: Vec<u8>,
    pub(super) bits: usize,
}

impl BitWriter {
    fn put(&mut self, value: u32, count: u32) {
        for i in (0..count).rev() {
            if self.bits % 8 == 0 {
                self.bytes.push(0);
            }
            let bit = (value >> i & 1) as u8;
            *self.bytes.last_mut().expect("pushed above") |= bit << (7 - self.bits % 8);
            self.bits += 1;
        }
    }

    pub(super) fn clear(&mut self) {
        self.bytes.clear();
        self.bits = 0;
    }
}

/// The score change is coded in blocks of 5 bits, lowest first: a bit that says whether another
/// block follows, then 4 bits of the number.
pub(super) const SCORE_BLOCK: u32 = 4;

pub(super) fn write_score_change(out: &mut BitWriter, mut change: u16) {
    loop {
        let more = change >> SCORE_BLOCK != 0;
        out.put(u32::from(more) << SCORE_BLOCK | u32::from(change & 15), SCORE_BLOCK + 1);
        change >>= SCORE_BLOCK;
        if !more {
            break;
        }
    }
}

pub(super) fn read_score_change(input: &mut BitReader<'_>) -> Result<u16, BinpackErrorKind> {
    let mut change = 0u32;
    for block in 0..4 {
        let bits = input.bits(SCORE_BLOCK + 1).ok_or(BinpackErrorKind::Truncated)?;
        change |= (bits & 15) << (SCORE_BLOCK * block);
        if bits >> SCORE_BLOCK == 0 {
            return Ok(change as u16);
        }
    }
    Err(BinpackErrorKind::Score)
}

/// Codes `mv`, legal in `pos`, as the index of its piece and of its destination.
pub(super) fn write_move(out: &mut BitWriter, pos: &Position, mv: Move) {
    let us = pos.turn();
    let ours = pos.color_occupancy(us);
    let from = mv.from();
    out.put(index_of(ours, from), index_bits(ours.count()));
    let kind = pos.kind_at(from).expect("a legal move has a piece to move");
    let to = destinations(pos, from, kind);
    let (index, count) = match kind {
        PieceKind::Pawn if from.rank() == promotion_rank(us) => {
            let promotion = mv.promotion().map_or(0, |p| p as u32 - PieceKind::Knight as u32);
            (index_of(to, mv.to()) * 4 + promotion, to.count() * 4)
        }
        PieceKind::King => {
            let rights = pos.castling();
            let castlings = CastlingSide::ALL.into_iter().filter(|&side| rights.has(us, side)).count() as u32;
            let index = match mv.castling_side() {
                // The queen side first when both rights are there.
                Some(CastlingSide::QueenSide) => to.count(),
                Some(CastlingSide::KingSide) => to.count() + u32::from(rights.has(us, CastlingSide::QueenSide)),
                None => index_of(to, mv.to()),
            };
            (index, to.count() + castlings)
        }
        _ => (index_of(to, mv.to()), to.count()),
    };
    out.put(index, index_bits(count));
}

/// Reads a move coded by [`write_move`].
pub(super) fn read_move(input: &mut BitReader<'_>, pos: &Position) -> Result<Move, BinpackErrorKind> {
    let truncated = || BinpackErrorKind::Truncated;
    let us = pos.turn();
    let ours = pos.color_occupancy(us);
    let piece = input.bits(index_bits(ours.count())).ok_or_else(truncated)?;
    let from = nth_square(ours, piece).ok_or(BinpackErrorKind::IllegalMove)?;
    let kind = pos.kind_at(from).ok_or(BinpackErrorKind::IllegalMove)?;
    let to = destinations(pos, from, kind);
    let (target, promotion) = match kind {
        PieceKind::Pawn if from.rank() == promotion_rank(us) => {
            let index = input.bits(index_bits(to.count() * 4)).ok_or_else(truncated)?;
            (nth_square(to, index / 4), Some(PieceKind::ALL[(index % 4) as usize + 1]))
        }
        PieceKind::King => {
            let rights = pos.castling();
            let castlings = CastlingSide::ALL.into_iter().filter(|&side| rights.has(us, side)).count() as u32;
            let index = input.bits(index_bits(to.count() + castlings)).ok_or_else(truncated)?;
            if index >= to.count() {
                let side = if index == to.count() && rights.has(us, CastlingSide::QueenSide) {
                    CastlingSide::QueenSide
                } else {
                    CastlingSide::KingSide
                };
                (rights.rook_square(us, side), None)
            } else {
                (nth_square(to, index), None)
            }
        }
        _ => {
            let index = input.bits(index_bits(to.count())).ok_or_else(truncated)?;
            (nth_square(to, index), None)
        }
    };
    target.and_then(|to| legal_move(pos, from, to, promotion)).ok_or(BinpackErrorKind::IllegalMove)
}
