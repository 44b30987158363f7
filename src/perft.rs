//! Perft: counting the leaves of the legal move tree, the standard move generator test.

use crate::moves::Move;
use crate::position::Position;

impl Position {
    /// Number of leaf nodes of the legal move tree of `depth` plies. The last ply is counted
    /// without making its moves (bulk counting).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.legal_move_count() as u64,
            _ => self.legal_moves().iter().map(|&mv| self.make_move(mv).perft(depth - 1)).sum(),
        }
    }

    /// Perft split by first move: each legal move with the leaf count below it (`depth - 1`
    /// plies after the move). Moves are in generation order.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal_moves().iter().map(|&mv| (mv, self.make_move(mv).perft(depth - 1))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_shallow() {
        let pos = Position::startpos();
        assert_eq!(pos.perft(0), 1);
        assert_eq!(pos.perft(1), 20);
        assert_eq!(pos.perft(2), 400);
        assert_eq!(pos.perft(3), 8902);
        assert_eq!(pos.perft(4), 197_281);
        let divide = pos.divide(3);
        assert_eq!(divide.len(), 20);
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 8902);
    }
}
