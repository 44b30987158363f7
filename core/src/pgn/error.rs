//! Errors of the PGN reader: what went wrong, in which game and where.

use std::collections::TryReserveError;
use std::fmt;
use std::io;

use crate::fallible::try_to_vec;
use crate::notation::fen::FenError;
use crate::notation::san::SanError;
use crate::variant::{VariantFenError, VariantGame};

use crate::game::Game;

pub use crate::game::{Location, PgnWarning, PgnWarningKind};

/// What made a game unreadable.
///
/// Kinds compare by value, except that two [`PgnErrorKind::Io`] are equal when their
/// [`io::ErrorKind`]s are (an `io::Error` cannot be compared).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    #[error("bad tag pair: {reason}")]
    BadTag {
        /// What was expected.
        reason: &'static str,
    },
    /// A tag pair line longer than [`ReaderOptions::max_tag_len`](super::ReaderOptions).
    #[error("tag pair longer than {limit} bytes")]
    TagTooLong {
        /// The limit.
        limit: usize,
    },
    /// The `FEN` tag does not hold a valid position.
    #[error("invalid FEN tag: {0}")]
    InvalidFen(FenError),
    /// The `Variant` tag names no variant the library plays, or one the visitor does not read
    /// (see [`Visitor::begin_variant_movetext`](super::Visitor::begin_variant_movetext)).
    #[error("unsupported variant {0:?}")]
    UnsupportedVariant(String),
    /// The `FEN` tag of a variant game is not a position of that variant.
    #[error("invalid variant FEN: {0}")]
    InvalidVariantFen(VariantFenError),
    /// A move that is not valid SAN, not legal, or ambiguous where it stands.
    #[error("{0}")]
    Move(SanError),
    /// A movetext token longer than any move, number or annotation can be.
    #[error("token longer than {limit} bytes")]
    TokenTooLong {
        /// The limit.
        limit: usize,
    },
    /// A character that has no place in movetext (`}`, `]` or `"`).
    #[error("unexpected {0:?}")]
    UnexpectedChar(char),
    /// `$` without a number from 0 to 255, or a run of more than two `!`/`?`.
    #[error("invalid annotation")]
    InvalidNag,
    /// A `{` comment still open at the end of the input or when the next game's tags begin.
    #[error("unterminated comment")]
    UnterminatedComment,
    /// A comment longer than [`ReaderOptions::max_comment_len`](super::ReaderOptions).
    #[error("comment longer than {limit} bytes")]
    CommentTooLong {
        /// The limit.
        limit: usize,
    },
    /// `)` without a variation to close.
    #[error("')' without a matching '('")]
    UnmatchedParen,
    /// The game ended (result, next game's tags or end of input) inside a variation.
    #[error("variation opened at {opened} is not closed")]
    UnclosedVariation {
        /// Where its `(` stands.
        opened: Location,
    },
    /// `(` where the line has no move yet for the variation to replace.
    #[error("variation before any move of its line")]
    VariationWithoutMove,
    /// Variations nested deeper than [`ReaderOptions::max_depth`](super::ReaderOptions).
    #[error("variations nested deeper than {limit}")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// Strict reading: a tag value or comment that is not UTF-8 (lenient reading decodes it as
    /// Windows-1252; see [`ReaderOptions::lossy_utf8`](super::ReaderOptions) and
    /// [`ReaderOptions::strict`](super::ReaderOptions)). Also text that is not UTF-8 and holds a
    /// NUL byte.
    #[error("invalid UTF-8")]
    InvalidUtf8,
    /// A NUL byte in a tag value or comment (see
    /// [`ReaderOptions::lossy_utf8`](super::ReaderOptions), which replaces it).
    #[error("NUL byte in text")]
    NulByte,
    /// Strict reading ([`ReaderOptions::strict`](super::ReaderOptions)): something real files
    /// hold but the PGN standard does not allow, which lenient reading accepts.
    #[error("not standard PGN: {what}")]
    NonStandard {
        /// What was found.
        what: &'static str,
    },
    /// Memory ran out while reading the game: the game is lost. The reader goes on with the
    /// next game, except when its input buffer could not grow: then the input ends there.
    #[error("out of memory")]
    OutOfMemory,
    /// Reading the input failed; the reader stops.
    #[error("read error: {0}")]
    Io(io::Error),
}

impl PartialEq for PgnErrorKind {
    fn eq(&self, other: &Self) -> bool {
        use PgnErrorKind::*;
        match (self, other) {
            (BadTag { reason: a }, BadTag { reason: b }) | (NonStandard { what: a }, NonStandard { what: b }) => a == b,
            (TagTooLong { limit: a }, TagTooLong { limit: b })
            | (TokenTooLong { limit: a }, TokenTooLong { limit: b })
            | (CommentTooLong { limit: a }, CommentTooLong { limit: b })
            | (TooDeep { limit: a }, TooDeep { limit: b }) => a == b,
            (InvalidFen(a), InvalidFen(b)) => a == b,
            (UnsupportedVariant(a), UnsupportedVariant(b)) => a == b,
            (InvalidVariantFen(a), InvalidVariantFen(b)) => a == b,
            (Move(a), Move(b)) => a == b,
            (UnexpectedChar(a), UnexpectedChar(b)) => a == b,
            (UnclosedVariation { opened: a }, UnclosedVariation { opened: b }) => a == b,
            (Io(a), Io(b)) => a.kind() == b.kind(),
            (InvalidNag | UnterminatedComment | UnmatchedParen | VariationWithoutMove | InvalidUtf8 | NulByte, _)
            | (OutOfMemory, _) => std::mem::discriminant(self) == std::mem::discriminant(other),
            // Kinds with fields, against another kind. (Every kind is named, so that a new one
            // cannot be forgotten here.)
            (
                BadTag { .. }
                | NonStandard { .. }
                | TagTooLong { .. }
                | InvalidFen(_)
                | UnsupportedVariant(_)
                | InvalidVariantFen(_)
                | Move(_)
                | TokenTooLong { .. }
                | UnexpectedChar(_)
                | CommentTooLong { .. }
                | UnclosedVariation { .. }
                | TooDeep { .. }
                | Io(_),
                _,
            ) => false,
        }
    }
}

impl Eq for PgnErrorKind {}

/// A game that could not be read: which game, where, what, and what was read of it.
///
/// The reader skips the rest of the broken game and goes on with the next one on the following
/// call (except after [`PgnErrorKind::Io`], after which it reports the end of the input). Its
/// message tells the [`PgnErrorKind`], so [`source`](std::error::Error::source) gives none.
#[derive(Debug)]
pub struct PgnError {
    /// What went wrong.
    pub kind: PgnErrorKind,
    /// The game's number in the input, from 1 (broken games count).
    pub game: u64,
    /// Where the problem was found (the start of the offending token).
    pub location: Location,
    /// The ply the offending move would have had (1 for the game's first move, counted from
    /// the start position; in a variation, counted along the variation); 0 outside movetext.
    pub ply: u32,
    /// The offending text (the move, token or tag), shortened to 64 bytes; may be empty.
    pub text: String,
    /// What was read of the game up to the problem: tags, the main line before the bad move,
    /// comments and variations. Only the whole-game API ([`PgnReader::next_game`]) fills it,
    /// and [`PgnReader::next_any_game`] for a chess game or a game broken before its movetext
    /// (a bad `Variant` or `FEN` tag); a variant game broken in its movetext has
    /// [`PgnError::variant_partial`] instead.
    ///
    /// [`PgnReader::next_game`]: super::PgnReader::next_game
    /// [`PgnReader::next_any_game`]: super::PgnReader::next_any_game
    pub partial: Option<Box<Game>>,
    /// What was read of a variant game broken in its movetext, as [`PgnError::partial`] holds
    /// it for a chess game (filled by [`PgnReader::next_any_game`] only).
    ///
    /// [`PgnReader::next_any_game`]: super::PgnReader::next_any_game
    pub variant_partial: Option<Box<VariantGame>>,
}

impl PgnError {
    /// The error, or [`PgnErrorKind::OutOfMemory`] without its text when there is no memory for
    /// that.
    pub(crate) fn new(kind: PgnErrorKind, game: u64, location: Location, ply: u32, text: &[u8]) -> PgnError {
        let (kind, text) = match excerpt(text) {
            Ok(text) => (kind, text),
            Err(_) => (PgnErrorKind::OutOfMemory, String::new()),
        };
        PgnError { kind, game, location, ply, text, partial: None, variant_partial: None }
    }
}

/// At most 64 bytes of `text`, cut at a character boundary, invalid UTF-8 replaced.
fn excerpt(text: &[u8]) -> Result<String, TryReserveError> {
    let cut = &text[..text.len().min(64)];
    // `String::from_utf8_lossy`, in memory reserved first: a mark (3 bytes) per invalid byte
    // at most.
    let mut s = String::new();
    s.try_reserve_exact(if cut.is_ascii() { cut.len() } else { 3 * cut.len() })?;
    for chunk in cut.utf8_chunks() {
        s.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            s.push('\u{fffd}');
        }
    }
    if text.len() > 64 {
        // The cut may have split a character into a replacement mark; drop it.
        s.truncate(s.trim_end_matches('\u{fffd}').len());
    }
    Ok(s)
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, {}: {}", self.game, self.location, self.kind)?;
        if !self.text.is_empty() {
            write!(f, " {:?}", self.text)?;
        }
        if self.ply > 0 {
            write!(f, " at ply {}", self.ply)?;
        }
        Ok(())
    }
}

impl std::error::Error for PgnError {}

/// How the reader gets past the rest of a broken game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Resync {
    /// The error left the input at the start of the next game.
    None,
    /// Skip to the end of the game: from inside the tag section (the rest of its line first), a
    /// comment or a `;` line, at a variation depth.
    Game { in_tags: bool, in_comment: bool, in_line: bool, depth: u32 },
    /// The game ended at its result: skip the rest of the comment or `;` line on the result's
    /// line that broke it, and the comments after it there, as skipping the game would.
    AfterResult { in_comment: bool, in_line: bool },
    /// The input cannot be read on (its buffer could not grow): it ends here.
    Stop,
}

impl Resync {
    pub(super) const MOVETEXT: Resync = Resync::Game { in_tags: false, in_comment: false, in_line: false, depth: 0 };
    pub(super) const TAGS: Resync = Resync::Game { in_tags: true, in_comment: false, in_line: true, depth: 0 };

    pub(super) fn at_depth(depth: usize) -> Resync {
        Resync::Game { in_tags: false, in_comment: false, in_line: false, depth: depth as u32 }
    }

    /// The same skip, from variation depth `depth`: the tokenizer's errors leave the depth to
    /// the one reading the tokens.
    pub(super) fn within(self, depth: u32) -> Resync {
        match self {
            Resync::Game { in_tags, in_comment, in_line, depth: _ } => {
                Resync::Game { in_tags, in_comment, in_line, depth }
            }
            other => other,
        }
    }
}

/// An error on its way to becoming a [`PgnError`] (which adds the game's number and ply).
pub(super) struct Fail {
    pub(super) kind: PgnErrorKind,
    pub(super) at: Location,
    pub(super) text: Vec<u8>,
    pub(super) resync: Resync,
}

impl Fail {
    /// An error with a copy of `text`; [`PgnErrorKind::OutOfMemory`] (recovering as `resync`
    /// says all the same) when there is no memory for it.
    pub(super) fn new(kind: PgnErrorKind, at: Location, text: &[u8], resync: Resync) -> Fail {
        // The error keeps 64 bytes of it; one more tells that it was cut.
        match try_to_vec(&text[..text.len().min(65)]) {
            Ok(text) => Fail { kind, at, text, resync },
            Err(_) => Fail { kind: PgnErrorKind::OutOfMemory, at, text: Vec::new(), resync },
        }
    }

    /// The error met in a comment on the line of the game's result: see
    /// [`Resync::AfterResult`].
    pub(super) fn after_result(mut self) -> Fail {
        if let Resync::Game { in_comment, in_line, .. } = self.resync {
            self.resync = Resync::AfterResult { in_comment, in_line };
        }
        self
    }

    /// The error with its place in the tokens completed: see [`Resync::within`].
    pub(super) fn within(mut self, depth: u32) -> Fail {
        self.resync = self.resync.within(depth);
        self
    }
}

/// What a consumer of movetext tokens found wrong with the token it was given (`text` is part
/// of it): the tokenizer, which knows where the token stands, makes it a [`Fail`] there. Nothing
/// is allocated before that, so a rejection the tokenizer sets aside (see
/// [`Consumer::token`](super::tokenizer::Consumer::token)) costs no memory.
pub(super) struct Rejection<'a> {
    kind: PgnErrorKind,
    text: &'a [u8],
    resync: Resync,
}

impl<'a> Rejection<'a> {
    pub(super) fn new(kind: PgnErrorKind, text: &'a [u8], resync: Resync) -> Rejection<'a> {
        Rejection { kind, text, resync }
    }

    /// The same rejection, about `text` (the word as written, when a spelling of it was read).
    pub(super) fn about(self, text: &[u8]) -> Rejection<'_> {
        Rejection { kind: self.kind, text, resync: self.resync }
    }

    /// The error, at the place of the token.
    pub(super) fn at(self, at: Location) -> Fail {
        Fail::new(self.kind, at, self.text, self.resync)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_compare_and_errors_show_them() {
        let io = |kind: io::ErrorKind, text: &str| PgnErrorKind::Io(io::Error::new(kind, text));
        assert_eq!(io(io::ErrorKind::Other, "a"), io(io::ErrorKind::Other, "b"));
        assert_ne!(io(io::ErrorKind::Other, "a"), io(io::ErrorKind::UnexpectedEof, "a"));
        assert_eq!(PgnErrorKind::TooDeep { limit: 3 }, PgnErrorKind::TooDeep { limit: 3 });
        assert_ne!(PgnErrorKind::TooDeep { limit: 3 }, PgnErrorKind::TokenTooLong { limit: 3 });
        assert_eq!(PgnErrorKind::NulByte, PgnErrorKind::NulByte);
        assert_ne!(PgnErrorKind::NulByte, PgnErrorKind::InvalidUtf8);
        assert_ne!(PgnErrorKind::OutOfMemory, io(io::ErrorKind::OutOfMemory, "a"));
        let error = PgnError::new(io(io::ErrorKind::Other, "pipe closed"), 2, Location::default(), 0, b"");
        assert_eq!(error.to_string(), "game 2, line 0, column 0: read error: pipe closed");
        assert!(std::error::Error::source(&error).is_none());
        let PgnErrorKind::Io(inner) = &error.kind else { panic!("{error}") };
        assert_eq!((inner.kind(), inner.to_string()), (io::ErrorKind::Other, "pipe closed".to_string()));
    }
}
