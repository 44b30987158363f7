//! Polyglot-compatible Zobrist keys.
//!
//! The key of a position is the XOR of one published constant per piece on its square, one per
//! castling right, one for the en passant file and one when White is to move. As in the
//! Polyglot book format, the en passant file counts only when a pawn of the side to move stands
//! beside the pawn that has just advanced two squares, whether or not the capture is legal.
//! [`crate::Position`] keeps its key up to date on every move.

mod polyglot_keys;

use polyglot_keys::POLYGLOT_RANDOM;

use crate::board::color::Color;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{File, Square};

/// Keys by 4-bit piece code (colour index << 3 | kind index) and square; the rows of codes
/// that are no piece (an empty square's among them) are zero.
const fn piece_code_table() -> [[u64; 64]; 16] {
    let mut table = [[0u64; 64]; 16];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 6 {
            // Polyglot orders pieces black pawn, white pawn, black knight, ...
            let polyglot_piece = 2 * kind + if color == 0 { 1 } else { 0 };
            let mut sq = 0;
            while sq < 64 {
                table[color << 3 | kind][sq] = POLYGLOT_RANDOM[64 * polyglot_piece + sq];
                sq += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    table
}

const fn castling_table() -> [u64; 16] {
    let mut table = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut i = 0;
        while i < 4 {
            if bits & (1 << i) != 0 {
                table[bits] ^= POLYGLOT_RANDOM[768 + i];
            }
            i += 1;
        }
        bits += 1;
    }
    table
}

static PIECE_CODE: [[u64; 64]; 16] = piece_code_table();
static CASTLING: [u64; 16] = castling_table();

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    piece_key_parts(piece.color, piece.kind, sq)
}

#[inline(always)]
pub(crate) fn piece_key_parts(color: Color, kind: PieceKind, sq: Square) -> u64 {
    PIECE_CODE[color.index() << 3 | kind.index()][sq.index()]
}

/// Key of the piece of 4-bit code `code` (colour index << 3 | kind index) on `sq`; zero for a
/// code that is no piece.
#[inline(always)]
pub(crate) fn piece_code_key(code: u64, sq: Square) -> u64 {
    PIECE_CODE[(code & 15) as usize][sq.index()]
}

/// Key of a set of castling rights given as [`crate::CastlingRights::bits`].
#[inline(always)]
pub fn castling_key(bits: u8) -> u64 {
    CASTLING[(bits & 15) as usize]
}

/// Key of an en passant file.
#[inline(always)]
pub fn en_passant_key(file: File) -> u64 {
    POLYGLOT_RANDOM[772 + file.index()]
}

/// The 781 Polyglot constants in the format's order: 768 piece-square keys (index
/// `64 * (2 * kind + white) + square`, kinds from pawn 0 to king 5), 4 castling keys (White
/// king side, White queen side, Black king side, Black queen side), 8 en passant file keys,
/// the side-to-move key.
pub fn polyglot_random() -> &'static [u64; 781] {
    &POLYGLOT_RANDOM
}

/// Key added when White is to move.
#[inline(always)]
pub fn white_to_move_key() -> u64 {
    POLYGLOT_RANDOM[780]
}
