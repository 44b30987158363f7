//! A setup's FEN with the writing conventions of a position's: which en passant square and
//! which castling letters.

use std::fmt;

use super::Setup;
use crate::notation::fen::write::write_board;
use crate::notation::fen::{CastlingNotation, FenWriteOptions};
use crate::position::EnPassantMode;

impl Setup {
    /// Writes the FEN with `options`: the en passant square as recorded, or only when a
    /// pseudo-legal (legal) move of [`Setup::pseudo_legal_moves`] ([`Setup::legal_moves`])
    /// takes there; the castling rights as they stand (not only the clean ones), as X-FEN
    /// letters (standard corners read `KQkq`) or Shredder-FEN file letters.
    ///
    /// ```
    /// use chesscore_core::{Fen, FenWriteOptions, Setup};
    ///
    /// let setup = *"4k3/8/8/8/8/8/4P3/4K2R w K e3 0 1".parse::<Fen>()?.setup();
    /// let mut fen = String::new();
    /// setup.write_fen(&mut fen, false, &FenWriteOptions::default()).unwrap();
    /// assert_eq!(fen, "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1");
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn write_fen<W: fmt::Write>(&self, out: &mut W, chess960: bool, options: &FenWriteOptions) -> fmt::Result {
        write_board(out, |sq| self.board[sq.index()], |_, _| {})?;
        write!(out, " {} ", self.turn.fen_char())?;
        if self.castling_rooks.is_empty() {
            out.write_char('-')?;
        }
        for (letter, rook) in self.castling_letters() {
            let letter = match options.castling {
                CastlingNotation::Shredder if letter.is_ascii_uppercase() => rook.file().to_char().to_ascii_uppercase(),
                CastlingNotation::Shredder => rook.file().to_char(),
                CastlingNotation::Auto | CastlingNotation::XFen => letter as char,
            };
            out.write_char(letter)?;
        }
        let ep = self.en_passant.filter(|&ep| {
            let moves = match options.en_passant {
                EnPassantMode::AsRecorded => return true,
                EnPassantMode::PseudoLegal => self.pseudo_legal_moves(chess960),
                EnPassantMode::Legal => self.legal_moves(chess960),
            };
            moves.iter().any(|mv| mv.is_en_passant() && mv.to() == ep)
        });
        match ep {
            Some(sq) => write!(out, " {sq}")?,
            None => out.write_str(" -")?,
        }
        write!(out, " {} {}", self.halfmove_clock, self.fullmove_number)
    }

}
