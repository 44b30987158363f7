//! Board pictures of variant positions: the chess board's SVG (see
//! [`SvgOptions`]) with crazyhouse's pockets and promoted pieces and three-check's check
//! counters.

use std::fmt::{self, Write};

use arrayvec::ArrayString;

use crate::board::bitboard::Bitboard;
use crate::draw::svg::{Extras, SvgOptions};
use crate::variant::{Variant, VariantPosition};

impl SvgOptions {
    /// The default options with the king of the side to move glowing when the variant counts
    /// it in check ([`VariantPosition::is_check`]: never in antichess, nor in atomic with the
    /// kings touching).
    pub fn for_variant(pos: &VariantPosition) -> SvgOptions {
        let check =
            if pos.is_check() { Bitboard::from_square(pos.board.king_square(pos.turn())) } else { Bitboard::EMPTY };
        SvgOptions { check, ..SvgOptions::default() }
    }
}

impl VariantPosition {
    /// The board as a standalone SVG 1.1 document (see [`VariantPosition::write_svg`]).
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantPosition};
    /// use chesscore_core::SvgOptions;
    ///
    /// let pos = VariantPosition::from_fen(Variant::Crazyhouse, "4k3/8/8/8/8/8/8/4K2Q~[NNp] w - - 0 1")?;
    /// let svg = pos.to_svg(&SvgOptions::for_variant(&pos));
    /// assert!(svg.contains(r#"chess:pocket="w" chess:piece="N" chess:count="2""#));
    /// assert!(svg.contains(r#"chess:promoted="h1""#));
    /// # Ok::<(), chesscore_core::variant::VariantFenError>(())
    /// ```
    pub fn to_svg(&self, options: &SvgOptions) -> String {
        let mut out = String::with_capacity(16 * 1024);
        // Writing to a String cannot fail.
        let _ = self.write_svg(&mut out, options);
        out
    }

    /// Writes the board as [`Position::write_svg`](crate::Position::write_svg) does, the
    /// variant's FEN as the `<desc>`, plus:
    /// - crazyhouse: a strip above and one below the board, each side's on its side of the
    ///   board (White's at the bottom unless the board is flipped), holding its pocket: one
    ///   piece of each kind from pawn to queen (`<use>` elements with the attributes
    ///   `chess:pocket` (`w` or `b`), `chess:piece` and `chess:count`), the count on a badge, the
    ///   kinds it lacks faded; and a tilde in the top right corner of each promoted piece (a
    ///   `<g chess:promoted="e8">`);
    /// - three-check: the same strips holding each side's check counter (a
    ///   `<g chess:checks="w" chess:remaining="2">`): its king, then a red disc for each check it
    ///   still has to give and a red ring for each one given.
    ///
    /// With strips the picture is taller than wide: [`SvgOptions::size`] is its width.
    pub fn write_svg<W: Write>(&self, out: &mut W, options: &SvgOptions) -> fmt::Result {
        // On the stack: the C API draws without allocating (every piece and pocket piece once,
        // with marks and the other fields, fits).
        let mut fen = ArrayString::<1024>::new();
        self.write_fen(&mut fen)?;
        let extras = match self.variant {
            Variant::Crazyhouse => {
                let pockets = Some(self.pockets.map(|pocket| pocket.counts()));
                Extras { pockets, promoted: self.promoted, ..Extras::default() }
            }
            Variant::ThreeCheck => Extras { remaining_checks: Some(self.remaining_checks), ..Extras::default() },
            _ => Extras::default(),
        };
        self.board.write_svg_with(out, options, &Extras { fen: Some(&fen), ..extras })
    }
}
