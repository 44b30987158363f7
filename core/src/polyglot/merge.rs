//! Merging two books.

use super::build::{ordered_entries, Weighed};
use super::{Book, BookError, RawEntry};

/// The union of two books: a (key, move) pair present in both (or more than once in one) gets
/// the sum of its weights, then the 65535 rule of [`BookBuilder`](super::BookBuilder) per key,
/// and the learn value of its first entry in `a` (else in `b`). The entries are ordered as a
/// built book's: key, weight descending, move.
pub fn merge(a: &Book, b: &Book) -> Result<Vec<RawEntry>, BookError> {
    // Each entry with its place in `a` then `b`, so that the first of a pair is known.
    let mut all: Vec<(RawEntry, usize)> = Vec::new();
    all.try_reserve_exact(a.len() + b.len())?;
    all.extend(a.entries().chain(b.entries()).enumerate().map(|(i, e)| (e, i)));
    all.sort_unstable_by_key(|&(e, i)| (e.key, e.mv, i));
    let mut weighed = Vec::new();
    weighed.try_reserve_exact(all.len())?;
    for pair in all.chunk_by(|(x, _), (y, _)| (x.key, x.mv) == (y.key, y.mv)) {
        let (first, _) = pair[0];
        let weight = pair.iter().map(|(e, _)| u64::from(e.weight)).sum();
        weighed.push(Weighed { key: first.key, mv: first.mv.raw(), weight, learn: first.learn });
    }
    ordered_entries(weighed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyglot::BookMove;

    fn book(entries: &[(u64, u16, u16, u32)]) -> Book {
        let entries: Vec<RawEntry> = entries
            .iter()
            .map(|&(key, mv, weight, learn)| RawEntry { key, mv: BookMove::from_raw(mv), weight, learn })
            .collect();
        Book::from_entries(&entries).unwrap()
    }

    #[test]
    fn union_sums_weights_and_keeps_a_learn() {
        let a = book(&[(1, 10, 5, 100), (2, 10, 60_000, 7), (2, 11, 30_000, 8)]);
        let b = book(&[(1, 10, 3, 200), (1, 12, 9, 300), (2, 10, 60_000, 9), (3, 1, 1, 1)]);
        let merged: Vec<(u64, u16, u16, u32)> =
            merge(&a, &b).unwrap().iter().map(|e| (e.key, e.mv.raw(), e.weight, e.learn)).collect();
        // Key 2: 120000 and 30000, scaled by 65535 / 120000.
        assert_eq!(merged, [(1, 12, 9, 300), (1, 10, 8, 100), (2, 10, 65_535, 7), (2, 11, 16_383, 8), (3, 1, 1, 1)]);
    }
}
