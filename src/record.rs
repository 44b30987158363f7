//! What a `chess_game` holds: a chess game, or a game of a lichess variant.

use std::collections::TryReserveError;

use chesscore_core::game::{MoveTree, PgnWarning, TagError, Tags};
use chesscore_core::variant::{AnyGame, Variant, VariantGame};
use chesscore_core::{Game, Outcome};

use super::error::{chess_error, CHESS_ERR_VARIANT_GAME};

/// A chess game (every operation), or a variant game (those that do not hand out or take a
/// `chess_position`).
#[derive(Debug)]
pub(crate) enum Record {
    Chess(Game),
    Variant(VariantGame),
}

/// Evaluates `$body` with `$game` bound to the game of either kind.
macro_rules! each_game {
    ($record:expr, $game:ident => $body:expr) => {
        match $record {
            $crate::record::Record::Chess($game) => $body,
            $crate::record::Record::Variant($game) => $body,
        }
    };
}
pub(crate) use each_game;

impl Record {
    /// The chess game, or `CHESS_ERR_VARIANT_GAME`.
    pub(crate) fn chess(&self) -> Result<&Game, chess_error> {
        match self {
            Record::Chess(game) => Ok(game),
            Record::Variant(_) => Err(CHESS_ERR_VARIANT_GAME),
        }
    }

    /// The variant played (`Chess` or `Chess960` for a chess game).
    pub(crate) fn variant(&self) -> Variant {
        match self {
            Record::Chess(game) if game.start().is_chess960() => Variant::Chess960,
            Record::Chess(_) => Variant::Chess,
            Record::Variant(game) => game.start().variant(),
        }
    }

    pub(crate) fn try_clone(&self) -> Result<Record, TryReserveError> {
        Ok(match self {
            Record::Chess(game) => Record::Chess(game.try_clone()?),
            Record::Variant(game) => Record::Variant(game.try_clone()?),
        })
    }

    pub(crate) fn tags(&self) -> &Tags {
        each_game!(self, game => game.tags())
    }

    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
        each_game!(self, game => game.tag(name))
    }

    pub(crate) fn tags_mut(&mut self) -> &mut Tags {
        each_game!(self, game => game.tags_mut())
    }

    pub(crate) fn set_tag(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        each_game!(self, game => game.set_tag(name, value))
    }

    pub(crate) fn remove_tag(&mut self, name: &str) -> bool {
        each_game!(self, game => game.remove_tag(name))
    }

    pub(crate) fn tree(&self) -> &MoveTree {
        each_game!(self, game => game.tree())
    }

    pub(crate) fn warnings(&self) -> &[PgnWarning] {
        each_game!(self, game => game.warnings())
    }

    pub(crate) fn effective_result(&self) -> Outcome {
        each_game!(self, game => game.effective_result())
    }
}

impl From<AnyGame> for Record {
    fn from(game: AnyGame) -> Record {
        match game {
            AnyGame::Chess(game) => Record::Chess(game),
            AnyGame::Variant(game) => Record::Variant(game),
        }
    }
}
