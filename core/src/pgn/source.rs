//! Where the PGN reader gets its bytes: any [`Read`] through a bounded buffer, or a byte
//! buffer already in memory, read in place.

use std::io::{self, Read};

/// Bytes read from an [`IoSource`] at a time; also its starting buffer size.
pub const CHUNK_SIZE: usize = 64 * 1024;

/// A supply of input bytes for [`PgnReader`](super::PgnReader).
///
/// The reader looks at [`Source::data`], releases the bytes it has finished with and asks for
/// more when a token does not fit in what it sees. A source only has to keep the unreleased
/// bytes; how much it buffers is its own business.
pub trait Source {
    /// The bytes read and not yet released, oldest first.
    fn data(&self) -> &[u8];

    /// Drops the first `n` bytes of [`Source::data`]; the reader never looks at them again.
    fn release(&mut self, n: usize);

    /// Appends at least one byte to [`Source::data`] (ideally many, and room for at least
    /// `want` more in total), or returns 0 at the end of the input.
    fn read_more(&mut self, want: usize) -> io::Result<usize>;
}

/// A boxed source, so that one reader type can hold any of them (`Box<dyn Source + Send>`: a
/// file, a buffer or a callback behind the same handle).
impl<S: Source + ?Sized> Source for Box<S> {
    #[inline]
    fn data(&self) -> &[u8] {
        (**self).data()
    }

    #[inline]
    fn release(&mut self, n: usize) {
        (**self).release(n)
    }

    fn read_more(&mut self, want: usize) -> io::Result<usize> {
        (**self).read_more(want)
    }
}

/// A [`Source`] over any [`Read`]: a buffer of [`CHUNK_SIZE`] bytes refilled as the reader
/// advances, grown only while one token (a long comment, say) needs more, up to the reader's
/// limits.
#[derive(Debug)]
pub struct IoSource<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl<R: Read> IoSource<R> {
    /// Wraps `inner`; nothing is read yet.
    pub fn new(inner: R) -> IoSource<R> {
        IoSource { inner, buf: Vec::new(), start: 0, end: 0 }
    }

    /// The wrapped reader.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Source for IoSource<R> {
    #[inline]
    fn data(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    #[inline]
    fn release(&mut self, n: usize) {
        self.start = (self.start + n).min(self.end);
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
    }

    fn read_more(&mut self, want: usize) -> io::Result<usize> {
        let kept = self.end - self.start;
        let needed = kept + want.max(CHUNK_SIZE);
        if self.buf.len() - self.end < CHUNK_SIZE / 2 || self.buf.len() < needed {
            // Move the kept bytes to the front, then grow if they still leave too little room.
            self.buf.copy_within(self.start..self.end, 0);
            self.start = 0;
            self.end = kept;
            if self.buf.len() < needed {
                // Reserved first: a reader out of memory reports it (as an error of kind
                // `OutOfMemory`, which allocates nothing) instead of aborting.
                self.buf.try_reserve_exact(needed - self.buf.len()).map_err(|_| io::ErrorKind::OutOfMemory)?;
                self.buf.resize(needed, 0);
            }
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(n) => {
                    self.end += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// A [`Source`] over bytes already in memory (a slice, a `Vec`, a memory map): read in place,
/// nothing is copied.
#[derive(Debug, Clone)]
pub struct BytesSource<B> {
    bytes: B,
    start: usize,
}

impl<B: AsRef<[u8]>> BytesSource<B> {
    /// Reads `bytes` in place.
    pub fn new(bytes: B) -> BytesSource<B> {
        BytesSource { bytes, start: 0 }
    }
}

impl<B: AsRef<[u8]>> Source for BytesSource<B> {
    #[inline]
    fn data(&self) -> &[u8] {
        let bytes = self.bytes.as_ref();
        &bytes[self.start.min(bytes.len())..]
    }

    #[inline]
    fn release(&mut self, n: usize) {
        self.start += n;
    }

    fn read_more(&mut self, _want: usize) -> io::Result<usize> {
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out its bytes a few at a time, as a pipe might.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.0.len()).min(3);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn io_source_keeps_unreleased_bytes() {
        let text: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let mut src = IoSource::new(Trickle(&text));
        let mut seen = Vec::new();
        loop {
            if src.data().len() < 10 && src.read_more(10).unwrap() == 0 {
                break;
            }
            let take = src.data().len().min(7);
            seen.extend_from_slice(&src.data()[..take]);
            src.release(take);
        }
        seen.extend_from_slice(src.data());
        assert_eq!(seen, text);
        assert!(src.buf.len() <= 2 * CHUNK_SIZE);
    }

    #[test]
    fn boxed_sources_read_alike() {
        let text = b"[Event \"x\"]\n\n1. e4 *\n";
        let sources: Vec<Box<dyn Source + Send>> =
            vec![Box::new(BytesSource::new(text.to_vec())), Box::new(IoSource::new(&text[..]))];
        for source in sources {
            let mut reader = crate::pgn::PgnReader::with_source(source);
            assert_eq!(reader.next_game().unwrap().unwrap().tag("Event"), Some("x"));
        }
    }

    #[test]
    fn bytes_source_reads_in_place() {
        let mut src = BytesSource::new(b"abc".as_slice());
        assert_eq!(src.data(), b"abc");
        src.release(2);
        assert_eq!(src.data(), b"c");
        assert_eq!(src.read_more(1).unwrap(), 0);
        src.release(5);
        assert_eq!(src.data(), b"");
    }
}
