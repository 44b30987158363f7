//! The counts of a book being built: one tally per distinct (position key, move) pair, kept as a
//! sorted run into which the pairs of recent games are merged in batches. Sorting a batch and
//! merging it in order touches memory in sequence, where a hash map would miss the cache at
//! almost every pair of a large book.

use std::collections::TryReserveError;

/// One game's (position key, stored move) pair, with the score the game gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Occurrence {
    pub(crate) key: u64,
    pub(crate) mv: u16,
    /// 2 when the side that played the move won, 1 for a draw, 0 for a loss.
    pub(crate) score: u8,
}

/// What was counted for one pair over every game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) key: u64,
    pub(crate) games: u64,
    pub(crate) score: u64,
    pub(crate) mv: u16,
}

impl Tally {
    fn pair(&self) -> (u64, u16) {
        (self.key, self.mv)
    }
}

/// Occurrences are gathered up to this many (16 MiB) before they are merged into the run,
/// unless the run is longer still.
const BATCH_MIN: usize = 1 << 20;

/// The tallies: a run sorted by pair, without repeats, and a batch of the occurrences of recent
/// games, sorted and merged into the run once there are as many as the run has tallies: each
/// pair is merged O(log n) times, and memory stays within a small multiple of the distinct
/// pairs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tallies {
    run: Vec<Tally>,
    batch: Vec<Occurrence>,
}

impl Tallies {
    /// Adds the occurrences of one game, each pair once; on an error nothing is added.
    pub(crate) fn add(&mut self, game: &[Occurrence]) -> Result<(), TryReserveError> {
        // Merged before it grows past its bound. Without the memory to merge, the batch just
        // grows: merging is only an economy.
        if self.batch.len() + game.len() > self.run.len().max(BATCH_MIN) {
            let _ = self.merge_batch();
        }
        self.batch.try_reserve(game.len())?;
        self.batch.extend_from_slice(game);
        Ok(())
    }

    /// Merges the batch into the run, in place: the run grows by the batch's tallies, and the
    /// two are merged from their ends backwards.
    fn merge_batch(&mut self) -> Result<(), TryReserveError> {
        let batch = fold(&mut self.batch)?;
        let ran = self.run.len();
        self.run.try_reserve(batch.len())?;
        self.run.resize(ran + batch.len(), Tally::default());
        // `write >= read + left` throughout, so a slot of the run is read before it is written.
        let (mut read, mut left, mut write) = (ran, batch.len(), ran + batch.len());
        while left > 0 {
            write -= 1;
            let next = batch[left - 1];
            let merged = match read.checked_sub(1).map(|r| self.run[r]) {
                Some(old) if old.pair() > next.pair() => {
                    read -= 1;
                    old
                }
                Some(old) if old.pair() == next.pair() => {
                    read -= 1;
                    left -= 1;
                    Tally { games: old.games + next.games, score: old.score + next.score, ..old }
                }
                _ => {
                    left -= 1;
                    next
                }
            };
            self.run[write] = merged;
        }
        // Pairs counted in both left a gap between the untouched start and the merged end.
        self.run.drain(read..write);
        self.batch.clear();
        Ok(())
    }

    /// Every tally, ordered by pair.
    pub(crate) fn sorted(&self) -> Result<impl Iterator<Item = Tally> + '_, TryReserveError> {
        let batch = fold(&mut crate::fallible::try_to_vec(&self.batch)?)?;
        let (mut run, mut batch) = (self.run.iter().copied().peekable(), batch.into_iter().peekable());
        Ok(std::iter::from_fn(move || match (run.peek(), batch.peek()) {
            (Some(a), Some(b)) if a.pair() == b.pair() => {
                let tally = Tally { games: a.games + b.games, score: a.score + b.score, ..*a };
                run.next();
                batch.next();
                Some(tally)
            }
            (Some(a), Some(b)) if a.pair() > b.pair() => batch.next(),
            (Some(_), _) => run.next(),
            (None, _) => batch.next(),
        }))
    }
}

/// The tallies of `occurrences` (which it sorts), ordered by pair.
fn fold(occurrences: &mut [Occurrence]) -> Result<Vec<Tally>, TryReserveError> {
    occurrences.sort_unstable_by_key(|o| (o.key, o.mv));
    let mut tallies: Vec<Tally> = Vec::new();
    tallies.try_reserve_exact(occurrences.chunk_by(|a, b| (a.key, a.mv) == (b.key, b.mv)).count())?;
    for pair in occurrences.chunk_by(|a, b| (a.key, a.mv) == (b.key, b.mv)) {
        let score = pair.iter().map(|o| u64::from(o.score)).sum();
        tallies.push(Tally { key: pair[0].key, mv: pair[0].mv, games: pair.len() as u64, score });
    }
    Ok(tallies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_merge_into_the_same_tallies_as_one_sort() {
        let mut tallies = Tallies::default();
        let mut expected = std::collections::BTreeMap::new();
        let mut rng = 0x1234_5678_u64;
        for game in 0..30_000u64 {
            let mut pairs = Vec::new();
            for _ in 0..40 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let pair = (rng % 500_000, (rng >> 32) as u16 % 3);
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
            let occurrences: Vec<Occurrence> =
                pairs.iter().map(|&(key, mv)| Occurrence { key, mv, score: (game % 3) as u8 }).collect();
            tallies.add(&occurrences).unwrap();
            for &(key, mv) in &pairs {
                let entry = expected.entry((key, mv)).or_insert((0, 0));
                *entry = (entry.0 + 1, entry.1 + game % 3);
            }
        }
        assert!(!tallies.run.is_empty() && !tallies.batch.is_empty());
        let seen: Vec<((u64, u16), (u64, u64))> =
            tallies.sorted().unwrap().map(|t| ((t.key, t.mv), (t.games, t.score))).collect();
        assert_eq!(seen, expected.into_iter().collect::<Vec<_>>());
    }
}
