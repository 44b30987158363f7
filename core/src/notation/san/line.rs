//! Lines of moves, each token in SAN or UCI, read in turn from a position.

use crate::board::moves::Move;
use crate::notation::uci::Uci;
use crate::position::Position;

use super::parse::is_uci_shaped;
use super::{read_san, SanError, SanOptions};

/// A move token of a line that was not accepted: its index (0-based, among the tokens) and
/// why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("move {} of the line: {error}", index + 1)]
pub struct LineError {
    /// Index of the bad token.
    pub index: usize,
    /// What was wrong with it.
    pub error: SanError,
}

/// The moves of a line of tokens separated by whitespace, each in SAN or UCI (decided per
/// token, see [`MovesLine::read_token`]), read in turn from a position without allocating.
/// Each item is a move or the index of the first bad token with its error, after which the
/// iterator stops. Move numbers (`1.`) are not part of this notation.
///
/// # Examples
///
/// ```
/// use chesscore_core::{LineError, MovesLine, Position, SanError, SanOptions};
///
/// let start = Position::startpos();
/// let mut line = MovesLine::new(&start, "e4 e7e5 Nf3", &SanOptions::default());
/// assert_eq!(line.by_ref().count(), 3);
/// assert_eq!(line.position().to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
///
/// let moves: Result<Vec<_>, _> = MovesLine::new(&start, "e4 e5 Ke3", &SanOptions::default()).collect();
/// assert_eq!(moves, Err(LineError { index: 2, error: SanError::Illegal }));
/// ```
#[derive(Debug, Clone)]
pub struct MovesLine<'a> {
    position: Position,
    tokens: std::str::SplitAsciiWhitespace<'a>,
    index: usize,
    options: SanOptions,
    failed: bool,
}

impl<'a> MovesLine<'a> {
    /// The moves of `line`, read from `start` with `options` for the SAN tokens.
    pub fn new(start: &Position, line: &'a str, options: &SanOptions) -> MovesLine<'a> {
        MovesLine {
            position: *start,
            tokens: line.split_ascii_whitespace(),
            index: 0,
            options: *options,
            failed: false,
        }
    }

    /// Reads one token as a line does: UCI when it looks like UCI (`e2e4`, `e7e8q`), SAN with
    /// `options` otherwise.
    pub fn read_token(pos: &Position, token: &str, options: &SanOptions) -> Result<Move, SanError> {
        if is_uci_shaped(token.as_bytes()) {
            Ok(token.parse::<Uci>()?.to_move(pos)?)
        } else {
            read_san(pos, token.as_bytes(), options)
        }
    }

    /// The position after the moves read so far.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

impl Iterator for MovesLine<'_> {
    type Item = Result<Move, LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let token = self.tokens.next()?;
        let index = self.index;
        self.index += 1;
        let result = MovesLine::read_token(&self.position, token, &self.options).inspect(|&mv| {
            if mv.is_null() {
                // Only SAN reads a null move (`0000` is not UCI-shaped), and only where it may
                // be played: null moves allowed, the side to move not in check.
                let played = self.position.play_null();
                debug_assert!(played);
            } else {
                self.position.play_unchecked(mv);
            }
        });
        if result.is_err() {
            self.failed = true;
        }
        Some(result.map_err(|error| LineError { index, error }))
    }
}
