//! Perft: counting the leaves of the legal move tree, the standard move generator test.

use crate::board::moves::{Move, MoveList};
use crate::position::Position;

/// Defines a function over a position twice: as written, and compiled for CPUs with the POPCNT
/// instruction, which bulk counting leans on. The default x86-64 target lacks it and counts
/// bits in software; [`with_popcnt!`] picks the variant the CPU supports at run time.
macro_rules! popcnt_variants {
    ($(#[$doc:meta])* fn $name:ident($pos:ident, $($arg:ident: $ty:ty),*) -> u64 $body:block) => {
        pub(crate) mod $name {
            use super::*;

            $(#[$doc])*
            #[allow(dead_code)]
            pub(crate) fn baseline($pos: &Position, $($arg: $ty),*) -> u64 {
                #[allow(unused_imports)]
                use self::baseline as recurse;
                $body
            }

            #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
            #[target_feature(enable = "popcnt")]
            pub(crate) fn popcnt($pos: &Position, $($arg: $ty),*) -> u64 {
                #[allow(unused_imports)]
                use self::popcnt as recurse;
                $body
            }
        }
    };
}

/// Calls the variant of a [`popcnt_variants!`] function that suits this CPU.
macro_rules! with_popcnt {
    ($name:ident, $($arg:expr),*) => {{
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        {
            if std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU supports POPCNT, checked just above.
                unsafe { crate::position::perft::$name::popcnt($($arg),*) }
            } else {
                crate::position::perft::$name::baseline($($arg),*)
            }
        }
        #[cfg(not(all(target_arch = "x86_64", not(target_feature = "popcnt"))))]
        {
            crate::position::perft::$name::baseline($($arg),*)
        }
    }};
}
pub(crate) use with_popcnt;

popcnt_variants! {
    /// Legal move count of a position.
    fn count_moves(pos,) -> u64 {
        pos.count_moves_inline()
    }
}

popcnt_variants! {
    /// Bulk-counting perft.
    fn bulk_perft(pos, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => pos.count_moves_inline(),
            _ => {
                let mut nodes = 0;
                for &mv in pos.legal_moves().iter() {
                    // Copy, then play in place: cheaper than returning a new position.
                    let mut child = *pos;
                    child.play_unchecked(mv);
                    nodes += recurse(&child, depth - 1);
                }
                nodes
            }
        }
    }
}

impl Position {
    /// Number of leaf nodes of the legal move tree of `depth` plies. The last ply is counted
    /// without making its moves (bulk counting).
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::Position;
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.perft(4), 197_281);
    /// // By first move, lazily: only the moves taken are counted.
    /// let (mv, nodes) = pos.divide(4).next().unwrap();
    /// assert_eq!(nodes, pos.make_move(mv).perft(3));
    /// assert_eq!(pos.divide(4).map(|(_, nodes)| nodes).sum::<u64>(), 197_281);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        with_popcnt!(bulk_perft, self, depth)
    }

    /// Perft split by first move: each legal move with the leaf count below it (`depth - 1`
    /// plies after the move), in generation order. Each count is made when the iterator
    /// reaches it: a caller that takes only the first moves pays for those alone, and nothing
    /// is allocated.
    pub fn divide(&self, depth: u32) -> impl ExactSizeIterator<Item = (Move, u64)> + '_ {
        let moves = if depth == 0 { MoveList::new() } else { self.legal_moves() };
        moves.into_iter().map(move |mv| (mv, self.make_move(mv).perft(depth - 1)))
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
        let divide: Vec<_> = pos.divide(3).collect();
        assert_eq!(divide.len(), 20);
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 8902);
    }
}
