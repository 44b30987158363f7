//! A line of play's positions, with what repetition detection needs: the part of a game that
//! does not depend on where its moves are kept.

use std::collections::TryReserveError;

use crate::board::moves::Move;
use crate::fallible::{try_room, try_to_vec};
use crate::notation::san::{San, SanError};
use crate::notation::uci::UciError;
use crate::position::Position;

use super::board::GameBoard;
use super::outcome::{Outcome, Termination};

/// One position of the history with what repetition detection needs.
#[derive(Debug, Clone, Copy)]
struct Ply<B> {
    position: B,
    /// [`GameBoard::repetition_key`].
    key: u64,
    /// Index of the first ply after the last irreversible move: no earlier ply can equal this
    /// one.
    since: usize,
}

impl<B: GameBoard> Ply<B> {
    #[inline]
    fn new(position: B, since: usize) -> Ply<B> {
        Ply { position, key: position.repetition_key(), since }
    }

    fn is_same(&self, other: &Ply<B>) -> bool {
        self.key == other.key && self.position.is_same_position(&other.position)
    }
}

/// The positions of a line of play from its start, each with what repetition detection needs:
/// the part of a game that does not depend on where its moves are kept. A [`Game`](super::Game)
/// holds one beside its move tree, for the tree's main line.
#[derive(Debug, Clone)]
pub(crate) struct History<B = Position> {
    /// `plies[0]` is the start position, `plies[i + 1]` the position after the `i`-th move.
    plies: Vec<Ply<B>>,
}

impl<B: GameBoard> History<B> {
    pub(crate) fn new(start: B) -> History<B> {
        History { plies: vec![Ply::new(start, 0)] }
    }

    /// [`History::new`], reporting a failed allocation instead of aborting.
    pub(crate) fn try_new(start: B) -> Result<History<B>, TryReserveError> {
        History::try_with_capacity(start, 0)
    }

    /// [`History::try_new`] with room for `moves` moves.
    pub(crate) fn try_with_capacity(start: B, moves: usize) -> Result<History<B>, TryReserveError> {
        let mut plies = Vec::new();
        plies.try_reserve_exact(moves + 1)?;
        plies.push(Ply::new(start, 0));
        Ok(History { plies })
    }

    #[inline]
    pub(crate) fn try_reserve(&mut self, additional: usize) -> Result<(), TryReserveError> {
        try_room(&mut self.plies, additional)
    }

    pub(crate) fn try_clone(&self) -> Result<History<B>, TryReserveError> {
        Ok(History { plies: try_to_vec(&self.plies)? })
    }

    /// How many moves lead from the start to the current position.
    pub(crate) fn moves(&self) -> usize {
        self.plies.len() - 1
    }

    pub(crate) fn start(&self) -> &B {
        &self.plies[0].position
    }

    pub(crate) fn position(&self) -> &B {
        &self.last().position
    }

    /// The positions from the start on: before each move, then the current one.
    pub(crate) fn positions(&self) -> impl Iterator<Item = &B> + '_ {
        self.plies.iter().map(|p| &p.position)
    }

    pub(crate) fn position_at(&self, ply: usize) -> Option<&B> {
        self.plies.get(ply).map(|p| &p.position)
    }

    fn last(&self) -> &Ply<B> {
        // There is always the start position.
        &self.plies[self.plies.len() - 1]
    }

    /// The SAN of each of `moves`, the moves that lead from the start to the current position.
    pub(crate) fn san_moves<'a>(&'a self, moves: impl Iterator<Item = Move> + 'a) -> impl Iterator<Item = San> + 'a {
        self.plies.iter().zip(moves).map(|(ply, mv)| {
            // Every stored move was legal where it was played.
            ply.position.san(mv).expect("moves of a game are legal")
        })
    }

    /// True when `mv` is legal here, or is [`Move::NULL`] while `allow_null` and the rules
    /// allow passing.
    pub(crate) fn can_play(&self, mv: Move, allow_null: bool) -> bool {
        self.position().can_play(mv, allow_null)
    }

    /// Reads `text` as lenient SAN in the current position (null moves as `allow_null` says).
    pub(crate) fn parse_san(&self, text: &str, allow_null: bool) -> Result<Move, SanError> {
        self.position().parse_san(text, allow_null)
    }

    /// Reads `text` as UCI in the current position (`0000` as `allow_null` says).
    pub(crate) fn parse_uci(&self, text: &str, allow_null: bool) -> Result<Move, UciError> {
        let mv = self.position().parse_uci(text)?;
        if mv.is_null() && !self.can_play(mv, allow_null) {
            return Err(UciError::Illegal);
        }
        Ok(mv)
    }

    /// Plays a move already known to be legal (or an allowed null move).
    pub(crate) fn play(&mut self, mv: Move) {
        let mut after = *self.position();
        after.play_legal(mv);
        self.push_played(mv, &after);
    }

    /// Records `mv`, known to be legal here (or a null move), and `after`, the position it
    /// leads to: the PGN reader has both at hand and spares the history making the move again.
    #[inline]
    pub(crate) fn push_played(&mut self, mv: Move, after: &B) {
        let since = if self.position().is_irreversible(mv, after) { self.plies.len() } else { self.last().since };
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
        (current.since..n).rev().skip(1).step_by(2).any(|i| self.plies[i].is_same(current))
    }

    /// How often `after`, the position a reversible move leads to, has occurred since the last
    /// irreversible move.
    pub(crate) fn occurrences_after(&self, after: &B) -> usize {
        let after = Ply::new(*after, 0);
        let last = self.plies.len() - 1;
        (self.last().since..last).rev().step_by(2).filter(|&i| self.plies[i].is_same(&after)).count()
    }

    /// Some position since the last irreversible move occurred earlier in that stretch.
    pub(crate) fn repeated_since_irreversible(&self) -> bool {
        let since = self.last().since;
        (since..self.plies.len()).any(|i| {
            let ply = &self.plies[i];
            (since..i).any(|j| self.plies[j].is_same(ply))
        })
    }

    /// Occurrences of `ply`'s position among the same side's plies from `last` back to
    /// `ply.since`.
    fn occurrences(&self, ply: &Ply<B>, last: usize) -> usize {
        (ply.since..=last).rev().step_by(2).filter(|&i| self.plies[i].is_same(ply)).count()
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
        self.position().any_successor(|_, after| self.occurrences(&Ply::new(*after, since), n - 1) >= 2)
    }

    /// The automatic ending reached, with its result: the position's own, then fivefold
    /// repetition.
    pub(crate) fn decided(&self) -> Option<(Outcome, Termination)> {
        self.position()
            .decided()
            .or_else(|| (self.repetition_count() >= 5).then_some((Outcome::Draw, Termination::FivefoldRepetition)))
    }

    pub(crate) fn termination(&self) -> Option<Termination> {
        self.decided().map(|(_, termination)| termination)
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
        self.decided().map_or(Outcome::Ongoing, |(outcome, _)| outcome)
    }
}
