//! The visitor that builds a [`Game`] from the events of a game's text: text-to-game glue.

use std::collections::TryReserveError;

use crate::board::moves::Move;
use crate::fallible::{try_box, try_push, try_string};
use crate::game::{Game, History, MoveTree, NodeId, Outcome, Tags};
use crate::position::Position;

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
#[derive(Debug, Default)]
pub(crate) struct RecordBuilder {
    record: Option<Game>,
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
    fn try_game(self, start: Position) -> Result<Game, TryReserveError> {
        let history = History::try_with_capacity(start, self.moves)?;
        let tree = MoveTree::try_with_capacity(self.nodes + 1, self.notes, self.text, self.written)?;
        Ok(Game::from_parts(history, tree))
    }

    fn of(record: &Game) -> Sizes {
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

impl RecordBuilder {
    /// What [`PgnReader::next_game`](super::PgnReader::next_game) gives for `read`, what
    /// reading a game with this builder gave ([`PgnReader::read_game`](super::PgnReader::read_game)):
    /// the record, or `None` at the end of the input; for a broken game, its error with what was
    /// read of it as the partial game; for a game the builder dropped for want of memory,
    /// [`PgnErrorKind::OutOfMemory`] without a partial game, at `at()` (the game's number and
    /// where the reader stands after it) when the game was read to its end.
    pub(crate) fn finish(
        &mut self,
        read: Result<Option<Option<Game>>, PgnError>,
        at: impl FnOnce() -> (u64, Location),
    ) -> Result<Option<Game>, PgnError> {
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
                    match self.take_partial().and_then(try_box) {
                        Ok(partial) => e.partial = Some(partial),
                        Err(_) => e.kind = PgnErrorKind::OutOfMemory,
                    }
                }
                Err(e)
            }
        }
    }

    /// What was read of a broken game, or an error when memory runs out.
    fn take_partial(&mut self) -> Result<Game, TryReserveError> {
        let mut record = match self.record.take() {
            Some(record) => record,
            None => Game::try_new(Position::startpos())?,
        };
        record.tags = std::mem::take(&mut self.tags);
        record.warnings = std::mem::take(&mut self.warnings);
        Ok(record)
    }

    /// Runs `add` unless memory already ran out for this game, and notes when it runs out.
    fn add(&mut self, add: impl FnOnce(&mut RecordBuilder) -> Result<(), TryReserveError>) -> Flow {
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
    fn add_move_by(&mut self, san: &str, mv: Move, play: impl FnOnce(&mut History)) -> Flow {
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
}

impl Visitor for RecordBuilder {
    /// `None` when memory ran out.
    type Output = Option<Game>;

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

    fn begin_movetext(&mut self, start: &Position) {
        let _ = self.add(|b| {
            let mut record = b.reserve.try_game(*start)?;
            record.set_allow_null_moves(true);
            try_push(&mut b.cursors, Cursor { node: NodeId::ROOT, fresh: false })?;
            b.record = Some(record);
            Ok(())
        });
    }

    fn san(&mut self, san: &str, mv: Move, _before: &Position, after: &Position) -> Flow {
        self.add_move_by(san, mv, |history| history.push_played(mv, after))
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

    fn end_game(&mut self, result: Option<Outcome>) -> Option<Game> {
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
