//! What the tables need of a material signature beyond its notation
//! ([`Material`](crate::Material)): their piece codes and their names' normal form.

use std::hash::Hasher;

use crate::notation::material::{Material, NAME_ORDER};
use crate::{Color, PieceKind, Position};

/// A material signature packed into four bits per colour and kind, at the place of the
/// board's piece code (colour << 3 | kind): what the index is keyed by. Made from a position
/// in one step per piece (a [`Material`] takes twelve bit counts) and hashed as one word.
/// Only for positions the tables may hold (at most 8 pieces, so no count overflows).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct MaterialKey(u64);

impl MaterialKey {
    pub(super) fn of_position(pos: &Position) -> MaterialKey {
        MaterialKey(pos.occupancy().into_iter().map(|sq| 1 << (4 * pos.code_at(sq))).sum())
    }

    pub(super) fn of(material: &Material) -> MaterialKey {
        let mut key = 0;
        for (color, counts) in material.0.iter().enumerate() {
            for (kind, &n) in counts.iter().enumerate() {
                key |= u64::from(n & 15) << (4 * (color << 3 | kind));
            }
        }
        MaterialKey(key)
    }

    pub(super) fn material(self) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for (color, side) in counts.iter_mut().enumerate() {
            for (kind, n) in side.iter_mut().enumerate() {
                *n = (self.0 >> (4 * (color << 3 | kind)) & 15) as u8;
            }
        }
        Material(counts)
    }
}

/// The index's hasher: one folded multiply of the key (SipHash took a fifth of a WDL probe).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let product = u128::from(self.0 ^ n) * 0x9e37_79b9_7f4a_7c15;
        self.0 = product as u64 ^ (product >> 64) as u64;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

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
    use super::MaterialKey;
    use crate::{Material, Position};

    #[test]
    fn keys_of_positions_and_signatures_agree() {
        for (fen, name) in [
            ("8/8/4k3/8/2r5/3RP3/4K3/8 w - - 0 1", "KRPvKR"),
            ("8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "KRvK"),
            ("1n5k/8/8/8/8/8/7q/K1QNBB2 b - - 0 1", "KQBBNvKQN"),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let material: Material = name.parse().unwrap();
            assert_eq!(Material::from_position(&pos), material);
            assert_eq!(MaterialKey::of_position(&pos), MaterialKey::of(&material), "{fen}");
            assert_eq!(MaterialKey::of(&material).material(), material);
            assert_ne!(MaterialKey::of(&material), MaterialKey::of(&material.flipped()));
        }
    }

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
