//! What a game needs of the board it is played on: the chess [`Position`], or a variant's
//! position (which implements [`GameBoard`] where it is defined).

use std::fmt;

use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::zobrist;
use crate::notation::san::{San, SanError, SanOptions};
use crate::notation::uci::{Uci, UciError};
use crate::position::{EnPassantMode, IllegalMoveError, Position};

use super::outcome::{Outcome, Termination};

pub(crate) mod sealed {
    /// Only the library's boards are [`GameBoard`](super::GameBoard)s.
    pub trait Sealed {}
}

/// A board a [`Game`](super::Game) can be played on: the chess [`Position`] (a [`Game`](super::Game))
/// or a lichess variant's position (a [`VariantGame`](crate::variant::VariantGame)). The
/// methods are what the game model, the PGN reader and writer need; call the board's own
/// methods instead.
pub trait GameBoard: Copy + fmt::Debug + sealed::Sealed {
    /// The side to move.
    fn turn(&self) -> Color;
    /// The number of the move, from 1.
    fn fullmove_number(&self) -> u32;
    /// True when `mv` is legal here, or is [`Move::NULL`] while `allow_null` and the rules
    /// allow passing.
    fn can_play(&self, mv: Move, allow_null: bool) -> bool;
    /// Plays a legal move (or a null move [`GameBoard::can_play`] allowed).
    fn play_legal(&mut self, mv: Move);
    /// Calls `f` with each legal move and the position it leads to, until `f` says true.
    fn any_successor(&self, f: impl FnMut(Move, &Self) -> bool) -> bool;
    /// `mv`, legal here (or null) and leading to `after`, makes every earlier position
    /// unreachable: no position before it can occur again.
    fn is_irreversible(&self, mv: Move, after: &Self) -> bool;
    /// A key for finding repetitions: equal for the same position.
    fn repetition_key(&self) -> u64;
    /// The same position, for repetitions (the clocks do not count).
    fn is_same_position(&self, other: &Self) -> bool;
    /// How the rules end the game in this position alone (repetitions need the history), with
    /// the result.
    fn decided(&self) -> Option<(Outcome, Termination)>;
    /// A fifty-move draw may be claimed now or by announcing a move.
    fn can_claim_fifty_moves(&self) -> bool;
    /// The SAN of the legal move `mv` (`--` for a null move).
    fn san(&self, mv: Move) -> Result<San, IllegalMoveError>;
    /// The move the lenient SAN `text` names (null moves as `allow_null` says).
    fn parse_san(&self, text: &str, allow_null: bool) -> Result<Move, SanError>;
    /// The legal move the UCI `text` names (or `0000`).
    fn parse_uci(&self, text: &str) -> Result<Move, UciError>;
    /// The PGN `Variant` tag a game from here needs, if any.
    fn variant_tag(&self) -> Option<&'static str>;
    /// True for the start position of the board's rules (no `FEN` tag needed).
    fn is_standard_start(&self) -> bool;
    /// Writes the FEN of the `FEN` tag.
    fn write_fen<W: fmt::Write>(&self, out: &mut W) -> fmt::Result;
    /// The side to move is checkmated, by the board's rules.
    fn is_checkmate(&self) -> bool;
    /// The side to move is stalemated, by the board's rules.
    fn is_stalemate(&self) -> bool;
    /// The chess position this is, if it is one (a game filter's positions and material are
    /// chess positions').
    fn as_chess(&self) -> Option<&Position>;
}

impl sealed::Sealed for Position {}

impl GameBoard for Position {
    fn turn(&self) -> Color {
        Position::turn(self)
    }

    fn fullmove_number(&self) -> u32 {
        Position::fullmove_number(self)
    }

    fn can_play(&self, mv: Move, allow_null: bool) -> bool {
        if mv.is_null() {
            allow_null && !self.in_check()
        } else {
            self.is_legal(mv)
        }
    }

    #[inline]
    fn play_legal(&mut self, mv: Move) {
        self.play_known(mv);
    }

    fn any_successor(&self, mut f: impl FnMut(Move, &Self) -> bool) -> bool {
        self.legal_moves().iter().any(|&mv| f(mv, &self.make_move(mv)))
    }

    #[inline]
    fn is_irreversible(&self, mv: Move, after: &Self) -> bool {
        mv.is_null()
            || mv.is_en_passant()
            || self.kind_at(mv.from()) == Some(PieceKind::Pawn)
            || (!mv.is_castling() && self.occupancy().contains(mv.to()))
            || self.castling() != after.castling()
    }

    /// The Polyglot key with the en passant file removed when no legal capture exists.
    #[inline]
    fn repetition_key(&self) -> u64 {
        match self.en_passant_square(EnPassantMode::PseudoLegal) {
            Some(ep) if self.en_passant_square(EnPassantMode::Legal).is_none() => {
                self.zobrist() ^ zobrist::en_passant_key(ep.file())
            }
            _ => self.zobrist(),
        }
    }

    fn is_same_position(&self, other: &Self) -> bool {
        Position::is_same_position(self, other)
    }

    fn decided(&self) -> Option<(Outcome, Termination)> {
        let ended = if self.is_checkmate() {
            return Some((Outcome::win_for(!Position::turn(self)), Termination::Checkmate));
        } else if self.is_insufficient_material() {
            Termination::InsufficientMaterial
        } else if !self.has_legal_moves() {
            Termination::Stalemate
        } else if self.is_seventy_five_moves() {
            Termination::SeventyFiveMoves
        } else {
            return None;
        };
        Some((Outcome::Draw, ended))
    }

    fn can_claim_fifty_moves(&self) -> bool {
        Position::can_claim_fifty_moves(self)
    }

    fn san(&self, mv: Move) -> Result<San, IllegalMoveError> {
        San::from_move(self, mv)
    }

    fn parse_san(&self, text: &str, allow_null: bool) -> Result<Move, SanError> {
        let options = SanOptions { allow_null, ..SanOptions::default() };
        text.parse::<San>()?.to_move_with(self, &options)
    }

    fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        text.parse::<Uci>()?.to_move(self)
    }

    fn variant_tag(&self) -> Option<&'static str> {
        self.is_chess960().then_some("Chess960")
    }

    fn is_standard_start(&self) -> bool {
        *self == Position::startpos()
    }

    fn write_fen<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        Position::write_fen(self, out, &crate::notation::fen::FenWriteOptions::default())
    }

    fn is_checkmate(&self) -> bool {
        Position::is_checkmate(self)
    }

    fn is_stalemate(&self) -> bool {
        Position::is_stalemate(self)
    }

    fn as_chess(&self) -> Option<&Position> {
        Some(self)
    }
}
