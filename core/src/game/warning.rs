//! What reading a game's text noticed but let pass, and where: a game keeps its warnings.

use std::fmt;

/// A place in the input: 1-based line and byte column, and the byte offset from the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Location {
    /// Line, from 1 (lines end with `\n`).
    pub line: u64,
    /// Byte in the line, from 1.
    pub column: u64,
    /// Bytes before this place in the input (a byte order mark included).
    pub offset: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

impl Location {
    /// The place `bytes` bytes further on the same line.
    pub(crate) fn ahead(self, bytes: usize) -> Location {
        Location { column: self.column + bytes as u64, offset: self.offset + bytes as u64, ..self }
    }
}

/// Something lenient reading accepted but the caller may want to know of: the game was read
/// all the same. Given once per game and kind, at the first place it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PgnWarning {
    /// What was found.
    pub kind: PgnWarningKind,
    /// Where: the start of the tag pair or comment.
    pub location: Location,
}

/// What a [`PgnWarning`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum PgnWarningKind {
    /// A tag value or comment was not UTF-8 and was decoded as Windows-1252 (which Latin-1
    /// files read correctly as too). Strict reading refuses the game instead
    /// ([`PgnErrorKind::InvalidUtf8`](crate::pgn::PgnErrorKind::InvalidUtf8)).
    #[error("text that is not UTF-8 read as Windows-1252")]
    Windows1252,
    /// A move inside a variation could not be played: the variation was cut before it, the
    /// rest of it skipped, and the game read on. Strict reading refuses the game instead.
    #[error("a move in a variation cannot be played: the variation is cut before it")]
    VariationCut,
}

impl fmt::Display for PgnWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.kind)
    }
}
