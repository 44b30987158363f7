//! Games with history: a start position, the moves played and every position reached, with
//! cheap undo, repetition detection and the outcome as FIDE's Laws of Chess define it.
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

use std::collections::TryReserveError;
use std::fmt;

use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::zobrist;
use crate::fallible::{try_room, try_to_vec};
use crate::notation::san::{San, SanError, SanOptions};
use crate::notation::uci::{Uci, UciError};
use crate::position::{EnPassantMode, IllegalMoveError, Position};

/// The result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Not over (draws that could be claimed but were not leave the game going).
    Ongoing,
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PGN result: `*`, `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_pgn(self) -> &'static str {
        match self {
            Outcome::Ongoing => "*",
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            "*" => Some(Outcome::Ongoing),
            _ => None,
        }
    }

    /// The win for `color`.
    pub const fn win_for(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// Why a game ended, or which draw may be claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate (a dead position).
    InsufficientMaterial,
    /// 150 half-moves without capture or pawn move (automatic).
    SeventyFiveMoves,
    /// The position occurred five times (automatic).
    FivefoldRepetition,
    /// 100 half-moves without capture or pawn move (claimable).
    FiftyMoves,
    /// The position occurred, or can be made to occur, three times (claimable).
    ThreefoldRepetition,
}

impl Termination {
    /// True for the endings that need no claim.
    pub const fn is_automatic(self) -> bool {
        !matches!(self, Termination::FiftyMoves | Termination::ThreefoldRepetition)
    }

    /// A short lower-case description, such as `"threefold repetition"`.
    pub const fn description(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::SeventyFiveMoves => "seventy-five-move rule",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// One position of the history with what repetition detection needs.
#[derive(Debug, Clone, Copy)]
struct Ply {
    position: Position,
    /// Zobrist key under the legal en passant rule.
    key: u64,
    /// Index of the first ply after the last irreversible move: no earlier ply can equal this
    /// one.
    since: usize,
}

impl Ply {
    fn new(position: Position, since: usize) -> Ply {
        Ply { position, key: repetition_key(&position), since }
    }
}

/// The Polyglot key with the en passant file removed when no legal capture exists.
fn repetition_key(pos: &Position) -> u64 {
    match pos.en_passant_square(EnPassantMode::PseudoLegal) {
        Some(ep) if pos.en_passant_square(EnPassantMode::Legal).is_none() => {
            pos.zobrist() ^ zobrist::en_passant_key(ep.file())
        }
        _ => pos.zobrist(),
    }
}

/// FIDE's "same position": placement, side to move, castling rights, legal en passant.
fn same_position(a: &Position, b: &Position) -> bool {
    a.turn() == b.turn()
        && a.color_occupancy(Color::White) == b.color_occupancy(Color::White)
        && a.color_occupancy(Color::Black) == b.color_occupancy(Color::Black)
        && PieceKind::ALL.iter().all(|&kind| a.pieces(kind) == b.pieces(kind))
        && a.castling() == b.castling()
        && a.en_passant_square(EnPassantMode::Legal) == b.en_passant_square(EnPassantMode::Legal)
}

/// The positions of a line of play from its start, each with what repetition detection needs:
/// the part of a game that does not depend on where its moves are kept. A [`Game`] holds one
/// beside its moves; a [`GameRecord`](crate::pgn::GameRecord) beside its move tree.
#[derive(Debug, Clone)]
pub(crate) struct History {
    /// `plies[0]` is the start position, `plies[i + 1]` the position after the `i`-th move.
    plies: Vec<Ply>,
}

impl History {
    pub(crate) fn new(start: Position) -> History {
        History { plies: vec![Ply::new(start, 0)] }
    }

    /// [`History::new`], reporting a failed allocation instead of aborting.
    pub(crate) fn try_new(start: Position) -> Result<History, TryReserveError> {
        History::try_with_capacity(start, 0)
    }

    /// [`History::try_new`] with room for `moves` moves.
    pub(crate) fn try_with_capacity(start: Position, moves: usize) -> Result<History, TryReserveError> {
        let mut plies = Vec::new();
        plies.try_reserve_exact(moves + 1)?;
        plies.push(Ply::new(start, 0));
        Ok(History { plies })
    }

    #[inline]
    pub(crate) fn try_reserve(&mut self, additional: usize) -> Result<(), TryReserveError> {
        try_room(&mut self.plies, additional)
    }

    pub(crate) fn try_clone(&self) -> Result<History, TryReserveError> {
        Ok(History { plies: try_to_vec(&self.plies)? })
    }

    /// How many moves lead from the start to the current position.
    pub(crate) fn moves(&self) -> usize {
        self.plies.len() - 1
    }

    pub(crate) fn start(&self) -> &Position {
        &self.plies[0].position
    }

    pub(crate) fn position(&self) -> &Position {
        &self.last().position
    }

    /// The positions from the start on: before each move, then the current one.
    pub(crate) fn positions(&self) -> impl Iterator<Item = &Position> + '_ {
        self.plies.iter().map(|p| &p.position)
    }

    pub(crate) fn position_at(&self, ply: usize) -> Option<&Position> {
        self.plies.get(ply).map(|p| &p.position)
    }

    fn last(&self) -> &Ply {
        // There is always the start position.
        &self.plies[self.plies.len() - 1]
    }

    /// The SAN of each of `moves`, the moves that lead from the start to the current position.
    pub(crate) fn san_moves<'a>(&'a self, moves: impl Iterator<Item = Move> + 'a) -> impl Iterator<Item = San> + 'a {
        self.plies.iter().zip(moves).map(|(ply, mv)| {
            // Every stored move was legal where it was played.
            San::from_move(&ply.position, mv).expect("moves of a game are legal")
        })
    }

    /// True when `mv` is legal here, or is [`Move::NULL`] while `allow_null` and the side to
    /// move is not in check.
    pub(crate) fn can_play(&self, mv: Move, allow_null: bool) -> bool {
        if mv.is_null() {
            allow_null && !self.position().in_check()
        } else {
            self.position().is_legal(mv)
        }
    }

    /// Reads `text` as lenient SAN in the current position (null moves as `allow_null` says).
    pub(crate) fn parse_san(&self, text: &str, allow_null: bool) -> Result<Move, SanError> {
        let options = SanOptions { allow_null, ..SanOptions::default() };
        text.parse::<San>()?.to_move_with(self.position(), &options)
    }

    /// Reads `text` as UCI in the current position (`0000` as `allow_null` says).
    pub(crate) fn parse_uci(&self, text: &str, allow_null: bool) -> Result<Move, UciError> {
        let mv = text.parse::<Uci>()?.to_move(self.position())?;
        if mv.is_null() && !self.can_play(mv, allow_null) {
            return Err(UciError::Illegal);
        }
        Ok(mv)
    }

    /// Plays a move already known to be legal (or an allowed null move).
    pub(crate) fn play(&mut self, mv: Move) {
        let mut after = *self.position();
        after.play_known(mv);
        self.push_played(mv, &after);
    }

    /// Records `mv`, known to be legal here (or a null move), and `after`, the position it
    /// leads to: the PGN reader has both at hand and spares the history making the move again.
    #[inline]
    pub(crate) fn push_played(&mut self, mv: Move, after: &Position) {
        let before = self.position();
        let irreversible = mv.is_null()
            || mv.is_en_passant()
            || before.kind_at(mv.from()) == Some(PieceKind::Pawn)
            || (!mv.is_castling() && before.occupancy().contains(mv.to()))
            || before.castling() != after.castling();
        let since = if irreversible { self.plies.len() } else { self.last().since };
        self.plies.push(Ply::new(*after, since));
    }

    /// Drops the current position; false at the start position.
    pub(crate) fn pop(&mut self) -> bool {
        if self.plies.len() == 1 {
            return false;
        }
        self.plies.pop();
        true
    }

    pub(crate) fn repetition_count(&self) -> usize {
        let current = self.last();
        self.occurrences(current, self.plies.len() - 1)
    }

    /// The current position occurred at an earlier ply since the last irreversible move; stops
    /// at the first one found.
    pub(crate) fn has_repeated(&self) -> bool {
        let current = self.last();
        let n = self.plies.len() - 1;
        (current.since..n).rev().skip(1).step_by(2).any(|i| {
            let other = &self.plies[i];
            other.key == current.key && same_position(&other.position, &current.position)
        })
    }

    /// How often `after`, the position a reversible move leads to, has occurred since the last
    /// irreversible move.
    pub(crate) fn occurrences_after(&self, after: &Position) -> usize {
        let key = repetition_key(after);
        let last = self.plies.len() - 1;
        (self.last().since..last)
            .rev()
            .step_by(2)
            .filter(|&i| self.plies[i].key == key && same_position(&self.plies[i].position, after))
            .count()
    }

    /// Some position since the last irreversible move occurred earlier in that stretch.
    pub(crate) fn repeated_since_irreversible(&self) -> bool {
        let since = self.last().since;
        (since..self.plies.len()).any(|i| {
            let ply = &self.plies[i];
            (since..i).any(|j| self.plies[j].key == ply.key && same_position(&self.plies[j].position, &ply.position))
        })
    }

    /// Occurrences of `ply`'s position among the same side's plies from `last` back to
    /// `ply.since`.
    fn occurrences(&self, ply: &Ply, last: usize) -> usize {
        (ply.since..=last)
            .rev()
            .step_by(2)
            .filter(|&i| {
                let other = &self.plies[i];
                other.key == ply.key && same_position(&other.position, &ply.position)
            })
            .count()
    }

    pub(crate) fn can_claim_threefold_repetition(&self) -> bool {
        if self.repetition_count() >= 3 {
            return true;
        }
        let n = self.plies.len() - 1;
        let since = self.last().since;
        // Positions after our next move have the other side to move, like plies n-1, n-3, ...
        if n < since + 3 {
            return false;
        }
        let pos = self.position();
        pos.legal_moves().iter().any(|&mv| {
            let after = Ply::new(pos.make_move(mv), since);
            self.occurrences(&after, n - 1) >= 2
        })
    }

    pub(crate) fn termination(&self) -> Option<Termination> {
        let pos = self.position();
        if pos.is_checkmate() {
            Some(Termination::Checkmate)
        } else if pos.is_insufficient_material() {
            Some(Termination::InsufficientMaterial)
        } else if !pos.has_legal_moves() {
            Some(Termination::Stalemate)
        } else if pos.is_seventy_five_moves() {
            Some(Termination::SeventyFiveMoves)
        } else if self.repetition_count() >= 5 {
            Some(Termination::FivefoldRepetition)
        } else {
            None
        }
    }

    pub(crate) fn claimable_draw(&self) -> Option<Termination> {
        if self.termination().is_some() {
            None
        } else if self.position().can_claim_fifty_moves() {
            Some(Termination::FiftyMoves)
        } else if self.can_claim_threefold_repetition() {
            Some(Termination::ThreefoldRepetition)
        } else {
            None
        }
    }

    pub(crate) fn outcome(&self) -> Outcome {
        match self.termination() {
            None => Outcome::Ongoing,
            Some(Termination::Checkmate) => Outcome::win_for(!self.position().turn()),
            Some(_) => Outcome::Draw,
        }
    }
}

/// A game: the start position, the moves played and the positions they led to.
///
/// Undo ([`Game::pop`]) drops the last stored position, so it costs nothing. Every move in a
/// game is legal (or a null move, when allowed).
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
#[derive(Debug, Clone)]
pub struct Game {
    pub(crate) history: History,
    /// `moves[i]` leads from `history`'s position `i` to position `i + 1`.
    pub(crate) moves: Vec<Move>,
    pub(crate) allow_null: bool,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::startpos())
    }
}

impl Game {
    /// A game starting from `start`, null moves not allowed.
    pub fn new(start: Position) -> Game {
        Game { history: History::new(start), moves: Vec::new(), allow_null: false }
    }

    /// Like [`Game::new`], but reports a failed allocation instead of aborting (for the C ABI,
    /// which returns NULL then).
    pub fn try_new(start: Position) -> Result<Game, TryReserveError> {
        Ok(Game { history: History::try_new(start)?, moves: Vec::new(), allow_null: false })
    }

    /// Reserves room for at least `additional` more moves, so that playing them does not
    /// allocate, or fails (changing nothing) when memory runs out: the `Vec::try_reserve` of
    /// [`Game::push`], which the C ABI calls first so that running out of memory is an error
    /// there, not an abort.
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), TryReserveError> {
        self.history.try_reserve(additional)?;
        self.moves.try_reserve(additional)
    }

    /// A copy of the game, or an error when memory runs out (`clone` aborts then).
    pub fn try_clone(&self) -> Result<Game, TryReserveError> {
        Ok(Game { history: self.history.try_clone()?, moves: try_to_vec(&self.moves)?, allow_null: self.allow_null })
    }

    /// Allows or forbids null moves ([`Move::NULL`], PGN's `--`) from now on.
    pub fn set_allow_null_moves(&mut self, allow: bool) {
        self.allow_null = allow;
    }

    /// True when null moves may be pushed.
    pub fn allows_null_moves(&self) -> bool {
        self.allow_null
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        self.history.start()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// The position after the first `ply` moves (`0` is the start position).
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.history.position_at(ply)
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The SAN of each move played, suffixes included.
    pub fn san_moves(&self) -> impl Iterator<Item = San> + '_ {
        self.history.san_moves(self.moves.iter().copied())
    }

    /// Plays `mv` if it is legal here (or is [`Move::NULL`] while null moves are allowed and
    /// the side to move is not in check).
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if !self.history.can_play(mv, self.allow_null) {
            return Err(IllegalMoveError(mv));
        }
        self.push_legal(mv);
        Ok(())
    }

    /// Reads `text` as lenient SAN (null moves as the game allows) and plays it.
    pub fn push_san(&mut self, text: &str) -> Result<Move, SanError> {
        let mv = self.history.parse_san(text, self.allow_null)?;
        self.push_legal(mv);
        Ok(mv)
    }

    /// Reads `text` as UCI and plays it (`0000` only while null moves are allowed).
    pub fn push_uci(&mut self, text: &str) -> Result<Move, UciError> {
        let mv = self.history.parse_uci(text, self.allow_null)?;
        self.push_legal(mv);
        Ok(mv)
    }

    /// Plays a move already known to be legal (or an allowed null move).
    fn push_legal(&mut self, mv: Move) {
        self.history.play(mv);
        self.moves.push(mv);
    }

    /// Takes back the last move and returns it; `None` at the start position.
    pub fn pop(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.history.pop();
        Some(mv)
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetition_count(&self) -> usize {
        self.history.repetition_count()
    }

    /// The current position has occurred before, since the last irreversible move: the
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

    /// The current position has occurred at least three times.
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetition_count() >= 3
    }

    /// The current position has occurred at least five times: the game is drawn.
    pub fn is_fivefold_repetition(&self) -> bool {
        self.repetition_count() >= 5
    }

    /// A threefold repetition may be claimed: it has occurred, or a legal move would make a
    /// position occur for the third time.
    pub fn can_claim_threefold_repetition(&self) -> bool {
        self.history.can_claim_threefold_repetition()
    }

    /// The automatic ending the game has reached, if any (see the module documentation for the
    /// order).
    pub fn termination(&self) -> Option<Termination> {
        self.history.termination()
    }

    /// The draw the side to move may claim now ([`Termination::FiftyMoves`] before
    /// [`Termination::ThreefoldRepetition`]); `None` when there is none or the game is over.
    pub fn claimable_draw(&self) -> Option<Termination> {
        self.history.claimable_draw()
    }

    /// The result by the automatic rules: a win after mate, a draw after any other
    /// [`Game::termination`], otherwise ongoing (claimable draws are not taken).
    pub fn outcome(&self) -> Outcome {
        self.history.outcome()
    }
}

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
