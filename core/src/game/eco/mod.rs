//! Naming openings: the ECO code and name of a game's opening, found by the deepest position of
//! its main line that a table of named lines reaches. [`Openings::lichess`] is the table of
//! the lichess chess-openings project (CC0, built in; see `core/data/openings/NOTICE`), the one
//! lichess.org names openings by. `chesscore pgn filter --eco` writes these as the `ECO` and
//! `Opening` tags.
//!
//! A table entry stands for the position its moves reach, not for the moves: a game that gets
//! there by another order of moves (a transposition) gets its name too, as lichess classifies
//! by position. Positions are found by Polyglot key and confirmed by comparing the boards
//! (pieces, side to move, castling rights; the en passant file as the key sees it).
//!
//! ```
//! use chesscore_core::game::Openings;
//! use chesscore_core::Game;
//!
//! let mut game = Game::default();
//! // The Najdorf by way of 2...a6: the same position as the table's 5...a6 line.
//! for san in ["e4", "c5", "Nf3", "a6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "d6", "Be2", "e5"] {
//!     game.push_san(san)?;
//! }
//! let opening = Openings::lichess().classify(&game).expect("a named opening");
//! assert_eq!(opening.eco(), "B92");
//! assert_eq!(opening.name(), "Sicilian Defense: Najdorf Variation, Opocensky Variation");
//! assert_eq!(opening.pgn(), "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::str::FromStr;
use std::sync::OnceLock;

use super::filter::same_board;
use super::Game;
use crate::board::moves::Move;
use crate::notation::san::{San, SanError};
use crate::notation::uci::{Uci, UciCastling};
use crate::position::Position;

/// The five files of the lichess chess-openings table (ECO volumes A to E), as fetched.
const LICHESS: [&str; 5] = [
    include_str!("../../../data/openings/a.tsv"),
    include_str!("../../../data/openings/b.tsv"),
    include_str!("../../../data/openings/c.tsv"),
    include_str!("../../../data/openings/d.tsv"),
    include_str!("../../../data/openings/e.tsv"),
];

/// The header line of a table file.
const HEADER: &str = "eco\tname\tpgn";

/// A named opening line of a table.
#[derive(Debug, Clone)]
pub struct Opening {
    eco: String,
    name: String,
    pgn: String,
    moves: Vec<Move>,
    position: Position,
}

impl Opening {
    /// The ECO code, `A00` to `E99`.
    pub fn eco(&self) -> &str {
        &self.eco
    }

    /// The name, `Family: Variation, Subvariation`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The moves, as the table writes them (`1. e4 c5 2. Nf3`).
    pub fn pgn(&self) -> &str {
        &self.pgn
    }

    /// The moves, from the standard start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves in UCI, separated by spaces, castling as the king's two-square move
    /// (`e2e4 e7e5 g1f3`), as the table's `dist/` files write them.
    pub fn uci(&self) -> String {
        let uci: Vec<String> =
            self.moves.iter().map(|&mv| Uci::from_move_with(mv, UciCastling::KingTwoSquares).to_string()).collect();
        uci.join(" ")
    }

    /// The position the moves reach from the standard start.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// Why a table could not be read: the line (from 1) and what was wrong with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct OpeningsError {
    /// The line, from 1.
    pub line: usize,
    /// What was wrong with it.
    pub kind: OpeningsErrorKind,
}

/// What was wrong with a line of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OpeningsErrorKind {
    /// Not three columns separated by tabs.
    #[error("expected three columns separated by tabs: eco, name, pgn")]
    Columns,
    /// A move (counted from 1, move numbers left out) that is not legal SAN there.
    #[error("move {index}: {error}")]
    Move { index: usize, error: SanError },
}

/// A table of named opening lines, looked up by the position each line reaches.
///
/// When two entries reach the same position, the first in the table's order names it (no two
/// entries of the built-in table do: its test checks that each line names its own position).
#[derive(Debug, Clone, Default)]
pub struct Openings {
    entries: Vec<Opening>,
    /// (key, entry) sorted: entries of one key in table order.
    index: Vec<(u64, u32)>,
}

impl Openings {
    /// The lichess chess-openings table, built in (some 3,800 entries): its text is part of the
    /// program (about 380 KB) and is read on first use, replaying every line (about 4 ms), then
    /// shared by every thread.
    pub fn lichess() -> &'static Openings {
        static TABLE: OnceLock<Openings> = OnceLock::new();
        TABLE.get_or_init(|| Openings::from_tsv(&LICHESS.concat()).expect("the built-in table reads"))
    }

    /// Reads a table in the lichess format: lines of `eco`, `name` and `pgn` separated by tabs,
    /// the moves in SAN from the standard start position with move numbers (`1. e4 e5`). Header
    /// lines (the three names) and empty lines are skipped wherever they are, so files
    /// may be joined.
    pub fn from_tsv(text: &str) -> Result<Openings, OpeningsError> {
        let mut entries = Vec::new();
        for (number, line) in text.lines().enumerate() {
            if line.is_empty() || line == HEADER {
                continue;
            }
            let kind = |kind| OpeningsError { line: number + 1, kind };
            let mut columns = line.split('\t');
            let (Some(eco), Some(name), Some(pgn), None) =
                (columns.next(), columns.next(), columns.next(), columns.next())
            else {
                return Err(kind(OpeningsErrorKind::Columns));
            };
            let (moves, position) =
                play(pgn).map_err(|(index, error)| kind(OpeningsErrorKind::Move { index, error }))?;
            entries.push(Opening {
                eco: eco.to_string(),
                name: name.to_string(),
                pgn: pgn.to_string(),
                moves,
                position,
            });
        }
        let mut index: Vec<(u64, u32)> =
            entries.iter().enumerate().map(|(i, entry)| (entry.position.zobrist(), i as u32)).collect();
        index.sort_unstable();
        Ok(Openings { entries, index })
    }

    /// The entries, in table order.
    pub fn entries(&self) -> &[Opening] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry for `position`, if a line reaches it (the first such in table order).
    pub fn find(&self, position: &Position) -> Option<&Opening> {
        let key = position.zobrist();
        let first = self.index.partition_point(|&(k, _)| k < key);
        self.index[first..]
            .iter()
            .take_while(|&&(k, _)| k == key)
            .map(|&(_, i)| &self.entries[i as usize])
            .find(|entry| same_board(&entry.position, position))
    }

    /// The opening of `game`: the entry of the deepest position of its main line (the start
    /// included) that the table holds. `None` when no position is in the table, and for a game
    /// that does not start from the standard start position (a set-up position or a Chess960
    /// game, even one from the standard array): the table's lines start there, and the moves
    /// before a set-up position are unknown.
    pub fn classify(&self, game: &Game) -> Option<&Opening> {
        let start = game.start();
        if start.is_chess960() || !same_board(start, &Position::startpos()) {
            return None;
        }
        (0..=game.moves().len()).rev().find_map(|ply| self.find(game.position_at(ply)?))
    }

    /// Names `game`'s opening in its tags: sets `ECO` and `Opening` to those of
    /// [`Openings::classify`]'s entry, replacing what they held, and returns it. A game without
    /// one keeps its tags as they were.
    pub fn set_tags(&self, game: &mut Game) -> Option<&Opening> {
        let opening = self.classify(game)?;
        game.set_tag("ECO", &opening.eco).expect("ECO is a tag name");
        game.set_tag("Opening", &opening.name).expect("Opening is a tag name");
        Some(opening)
    }
}

/// The moves of a line of the table and the position they reach, or the index (from 1) of its
/// first bad move.
fn play(pgn: &str) -> Result<(Vec<Move>, Position), (usize, SanError)> {
    let mut position = Position::startpos();
    let mut moves = Vec::new();
    let is_number = |token: &str| token.ends_with('.') && token.starts_with(|c: char| c.is_ascii_digit());
    for (index, token) in pgn.split_ascii_whitespace().filter(|token| !is_number(token)).enumerate() {
        let mv = San::from_str(token).and_then(|san| san.to_move(&position)).map_err(|e| (index + 1, e))?;
        position.play_unchecked(mv);
        moves.push(mv);
    }
    Ok((moves, position))
}

#[cfg(test)]
mod tests;
