//! What the tables need of a material signature beyond its notation
//! ([`Material`](crate::Material)): their piece codes and their names' normal form.

use crate::notation::material::{Material, NAME_ORDER};
use crate::{Color, PieceKind};

impl Material {
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
        let material: Material = name.parse().ok()?;
        // Written back the same: each side in K Q R B N P order.
        if material.to_string() != name {
            return None;
        }
        let order = |c: usize| -> Vec<usize> {
            (0..6).flat_map(|k| std::iter::repeat_n(k, usize::from(material.0[c][NAME_ORDER[k].index()]))).collect()
        };
        let (white, black) = (order(0), order(1));
        // python-chess's normal form: more pieces first; on equal counts, the side whose
        // pieces come first in K Q R B N P order.
        let swap = (white.len(), &black) < (black.len(), &white);
        (!swap && material.count() <= 7 && material.count() > 2).then_some(material)
    }

    pub(super) fn has_pawns(&self) -> bool {
        self.count_of(Color::White, PieceKind::Pawn) + self.count_of(Color::Black, PieceKind::Pawn) > 0
    }

    /// Kinds a side has exactly one of, both sides counted.
    pub(super) fn unique_pieces(&self) -> usize {
        self.0.iter().flatten().filter(|&&n| n == 1).count()
    }
}

#[cfg(test)]
mod tests {
    use crate::Material;

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
