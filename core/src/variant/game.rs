//! Variant games: the game model over [`VariantPosition`], and [`AnyGame`] for readers of
//! databases that mix chess and variant games.

use std::fmt;

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::zobrist;
use crate::game::{sealed, Game, GameBoard, Outcome, Tags, Termination};
use crate::notation::san::{San, SanError};
use crate::notation::uci::UciError;
use crate::position::{EnPassantMode, IllegalMoveError, Position};

use super::{Pocket, Variant, VariantPosition};

/// A game of a lichess variant (or of chess, as a [`VariantPosition`] plays it): the
/// [`Game`] model, with the variant's moves, endings and repetitions (crazyhouse pockets and
/// three-check counts are part of a position), written as PGN with its `Variant` tag.
///
/// ```
/// use chesscore_core::variant::{Variant, VariantGame, VariantPosition};
/// use chesscore_core::{Outcome, Termination};
///
/// let mut game = VariantGame::new(VariantPosition::new(Variant::KingOfTheHill));
/// for san in ["d4", "e5", "dxe5", "Ke7", "Kd2", "Ke6", "Kd3", "Kxe5"] {
///     game.push_san(san)?;
/// }
/// assert_eq!(game.termination(), Some(Termination::VariantLoss));
/// assert_eq!(game.outcome(), Outcome::BlackWins);
/// game.set_result(Some(game.outcome()));
/// let pgn = game.to_pgn();
/// assert!(pgn.contains("[Variant \"King of the Hill\"]"));
/// assert!(pgn.ends_with("4. Kd3 Kxe5# 0-1\n"));
/// # Ok::<(), chesscore_core::SanError>(())
/// ```
pub type VariantGame = Game<VariantPosition>;

impl sealed::Sealed for VariantPosition {}

impl GameBoard for VariantPosition {
    fn turn(&self) -> Color {
        VariantPosition::turn(self)
    }

    fn fullmove_number(&self) -> u32 {
        VariantPosition::fullmove_number(self)
    }

    /// No variant passes: a null move is never playable.
    fn can_play(&self, mv: Move, _allow_null: bool) -> bool {
        self.is_legal(mv)
    }

    fn play_legal(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    fn any_successor(&self, mut f: impl FnMut(Move, &Self) -> bool) -> bool {
        self.legal_moves().iter().any(|&mv| f(mv, &self.make_move(mv)))
    }

    /// As in chess, except in crazyhouse, where captured pieces come back as drops: only a
    /// lost castling right is for good there.
    fn is_irreversible(&self, mv: Move, after: &Self) -> bool {
        if self.variant == Variant::Crazyhouse {
            return self.castling() != after.castling();
        }
        self.board.is_irreversible(mv, &after.board)
    }

    /// [`VariantPosition::zobrist`], the en passant file taken out when no legal move takes
    /// en passant.
    fn repetition_key(&self) -> u64 {
        match self.board.en_passant_square(EnPassantMode::PseudoLegal) {
            Some(ep) if self.legal_en_passant().is_none() => self.zobrist() ^ zobrist::en_passant_key(ep.file()),
            _ => self.zobrist(),
        }
    }

    fn is_same_position(&self, other: &Self) -> bool {
        self.turn() == other.turn()
            && self.castling() == other.castling()
            && Color::ALL
                .into_iter()
                .all(|c| PieceKind::ALL.into_iter().all(|k| self.pieces_of(c, k) == other.pieces_of(c, k)))
            && self.pockets == other.pockets
            && self.promoted == other.promoted
            && self.remaining_checks == other.remaining_checks
            && self.legal_en_passant() == other.legal_en_passant()
    }

    fn decided(&self) -> Option<(Outcome, Termination)> {
        VariantPosition::decided(self)
    }

    /// Never in crazyhouse (python-chess and lichess have no fifty-move rule there); otherwise
    /// as in chess, with the variant's moves.
    fn can_claim_fifty_moves(&self) -> bool {
        if self.variant == Variant::Crazyhouse {
            return false;
        }
        let moves = self.legal_moves();
        match self.halfmove_clock() {
            100.. => !moves.is_empty(),
            99 => moves.iter().any(|&mv| {
                let after = self.make_move(mv);
                after.halfmove_clock() == 100 && !after.legal_moves().is_empty()
            }),
            _ => false,
        }
    }

    fn san(&self, mv: Move) -> Result<San, IllegalMoveError> {
        VariantPosition::san(self, mv)
    }

    fn parse_san(&self, text: &str, _allow_null: bool) -> Result<Move, SanError> {
        VariantPosition::parse_san(self, text)
    }

    fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        VariantPosition::parse_uci(self, text)
    }

    fn variant_tag(&self) -> Option<&'static str> {
        (self.variant != Variant::Chess).then_some(self.variant.pgn_name())
    }

    fn is_standard_start(&self) -> bool {
        *self == VariantPosition::new(self.variant)
    }

    fn write_fen<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        VariantPosition::write_fen(self, out)
    }

    fn is_checkmate(&self) -> bool {
        VariantPosition::is_checkmate(self)
    }

    fn is_stalemate(&self) -> bool {
        VariantPosition::is_stalemate(self)
    }

    /// A variant game is never on a chess position, even where the pieces stand as in one.
    fn as_chess(&self) -> Option<&Position> {
        None
    }
}

impl From<Position> for VariantPosition {
    /// The chess position as a position of [`Variant::Chess`] (or [`Variant::Chess960`] when it
    /// follows Chess960's conventions).
    fn from(pos: Position) -> VariantPosition {
        let variant = if pos.is_chess960() { Variant::Chess960 } else { Variant::Chess };
        VariantPosition::from_parts(pos, variant, [Pocket::default(); 2], Bitboard::EMPTY, [3, 3])
    }
}

/// A game of chess or of a lichess variant, as [`PgnReader::next_any_game`] reads them from a
/// database that mixes both: chess games (Chess960 included) keep the chess [`Game`] and its
/// speed, the others are [`VariantGame`]s.
///
/// [`PgnReader::next_any_game`]: crate::pgn::PgnReader::next_any_game
#[derive(Debug, Clone)]
pub enum AnyGame {
    /// A game of chess or Chess960.
    Chess(Game),
    /// A game of a lichess variant.
    Variant(VariantGame),
}

impl AnyGame {
    /// The rules played: [`Variant::Chess`] or [`Variant::Chess960`] for a chess game.
    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Chess(game) if game.start().is_chess960() => Variant::Chess960,
            AnyGame::Chess(_) => Variant::Chess,
            AnyGame::Variant(game) => game.start().variant(),
        }
    }

    /// The tag pairs as read.
    pub fn tags(&self) -> &Tags {
        match self {
            AnyGame::Chess(game) => game.tags(),
            AnyGame::Variant(game) => game.tags(),
        }
    }

    /// [`Game::to_pgn`].
    pub fn to_pgn(&self) -> String {
        match self {
            AnyGame::Chess(game) => game.to_pgn(),
            AnyGame::Variant(game) => game.to_pgn(),
        }
    }
}
