//! Text renderings of a position.

use crate::position::Position;
use crate::square::{File, Rank, Square};

impl Position {
    /// 8 rows of 8 characters, rank 8 first, files a to h: FEN letters (White upper case,
    /// Black lower case) and a space for an empty square; rows joined by `"\n"`.
    pub fn board_string(&self) -> String {
        self.render(|piece| piece.map_or(' ', |p| p.fen_char()), "", false)
    }

    /// FEN letters and `.` for empty squares, separated by spaces, with rank numbers on the
    /// left and file letters below; every line ends with `"\n"`.
    pub fn to_ascii(&self) -> String {
        self.render(|piece| piece.map_or('.', |p| p.fen_char()), " ", true)
    }

    /// Like [`Position::to_ascii`], with the Unicode chess symbols.
    pub fn to_unicode(&self) -> String {
        self.render(|piece| piece.map_or('·', |p| p.unicode_symbol()), " ", true)
    }

    fn render(&self, symbol: impl Fn(Option<crate::piece::Piece>) -> char, gap: &str, coordinates: bool) -> String {
        let mut out = String::with_capacity(200);
        for rank in Rank::ALL.into_iter().rev() {
            if coordinates {
                out.push(rank.to_char());
            }
            for file in File::ALL {
                if coordinates || file != File::A {
                    out.push_str(gap);
                }
                out.push(symbol(self.piece_at(Square::new(file, rank))));
            }
            if coordinates || rank != Rank::First {
                out.push('\n');
            }
        }
        if coordinates {
            out.push(' ');
            for file in File::ALL {
                out.push_str(gap);
                out.push(file.to_char());
            }
            out.push('\n');
        }
        out
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
