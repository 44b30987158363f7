//! Text renderings of a position.

use std::fmt::{self, Write};

use crate::board::piece::Piece;
use crate::board::square::{File, Rank, Square};
use crate::position::Position;

/// The text renderings of a board, for [`Diagram`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardStyle {
    /// 8 rows of 8 characters, rank 8 first, files a to h: FEN letters (White upper case,
    /// Black lower case) and a space for an empty square; rows joined by `"\n"`.
    Plain,
    /// FEN letters and `.` for empty squares, separated by spaces, with rank numbers on the
    /// left and file letters below; every line ends with `"\n"`.
    Ascii,
    /// Like [`BoardStyle::Ascii`], with the Unicode chess symbols.
    Unicode,
}

/// A position's board drawn as text in a [`BoardStyle`], by `Display`: `to_string()` gives a
/// `String`, `write!` writes to any formatter without allocating.
///
/// # Examples
///
/// ```
/// use chesscore_core::{BoardStyle, Diagram, Position};
///
/// let text = Diagram::new(&Position::startpos(), BoardStyle::Ascii).to_string();
/// assert!(text.starts_with("8 r n b q k b n r\n7 p p p p p p p p\n6 . . . ."));
/// assert!(text.ends_with("1 R N B Q K B N R\n  a b c d e f g h\n"));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Diagram<'a> {
    position: &'a Position,
    style: BoardStyle,
}

impl<'a> Diagram<'a> {
    /// The board of `position` in `style`.
    pub fn new(position: &'a Position, style: BoardStyle) -> Diagram<'a> {
        Diagram { position, style }
    }
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let style = self.style;
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
                out.write_char(symbol(self.position.piece_at(Square::new(file, rank))))?;
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
        let text = Diagram::new(&Position::startpos(), BoardStyle::Plain).to_string();
        let rows: Vec<&str> = text.split('\n').collect();
        assert_eq!(rows.len(), 8);
        assert_eq!(rows[0], "rnbqkbnr");
        assert_eq!(rows[2], "        ");
        assert_eq!(rows[7], "RNBQKBNR");
    }

    #[test]
    fn ascii_and_unicode() {
        let ascii = Diagram::new(&Position::startpos(), BoardStyle::Ascii).to_string();
        assert!(ascii.starts_with("8 r n b q k b n r\n"));
        assert!(ascii.contains("\n4 . . . . . . . .\n"));
        assert!(ascii.ends_with("  a b c d e f g h\n"));
        let unicode = Diagram::new(&Position::startpos(), BoardStyle::Unicode).to_string();
        assert!(unicode.starts_with("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n"));
    }
}
