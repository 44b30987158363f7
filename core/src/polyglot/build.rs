//! Building a book from games: counting each (position, move) pair once per game, then the
//! weights and the order of the entries.

use crate::board::color::Color;
use crate::board::moves::Move;
use crate::game::Outcome;
use crate::pgn::{Flow, PgnErrorKind, PgnReader, Source, Visitor};
use crate::position::Position;

use super::tally::{Occurrence, Tallies};
use super::{Book, BookError, BookMove, RawEntry};

/// The rules of [`BookBuilder`] (see the README's "Polyglot books" for the whole definition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildOptions {
    /// Only the first this many plies of each game's main line count (default 40).
    pub max_ply: u32,
    /// Pairs played in fewer games are left out (default 1).
    pub min_games: u64,
    /// Pairs scoring less than this percentage for the side that played them are left out
    /// (default 0).
    pub min_score: u32,
    /// Only this side's moves count (default both).
    pub only: Option<Color>,
    /// Every entry gets weight 1 instead of its score (default false).
    pub uniform: bool,
    /// Chess960 games count too; by default they are skipped.
    pub chess960: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { max_ply: 40, min_games: 1, min_score: 0, only: None, uniform: false, chess960: false }
    }
}

/// What [`BookBuilder::add_pgn`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BuildSummary {
    /// Games read, broken ones included.
    pub games: u64,
    /// Games whose moves counted: a result of `1-0`, `0-1` or `1/2-1/2`, and not Chess960
    /// unless asked for.
    pub counted: u64,
    /// Broken games (their moves up to the problem counted, as a PGN reader that stops there
    /// reads them).
    pub broken: u64,
}

/// Builds a book from games, keeping one tally per distinct (position, move) pair: memory grows
/// with the number of distinct pairs (about 32 bytes each, up to three times that while a batch
/// of recent games is merged in), not with the input.
///
/// The rules, exactly: for every game with result `1-0`, `0-1` or `1/2-1/2` (a PGN game's
/// `Result` tag), for every ply below [`BuildOptions::max_ply`] of its main line (null moves
/// skipped, still counted as plies), the (position key, move) pair counts once per game, however
/// often the game repeats it. Per pair, `games` is the number of games, `score` 2 per game won
/// by the side that made the move, 1 per draw, 0 per loss. `only` keeps one side's moves;
/// pairs with `games < min_games` or `score * 100 < min_score * 2 * games` are left out; the
/// weight is `score` (1 with `uniform`). When a key's largest weight exceeds 65535, every weight
/// of that key is scaled by 65535 / largest, rounded down, at least 1. The entries are ordered
/// by key, then weight (descending), then the stored move's 16 bits; learn is 0.
#[derive(Debug, Clone)]
pub struct BookBuilder {
    options: BuildOptions,
    tallies: Tallies,
    /// The pairs of the game being counted, each with its score.
    game: Vec<Occurrence>,
}

impl BookBuilder {
    /// An empty builder following `options`.
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder { options, tallies: Tallies::default(), game: Vec::new() }
    }

    /// The rules followed.
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// Counts the game that `moves` play from `start` with `result` (nothing for
    /// [`Outcome::Ongoing`]). The moves must be legal in turn, as those of a
    /// main line of a [`Game`](crate::Game) are: `game.moves()`.
    pub fn add_game(
        &mut self,
        start: &Position,
        moves: impl IntoIterator<Item = Move>,
        result: Outcome,
    ) -> Result<(), BookError> {
        let mut counter = GameCounter::start(&self.options, start, result);
        let mut before = *start;
        for mv in moves {
            match counter.ply(&mut self.game, &before, mv) {
                Ok(true) => before.play_known(mv),
                Ok(false) => break,
                Err(error) => {
                    self.game.clear();
                    return Err(error);
                }
            }
        }
        self.finish_game()
    }

    /// Counts every game `reader` gives, to the end of its input. A broken game counts up to
    /// the problem; an I/O error (or memory running out) stops the reading with an error.
    pub fn add_pgn<S: Source>(&mut self, reader: &mut PgnReader<S>) -> Result<BuildSummary, BookError> {
        let mut summary = BuildSummary::default();
        loop {
            let mut visitor = PgnCounter {
                options: self.options,
                game: &mut self.game,
                result: Outcome::Ongoing,
                counter: None,
                failed: None,
            };
            let read = reader.read_game(&mut visitor);
            let (counted, failed) = (visitor.counter.is_some_and(|c| c.counts()), visitor.failed);
            if let Some(error) = failed {
                self.game.clear();
                return Err(error);
            }
            match read {
                Ok(None) => return Ok(summary),
                Ok(Some(())) => {}
                Err(e) if matches!(e.kind, PgnErrorKind::Io { .. }) => return Err(BookError::Pgn(e)),
                Err(e) if e.kind == PgnErrorKind::OutOfMemory => return Err(BookError::OutOfMemory),
                Err(_) => summary.broken += 1,
            }
            summary.games += 1;
            summary.counted += u64::from(counted);
            self.finish_game()?;
        }
    }

    /// Adds the pairs of the game just read to the tallies, once each.
    fn finish_game(&mut self) -> Result<(), BookError> {
        let game = &mut self.game;
        game.sort_unstable_by_key(|o| (o.key, o.mv));
        game.dedup_by_key(|o| (o.key, o.mv));
        let added = self.tallies.add(game);
        game.clear();
        Ok(added?)
    }

    /// The entries of the book, as the rules order them.
    pub fn entries(&self) -> Result<Vec<RawEntry>, BookError> {
        let BuildOptions { min_games, min_score, uniform, .. } = self.options;
        let mut weighed = Vec::new();
        for tally in self.tallies.sorted()? {
            let scores_enough = u128::from(tally.score) * 100 >= u128::from(min_score) * 2 * u128::from(tally.games);
            if tally.games >= min_games && scores_enough {
                let weight = if uniform { 1 } else { tally.score };
                crate::fallible::try_push(&mut weighed, Weighed { key: tally.key, mv: tally.mv, weight, learn: 0 })?;
            }
        }
        ordered_entries(weighed)
    }

    /// The book of the games counted so far.
    pub fn build(&self) -> Result<Book, BookError> {
        Book::from_entries(&self.entries()?)
    }
}

/// An entry before the 65535 rule.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Weighed {
    pub(crate) key: u64,
    pub(crate) mv: u16,
    pub(crate) weight: u64,
    pub(crate) learn: u32,
}

/// The entries of `weighed` (ordered by key, one per (key, move)) with the 65535 rule applied,
/// each key's ordered by weight (descending), then move: a book's bytes follow from its pairs
/// alone.
pub(crate) fn ordered_entries(weighed: Vec<Weighed>) -> Result<Vec<RawEntry>, BookError> {
    let mut entries = Vec::new();
    entries.try_reserve_exact(weighed.len())?;
    for group in weighed.chunk_by(|a, b| a.key == b.key) {
        let largest = group.iter().map(|w| w.weight).max().unwrap_or(0);
        for w in group {
            let weight = if largest > u64::from(u16::MAX) {
                (u128::from(w.weight) * u128::from(u16::MAX) / u128::from(largest)).max(1) as u16
            } else {
                w.weight as u16
            };
            entries.push(RawEntry { key: w.key, mv: BookMove::from_raw(w.mv), weight, learn: w.learn });
        }
    }
    for group in entries.chunk_by_mut(|a, b| a.key == b.key) {
        group.sort_unstable_by_key(|e| (std::cmp::Reverse(e.weight), e.mv));
    }
    Ok(entries)
}

/// The counting of one game's main line.
#[derive(Debug, Clone, Copy)]
struct GameCounter {
    /// What a win scores for each colour (2, 0 or 1 for a draw), `None` for a game that does
    /// not count.
    scores: Option<[u8; 2]>,
    only: Option<Color>,
    plies_left: u32,
}

impl GameCounter {
    fn start(options: &BuildOptions, start: &Position, result: Outcome) -> GameCounter {
        let scores = match result {
            Outcome::WhiteWins => Some([2, 0]),
            Outcome::BlackWins => Some([0, 2]),
            Outcome::Draw => Some([1, 1]),
            Outcome::Ongoing => None,
        };
        let skipped = start.is_chess960() && !options.chess960;
        GameCounter { scores: scores.filter(|_| !skipped), only: options.only, plies_left: options.max_ply }
    }

    /// Whether the game's moves count at all.
    fn counts(&self) -> bool {
        self.scores.is_some()
    }

    /// Counts `mv`, played in `before`, into `game`; false once no later ply counts.
    fn ply(&mut self, game: &mut Vec<Occurrence>, before: &Position, mv: Move) -> Result<bool, BookError> {
        let Some(scores) = self.scores.filter(|_| self.plies_left > 0) else { return Ok(false) };
        self.plies_left -= 1;
        let mover = before.turn();
        if !mv.is_null() && self.only.is_none_or(|side| side == mover) {
            let occurrence =
                Occurrence { key: before.zobrist(), mv: BookMove::from_move(mv).raw(), score: scores[mover.index()] };
            crate::fallible::try_push(game, occurrence)?;
        }
        Ok(self.plies_left > 0)
    }
}

/// Counts the main line of each game a PGN reader reads, skipping what does not count unread.
struct PgnCounter<'a> {
    options: BuildOptions,
    game: &'a mut Vec<Occurrence>,
    /// The `Result` tag's.
    result: Outcome,
    /// The game's counting, from its start position on.
    counter: Option<GameCounter>,
    /// Memory ran out while counting.
    failed: Option<BookError>,
}

impl Visitor for PgnCounter<'_> {
    type Output = ();

    fn tag(&mut self, name: &str, value: &str) {
        if name == "Result" {
            self.result = Outcome::from_pgn(value).unwrap_or(Outcome::Ongoing);
        }
    }

    fn end_tags(&mut self) -> Flow {
        if self.result == Outcome::Ongoing {
            Flow::Skip
        } else {
            Flow::Continue
        }
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.counter = Some(GameCounter::start(&self.options, start, self.result));
    }

    fn san(&mut self, _: &str, mv: Move, before: &Position, _: &Position) -> Flow {
        let Some(counter) = &mut self.counter else { return Flow::Skip };
        match counter.ply(self.game, before, mv) {
            Ok(true) => Flow::Continue,
            Ok(false) => Flow::Skip,
            Err(error) => {
                self.failed = Some(error);
                Flow::Skip
            }
        }
    }

    fn end_game(&mut self, _: Option<Outcome>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn weighed(key: u64, mv: u16, weight: u64) -> Weighed {
        Weighed { key, mv, weight, learn: 0 }
    }

    #[test]
    fn large_weights_are_scaled_per_key() {
        let entries =
            ordered_entries(vec![weighed(1, 7, 1), weighed(2, 9, 5), weighed(2, 8, 131_070), weighed(2, 3, 0)])
                .unwrap();
        let seen: Vec<(u64, u16, u16)> = entries.iter().map(|e| (e.key, e.mv.raw(), e.weight)).collect();
        // 131070 -> 65535; 5 -> 2; 0 -> at least 1; key 1 is under the limit and kept.
        assert_eq!(seen, [(1, 7, 1), (2, 8, 65_535), (2, 9, 2), (2, 3, 1)]);
    }

    #[test]
    fn a_repeated_pair_counts_once_per_game() {
        let mut game = Game::default();
        for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"] {
            game.push_san(san).unwrap();
        }
        let mut builder = BookBuilder::new(BuildOptions::default());
        builder.add_game(game.start(), game.moves(), Outcome::WhiteWins).unwrap();
        builder.add_game(game.start(), game.moves(), Outcome::Ongoing).unwrap();
        let start = Position::startpos().zobrist();
        let nf3: Vec<RawEntry> = builder.entries().unwrap().into_iter().filter(|e| e.key == start).collect();
        assert_eq!(nf3.len(), 1);
        assert_eq!((nf3[0].mv.to_string(), nf3[0].weight), ("g1f3".to_string(), 2));
        assert_eq!(builder.entries().unwrap().len(), 4);
    }
}
