//! Chess960 (Fischer random) start positions, numbered 0 to 959 as Scharnagl numbered them
//! (the standard start is 518), and the castling rooks by square, as Chess960 names its rights
//! (python-chess's `castling_rights`).

use arrayvec::ArrayVec;

use crate::board::bitboard::Bitboard;
use crate::board::castling::{CastlingRights, CastlingSide};
use crate::board::color::Color;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{File, Rank, Square};
use crate::position::Position;

/// Knight pairs among the five squares left after the bishops and the queen, in numbering order.
const KNIGHT_PAIRS: [(usize, usize); 10] =
    [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// The back rank of start position `number` (0..960), files a to h.
fn back_rank(number: u32) -> Option<[PieceKind; 8]> {
    if number >= 960 {
        return None;
    }
    let mut rank: [Option<PieceKind>; 8] = [None; 8];
    let mut n = number as usize;
    // Light-squared bishop on b, d, f or h; dark-squared one on a, c, e or g.
    rank[2 * (n % 4) + 1] = Some(PieceKind::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(PieceKind::Bishop);
    n /= 4;
    // On the stack: the C ABI's chess_position_new_chess960 allocates nothing but its handle.
    let empty = |rank: &[Option<PieceKind>; 8]| (0..8).filter(|&f| rank[f].is_none()).collect::<ArrayVec<usize, 8>>();
    rank[empty(&rank)[n % 6]] = Some(PieceKind::Queen);
    n /= 6;
    let free = empty(&rank);
    let (a, b) = KNIGHT_PAIRS[n];
    rank[free[a]] = Some(PieceKind::Knight);
    rank[free[b]] = Some(PieceKind::Knight);
    for (slot, kind) in empty(&rank).into_iter().zip([PieceKind::Rook, PieceKind::King, PieceKind::Rook]) {
        rank[slot] = Some(kind);
    }
    Some(rank.map(|kind| kind.unwrap_or(PieceKind::Pawn)))
}

impl Position {
    /// The squares of the rooks that keep a castling right (White's on rank 1, Black's on rank
    /// 8): the rights with the rooks they castle with, as Chess960 needs them.
    ///
    /// ```
    /// use chesscore_core::{Bitboard, Position, Square};
    ///
    /// let corners = [Square::A1, Square::H1, Square::A8, Square::H8];
    /// assert_eq!(Position::startpos().castling_rooks().iter().collect::<Vec<_>>(), corners);
    /// ```
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling().rook_squares()
    }

    /// Chess960 start position `number` (0..960; 518 is the standard arrangement), in Chess960
    /// mode with all four castling rights. `None` for a number out of range.
    pub fn chess960_start(number: u32) -> Option<Position> {
        let rank = back_rank(number)?;
        let mut pos = Position::empty(Color::White);
        let mut castling = CastlingRights::NONE;
        let king_file = rank.iter().position(|&k| k == PieceKind::King)?;
        for (file, kind) in rank.into_iter().enumerate() {
            let file = File::new(file as u8);
            pos.put(Square::new(file, Rank::First), Piece::new(Color::White, kind));
            pos.put(Square::new(file, Rank::Second), Piece::new(Color::White, PieceKind::Pawn));
            pos.put(Square::new(file, Rank::Seventh), Piece::new(Color::Black, PieceKind::Pawn));
            pos.put(Square::new(file, Rank::Eighth), Piece::new(Color::Black, kind));
            if kind == PieceKind::Rook {
                let side = if file.index() > king_file { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                castling.insert(Color::White, side, file);
                castling.insert(Color::Black, side, file);
            }
        }
        pos.set_castling(castling);
        pos.set_chess960(true);
        pos.finish_setup();
        Some(pos)
    }

    /// The number of the Chess960 start arrangement this position's pieces stand in (only the
    /// placement is compared: side to move, castling rights and clocks are not).
    pub fn chess960_number(&self) -> Option<u32> {
        let kinds: Vec<PieceKind> =
            File::ALL.iter().map(|&file| self.kind_at(Square::new(file, Rank::First))).collect::<Option<_>>()?;
        let start = (0..960).find(|&n| back_rank(n).is_some_and(|rank| rank[..] == kinds[..]))?;
        let reference = Position::chess960_start(start)?;
        (Color::ALL.iter().all(|&c| PieceKind::ALL.iter().all(|&k| reference.pieces_of(c, k) == self.pieces_of(c, k))))
            .then_some(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_numbers() {
        let fen_rank = |n: u32| back_rank(n).unwrap().map(|k| k.char_upper()).iter().collect::<String>();
        assert_eq!(fen_rank(0), "BBQNNRKR");
        assert_eq!(fen_rank(518), "RNBQKBNR");
        assert_eq!(fen_rank(959), "RKRNNQBB");
        assert!(back_rank(960).is_none());
        let standard = Position::chess960_start(518).unwrap();
        assert_eq!(standard.chess960_number(), Some(518));
        assert_eq!(Position::startpos().chess960_number(), Some(518));
        assert_eq!(standard.legal_moves().len(), 20);
    }
}
