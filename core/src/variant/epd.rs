//! EPD of variant positions: the one EPD reader and writer of [`Epd`], with the position fields
//! as python-chess's variant boards write them (see the `Variant positions` part of [`Epd`]'s
//! module documentation).

use std::fmt::{self, Write};

use arrayvec::ArrayString;

use crate::board::moves::Move;
use crate::fallible::Length;
use crate::notation::epd::sealed::Sealed;
use crate::notation::epd::{without_clocks, Epd, EpdError, EpdPosition};
use crate::notation::fen::syntax::Fields;
use crate::notation::fen::FenError;
use crate::notation::san::{San, SanError};
use crate::notation::uci::Uci;

use super::{Variant, VariantFenError, VariantPosition, VARIANT_FEN_MAX_INPUT};

/// Why an EPD line of a variant was refused: the EPD reader's reasons, or the variant's own for
/// its position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VariantEpdError {
    /// What the reader refuses in any EPD line (the FEN's own errors among them, as
    /// [`EpdError::Position`]).
    #[error(transparent)]
    Epd(#[from] EpdError),
    /// The position fields are no position of the variant for a reason of the variant's own
    /// (a pocket, a three-check counter, the number of kings, ...).
    #[error("invalid position: {0}")]
    Position(VariantFenError),
}

impl From<VariantFenError> for VariantEpdError {
    fn from(error: VariantFenError) -> VariantEpdError {
        match error {
            VariantFenError::Fen(error) => VariantEpdError::Epd(EpdError::Position(error)),
            other => VariantEpdError::Position(other),
        }
    }
}

impl EpdPosition for VariantPosition {}

/// Room for a variant FEN as [`VariantPosition::write_fen`] writes it (every piece and pocket
/// piece once, with marks and the other fields).
const VARIANT_FEN_ROOM: usize = 1024;

impl Sealed for VariantPosition {
    fn write_fields<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        let mut fen = ArrayString::<VARIANT_FEN_ROOM>::new();
        self.write_fen(&mut fen)?;
        out.write_str(without_clocks(&fen))
    }

    fn read_san(&self, token: &str) -> Result<Move, SanError> {
        self.parse_san(token)
    }

    fn san_of(&self, mv: Move) -> Option<San> {
        self.san(mv).ok()
    }

    fn legal(&self, mv: Move) -> bool {
        self.is_legal(mv)
    }

    fn play_legal(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    fn uci_of(&self, mv: Move) -> Uci {
        self.uci(mv)
    }
}

impl Epd<VariantPosition> {
    /// Reads an EPD line of `variant`: the position fields as [`VariantPosition::from_fen`]
    /// reads them (crazyhouse's pockets and promoted pieces in the placement, three-check's
    /// remaining checks as a field after the en passant square, 3 each when left out), then the
    /// operations, whose moves are the variant's SAN. Running out of memory is
    /// [`EpdError::OutOfMemory`], not an abort.
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantPosition};
    /// use chesscore_core::{Color, Epd};
    ///
    /// let line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq - bm Q@e2; pv Q@e2 @d4;";
    /// let epd = Epd::parse_variant(Variant::Crazyhouse, line)?;
    /// assert_eq!(epd.position().pocket(Color::White).len(), 1);
    /// assert_eq!(epd.best_moves(), [epd.position().parse_san("Q@e2")?]);
    /// assert_eq!(epd.to_string(), line);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_variant(variant: Variant, line: &str) -> Result<Epd<VariantPosition>, VariantEpdError> {
        // No opcode holds a `+`: a token with one is three-check's counter.
        let counter = |token: &str| variant == Variant::ThreeCheck && token.contains('+');
        Epd::read(line, counter, |fields, extra, clocks| read_fields(variant, fields, extra, clocks))
    }
}

/// The position of `variant` of an EPD's four fields, its own field `extra` and the clocks.
fn read_fields(
    variant: Variant,
    fields: &Fields<'_>,
    extra: Option<&str>,
    (halfmove, fullmove): (u32, u32),
) -> Result<VariantPosition, VariantEpdError> {
    // The FEN the variant reader reads, gathered on the stack: reading reports running out of
    // memory rather than aborting.
    let mut fen = ArrayString::<VARIANT_FEN_MAX_INPUT>::new();
    let mut length = Length(0);
    for text in fields.list[..4].iter().map(|f| f.text).chain(extra.map(str::as_bytes)) {
        // Whole fields of a `str`, split at ASCII whitespace: UTF-8.
        let text = std::str::from_utf8(text).unwrap_or_default();
        let _ = write!(length, "{text} ");
        let _ = write!(fen, "{text} ");
    }
    let _ = write!(length, "{halfmove} {fullmove}");
    if length.0 > VARIANT_FEN_MAX_INPUT {
        return Err(EpdError::Position(FenError::TooLong { length: length.0 }).into());
    }
    let _ = write!(fen, "{halfmove} {fullmove}");
    Ok(VariantPosition::from_fen(variant, &fen)?)
}
