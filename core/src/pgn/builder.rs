//! The visitor that builds a [`Game`] from the events of a game's text: text-to-game glue.

use std::collections::TryReserveError;

use crate::board::moves::Move;
use crate::fallible::{try_box, try_push, try_string};
use crate::game::{Game, GameBoard, History, MoveTree, NodeId, Outcome, Tags};
use crate::position::Position;
use crate::variant::{AnyGame, Variant, VariantPosition};

use super::error::{Location, PgnError, PgnErrorKind, PgnWarning};
use super::visitor::{Flow, Visitor};

/// Where the builder is in one line of the tree.
#[derive(Debug, Clone, Copy)]
struct Cursor {
    /// The last node of the line (for a fresh variation: the node it branches from).
    node: NodeId,
    /// No move read in this variation yet: comments go before its first move.
    fresh: bool,
}

/// The [`Visitor`] behind [`PgnReader::next_game`](super::PgnReader::next_game).
///
/// It reserves memory before each addition and, when there is none, drops the game: it
/// ignores the rest of it (skipping its moves) and ends it with `None`, which the reader
/// reports as [`PgnErrorKind::OutOfMemory`](super::PgnErrorKind) instead of aborting.
#[derive(Debug)]
pub(crate) struct RecordBuilder<B = Position> {
    record: Option<Game<B>>,
    tags: Tags,
    cursors: Vec<Cursor>,
    /// Comments read after a `(` and before the variation's first move.
    before: Vec<String>,
    /// The warnings of the game, which may come before its record is made.
    warnings: Vec<PgnWarning>,
    /// Memory ran out for this game.
    out_of_memory: bool,
    /// What to reserve for the next game.
    reserve: Sizes,
}

impl<B> Default for RecordBuilder<B> {
    fn default() -> Self {
        RecordBuilder {
            record: None,
            tags: Tags::new(),
            cursors: Vec::new(),
            before: Vec::new(),
            warnings: Vec::new(),
            out_of_memory: false,
            reserve: Sizes::default(),
        }
    }
}

/// A board the builder makes games on: which of the reader's events it takes.
pub(crate) trait RecordBoard: GameBoard {
    /// True when the board takes variant games.
    const READS_VARIANTS: bool;
    /// A chess game's position, when this board takes chess games.
    fn from_chess(pos: &Position) -> Option<&Self>;
    /// A variant game's position, when this board takes variant games.
    fn from_variant(pos: &VariantPosition) -> Option<&Self>;
    /// Puts what was read of a broken game into its error.
    fn keep_partial(builder: &mut RecordBuilder<Self>, error: &mut PgnError) -> Result<(), TryReserveError>;
}

impl RecordBoard for Position {
    const READS_VARIANTS: bool = false;

    #[inline(always)]
    fn from_chess(pos: &Position) -> Option<&Self> {
        Some(pos)
    }

    fn from_variant(_: &VariantPosition) -> Option<&Self> {
        None
    }

    fn keep_partial(builder: &mut RecordBuilder, error: &mut PgnError) -> Result<(), TryReserveError> {
        // A game broken before its movetext has its tags, on the start position.
        let record = match builder.record.take() {
            Some(record) => record,
            None => Game::try_new(Position::startpos())?,
        };
        error.partial = Some(builder.partial(record)?);
        Ok(())
    }
}

/// A variant game's partial game is [`PgnError::variant_partial`]: the builder takes a variant
/// game from its movetext on (one broken before is a chess builder's).
impl RecordBoard for VariantPosition {
    const READS_VARIANTS: bool = true;

    fn from_chess(_: &Position) -> Option<&Self> {
        None
    }

    #[inline(always)]
    fn from_variant(pos: &VariantPosition) -> Option<&Self> {
        Some(pos)
    }

    fn keep_partial(builder: &mut RecordBuilder<Self>, error: &mut PgnError) -> Result<(), TryReserveError> {
        if let Some(record) = builder.record.take() {
            error.variant_partial = Some(builder.partial(record)?);
        }
        Ok(())
    }
}

/// How much a game holds, to reserve as much for the next one: a game like the recent ones is
/// then built without growing its vectors (a few reallocations, each a copy, per vector and
/// game).
#[derive(Debug, Default, Clone, Copy)]
struct Sizes {
    tags: usize,
    tag_text: usize,
    moves: usize,
    nodes: usize,
    notes: usize,
    text: usize,
    written: usize,
}

impl Sizes {
    /// The most reserved of each: more than most games hold, so that one huge game does not
    /// make the next record take as much.
    const MAX: usize = 4096;

    /// What to reserve after a game of `sizes`: its sizes, or a 64th less than reserved for it
    /// when that is more, about the most of the last hundred games. Game lengths vary a lot from
    /// one game to the next: reserving for the last game alone, every other game grew its
    /// vectors (a sixteenth less, a third of them still did); a very long game is forgotten after
    /// a few hundred.
    fn after(self, sizes: Sizes) -> Sizes {
        let keep = |reserved: usize, used: usize| used.max(reserved - reserved / 64);
        Sizes {
            tags: keep(self.tags, sizes.tags),
            tag_text: keep(self.tag_text, sizes.tag_text),
            moves: keep(self.moves, sizes.moves),
            nodes: keep(self.nodes, sizes.nodes),
            notes: keep(self.notes, sizes.notes),
            text: keep(self.text, sizes.text),
            written: keep(self.written, sizes.written),
        }
    }

    /// A game from `start` without moves, with room for a game of these sizes, tags aside.
    fn try_game<B: GameBoard>(self, start: B) -> Result<Game<B>, TryReserveError> {
        let history = History::try_with_capacity(start, self.moves)?;
        let tree = MoveTree::try_with_capacity(self.nodes + 1, self.notes, self.text, self.written)?;
        Ok(Game::from_parts(history, tree))
    }

    fn of<B: GameBoard>(record: &Game<B>) -> Sizes {
        let (notes, text, written) = record.tree.note_sizes();
        let at_most = |n: usize| n.min(Sizes::MAX);
        Sizes {
            tags: at_most(record.tags.len()),
            tag_text: at_most(record.tags.text_len()),
            moves: at_most(record.history.moves()),
            nodes: at_most(record.tree.move_count()),
            notes: at_most(notes),
            text: at_most(text),
            written: at_most(written),
        }
    }
}

impl<B: RecordBoard> RecordBuilder<B> {
    /// What [`PgnReader::next_game`](super::PgnReader::next_game) gives for `read`, what
    /// reading a game with this builder gave ([`PgnReader::read_game`](super::PgnReader::read_game)):
    /// the record, or `None` at the end of the input; for a broken game, its error with what was
    /// read of it as the partial game; for a game the builder dropped for want of memory,
    /// [`PgnErrorKind::OutOfMemory`] without a partial game, at `at()` (the game's number and
    /// where the reader stands after it) when the game was read to its end.
    pub(crate) fn finish<T>(
        &mut self,
        read: Result<Option<Option<T>>, PgnError>,
        at: impl FnOnce() -> (u64, Location),
    ) -> Result<Option<T>, PgnError> {
        match read {
            Ok(Some(Some(game))) => Ok(Some(game)),
            Ok(None) => Ok(None),
            // The builder ran out of memory; the game was read to its end all the same.
            Ok(Some(None)) => {
                let (game, location) = at();
                Err(PgnError::new(PgnErrorKind::OutOfMemory, game, location, 0, b""))
            }
            Err(mut e) => {
                // A game the builder dropped has no partial game to give.
                if self.out_of_memory || matches!(e.kind, PgnErrorKind::OutOfMemory) {
                    e.kind = PgnErrorKind::OutOfMemory;
                } else {
                    if B::keep_partial(self, &mut e).is_err() {
                        e.kind = PgnErrorKind::OutOfMemory;
                    }
                }
                Err(e)
            }
        }
    }

    /// `record`, what was read of a broken game, with the tags and warnings read, boxed.
    fn partial(&mut self, mut record: Game<B>) -> Result<Box<Game<B>>, TryReserveError> {
        record.tags = std::mem::take(&mut self.tags);
        record.warnings = std::mem::take(&mut self.warnings);
        try_box(record)
    }

    /// Runs `add` unless memory already ran out for this game, and notes when it runs out.
    fn add(&mut self, add: impl FnOnce(&mut RecordBuilder<B>) -> Result<(), TryReserveError>) -> Flow {
        if !self.out_of_memory && add(self).is_err() {
            self.out_of_memory = true;
        }
        if self.out_of_memory {
            Flow::Skip
        } else {
            Flow::Continue
        }
    }

    /// A move (its SAN as written) told without the position after it ([`Visitor::san`] gives
    /// it): the record makes it from the one before it when the move is on the main line (the
    /// only positions it keeps).
    pub(crate) fn replay_move(&mut self, san: &str, mv: Move) -> Flow {
        self.add_move_by(san, mv, |history| history.play(mv))
    }

    /// Adds a move, `play` adding it to the history when it is on the main line.
    #[inline(always)]
    fn add_move_by(&mut self, san: &str, mv: Move, play: impl FnOnce(&mut History<B>)) -> Flow {
        self.add(|b| {
            let main = b.cursors.len() == 1;
            let (Some(cursor), Some(record)) = (b.cursors.last_mut(), b.record.as_mut()) else { return Ok(()) };
            if main {
                record.history.try_reserve(1)?;
            }
            record.tree.try_reserve(1)?;
            record.tree.try_reserve_written(san.len())?;
            let node = record.tree.add_written_child(cursor.node, mv, san);
            cursor.node = node;
            cursor.fresh = false;
            if main {
                play(&mut record.history);
                record.end = node;
            }
            b.add_comments_before(node)
        })
    }

    /// Drops the game being built, as if memory had run out.
    pub(crate) fn drop_game(&mut self) {
        self.out_of_memory = true;
        self.record = None;
    }

    /// The comments waiting for a variation's first move, added before `node`.
    #[inline(always)]
    fn add_comments_before(&mut self, node: NodeId) -> Result<(), TryReserveError> {
        // Nearly every move has none.
        if self.before.is_empty() {
            return Ok(());
        }
        self.add_waiting_comments(node)
    }

    #[cold]
    fn add_waiting_comments(&mut self, node: NodeId) -> Result<(), TryReserveError> {
        let Some(record) = self.record.as_mut() else { return Ok(()) };
        let text = self.before.iter().map(String::len).sum();
        record.tree.try_reserve_notes(self.before.len(), text)?;
        for text in self.before.drain(..) {
            record.tree.add_comment_before(node, &text);
        }
        Ok(())
    }

    /// Goes on with the game `other` began (its tags and warnings, and whether memory ran out
    /// for it), which turned out to be of this builder's kind.
    fn take_game_from<C>(&mut self, other: &mut RecordBuilder<C>) {
        self.record = None;
        self.cursors.clear();
        self.before.clear();
        self.tags = std::mem::take(&mut other.tags);
        self.warnings = std::mem::take(&mut other.warnings);
        self.out_of_memory = other.out_of_memory;
    }

    /// The movetext begins from `start`.
    fn begin(&mut self, start: B) {
        let _ = self.add(|b| {
            let mut record = b.reserve.try_game(start)?;
            record.set_allow_null_moves(true);
            try_push(&mut b.cursors, Cursor { node: NodeId::ROOT, fresh: false })?;
            b.record = Some(record);
            Ok(())
        });
    }
}

impl<B: RecordBoard> Visitor for RecordBuilder<B> {
    /// `None` when memory ran out.
    type Output = Option<Game<B>>;

    fn begin_game(&mut self) {
        self.record = None;
        self.tags = Tags::new();
        self.cursors.clear();
        self.before.clear();
        self.warnings.clear();
        self.out_of_memory = false;
        let _ = self.add(|b| b.tags.try_reserve(b.reserve.tags, b.reserve.tag_text));
    }

    fn tag(&mut self, name: &str, value: &str) {
        let _ = self.add(|b| {
            b.tags.try_reserve(1, name.len() + value.len())?;
            b.tags.insert(name, value);
            Ok(())
        });
    }

    #[inline(always)]
    fn begin_movetext(&mut self, start: &Position) {
        if let Some(start) = B::from_chess(start) {
            self.begin(*start);
        }
    }

    #[inline(always)]
    fn san(&mut self, san: &str, mv: Move, _before: &Position, after: &Position) -> Flow {
        match B::from_chess(after) {
            Some(after) => self.add_move_by(san, mv, |history| history.push_played(mv, after)),
            None => Flow::Continue,
        }
    }

    fn reads_variant(&mut self, _: Variant) -> bool {
        B::READS_VARIANTS
    }

    fn begin_variant_movetext(&mut self, start: &VariantPosition) {
        if let Some(start) = B::from_variant(start) {
            self.begin(*start);
        }
    }

    fn variant_san(&mut self, san: &str, mv: Move, _before: &VariantPosition, after: &VariantPosition) -> Flow {
        match B::from_variant(after) {
            Some(after) => self.add_move_by(san, mv, |history| history.push_played(mv, after)),
            None => Flow::Continue,
        }
    }

    fn nag(&mut self, nag: u8) {
        let _ = self.add(|b| {
            let (Some(cursor), Some(record)) = (b.cursors.last(), b.record.as_mut()) else { return Ok(()) };
            record.tree.try_reserve_notes(1, 0)?;
            record.tree.add_nag(cursor.node, nag);
            Ok(())
        });
    }

    fn comment(&mut self, text: &str) {
        let _ = self.add(|b| match (b.cursors.last(), b.record.as_mut()) {
            (Some(Cursor { fresh: true, .. }), _) => try_push(&mut b.before, try_string(text)?),
            (Some(cursor), Some(record)) => {
                record.tree.try_reserve_notes(1, text.len())?;
                record.tree.add_comment(cursor.node, text);
                Ok(())
            }
            _ => Ok(()),
        });
    }

    fn warning(&mut self, warning: PgnWarning) {
        let _ = self.add(|b| try_push(&mut b.warnings, warning));
    }

    fn begin_variation(&mut self) -> Flow {
        self.add(|b| {
            let (Some(cursor), Some(record)) = (b.cursors.last(), b.record.as_ref()) else { return Ok(()) };
            let parent = record.tree.parent(cursor.node).unwrap_or(NodeId::ROOT);
            try_push(&mut b.cursors, Cursor { node: parent, fresh: true })
        })
    }

    fn end_variation(&mut self) {
        let _ = self.add(|b| {
            b.cursors.pop();
            // Comments of a variation without moves stay with the move it was meant to replace.
            let Some(cursor) = b.cursors.last().copied() else { return Ok(()) };
            let texts = std::mem::take(&mut b.before);
            let Some(record) = b.record.as_mut() else { return Ok(()) };
            record.tree.try_reserve_notes(texts.len(), texts.iter().map(String::len).sum())?;
            for text in texts {
                record.tree.add_comment(cursor.node, &text);
            }
            Ok(())
        });
    }

    fn end_game(&mut self, result: Option<Outcome>) -> Option<Game<B>> {
        self.cursors.clear();
        // A game without a result tag (or with `*`) takes the one its movetext ends with.
        if let Some(outcome) = result.filter(|_| self.tags.get("Result").is_none_or(|tag| tag == "*")) {
            self.tag("Result", outcome.as_pgn());
        }
        if self.out_of_memory {
            self.record = None;
            return None;
        }
        // The reader began the movetext, or memory ran out.
        let mut record = self.record.take()?;
        record.tags = std::mem::take(&mut self.tags);
        record.warnings = std::mem::take(&mut self.warnings);
        record.result = result;
        self.reserve = self.reserve.after(Sizes::of(&record));
        Some(record)
    }
}

/// The visitor behind [`PgnReader::next_any_game`](super::PgnReader::next_any_game): chess
/// games go to the chess builder, variant games to the variant one, which takes the tags and
/// warnings read before the movetext told which the game is.
#[derive(Debug, Default)]
pub(crate) struct AnyRecordBuilder {
    pub(crate) chess: RecordBuilder,
    pub(crate) variant: RecordBuilder<VariantPosition>,
    in_variant: bool,
}

impl AnyRecordBuilder {
    /// Runs `chess` or `variant` on the builder of the game being read.
    fn active<T>(
        &mut self,
        chess: impl FnOnce(&mut RecordBuilder) -> T,
        variant: impl FnOnce(&mut RecordBuilder<VariantPosition>) -> T,
    ) -> T {
        if self.in_variant {
            variant(&mut self.variant)
        } else {
            chess(&mut self.chess)
        }
    }
}

/// A builder of records from a game's events, which also takes moves told without the
/// position after them ([`RecordBuilder::replay_move`]): what replays a recording of games.
pub(crate) trait Rebuild: Visitor<Output = Option<Self::Record>> {
    /// The records built.
    type Record;

    /// [`RecordBuilder::replay_move`].
    fn replay_move(&mut self, san: &str, mv: Move) -> Flow;

    /// [`RecordBuilder::drop_game`].
    fn drop_game(&mut self);

    /// [`RecordBuilder::finish`].
    fn finish(
        &mut self,
        read: Result<Option<Option<Self::Record>>, PgnError>,
        at: impl FnOnce() -> (u64, Location),
    ) -> Result<Option<Self::Record>, PgnError>;
}

impl Rebuild for RecordBuilder {
    type Record = Game;

    fn replay_move(&mut self, san: &str, mv: Move) -> Flow {
        RecordBuilder::replay_move(self, san, mv)
    }

    fn drop_game(&mut self) {
        RecordBuilder::drop_game(self);
    }

    fn finish(
        &mut self,
        read: Result<Option<Option<Game>>, PgnError>,
        at: impl FnOnce() -> (u64, Location),
    ) -> Result<Option<Game>, PgnError> {
        RecordBuilder::finish(self, read, at)
    }
}

impl Rebuild for AnyRecordBuilder {
    type Record = AnyGame;

    #[inline(always)]
    fn replay_move(&mut self, san: &str, mv: Move) -> Flow {
        self.active(|b| b.replay_move(san, mv), |b| b.replay_move(san, mv))
    }

    fn drop_game(&mut self) {
        self.active(RecordBuilder::drop_game, RecordBuilder::drop_game);
    }

    /// [`RecordBuilder::finish`] of the builder that read the game.
    fn finish(
        &mut self,
        read: Result<Option<Option<AnyGame>>, PgnError>,
        at: impl FnOnce() -> (u64, Location),
    ) -> Result<Option<AnyGame>, PgnError> {
        if self.in_variant {
            self.variant.finish(read, at)
        } else {
            self.chess.finish(read, at)
        }
    }
}

impl Visitor for AnyRecordBuilder {
    type Output = Option<AnyGame>;

    fn begin_game(&mut self) {
        self.in_variant = false;
        self.chess.begin_game();
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.chess.tag(name, value);
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.chess.begin_movetext(start);
    }

    #[inline(always)]
    fn san(&mut self, san: &str, mv: Move, before: &Position, after: &Position) -> Flow {
        self.chess.san(san, mv, before, after)
    }

    fn reads_variant(&mut self, _: Variant) -> bool {
        true
    }

    fn begin_variant_movetext(&mut self, start: &VariantPosition) {
        self.in_variant = true;
        self.variant.take_game_from(&mut self.chess);
        self.variant.begin_variant_movetext(start);
    }

    fn variant_san(&mut self, san: &str, mv: Move, before: &VariantPosition, after: &VariantPosition) -> Flow {
        self.variant.variant_san(san, mv, before, after)
    }

    fn nag(&mut self, nag: u8) {
        self.active(|b| b.nag(nag), |b| b.nag(nag));
    }

    fn comment(&mut self, text: &str) {
        self.active(|b| b.comment(text), |b| b.comment(text));
    }

    fn warning(&mut self, warning: PgnWarning) {
        self.active(|b| b.warning(warning), |b| b.warning(warning));
    }

    fn begin_variation(&mut self) -> Flow {
        self.active(|b| b.begin_variation(), |b| b.begin_variation())
    }

    fn end_variation(&mut self) {
        self.active(|b| b.end_variation(), |b| b.end_variation());
    }

    fn end_game(&mut self, result: Option<Outcome>) -> Option<AnyGame> {
        self.active(|b| b.end_game(result).map(AnyGame::Chess), |b| b.end_game(result).map(AnyGame::Variant))
    }
}
