//! The streaming reader: games from the tokens of a [`Tokenizer`], every move replayed for a
//! [`Visitor`], skipping where asked, and the recovery after a broken game.

use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::Path;

use crate::fallible::{try_push, try_room, try_string};
use crate::fen::{FenField, FenOptions, Repair};
use crate::game::{Game, Outcome};
use crate::moves::Move;
use crate::position::Position;
use crate::san::{read_san, SanError, SanMode, SanOptions};

use super::builder::RecordBuilder;
use super::decompress::Decompressed;
use super::error::{Fail, Location, PgnError, PgnErrorKind, PgnWarning, PgnWarningKind, Rejection, Resync};
use super::source::{BytesSource, IoSource, Source};
use super::tokenizer::{utf8, Consumer, Ended, Token, Tokenizer, Word};

/// Limits and choices of a [`PgnReader`].
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
    /// Read strictly (default false): refuse, with [`PgnErrorKind::NonStandard`] saying what
    /// was found, what real files hold but the PGN standard does not allow and lenient reading
    /// accepts (results `½-½` or with an en dash, move suffixes `e.p.`, `ep` and `++`, Unicode
    /// dashes and daggers in moves), and text that is not UTF-8
    /// ([`PgnErrorKind::InvalidUtf8`]) instead of decoding it as Windows-1252. How moves are
    /// spelled is [`ReaderOptions::san_mode`]'s choice.
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

/// Callbacks for the events of a game, in input order; see [`PgnReader::read_game`].
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
    /// the input is the reader's [`PgnReader::games_read`] from here on; the visitors of a
    /// [`ParallelReader`](super::ParallelReader) read ahead, where it is not known yet.)
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

/// One line being read: the main line, or a variation.
#[derive(Clone, Copy)]
struct Line {
    /// The positions before and after the line's last move, `positions[current]` being the
    /// latter: a move writes the other slot, so each move copies one position, not two.
    positions: [Position; 2],
    current: usize,
    /// Plies from the game's start to the current position.
    ply: u32,
    /// True once the line has a move.
    has_move: bool,
    /// Where the `(` of a variation stands.
    opened: Location,
}

impl Line {
    fn new(start: Position, ply: u32, opened: Location) -> Line {
        Line { positions: [start; 2], current: 0, ply, has_move: false, opened }
    }

    /// The position before the last move (a variation starts from here).
    fn before(&self) -> &Position {
        &self.positions[self.current ^ 1]
    }

    /// Reads `san` in the current position.
    #[inline(always)]
    fn parse(&self, san: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        read_san(&self.positions[self.current], san, options)
    }

    /// Plays `mv`, just read from `san` and legal (or a null move), and tells the visitor.
    #[inline(always)]
    fn play<V: Visitor>(&mut self, visitor: &mut V, san: &str, mv: Move) -> Flow {
        let before = self.current;
        let after = before ^ 1;
        self.positions[after] = self.positions[before];
        if mv.is_null() {
            self.positions[after].play_null();
        } else {
            self.positions[after].play_unchecked(mv);
        }
        self.current = after;
        self.ply += 1;
        self.has_move = true;
        visitor.san(san, mv, &self.positions[before], &self.positions[after])
    }
}

/// `san` split into the move and the NAG of its `!`/`?` suffix; `None` when the marks are no
/// annotation (`!!!`).
#[inline(always)]
fn split_suffix(san: &[u8]) -> Option<(&[u8], Option<u8>)> {
    if !matches!(san, [.., b'!' | b'?']) {
        return Some((san, None));
    }
    let marks = san.iter().rev().take_while(|&&b| b == b'!' || b == b'?').count();
    let (body, marks) = san.split_at(san.len() - marks);
    Some((body, Some(suffix_nag(marks)?)))
}

/// The consumer of movetext tokens that reads them: every move replayed and checked, every
/// event told to the visitor.
struct Replay<'a, V> {
    visitor: &'a mut V,
    /// The line being read last; the main line first.
    lines: &'a mut Vec<Line>,
    san: SanOptions,
    max_depth: usize,
    strict: bool,
}

/// Why [`Replay`] stopped the tokens.
enum ReplayStop {
    /// A result token (at any depth: the reader checks that no variation is open).
    Result(Outcome),
    /// The visitor asked to skip the rest of the movetext.
    Skip,
    /// The visitor asked to skip the variation opened at this place.
    SkipVariation(Location),
}

impl<V: Visitor> Consumer for Replay<'_, V> {
    const READS: bool = true;
    type Stop = ReplayStop;

    #[inline(always)]
    fn token<'a>(&mut self, token: Token<'a>) -> Result<ControlFlow<ReplayStop>, Rejection<'a>> {
        match token {
            Token::Word(word) => return self.word(word),
            Token::Comment(text) => self.visitor.comment(text),
            Token::Nag(nag) => self.visitor.nag(nag),
            Token::Open(at) => return self.open_variation(at),
            Token::Close => {
                if self.lines.len() == 1 {
                    return Err(Rejection::new(PgnErrorKind::UnmatchedParen, b")", Resync::MOVETEXT));
                }
                self.lines.pop();
                self.visitor.end_variation();
            }
            Token::Result(outcome) => return Ok(ControlFlow::Break(ReplayStop::Result(outcome))),
        }
        Ok(ControlFlow::Continue(()))
    }

    fn depth(&self) -> u32 {
        self.lines.len() as u32 - 1
    }

    fn warning(&mut self, warning: PgnWarning) {
        self.visitor.warning(warning);
    }
}

impl<V: Visitor> Replay<'_, V> {
    /// A word: a move with its `!`/`?` suffix, a suffix alone, or an evaluation symbol.
    #[inline(always)]
    fn word<'a>(&mut self, word: Word<'a>) -> Result<ControlFlow<ReplayStop>, Rejection<'a>> {
        let depth = self.lines.len() - 1;
        let Some((san, suffix)) = split_suffix(word.bytes()) else {
            return Err(Rejection::new(PgnErrorKind::InvalidNag, word.bytes(), Resync::at_depth(depth)));
        };
        let mut flow = Flow::Continue;
        if !san.is_empty() {
            if self.strict {
                if let Some(what) = non_standard_suffix(san) {
                    return Err(Rejection::new(PgnErrorKind::NonStandard { what }, san, Resync::at_depth(depth)));
                }
            }
            let line = &mut self.lines[depth];
            match line.parse(san, &self.san) {
                Ok(mv) => {
                    // SAN is ASCII: the move was read from the start of an ASCII word.
                    let text = match word {
                        Word::Ascii(text) => text.get(..san.len()),
                        Word::Other(_) => utf8(san),
                    };
                    flow = line.play(self.visitor, text.unwrap_or_default(), mv);
                }
                Err(e) => return self.not_a_move(word, san, suffix, e),
            }
        }
        if let Some(nag) = suffix {
            self.visitor.nag(nag);
        }
        if flow == Flow::Skip {
            return Ok(ControlFlow::Break(ReplayStop::Skip));
        }
        Ok(ControlFlow::Continue(()))
    }

    /// A word whose `san` part is no move (`error`): an evaluation symbol, an en passant mark
    /// standing alone after its move (`exd6 e.p.`), or a move spelled with Unicode dashes or
    /// daggers (`O‑O`, `Nf3†`), read as its ASCII spelling. Rare, so kept off the path of
    /// moves.
    #[cold]
    fn not_a_move<'a>(
        &mut self,
        word: Word<'a>,
        san: &'a [u8],
        suffix: Option<u8>,
        error: SanError,
    ) -> Result<ControlFlow<ReplayStop>, Rejection<'a>> {
        let resync = Resync::at_depth(self.lines.len() - 1);
        if suffix.is_none() {
            if let Some(nag) = symbol_nag(san) {
                self.visitor.nag(nag);
                return Ok(ControlFlow::Continue(()));
            }
            if matches!(san, b"e.p." | b"ep") {
                if self.strict {
                    return Err(Rejection::new(PgnErrorKind::NonStandard { what: EN_PASSANT_MARK }, san, resync));
                }
                return Ok(ControlFlow::Continue(()));
            }
        }
        if let Word::Other(bytes) = word {
            let mut spelled = [0; ASCII_SPELLING_MAX];
            if let Some(ascii) = ascii_spelling(bytes, &mut spelled) {
                if self.strict {
                    let what = "Unicode dash or dagger in a move";
                    return Err(Rejection::new(PgnErrorKind::NonStandard { what }, bytes, resync));
                }
                return self.word(Word::Ascii(ascii)).map_err(|rejection| rejection.about(bytes));
            }
        }
        Err(Rejection::new(PgnErrorKind::Move(error), san, resync))
    }

    /// A `(` at `at`: checks it may open a variation here, then lets the visitor choose.
    fn open_variation(&mut self, at: Location) -> Result<ControlFlow<ReplayStop>, Rejection<'static>> {
        let depth = self.lines.len() - 1;
        let top = &self.lines[depth];
        // The `(` is read: the rest of a broken game is skipped from inside the variation.
        let inside = Resync::at_depth(depth + 1);
        if !top.has_move {
            return Err(Rejection::new(PgnErrorKind::VariationWithoutMove, b"(", inside));
        }
        if depth >= self.max_depth {
            return Err(Rejection::new(PgnErrorKind::TooDeep { limit: self.max_depth }, b"(", inside));
        }
        let (start, ply) = (*top.before(), top.ply - 1);
        // Room first, so that the visitor hears of no variation the reader cannot hold.
        if self.lines.try_reserve(1).is_err() {
            return Err(Rejection::new(PgnErrorKind::OutOfMemory, b"(", inside));
        }
        Ok(match self.visitor.begin_variation() {
            Flow::Continue => {
                self.lines.push(Line::new(start, ply, at));
                ControlFlow::Continue(())
            }
            Flow::Skip => ControlFlow::Break(ReplayStop::SkipVariation(at)),
        })
    }
}

/// The consumer of movetext tokens that skips them, following variations only for where the
/// skipped part ends.
struct Skip {
    depth: u32,
    /// Stop at the `)` that brings the depth to 0 (a variation skipped whole).
    close_at_zero: bool,
}

/// Why [`Skip`] stopped the tokens.
enum SkipStop {
    /// A result token (which ends the game at any depth, as in reading).
    Result(Outcome),
    /// The `)` closing a variation skipped whole.
    Closed,
}

impl Consumer for Skip {
    const READS: bool = false;
    type Stop = SkipStop;

    fn token<'a>(&mut self, token: Token<'a>) -> Result<ControlFlow<SkipStop>, Rejection<'a>> {
        Ok(match token {
            Token::Open(_) => {
                self.depth += 1;
                ControlFlow::Continue(())
            }
            Token::Close if self.depth > 0 => {
                self.depth -= 1;
                if self.depth == 0 && self.close_at_zero {
                    ControlFlow::Break(SkipStop::Closed)
                } else {
                    ControlFlow::Continue(())
                }
            }
            // At any depth, as in reading: a result inside a variation ends the game.
            Token::Result(outcome) => ControlFlow::Break(SkipStop::Result(outcome)),
            _ => ControlFlow::Continue(()),
        })
    }

    fn depth(&self) -> u32 {
        self.depth
    }
}

/// What to do before reading the next game.
enum Pending {
    Nothing,
    Resync(Resync),
    /// An error met on the way to the next game, for the next read to report.
    Failed(Fail),
    /// An I/O error, or a buffer that could not grow, was reported: the input has ended, for
    /// good.
    Stop,
}

/// What strict reading calls an en passant mark.
const EN_PASSANT_MARK: &str = "en passant mark e.p. or ep";

/// What strict reading refuses in the move `san` that lenient SAN reads: an en passant mark
/// (no standard SAN holds a `p`) or a doubled check sign.
fn non_standard_suffix(san: &[u8]) -> Option<&'static str> {
    if san.contains(&b'p') {
        Some(EN_PASSANT_MARK)
    } else if san.windows(2).any(|pair| pair == b"++") {
        Some("check sign ++")
    } else {
        None
    }
}

/// Room for a move spelled in ASCII from Unicode: more than any SAN with its suffixes.
const ASCII_SPELLING_MAX: usize = 32;

/// `word` with the Unicode dashes word processors put in moves (hyphen, non-breaking hyphen,
/// figure dash, en dash, em dash, minus sign) made `-`, and the dagger `†` and double dagger
/// `‡` some books use for check and mate made `+` and `#`, written into `out`; `None` when
/// something else that is not ASCII remains, or it does not fit.
fn ascii_spelling<'a>(word: &[u8], out: &'a mut [u8; ASCII_SPELLING_MAX]) -> Option<&'a str> {
    let mut len = 0;
    for c in std::str::from_utf8(word).ok()?.chars() {
        let ascii = match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => b'-',
            '\u{2020}' => b'+',
            '\u{2021}' => b'#',
            c if c.is_ascii() => c as u8,
            _ => return None,
        };
        *out.get_mut(len)? = ascii;
        len += 1;
    }
    std::str::from_utf8(&out[..len]).ok()
}

/// The NAG of a suffix annotation.
fn suffix_nag(text: &[u8]) -> Option<u8> {
    match text {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

/// The NAG of an evaluation symbol written as a token of its own.
fn symbol_nag(text: &[u8]) -> Option<u8> {
    let nag = match text {
        b"=" => 10,
        b"+=" => 14,
        b"=+" => 15,
        b"+/-" => 16,
        b"-/+" => 17,
        b"+-" => 18,
        b"-+" => 19,
        b"+/=" => 14,
        b"=/+" => 15,
        _ => match std::str::from_utf8(text).ok()? {
            "∞" => 13,
            "=/∞" => 44,
            "∞/=" => 45,
            "⩲" => 14,
            "⩱" => 15,
            "±" => 16,
            "∓" => 17,
            _ => return None,
        },
    };
    Some(nag)
}

/// Which standard the `Variant` tag names: `Some(false)` standard chess, `Some(true)`
/// Chess960, `None` anything else.
fn variant_is_chess960(variant: &str) -> Option<bool> {
    const STANDARD: [&str; 6] = ["", "standard", "chess", "normal", "from position", "fromposition"];
    const CHESS960: [&str; 7] =
        ["chess960", "chess 960", "960", "fischerandom", "fischerrandom", "fischer random", "freestyle"];
    // Compared in place: a lower-case copy would allocate.
    let variant = variant.trim();
    let is = |names: &[&str]| names.iter().any(|name| variant.eq_ignore_ascii_case(name));
    if is(&STANDARD) {
        Some(false)
    } else if is(&CHESS960) {
        Some(true)
    } else {
        None
    }
}

/// A streaming PGN reader: games one at a time, every move replayed and checked, broken games
/// reported and skipped. See the [module documentation](super) for the format it reads.
///
/// Memory stays bounded whatever the input size: the reader holds a buffer of about
/// [`CHUNK_SIZE`](super::CHUNK_SIZE) bytes (more only while one comment or tag pair needs it,
/// up to the [`ReaderOptions`] limits) and one position per open variation.
///
/// # Examples
///
/// Whole games, broken ones reported with where they broke:
///
/// ```
/// use chesscore_core::pgn::{PgnErrorKind, PgnReader};
/// use chesscore_core::SanError;
///
/// let pgn = "[Event \"One\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"Two\"]\n\n1. e4 e5 2. Ke3 *\n\n1. d4 *\n";
/// let mut reader = PgnReader::from_bytes(pgn);
/// assert_eq!(reader.next_game()?.unwrap().moves().len(), 3);
/// let broken = reader.next_game().unwrap_err();
/// assert_eq!(broken.kind, PgnErrorKind::Move(SanError::Illegal));
/// assert_eq!((broken.game, broken.location.line, broken.ply), (2, 7, 3));
/// assert_eq!(broken.to_string(), "game 2, line 7, column 13: illegal move \"Ke3\" at ply 3");
/// // The next call goes on with the next game.
/// assert_eq!(reader.next_game()?.unwrap().tag("Event"), None);
/// assert!(reader.next_game()?.is_none());
/// # Ok::<(), chesscore_core::pgn::PgnError>(())
/// ```
///
/// Headers only, from any [`Read`]:
///
/// ```
/// use chesscore_core::pgn::{PgnReader, ReaderOptions};
///
/// let pgn = "[White \"a\"]\n\n1. e4 {not even read} Ke3 1-0\n\n[White \"b\"]\n\n1. d4 0-1\n";
/// let options = ReaderOptions { headers_only: true, ..ReaderOptions::default() };
/// let reader = PgnReader::new(pgn.as_bytes()).with_options(options);
/// let white: Vec<_> = reader.map(|game| game.unwrap().tag("White").unwrap().to_string()).collect();
/// assert_eq!(white, ["a", "b"]);
/// ```
pub struct PgnReader<S> {
    input: Tokenizer<S>,
    options: ReaderOptions,
    games: u64,
    pending: Pending,
    /// True while the movetext of a game is read (for the ply of errors).
    in_movetext: bool,
    lines: Vec<Line>,
    /// The start position tags of the game being read.
    fen: Vec<u8>,
    fen_at: Option<Location>,
    variant: Option<(String, Location)>,
    /// The tag names of the game being read, each ended by a NUL (no tag name holds one), to
    /// tell after a blank line whether a tag pair continues its section (see
    /// [`PgnReader::tags`]).
    tag_names: Vec<u8>,
    /// Whether this game's first cut variation was told (see [`PgnReader::cut_variation`]).
    cut_warned: bool,
    builder: RecordBuilder,
}

impl PgnReader<IoSource<Decompressed<File>>> {
    /// Opens the file at `path` for reading; a gzip or Zstandard file (recognised by its first
    /// bytes, whatever its name) is decompressed as it is read, in a thread of its own
    /// ([`Decompressed::threaded`]).
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        Ok(PgnReader::new(Decompressed::threaded(File::open(path)?)))
    }
}

impl<R: Read> PgnReader<IoSource<R>> {
    /// Reads from any [`Read`] (a file, a pipe, a decompressor, a C callback), in chunks.
    pub fn new(reader: R) -> Self {
        PgnReader::with_source(IoSource::new(reader))
    }
}

impl<B: AsRef<[u8]>> PgnReader<BytesSource<B>> {
    /// Reads bytes already in memory, in place: the reader borrows or owns `bytes` and copies
    /// nothing.
    pub fn from_bytes(bytes: B) -> Self {
        PgnReader::with_source(BytesSource::new(bytes))
    }
}

impl<S: Source> PgnReader<S> {
    /// Reads from any [`Source`].
    pub fn with_source(src: S) -> Self {
        PgnReader {
            input: Tokenizer::new(src),
            options: ReaderOptions::default(),
            games: 0,
            pending: Pending::Nothing,
            in_movetext: false,
            lines: Vec::new(),
            fen: Vec::new(),
            fen_at: None,
            variant: None,
            tag_names: Vec::new(),
            cut_warned: false,
            builder: RecordBuilder::default(),
        }
    }

    /// The same reader, its input being the part of a larger one that starts at `start`:
    /// locations count in the larger input (game numbers from this part's start).
    pub(super) fn starting_at(mut self, start: Location) -> Self {
        self.input.start_at(start);
        self
    }

    /// The source, every byte consumed so far released to it.
    pub(super) fn source_at_position(&mut self) -> &mut S {
        self.input.source_at_position()
    }

    /// The same reader with other options.
    pub fn with_options(mut self, options: ReaderOptions) -> Self {
        self.options = options;
        self
    }

    /// Uses `options` from the next game on.
    pub fn set_options(&mut self, options: ReaderOptions) {
        self.options = options;
    }

    /// The options in use.
    pub fn options(&self) -> &ReaderOptions {
        &self.options
    }

    /// How many games have been started, broken ones included.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// Bytes of input consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.input.bytes_read()
    }

    /// Where the reader stands in the input.
    pub fn location(&self) -> Location {
        self.input.location()
    }

    /// The next whole game as a [`Game`]; `Ok(None)` at the end of the input.
    ///
    /// A broken game is an `Err` whose [`PgnError::partial`] holds what was read of it; the
    /// next call goes on with the following game.
    ///
    /// Running out of memory is an `Err` of [`PgnErrorKind::OutOfMemory`], without a partial
    /// game, instead of an abort. The game is lost; the next call goes on with the following
    /// one, except when the input buffer could not grow: then the input ends there (as after
    /// [`PgnErrorKind::Io`]).
    pub fn next_game(&mut self) -> Result<Option<Game>, PgnError> {
        let mut builder = std::mem::take(&mut self.builder);
        let read = self.read_game(&mut builder);
        let result = builder.finish(read, || (self.games, self.location()));
        self.builder = builder;
        result
    }

    /// Reads the next game through `visitor`; `Ok(None)` at the end of the input.
    ///
    /// A broken game is an `Err` (the visitor has seen the events before the problem); the
    /// next call skips the rest of that game and goes on with the following one.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> Result<Option<V::Output>, PgnError> {
        match self.find_next_game() {
            Ok(Some(first)) => self.game(visitor, first).map(Some).map_err(|fail| self.report(fail)),
            Ok(None) => Ok(None),
            Err(fail) => Err(self.report(fail)),
        }
    }

    /// Goes to where the next game starts, as reading it does first, and returns that offset;
    /// `None` at the end of the input, or when an error comes first (the next read reports it).
    pub(super) fn next_game_start(&mut self) -> Option<u64> {
        match self.find_next_game() {
            Ok(first) => first.map(|_| self.bytes_read()),
            Err(fail) => {
                self.pending = Pending::Failed(fail);
                None
            }
        }
    }

    /// Skips the next game without reading its moves; false at the end of the input.
    pub fn skip_game(&mut self) -> Result<bool, PgnError> {
        struct Skipper;
        impl Visitor for Skipper {
            type Output = ();
            fn end_tags(&mut self) -> Flow {
                Flow::Skip
            }
            fn end_game(&mut self, _: Option<Outcome>) {}
        }
        Ok(self.read_game(&mut Skipper)?.is_some())
    }

    fn report(&mut self, mut fail: Fail) -> PgnError {
        // An error on the last line read, after a read failed, comes from the cut (a tag, a
        // comment or a move missing its end): the failure is what broke the game.
        // (Running out of memory is what this call met, though.)
        if !matches!(fail.kind, PgnErrorKind::OutOfMemory) {
            if let Some(e) = self.input.take_read_error_on_this_line() {
                fail.kind = PgnErrorKind::Io(e);
            }
        }
        self.pending = match (&fail.kind, fail.resync) {
            (PgnErrorKind::Io(_), _) | (_, Resync::Stop) => Pending::Stop,
            (_, Resync::None) => Pending::Nothing,
            (_, resync) => Pending::Resync(resync),
        };
        PgnError::new(fail.kind, self.games, fail.at, self.ply(), &fail.text)
    }

    /// [`PgnErrorKind::OutOfMemory`] at the current place, recovering as `resync` says.
    fn out_of_memory(&self, resync: Resync) -> Fail {
        Fail::new(PgnErrorKind::OutOfMemory, self.location(), b"", resync)
    }

    /// The ply the next move of the line being read would have; 0 outside movetext.
    fn ply(&self) -> u32 {
        match self.lines.last() {
            Some(line) if self.in_movetext => line.ply + 1,
            _ => 0,
        }
    }

    // ----- games -----

    /// Skips what comes before the next game: the rest of a broken one, then blanks, escape
    /// lines and `;` remarks, which belong to no game. Returns the game's first byte (not
    /// consumed), `None` at the end of the input.
    fn find_next_game(&mut self) -> Result<Option<u8>, Fail> {
        match std::mem::replace(&mut self.pending, Pending::Nothing) {
            Pending::Stop => {
                self.pending = Pending::Stop;
                return Ok(None);
            }
            Pending::Resync(resync) => self.resync(resync)?,
            Pending::Failed(fail) => return Err(fail),
            Pending::Nothing => {}
        }
        self.in_movetext = false;
        loop {
            match self.input.skip_space()? {
                None => {
                    self.input.end_of_input().inspect_err(|_| {
                        // The read error is all there is of the next game.
                        self.games += 1;
                    })?;
                    return Ok(None);
                }
                Some(b';') => self.input.skip_line()?,
                Some(b) => return Ok(Some(b)),
            }
        }
    }

    /// Reads the game whose first byte is `first`.
    fn game<V: Visitor>(&mut self, visitor: &mut V, first: u8) -> Result<V::Output, Fail> {
        self.games += 1;
        self.input.begin_game();
        visitor.begin_game();
        self.tags(visitor, first)?;
        if visitor.end_tags() == Flow::Skip {
            let result = self.skip_rest(0)?;
            return Ok(visitor.end_game(result));
        }
        let start = self.start_position()?;
        visitor.begin_movetext(&start);
        let result = if self.options.headers_only { self.skip_rest(0)? } else { self.movetext(visitor, start)? };
        Ok(visitor.end_game(result))
    }

    /// Reads the tag section (possibly empty); `first` is the first byte in view. After a blank
    /// line, a tag pair continues the section unless a tag of its name was read already (then
    /// it starts the next game, and this one has no movetext): ChessBase writes a blank line
    /// inside the tags of one game, while exports of games without moves put their tag
    /// sections one after another, each beginning again with `Event`.
    fn tags<V: Visitor>(&mut self, visitor: &mut V, first: u8) -> Result<(), Fail> {
        self.fen.clear();
        self.fen_at = None;
        self.variant = None;
        self.tag_names.clear();
        let mut next = Some(first);
        loop {
            // Anything else starts the movetext, a `;` comment included: after the tags it is
            // the game's first comment (the writer puts one there when the text holds a `}`).
            match next {
                Some(b'[') => self.tag(visitor)?,
                _ => return Ok(()),
            }
            // A `%` line is no blank.
            let (line, escapes) = (self.location().line, self.input.escape_lines());
            next = self.input.skip_space()?;
            let skipped = self.location().line - line - (self.input.escape_lines() - escapes);
            if next == Some(b'[') && skipped > 1 {
                let seen = self
                    .input
                    .next_tag_name(&self.options)?
                    .is_none_or(|name| self.tag_names.split(|&b| b == 0).any(|seen| seen == name.as_bytes()));
                if seen {
                    return Ok(());
                }
            }
        }
    }

    fn tag<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Fail> {
        let at = self.input.location();
        let (name, value, warning) = self.input.tag_pair(&self.options)?;
        if try_room(&mut self.tag_names, name.len() + 1).is_err() {
            return Err(Fail::new(PgnErrorKind::OutOfMemory, at, b"", Resync::TAGS));
        }
        self.tag_names.extend_from_slice(name.as_bytes());
        self.tag_names.push(0);
        if let Some(warning) = warning {
            visitor.warning(warning);
        }
        let kept = match name {
            "FEN" => {
                self.fen.clear();
                self.fen_at = Some(at);
                self.fen.try_reserve(value.len()).map(|()| self.fen.extend_from_slice(value.as_bytes()))
            }
            "Variant" => try_string(value).map(|variant| self.variant = Some((variant, at))),
            _ => Ok(()),
        };
        if kept.is_err() {
            return Err(Fail::new(PgnErrorKind::OutOfMemory, at, b"", Resync::TAGS));
        }
        visitor.tag(name, value);
        Ok(())
    }

    /// The start position the tags describe (see the module documentation).
    fn start_position(&self) -> Result<Position, Fail> {
        let skip_movetext = Resync::MOVETEXT;
        let chess960 = match &self.variant {
            None => false,
            Some((variant, at)) => match variant_is_chess960(variant) {
                Some(chess960) => chess960,
                None => {
                    let kind = try_string(variant).map_or(PgnErrorKind::OutOfMemory, PgnErrorKind::UnsupportedVariant);
                    return Err(Fail::new(kind, *at, b"", skip_movetext));
                }
            },
        };
        let lenient = FenOptions {
            chess960,
            bad_castling: Repair::Drop,
            bad_en_passant: Repair::Drop,
            allow_impossible_check: true,
        };
        let fen = match self.fen_at {
            Some(_) => &self.fen[..],
            _ if chess960 => {
                let mut start = Position::startpos();
                start.set_chess960(true);
                return Ok(start);
            }
            _ => return Ok(Position::startpos()),
        };
        let parsed = crate::fen::Fen::parse_bytes(fen).and_then(|parsed| {
            if chess960 {
                return parsed.validate(&lenient).map(|(pos, _)| pos);
            }
            // Castling rights that only make sense in Chess960 make it a Chess960 game.
            let strict_castling = FenOptions { bad_castling: Repair::Reject, ..lenient };
            match parsed.validate(&strict_castling) {
                Err(e) if e.field() == FenField::Castling => {
                    let as960 = FenOptions { chess960: true, ..strict_castling };
                    parsed.validate(&as960).or_else(|_| parsed.validate(&lenient)).map(|(pos, _)| pos)
                }
                other => other.map(|(pos, _)| pos),
            }
        });
        parsed.map_err(|e| {
            let at = self.fen_at.unwrap_or_default();
            Fail::new(PgnErrorKind::InvalidFen(e), at, fen, skip_movetext)
        })
    }

    /// Reads the movetext, replaying every move; returns the result token, if any.
    fn movetext<V: Visitor>(&mut self, visitor: &mut V, start: Position) -> Result<Option<Outcome>, Fail> {
        self.lines.clear();
        self.cut_warned = false;
        if try_push(&mut self.lines, Line::new(start, 0, Location::default())).is_err() {
            return Err(self.out_of_memory(Resync::MOVETEXT));
        }
        self.in_movetext = true;
        let san = SanOptions { mode: self.options.san_mode, allow_null: true };
        loop {
            let mut replay = Replay {
                visitor: &mut *visitor,
                lines: &mut self.lines,
                san,
                max_depth: self.options.max_depth,
                strict: self.options.strict,
            };
            let ended = match self.input.movetext(&self.options, &mut replay) {
                Ok(ended) => ended,
                Err(fail) if self.cuts_variation(&fail) => {
                    self.cut_variation(visitor, fail.at)?;
                    continue;
                }
                Err(fail) => return Err(fail),
            };
            match ended {
                Ended::Consumer(ReplayStop::Result(outcome)) if self.lines.len() == 1 => {
                    let mut take = |text: &str, warning: Option<PgnWarning>| {
                        if let Some(warning) = warning {
                            visitor.warning(warning);
                        }
                        visitor.comment(text);
                    };
                    self.input.comments_on_line(&self.options, Some(&mut take)).map_err(Fail::after_result)?;
                    return Ok(Some(outcome));
                }
                Ended::Consumer(ReplayStop::Result(outcome)) => return self.game_over(Some(outcome)),
                Ended::Consumer(ReplayStop::Skip) => return self.skip_rest(self.lines.len() as u32 - 1),
                Ended::Consumer(ReplayStop::SkipVariation(opened)) => {
                    if !matches!(self.skip_movetext(1, true, false)?, Ended::Consumer(SkipStop::Closed)) {
                        let kind = PgnErrorKind::UnclosedVariation { opened };
                        return Err(Fail::new(kind, self.location(), b"", Resync::None));
                    }
                }
                Ended::NextGame => return self.game_over(None),
                Ended::Input => {
                    self.input.end_of_input()?;
                    return self.game_over(None);
                }
            }
        }
    }

    /// Whether lenient reading cuts the variation being read at this error: a move that cannot
    /// be played there, inside a variation. Strict reading, and strict SAN, refuse the game.
    fn cuts_variation(&self, fail: &Fail) -> bool {
        !self.options.strict
            && self.options.san_mode == SanMode::Lenient
            && self.lines.len() > 1
            && matches!(fail.kind, PgnErrorKind::Move(_))
    }

    /// Ends the variation being read before the bad move at `at` (the visitor hears of its end,
    /// and of a warning, the first time in the game), and skips the rest of it.
    fn cut_variation<V: Visitor>(&mut self, visitor: &mut V, at: Location) -> Result<(), Fail> {
        if !self.cut_warned {
            self.cut_warned = true;
            visitor.warning(PgnWarning { kind: PgnWarningKind::VariationCut, location: at });
        }
        let opened = self.lines.pop().map(|line| line.opened).unwrap_or_default();
        visitor.end_variation();
        match self.skip_movetext(1, true, false)? {
            Ended::Consumer(SkipStop::Closed) => Ok(()),
            _ => Err(Fail::new(PgnErrorKind::UnclosedVariation { opened }, self.location(), b"", Resync::None)),
        }
    }

    /// The movetext ended (result token inside a variation, next game's tags, end of input):
    /// fine at depth 0, an unclosed variation otherwise.
    fn game_over(&self, result: Option<Outcome>) -> Result<Option<Outcome>, Fail> {
        match self.lines.last() {
            Some(line) if self.lines.len() > 1 => {
                let kind = PgnErrorKind::UnclosedVariation { opened: line.opened };
                Err(Fail::new(kind, self.location(), b"", Resync::None))
            }
            _ => Ok(result),
        }
    }

    // ----- skipping -----

    /// Skips movetext from variation depth `depth` (from inside a comment with `in_comment`)
    /// to the end of the game, as reading ends it (a result, at depth 0 with the comments on
    /// the rest of its line; the next game's `[`; the end of input) or, with `close_at_zero`,
    /// to the `)` that brings the depth to 0 (or a result before it).
    fn skip_movetext(&mut self, depth: u32, close_at_zero: bool, in_comment: bool) -> Result<Ended<SkipStop>, Fail> {
        if in_comment && self.input.skip_comment_rest(&self.options)? {
            return Ok(Ended::NextGame);
        }
        let mut skip = Skip { depth, close_at_zero };
        let ended = self.input.movetext(&self.options, &mut skip)?;
        if let (Ended::Consumer(SkipStop::Result(_)), false, 0) = (&ended, close_at_zero, skip.depth) {
            self.input.comments_on_line(&self.options, None)?;
        }
        Ok(ended)
    }

    /// Skips the rest of the movetext from variation depth `depth`; returns the result token,
    /// if any.
    fn skip_rest(&mut self, depth: u32) -> Result<Option<Outcome>, Fail> {
        match self.skip_movetext(depth, false, false)? {
            Ended::Consumer(SkipStop::Result(outcome)) => Ok(Some(outcome)),
            Ended::Input => self.input.end_of_input().map(|()| None),
            _ => Ok(None),
        }
    }

    /// Skips the rest of a broken game.
    fn resync(&mut self, resync: Resync) -> Result<(), Fail> {
        if let Resync::AfterResult { in_comment, in_line } = resync {
            if in_line {
                self.input.skip_line()?;
            }
            if !in_comment || !self.input.skip_comment_rest(&self.options)? {
                self.input.comments_on_line(&self.options, None)?;
            }
            return Ok(());
        }
        let Resync::Game { in_tags, in_comment, in_line, depth } = resync else { return Ok(()) };
        if in_line {
            self.input.skip_line()?;
        }
        if in_tags {
            // The rest of the tag section (up to a blank line: after one, a tag begins the
            // next game), then the movetext.
            loop {
                let line = self.location().line;
                match self.input.skip_space()? {
                    Some(b'[' | b';') if self.location().line == line => self.input.skip_line()?,
                    _ => break,
                }
            }
        }
        self.skip_movetext(depth, false, in_comment)?;
        Ok(())
    }
}

impl<S: Source> Iterator for PgnReader<S> {
    type Item = Result<Game, PgnError>;

    /// [`PgnReader::next_game`], as an iterator: broken games come as `Err` and the iteration
    /// goes on.
    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

impl<S> std::fmt::Debug for PgnReader<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgnReader")
            .field("games", &self.games)
            .field("offset", &self.input.bytes_read())
            .field("line", &self.input.location().line)
            .finish()
    }
}
