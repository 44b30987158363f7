//! Compressed input, recognised by its first bytes (never by a file name): gzip (also several
//! members one after the other, as `cat a.gz b.gz` makes) and, with the `zstd` feature,
//! Zstandard (also several frames). Anything else is passed through as it is.

use std::fmt;
use std::io::{self, Chain, Read};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread;

/// The first bytes of a gzip member (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// The first bytes of a Zstandard frame (RFC 8878), little-endian 0xFD2FB528.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// A compression format [`Decompressed`] recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compression {
    /// gzip (`.gz`): deflate in gzip members.
    Gzip,
    /// Zstandard (`.zst`).
    Zstd,
}

impl Compression {
    /// The compression that data starting with `head` is in (four bytes are enough to tell);
    /// `None` for anything else, plain text among it.
    pub fn detect(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&GZIP_MAGIC) {
            Some(Compression::Gzip)
        } else if head.starts_with(&ZSTD_MAGIC) {
            Some(Compression::Zstd)
        } else {
            None
        }
    }
}

/// The bytes read to recognise the format, handed on first.
type Head = io::Cursor<Vec<u8>>;

enum State<R> {
    /// Nothing read yet: the format is recognised at the first read, so that making the reader
    /// reads nothing (a C callback is called only when games are read).
    Unknown(R),
    Plain(Chain<Head, R>),
    Gzip(Box<flate2::read::MultiGzDecoder<Chain<Head, R>>>),
    #[cfg(feature = "zstd")]
    Zstd(Box<zstd::stream::read::Decoder<'static, io::BufReader<Chain<Head, R>>>>),
    /// A decoder moved to a thread of its own ([`Decompressed::threaded`]).
    Ahead(ReadAhead),
    /// Only while the state changes, or after reading the first bytes failed.
    Failed,
}

/// A [`Read`] that decompresses what it reads when it starts as gzip or Zstandard data, and
/// passes anything else through unchanged, byte for byte (plain input is read straight into
/// the caller's buffer, as without it). The decoders stream: memory stays bounded whatever the
/// size of the input.
///
/// ```
/// use std::io::{Read, Write};
/// use chesscore_core::pgn::{Compression, Decompressed, PgnReader};
///
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
/// gz.write_all(b"1. e4 e5 2. Nf3 *\n")?;
/// let bytes = gz.finish()?;
/// let mut input = Decompressed::new(bytes.as_slice());
/// let game = PgnReader::new(&mut input).next_game()?.unwrap();
/// assert_eq!(game.moves().len(), 3);
/// assert_eq!(input.compression(), Some(Compression::Gzip));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Decompressed<R> {
    state: State<R>,
    /// Moves a decoder to a thread of its own, for [`Decompressed::threaded`].
    to_thread: Option<fn(State<R>) -> State<R>>,
    found: Option<Compression>,
}

impl<R> fmt::Debug for Decompressed<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match &self.state {
            State::Unknown(_) => "not read yet",
            State::Plain(_) => "plain",
            State::Gzip(_) => "gzip",
            #[cfg(feature = "zstd")]
            State::Zstd(_) => "zstd",
            State::Ahead(_) => "decoded in a thread",
            State::Failed => "failed",
        };
        f.debug_struct("Decompressed").field("input", &state).finish()
    }
}

/// How many first bytes tell the format.
const MAGIC_LEN: usize = 4;

impl<R: Read> Decompressed<R> {
    /// Wraps `inner`; nothing is read until the first read.
    pub fn new(inner: R) -> Decompressed<R> {
        Decompressed { state: State::Unknown(inner), to_thread: None, found: None }
    }

    /// The compression found, once the first bytes were read: `None` for plain input (or
    /// before the first read).
    pub fn compression(&self) -> Option<Compression> {
        self.found
    }

    /// The first read: the first bytes go into `buf` (or a small array when `buf` is shorter
    /// than the magic numbers), tell the format, and are handed on.
    fn first_read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let State::Unknown(mut inner) = std::mem::replace(&mut self.state, State::Failed) else { return Ok(0) };
        let mut small = [0; MAGIC_LEN];
        let in_buf = buf.len() >= MAGIC_LEN;
        let target: &mut [u8] = if in_buf { buf } else { &mut small };
        let mut len = 0;
        while len < MAGIC_LEN {
            match inner.read(&mut target[len..]) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let compression = Compression::detect(&target[..len]);
        if in_buf && compression.is_none() {
            self.state = State::Plain(Head::default().chain(inner));
            return Ok(len);
        }
        let input = Head::new(target[..len].to_vec()).chain(inner);
        self.found = compression;
        self.state = match compression {
            Some(Compression::Gzip) => State::Gzip(Box::new(flate2::read::MultiGzDecoder::new(input))),
            Some(Compression::Zstd) => zstd_state(input)?,
            None => State::Plain(input),
        };
        if let (Some(to_thread), Some(_)) = (self.to_thread, compression) {
            self.state = to_thread(std::mem::replace(&mut self.state, State::Failed));
        }
        self.read(buf)
    }
}

impl<R: Read + Send + 'static> Decompressed<R> {
    /// [`Decompressed::new`], but compressed input is decoded in a thread of its own, a few
    /// buffers of 128 KiB ahead of the reader: on a machine with a core to spare, decoding then
    /// costs the reader about nothing. Plain input is read as without it, in the caller's thread.
    pub fn threaded(inner: R) -> Decompressed<R> {
        let to_thread: fn(State<R>) -> State<R> =
            |decoder| State::Ahead(ReadAhead::spawn(Decompressed { state: decoder, to_thread: None, found: None }));
        Decompressed { state: State::Unknown(inner), to_thread: Some(to_thread), found: None }
    }
}

/// Buffers read ahead by [`ReadAhead`].
const AHEAD_BUFFERS: usize = 4;
const AHEAD_BUFFER_LEN: usize = 128 * 1024;

/// A reader whose input is read in a thread of its own, buffers going back and forth.
struct ReadAhead {
    /// Filled buffers; an empty one is the end of the input.
    filled: Receiver<io::Result<Vec<u8>>>,
    /// Buffers handed back for filling.
    empty: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    pos: usize,
    ended: bool,
}

impl ReadAhead {
    fn spawn(mut inner: impl Read + Send + 'static) -> ReadAhead {
        let (filled_in, filled) = mpsc::sync_channel(AHEAD_BUFFERS);
        let (empty, empty_out) = mpsc::sync_channel(AHEAD_BUFFERS + 1);
        for _ in 0..AHEAD_BUFFERS {
            // Room for all of them: the channel was made larger.
            let _ = empty.try_send(Vec::new());
        }
        thread::spawn(move || {
            // Ends when the reader is dropped (its channels close) or the input ends.
            while let Ok(mut buf) = empty_out.recv() {
                buf.resize(AHEAD_BUFFER_LEN, 0);
                let read = loop {
                    match inner.read(&mut buf) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        read => break read,
                    }
                };
                let last = !matches!(read, Ok(n) if n > 0);
                let sent = filled_in.send(read.map(|n| {
                    buf.truncate(n);
                    buf
                }));
                if last || sent.is_err() {
                    return;
                }
            }
        });
        ReadAhead { filled, empty, current: Vec::new(), pos: 0, ended: false }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.current.len() {
            if self.ended {
                return Ok(0);
            }
            let used = std::mem::take(&mut self.current);
            // Never full: there are only so many buffers.
            let _ = self.empty.try_send(used);
            self.pos = 0;
            match self.filled.recv() {
                Ok(Ok(buf)) if buf.is_empty() => self.ended = true,
                Ok(Ok(buf)) => self.current = buf,
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(_) => {
                    self.ended = true;
                    return Err(io::Error::other("the decoding thread stopped"));
                }
            }
        }
        let n = out.len().min(self.current.len() - self.pos);
        out[..n].copy_from_slice(&self.current[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(feature = "zstd")]
fn zstd_state<R: Read>(input: Chain<Head, R>) -> io::Result<State<R>> {
    Ok(State::Zstd(Box::new(zstd::stream::read::Decoder::new(input)?)))
}

#[cfg(not(feature = "zstd"))]
fn zstd_state<R: Read>(_: Chain<Head, R>) -> io::Result<State<R>> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "Zstandard-compressed input: chesscore-core was built without its `zstd` feature",
    ))
}

impl<R: Read> Read for Decompressed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.state {
            State::Unknown(_) => self.first_read(buf),
            State::Plain(input) => input.read(buf),
            State::Gzip(decoder) => decoder.read(buf),
            #[cfg(feature = "zstd")]
            State::Zstd(decoder) => decoder.read(buf),
            State::Ahead(reader) => reader.read(buf),
            State::Failed => Err(io::Error::other("the input's first bytes could not be read")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Everything read through `Decompressed`, in reads of at most `chunk` bytes from an input
    /// that gives at most 3 bytes a read (the magic numbers come in pieces).
    fn read_in(bytes: &[u8], chunk: usize) -> (io::Result<Vec<u8>>, Option<Compression>) {
        let mut input = Decompressed::new(
            bytes
                .chunks(3)
                .map(io::Cursor::new)
                .fold(Box::new(io::empty()) as Box<dyn Read>, |all, piece| Box::new(all.chain(piece))),
        );
        let mut out = Vec::new();
        let mut buf = vec![0; chunk];
        let read = loop {
            match input.read(&mut buf) {
                Ok(0) => break Ok(out),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => break Err(e),
            }
        };
        (read, input.compression())
    }

    fn read_all(bytes: &[u8]) -> (io::Result<Vec<u8>>, Option<Compression>) {
        let mut input = Decompressed::new(bytes);
        let mut out = Vec::new();
        let read = input.read_to_end(&mut out).map(|_| out);
        let result = (read, input.compression());
        for chunk in [1, 2, 5, 4096] {
            let (again, compression) = read_in(bytes, chunk);
            assert_eq!(compression, result.1);
            assert_eq!(again.as_ref().ok(), result.0.as_ref().ok(), "chunk {chunk}");
        }
        result
    }

    #[test]
    fn plain_input_passes_through_whatever_its_length() {
        for text in [&b""[..], b"1", b"\x1f", b"(\xb5/", b"[Event \"x\"]\n1. e4 *\n"] {
            let (read, compression) = read_all(text);
            assert_eq!(read.unwrap(), text);
            assert_eq!(compression, None);
        }
    }

    #[test]
    fn gzip_members_are_read_one_after_the_other() {
        let member = |text: &[u8]| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(text).unwrap();
            gz.finish().unwrap()
        };
        let bytes = [member(b"1. e4 e5 *\n"), member(b"1. d4 d5 *\n")].concat();
        let (read, compression) = read_all(&bytes);
        assert_eq!(read.unwrap(), b"1. e4 e5 *\n1. d4 d5 *\n");
        assert_eq!(compression, Some(Compression::Gzip));
        assert!(read_all(&bytes[..bytes.len() - 5]).0.is_err(), "a cut member is an error");
    }

    /// The same bytes, and the same failures, when a thread decodes.
    #[test]
    fn a_decoding_thread_reads_the_same() {
        let text: Vec<u8> = (0..400_000u32).flat_map(|i| format!("{i} e4 ").into_bytes()).collect();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &text).unwrap();
        let gz = gz.finish().unwrap();
        for (bytes, compression) in [(text.clone(), None), (gz.clone(), Some(Compression::Gzip))] {
            let mut input = Decompressed::threaded(io::Cursor::new(bytes));
            let mut out = Vec::new();
            input.read_to_end(&mut out).unwrap();
            assert!(out == text);
            assert_eq!(input.compression(), compression);
        }
        let mut cut = Decompressed::threaded(io::Cursor::new(gz[..gz.len() - 10].to_vec()));
        assert!(cut.read_to_end(&mut Vec::new()).is_err());
        // Dropped before the end: the thread goes.
        let mut early = Decompressed::threaded(io::Cursor::new(gz));
        early.read_exact(&mut [0; 10]).unwrap();
    }

    #[cfg(feature = "zstd")]
    #[test]
    fn zstd_frames_are_read_one_after_the_other() {
        let frame = |text: &[u8]| zstd::stream::encode_all(text, 3).unwrap();
        let bytes = [frame(b"1. e4 e5 *\n"), frame(b"1. d4 d5 *\n")].concat();
        let (read, compression) = read_all(&bytes);
        assert_eq!(read.unwrap(), b"1. e4 e5 *\n1. d4 d5 *\n");
        assert_eq!(compression, Some(Compression::Zstd));
        let mut broken = bytes.clone();
        broken[8] ^= 0xff;
        assert!(read_all(&broken).0.is_err(), "a corrupt frame is an error");
        assert!(read_all(&bytes[..bytes.len() - 4]).0.is_err(), "a cut frame is an error");
    }
}
