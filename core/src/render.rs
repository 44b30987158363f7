//! Text renderings of a position.

use std::fmt::{self, Write};

use crate::piece::Piece;
use crate::position::Position;
use crate::square::{File, Rank, Square};

/// The text renderings of a board, for [`Position::write_board`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardStyle {
    /// [`Position::board_string`].
    Plain,
    /// [`Position::to_ascii`].
    Ascii,
    /// [`Position::to_unicode`].
    Unicode,
}

impl Position {
    /// 8 rows of 8 characters, rank 8 first, files a to h: FEN letters (White upper case,
    /// Black lower case) and a space for an empty square; rows joined by `"\n"`.
    pub fn board_string(&self) -> String {
        self.render(BoardStyle::Plain)
    }

    /// FEN letters and `.` for empty squares, separated by spaces, with rank numbers on the
    /// left and file letters below; every line ends with `"\n"`.
    pub fn to_ascii(&self) -> String {
        self.render(BoardStyle::Ascii)
    }

    /// Like [`Position::to_ascii`], with the Unicode chess symbols.
    pub fn to_unicode(&self) -> String {
        self.render(BoardStyle::Unicode)
    }

    fn render(&self, style: BoardStyle) -> String {
        let mut out = String::with_capacity(200);
        // Writing to a String cannot fail.
        let _ = self.write_board(&mut out, style);
        out
    }

    /// Writes a rendering to any `fmt::Write`, allocating nothing.
    pub fn write_board<W: Write>(&self, out: &mut W, style: BoardStyle) -> fmt::Result {
        let symbol = |piece: Option<Piece>| match style {
            BoardStyle::Plain => piece.map_or(' ', |p| p.fen_char()),
            BoardStyle::Ascii => piece.map_or('.', |p| p.fen_char()),
            BoardStyle::Unicode => piece.map_or('·', |p| p.unicode_symbol()),
        };
        let (gap, coordinates) = if style == BoardStyle::Plain { ("", false) } else { (" ", true) };
        for rank in Rank::ALL.into_iter().rev() {
            if coordinates {
                out.write_char(rank.to_char())?;
            }
            for file in File::ALL {
                if coordinates || file != File::A {
                    out.write_str(gap)?;
                }
                out.write_char(symbol(self.piece_at(Square::new(file, rank))))?;
            }
            if coordinates || rank != Rank::First {
                out.write_char('\n')?;
            }
        }
        if coordinates {
            out.write_char(' ')?;
            for file in File::ALL {
                out.write_str(gap)?;
                out.write_char(file.to_char())?;
            }
            out.write_char('\n')?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_string_rows() {
        let text = Position::startpos().board_string();
        let rows: Vec<&str> = text.split('\n').collect();
        assert_eq!(rows.len(), 8);
        assert_eq!(rows[0], "rnbqkbnr");
        assert_eq!(rows[2], "        ");
        assert_eq!(rows[7], "RNBQKBNR");
    }

    #[test]
    fn ascii_and_unicode() {
        let ascii = Position::startpos().to_ascii();
        assert!(ascii.starts_with("8 r n b q k b n r\n"));
        assert!(ascii.contains("\n4 . . . . . . . .\n"));
        assert!(ascii.ends_with("  a b c d e f g h\n"));
        let unicode = Position::startpos().to_unicode();
        assert!(unicode.starts_with("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n"));
    }
}
