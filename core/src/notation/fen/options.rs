//! What a FEN reader may repair and how a FEN is written.

use crate::board::square::Square;
use crate::position::EnPassantMode;

/// What to do with a position defect that can be repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Repair {
    /// Reject the FEN (the default).
    #[default]
    Reject,
    /// Drop the offending data and report it in [`FenRepairs`].
    Drop,
}

/// Options for turning a [`Fen`](crate::Fen) into a [`Position`](crate::Position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FenOptions {
    /// Read castling rights as Chess960 (X-FEN or Shredder-FEN) and mark the position as such.
    pub chess960: bool,
    /// Castling rights whose king or rook is not on its home square.
    pub bad_castling: Repair,
    /// An en passant square that no double push could have produced.
    pub bad_en_passant: Repair,
    /// Accept checks that no single move could have given (two pawns, or three pieces, giving
    /// check). Move generation handles such positions; they only cannot arise in a game.
    pub allow_impossible_check: bool,
}

/// What [`Repair::Drop`] removed while reading a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FenRepairs {
    /// Castling letters dropped, as `KQkq` bits (1 = `K`, 2 = `Q`, 4 = `k`, 8 = `q`).
    pub dropped_castling: u8,
    /// The en passant square dropped.
    pub dropped_en_passant: Option<Square>,
}

impl FenRepairs {
    /// True when nothing was dropped.
    pub fn is_empty(&self) -> bool {
        self.dropped_castling == 0 && self.dropped_en_passant.is_none()
    }
}

/// How castling rights are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastlingNotation {
    /// `KQkq` in standard chess, X-FEN in Chess960 (the default).
    #[default]
    Auto,
    /// X-FEN: `K`/`Q` for the outermost rook, the file letter for an inner one.
    XFen,
    /// Shredder-FEN: always the rook's file letter (`HAha`).
    Shredder,
}

/// Options for writing a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FenWriteOptions {
    /// Which en passant square to write (default: only when the capture is legal).
    pub en_passant: EnPassantMode,
    /// How to write castling rights.
    pub castling: CastlingNotation,
}
