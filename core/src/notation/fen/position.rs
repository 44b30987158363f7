//! The position's constructors from FEN text and from a [`Setup`] (and the mirror, built as
//! one), each through the one validation, [`Fen::validate`].

use super::{Fen, FenError, FenOptions, FenRepairs};
use crate::board::bitboard::Bitboard;
use crate::board::piece::Piece;
use crate::board::square::Square;
use crate::notation::setup::Setup;
use crate::position::Position;

impl Position {
    /// Reads a standard-chess FEN, rejecting any invalid position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Fen::parse(fen)?.validate(&FenOptions::default())?.0)
    }

    /// Reads a Chess960 FEN (X-FEN or Shredder-FEN castling).
    pub fn from_fen_chess960(fen: &str) -> Result<Position, FenError> {
        let options = FenOptions { chess960: true, ..FenOptions::default() };
        Ok(Fen::parse(fen)?.validate(&options)?.0)
    }

    /// Reads a FEN with options, reporting what was repaired.
    pub fn from_fen_with(fen: &str, options: &FenOptions) -> Result<(Position, FenRepairs), FenError> {
        Fen::parse(fen)?.validate(options)
    }

    /// Builds a position from the six FEN fields given separately. Error offsets refer to the
    /// fields joined by single spaces.
    pub fn from_fen_components(
        placement: &str,
        side_to_move: &str,
        castling: &str,
        en_passant: &str,
        halfmove_clock: &str,
        fullmove_number: &str,
    ) -> Result<Position, FenError> {
        let parts = [placement, side_to_move, castling, en_passant, halfmove_clock, fullmove_number];
        Position::from_fen_component_bytes(parts.map(str::as_bytes))
    }

    /// Like [`Position::from_fen_components`], with the fields as bytes that need not be UTF-8
    /// (a byte outside printable ASCII is [`FenError::InvalidCharacter`]).
    pub fn from_fen_component_bytes(parts: [&[u8]; 6]) -> Result<Position, FenError> {
        Ok(Fen::from_component_bytes(parts)?.validate(&FenOptions::default())?.0)
    }

    /// Checks a setup and builds its position, reporting what the options repaired: the
    /// validation of [`Fen::validate`], its error offsets counted in the FEN that [`Fen`]'s
    /// `Display` writes for the setup.
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::{FenError, FenOptions, Position, Repair, Setup, Square};
    ///
    /// let mut setup = Setup::default();
    /// setup.en_passant = Some(Square::E3);
    /// assert_eq!(
    ///     Position::from_setup(setup, &FenOptions::default()),
    ///     Err(FenError::InvalidEnPassant { square: Square::E3, offset: 51 })
    /// );
    ///
    /// let repair = FenOptions { bad_en_passant: Repair::Drop, ..FenOptions::default() };
    /// let (pos, repairs) = Position::from_setup(setup, &repair)?;
    /// assert_eq!((pos, repairs.dropped_en_passant), (Position::startpos(), Some(Square::E3)));
    /// # Ok::<(), FenError>(())
    /// ```
    pub fn from_setup(setup: Setup, options: &FenOptions) -> Result<(Position, FenRepairs), FenError> {
        Fen::from(setup).validate(options)
    }

    /// The position with the board flipped top to bottom and the colours swapped: White's
    /// pieces become Black's on the mirrored squares, the other side moves, castling rights and
    /// the en passant square follow; the clocks stay.
    ///
    /// ```
    /// use chesscore_core::{Fen, FenOptions, Position};
    ///
    /// let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    /// let pos = after_e4.parse::<Fen>()?.validate(&FenOptions::default())?.0;
    /// let mirrored = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1";
    /// assert_eq!(pos.mirror(), mirrored.parse::<Fen>()?.validate(&FenOptions::default())?.0);
    /// assert_eq!(pos.mirror().mirror(), pos);
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn mirror(&self) -> Position {
        let setup = self.to_setup();
        let mut mirrored = Setup {
            board: [None; 64],
            turn: !setup.turn,
            castling_rooks: Bitboard(setup.castling_rooks.0.swap_bytes()),
            en_passant: setup.en_passant.map(Square::flip_vertical),
            ..setup
        };
        for sq in Square::ALL {
            mirrored.board[sq.flip_vertical().index()] =
                setup.board[sq.index()].map(|piece| Piece::new(!piece.color, piece.kind));
        }
        // The mirror of a position is one just as valid, impossible checks included.
        let options =
            FenOptions { chess960: self.is_chess960(), allow_impossible_check: true, ..FenOptions::default() };
        Position::from_setup(mirrored, &options).expect("the mirror of a valid position is valid").0
    }
}

/// Checks the setup as a standard-chess position, with [`FenOptions::default`].
impl TryFrom<Setup> for Position {
    type Error = FenError;

    fn try_from(setup: Setup) -> Result<Position, FenError> {
        Position::from_setup(setup, &FenOptions::default()).map(|(pos, _)| pos)
    }
}
