//! Material signatures: which pieces each side has, written as table names spell them
//! (`KQvKR`: White's pieces, `v`, Black's).

use std::fmt;
use std::str::FromStr;

use crate::board::color::Color;
use crate::board::piece::PieceKind;
use crate::position::Position;

/// Kinds in the order of table names: king, queen, rook, bishop, knight, pawn.
pub(crate) const NAME_ORDER: [PieceKind; 6] =
    [PieceKind::King, PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight, PieceKind::Pawn];

/// The number of pieces of each kind per colour.
///
/// Read from text as `K...vK...` (White's pieces, `v`, Black's; letters `K Q R B N P` in any
/// order, one king a side) and written with each side's pieces in the order K Q R B N P:
///
/// ```
/// use chesscore_core::{Material, Position};
///
/// let spec: Material = "KPRvKR".parse()?;
/// assert_eq!(spec.to_string(), "KRPvKR");
/// assert_eq!(spec.flipped().to_string(), "KRvKRP");
/// let pos = Position::from_fen("8/8/4k3/8/2r5/3RP3/4K3/8 w - - 0 1")?;
/// assert_eq!(Material::from_position(&pos), spec);
/// assert!("KRvQ".parse::<Material>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Material(pub(crate) [[u8; 6]; 2]);

/// Why a material signature was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MaterialError {
    /// No `v` between the two sides (`KRPvKR`).
    #[error("expected the two sides' pieces with a `v` between them, as in KRPvKR")]
    MissingSeparator,
    /// A letter that is none of `K Q R B N P`.
    #[error("`{0}` is not a piece letter (K Q R B N P)")]
    Piece(char),
    /// A side without exactly one king.
    #[error("each side must have exactly one king")]
    Kings,
    /// More than 16 pieces on a side.
    #[error("more than 16 pieces on a side")]
    TooMany,
}

impl Material {
    /// The pieces on the board of `pos`.
    pub fn from_position(pos: &Position) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
            for kind in PieceKind::ALL {
                counts[c][kind.index()] = pos.pieces_of(color, kind).count() as u8;
            }
        }
        Material(counts)
    }

    /// The same pieces with the colours swapped.
    pub fn flipped(self) -> Material {
        Material([self.0[1], self.0[0]])
    }

    /// The number of pieces, both sides.
    pub fn count(&self) -> u32 {
        self.0.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    /// The number of pieces of `kind` that `color` has.
    pub fn count_of(&self, color: Color, kind: PieceKind) -> u8 {
        self.0[color as usize][kind.index()]
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let (white, black) = text.split_once('v').ok_or(MaterialError::MissingSeparator)?;
        let mut counts = [[0u8; 6]; 2];
        for (c, side) in [white, black].into_iter().enumerate() {
            if side.chars().count() > 16 {
                return Err(MaterialError::TooMany);
            }
            for ch in side.chars() {
                let kind = NAME_ORDER.iter().find(|k| k.char_upper() == ch).ok_or(MaterialError::Piece(ch))?;
                counts[c][kind.index()] += 1;
            }
            if counts[c][PieceKind::King.index()] != 1 {
                return Err(MaterialError::Kings);
            }
        }
        Ok(Material(counts))
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (c, side) in self.0.iter().enumerate() {
            if c == 1 {
                f.write_str("v")?;
            }
            for kind in NAME_ORDER {
                for _ in 0..side[kind.index()] {
                    write!(f, "{}", kind.char_upper())?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Material, MaterialError};

    #[test]
    fn any_order_within_a_side() {
        for (text, written) in [("KRPvKR", "KRPvKR"), ("KPRvKR", "KRPvKR"), ("KvKQ", "KvKQ"), ("PKvK", "KPvK")] {
            assert_eq!(text.parse::<Material>().map(|m| m.to_string()).as_deref(), Ok(written), "{text}");
        }
        assert_eq!("KRvK".parse::<Material>().unwrap().flipped(), "KvKR".parse().unwrap());
    }

    #[test]
    fn refused() {
        assert_eq!("KRK".parse::<Material>(), Err(MaterialError::MissingSeparator));
        assert_eq!("KXvK".parse::<Material>(), Err(MaterialError::Piece('X')));
        assert_eq!("krvk".parse::<Material>(), Err(MaterialError::Piece('k')));
        assert_eq!("RvK".parse::<Material>(), Err(MaterialError::Kings));
        assert_eq!("KKvK".parse::<Material>(), Err(MaterialError::Kings));
        assert_eq!("KvKvK".parse::<Material>(), Err(MaterialError::Piece('v')));
        assert_eq!("KPPPPPPPPPPPPPPPPvK".parse::<Material>(), Err(MaterialError::TooMany));
    }
}
