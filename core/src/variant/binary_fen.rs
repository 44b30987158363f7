//! Binary FEN of variant positions, as lichess (scalachess) defines it: the board and clocks of
//! chess's binary FEN (see [`BinaryFen`]), the clocks always written, then
//!
//! 1. the variant byte: 0 chess, 1 crazyhouse, 2 Chess960, 3 chess from a position (read as
//!    chess), 4 king of the hill, 5 three-check, 6 antichess, 7 atomic, 8 horde, 9 racing kings;
//! 2. three-check: one byte, the checks White has received (those Black has given) in the low
//!    half, Black's in the high (scalachess's `CheckCount`, of checks received);
//! 3. crazyhouse: five bytes for the pockets' pawns, knights, bishops, rooks and queens, White's
//!    count in the low half, Black's in the high; then the promoted pieces, a 64-bit big-endian
//!    bitboard.
//!
//! Chess is written as [`Position::to_binary_fen`] writes it (no variant byte). Trailing zero
//! bytes are left out and read as zeros, as in chess's binary FEN.

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::piece::PieceKind;
use crate::board::square::Square;
use crate::notation::binary_fen::{
    check_zeros, ply, BinaryFen, BinaryFenError, BinaryFenWriter, RawBinaryFen, VARIANT_BINARY_FEN_MAX_LEN,
};
use crate::notation::fen::FenOptions;

use super::{Pocket, Variant, VariantFenError, VariantPosition};

/// Why a variant position has no binary FEN, or bytes are not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VariantBinaryFenError {
    /// The board, the clocks or the bytes after the position are malformed, or (chess and
    /// Chess960) the position is invalid.
    #[error(transparent)]
    Binary(#[from] BinaryFenError),
    /// A variant byte above 9.
    #[error("binary FEN: unknown variant byte {variant} at byte {offset}")]
    UnknownVariant {
        /// The byte.
        variant: u8,
        /// Its offset.
        offset: usize,
    },
    /// A three-check count of checks given above 3.
    #[error("binary FEN: {checks} checks given by {color:?} at byte {offset}, more than 3")]
    Checks {
        /// The side.
        color: Color,
        /// The count read.
        checks: u8,
        /// The byte of the counts.
        offset: usize,
    },
    /// A promoted piece on an empty square.
    #[error("binary FEN: promoted piece on the empty square {square} (byte {offset})")]
    Promoted {
        /// The square.
        square: Square,
        /// The byte of the bitboard that holds it.
        offset: usize,
    },
    /// Writing: a pocket with more than 15 pieces of a kind, which a half byte cannot count.
    #[error("binary FEN: {count} pieces of kind {kind:?} in {color:?}'s pocket, more than 15")]
    PocketOverflow {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
        /// How many there are.
        count: u8,
    },
    /// The bytes are well formed but the position is not valid in its variant.
    #[error("binary FEN: not a valid position: {0}")]
    Position(VariantFenError),
}

impl VariantBinaryFenError {
    /// The byte offset where the problem was found (0 for a position invalid as a whole or an
    /// error of writing).
    pub fn offset(&self) -> usize {
        match self {
            VariantBinaryFenError::Binary(error) => error.offset(),
            VariantBinaryFenError::UnknownVariant { offset, .. }
            | VariantBinaryFenError::Checks { offset, .. }
            | VariantBinaryFenError::Promoted { offset, .. } => *offset,
            VariantBinaryFenError::PocketOverflow { .. } | VariantBinaryFenError::Position(_) => 0,
        }
    }
}

impl Variant {
    /// The variant byte of lichess's binary FEN.
    const fn binary_fen_byte(self) -> u8 {
        match self {
            Variant::Chess => 0,
            Variant::Crazyhouse => 1,
            Variant::Chess960 => 2,
            Variant::KingOfTheHill => 4,
            Variant::ThreeCheck => 5,
            Variant::Antichess => 6,
            Variant::Atomic => 7,
            Variant::Horde => 8,
            Variant::RacingKings => 9,
        }
    }

    /// The variant of a binary FEN's variant byte (3, chess from a position, is chess).
    const fn from_binary_fen_byte(byte: u8) -> Option<Variant> {
        let variant = match byte {
            0 | 3 => Variant::Chess,
            1 => Variant::Crazyhouse,
            2 => Variant::Chess960,
            4 => Variant::KingOfTheHill,
            5 => Variant::ThreeCheck,
            6 => Variant::Antichess,
            7 => Variant::Atomic,
            8 => Variant::Horde,
            9 => Variant::RacingKings,
            _ => return None,
        };
        Some(variant)
    }
}

impl VariantPosition {
    /// The position in lichess's binary FEN (see the module documentation), with the en passant
    /// square written only when the capture is legal: scalachess's bytes without their trailing
    /// zeros, and, three-check aside, what shakmaty 0.30.1's `PackedSetup::pack_variant` writes
    /// (shakmaty puts each side's remaining checks where lichess puts the checks received). At
    /// most [`VARIANT_BINARY_FEN_MAX_LEN`] bytes.
    ///
    /// Fails only for a crazyhouse pocket with more than 15 pieces of a kind
    /// ([`VariantBinaryFenError::PocketOverflow`]).
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantPosition};
    ///
    /// let pos = VariantPosition::from_fen(Variant::ThreeCheck, "4k3/8/8/8/8/8/8/4K2R w K - 1+3 7 30")?;
    /// let packed = pos.to_binary_fen()?;
    /// // White has given 2 checks, Black none: Black has received 2 (the high half).
    /// assert_eq!(packed.to_string(), "1000000000000090da0b073a0520");
    /// assert_eq!(VariantPosition::from_binary_fen(packed.as_bytes())?, pos);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_binary_fen(&self) -> Result<BinaryFen, VariantBinaryFenError> {
        if self.variant == Variant::Chess {
            return Ok(self.board.to_binary_fen());
        }
        let mut out = BinaryFenWriter::board(&self.board, self.legal_en_passant());
        out.leb128(u64::from(self.board.halfmove_clock()));
        out.leb128(ply(&self.board));
        out.byte(self.variant.binary_fen_byte());
        match self.variant {
            Variant::ThreeCheck => {
                // Checks received: White's are those Black has given.
                let [by_white, by_black] = self.remaining_checks.map(|n| 3u8.saturating_sub(n));
                out.byte(by_black | by_white << 4);
            }
            Variant::Crazyhouse => {
                for kind in Pocket::KINDS {
                    let [white, black] = Color::ALL.map(|color| self.pockets[color.index()].count(kind));
                    for (color, count) in [(Color::White, white), (Color::Black, black)] {
                        if count > 15 {
                            return Err(VariantBinaryFenError::PocketOverflow { color, kind, count });
                        }
                    }
                    out.byte(white | black << 4);
                }
                for b in self.promoted.0.to_be_bytes() {
                    out.byte(b);
                }
            }
            _ => {}
        }
        Ok(out.finish())
    }

    /// Reads a binary FEN of any variant (the variant byte says which; none is chess),
    /// rejecting malformed bytes and positions the variant's FEN reader
    /// ([`VariantPosition::from_fen`]) refuses. Castling rights without their king and rook
    /// are dropped, as is an en passant square no double push could have left.
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantBinaryFenError, VariantPosition};
    ///
    /// let zh = VariantPosition::new(Variant::Crazyhouse).to_binary_fen()?;
    /// assert_eq!(VariantPosition::from_binary_fen(zh.as_bytes())?.variant(), Variant::Crazyhouse);
    ///
    /// let mut bad = zh.as_bytes().to_vec();
    /// *bad.last_mut().unwrap() = 10;
    /// assert!(matches!(
    ///     VariantPosition::from_binary_fen(&bad),
    ///     Err(VariantBinaryFenError::UnknownVariant { variant: 10, .. })
    /// ));
    /// # Ok::<(), VariantBinaryFenError>(())
    /// ```
    pub fn from_binary_fen(bytes: &[u8]) -> Result<VariantPosition, VariantBinaryFenError> {
        let raw = RawBinaryFen::read(bytes, VARIANT_BINARY_FEN_MAX_LEN)?;
        let Some(variant) = Variant::from_binary_fen_byte(raw.variant) else {
            return Err(VariantBinaryFenError::UnknownVariant { variant: raw.variant, offset: raw.variant_offset });
        };
        let mut pockets = [Pocket::default(); 2];
        let mut promoted = Bitboard::EMPTY;
        let mut remaining_checks = [3u8; 2];
        if variant.is_chess() {
            let (board, _) = raw.into_chess(bytes, &FenOptions::default())?;
            return Ok(VariantPosition::from_parts(board, variant, pockets, promoted, remaining_checks));
        }

        let byte_at = |at: usize| bytes.get(at).copied().unwrap_or(0);
        let mut at = raw.variant_offset + 1;
        match variant {
            Variant::ThreeCheck => {
                let counts = byte_at(at);
                // Checks received by White (given by Black), then by Black.
                for (color, given) in [(Color::Black, counts & 15), (Color::White, counts >> 4)] {
                    if given > 3 {
                        return Err(VariantBinaryFenError::Checks { color, checks: given, offset: at });
                    }
                    remaining_checks[color.index()] = 3 - given;
                }
                at += 1;
            }
            Variant::Crazyhouse => {
                for kind in Pocket::KINDS {
                    let counts = byte_at(at);
                    for (pocket, count) in pockets.iter_mut().zip([counts & 15, counts >> 4]) {
                        // At most 15 of a kind: every one fits.
                        (0..count).for_each(|_| _ = pocket.add(kind));
                    }
                    at += 1;
                }
                let mut bitboard = [0u8; 8];
                bitboard.iter_mut().enumerate().for_each(|(i, b)| *b = byte_at(at + i));
                promoted = Bitboard(u64::from_be_bytes(bitboard));
                if let Some(square) = (promoted & !raw.pos.occupancy()).first() {
                    return Err(VariantBinaryFenError::Promoted { square, offset: at + 7 - square.index() / 8 });
                }
                at += 8;
            }
            _ => {}
        }
        check_zeros(bytes, at)?;
        let (halfmove_clock, fullmove_number) = raw.clocks()?;

        // The variant's checks are those of its FEN reader.
        let mut setup = raw.pos.to_setup();
        setup.castling_rooks = raw.castling_rooks;
        setup.en_passant = raw.en_passant;
        setup.halfmove_clock = halfmove_clock;
        setup.fullmove_number = fullmove_number;
        VariantPosition::validate(variant, setup, pockets, promoted, remaining_checks)
            .map_err(VariantBinaryFenError::Position)
    }
}
