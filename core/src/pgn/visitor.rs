//! What a reader is told to do and what it tells: [`ReaderOptions`], [`Flow`] and the
//! [`Visitor`] callbacks, shared by the tokenizer, the reader and the consumers of its events.

use crate::board::moves::Move;
use crate::game::{Outcome, PgnWarning};
use crate::notation::san::SanMode;
use crate::position::Position;
use crate::variant::{Variant, VariantPosition};

/// Limits and choices of a [`PgnReader`](super::PgnReader).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReaderOptions {
    /// Longest tag pair line, in bytes (default 64 KiB).
    pub max_tag_len: usize,
    /// Longest comment, in bytes (default 1 MiB).
    pub max_comment_len: usize,
    /// Deepest nesting of variations (default 10,000).
    pub max_depth: usize,
    /// Replace invalid UTF-8 in tag values and comments with U+FFFD (default false: such text
    /// is decoded as Windows-1252, with a [`PgnWarning`], or refused when reading strictly).
    pub lossy_utf8: bool,
    /// Read strictly (default false): refuse, with
    /// [`PgnErrorKind::NonStandard`](super::PgnErrorKind::NonStandard) saying what was found,
    /// what real files hold but the PGN standard does not allow and lenient reading accepts
    /// (results `½-½` or with an en dash, move suffixes `e.p.`, `ep` and `++`, Unicode dashes
    /// and daggers in moves), and text that is not UTF-8
    /// ([`PgnErrorKind::InvalidUtf8`](super::PgnErrorKind::InvalidUtf8)) instead of decoding it
    /// as Windows-1252. How moves are spelled is [`ReaderOptions::san_mode`]'s choice.
    pub strict: bool,
    /// How moves are read (default [`SanMode::Lenient`]). Null moves (`--`) are always
    /// accepted.
    pub san_mode: SanMode,
    /// Read each game's tags and start position only: the movetext is skipped unread (its
    /// moves neither replayed nor checked, its comments not kept) up to the game's result
    /// (default false). A [`Visitor`] sees `begin_movetext` and `end_game`, nothing between.
    pub headers_only: bool,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            max_tag_len: 64 * 1024,
            max_comment_len: 1024 * 1024,
            max_depth: 10_000,
            lossy_utf8: false,
            strict: false,
            san_mode: SanMode::Lenient,
            headers_only: false,
        }
    }
}

/// Whether the reader should go on with what a callback announced, or skip it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[must_use]
pub enum Flow {
    /// Read it.
    Continue,
    /// Skip it: scanned only for where it ends, its moves neither read nor checked.
    Skip,
}

/// Callbacks for the events of a game, in input order; see
/// [`PgnReader::read_game`](super::PgnReader::read_game).
///
/// Every method but [`Visitor::end_game`] has a default that ignores the event. Variations
/// are skipped unless [`Visitor::begin_variation`] asks for them, so a visitor that only wants
/// the main line never sees variation moves.
///
/// # Examples
///
/// The captures of each game's main line, and the first ten moves of games played by `Morphy`
/// only (the movetext of the others is skipped unread):
///
/// ```
/// use chesscore_core::pgn::{Flow, PgnReader, Visitor};
/// use chesscore_core::{Move, Outcome, Position};
///
/// #[derive(Default)]
/// struct MorphyCaptures {
///     morphy: bool,
///     captures: Vec<String>,
/// }
///
/// impl Visitor for MorphyCaptures {
///     type Output = Vec<String>;
///
///     fn begin_game(&mut self) {
///         *self = MorphyCaptures::default();
///     }
///
///     fn tag(&mut self, name: &str, value: &str) {
///         self.morphy |= matches!(name, "White" | "Black") && value.contains("Morphy");
///     }
///
///     fn end_tags(&mut self) -> Flow {
///         if self.morphy { Flow::Continue } else { Flow::Skip }
///     }
///
///     fn san(&mut self, san: &str, mv: Move, before: &Position, after: &Position) -> Flow {
///         if before.piece_at(mv.to()).is_some() {
///             self.captures.push(san.to_string());
///         }
///         if after.fullmove_number() > 10 { Flow::Skip } else { Flow::Continue }
///     }
///
///     fn end_game(&mut self, _result: Option<Outcome>) -> Vec<String> {
///         std::mem::take(&mut self.captures)
///     }
/// }
///
/// let pgn = "[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 (4... dxe5) 5. Qxf3 *\n\n\
///            [White \"Someone\"]\n\n1. e4 d5 2. exd5 *\n";
/// let mut reader = PgnReader::from_bytes(pgn);
/// let mut visitor = MorphyCaptures::default();
/// assert_eq!(reader.read_game(&mut visitor)?, Some(vec!["dxe5".into(), "Bxf3".into(), "Qxf3".into()]));
/// assert_eq!(reader.read_game(&mut visitor)?, Some(vec![]));
/// assert_eq!(reader.read_game(&mut visitor)?, None);
/// # Ok::<(), chesscore_core::pgn::PgnError>(())
/// ```
pub trait Visitor {
    /// What [`Visitor::end_game`] makes of a game.
    type Output;

    /// A game begins. A visitor reused after a broken game resets its state here. (Its number in
    /// the input is the reader's [`PgnReader::games_read`](super::PgnReader::games_read) from
    /// here on; the visitors of a [`ParallelReader`](super::ParallelReader) read ahead, where it
    /// is not known yet.)
    fn begin_game(&mut self) {}

    /// A tag pair, value unescaped (`\"` and `\\`). A repeated name comes again.
    fn tag(&mut self, name: &str, value: &str) {
        let _ = (name, value);
    }

    /// The tags are over. [`Flow::Skip`] skips the movetext: no start position is set up, no
    /// move read or checked, and [`Visitor::end_game`] follows.
    fn end_tags(&mut self) -> Flow {
        Flow::Continue
    }

    /// The movetext begins from `start` (from the `FEN` tag, or the standard position).
    fn begin_movetext(&mut self, start: &Position) {
        let _ = start;
    }

    /// A legal move (or null move): its SAN as written (move number and `!`/`?` suffix
    /// removed), the move, and the positions before and after it. [`Flow::Skip`] skips the
    /// rest of the movetext.
    fn san(&mut self, san: &str, mv: Move, before: &Position, after: &Position) -> Flow {
        let _ = (san, mv, before, after);
        Flow::Continue
    }

    /// Whether to read the moves of a game of `variant`, one of the lichess variants (its
    /// `Variant` tag names atomic, antichess, crazyhouse, king of the hill, three-check, horde or
    /// racing kings). The default, `false`, refuses the game as
    /// [`PgnErrorKind::UnsupportedVariant`](super::PgnErrorKind::UnsupportedVariant) (a
    /// [`Game`](crate::Game) holds chess games only); with `true` its movetext begins at
    /// [`Visitor::begin_variant_movetext`] and its moves come to [`Visitor::variant_san`].
    fn reads_variant(&mut self, variant: Variant) -> bool {
        let _ = variant;
        false
    }

    /// The movetext of a variant game begins from `start` (from the `FEN` tag read in the
    /// variant's form, or the variant's start position).
    fn begin_variant_movetext(&mut self, start: &VariantPosition) {
        let _ = start;
    }

    /// A legal move of a variant game, as
    /// [`Visitor::san`] tells a chess move.
    fn variant_san(&mut self, san: &str, mv: Move, before: &VariantPosition, after: &VariantPosition) -> Flow {
        let _ = (san, mv, before, after);
        Flow::Continue
    }

    /// A NAG (`$n`, or `!` = 1, `?` = 2, `!!` = 3, `??` = 4, `!?` = 5, `?!` = 6; also the
    /// symbols `=` 10, `∞` 13, `+=` 14, `=+` 15, `+/-` 16, `-/+` 17, `+-` 18, `-+` 19).
    fn nag(&mut self, nag: u8) {
        let _ = nag;
    }

    /// A comment, `{...}` or `;` to the end of the line, without its delimiters and without
    /// leading and trailing whitespace; CRLF inside is turned into LF.
    fn comment(&mut self, text: &str) {
        let _ = text;
    }

    /// A `(`: a variation replacing the last move read. [`Flow::Skip`] (the default) skips it
    /// up to its `)`; with [`Flow::Continue`] its moves come next, then
    /// [`Visitor::end_variation`].
    fn begin_variation(&mut self) -> Flow {
        Flow::Skip
    }

    /// The `)` of a variation the visitor read.
    fn end_variation(&mut self) {}

    /// Something lenient reading accepted, told once per game and kind before the tag or
    /// comment it is about (text that is not UTF-8, decoded as Windows-1252).
    fn warning(&mut self, warning: PgnWarning) {
        let _ = warning;
    }

    /// The game is over: `result` is its movetext's result token, if it had one.
    fn end_game(&mut self, result: Option<Outcome>) -> Self::Output;
}
