//! The board layer: squares, colours, pieces, square sets, castling rights, attack tables,
//! Zobrist keys and moves. Plain data and pure functions that know nothing of a position's
//! rules, so every layer above (the position, notation, games, formats) can build on it.

pub mod attacks;
pub(crate) mod bitboard;
pub(crate) mod castling;
pub(crate) mod color;
pub(crate) mod moves;
pub(crate) mod piece;
pub(crate) mod square;
pub mod zobrist;
