//! The `.plain` text form, six lines per entry.

use std::fmt;
use std::io::{self, BufRead};

use super::{BinpackError, BinpackErrorKind, TrainingEntry};
use crate::files;
use crate::notation::fen::FenOptions;
use crate::notation::uci::{Uci, UciCastling};
use crate::position::Position;

/// The longest `.plain` line read, in bytes (its line end aside): a longer one is an error
/// ([`BinpackErrorKind::LineTooLong`]). Lines of real data are under 120 bytes.
pub const MAX_PLAIN_LINE: usize = 4096;

/// Reads `.plain` training data, one entry at a time, one line in memory (at most
/// [`MAX_PLAIN_LINE`] bytes). Each entry is its `fen`, `move`, `score`, `ply` and `result`
/// lines in any order, then `e`. An error ends the reading.
pub struct PlainReader<R> {
    input: R,
    offset: u64,
    line: Vec<u8>,
    done: bool,
}

impl<R: BufRead> PlainReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> PlainReader<R> {
        PlainReader { input, offset: 0, line: Vec::new(), done: false }
    }

    /// The byte offset in the input where reading stands.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn read_next(&mut self) -> Result<Option<TrainingEntry>, BinpackError> {
        let mut position: Option<Position> = None;
        let mut uci: Option<(Uci, u64)> = None;
        let (mut score, mut ply, mut result) = (None, None, None);
        let mut started = false;
        loop {
            let start = self.offset;
            let read = files::read_line(&mut self.input, &mut self.line, MAX_PLAIN_LINE).map_err(|e| {
                if e.kind() == io::ErrorKind::InvalidData && self.line.len() > MAX_PLAIN_LINE {
                    BinpackErrorKind::LineTooLong.at(start)
                } else {
                    BinpackErrorKind::Io(e).at(start)
                }
            })?;
            if read == 0 {
                return if started { Err(BinpackErrorKind::Truncated.at(start)) } else { Ok(None) };
            }
            self.offset += read as u64;
            let line = std::str::from_utf8(&self.line)
                .map_err(|e| BinpackErrorKind::Io(io::Error::new(io::ErrorKind::InvalidData, e)).at(start))?;
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() {
                continue;
            }
            started = true;
            if line.trim() == "e" {
                break;
            }
            let (key, value) = line.split_once(' ').ok_or(BinpackErrorKind::Line.at(start))?;
            let value_at = start + key.len() as u64 + 1;
            let value = value.trim();
            let number = |field: &'static str| BinpackErrorKind::Number { field }.at(value_at);
            match key {
                "fen" => {
                    let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
                    let (pos, _) = Position::from_fen_with(value, &options).map_err(|e| {
                        let at = value_at + e.offset() as u64;
                        BinpackErrorKind::Fen(e).at(at)
                    })?;
                    position = Some(pos);
                }
                "move" => uci = Some((value.parse().map_err(|e| BinpackErrorKind::Uci(e).at(value_at))?, value_at)),
                "score" => score = Some(value.parse::<i16>().map_err(|_| number("score"))?),
                "ply" => ply = Some(value.parse::<u16>().map_err(|_| number("ply"))?),
                "result" => match value.parse::<i8>() {
                    Ok(r @ -1..=1) => result = Some(r),
                    _ => return Err(BinpackErrorKind::Result.at(value_at)),
                },
                _ => return Err(BinpackErrorKind::Line.at(start)),
            }
        }
        let end = self.offset;
        let missing = |field| BinpackErrorKind::MissingField { field }.at(end);
        let position = position.ok_or_else(|| missing("fen"))?;
        let (uci, uci_at) = uci.ok_or_else(|| missing("move"))?;
        let mv = uci.to_move(&position).map_err(|e| BinpackErrorKind::Uci(e).at(uci_at))?;
        if mv.is_null() {
            return Err(BinpackErrorKind::IllegalMove.at(uci_at));
        }
        Ok(Some(TrainingEntry {
            position,
            mv,
            score: score.ok_or_else(|| missing("score"))?,
            ply: ply.ok_or_else(|| missing("ply"))?,
            result: result.ok_or_else(|| missing("result"))?,
        }))
    }
}

impl<R: BufRead> Iterator for PlainReader<R> {
    type Item = Result<TrainingEntry, BinpackError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.read_next();
        self.done = !matches!(next, Ok(Some(_)));
        next.transpose()
    }
}

/// Writes an entry in the `.plain` form: its FEN (the en passant square only when the capture
/// is legal), the move in UCI (castling as the king's two-square move), score, ply and result.
impl fmt::Display for TrainingEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "fen {}", self.position.to_fen())?;
        writeln!(f, "move {}", Uci::from_move_with(self.mv, UciCastling::KingTwoSquares))?;
        writeln!(f, "score {}", self.score)?;
        writeln!(f, "ply {}", self.ply)?;
        writeln!(f, "result {}", self.result)?;
        writeln!(f, "e")
    }
}
