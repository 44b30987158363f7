//! Writing `.binpack` files, chaining each entry to the one before when it follows it.

use std::io::Write;

use super::codec::{stem, write_move, write_score_change, zigzag, BitWriter};
use super::{BinpackError, BinpackErrorKind, TrainingEntry, CHUNK_SIZE};

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
                && last.position.make_move(last.mv).is_same_position(&entry.position)
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
