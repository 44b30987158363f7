//! The streaming reader: games from the tokens of a [`Tokenizer`], every move replayed for a
//! [`Visitor`], skipping where asked, and the recovery after a broken game.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::fallible::{try_push, try_room, try_string};
use crate::game::{Game, Outcome};
use crate::notation::fen::{FenField, FenOptions, Repair};
use crate::notation::san::{SanMode, SanOptions};
use crate::position::Position;
use crate::variant::{AnyGame, Variant, VariantPosition};

use super::builder::{AnyRecordBuilder, Rebuild};
use super::decompress::Decompressed;
use super::error::{Fail, Location, PgnError, PgnErrorKind, PgnWarning, PgnWarningKind, Resync};
use super::replay::{Board, Line, Lines, Replay, ReplayStop, Skip, SkipStop};
use super::source::{BytesSource, IoSource, Source};
use super::tokenizer::{Ended, Tokenizer};
use super::visitor::{Flow, ReaderOptions, Visitor};

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

/// `Chess`, `Chess960` and the other names [`Variant::from_name`] gives them: `Some(true)`
/// for Chess960.
fn chess_or_960(name: &str) -> Option<bool> {
    match Variant::from_name(name.trim()) {
        Some(Variant::Chess) => Some(false),
        Some(Variant::Chess960) => Some(true),
        _ => None,
    }
}

/// The start a game's tags describe: a chess position, or a variant (its `Variant` tag's
/// place), whose position is read once the visitor wants the game.
enum Start {
    Chess(Position),
    Variant(Variant, Location),
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
    lines: Lines,
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
    /// The builders of [`PgnReader::next_any_game`]; the chess one is
    /// [`PgnReader::next_game`]'s.
    builder: AnyRecordBuilder,
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
            lines: Lines::default(),
            fen: Vec::new(),
            fen_at: None,
            variant: None,
            tag_names: Vec::new(),
            cut_warned: false,
            builder: AnyRecordBuilder::default(),
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
        let mut builder = std::mem::take(&mut self.builder.chess);
        let read = self.read_game(&mut builder);
        let result = builder.finish(read, || (self.games, self.location()));
        self.builder.chess = builder;
        result
    }

    /// The next whole game, of chess or of a lichess variant (see [`Visitor::reads_variant`]):
    /// [`PgnReader::next_game`] for databases that mix both. A variant game broken in its
    /// movetext keeps what was read of it in [`PgnError::variant_partial`].
    ///
    /// ```
    /// use chesscore_core::pgn::PgnReader;
    /// use chesscore_core::variant::{AnyGame, Variant};
    ///
    /// let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n\n1. d4 *\n";
    /// let mut reader = PgnReader::from_bytes(pgn);
    /// let Some(AnyGame::Variant(zh)) = reader.next_any_game()? else { panic!() };
    /// assert_eq!(zh.position().variant(), Variant::Crazyhouse);
    /// assert_eq!(zh.san_moves().last().unwrap().as_str(), "@e4");
    /// assert!(matches!(reader.next_any_game()?, Some(AnyGame::Chess(_))));
    /// # Ok::<(), chesscore_core::pgn::PgnError>(())
    /// ```
    pub fn next_any_game(&mut self) -> Result<Option<AnyGame>, PgnError> {
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
            Some((ply, _)) if self.in_movetext => ply + 1,
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
        let result = match self.start_position()? {
            Start::Chess(start) => {
                visitor.begin_movetext(&start);
                if self.options.headers_only {
                    self.skip_rest(0)?
                } else {
                    self.movetext(visitor, start)?
                }
            }
            Start::Variant(variant, at) => {
                if !visitor.reads_variant(variant) {
                    let name = self.variant.take().map(|(name, _)| name).unwrap_or_default();
                    return Err(Fail::new(PgnErrorKind::UnsupportedVariant(name), at, b"", Resync::MOVETEXT));
                }
                let start = self.variant_start(variant)?;
                visitor.begin_variant_movetext(&start);
                if self.options.headers_only {
                    self.skip_rest(0)?
                } else {
                    self.movetext(visitor, start)?
                }
            }
        };
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
    fn start_position(&self) -> Result<Start, Fail> {
        let skip_movetext = Resync::MOVETEXT;
        let chess960 = match &self.variant {
            None => false,
            Some((name, at)) => match variant_is_chess960(name).or_else(|| chess_or_960(name)) {
                Some(chess960) => chess960,
                None => {
                    return match Variant::from_name(name.trim()) {
                        Some(variant) => Ok(Start::Variant(variant, *at)),
                        None => {
                            let kind =
                                try_string(name).map_or(PgnErrorKind::OutOfMemory, PgnErrorKind::UnsupportedVariant);
                            Err(Fail::new(kind, *at, b"", skip_movetext))
                        }
                    }
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
                return Ok(Start::Chess(start));
            }
            _ => return Ok(Start::Chess(Position::startpos())),
        };
        let parsed = crate::notation::fen::Fen::parse_bytes(fen).and_then(|parsed| {
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
        parsed.map(Start::Chess).map_err(|e| {
            let at = self.fen_at.unwrap_or_default();
            Fail::new(PgnErrorKind::InvalidFen(e), at, fen, skip_movetext)
        })
    }

    /// The start position of a game of `variant`: its `FEN` tag read in the variant's form,
    /// or the variant's start.
    fn variant_start(&self, variant: Variant) -> Result<VariantPosition, Fail> {
        let skip_movetext = Resync::MOVETEXT;
        let Some(fen_at) = self.fen_at else { return Ok(VariantPosition::new(variant)) };
        // The tag's value was text: its bytes are UTF-8.
        let read = VariantPosition::from_fen(variant, &String::from_utf8_lossy(&self.fen));
        read.map_err(|e| Fail::new(PgnErrorKind::InvalidVariantFen(e), fen_at, &self.fen, skip_movetext))
    }

    /// Reads the movetext, replaying every move; returns the result token, if any.
    fn movetext<V: Visitor, B: Board>(&mut self, visitor: &mut V, start: B) -> Result<Option<Outcome>, Fail> {
        self.cut_warned = false;
        if try_push(self.lines.start::<B>(), Line::new(start, 0, Location::default())).is_err() {
            return Err(self.out_of_memory(Resync::MOVETEXT));
        }
        self.in_movetext = true;
        let san = SanOptions { mode: self.options.san_mode, allow_null: true };
        loop {
            let mut replay = Replay {
                visitor: &mut *visitor,
                lines: B::lines_of(&mut self.lines),
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
        let opened = self.lines.pop().unwrap_or_default();
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
            Some((_, opened)) if self.lines.len() > 1 => {
                let kind = PgnErrorKind::UnclosedVariation { opened };
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
