//! The input side of parallel reading: chunks read and their lines counted, where games seem
//! to start in them, the source a batch's reader reads the chunks through, and the split points
//! of an input for reading its parts apart.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Read};
use std::sync::Arc;

use crate::fallible::try_push;

use super::super::error::{Location, PgnError, PgnErrorKind};
use super::super::reader::PgnReader;
use super::super::source::Source;
use super::{Chunk, Claim, Piece, Shared};

/// The input, with what reading it so far tells of the next chunk.
pub(super) struct Input {
    pub(super) inner: Box<dyn Read + Send>,
    /// Where the next chunk starts: its offset and line.
    pub(super) offset: u64,
    pub(super) line: u64,
    pub(super) lines: LineState,
}

impl Input {
    /// The next chunk, of `size` bytes unless the input ends in it, read into `buffer` if
    /// there is one.
    pub(super) fn read_chunk(&mut self, size: usize, buffer: Option<Vec<u8>>) -> Chunk {
        let mut bytes = buffer.unwrap_or_default();
        // A new buffer is zeroed (a `Read` may only be given bytes that are set), a spare one
        // is not again.
        let room = bytes.try_reserve_exact(size.saturating_sub(bytes.len()));
        let mut read = room.map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory));
        if read.is_ok() {
            bytes.resize(size, 0);
        }
        let mut len = 0;
        while read.is_ok() && len < size {
            match self.inner.read(&mut bytes[len..]) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => read = Err(e),
            }
        }
        bytes.truncate(len);
        let end = match read {
            Ok(()) if len == size => None,
            Ok(()) => Some(None),
            Err(e) => Some(Some(Arc::new(e))),
        };
        // The first batch starts with the input.
        let at = if self.offset == 0 { Some(0) } else { guess_game_start(&bytes, self.lines) };
        let split = at.unwrap_or(0);
        let line = self.line + count_lines(&bytes[..split]);
        let start = at.map(|i| Location { line, column: 1, offset: self.offset + i as u64 });
        self.line = line + count_lines(&bytes[split..]);
        self.lines = self.lines.after(&bytes);
        self.offset += bytes.len() as u64;
        Chunk { bytes, start, end }
    }
}

/// What guessing where games start needs to know of the line a chunk starts in.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct LineState {
    /// The first byte of the line; `None` at its start.
    first: Option<u8>,
    /// The line before it begins with `[`.
    after_tag: bool,
}

impl LineState {
    /// The state after `bytes`.
    fn after(self, bytes: &[u8]) -> LineState {
        let Some(last) = bytes.iter().rposition(|&b| b == b'\n') else {
            return LineState { first: self.first.or(bytes.first().copied()), ..self };
        };
        // The first byte of the line the last line end ends.
        let begun = match bytes[..last].iter().rposition(|&b| b == b'\n') {
            Some(before) => Some(bytes[before + 1]),
            None => self.first.or(bytes.first().copied()),
        };
        LineState { first: bytes.get(last + 1).copied(), after_tag: begun == Some(b'[') }
    }
}

/// Where a game seems to start in `bytes`, a chunk of the input starting in `state`: the first
/// line that begins with `[` and a letter (a tag, not a command such as `[%clk` on a line of a
/// comment), that letter in the chunk too, after a line that does not begin with `[` (the first
/// tag of a section). A guess: a comment may hold such a line.
pub(super) fn guess_game_start(bytes: &[u8], mut state: LineState) -> Option<usize> {
    let mut i = 0;
    loop {
        if let Some(first) = state.first {
            i += bytes[i..].iter().position(|&b| b == b'\n')? + 1;
            state = LineState { first: None, after_tag: first == b'[' };
        }
        let &first = bytes.get(i)?;
        if first == b'[' && !state.after_tag && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            return Some(i);
        }
        state.first = Some(first);
    }
}

/// The line ends in `bytes`, 16 bytes at a time with SSE2, which every x86-64 processor has
/// (nine times as fast as byte by byte).
#[cfg(target_arch = "x86_64")]
pub(super) fn count_lines(bytes: &[u8]) -> u64 {
    use std::arch::x86_64::*;
    let mut rows = bytes.chunks_exact(16);
    let mut count = rows.remainder().iter().filter(|&&b| b == b'\n').count() as u64;
    // SAFETY: each load reads the 16 bytes of a row, unaligned; SSE2 is always there.
    unsafe {
        let line_end = _mm_set1_epi8(b'\n' as i8);
        loop {
            // Lanes of a byte each count up to 255 line ends, then are added up.
            let (mut lanes, mut taken) = (_mm_setzero_si128(), 0);
            for row in rows.by_ref().take(255) {
                let equal = _mm_cmpeq_epi8(_mm_loadu_si128(row.as_ptr().cast()), line_end);
                lanes = _mm_sub_epi8(lanes, equal);
                taken += 1;
            }
            let sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
            count += (_mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums))) as u64;
            if taken < 255 {
                return count;
            }
        }
    }
}

/// The line ends in `bytes`, without SSE2.
#[cfg(not(target_arch = "x86_64"))]
pub(super) fn count_lines(bytes: &[u8]) -> u64 {
    count_lines_swar(bytes)
}

/// The line ends in `bytes`, eight bytes at a time (four times as fast as byte by byte).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(super) fn count_lines_swar(bytes: &[u8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let words = bytes.chunks_exact(8);
    let mut count = words.remainder().iter().filter(|&&b| b == b'\n').count() as u64;
    for word in words {
        // Zero bytes where the line ends are; then the top bit of each byte set unless it is zero.
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes")) ^ (ONES * u64::from(b'\n'));
        let nonzero = ((x & (ONES * 0x7f)) + ONES * 0x7f) | x;
        count += u64::from((!nonzero & (ONES * 0x80)).count_ones());
    }
    count
}

/// The source of a batch's reader: the input from the batch's start on, chunk after chunk as
/// the reader needs them, read in place; where a token may run from one chunk into the next,
/// the end of the one and the start of the other are joined in a buffer.
pub(super) struct ChunkSource<P> {
    shared: Arc<Shared<P>>,
    batch: u64,
    chunk_size: u64,
    /// The chunk being read, and its index.
    chunk: Arc<Chunk>,
    index: u64,
    /// The data is `chunk.bytes[pos..]`, or `joined[pos..]` while `in_joined`, whose last
    /// `copied` bytes are the first of `chunk`.
    in_joined: bool,
    pos: usize,
    joined: Vec<u8>,
    copied: usize,
    /// The batch start of each chunk come to, from the one holding `released` on.
    starts: VecDeque<(u64, Option<u64>)>,
    /// The input offset of the data's first byte.
    released: u64,
}

/// Bytes of a chunk joined to the end of the one before at least, at a time.
pub(super) const JOINED_MIN: usize = 4096;

impl<P: Piece> ChunkSource<P> {
    pub(super) fn new(shared: Arc<Shared<P>>, claim: Claim) -> Self {
        let chunk_size = claim.chunk_size as u64;
        let offset = claim.start.offset;
        ChunkSource {
            shared,
            batch: claim.batch,
            chunk_size,
            chunk: claim.chunk,
            index: claim.batch,
            in_joined: false,
            pos: (offset - claim.batch * chunk_size) as usize,
            joined: Vec::new(),
            copied: 0,
            starts: VecDeque::from([(claim.batch, Some(offset))]),
            released: offset,
        }
    }

    /// The batch that starts at `offset` (which the reader has in view), if one does.
    pub(super) fn batch_at(&mut self, offset: u64) -> Option<u64> {
        let chunk = offset / self.chunk_size;
        while self.starts.front().is_some_and(|&(index, _)| index < chunk) {
            self.starts.pop_front();
        }
        match self.starts.front() {
            Some(&(index, Some(start))) if index == chunk && start == offset => Some(index),
            _ => None,
        }
    }
}

impl<P: Piece> Source for ChunkSource<P> {
    #[inline]
    fn data(&self) -> &[u8] {
        if self.in_joined {
            &self.joined[self.pos..]
        } else {
            &self.chunk.bytes[self.pos..]
        }
    }

    #[inline]
    fn release(&mut self, n: usize) {
        let n = n.min(self.data().len());
        self.pos += n;
        self.released += n as u64;
    }

    fn read_more(&mut self, want: usize) -> io::Result<usize> {
        let kept = self.data().len();
        if self.in_joined && kept <= self.copied {
            // The data is all in this chunk: it is read in place again, to the chunk's end.
            (self.in_joined, self.pos) = (false, self.copied - kept);
            let more = self.chunk.bytes.len() - self.copied;
            if more > 0 {
                return Ok(more);
            }
        }
        loop {
            let copied = if self.in_joined { self.copied } else { self.chunk.bytes.len() };
            if copied < self.chunk.bytes.len() {
                // At least as much as is kept, so that a long token is joined in linear time.
                let n = want.max(kept).max(JOINED_MIN).min(self.chunk.bytes.len() - copied);
                self.joined.drain(..self.pos);
                self.pos = 0;
                self.joined.try_reserve(n).map_err(|_| io::ErrorKind::OutOfMemory)?;
                self.joined.extend_from_slice(&self.chunk.bytes[copied..copied + n]);
                self.copied += n;
                return Ok(n);
            }
            // All of this chunk is in view: the next one is joined to it.
            match &self.chunk.end {
                Some(None) => return Ok(0),
                Some(Some(e)) => return Err(io::Error::new(e.kind(), SharedError(e.clone()))),
                None => {}
            }
            if !self.in_joined {
                self.joined.clear();
                self.joined.try_reserve(kept + want.max(JOINED_MIN)).map_err(|_| io::ErrorKind::OutOfMemory)?;
                self.joined.extend_from_slice(&self.chunk.bytes[self.pos..]);
                (self.in_joined, self.pos) = (true, 0);
            }
            // A batch dropped ends here: no one takes its games.
            if !self.shared.next_chunk(self.batch, self.index, &mut self.chunk, self.released) {
                return Ok(0);
            }
            self.index += 1;
            self.starts.push_back((self.index, self.chunk.start.map(|start| start.offset)));
            self.copied = 0;
        }
    }
}

/// The error that ended the input, for each reader that comes to it.
#[derive(Debug)]
pub(super) struct SharedError(Arc<io::Error>);

impl fmt::Display for SharedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SharedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// Where to cut a PGN text of `len` bytes (a file's size) into at most `parts` pieces of whole
/// games of about `len / parts` bytes each, for reading them apart (in other processes or on
/// other machines): the byte offset where each piece starts, the first 0, fewer than `parts`
/// when the games are. Reading each piece on its own gives every game of the whole text once
/// (game numbers and lines then count from the piece's start). The games are scanned as
/// [`PgnReader::skip_game`] scans them, their moves not replayed, a broken game kept whole.
///
/// ```
/// use chesscore_core::pgn::{split_points, PgnReader};
///
/// // A blank line and a tag inside a comment are no boundary.
/// let pgn = "1. e4 e5 *\n\n1. d4 { a comment\n\n[Event \"not a tag\"] } d5 *\n\n1. c4 *\n".as_bytes();
/// let cuts = split_points(pgn, pgn.len() as u64, 2)?;
/// assert_eq!(cuts.len(), 2);
/// let first: Vec<_> = PgnReader::from_bytes(&pgn[..cuts[1] as usize]).collect::<Result<_, _>>()?;
/// let second: Vec<_> = PgnReader::from_bytes(&pgn[cuts[1] as usize..]).collect::<Result<_, _>>()?;
/// assert_eq!((first.len(), first[1].moves().len(), second.len()), (2, 2, 1));
/// # Ok::<(), chesscore_core::pgn::PgnError>(())
/// ```
pub fn split_points(input: impl Read, len: u64, parts: usize) -> Result<Vec<u64>, PgnError> {
    let parts = parts.max(1);
    let mut scanner = PgnReader::new(input);
    let mut points = Vec::new();
    // A cut is made once a game follows it, so that no piece is empty.
    let mut pending = Some(0);
    loop {
        // The games are skipped: found without replaying their moves.
        let whole = match scanner.skip_game() {
            Ok(true) => true,
            Ok(false) => break,
            Err(e) if matches!(e.kind, PgnErrorKind::Io(_) | PgnErrorKind::OutOfMemory) => return Err(e),
            // A broken game (its reader finds it again): no cut right after it.
            Err(_) => false,
        };
        if let Some(at) = pending.take() {
            try_push(&mut points, at).map_err(|_| {
                PgnError::new(PgnErrorKind::OutOfMemory, scanner.games_read(), scanner.location(), 0, b"")
            })?;
        }
        let end = scanner.bytes_read();
        // Piece k starts at the end of the first game reaching k / parts of the text.
        let share = (u128::from(len) * points.len() as u128 / parts as u128) as u64;
        if whole && points.len() < parts && end >= share {
            pending = Some(end);
        }
    }
    if points.is_empty() {
        points.push(0);
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_counted_and_game_starts_guessed() {
        let text = b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 {\n[%clk 0:01]\n[Round \"c\"] }\n*\n[Event \"d\"]\n";
        let counted = |bytes: &[u8]| bytes.iter().filter(|&&b| b == b'\n').count() as u64;
        for size in 1..text.len() + 2 {
            let mut input = Input { inner: Box::new(&text[..]), offset: 0, line: 1, lines: LineState::default() };
            let (mut starts, mut spare) = (Vec::new(), None);
            loop {
                // Each chunk read into the buffer of the one before, which holds its bytes.
                let chunk = input.read_chunk(size, spare.take());
                let offset = input.offset - chunk.bytes.len() as u64;
                assert_eq!(chunk.bytes, text[offset as usize..input.offset as usize]);
                if let Some(start) = chunk.start {
                    assert_eq!(start.line, 1 + counted(&text[..start.offset as usize]), "chunks of {size}");
                    if start.offset > offset {
                        assert_eq!(text[start.offset as usize - 1], b'\n');
                    }
                    starts.push(start.offset);
                }
                assert_eq!(input.line, 1 + counted(&text[..input.offset as usize]));
                if chunk.end.is_some() {
                    break;
                }
                spare = Some(chunk.bytes);
            }
            // The input's start, and the first tag of a section after a line that is no tag (not
            // `[Site` nor, after a clock command, `[Round`), its letter in the same chunk.
            let mut want = vec![0];
            if 60 / size > 0 && 60 % size != size - 1 {
                want.push(60);
            }
            assert_eq!(starts, want, "chunks of {size}");
        }
        // Every length and place of the line ends, past the 255 a lane counts.
        let text: Vec<u8> = (0..9000u32).map(|i| if i % 7 == 0 || i % 13 == 0 { b'\n' } else { b'a' }).collect();
        for end in (0..300).chain([4000, 8159, 8160, 8161, 9000]) {
            let want = text[..end].iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!((count_lines(&text[..end]), count_lines_swar(&text[..end])), (want, want), "{end}");
        }
        assert_eq!((count_lines(&[b'\n'; 9000]), count_lines_swar(&[b'\n'; 9000])), (9000, 9000));
    }
}
