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

use std::fmt;
use std::io::{self, BufRead, Read, Write};

use crate::board::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::bitboard::Bitboard;
use crate::board::castling::CastlingSide;
use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::piece::PieceKind;
use crate::board::square::{Rank, Square};
use crate::files;
use crate::notation::binary_fen::BinaryFenError;
use crate::notation::epd::{Epd, EpdError, Operand};
use crate::notation::fen::{FenError, FenOptions};
use crate::notation::san::{San, SanError};
use crate::notation::uci::{Uci, UciCastling, UciError};
use crate::position::{EnPassantMode, Position};

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

/// Signed to unsigned as the format codes numbers: 0, -1, 1, -2, 2, ... become 0, 1, 2, 3, 4.
#[inline]
fn zigzag(n: i16) -> u16 {
    ((n << 1) ^ (n >> 15)) as u16
}

#[inline]
fn unzigzag(n: u16) -> i16 {
    ((n >> 1) as i16) ^ -((n & 1) as i16)
}

/// Bits needed to tell `count` choices apart (0 for one choice).
#[inline]
fn index_bits(count: u32) -> u32 {
    if count <= 1 {
        0
    } else {
        32 - (count - 1).leading_zeros()
    }
}

/// The square of the `n`th (from 0) member of `set`, lowest first.
#[inline]
fn nth_square(set: Bitboard, n: u32) -> Option<Square> {
    let mut bits = set.0;
    for _ in 0..n {
        bits &= bits.wrapping_sub(1);
    }
    Square::from_index(bits.trailing_zeros())
}

/// How many members of `set` come before `sq`.
#[inline]
fn index_of(set: Bitboard, sq: Square) -> u32 {
    (set.0 & ((1u64 << sq as u32) - 1)).count_ones()
}

/// The squares a piece of the side to move on `from` may go to, as the format counts them:
/// pawns their pushes and captures (the en passant square when the capture is legal), the king
/// every neighbouring square without a piece of its own, the others their attacks.
fn destinations(pos: &Position, from: Square, kind: PieceKind) -> Bitboard {
    let us = pos.turn();
    let ours = pos.color_occupancy(us);
    let occupied = pos.occupancy();
    match kind {
        PieceKind::Pawn => {
            let mut targets = pos.color_occupancy(!us);
            if let Some(ep) = pos.en_passant_square(EnPassantMode::Legal) {
                targets.set(ep);
            }
            let mut to = pawn_attacks(us, from) & targets;
            let (step, start) = match us {
                Color::White => (8, Rank::Second),
                Color::Black => (-8, Rank::Seventh),
            };
            let single = Square::from_index_masked((from as i32 + step) as u32);
            if !occupied.contains(single) {
                to.set(single);
                let double = Square::from_index_masked((from as i32 + 2 * step) as u32);
                if from.rank() == start && !occupied.contains(double) {
                    to.set(double);
                }
            }
            to
        }
        PieceKind::Knight => knight_attacks(from) & !ours,
        PieceKind::Bishop => bishop_attacks(from, occupied) & !ours,
        PieceKind::Rook => rook_attacks(from, occupied) & !ours,
        PieceKind::Queen => queen_attacks(from, occupied) & !ours,
        PieceKind::King => king_attacks(from) & !ours,
    }
}

/// The rank a pawn of `color` promotes from.
fn promotion_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::Seventh,
        Color::Black => Rank::Second,
    }
}

/// The legal move of `pos` from `from` to `to` (the rook's square for castling) promoting to
/// `promotion`.
fn legal_move(pos: &Position, from: Square, to: Square, promotion: Option<PieceKind>) -> Option<Move> {
    pos.legal_moves_from(from).iter().copied().find(|mv| mv.to() == to && mv.promotion() == promotion)
}

/// True when `b` is the position `a` leads to as the format compares them: pieces, side to
/// move, castling rights and the en passant square when the capture is legal (not the clocks).
fn same_position(a: &Position, b: &Position) -> bool {
    a.turn() == b.turn()
        && a.castling() == b.castling()
        && a.en_passant_square(EnPassantMode::Legal) == b.en_passant_square(EnPassantMode::Legal)
        && Color::ALL.into_iter().all(|c| PieceKind::ALL.into_iter().all(|k| a.pieces_of(c, k) == b.pieces_of(c, k)))
}

/// The 16-bit move of a stem: kind (0 normal, 1 promotion, 2 castling, 3 en passant), origin,
/// destination (castling: the rook's square), promotion piece from the knight.
fn stem_move(mv: Move) -> u16 {
    let kind: u16 = if mv.promotion().is_some() {
        1
    } else if mv.is_castling() {
        2
    } else if mv.is_en_passant() {
        3
    } else {
        0
    };
    let promotion = mv.promotion().map_or(0, |p| p as u16 - PieceKind::Knight as u16);
    kind << 14 | (mv.from() as u16) << 8 | (mv.to() as u16) << 2 | promotion
}

/// The 32 bytes of a stem.
fn stem(entry: &TrainingEntry) -> [u8; STEM_LEN] {
    let pos = &entry.position;
    let mut bytes = [0u8; STEM_LEN];
    let packed = pos.to_binary_fen();
    let board_len = (8 + (pos.occupancy().count() as usize).div_ceil(2)).min(packed.len());
    bytes[..board_len].copy_from_slice(&packed.as_bytes()[..board_len]);
    bytes[24..26].copy_from_slice(&stem_move(entry.mv).to_be_bytes());
    bytes[26..28].copy_from_slice(&zigzag(entry.score).to_be_bytes());
    let ply_result = entry.ply | zigzag(i16::from(entry.result)) << 14;
    bytes[28..30].copy_from_slice(&ply_result.to_be_bytes());
    // The halfmove clock as Stockfish's tools keep it: in 16 bits.
    let clock = pos.halfmove_clock().min(u32::from(u16::MAX)) as u16;
    bytes[30..32].copy_from_slice(&clock.to_be_bytes());
    bytes
}

/// A stem's entry; `offset` is where the stem starts, for errors.
fn read_stem(bytes: &[u8; STEM_LEN], offset: u64) -> Result<TrainingEntry, BinpackError> {
    let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
    let (mut position, _) = Position::from_binary_fen_with(&bytes[..24], &options)
        .map_err(|e| BinpackErrorKind::Position(e.clone()).at(offset + e.offset() as u64))?;
    let raw = u16::from_be_bytes([bytes[24], bytes[25]]);
    let from = Square::from_index_masked(u32::from(raw >> 8 & 63));
    let to = Square::from_index_masked(u32::from(raw >> 2 & 63));
    let promotion = (raw >> 14 == 1).then(|| PieceKind::ALL[usize::from(raw & 3) + 1]);
    let score = unzigzag(u16::from_be_bytes([bytes[26], bytes[27]]));
    let ply_result = u16::from_be_bytes([bytes[28], bytes[29]]);
    let ply = ply_result & MAX_PLY;
    let result = match unzigzag(ply_result >> 14) {
        r @ -1..=1 => r as i8,
        _ => return Err(BinpackErrorKind::Result.at(offset + 28)),
    };
    let clock = u16::from_be_bytes([bytes[30], bytes[31]]);
    position.set_clocks(u32::from(clock), u32::from(ply / 2) + 1);
    let mv = legal_move(&position, from, to, promotion).ok_or(BinpackErrorKind::IllegalMove.at(offset + 24))?;
    Ok(TrainingEntry { position, mv, score, ply, result })
}

/// The position after the entry's move, with the clocks a following entry has.
fn next_position(entry: &TrainingEntry) -> Position {
    let mut next = entry.position.make_move(entry.mv);
    let ply = entry.ply.wrapping_add(1);
    next.set_clocks(next.halfmove_clock(), u32::from(ply / 2) + 1);
    next
}

/// A chain's bit stream, read most significant bit first.
struct BitReader<'a> {
    bytes: &'a [u8],
    /// Bits read so far.
    at: usize,
}

impl BitReader<'_> {
    fn bits(&mut self, count: u32) -> Option<u32> {
        let mut value = 0;
        for _ in 0..count {
            let byte = *self.bytes.get(self.at / 8)?;
            value = value << 1 | u32::from(byte >> (7 - self.at % 8) & 1);
            self.at += 1;
        }
        Some(value)
    }

    fn bytes_used(&self) -> usize {
        self.at.div_ceil(8)
    }
}

/// A chain's bit stream, written most significant bit first.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    bits: usize,
}

impl BitWriter {
    fn put(&mut self, value: u32, count: u32) {
        for i in (0..count).rev() {
            if self.bits % 8 == 0 {
                self.bytes.push(0);
            }
            let bit = (value >> i & 1) as u8;
            *self.bytes.last_mut().expect("pushed above") |= bit << (7 - self.bits % 8);
            self.bits += 1;
        }
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.bits = 0;
    }
}

/// The score change is coded in blocks of 5 bits, lowest first: a bit that says whether another
/// block follows, then 4 bits of the number.
const SCORE_BLOCK: u32 = 4;

fn write_score_change(out: &mut BitWriter, mut change: u16) {
    loop {
        let more = change >> SCORE_BLOCK != 0;
        out.put(u32::from(more) << SCORE_BLOCK | u32::from(change & 15), SCORE_BLOCK + 1);
        change >>= SCORE_BLOCK;
        if !more {
            break;
        }
    }
}

fn read_score_change(input: &mut BitReader<'_>) -> Result<u16, BinpackErrorKind> {
    let mut change = 0u32;
    for block in 0..4 {
        let bits = input.bits(SCORE_BLOCK + 1).ok_or(BinpackErrorKind::Truncated)?;
        change |= (bits & 15) << (SCORE_BLOCK * block);
        if bits >> SCORE_BLOCK == 0 {
            return Ok(change as u16);
        }
    }
    Err(BinpackErrorKind::Score)
}

/// Codes `mv`, legal in `pos`, as the index of its piece and of its destination.
fn write_move(out: &mut BitWriter, pos: &Position, mv: Move) {
    let us = pos.turn();
    let ours = pos.color_occupancy(us);
    let from = mv.from();
    out.put(index_of(ours, from), index_bits(ours.count()));
    let kind = pos.kind_at(from).expect("a legal move has a piece to move");
    let to = destinations(pos, from, kind);
    let (index, count) = match kind {
        PieceKind::Pawn if from.rank() == promotion_rank(us) => {
            let promotion = mv.promotion().map_or(0, |p| p as u32 - PieceKind::Knight as u32);
            (index_of(to, mv.to()) * 4 + promotion, to.count() * 4)
        }
        PieceKind::King => {
            let rights = pos.castling();
            let castlings = CastlingSide::ALL.into_iter().filter(|&side| rights.has(us, side)).count() as u32;
            let index = match mv.castling_side() {
                // The queen side first when both rights are there.
                Some(CastlingSide::QueenSide) => to.count(),
                Some(CastlingSide::KingSide) => to.count() + u32::from(rights.has(us, CastlingSide::QueenSide)),
                None => index_of(to, mv.to()),
            };
            (index, to.count() + castlings)
        }
        _ => (index_of(to, mv.to()), to.count()),
    };
    out.put(index, index_bits(count));
}

/// Reads a move coded by [`write_move`].
fn read_move(input: &mut BitReader<'_>, pos: &Position) -> Result<Move, BinpackErrorKind> {
    let truncated = || BinpackErrorKind::Truncated;
    let us = pos.turn();
    let ours = pos.color_occupancy(us);
    let piece = input.bits(index_bits(ours.count())).ok_or_else(truncated)?;
    let from = nth_square(ours, piece).ok_or(BinpackErrorKind::IllegalMove)?;
    let kind = pos.kind_at(from).ok_or(BinpackErrorKind::IllegalMove)?;
    let to = destinations(pos, from, kind);
    let (target, promotion) = match kind {
        PieceKind::Pawn if from.rank() == promotion_rank(us) => {
            let index = input.bits(index_bits(to.count() * 4)).ok_or_else(truncated)?;
            (nth_square(to, index / 4), Some(PieceKind::ALL[(index % 4) as usize + 1]))
        }
        PieceKind::King => {
            let rights = pos.castling();
            let castlings = CastlingSide::ALL.into_iter().filter(|&side| rights.has(us, side)).count() as u32;
            let index = input.bits(index_bits(to.count() + castlings)).ok_or_else(truncated)?;
            if index >= to.count() {
                let side = if index == to.count() && rights.has(us, CastlingSide::QueenSide) {
                    CastlingSide::QueenSide
                } else {
                    CastlingSide::KingSide
                };
                (rights.rook_square(us, side), None)
            } else {
                (nth_square(to, index), None)
            }
        }
        _ => {
            let index = input.bits(index_bits(to.count())).ok_or_else(truncated)?;
            (nth_square(to, index), None)
        }
    };
    target.and_then(|to| legal_move(pos, from, to, promotion)).ok_or(BinpackErrorKind::IllegalMove)
}

/// Reads `.binpack` training data, one entry at a time, holding one chunk in memory. An error
/// ends the reading.
///
/// # Examples
///
/// ```
/// use chesscore_core::binpack::{BinpackReader, BinpackWriter, TrainingEntry};
/// use chesscore_core::{Position, Uci};
///
/// // A game of three plies: one stem and two entries chained to it.
/// let mut entries = Vec::new();
/// let mut pos = Position::startpos();
/// for (ply, (uci, score)) in [("e2e4", 30), ("e7e5", -25), ("g1f3", 28)].into_iter().enumerate() {
///     let mv = uci.parse::<Uci>()?.to_move(&pos)?;
///     entries.push(TrainingEntry { position: pos, mv, score, ply: ply as u16, result: 0 });
///     pos.play(mv)?;
/// }
/// let mut writer = BinpackWriter::new(Vec::new());
/// for entry in &entries {
///     writer.write(entry)?;
/// }
/// let bytes = writer.finish()?;
/// assert_eq!(bytes.len(), 8 + 32 + 2 + 3);
/// let read: Vec<TrainingEntry> = BinpackReader::new(&bytes[..]).collect::<Result<_, _>>()?;
/// assert_eq!(read, entries);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct BinpackReader<R> {
    input: R,
    /// Bytes read from the input before the current chunk.
    chunk_offset: u64,
    chunk: Vec<u8>,
    /// Where the next stem starts in the chunk, or where the current chain's moves start.
    at: usize,
    chain: Option<Chain>,
    done: bool,
}

/// The chain being read: its last entry, how many entries remain, where its bits stand.
struct Chain {
    last: TrainingEntry,
    remaining: u16,
    bits: usize,
    last_score: i16,
}

impl<R: Read> BinpackReader<R> {
    /// A reader of `input` (buffering is not needed: it reads whole chunks).
    pub fn new(input: R) -> BinpackReader<R> {
        BinpackReader { input, chunk_offset: 0, chunk: Vec::new(), at: 0, chain: None, done: false }
    }

    /// The byte offset in the input where reading stands.
    pub fn offset(&self) -> u64 {
        self.chunk_offset + self.at as u64
    }

    /// Reads the next chunk; false at the end of the input.
    fn next_chunk(&mut self) -> Result<bool, BinpackError> {
        self.chunk_offset += self.chunk.len() as u64;
        let start = self.chunk_offset;
        self.chunk.clear();
        self.at = 0;
        let mut header = [0u8; 8];
        let mut filled = 0;
        while filled < header.len() {
            match self.input.read(&mut header[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(BinpackErrorKind::Io(e).at(start + filled as u64)),
            }
        }
        match filled {
            0 => return Ok(false),
            8 => {}
            _ => return Err(BinpackErrorKind::Truncated.at(start + filled as u64)),
        }
        if &header[..4] != MAGIC {
            return Err(BinpackErrorKind::ChunkHeader.at(start));
        }
        let size = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        if size > MAX_CHUNK_SIZE {
            return Err(BinpackErrorKind::ChunkTooLarge { size }.at(start + 4));
        }
        self.chunk_offset = start + 8;
        let read = (&mut self.input).take(u64::from(size)).read_to_end(&mut self.chunk);
        read.map_err(|e| BinpackErrorKind::Io(e).at(self.chunk_offset + self.chunk.len() as u64))?;
        if self.chunk.len() < size as usize {
            return Err(BinpackErrorKind::Truncated.at(self.chunk_offset + self.chunk.len() as u64));
        }
        Ok(true)
    }

    fn read_next(&mut self) -> Result<Option<TrainingEntry>, BinpackError> {
        if let Some(chain) = &mut self.chain {
            let offset = self.chunk_offset + (self.at + chain.bits / 8) as u64;
            let position = next_position(&chain.last);
            let mut input = BitReader { bytes: &self.chunk[self.at..], at: chain.bits };
            let mv = read_move(&mut input, &position).map_err(|kind| kind.at(offset))?;
            let change = read_score_change(&mut input).map_err(|kind| kind.at(offset))?;
            let score = chain.last_score.wrapping_add(unzigzag(change));
            let entry =
                TrainingEntry { position, mv, score, ply: chain.last.ply.wrapping_add(1), result: -chain.last.result };
            chain.bits = input.at;
            chain.last = entry;
            chain.last_score = score.wrapping_neg();
            chain.remaining -= 1;
            if chain.remaining == 0 {
                self.at += input.bytes_used();
                self.chain = None;
            }
            return Ok(Some(entry));
        }
        while self.at == self.chunk.len() {
            if !self.next_chunk()? {
                return Ok(None);
            }
        }
        let offset = self.offset();
        let Some(bytes) = self.chunk.get(self.at..self.at + STEM_LEN + 2) else {
            return Err(BinpackErrorKind::Truncated.at(self.chunk_offset + self.chunk.len() as u64));
        };
        let stem_bytes: &[u8; STEM_LEN] = bytes[..STEM_LEN].try_into().expect("a stem's length");
        let entry = read_stem(stem_bytes, offset)?;
        let following = u16::from_be_bytes([bytes[STEM_LEN], bytes[STEM_LEN + 1]]);
        self.at += STEM_LEN + 2;
        if following > 0 {
            self.chain =
                Some(Chain { last: entry, remaining: following, bits: 0, last_score: entry.score.wrapping_neg() });
        }
        Ok(Some(entry))
    }
}

impl<R: Read> Iterator for BinpackReader<R> {
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

/// Writes `.binpack` training data as Stockfish's tools do, byte for byte: an entry that
/// follows the one before (the position after its move, one ply later, the opposite result) is
/// chained to it, and a chunk is closed once it holds [`CHUNK_SIZE`] bytes. [`finish`] writes
/// the last chunk; dropping the writer does so too, ignoring errors.
///
/// [`finish`]: BinpackWriter::finish
pub struct BinpackWriter<W: Write> {
    output: Option<W>,
    /// Bytes written to the output so far.
    written: u64,
    chunk: Vec<u8>,
    /// The entry written last, the chain's moves since its stem and how many.
    last: Option<TrainingEntry>,
    moves: BitWriter,
    following: u16,
    last_score: i16,
}

impl<W: Write> BinpackWriter<W> {
    /// A writer to `output` (buffering is not needed: it writes whole chunks).
    pub fn new(output: W) -> BinpackWriter<W> {
        BinpackWriter {
            output: Some(output),
            written: 0,
            chunk: Vec::new(),
            last: None,
            moves: BitWriter::default(),
            following: 0,
            last_score: 0,
        }
    }

    /// Adds an entry. Errors: an illegal move, a result other than -1, 0 or 1, what binpack
    /// cannot hold ([`BinpackErrorKind::Unrepresentable`]), an output error.
    pub fn write(&mut self, entry: &TrainingEntry) -> Result<(), BinpackError> {
        let offset = self.written + self.chunk.len() as u64;
        entry.check().map_err(|kind| kind.at(offset))?;
        let follows = self.last.is_some_and(|last| {
            self.following < u16::MAX
                && last.result == -entry.result
                && last.ply.wrapping_add(1) == entry.ply
                && same_position(&last.position.make_move(last.mv), &entry.position)
        });
        if follows {
            write_move(&mut self.moves, &entry.position, entry.mv);
            write_score_change(&mut self.moves, zigzag(entry.score.wrapping_sub(self.last_score)));
            self.following += 1;
        } else {
            self.end_chain();
            if self.chunk.len() >= CHUNK_SIZE {
                self.write_chunk()?;
            }
            self.chunk.extend_from_slice(&stem(entry));
        }
        self.last_score = entry.score.wrapping_neg();
        self.last = Some(*entry);
        Ok(())
    }

    /// Closes the chain being written: its count and moves go into the chunk.
    fn end_chain(&mut self) {
        if self.last.take().is_some() {
            self.chunk.extend_from_slice(&self.following.to_be_bytes());
            self.chunk.extend_from_slice(&self.moves.bytes);
        }
        self.moves.clear();
        self.following = 0;
    }

    fn write_chunk(&mut self) -> Result<(), BinpackError> {
        let Some(output) = self.output.as_mut() else { return Ok(()) };
        let mut header = *b"BINP\0\0\0\0";
        header[4..].copy_from_slice(&(self.chunk.len() as u32).to_le_bytes());
        let offset = self.written;
        output
            .write_all(&header)
            .and_then(|()| output.write_all(&self.chunk))
            .map_err(|e| BinpackErrorKind::Io(e).at(offset))?;
        self.written += (header.len() + self.chunk.len()) as u64;
        self.chunk.clear();
        Ok(())
    }

    /// Writes what is left and flushes the output; returns it.
    pub fn finish(mut self) -> Result<W, BinpackError> {
        self.end_chain();
        if !self.chunk.is_empty() {
            self.write_chunk()?;
        }
        let mut output = self.output.take().expect("the output is taken once");
        output.flush().map_err(|e| BinpackErrorKind::Io(e).at(self.written))?;
        Ok(output)
    }
}

impl<W: Write> Drop for BinpackWriter<W> {
    fn drop(&mut self) {
        if self.output.is_some() {
            self.end_chain();
            if !self.chunk.is_empty() {
                // Errors cannot be reported from here; `finish` reports them.
                let _ = self.write_chunk();
            }
            if let Some(output) = self.output.as_mut() {
                let _ = output.flush();
            }
        }
    }
}

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
