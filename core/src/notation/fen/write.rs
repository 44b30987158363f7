//! Writing a position's FEN, with the chosen en passant and castling conventions.

use std::fmt;

use super::{CastlingNotation, FenWriteOptions, FEN_MAX_LEN};
use crate::board::castling::CastlingSide;
use crate::board::color::Color;
use crate::board::piece::Piece;
use crate::board::square::{File, Rank, Square};
use crate::notation::setup::BackRank;
use crate::position::Position;

/// Writes a piece placement field, telling `piece_written` where each piece's letter goes in
/// it.
pub(crate) fn write_board<W: fmt::Write>(
    out: &mut W,
    piece_at: impl Fn(Square) -> Option<Piece>,
    mut piece_written: impl FnMut(Square, usize),
) -> fmt::Result {
    let mut at = 0;
    for rank in Rank::ALL.into_iter().rev() {
        let mut empty = 0u8;
        for file in File::ALL {
            let sq = Square::new(file, rank);
            match piece_at(sq) {
                Some(piece) => {
                    if empty > 0 {
                        out.write_char((b'0' + empty) as char)?;
                        at += 1;
                        empty = 0;
                    }
                    piece_written(sq, at);
                    out.write_char(piece.fen_char())?;
                    at += 1;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.write_char((b'0' + empty) as char)?;
            at += 1;
        }
        if rank != Rank::First {
            out.write_char('/')?;
            at += 1;
        }
    }
    Ok(())
}

impl Position {
    /// The FEN of this position: en passant only when the capture is legal, castling as
    /// `KQkq` (X-FEN in Chess960).
    pub fn to_fen(&self) -> String {
        self.to_fen_with(&FenWriteOptions::default())
    }

    /// The FEN with chosen en passant and castling conventions.
    pub fn to_fen_with(&self, options: &FenWriteOptions) -> String {
        let mut out = String::with_capacity(FEN_MAX_LEN);
        self.write_fen(&mut out, options).expect("writing to a String cannot fail");
        out
    }

    /// Writes the FEN to any `fmt::Write` (no allocation of its own).
    pub fn write_fen<W: fmt::Write>(&self, out: &mut W, options: &FenWriteOptions) -> fmt::Result {
        self.write_placement(out)?;
        write!(out, " {} ", self.turn().fen_char())?;
        self.write_castling(out, options.castling)?;
        out.write_char(' ')?;
        match self.en_passant_square(options.en_passant) {
            Some(sq) => write!(out, "{sq}")?,
            None => out.write_char('-')?,
        }
        write!(out, " {} {}", self.halfmove_clock(), self.fullmove_number())
    }

    /// The piece placement field.
    pub fn write_placement<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        write_board(out, |sq| self.piece_at(sq), |_, _| {})
    }

    pub(crate) fn write_castling<W: fmt::Write>(&self, out: &mut W, notation: CastlingNotation) -> fmt::Result {
        let rights = self.castling();
        if rights.is_empty() {
            return out.write_char('-');
        }
        let notation = match notation {
            CastlingNotation::Auto if self.is_chess960() => CastlingNotation::XFen,
            other => other,
        };
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(rook) = rights.rook_square(color, side) else { continue };
                let letter = match notation {
                    CastlingNotation::Auto => side_letter(side),
                    CastlingNotation::Shredder => rook.file().to_char(),
                    CastlingNotation::XFen => {
                        BackRank::of_position(self, color).letter(rook).to_ascii_lowercase() as char
                    }
                };
                out.write_char(if color == Color::White { letter.to_ascii_uppercase() } else { letter })?;
            }
        }
        Ok(())
    }
}

fn side_letter(side: CastlingSide) -> char {
    match side {
        CastlingSide::KingSide => 'k',
        CastlingSide::QueenSide => 'q',
    }
}
