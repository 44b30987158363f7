//! Material signatures: which pieces each side has, as table names spell them (`KQvKR`).

use std::fmt;

use crate::{Color, PieceKind, Position};

/// Kinds in the order of table names: king, queen, rook, bishop, knight, pawn.
const NAME_ORDER: [PieceKind; 6] =
    [PieceKind::King, PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight, PieceKind::Pawn];

/// The number of pieces of each kind per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct Material([[u8; 6]; 2]);

impl Material {
    pub(super) fn from_position(pos: &Position) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
            for kind in PieceKind::ALL {
                counts[c][kind.index()] = pos.pieces_of(color, kind).count() as u8;
            }
        }
        Material(counts)
    }

    /// From table piece codes (kind 1..6 for pawn..king, plus 8 for black).
    pub(super) fn from_codes(codes: &[u8]) -> Option<Material> {
        let mut counts = [[0u8; 6]; 2];
        for &code in codes {
            let kind = usize::from(code & 7).checked_sub(1).filter(|&k| k < 6 && code < 16)?;
            counts[usize::from(code >> 3)][kind] += 1;
        }
        Some(Material(counts))
    }

    /// Reads a table name as python-chess accepts it: `K...vK...` with each side's pieces in
    /// the order K Q R B N P, the stronger side first, at most 7 pieces, not `KvK`.
    pub(super) fn from_table_name(name: &str) -> Option<Material> {
        let (white, black) = name.split_once('v')?;
        let mut counts = [[0u8; 6]; 2];
        let mut order = [Vec::new(), Vec::new()];
        for (c, side) in [white, black].into_iter().enumerate() {
            for ch in side.chars() {
                let kind = NAME_ORDER.iter().position(|k| k.char_upper() == ch)?;
                order[c].push(kind);
                counts[c][NAME_ORDER[kind].index()] += 1;
            }
            if !order[c].is_sorted() || counts[c][PieceKind::King.index()] != 1 || order[c].first() != Some(&0) {
                return None;
            }
        }
        let material = Material(counts);
        // python-chess's normal form: more pieces first; on equal counts, the side whose
        // pieces come first in K Q R B N P order.
        let swap = (order[0].len(), &order[1]) < (order[1].len(), &order[0]);
        (!swap && material.count() <= 7 && material.count() > 2).then_some(material)
    }

    pub(super) fn flipped(self) -> Material {
        Material([self.0[1], self.0[0]])
    }

    pub(super) fn count(&self) -> u32 {
        self.0.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    pub(super) fn count_of(&self, color: Color, kind: PieceKind) -> u8 {
        self.0[color as usize][kind.index()]
    }

    pub(super) fn has_pawns(&self) -> bool {
        self.count_of(Color::White, PieceKind::Pawn) + self.count_of(Color::Black, PieceKind::Pawn) > 0
    }

    /// Kinds a side has exactly one of, both sides counted.
    pub(super) fn unique_pieces(&self) -> usize {
        self.0.iter().flatten().filter(|&&n| n == 1).count()
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
    use super::Material;

    #[test]
    fn table_names() {
        for ok in ["KQvK", "KRvKR", "KQRvKR", "KPvKP", "KBNvK", "KRPvKR"] {
            assert_eq!(Material::from_table_name(ok).map(|m| m.to_string()).as_deref(), Some(ok));
        }
        for bad in ["KvK", "KRvKQ", "KvKQ", "QKvK", "KQvKRR", "K", "KXvK", "KQKvK", "KQQQQQvKQ"] {
            assert!(Material::from_table_name(bad).is_none(), "{bad}");
        }
    }
}
