//! How a game ends: its result and the reason.

use std::fmt;

use crate::board::color::Color;

/// The result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Not over (draws that could be claimed but were not leave the game going).
    Ongoing,
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PGN result: `*`, `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_pgn(self) -> &'static str {
        match self {
            Outcome::Ongoing => "*",
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            "*" => Some(Outcome::Ongoing),
            _ => None,
        }
    }

    /// The win for `color`.
    pub const fn win_for(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// Why a game ended, or which draw may be claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate (a dead position).
    InsufficientMaterial,
    /// 150 half-moves without capture or pawn move (automatic).
    SeventyFiveMoves,
    /// The position occurred five times (automatic).
    FivefoldRepetition,
    /// 100 half-moves without capture or pawn move (claimable).
    FiftyMoves,
    /// The position occurred, or can be made to occur, three times (claimable).
    ThreefoldRepetition,
    /// A variant's own rule won the game for the side to move (antichess: it has lost all its
    /// pieces or is stalemated).
    VariantWin,
    /// A variant's own rule lost the game for the side to move (a king exploded, on the hill or
    /// on the eighth rank first, a third check, the horde gone).
    VariantLoss,
    /// A variant's own rule drew the game (racing kings: both kings reached the eighth rank).
    VariantDraw,
}

impl Termination {
    /// True for the endings that need no claim.
    pub const fn is_automatic(self) -> bool {
        !matches!(self, Termination::FiftyMoves | Termination::ThreefoldRepetition)
    }

    /// A short lower-case description, such as `"threefold repetition"`.
    pub const fn description(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::SeventyFiveMoves => "seventy-five-move rule",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::VariantWin => "variant win",
            Termination::VariantLoss => "variant loss",
            Termination::VariantDraw => "variant draw",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}
