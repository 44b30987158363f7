//! Reading one PGN input with several threads: the threads take turns at finding where each
//! game ends (scanning the movetext, as [`PgnReader::skip_game`] does, without replaying it)
//! and cutting off the next batch of whole games, then each reads its batch in full; the games
//! come out in the order of the input, as one [`PgnReader`] gives them.

use std::collections::{BTreeMap, TryReserveError};
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use super::error::{Location, PgnError, PgnErrorKind};
use super::reader::{PgnReader, ReaderOptions, Visitor};
use super::record::GameRecord;
use super::source::{BytesSource, Source, CHUNK_SIZE};
use crate::fallible::try_push;

/// A batch is cut once it holds this many bytes of whole games: large enough that handing it
/// over costs little next to reading it, small enough to spread a file over the threads.
const BATCH_BYTES: u64 = 256 * 1024;

/// Batches being read or not yet taken, per thread, before no more is cut: memory stays bounded
/// by about `threads * BATCHES_PER_THREAD * BATCH_BYTES` of input and its games.
const BATCHES_PER_THREAD: usize = 3;

/// Whole games of the input, for a thread to read.
struct Job {
    seq: u64,
    bytes: Vec<u8>,
    /// Where the batch starts in the input, and the games before it.
    start: Location,
    games_before: u64,
}

enum Message<T> {
    Batch(u64, Vec<Result<T, PgnError>>),
    /// The input has ended: the number of batches, and the error that ended it.
    End(u64, Option<PgnError>),
    /// A thread panicked: the panic goes on in the caller's thread.
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Games of one input read by several threads, as an iterator in the order of the input.
///
/// The items are those of a [`PgnReader`] over the same input with the same options, in the
/// same order: a [`GameRecord`] per game ([`ParallelReader::records`]) or a visitor's output
/// ([`ParallelReader::visiting`]), and each broken game's [`PgnError`] with its game number and
/// location in the whole input. An I/O error ends the input after the games read whole before
/// it, as with one reader.
///
/// Memory stays bounded: no batch is cut while a few per thread (of about 256 KiB of input
/// each) are being read or not yet taken. Dropping the reader early stops the threads as they
/// finish their batches.
///
/// ```
/// use chesscore_core::pgn::{ParallelReader, PgnReader, ReaderOptions};
///
/// use std::io::Cursor;
///
/// let pgn = "1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 d5 2. Ke3 *\n\n1. c4 *\n".repeat(1000);
/// let serial: Vec<_> = PgnReader::from_bytes(pgn.as_bytes()).collect();
/// let parallel: Vec<_> = ParallelReader::records(Cursor::new(pgn.clone()), 2, ReaderOptions::default()).collect();
/// assert_eq!(parallel.len(), 3000);
/// assert_eq!(parallel[1].as_ref().unwrap_err().to_string(), serial[1].as_ref().unwrap_err().to_string());
/// assert_eq!(parallel[2999].as_ref().unwrap().to_pgn(), serial[2999].as_ref().unwrap().to_pgn());
/// ```
pub struct ParallelReader<T> {
    messages: Receiver<Message<T>>,
    /// One token per batch that may still be cut; a token comes back as a batch is taken.
    tokens: SyncSender<()>,
    waiting: BTreeMap<u64, Vec<Result<T, PgnError>>>,
    current: std::vec::IntoIter<Result<T, PgnError>>,
    next: u64,
    end: Option<(u64, Option<PgnError>)>,
}

impl ParallelReader<GameRecord> {
    /// Reads `input` with `threads` threads (at least 1), each game as a [`GameRecord`]
    /// ([`PgnReader::next_game`]).
    pub fn records(input: impl Read + Send + 'static, threads: usize, options: ReaderOptions) -> Self {
        ParallelReader::start(input, threads, options, || |reader: &mut Batch| reader.next_game().transpose())
    }
}

impl<T: Send + 'static> ParallelReader<T> {
    /// Reads `input` with `threads` threads (at least 1), each reading its games with a visitor
    /// of its own from `make_visitor` ([`PgnReader::read_game`]); the items are the visitors'
    /// outputs.
    pub fn visiting<V, F>(
        input: impl Read + Send + 'static,
        threads: usize,
        options: ReaderOptions,
        make_visitor: F,
    ) -> Self
    where
        V: Visitor<Output = T>,
        F: Fn() -> V + Send + Sync + 'static,
    {
        ParallelReader::start(input, threads, options, move || {
            let mut visitor = make_visitor();
            move |reader: &mut Batch| reader.read_game(&mut visitor).transpose()
        })
    }

    /// Starts the threads; `make_take` makes, in each, what takes one game from a batch's
    /// reader.
    fn start<M, Take>(input: impl Read + Send + 'static, threads: usize, options: ReaderOptions, make_take: M) -> Self
    where
        M: Fn() -> Take + Send + Sync + 'static,
        Take: FnMut(&mut Batch) -> Option<Result<T, PgnError>>,
    {
        let threads = threads.max(1);
        let (messages_in, messages) = mpsc::channel();
        let (tokens, tokens_out) = mpsc::sync_channel(threads * BATCHES_PER_THREAD);
        for _ in 0..threads * BATCHES_PER_THREAD {
            // Room for all of them: the channel was made that large.
            let _ = tokens.try_send(());
        }
        let splitter = Arc::new(Mutex::new(Splitter::new(input, options, tokens_out)));
        let make_take = Arc::new(make_take);
        for _ in 0..threads {
            let (splitter, messages_in, make_take) = (splitter.clone(), messages_in.clone(), make_take.clone());
            thread::spawn(move || guarded(&messages_in, || work(&splitter, &messages_in, &*make_take, options)));
        }
        ParallelReader {
            messages,
            tokens,
            waiting: BTreeMap::new(),
            current: Vec::new().into_iter(),
            next: 0,
            end: None,
        }
    }
}

/// What a thread reads a batch with.
type Batch = PgnReader<BytesSource<Vec<u8>>>;

/// Runs `body`, handing a panic to the caller's thread.
fn guarded<T>(messages: &Sender<Message<T>>, body: impl FnOnce()) {
    if let Err(panic) = panic::catch_unwind(AssertUnwindSafe(body)) {
        let _ = messages.send(Message::Panicked(panic));
    }
}

/// The scan's source: the bytes of the batch being gathered, read straight into the
/// buffer the batch is handed over in, so that only what was read beyond a cut is copied.
struct BatchSource<R> {
    inner: R,
    bytes: Vec<u8>,
    /// Bytes the scanner released (it is done with them; they stay for the batch).
    released: usize,
}

/// Room a batch's buffer starts with: the batch, and the reads that overshoot it.
const BATCH_CAPACITY: usize = BATCH_BYTES as usize + 2 * CHUNK_SIZE;

impl<R: Read> BatchSource<R> {
    fn new(inner: R) -> Self {
        BatchSource { inner, bytes: Vec::with_capacity(BATCH_CAPACITY), released: 0 }
    }

    /// The first `size` bytes, which the scanner released, as a batch; the others start the
    /// next one.
    fn cut(&mut self, size: usize) -> Result<Vec<u8>, TryReserveError> {
        let mut rest = Vec::new();
        rest.try_reserve(BATCH_CAPACITY.max(self.bytes.len() - size))?;
        rest.extend_from_slice(&self.bytes[size..]);
        self.released -= size;
        let mut batch = std::mem::replace(&mut self.bytes, rest);
        batch.truncate(size);
        Ok(batch)
    }
}

impl<R: Read> Source for BatchSource<R> {
    fn data(&self) -> &[u8] {
        &self.bytes[self.released..]
    }

    fn release(&mut self, n: usize) {
        self.released = (self.released + n).min(self.bytes.len());
    }

    fn read_more(&mut self, want: usize) -> io::Result<usize> {
        let len = self.bytes.len();
        let room = want.max(CHUNK_SIZE);
        self.bytes.try_reserve(room).map_err(|_| io::ErrorKind::OutOfMemory)?;
        self.bytes.resize(len + room, 0);
        loop {
            match self.inner.read(&mut self.bytes[len..]) {
                Ok(n) => {
                    self.bytes.truncate(len + n);
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.bytes.truncate(len);
                    return Err(e);
                }
            }
        }
    }
}

/// What one step of a scan for the ends of games met.
enum Scanned {
    /// A whole game, which ends where the scanner now stands.
    Game,
    /// A game broken in a way the scan sees (its reader finds it again): the next step goes on
    /// to its end.
    Broken,
    /// The end of the input.
    End,
    /// What ends the input there: a read failing, or memory running out.
    Failed(PgnError),
}

/// Finds the end of the next game without replaying its moves.
fn scan<S: Source>(scanner: &mut PgnReader<S>) -> Scanned {
    match scanner.skip_game() {
        Ok(true) => Scanned::Game,
        Ok(false) => Scanned::End,
        Err(e) if matches!(e.kind, PgnErrorKind::Io(_) | PgnErrorKind::OutOfMemory) => Scanned::Failed(e),
        Err(_) => Scanned::Broken,
    }
}

/// Where to cut a PGN text of `len` bytes (a file's size) into at most `parts` pieces of whole
/// games of about `len / parts` bytes each, for reading them apart (in other processes or on
/// other machines): the byte offset where each piece starts, the first 0, fewer than `parts`
/// when the games are. Reading each piece on its own gives every game of the whole text once
/// (game numbers and lines then count from the piece's start). The games are scanned as
/// [`ParallelReader`]'s threads scan them, their moves not replayed, a broken game
/// kept whole.
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
/// assert_eq!((first.len(), first[1].game().moves().len(), second.len()), (2, 2, 1));
/// # Ok::<(), chesscore_core::pgn::PgnError>(())
/// ```
pub fn split_points(input: impl Read, len: u64, parts: usize) -> Result<Vec<u64>, PgnError> {
    let parts = parts.max(1);
    let mut scanner = PgnReader::new(input);
    let mut points = Vec::new();
    // A cut is made once a game follows it, so that no piece is empty.
    let mut pending = Some(0);
    loop {
        let whole = match scan(&mut scanner) {
            Scanned::Game => true,
            Scanned::Broken => false,
            Scanned::End => break,
            Scanned::Failed(e) => return Err(e),
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

/// The scan for the ends of games, which the threads take turns at: each cuts off the batch it
/// reads next.
struct Splitter<R> {
    scanner: PgnReader<BatchSource<R>>,
    /// A token per batch bounds what waits to be read or taken.
    tokens: Receiver<()>,
    /// Where the batch being gathered starts, and the games before it.
    start: Location,
    games_before: u64,
    seq: u64,
    /// Where the last game the scan finished ended.
    last_end: u64,
    /// The input has ended (or the reader is gone): no batch comes after.
    ended: bool,
}

impl<R: Read> Splitter<R> {
    fn new(input: R, options: ReaderOptions, tokens: Receiver<()>) -> Self {
        Splitter {
            scanner: PgnReader::with_source(BatchSource::new(input)).with_options(options),
            tokens,
            start: Location { line: 1, column: 1, offset: 0 },
            games_before: 0,
            seq: 0,
            last_end: 0,
            ended: false,
        }
    }

    /// Scans on to the end of the next batch of whole games and cuts it off, once a token is
    /// there; `None` after the last. Whoever meets the end of the input sends
    /// [`Message::End`].
    fn next_job<T>(&mut self, messages: &Sender<Message<T>>) -> Option<Job> {
        while !self.ended {
            let (ended, mut failure) = match scan(&mut self.scanner) {
                Scanned::Game => (false, None),
                Scanned::End => (true, None),
                // The input ends here; the games before come first, what follows is lost.
                Scanned::Failed(e) => (true, Some(e)),
                // Its reader finds it again. The batch is not cut inside it.
                Scanned::Broken => continue,
            };
            if failure.is_none() {
                self.last_end = self.scanner.bytes_read();
            }
            let size = self.last_end - self.start.offset;
            let mut job = None;
            if size >= BATCH_BYTES || (ended && size > 0) {
                // The scan stands at or past the cut: the batch's bytes are all released.
                match self.scanner.source_at_position().cut(size as usize) {
                    Ok(bytes) => {
                        if self.tokens.recv().is_err() {
                            self.ended = true;
                            return None;
                        }
                        job = Some(Job { seq: self.seq, bytes, start: self.start, games_before: self.games_before });
                        self.seq += 1;
                        self.start = self.scanner.location();
                        self.games_before = self.scanner.games_read();
                    }
                    Err(_) => {
                        let (games, at) = (self.scanner.games_read(), self.scanner.location());
                        failure = Some(PgnError::new(PgnErrorKind::OutOfMemory, games, at, 0, b""));
                    }
                }
            }
            if ended || failure.is_some() {
                self.ended = true;
                let _ = messages.send(Message::End(self.seq, failure));
            }
            if job.is_some() {
                return job;
            }
        }
        None
    }
}

/// A reading thread: cuts off a batch, then reads it in full, until the input ends.
fn work<R: Read, T, Take>(
    splitter: &Mutex<Splitter<R>>,
    messages: &Sender<Message<T>>,
    make_take: &impl Fn() -> Take,
    options: ReaderOptions,
) where
    Take: FnMut(&mut Batch) -> Option<Result<T, PgnError>>,
{
    let mut take = make_take();
    loop {
        // The lock is held while the batch is scanned: the other threads read theirs meanwhile.
        let job = splitter.lock().unwrap_or_else(PoisonError::into_inner).next_job(messages);
        let Some(job) = job else { return };
        // Numbers and locations count in the whole input.
        let mut reader =
            PgnReader::from_bytes(job.bytes).with_options(options).starting_at(job.start, job.games_before);
        let games: Vec<_> = std::iter::from_fn(|| take(&mut reader)).collect();
        if messages.send(Message::Batch(job.seq, games)).is_err() {
            return;
        }
    }
}

impl<T> Iterator for ParallelReader<T> {
    type Item = Result<T, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(game) = self.current.next() {
                return Some(game);
            }
            if let Some(batch) = self.waiting.remove(&self.next) {
                self.next += 1;
                // One more batch may be cut.
                let _ = self.tokens.try_send(());
                self.current = batch.into_iter();
                continue;
            }
            if let Some((batches, failure)) = &mut self.end {
                if self.next == *batches {
                    return failure.take().map(Err);
                }
            }
            match self.messages.recv() {
                Ok(Message::Batch(seq, games)) => {
                    self.waiting.insert(seq, games);
                }
                Ok(Message::End(batches, failure)) => self.end = Some((batches, failure)),
                Ok(Message::Panicked(panic)) => panic::resume_unwind(panic),
                // Every thread is gone without an end: only after a panic already passed on.
                Err(_) => return None,
            }
        }
    }
}
