//! Choosing games: conditions on a game's tags, players, result, main-line positions, material
//! and length and on its final position, which a [`GameFilter`] checks together, and
//! [`Dedupe`], which tells the first of identical games from its copies. `chesscore pgn filter`
//! is these over the games of PGN files.
//!
//! ```
//! use chesscore_core::game::GameFilter;
//! use chesscore_core::{Game, Position};
//!
//! let mut game = Game::default();
//! for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
//!     game.push_san(san)?;
//! }
//! game.set_tag("White", "Carlsen, Magnus")?;
//! game.set_tag("WhiteElo", "2830")?;
//!
//! let mut filter = GameFilter::new();
//! filter.tag("WhiteElo >= 2800".parse()?).player("Carlsen*").checkmate().min_plies(7);
//! // After 1. e4 e5: found whichever way the game got there.
//! filter.position(&Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")?);
//! assert!(filter.matches(&game));
//! assert!(!filter.clone().max_plies(6).matches(&game));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod tag;

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::{Game, GameBoard, Outcome};
use crate::board::color::Color;
use crate::board::piece::PieceKind;
use crate::notation::material::Material;
use crate::position::Position;

pub use tag::{glob_match, TagCondition, TagConditionError, TagOp};

/// Conditions a game must all meet; a new filter has none and takes every game.
///
/// - [`GameFilter::tag`]: each [`TagCondition`] holds.
/// - [`GameFilter::player`]: the `White` or the `Black` tag matches the glob ([`glob_match`]).
/// - [`GameFilter::result`]: the `Result` tag is that result (the movetext's result token when
///   the tag is missing).
/// - [`GameFilter::position`] (any of those given): a position of the main line, the start
///   included, is that one: the same pieces on the same squares, side to move and castling
///   rights, and the same en passant file as the Polyglot key sees it (a pawn of the side to
///   move beside the pawn that double-pushed; the clocks do not count). Candidates are found
///   by key and confirmed by comparing the boards.
/// - [`GameFilter::material`]: a position of the main line has that material, for either
///   colour (`KRPvKR` also finds the games where Black has the pawn).
/// - [`GameFilter::min_plies`], [`GameFilter::max_plies`]: the main line's length.
/// - [`GameFilter::checkmate`], [`GameFilter::stalemate`]: the main line's last position.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    tags: Vec<TagCondition>,
    player: Option<String>,
    result: Option<Outcome>,
    /// Sorted by key.
    positions: Vec<(u64, Position)>,
    material: Option<Material>,
    min_plies: Option<usize>,
    max_plies: Option<usize>,
    checkmate: bool,
    stalemate: bool,
}

impl GameFilter {
    /// A filter without conditions.
    pub fn new() -> GameFilter {
        GameFilter::default()
    }

    /// Adds a tag condition.
    pub fn tag(&mut self, condition: TagCondition) -> &mut Self {
        self.tags.push(condition);
        self
    }

    /// Requires `White` or `Black` to match the glob `pattern` (`*`, `?`).
    pub fn player(&mut self, pattern: &str) -> &mut Self {
        self.player = Some(pattern.to_string());
        self
    }

    /// Requires the result.
    pub fn result(&mut self, result: Outcome) -> &mut Self {
        self.result = Some(result);
        self
    }

    /// Adds a position the main line may pass through (any one of those added will do).
    pub fn position(&mut self, position: &Position) -> &mut Self {
        let key = position.zobrist();
        let at = self.positions.partition_point(|(k, _)| *k < key);
        self.positions.insert(at, (key, *position));
        self
    }

    /// Requires the main line to reach `material`, in either colour order.
    pub fn material(&mut self, material: Material) -> &mut Self {
        self.material = Some(material);
        self
    }

    /// Requires at least `plies` half-moves in the main line.
    pub fn min_plies(&mut self, plies: usize) -> &mut Self {
        self.min_plies = Some(plies);
        self
    }

    /// Requires at most `plies` half-moves in the main line.
    pub fn max_plies(&mut self, plies: usize) -> &mut Self {
        self.max_plies = Some(plies);
        self
    }

    /// Requires the main line to end in checkmate.
    pub fn checkmate(&mut self) -> &mut Self {
        self.checkmate = true;
        self
    }

    /// Requires the main line to end in stalemate.
    pub fn stalemate(&mut self) -> &mut Self {
        self.stalemate = true;
        self
    }

    /// Whether `game`, of chess or of a lichess variant, meets every condition; the cheap ones
    /// are asked first. A variant game's last position is checkmate or stalemate by its
    /// variant's rules (as python-chess's `is_checkmate` and `is_stalemate` tell), and it meets
    /// no position or material condition: those name chess positions, which a variant game
    /// never passes through.
    pub fn matches<B: GameBoard>(&self, game: &Game<B>) -> bool {
        if !self.matches_record(game) {
            return false;
        }
        let plies = game.moves().len();
        let last = game.position();
        if (self.checkmate && !last.is_checkmate()) || (self.stalemate && !last.is_stalemate()) {
            return false;
        }
        let main_line = || (0..=plies).filter_map(|ply| game.position_at(ply)?.as_chess());
        if !self.positions.is_empty() && !main_line().any(|pos| self.is_target(pos)) {
            return false;
        }
        if let Some(material) = self.material {
            let wanted = [material, material.flipped()];
            if !main_line().any(|pos| wanted.contains(&Material::from_position(pos))) {
                return false;
            }
        }
        true
    }

    /// The conditions on a game's tags, result and length, which any board's games have.
    fn matches_record<B: GameBoard>(&self, game: &Game<B>) -> bool {
        let tags = game.tags();
        if !self.tags.iter().all(|condition| condition.matches(tags)) {
            return false;
        }
        if let Some(pattern) = &self.player {
            let plays = |color| tags.get(color).is_some_and(|name| glob_match(pattern, name));
            if !plays("White") && !plays("Black") {
                return false;
            }
        }
        if let Some(result) = self.result {
            let actual = match tags.get("Result") {
                Some(text) => Outcome::from_pgn(text),
                None => game.result(),
            };
            if actual != Some(result) {
                return false;
            }
        }
        let plies = game.moves().len();
        !(self.min_plies.is_some_and(|min| plies < min) || self.max_plies.is_some_and(|max| plies > max))
    }

    /// Whether `pos` is one of the positions asked for.
    fn is_target(&self, pos: &Position) -> bool {
        let key = pos.zobrist();
        let first = self.positions.partition_point(|(k, _)| *k < key);
        self.positions[first..].iter().take_while(|(k, _)| *k == key).any(|(_, target)| same_board(pos, target))
    }
}

/// The same pieces on the same squares, side to move and castling rights (what the key holds
/// besides the en passant file, whose agreement the equal keys vouch for).
pub(super) fn same_board(a: &Position, b: &Position) -> bool {
    let pieces = |pos: &Position| {
        [Color::White, Color::Black].map(|color| PieceKind::ALL.map(|kind| pos.pieces_of(color, kind)))
    };
    a.turn() == b.turn() && a.castling() == b.castling() && pieces(a) == pieces(b)
}

/// The games seen so far, to keep only the first of those with the same start position
/// (clocks included) and the same main-line moves; tags, comments and variations do not count.
///
/// Each game is remembered by a 128-bit digest of its start and moves (16 bytes, whatever its
/// length), so that memory grows by that much per distinct game: two different games with one
/// digest, which would drop the later one, have a chance of about n² / 2¹²⁹ among n games.
///
/// ```
/// use chesscore_core::game::Dedupe;
/// use chesscore_core::Game;
///
/// let mut a = Game::default();
/// a.push_san("e4")?;
/// let mut b = a.clone();
/// b.set_tag("Event", "Another")?;
/// let mut seen = Dedupe::new();
/// assert!(seen.first(&a));
/// assert!(!seen.first(&b));
/// b.push_san("e5")?;
/// assert!(seen.first(&b));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Dedupe {
    seen: HashSet<u128>,
}

impl Dedupe {
    /// No game seen yet.
    pub fn new() -> Dedupe {
        Dedupe::default()
    }

    /// Remembers `game` (of chess or of a variant) and tells whether it is the first of its kind.
    pub fn first<B: GameBoard + Hash>(&mut self, game: &Game<B>) -> bool {
        self.first_digest(GameDigest::of(game))
    }

    /// [`Dedupe::first`] for a game's digest, made where the game was (another thread).
    pub fn first_digest(&mut self, digest: GameDigest) -> bool {
        self.seen.insert(digest.0)
    }

    /// How many distinct games were seen.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether no game was seen.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

/// What [`Dedupe`] remembers of a game: two independent 64-bit SipHash digests of its start
/// position and its main line's moves. The same within a process, not from one build to the
/// next (not for storing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameDigest(u128);

impl GameDigest {
    /// The digest of `game`, of chess or of a variant (whose start position holds its variant:
    /// the same moves in two variants are two games).
    pub fn of<B: GameBoard + Hash>(game: &Game<B>) -> GameDigest {
        let half = |salt: u8| {
            let mut hasher = DefaultHasher::new();
            salt.hash(&mut hasher);
            game.start().variant_tag().hash(&mut hasher);
            game.start().hash(&mut hasher);
            for mv in game.moves() {
                mv.hash(&mut hasher);
            }
            hasher.finish()
        };
        GameDigest((u128::from(half(0)) << 64) | u128::from(half(1)))
    }
}

#[cfg(test)]
mod tests;
