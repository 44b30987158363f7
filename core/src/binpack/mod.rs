//! Stockfish's training data: the `.binpack` format of its NNUE trainer and the `.plain` text it
//! converts to and from.
//!
//! Both hold [`TrainingEntry`] values: a position, the move played there, the engine's score
//! (side to move's view), the ply and the game's result (side to move's view: 1 a win, 0 a draw,
//! -1 a loss).
//!
//! A `.plain` file writes each entry as six lines:
//!
//! ```text
//! fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! move e2e4
//! score 34
//! ply 0
//! result 0
//! e
//! ```
//!
//! A `.binpack` file is a sequence of chunks, each `BINP`, its length (32-bit little-endian)
//! and that many bytes of chains. A chain is a stem, 32 bytes holding one entry in full (the
//! position as the first 24 bytes of its [binary FEN](crate::BinaryFen), the move, the score,
//! the ply and result, the halfmove clock), then the number of entries that follow it in the same
//! game (16-bit big-endian), then those entries as a bit stream: each the index of the piece
//! that moves among the side's pieces, the index of the move among that piece's destinations,
//! and the change of the score, zig-zag coded in blocks of 4 bits. An entry follows the one
//! before when it is the position after its move, one ply later, with the opposite result.
//!
//! Binpack stores the ply, not the fullmove number: a position read from it has the fullmove
//! number `ply / 2 + 1`. It holds standard chess only (castling with corner rooks), plies up to
//! 16383, a halfmove clock up to 65535. Both readers stream: they hold one chunk (at most
//! [`MAX_CHUNK_SIZE`]) or one line at a time.
//!
//! The entry and its errors are here; the bit encoding in `codec`, the readers and the writer
//! in `reader`, `writer` and `plain`.
//!
//! ```
//! use chesscore_core::binpack::{BinpackReader, BinpackWriter, PlainReader};
//!
//! // `.plain` to `.binpack` and back, as `chesscore convert` does with files.
//! let plain = "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\nscore 34\nply 0\nresult 0\ne\n\
//!              fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nmove c7c5\nscore -30\nply 1\nresult 0\ne\n";
//! let mut writer = BinpackWriter::new(Vec::new());
//! for entry in PlainReader::new(plain.as_bytes()) {
//!     writer.write(&entry?)?;
//! }
//! let binpack = writer.finish()?;
//! assert!(binpack.starts_with(b"BINP"));
//! let entries = BinpackReader::new(&binpack[..]).collect::<Result<Vec<_>, _>>()?;
//! assert_eq!(entries.len(), 2);
//! assert_eq!((entries[1].position.to_fen(), entries[1].score), (
//!     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_string(),
//!     -30
//! ));
//! # Ok::<(), chesscore_core::binpack::BinpackError>(())
//! ```

mod codec;
mod plain;
mod reader;
mod writer;

use std::io;

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::square::Square;
use crate::notation::binary_fen::BinaryFenError;
use crate::notation::epd::{Epd, EpdError, Operand};
use crate::notation::fen::FenError;
use crate::notation::san::{San, SanError};
use crate::notation::uci::{Uci, UciError};
use crate::position::Position;

pub use plain::{PlainReader, MAX_PLAIN_LINE};
pub use reader::BinpackReader;
pub use writer::BinpackWriter;

/// Chunks the writer closes once they reach this size, as Stockfish's tools do (1 MiB).
pub const CHUNK_SIZE: usize = 1 << 20;

/// The largest chunk the reader accepts (100 MiB, Stockfish's limit).
pub const MAX_CHUNK_SIZE: u32 = 100 << 20;

/// The largest ply a stem holds (14 bits).
pub const MAX_PLY: u16 = (1 << 14) - 1;

const STEM_LEN: usize = 32;
const MAGIC: &[u8; 4] = b"BINP";

/// One position of training data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrainingEntry {
    /// The position.
    pub position: Position,
    /// The move played, legal in the position.
    pub mv: Move,
    /// The score in centipawns (Stockfish's internal units), from the side to move's view.
    pub score: i16,
    /// The ply (half-moves since the game began).
    pub ply: u16,
    /// The game's result from the side to move's view: 1, 0 or -1.
    pub result: i8,
}

/// Why training data could not be read or written: what, and at which byte of the input (of
/// the output, for the writer: where the entry would have gone, in entries for `.plain`).
#[derive(Debug, thiserror::Error)]
#[error("{kind} (at byte {offset})")]
pub struct BinpackError {
    /// The byte offset in the input where the problem was found.
    pub offset: u64,
    /// What went wrong.
    #[source]
    pub kind: BinpackErrorKind,
}

/// What went wrong reading or writing training data.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BinpackErrorKind {
    /// Reading or writing the underlying stream failed.
    #[error("input or output failed: {0}")]
    Io(#[from] io::Error),
    /// A chunk that does not start with `BINP`.
    #[error("not a binpack chunk (no BINP header)")]
    ChunkHeader,
    /// A chunk longer than [`MAX_CHUNK_SIZE`].
    #[error("binpack chunk of {size} bytes, more than the {MAX_CHUNK_SIZE} accepted")]
    ChunkTooLarge { size: u32 },
    /// The input ends inside a chunk header, a stem or a chain's moves.
    #[error("training data cut short")]
    Truncated,
    /// A stem's position is not a valid position.
    #[error("invalid position: {0}")]
    Position(#[source] BinaryFenError),
    /// A move that is not legal in its position (or an index that names no move).
    #[error("illegal move")]
    IllegalMove,
    /// A score change coded in more than 16 bits.
    #[error("score change longer than 16 bits")]
    Score,
    /// A result other than -1, 0 or 1.
    #[error("result other than -1, 0 or 1")]
    Result,
    /// `.plain`: a line longer than [`MAX_PLAIN_LINE`] bytes (a file of other data, or a
    /// device such as `/dev/zero`: the reader holds no more of it in memory than that).
    #[error(".plain line longer than {MAX_PLAIN_LINE} bytes")]
    LineTooLong,
    /// `.plain`: a line that is not `KEY VALUE` with a known key, or `e`.
    #[error("expected `fen`, `move`, `score`, `ply` or `result` and its value, or `e`")]
    Line,
    /// `.plain`: an entry's `e` without one of its fields.
    #[error("entry without its {field} line")]
    MissingField { field: &'static str },
    /// `.plain`: a number out of its field's range.
    #[error("invalid {field}")]
    Number { field: &'static str },
    /// `.plain`: a FEN that does not read.
    #[error("invalid FEN: {0}")]
    Fen(#[source] FenError),
    /// `.plain`: a move that is not UCI.
    #[error("invalid move: {0}")]
    Uci(#[source] UciError),
    /// An EPD line that does not read, or lacks the `sm` (the move) or `ce` (the score) of an
    /// entry.
    #[error("invalid EPD entry: {0}")]
    Epd(#[source] EpdError),
    /// The writer was given what binpack cannot hold: Chess960 castling rights, a ply over
    /// [`MAX_PLY`].
    #[error("binpack cannot hold {0}")]
    Unrepresentable(&'static str),
}

impl BinpackErrorKind {
    fn at(self, offset: u64) -> BinpackError {
        BinpackError { offset, kind: self }
    }
}

impl TrainingEntry {
    /// Checks that the entry is training data both formats hold: a legal move, a result of -1,
    /// 0 or 1, a ply up to [`MAX_PLY`], standard castling rights (corner rooks, the king on the
    /// e-file). The writers check this first.
    pub fn check(&self) -> Result<(), BinpackErrorKind> {
        let pos = &self.position;
        if !pos.is_legal(self.mv) {
            return Err(BinpackErrorKind::IllegalMove);
        }
        if !(-1..=1).contains(&self.result) {
            return Err(BinpackErrorKind::Result);
        }
        if self.ply > MAX_PLY {
            return Err(BinpackErrorKind::Unrepresentable("a ply over 16383"));
        }
        let corners = Bitboard::from_square(Square::A1)
            | Bitboard::from_square(Square::H1)
            | Bitboard::from_square(Square::A8)
            | Bitboard::from_square(Square::H8);
        let kings = Bitboard::from_square(Square::E1) | Bitboard::from_square(Square::E8);
        let rooks = pos.castling().rook_squares();
        let kings_with_rights =
            Color::ALL.into_iter().filter(|&c| pos.castling().has_color(c)).all(|c| kings.contains(pos.king_square(c)));
        if (rooks & !corners).any() || !kings_with_rights {
            return Err(BinpackErrorKind::Unrepresentable("Chess960 castling rights"));
        }
        Ok(())
    }

    /// The entry as an EPD record: the position with `hmvc` and `fmvn`, the move as `sm` (the
    /// supplied move, in SAN; the move must be legal, as [`TrainingEntry::check`] asks), the
    /// score as `ce`, and the `ply` and `result` operations.
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::binpack::TrainingEntry;
    /// use chesscore_core::{Position, Uci};
    ///
    /// let position = Position::startpos();
    /// let mv = "g1f3".parse::<Uci>()?.to_move(&position)?;
    /// let entry = TrainingEntry { position, mv, score: 25, ply: 0, result: 1 };
    /// let epd = entry.to_epd();
    /// assert_eq!(
    ///     epd.to_string(),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; sm Nf3; ce 25; ply 0; result 1;"
    /// );
    /// assert_eq!(TrainingEntry::from_epd(&epd)?, entry);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_epd(&self) -> Epd {
        let san = San::from_move(&self.position, self.mv).map_or_else(|_| String::new(), |san| san.to_string());
        let mut epd = Epd::new(self.position);
        let operations = [
            ("hmvc", Operand::Integer(i64::from(self.position.halfmove_clock()))),
            ("fmvn", Operand::Integer(i64::from(self.position.fullmove_number()))),
            ("sm", Operand::Word(san)),
            ("ce", Operand::Integer(i64::from(self.score))),
            ("ply", Operand::Integer(i64::from(self.ply))),
            ("result", Operand::Integer(i64::from(self.result))),
        ];
        for (opcode, operand) in operations {
            // Known opcodes, and no move operand to check.
            epd.set(opcode, vec![operand]).expect("valid opcodes");
        }
        epd
    }

    /// The entry an EPD record describes: `sm` (the move, SAN or UCI) and `ce` are needed;
    /// `ply` defaults to the one the fullmove number and side to move give, `result` to 0.
    pub fn from_epd(epd: &Epd) -> Result<TrainingEntry, BinpackErrorKind> {
        let position = *epd.position();
        let operand = |opcode: &str| epd.get(opcode).and_then(|op| op.operands.first());
        let bad = |opcode: &str| {
            let operand = operand(opcode).map_or_else(String::new, |o| format!("{o:?}"));
            BinpackErrorKind::Epd(EpdError::Operand { opcode: opcode.to_string(), operand })
        };
        let missing = |field| BinpackErrorKind::MissingField { field };
        let text = match operand("sm").ok_or_else(|| missing("sm"))? {
            Operand::Word(text) => text.clone(),
            Operand::Integer(_) | Operand::Float(_) | Operand::String(_) | Operand::Move(_) => return Err(bad("sm")),
        };
        let mv = match text.parse::<San>().and_then(|san| san.to_move(&position)) {
            Ok(mv) => mv,
            Err(SanError::Syntax) => {
                text.parse::<Uci>().and_then(|uci| uci.to_move(&position)).map_err(BinpackErrorKind::Uci)?
            }
            Err(_) => return Err(BinpackErrorKind::IllegalMove),
        };
        let integer = |opcode: &str| operand(opcode).map(|o| o.as_integer().ok_or_else(|| bad(opcode))).transpose();
        let score = integer("ce")?.ok_or_else(|| missing("ce"))?;
        let score = i16::try_from(score).map_err(|_| bad("ce"))?;
        let derived = 2 * (i64::from(position.fullmove_number()) - 1) + position.turn().index() as i64;
        let ply = u16::try_from(integer("ply")?.unwrap_or(derived)).map_err(|_| bad("ply"))?;
        let result = match integer("result")?.unwrap_or(0) {
            r @ -1..=1 => r as i8,
            _ => return Err(BinpackErrorKind::Result),
        };
        Ok(TrainingEntry { position, mv, score, ply, result })
    }
}
