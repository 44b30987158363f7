//! Games: a start position, the main line played from it with every position reached (cheap
//! undo, repetition detection, the outcome as FIDE's Laws of Chess define it), and what a PGN
//! game carries beside: the tree of variations with comments, NAGs and annotations, the tags,
//! the result token and the warnings of reading it. One type, [`Game`], for a game built move by
//! move and for a game read from PGN ([`crate::pgn`] reads and writes the text).
//!
//! # Outcome rules
//! Automatic endings, checked in this order ([`Game::termination`]):
//! 1. checkmate (the side that gave mate wins);
//! 2. insufficient material, read as a dead position (see
//!    [`Position::is_insufficient_material`]);
//! 3. stalemate;
//! 4. the seventy-five-move rule: 150 half-moves without a capture or pawn move, unless the
//!    last move mated;
//! 5. fivefold repetition: the current position has occurred five times.
//!
//! Draws the side to move may claim ([`Game::claimable_draw`]), which leave the game going
//! until claimed:
//! - the fifty-move rule, now or by announcing a move that completes the fifty moves
//!   ([`Position::can_claim_fifty_moves`]);
//! - threefold repetition: the current position has occurred three times, or some legal move
//!   would make a position occur for the third time (FIDE 9.2.1 lets the player claim by
//!   announcing that move, as python-chess's `can_claim_threefold_repetition` does).
//!
//! # Repetition
//! Two positions are the same when the same side is to move, the same pieces stand on the same
//! squares, the castling rights are the same and the same en passant capture is *legally*
//! possible (an en passant square without a legal capture does not count). Candidates are found
//! by Zobrist key (the Polyglot key with an unusable en passant file taken out) and confirmed
//! by comparing the positions. Only positions since the last irreversible move are scanned: a
//! capture, a pawn move, a move that changes castling rights, or a null move (a null move is
//! not a chess move, so no repetition spans one). Positions before the game's start position
//! are unknown and never counted.

mod annotation;
mod board;
mod eco;
mod filter;
mod history;
mod outcome;
mod tags;
mod tree;
mod warning;

use std::collections::TryReserveError;
use std::iter::FusedIterator;

use crate::board::moves::Move;
use crate::fallible::try_to_vec;
use crate::notation::san::{San, SanError};
use crate::notation::uci::UciError;
use crate::position::{IllegalMoveError, Position};

pub use annotation::{strip_commands, Annotations, Arrow, Eval, Highlight, MarkColor, Score};
pub(crate) use board::sealed;
pub use board::GameBoard;
pub use eco::{Opening, Openings, OpeningsError, OpeningsErrorKind};
pub use filter::{glob_match, Dedupe, GameDigest, GameFilter, TagCondition, TagConditionError, TagOp};
pub(crate) use history::History;
pub use outcome::{Outcome, Termination};
pub(crate) use tags::is_tag_name_byte;
pub use tags::{is_tag_name, roster_default, Tags, SEVEN_TAG_ROSTER};
pub use tree::{MoveTree, NodeId};
pub use warning::{Location, PgnWarning, PgnWarningKind};

/// The tags that describe the start position: [`Game::set_tag`] refuses them.
const START_TAGS: [&str; 3] = ["FEN", "SetUp", "Variant"];

/// Why [`Game::set_tag`] refused a tag.
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

/// A game: the start position, the main line with every position it reaches, and the
/// variations, comments, NAGs, tags, result token and reading warnings a PGN game carries.
///
/// The [`MoveTree`] holds every move, the main line's (the chain of first children from the
/// root) and the variations', with comments and NAGs: it is the one place moves are kept.
/// Beside it the game keeps the positions of the main line, so that the main-line queries
/// ([`Game::position_at`], [`Game::repetition_count`], [`Game::outcome`]...) answer without
/// replaying. Main-line moves are added and taken back through the game ([`Game::push`],
/// [`Game::pop`]...), which keeps the two in step; taking back a move without comments or
/// variations costs nothing. Every move in a game is legal (or a null move, when allowed).
///
/// # Examples
///
/// ```
/// use chesscore_core::{Game, Outcome, Termination};
///
/// let mut game = Game::default();
/// for _ in 0..2 {
///     for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
///         game.push_san(san)?;
///     }
/// }
/// assert_eq!(game.repetition_count(), 3);
/// assert_eq!(game.claimable_draw(), Some(Termination::ThreefoldRepetition));
/// assert_eq!(game.outcome(), Outcome::Ongoing); // a draw must be claimed
///
/// game.push_uci("e2e4")?;
/// assert_eq!(game.san_moves().last().unwrap(), "e4");
/// assert!(game.push_san("e5e4").is_err());
/// assert_eq!(game.pop().map(|mv| mv.to()), Some("e4".parse()?));
/// assert_eq!(game.moves().len(), 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A game read from PGN:
///
/// ```
/// use chesscore_core::pgn::PgnReader;
/// use chesscore_core::Outcome;
///
/// let pgn = "[White \"Anderssen\"]\n\n1. e4 {King's pawn} e5 (1... c5 2. Nf3) 2. Nf3 $1 *\n";
/// let mut game = PgnReader::from_bytes(pgn).next_game()?.unwrap();
/// assert_eq!(game.tag("White"), Some("Anderssen"));
/// assert_eq!(game.moves().len(), 3);
/// assert_eq!(game.tree().move_count(), 5); // two more in the variation
/// let e4 = game.tree().mainline().next().unwrap();
/// assert_eq!(game.tree().comments(e4).collect::<Vec<_>>(), ["King's pawn"]);
///
/// game.push_san("Nc6")?;
/// game.set_result(Some(Outcome::Ongoing));
/// assert_eq!(
///     game.to_pgn().split_once("\n\n").unwrap().1,
///     "1. e4 { King's pawn } 1... e5 ( 1... c5 2. Nf3 ) 2. Nf3 $1 Nc6 *\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Game<B = Position> {
    /// The positions along the tree's main line, from the start position.
    pub(crate) history: History<B>,
    pub(crate) tree: MoveTree,
    /// The last node of the tree's main line, so that moves are appended in constant time.
    pub(crate) end: NodeId,
    pub(crate) allow_null: bool,
    pub(crate) tags: Tags,
    /// The result token of the movetext.
    pub(crate) result: Option<Outcome>,
    /// What the reader warned of, reading it.
    pub(crate) warnings: Vec<PgnWarning>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::startpos())
    }
}

impl<B: GameBoard> Game<B> {
    /// A game starting from `start`, without moves, tags or result; null moves not allowed.
    pub fn new(start: B) -> Game<B> {
        Game::from_parts(History::new(start), MoveTree::new())
    }

    /// Like [`Game::new`], but reports a failed allocation instead of aborting (for the C ABI,
    /// which returns NULL then).
    pub fn try_new(start: B) -> Result<Game<B>, TryReserveError> {
        Ok(Game::from_parts(History::try_new(start)?, MoveTree::try_new()?))
    }

    /// A game of `history` and `tree`, which hold the start position and nothing more, with
    /// whatever room they reserved.
    pub(crate) fn from_parts(history: History<B>, tree: MoveTree) -> Game<B> {
        Game {
            history,
            tree,
            end: NodeId::ROOT,
            allow_null: false,
            tags: Tags::new(),
            result: None,
            warnings: Vec::new(),
        }
    }

    /// Reserves room for at least `moves` more moves of the main line, so that playing them
    /// does not allocate, or fails (changing nothing) when memory runs out: the
    /// `Vec::try_reserve` of [`Game::push`] and its kin, which the C ABI calls first so that
    /// running out of memory is an error there, not an abort.
    pub fn try_reserve(&mut self, moves: usize) -> Result<(), TryReserveError> {
        self.history.try_reserve(moves)?;
        self.tree.try_reserve(moves)
    }

    /// A copy of the game, or an error when memory runs out (`clone` aborts then).
    pub fn try_clone(&self) -> Result<Game<B>, TryReserveError> {
        Ok(Game {
            history: self.history.try_clone()?,
            tree: self.tree.try_clone()?,
            end: self.end,
            allow_null: self.allow_null,
            tags: self.tags.try_clone()?,
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

    /// The start position.
    pub fn start(&self) -> &B {
        self.history.start()
    }

    /// The position at the end of the main line.
    pub fn position(&self) -> &B {
        self.history.position()
    }

    /// The position after the first `ply` moves of the main line (`0` is the start position).
    pub fn position_at(&self, ply: usize) -> Option<&B> {
        self.history.position_at(ply)
    }

    /// The moves of the main line, oldest first.
    pub fn moves(&self) -> MainLineMoves<'_> {
        MainLineMoves { tree: &self.tree, next: self.tree.main_child(NodeId::ROOT), left: self.history.moves() }
    }

    /// The SAN of each move of the main line, suffixes included, as [`San::from_move`] writes
    /// it ([`Game::mainline_san`] gives the text a PGN game was read with).
    pub fn san_moves(&self) -> impl Iterator<Item = San> + '_ {
        self.history.san_moves(self.moves())
    }

    /// Every move with its variations, comments and NAGs.
    pub fn tree(&self) -> &MoveTree {
        &self.tree
    }

    /// The tree, to add comments and NAGs (moves are added through the game: [`Game::push`]
    /// and its kin for the main line, [`Game::add_variation`]).
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
    /// else `*`. [`Game::outcome`] is what the rules say of the final position instead.
    pub fn effective_result(&self) -> Outcome {
        self.result.or_else(|| self.tags.get("Result").and_then(Outcome::from_pgn)).unwrap_or(Outcome::Ongoing)
    }

    /// Plays `mv` at the end of the main line if it is legal there (or is [`Move::NULL`] while
    /// null moves are allowed and the side to move is not in check).
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if !self.history.can_play(mv, self.allow_null) {
            return Err(IllegalMoveError(mv));
        }
        self.push_legal(mv);
        Ok(())
    }

    /// Reads `text` as lenient SAN (null moves as the game allows) and plays it at the end of
    /// the main line.
    pub fn push_san(&mut self, text: &str) -> Result<Move, SanError> {
        let mv = self.history.parse_san(text, self.allow_null)?;
        self.push_legal(mv);
        Ok(mv)
    }

    /// Reads `text` as UCI and plays it at the end of the main line (`0000` only while null
    /// moves are allowed).
    pub fn push_uci(&mut self, text: &str) -> Result<Move, UciError> {
        let mv = self.history.parse_uci(text, self.allow_null)?;
        self.push_legal(mv);
        Ok(mv)
    }

    /// Plays a move already known to be legal (or an allowed null move).
    fn push_legal(&mut self, mv: Move) {
        self.history.play(mv);
        self.end = self.tree.add_child(self.end, mv);
    }

    /// Takes back the main line's last move and returns it, together with its comments and
    /// NAGs and the variations that replace it; `None` at the start position. Node ids taken
    /// from [`Game::tree`] before may change.
    pub fn pop(&mut self) -> Option<Move> {
        let (mv, parent) = self.last_move()?;
        self.end = self.tree.remove_children(parent);
        self.history.pop();
        Some(mv)
    }

    /// [`Game::pop`], or an error (and the game unchanged) when memory runs out: taking back a
    /// move that has comments, NAGs or variations rebuilds the tree.
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

    /// Allows or forbids null moves ([`Move::NULL`], PGN's `--`) from now on; games read from
    /// PGN allow them.
    pub fn set_allow_null_moves(&mut self, allow: bool) {
        self.allow_null = allow;
    }

    /// True when null moves may be pushed.
    pub fn allows_null_moves(&self) -> bool {
        self.allow_null
    }

    /// How many times the final position has occurred, this time included.
    pub fn repetition_count(&self) -> usize {
        self.history.repetition_count()
    }

    /// The final position has occurred before, since the last irreversible move: the
    /// repetition test of a search, which scores a position seen once again as a draw.
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::Game;
    ///
    /// let mut game = Game::default();
    /// for san in ["Nf3", "Nf6", "Ng1"] {
    ///     game.push_san(san)?;
    /// }
    /// assert!(!game.is_repetition());
    /// game.push_san("Ng8")?;
    /// assert!(game.is_repetition());
    /// game.push_san("e4")?; // a pawn move: nothing before it can repeat
    /// assert!(!game.is_repetition());
    /// # Ok::<(), chesscore_core::SanError>(())
    /// ```
    pub fn is_repetition(&self) -> bool {
        self.history.has_repeated()
    }

    /// The final position has occurred at least three times.
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetition_count() >= 3
    }

    /// The final position has occurred at least five times: the game is drawn.
    pub fn is_fivefold_repetition(&self) -> bool {
        self.repetition_count() >= 5
    }

    /// A threefold repetition may be claimed: it has occurred, or a legal move would make a
    /// position occur for the third time.
    pub fn can_claim_threefold_repetition(&self) -> bool {
        self.history.can_claim_threefold_repetition()
    }

    /// The automatic ending the main line has reached, if any (see the module documentation
    /// for the order).
    pub fn termination(&self) -> Option<Termination> {
        self.history.termination()
    }

    /// The draw the side to move may claim at the end of the main line
    /// ([`Termination::FiftyMoves`] before [`Termination::ThreefoldRepetition`]); `None` when
    /// there is none or the game is over.
    pub fn claimable_draw(&self) -> Option<Termination> {
        self.history.claimable_draw()
    }

    /// The result by the automatic rules: a win after mate, a draw after any other
    /// [`Game::termination`], otherwise ongoing (claimable draws are not taken); the result
    /// the PGN gave is [`Game::result`].
    pub fn outcome(&self) -> Outcome {
        self.history.outcome()
    }

    /// The position reached at `node` of the tree (replayed from the start).
    pub fn node_position(&self, node: NodeId) -> B {
        self.try_node_position(node).unwrap_or_else(|_| {
            std::alloc::handle_alloc_error(std::alloc::Layout::array::<Move>(self.tree.ply(node) as usize).unwrap())
        })
    }

    /// [`Game::node_position`], or an error when memory for the path from the start runs out.
    pub fn try_node_position(&self, node: NodeId) -> Result<B, TryReserveError> {
        let mut path = Vec::new();
        path.try_reserve_exact(self.tree.ply(node) as usize)?;
        let mut n = node;
        while let (Some(mv), Some(parent)) = (self.tree.mv(n), self.tree.parent(n)) {
            path.push(mv);
            n = parent;
        }
        let mut pos = *self.start();
        for &mv in path.iter().rev() {
            pos.play_legal(mv);
        }
        Ok(pos)
    }

    /// The SAN of each main-line move, first move first: as the PGN it was read from wrote it
    /// ([`MoveTree::written_san`]), or as [`San::from_move`] writes it for a move added
    /// otherwise (`--` for a null move), from the positions the game keeps (no replay).
    pub fn mainline_san(&self) -> impl Iterator<Item = NodeSan<'_>> + '_ {
        self.tree
            .mainline()
            .zip(self.history.positions())
            .map(|(node, before)| self.san_in(node, before, self.tree.mv(node).unwrap_or(Move::NULL)))
    }

    /// The SAN of `node`'s move, as [`Game::mainline_san`] gives it for any node; `Ok(None)`
    /// for the root, an error when memory for the path from the start runs out.
    pub fn try_san(&self, node: NodeId) -> Result<Option<NodeSan<'_>>, TryReserveError> {
        let (Some(mv), Some(parent)) = (self.tree.mv(node), self.tree.parent(node)) else {
            return Ok(None);
        };
        if let Some(written) = self.tree.written_san(node) {
            return Ok(Some(NodeSan::Written(written)));
        }
        Ok(Some(self.san_in(node, &self.try_node_position(parent)?, mv)))
    }

    /// `node`'s SAN as written, else made for its move `mv` played in `before`.
    fn san_in(&self, node: NodeId, before: &B, mv: Move) -> NodeSan<'_> {
        match self.tree.written_san(node) {
            Some(written) => NodeSan::Written(written),
            // Every move of a game was legal where it was played.
            None => NodeSan::Made(before.san(mv).expect("moves of a game are legal")),
        }
    }

    /// Adds `moves` as a variation replacing the move of `node` (so played from `node`'s
    /// parent position, after the variations already there) and returns the node of its
    /// first move. Fails, adding nothing, on the root, on an empty list, or when a move is
    /// not legal in turn (null moves are allowed when not in check).
    pub fn add_variation(&mut self, node: NodeId, moves: &[Move]) -> Result<NodeId, IllegalMoveError> {
        let parent = self.tree.parent(node).ok_or(IllegalMoveError(Move::NULL))?;
        let first = *moves.first().ok_or(IllegalMoveError(Move::NULL))?;
        let mut pos = self.node_position(parent);
        for &mv in moves {
            if !pos.can_play(mv, true) {
                return Err(IllegalMoveError(mv));
            }
            pos.play_legal(mv);
        }
        let start = self.tree.add_child(parent, first);
        let mut at = start;
        for &mv in &moves[1..] {
            at = self.tree.add_child(at, mv);
        }
        Ok(start)
    }
}

/// The SAN of a move of a game, as [`Game::mainline_san`] and [`Game::try_san`]
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

/// The moves of a main line, oldest first: [`Game::moves`].
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves::MoveKind;
    use crate::board::square::Square;

    #[test]
    fn push_pop_and_history() {
        let mut game = Game::default();
        for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
            game.push_san(san).unwrap();
        }
        assert_eq!(game.moves().len(), 5);
        assert_eq!(game.san_moves().map(|s| s.to_string()).collect::<Vec<_>>(), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(game.pop(), Some(Move::new(Square::F1, Square::B5, MoveKind::Normal)));
        assert_eq!(game.position().to_fen(), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        assert!(game.push(Move::NULL).is_err());
        game.set_allow_null_moves(true);
        assert_eq!(game.push_san("--"), Ok(Move::NULL));
        assert_eq!(game.start(), &Position::startpos());
        while game.pop().is_some() {}
        assert_eq!(game.position(), &Position::startpos());
        assert_eq!(game.pop(), None);
    }

    #[test]
    fn knight_shuffle_repeats() {
        let mut game = Game::default();
        assert_eq!(game.repetition_count(), 1);
        for round in 1..=4 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                game.push_san(san).unwrap();
            }
            assert_eq!(game.repetition_count(), round + 1);
        }
        assert!(game.is_fivefold_repetition());
        assert_eq!(game.termination(), Some(Termination::FivefoldRepetition));
        assert_eq!(game.outcome(), Outcome::Draw);
        assert_eq!(game.claimable_draw(), None);
    }

    #[test]
    fn mate_wins() {
        let mut game = Game::default();
        for san in ["f3", "e5", "g4", "Qh4#"] {
            game.push_san(san).unwrap();
        }
        assert_eq!(game.termination(), Some(Termination::Checkmate));
        assert_eq!(game.outcome(), Outcome::BlackWins);
        assert_eq!(game.outcome().as_pgn(), "0-1");
    }
}
