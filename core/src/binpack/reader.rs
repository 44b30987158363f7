//! Reading `.binpack` files, one chunk in memory at a time.

use std::io::{self, Read};

use super::codec::{next_position, read_move, read_score_change, read_stem, unzigzag, BitReader};
use super::{BinpackError, BinpackErrorKind, TrainingEntry, MAGIC, MAX_CHUNK_SIZE, STEM_LEN};

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
pub(super) struct Chain {
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
