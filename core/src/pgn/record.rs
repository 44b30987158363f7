//! A whole game as read from PGN: tags, the move tree with variations, comments and NAGs, the
//! positions of its main line, and the result.

use std::collections::TryReserveError;
use std::iter::FusedIterator;

use crate::board::moves::Move;
use crate::fallible::{try_box, try_push, try_string, try_to_vec};
use crate::game::{Game, History, Outcome, Termination};
use crate::notation::san::{San, SanError};
use crate::notation::uci::UciError;
use crate::position::{IllegalMoveError, Position};

use super::error::{Location, PgnError, PgnErrorKind, PgnWarning};
use super::reader::{Flow, Visitor};
use super::tags::{is_tag_name, Tags};
use super::tree::{MoveTree, NodeId};

/// The tags that describe the start position: [`GameRecord::set_tag`] refuses them.
const START_TAGS: [&str; 3] = ["FEN", "SetUp", "Variant"];

/// Why [`GameRecord::set_tag`] refused a tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TagError {
    /// Not `[A-Za-z0-9][A-Za-z0-9_+#=:-]*`.
    #[error("not a tag name: a letter or digit, then letters, digits and _+#=:-")]
    InvalidName,
    /// `FEN`, `SetUp` or `Variant`: they follow the game's start position.
    #[error("FEN, SetUp and Variant follow the start position and cannot be set")]
    StartPositionTag,
}

/// A game read from PGN, or built to be written as PGN.
///
/// The [`MoveTree`] holds every move, the main line's (the chain of first children from the
/// root) and the variations', with comments and NAGs: it is the one place moves are kept.
/// Beside it the record keeps the positions of the main line, so that [`GameRecord::game`],
/// the main line seen as a game (positions, history, outcome), answers without replaying.
/// Main-line moves are added and taken back through the record ([`GameRecord::push`],
/// [`GameRecord::pop`]...), which keeps the two in step.
///
/// # Examples
///
/// ```
/// use chesscore_core::pgn::PgnReader;
/// use chesscore_core::Outcome;
///
/// let pgn = "[White \"Anderssen\"]\n\n1. e4 {King's pawn} e5 (1... c5 2. Nf3) 2. Nf3 $1 *\n";
/// let mut record = PgnReader::from_bytes(pgn).next_game()?.unwrap();
/// assert_eq!(record.tag("White"), Some("Anderssen"));
/// assert_eq!(record.game().moves().len(), 3);
/// assert_eq!(record.tree().move_count(), 5); // two more in the variation
/// let e4 = record.tree().mainline().next().unwrap();
/// assert_eq!(record.tree().comments(e4).collect::<Vec<_>>(), ["King's pawn"]);
///
/// record.push_san("Nc6")?;
/// record.set_result(Some(Outcome::Ongoing));
/// assert_eq!(
///     record.to_pgn().split_once("\n\n").unwrap().1,
///     "1. e4 { King's pawn } 1... e5 ( 1... c5 2. Nf3 ) 2. Nf3 $1 Nc6 *\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct GameRecord {
    tags: Tags,
    tree: MoveTree,
    /// The positions along the tree's main line, from the start position.
    history: History,
    allow_null: bool,
    /// The last node of the tree's main line, so that moves are appended in constant time.
    end: NodeId,
    result: Option<Outcome>,
    /// What the reader warned of, reading it.
    warnings: Vec<PgnWarning>,
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord::from_game(Game::default())
    }
}

impl GameRecord {
    /// A record of `game`'s main line, without tags, annotations or result.
    pub fn from_game(game: Game) -> GameRecord {
        let tree = MoveTree::from_moves(game.moves());
        let end = tree.mainline().last().unwrap_or(NodeId::ROOT);
        GameRecord {
            tags: Tags::new(),
            tree,
            history: game.history,
            allow_null: game.allow_null,
            end,
            result: None,
            warnings: Vec::new(),
        }
    }

    /// A record of a game from `start` without moves, reporting a failed allocation instead of
    /// aborting.
    pub fn try_new(start: Position) -> Result<GameRecord, TryReserveError> {
        GameRecord::try_with_capacity(start, Sizes::default())
    }

    /// [`GameRecord::try_new`] with room for a game of `sizes`, tags aside.
    fn try_with_capacity(start: Position, sizes: Sizes) -> Result<GameRecord, TryReserveError> {
        let history = History::try_with_capacity(start, sizes.moves)?;
        let tree = MoveTree::try_with_capacity(sizes.nodes + 1, sizes.notes, sizes.text, sizes.written)?;
        Ok(GameRecord {
            tags: Tags::new(),
            tree,
            history,
            allow_null: false,
            end: NodeId::ROOT,
            result: None,
            warnings: Vec::new(),
        })
    }

    /// Reserves room for at least `moves` more moves of the main line, so that playing them
    /// does not allocate, or fails (changing nothing) when memory runs out: the
    /// `Vec::try_reserve` of [`GameRecord::push`] and its kin, which the C ABI calls first.
    pub fn try_reserve(&mut self, moves: usize) -> Result<(), TryReserveError> {
        self.history.try_reserve(moves)?;
        self.tree.try_reserve(moves)
    }

    /// A copy of the record, or an error when memory runs out (`clone` aborts then).
    pub fn try_clone(&self) -> Result<GameRecord, TryReserveError> {
        Ok(GameRecord {
            tags: self.tags.try_clone()?,
            tree: self.tree.try_clone()?,
            history: self.history.try_clone()?,
            allow_null: self.allow_null,
            end: self.end,
            result: self.result,
            warnings: try_to_vec(&self.warnings)?,
        })
    }

    /// Sets the tag `name` to `value` (a tag already there keeps its place, a new one goes
    /// last). Refused: a name the reader would not read back ([`is_tag_name`]), and `FEN`,
    /// `SetUp` and `Variant`, which follow the start position (the writer adds them).
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        if !is_tag_name(name) {
            return Err(TagError::InvalidName);
        }
        if START_TAGS.contains(&name) {
            return Err(TagError::StartPositionTag);
        }
        self.tags.insert(name, value);
        Ok(())
    }

    /// Removes the tag `name`, returning whether it was there. (Removing `FEN`, `SetUp` or
    /// `Variant` is harmless: the writer adds what the start position needs.)
    pub fn remove_tag(&mut self, name: &str) -> bool {
        self.tags.remove(name)
    }

    /// The tag pairs as read (nothing filled in).
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The tag pairs, to change.
    pub fn tags_mut(&mut self) -> &mut Tags {
        &mut self.tags
    }

    /// The value of the tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.get(name)
    }

    /// The main line seen as a game: start position, moves, every position reached, repetitions
    /// and outcome.
    pub fn game(&self) -> MainLine<'_> {
        MainLine { record: self }
    }

    /// The main line as a [`Game`] of its own, without the rest.
    pub fn into_game(self) -> Game {
        let moves = self.game().moves().collect();
        Game { history: self.history, moves, allow_null: self.allow_null }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        self.history.start()
    }

    /// The position at the end of the main line.
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// Every move with its variations, comments and NAGs.
    pub fn tree(&self) -> &MoveTree {
        &self.tree
    }

    /// The tree, to add comments and NAGs (moves are added through the record:
    /// [`GameRecord::push`] and its kin for the main line, [`GameRecord::add_variation`]).
    pub fn tree_mut(&mut self) -> &mut MoveTree {
        &mut self.tree
    }

    /// What the reader warned of, reading this game (at most one warning of each kind): what
    /// lenient reading accepted, such as text decoded as Windows-1252. Empty for a game read
    /// without any, or built otherwise.
    pub fn warnings(&self) -> &[PgnWarning] {
        &self.warnings
    }

    /// The result token of the movetext, if there was one.
    pub fn result(&self) -> Option<Outcome> {
        self.result
    }

    /// Sets the result token the movetext ends with.
    pub fn set_result(&mut self, result: Option<Outcome>) {
        self.result = result;
    }

    /// The result to write: the movetext's token, else the `Result` tag when it holds one,
    /// else `*`.
    pub fn effective_result(&self) -> Outcome {
        self.result.or_else(|| self.tags.get("Result").and_then(Outcome::from_pgn)).unwrap_or(Outcome::Ongoing)
    }

    /// Plays `mv` at the end of the main line if it is legal there, as [`Game::push`] does.
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if !self.history.can_play(mv, self.allow_null) {
            return Err(IllegalMoveError(mv));
        }
        self.push_legal(mv);
        Ok(())
    }

    /// Reads `text` as lenient SAN and plays it at the end of the main line, as
    /// [`Game::push_san`] does.
    pub fn push_san(&mut self, text: &str) -> Result<Move, SanError> {
        let mv = self.history.parse_san(text, self.allow_null)?;
        self.push_legal(mv);
        Ok(mv)
    }

    /// Reads `text` as UCI and plays it at the end of the main line, as [`Game::push_uci`]
    /// does.
    pub fn push_uci(&mut self, text: &str) -> Result<Move, UciError> {
        let mv = self.history.parse_uci(text, self.allow_null)?;
        self.push_legal(mv);
        Ok(mv)
    }

    fn push_legal(&mut self, mv: Move) {
        self.history.play(mv);
        self.end = self.tree.add_child(self.end, mv);
    }

    /// Takes back the main line's last move, together with its comments and NAGs and the
    /// variations that replace it; `None` when the main line is empty. Node ids taken from
    /// [`GameRecord::tree`] before may change.
    pub fn pop(&mut self) -> Option<Move> {
        let (mv, parent) = self.last_move()?;
        self.end = self.tree.remove_children(parent);
        self.history.pop();
        Some(mv)
    }

    /// [`GameRecord::pop`], or an error (and the record unchanged) when memory runs out: taking
    /// back a move that has comments, NAGs or variations rebuilds the tree.
    pub fn try_pop(&mut self) -> Result<Option<Move>, TryReserveError> {
        let Some((mv, parent)) = self.last_move() else { return Ok(None) };
        self.end = self.tree.try_remove_children(parent)?;
        self.history.pop();
        Ok(Some(mv))
    }

    /// The main line's last move and the node before it.
    fn last_move(&self) -> Option<(Move, NodeId)> {
        Some((self.tree.mv(self.end)?, self.tree.parent(self.end)?))
    }

    /// Allows or forbids null moves from now on (see [`Game::set_allow_null_moves`]); games
    /// read from PGN allow them.
    pub fn set_allow_null_moves(&mut self, allow: bool) {
        self.allow_null = allow;
    }

    /// The position reached at `node` (replayed from the start).
    pub fn position_at(&self, node: NodeId) -> Position {
        self.try_position_at(node).unwrap_or_else(|_| {
            std::alloc::handle_alloc_error(std::alloc::Layout::array::<Move>(self.tree.ply(node) as usize).unwrap())
        })
    }

    /// [`GameRecord::position_at`], or an error when memory for the path from the start runs
    /// out.
    pub fn try_position_at(&self, node: NodeId) -> Result<Position, TryReserveError> {
        let mut path = Vec::new();
        path.try_reserve_exact(self.tree.ply(node) as usize)?;
        let mut n = node;
        while let (Some(mv), Some(parent)) = (self.tree.mv(n), self.tree.parent(n)) {
            path.push(mv);
            n = parent;
        }
        let mut pos = *self.start();
        for &mv in path.iter().rev() {
            pos.play_known(mv);
        }
        Ok(pos)
    }

    /// The SAN of each main-line move, first move first: as the PGN it was read from wrote it
    /// ([`MoveTree::written_san`]), or as [`San::from_move`] writes it for a move added
    /// otherwise (`--` for a null move), from the positions the record keeps (no replay).
    pub fn mainline_san(&self) -> impl Iterator<Item = NodeSan<'_>> + '_ {
        self.tree
            .mainline()
            .zip(self.history.positions())
            .map(|(node, before)| self.san_in(node, before, self.tree.mv(node).unwrap_or(Move::NULL)))
    }

    /// The SAN of `node`'s move, as [`GameRecord::mainline_san`] gives it for any node;
    /// `Ok(None)` for the root, an error when memory for the path from the start runs out.
    pub fn try_san(&self, node: NodeId) -> Result<Option<NodeSan<'_>>, TryReserveError> {
        let (Some(mv), Some(parent)) = (self.tree.mv(node), self.tree.parent(node)) else {
            return Ok(None);
        };
        if let Some(written) = self.tree.written_san(node) {
            return Ok(Some(NodeSan::Written(written)));
        }
        Ok(Some(self.san_in(node, &self.try_position_at(parent)?, mv)))
    }

    /// `node`'s SAN as written, else made for its move `mv` played in `before`.
    fn san_in(&self, node: NodeId, before: &Position, mv: Move) -> NodeSan<'_> {
        match self.tree.written_san(node) {
            Some(written) => NodeSan::Written(written),
            // Every move of a record was legal where it was played.
            None => NodeSan::Made(San::from_move(before, mv).expect("moves of a game are legal")),
        }
    }

    /// Adds `moves` as a variation replacing the move of `node` (so played from `node`'s
    /// parent position, after the variations already there) and returns the node of its
    /// first move. Fails, adding nothing, on the root, on an empty list, or when a move is
    /// not legal in turn (null moves are allowed when not in check).
    pub fn add_variation(&mut self, node: NodeId, moves: &[Move]) -> Result<NodeId, IllegalMoveError> {
        let parent = self.tree.parent(node).ok_or(IllegalMoveError(Move::NULL))?;
        let first = *moves.first().ok_or(IllegalMoveError(Move::NULL))?;
        let mut pos = self.position_at(parent);
        for &mv in moves {
            let legal = if mv.is_null() { !pos.in_check() } else { pos.is_legal(mv) };
            if !legal {
                return Err(IllegalMoveError(mv));
            }
            pos.play_known(mv);
        }
        let start = self.tree.add_child(parent, first);
        let mut at = start;
        for &mv in &moves[1..] {
            at = self.tree.add_child(at, mv);
        }
        Ok(start)
    }
}

/// The SAN of a move of a record, as [`GameRecord::mainline_san`] and [`GameRecord::try_san`]
/// give it.
#[derive(Debug, Clone, Copy)]
pub enum NodeSan<'a> {
    /// As the PGN it was read from wrote it.
    Written(&'a str),
    /// Written by [`San::from_move`], for a move added otherwise.
    Made(San),
}

impl NodeSan<'_> {
    pub fn as_str(&self) -> &str {
        match self {
            NodeSan::Written(text) => text,
            NodeSan::Made(san) => san.as_str(),
        }
    }
}

/// The main line of a [`GameRecord`] seen as a game, as [`GameRecord::game`] gives it: what a
/// [`Game`] tells, read from the record's tree and the positions it keeps.
#[derive(Debug, Clone, Copy)]
pub struct MainLine<'a> {
    record: &'a GameRecord,
}

impl<'a> MainLine<'a> {
    pub(crate) fn history(self) -> &'a History {
        &self.record.history
    }

    /// The start position.
    pub fn start(self) -> &'a Position {
        self.record.history.start()
    }

    /// The position at the end of the main line.
    pub fn position(self) -> &'a Position {
        self.record.history.position()
    }

    /// The position after the first `ply` moves (`0` is the start position).
    pub fn position_at(self, ply: usize) -> Option<&'a Position> {
        self.record.history.position_at(ply)
    }

    /// The moves of the main line, oldest first.
    pub fn moves(self) -> MainLineMoves<'a> {
        let tree = &self.record.tree;
        MainLineMoves { tree, next: tree.main_child(NodeId::ROOT), left: self.record.history.moves() }
    }

    /// The SAN of each move of the main line, suffixes included.
    pub fn san_moves(self) -> impl Iterator<Item = San> + 'a {
        self.record.history.san_moves(self.moves())
    }

    /// True when null moves may be pushed.
    pub fn allows_null_moves(self) -> bool {
        self.record.allow_null
    }

    /// How many times the final position has occurred, this time included (see
    /// [`Game::repetition_count`]).
    pub fn repetition_count(self) -> usize {
        self.record.history.repetition_count()
    }

    /// The final position has occurred before since the last irreversible move (see
    /// [`Game::is_repetition`]).
    pub fn is_repetition(self) -> bool {
        self.record.history.has_repeated()
    }

    /// The final position has occurred at least three times.
    pub fn is_threefold_repetition(self) -> bool {
        self.repetition_count() >= 3
    }

    /// The final position has occurred at least five times: the game is drawn.
    pub fn is_fivefold_repetition(self) -> bool {
        self.repetition_count() >= 5
    }

    /// A threefold repetition may be claimed (see [`Game::can_claim_threefold_repetition`]).
    pub fn can_claim_threefold_repetition(self) -> bool {
        self.record.history.can_claim_threefold_repetition()
    }

    /// The automatic ending the main line has reached, if any (see [`Game::termination`]).
    pub fn termination(self) -> Option<Termination> {
        self.record.history.termination()
    }

    /// The draw the side to move may claim at the end of the main line (see
    /// [`Game::claimable_draw`]).
    pub fn claimable_draw(self) -> Option<Termination> {
        self.record.history.claimable_draw()
    }

    /// The result by the automatic rules (see [`Game::outcome`]); the result the PGN gave is
    /// [`GameRecord::result`].
    pub fn outcome(self) -> Outcome {
        self.record.history.outcome()
    }
}

/// The moves of a main line, oldest first: [`MainLine::moves`].
#[derive(Debug, Clone)]
pub struct MainLineMoves<'a> {
    tree: &'a MoveTree,
    next: Option<NodeId>,
    left: usize,
}

impl Iterator for MainLineMoves<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let node = self.next?;
        self.next = self.tree.main_child(node);
        self.left -= 1;
        self.tree.mv(node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for MainLineMoves<'_> {}

impl FusedIterator for MainLineMoves<'_> {}

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
    record: Option<GameRecord>,
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

    fn of(record: &GameRecord) -> Sizes {
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
        read: Result<Option<Option<GameRecord>>, PgnError>,
        at: impl FnOnce() -> (u64, Location),
    ) -> Result<Option<GameRecord>, PgnError> {
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
    fn take_partial(&mut self) -> Result<GameRecord, TryReserveError> {
        let mut record = match self.record.take() {
            Some(record) => record,
            None => GameRecord::try_new(Position::startpos())?,
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
    type Output = Option<GameRecord>;

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
            let mut record = GameRecord::try_with_capacity(*start, b.reserve)?;
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

    fn end_game(&mut self, result: Option<Outcome>) -> Option<GameRecord> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::PgnReader;

    fn mainline(record: &GameRecord) -> Vec<Move> {
        record.tree().mainline().map(|n| record.tree().mv(n).unwrap()).collect()
    }

    /// The main line as the record's game view gives it, checked against its positions.
    fn game_moves(record: &GameRecord) -> Vec<Move> {
        let game = record.game();
        let moves: Vec<Move> = game.moves().collect();
        assert_eq!(moves.len(), game.moves().len());
        for (ply, &mv) in moves.iter().enumerate() {
            let mut after = *game.position_at(ply).unwrap();
            after.play_known(mv);
            assert_eq!(game.position_at(ply + 1), Some(&after));
        }
        assert_eq!(game.position_at(moves.len()), Some(game.position()));
        moves
    }

    #[test]
    fn push_and_pop_keep_the_tree_on_the_main_line() {
        let pgn = "{start} 1. e4 {good} e5 (1... c5 {Sicilian} 2. Nf3) 2. Nf3 $1 Nc6 *";
        let mut record = PgnReader::from_bytes(pgn).next_game().unwrap().unwrap();
        let last = record.game().moves().nth(3).unwrap();
        assert_eq!(record.pop(), Some(last));
        assert_eq!(mainline(&record), game_moves(&record));
        assert_eq!(
            record.to_pgn().split_once("\n\n").unwrap().1,
            "{ start } 1. e4 { good } 1... e5 ( 1... c5 { Sicilian } 2. Nf3 ) 2. Nf3 $1 *\n"
        );
        record.push_san("Nc6").unwrap();
        record.push_uci("f1b5").unwrap();
        assert_eq!(mainline(&record), game_moves(&record));
        assert!(record.push_san("Ke3").is_err() && record.push_uci("e1e3").is_err());
        assert!(record.push(Move::NULL).is_ok());
        record.set_allow_null_moves(false);
        assert!(record.push(Move::NULL).is_err());
        while record.pop().is_some() {
            assert_eq!(mainline(&record), game_moves(&record));
        }
        assert_eq!(record.tree().move_count(), 0);
        assert_eq!(record.to_pgn().split_once("\n\n").unwrap().1, "{ start } *\n");
        record.push_san("d4").unwrap();
        assert_eq!(record.to_pgn().split_once("\n\n").unwrap().1, "{ start } 1. d4 *\n");
    }

    #[test]
    fn moves_keep_their_text_as_written() {
        let pgn = "1. e2-e4 e5 (1... c7-c5?! 2. Ng1f3) 2. Nf3! Nc6 3. Bb5 *";
        let mut record = PgnReader::from_bytes(pgn).next_game().unwrap().unwrap();
        fn written(record: &GameRecord) -> Vec<Option<&str>> {
            let tree = record.tree();
            (1..=tree.move_count()).map(|i| tree.written_san(tree_node(tree, i))).collect()
        }
        assert_eq!(
            written(&record),
            [Some("e2-e4"), Some("e5"), Some("c7-c5"), Some("Ng1f3"), Some("Nf3"), Some("Nc6"), Some("Bb5")]
        );
        assert_eq!(record.tree().written_san(NodeId::ROOT), None);
        // Popping the newest move drops its text; a rebuild keeps the others' text.
        record.pop();
        record.push_san("Bc4").unwrap();
        assert_eq!(written(&record)[5..], [Some("Nc6"), None]);
        record.pop();
        record.pop();
        assert_eq!(written(&record), [Some("e2-e4"), Some("e5"), Some("c7-c5"), Some("Ng1f3"), Some("Nf3")]);
    }

    /// The node of index `i` of `tree`, found by walking it.
    fn tree_node(tree: &MoveTree, i: usize) -> NodeId {
        let mut stack = vec![NodeId::ROOT];
        while let Some(n) = stack.pop() {
            if n.index() == i {
                return n;
            }
            stack.extend(tree.children(n));
        }
        panic!("no node {i}")
    }

    #[test]
    fn tags_are_set_and_removed_by_the_rules() {
        let mut record = GameRecord::try_new(Position::startpos()).unwrap();
        assert_eq!(record.set_tag("White", "Morphy"), Ok(()));
        assert_eq!(record.set_tag("Event", "Paris \"Opera\""), Ok(()));
        assert_eq!(record.set_tag("White", "Paul Morphy"), Ok(()));
        assert_eq!(record.tags().iter().collect::<Vec<_>>(), [("White", "Paul Morphy"), ("Event", "Paris \"Opera\"")]);
        assert_eq!(record.set_tag("a b", "x"), Err(TagError::InvalidName));
        assert_eq!(record.set_tag("", "x"), Err(TagError::InvalidName));
        assert_eq!(record.set_tag("FEN", "8/8/8/8/8/8/8/8 w - - 0 1"), Err(TagError::StartPositionTag));
        assert!(record.remove_tag("White") && !record.remove_tag("White"));
        let back = PgnReader::from_bytes(record.to_pgn()).next_game().unwrap().unwrap();
        assert_eq!(back.tag("Event"), Some("Paris \"Opera\""));
        assert_eq!(back.tag("White"), Some("?"));
    }
}
