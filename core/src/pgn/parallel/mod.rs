//! Reading one PGN input with several threads.
//!
//! The input is read in chunks of a fixed size, and in each chunk the first line that looks like
//! the start of a game's tags ([`guess_game_start`]) is taken as the start of a batch of games.
//! A thread reads a batch from there as one reader would, on into the chunks after it, until a
//! game of it ends exactly where a later batch starts, or the input ends. The first batch
//! starts where the input does, so it is what one reader reads; a batch that starts where an
//! exact one ended is exact too. The games come out along that chain of batches: a batch whose
//! start was a wrong guess (a tag line inside a comment) is one that a reading went past, and
//! its games are dropped. No thread looks for where games end before the games are read: with
//! n threads the input is read about n times as fast as with one.

use std::any::Any;
use std::collections::{BTreeMap, VecDeque};
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use super::builder::{AnyRecordBuilder, Rebuild, RecordBuilder};
use super::error::{Location, PgnError};
use super::reader::PgnReader;
use super::recording::Recording;
use super::visitor::{ReaderOptions, Visitor};
use crate::game::Game;
use crate::variant::AnyGame;

mod input;

pub use input::split_points;
use input::{ChunkSource, Input, LineState};

/// The size of the chunks the input is read in, and so about that of a batch, by default: large
/// enough that starting a reader and handing over its games cost little next to reading them,
/// small enough to spread a file over the threads.
const DEFAULT_CHUNK_SIZE: usize = 256 * 1024;

/// Chunks per thread that may be read from the one the head batch (the oldest not delivered)
/// has come to: memory stays bounded by about that much input and its games.
const CHUNKS_PER_THREAD: u64 = 3;

/// The most threads a [`ParallelReader`] starts: more are as many (a thread per core is
/// enough to read at the speed of the input; a count asked for by mistake, such as
/// `u32::MAX`, would otherwise spawn threads until the system refuses).
pub const MAX_THREADS: usize = 256;

/// Games of one input read by several threads, as an iterator in the order of the input.
///
/// The items are those of a [`PgnReader`] over the same input with the same options, in the
/// same order: a [`Game`] per game ([`ParallelReader::records`]), an [`AnyGame`] of chess or of
/// a lichess variant ([`ParallelReader::any_records`]) or a visitor's output
/// ([`ParallelReader::visiting`]), and each broken game's [`PgnError`] with its game number,
/// location in the whole input and partial game, a read error included.
///
/// The input is read in chunks (of 256 KiB; see [`ParallelReader::with_chunk_size`]). The
/// threads start a batch of games in each chunk where a line looks like a game's first tag, and
/// read it as one reader would from there until one of its games ends where the next batch
/// starts: that confirms the next batch. A batch whose start a reading went past (a tag line
/// inside a comment, say) is dropped, and the reading that went past it goes on to the next
/// batch it meets.
///
/// The threads do not build the records: they record each game's events (tags, moves as
/// written, comments...) in buffers that go back to them once replayed, and the
/// iterator builds each record from them as it is taken. A record is so allocated by the thread
/// that takes it, and most often freed there, which memory allocators serve from per-thread
/// caches (memory freed by another thread than the one that allocated it costs them locks).
///
/// Memory stays bounded: the threads read no further than a few chunks per thread beyond where
/// the oldest batch not delivered has come to, and that batch's reading waits while its games
/// are not taken. The threads start with the first item; dropping the reader stops them.
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
    mode: Mode<T>,
}

enum Mode<T> {
    /// The visitors' outputs, as the threads made them.
    Visiting(Visiting<T>),
    /// Records built in the caller's thread from the threads' recordings (`T` is [`Game`] or
    /// [`AnyGame`]). Behind a trait object, so that a program reading chess games only does not
    /// build the variant games' replay: that made the compiler inline less of the chess one.
    Records(Box<dyn RecordItems<T> + Send>),
}

/// [`Records`] of any builder, as the iterator's items.
trait RecordItems<T> {
    fn next(&mut self) -> Option<Result<T, PgnError>>;

    /// The batches the records are replayed from.
    fn batches(&mut self) -> &mut Batches<Recording>;
}

/// The items of [`ParallelReader::visiting`].
struct Visiting<T> {
    batches: Batches<Outputs<T>>,
    /// The games of the piece being delivered, and how many games came before it.
    current: std::vec::IntoIter<Result<T, PgnError>>,
    games_before: u64,
}

/// A piece of the visitors' outputs.
type Outputs<T> = Vec<Result<T, PgnError>>;

/// The items of [`ParallelReader::records`] and [`ParallelReader::any_records`].
struct Records<R> {
    batches: Batches<Recording>,
    /// The piece being replayed, and how many games came before it.
    current: Option<(Recording, u64)>,
    /// What builds the records, as [`PgnReader::next_game`] (or [`PgnReader::next_any_game`])
    /// builds them.
    builder: R,
}

/// What the threads hand over: the games read of a piece of a batch. Kept to be used again
/// once its games are delivered (or dropped), emptied.
trait Piece: Default {
    /// How many games it holds.
    fn games(&self) -> usize;

    /// Drops its games.
    fn clear(&mut self);
}

impl<T> Piece for Outputs<T> {
    fn games(&self) -> usize {
        self.len()
    }

    fn clear(&mut self) {
        Vec::clear(self);
    }
}

impl Piece for Recording {
    fn games(&self) -> usize {
        self.len()
    }

    fn clear(&mut self) {
        Recording::clear(self);
    }
}

/// The reading of an input by threads: the pieces of games they hand over, in the order of
/// the input.
struct Batches<P> {
    /// What the threads share, once they started.
    shared: Option<Arc<Shared<P>>>,
    /// Starts the threads, reading in chunks of the given size.
    start: Option<StartThreads<P>>,
    chunk_size: usize,
    /// Games (broken ones included) of the batches delivered before the one being delivered:
    /// its readers count from its start.
    games_before: u64,
    ended: bool,
    /// Pieces delivered and emptied, for the threads to use again.
    spent: Vec<P>,
}

type StartThreads<P> = Box<dyn FnOnce(usize) -> Arc<Shared<P>> + Send>;

/// What a thread reads a batch with.
type Reader<P> = PgnReader<ChunkSource<P>>;

/// What reads the next game of a batch as a `G` ([`PgnReader::next_game`] or
/// [`PgnReader::next_any_game`]).
type ReadGame<P, G> = fn(&mut Reader<P>) -> Result<Option<G>, PgnError>;

impl ParallelReader<Game> {
    /// Reads `input` with `threads` threads (at least 1, at most [`MAX_THREADS`]), each game as a [`Game`]
    /// ([`PgnReader::next_game`]).
    pub fn records(input: impl Read + Send + 'static, threads: usize, options: ReaderOptions) -> Self {
        let batches = Batches::start(input, threads, options, || {
            |reader: &mut Reader<Recording>, piece: &mut Recording| piece.record_game(reader, false)
        });
        let records = Records { batches, current: None, builder: RecordBuilder::default() };
        ParallelReader { mode: Mode::Records(Box::new(records)) }
    }
}

impl ParallelReader<AnyGame> {
    /// Reads `input` with `threads` threads (at least 1, at most [`MAX_THREADS`]), each game as
    /// an [`AnyGame`], of chess or of a lichess variant ([`PgnReader::next_any_game`]): the same
    /// games, broken ones and their partial games included, in the same order.
    ///
    /// ```
    /// use chesscore_core::pgn::{ParallelReader, PgnReader, ReaderOptions};
    /// use chesscore_core::variant::Variant;
    ///
    /// use std::io::Cursor;
    ///
    /// let pgn = "[Variant \"Atomic\"]\n\n1. e4 d5 2. exd5 *\n\n1. d4 d5 *\n\n".repeat(1000);
    /// let games: Vec<_> = ParallelReader::any_records(Cursor::new(pgn), 2, ReaderOptions::default())
    ///     .map(|game| game.unwrap().variant())
    ///     .collect();
    /// assert_eq!((games.len(), games[0], games[1999]), (2000, Variant::Atomic, Variant::Chess));
    /// ```
    pub fn any_records(input: impl Read + Send + 'static, threads: usize, options: ReaderOptions) -> Self {
        let batches = Batches::start(input, threads, options, || {
            |reader: &mut Reader<Recording>, piece: &mut Recording| piece.record_game(reader, true)
        });
        let records = Records { batches, current: None, builder: AnyRecordBuilder::default() };
        ParallelReader { mode: Mode::Records(Box::new(records)) }
    }
}

impl<T: Send + 'static> ParallelReader<T> {
    /// Reads `input` with `threads` threads (at least 1, at most [`MAX_THREADS`]), each reading its games with a visitor
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
        let batches = Batches::start(input, threads, options, move || {
            let mut visitor = make_visitor();
            move |reader: &mut Reader<Outputs<T>>, piece: &mut Outputs<T>| {
                let game = reader.read_game(&mut visitor).transpose();
                game.map(|game| piece.push(game)).is_some()
            }
        });
        let visiting = Visiting { batches, current: Vec::new().into_iter(), games_before: 0 };
        ParallelReader { mode: Mode::Visiting(visiting) }
    }
}

impl<T: Send + 'static> ParallelReader<T> {
    /// Reads `input` with `threads` threads (at least 1, at most [`MAX_THREADS`]), each game as
    /// a [`Game`] ([`PgnReader::next_game`]) handed to `map` in the thread that read it; the
    /// items are what `map` made, in input order. For work on whole games that should run in
    /// the threads too (filtering them, writing them as text), where [`ParallelReader::records`]
    /// builds each game in the caller's thread.
    ///
    /// ```
    /// use chesscore_core::pgn::{ParallelReader, ReaderOptions};
    ///
    /// use std::io::Cursor;
    ///
    /// let pgn = "1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 d5 2. Ke3 *\n\n1. c4 *\n".repeat(1000);
    /// let plies: Vec<_> =
    ///     ParallelReader::map_records(Cursor::new(pgn), 2, ReaderOptions::default(), |game| game.moves().len())
    ///         .collect();
    /// assert_eq!((plies.len(), plies[0].as_ref().ok(), plies[2999].as_ref().ok()), (3000, Some(&4), Some(&1)));
    /// assert_eq!(plies[1].as_ref().unwrap_err().game, 2);
    /// ```
    pub fn map_records<F>(input: impl Read + Send + 'static, threads: usize, options: ReaderOptions, map: F) -> Self
    where
        F: Fn(Game) -> T + Send + Sync + 'static,
    {
        Self::mapping(input, threads, options, PgnReader::next_game, map)
    }

    /// [`ParallelReader::map_records`] for games of chess and of the lichess variants, each an
    /// [`AnyGame`] ([`PgnReader::next_any_game`]).
    pub fn map_any_records<F>(input: impl Read + Send + 'static, threads: usize, options: ReaderOptions, map: F) -> Self
    where
        F: Fn(AnyGame) -> T + Send + Sync + 'static,
    {
        Self::mapping(input, threads, options, PgnReader::next_any_game, map)
    }

    /// Each game as `read` gives it, handed to `map` in the thread that read it.
    fn mapping<G: 'static, F>(
        input: impl Read + Send + 'static,
        threads: usize,
        options: ReaderOptions,
        read: ReadGame<Outputs<T>, G>,
        map: F,
    ) -> Self
    where
        F: Fn(G) -> T + Send + Sync + 'static,
    {
        let map = Arc::new(map);
        let batches = Batches::start(input, threads, options, move || {
            let map = map.clone();
            move |reader: &mut Reader<Outputs<T>>, piece: &mut Outputs<T>| {
                let game = read(reader).transpose();
                game.map(|game| piece.push(game.map(&*map))).is_some()
            }
        });
        let visiting = Visiting { batches, current: Vec::new().into_iter(), games_before: 0 };
        ParallelReader { mode: Mode::Visiting(visiting) }
    }
}

impl<T> ParallelReader<T> {
    /// The same reader, reading the input in chunks of `bytes` bytes (at least 1) instead of
    /// 256 KiB: a batch starts in each chunk that holds a line like a game's first tag. Small
    /// chunks test where batches meet; they read slowly. No use once the first item was taken.
    pub fn with_chunk_size(mut self, bytes: usize) -> Self {
        let chunk_size = match &mut self.mode {
            Mode::Visiting(visiting) => &mut visiting.batches.chunk_size,
            Mode::Records(records) => &mut records.batches().chunk_size,
        };
        *chunk_size = bytes.max(1);
        self
    }
}

impl<T> Iterator for ParallelReader<T> {
    type Item = Result<T, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.mode {
            Mode::Visiting(visiting) => visiting.next(),
            Mode::Records(records) => records.next(),
        }
    }
}

impl<T> Visiting<T> {
    fn next(&mut self) -> Option<Result<T, PgnError>> {
        loop {
            if let Some(game) = self.current.next() {
                return Some(game.map_err(|mut e| {
                    e.game += self.games_before;
                    e
                }));
            }
            let (piece, games_before) = self.batches.next_piece()?;
            (self.current, self.games_before) = (piece.into_iter(), games_before);
        }
    }
}

impl<R: Rebuild> RecordItems<R::Record> for Records<R> {
    fn batches(&mut self) -> &mut Batches<Recording> {
        &mut self.batches
    }

    fn next(&mut self) -> Option<Result<R::Record, PgnError>> {
        loop {
            if let Some((piece, games_before)) = &mut self.current {
                if let Some(game) = piece.replay(&mut self.builder, *games_before) {
                    return Some(game);
                }
                let (piece, _) = self.current.take()?;
                self.batches.give_back(piece);
            }
            self.current = Some(self.batches.next_piece()?);
        }
    }
}

impl<P: Piece + Send + 'static> Batches<P> {
    /// The threads, once started, read with `make_take` in each what takes one game from a
    /// batch's reader into a piece, false at the end of the batch's input.
    fn start<M, Take>(input: impl Read + Send + 'static, threads: usize, options: ReaderOptions, make_take: M) -> Self
    where
        M: Fn() -> Take + Send + Sync + 'static,
        Take: FnMut(&mut Reader<P>, &mut P) -> bool,
    {
        let threads = threads.clamp(1, MAX_THREADS);
        let input: Box<dyn Read + Send> = Box::new(input);
        let start = move |chunk_size| {
            let shared = Arc::new(Shared::new(input, chunk_size, threads as u64 * CHUNKS_PER_THREAD));
            let make_take = Arc::new(make_take);
            for _ in 0..threads {
                let (shared, make_take) = (shared.clone(), make_take.clone());
                thread::spawn(move || guarded(&shared, || work(&shared, options, make_take())));
            }
            shared
        };
        Batches {
            shared: None,
            start: Some(Box::new(start)),
            chunk_size: DEFAULT_CHUNK_SIZE,
            games_before: 0,
            ended: false,
            spent: Vec::new(),
        }
    }
}

impl<P: Piece> Batches<P> {
    /// Takes back a piece delivered, for the threads to use again (with the next piece taken).
    fn give_back(&mut self, mut piece: P) {
        piece.clear();
        self.spent.push(piece);
    }

    /// The next piece of games, and how many games (broken ones included) came before it;
    /// `None` at the end.
    fn next_piece(&mut self) -> Option<(P, u64)> {
        if self.ended {
            return None;
        }
        let (start, chunk_size) = (self.start.take(), self.chunk_size);
        let shared = self.shared.get_or_insert_with(|| start.expect("threads to start")(chunk_size)).clone();
        let mut state = shared.lock();
        state.spare_pieces.append(&mut self.spent);
        loop {
            if let Some(panic) = state.panic.take() {
                drop(state);
                panic::resume_unwind(panic);
            }
            let head = state.head;
            let Some(batch) = state.batches.get_mut(&head) else {
                state = shared.wait(&shared.to_iterator, state);
                continue;
            };
            if let Some(piece) = batch.pieces.pop_front() {
                // Its reading may wait for this.
                if batch.pieces.len() == 1 {
                    shared.to_workers.notify_all();
                }
                return Some((piece, self.games_before));
            }
            let Some((next, games)) = batch.end else {
                state = shared.wait(&shared.to_iterator, state);
                continue;
            };
            self.games_before += games;
            match next {
                Some(next) => state.go_to(next),
                None => {
                    self.ended = true;
                    state.stopped = true;
                }
            }
            shared.to_workers.notify_all();
            if self.ended {
                return None;
            }
        }
    }
}

/// Runs `body`, handing a panic to the caller's thread.
fn guarded<P>(shared: &Shared<P>, body: impl FnOnce()) {
    if let Err(panic) = panic::catch_unwind(AssertUnwindSafe(body)) {
        shared.lock().panic.get_or_insert(panic);
        shared.to_iterator.notify_all();
    }
}

/// A reading thread: claims a batch, reads it and hands its games over, until the input ends.
fn work<P: Piece, Take>(shared: &Arc<Shared<P>>, options: ReaderOptions, mut take: Take)
where
    Take: FnMut(&mut Reader<P>, &mut P) -> bool,
{
    // The piece games are read into: emptied pieces come back from the caller.
    let mut piece = P::default();
    'batches: while let Some(claim) = shared.claim() {
        let (batch, start, chunk_size) = (claim.batch, claim.start, claim.chunk_size as u64);
        let source = ChunkSource::new(shared.clone(), claim);
        let mut reader = PgnReader::with_source(source).with_options(options).starting_at(start);
        // Games of a batch dropped may be left in it.
        piece.clear();
        // Where the games handed over so far end.
        let mut handed = start.offset;
        let next = loop {
            if let Some(at) = reader.next_game_start() {
                // One reader would start a game here: the batch ends if the next one starts here.
                if at > start.offset {
                    if let Some(next) = reader.source_at_position().batch_at(at) {
                        break Some(next);
                    }
                }
                if at - handed >= chunk_size && piece.games() > 0 {
                    if !shared.hand_over(batch, &mut piece) {
                        continue 'batches;
                    }
                    handed = at;
                }
            }
            if !take(&mut reader, &mut piece) {
                break None;
            }
        };
        let count = reader.games_read();
        // Its chunk goes back first, for the store to use again.
        drop(reader);
        shared.finish(batch, &mut piece, next, count);
    }
}

impl<P> Drop for Batches<P> {
    fn drop(&mut self) {
        if let Some(shared) = &self.shared {
            shared.lock().stopped = true;
            shared.to_workers.notify_all();
        }
    }
}

/// A chunk of the input.
struct Chunk {
    bytes: Vec<u8>,
    /// Where a batch starts in it, if anywhere (in the first chunk, where the input starts).
    start: Option<Location>,
    /// Set when the input ends after it: with the error that ended it, if any.
    end: Option<Option<Arc<io::Error>>>,
}

/// A batch of games: the games from a chunk's guessed game start to the next batch's start.
struct Batch<P> {
    /// The chunk its reading has come to.
    at: u64,
    /// Its games read and not yet delivered, in the pieces they were handed over in.
    pieces: VecDeque<P>,
    /// Once read: the batch starting where it ends (`None`: it ends with the input), and how
    /// many games its reader counted.
    end: Option<(Option<u64>, u64)>,
}

/// A batch a thread is to read: it starts at `start`, in chunk `batch`.
struct Claim {
    batch: u64,
    start: Location,
    chunk: Arc<Chunk>,
    chunk_size: usize,
}

/// What the threads and the iterator share.
struct Shared<P> {
    state: Mutex<State<P>>,
    /// Told when the head batch has games or has ended, or a thread panicked.
    to_iterator: Condvar,
    /// Told when the window moves, a chunk is read, a claim is made, a batch is dropped, the
    /// head batch's games are taken, or the reader stops.
    to_workers: Condvar,
}

struct State<P> {
    /// The input, while no thread reads a chunk of it.
    input: Option<Input>,
    chunk_size: usize,
    /// How many chunks may be read from the one the head batch has come to.
    window: u64,
    /// The chunks from index `first` on, as long as a batch may need them.
    chunks: VecDeque<Arc<Chunk>>,
    first: u64,
    /// The index of the chunk the input ends in, once read.
    last: Option<u64>,
    /// Buffers of chunks no longer needed, to read chunks into without allocating them.
    spare: Vec<Vec<u8>>,
    /// Pieces emptied, to read games into without allocating them.
    spare_pieces: Vec<P>,
    /// The chunk in which to look for the next batch to start.
    next_claim: u64,
    /// The batches claimed and not yet delivered or dropped, by the index of their chunk.
    batches: BTreeMap<u64, Batch<P>>,
    /// The batch whose games come next: one known to start where one reader starts a game.
    head: u64,
    /// The iterator is dropped or has ended: the threads stop.
    stopped: bool,
    /// A thread's panic, for the caller's thread.
    panic: Option<Box<dyn Any + Send>>,
}

impl<P> Shared<P> {
    fn new(inner: Box<dyn Read + Send>, chunk_size: usize, window: u64) -> Self {
        let input = Input { inner, offset: 0, line: 1, lines: LineState::default() };
        let state = State {
            input: Some(input),
            chunk_size,
            window: window.max(2),
            chunks: VecDeque::new(),
            first: 0,
            last: None,
            spare: Vec::new(),
            spare_pieces: Vec::new(),
            next_claim: 0,
            batches: BTreeMap::new(),
            head: 0,
            stopped: false,
            panic: None,
        };
        Shared { state: Mutex::new(state), to_iterator: Condvar::new(), to_workers: Condvar::new() }
    }

    fn lock(&self) -> MutexGuard<'_, State<P>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'a>(&self, condvar: &Condvar, state: MutexGuard<'a, State<P>>) -> MutexGuard<'a, State<P>> {
        condvar.wait(state).unwrap_or_else(PoisonError::into_inner)
    }
}

impl<P: Piece> Shared<P> {
    /// Chunk `index`, read from the input if need be (the threads take turns at it), once it is
    /// in the window; `None` when `wanted` turns false, the reader stopped, or the input ended
    /// before it.
    fn chunk<'a>(
        &'a self,
        mut state: MutexGuard<'a, State<P>>,
        index: u64,
        wanted: impl Fn(&State<P>) -> bool,
    ) -> (MutexGuard<'a, State<P>>, Option<Arc<Chunk>>) {
        loop {
            if state.stopped || !wanted(&state) || state.last.is_some_and(|last| index > last) {
                return (state, None);
            }
            let stored = index.checked_sub(state.first).expect("a chunk still needed is kept");
            if let Some(chunk) = state.chunks.get(stored as usize).cloned() {
                return (state, Some(chunk));
            }
            if index < state.window_end() {
                if let Some(mut input) = state.input.take() {
                    let (size, buffer) = (state.chunk_size, state.spare.pop());
                    drop(state);
                    let chunk = input.read_chunk(size, buffer);
                    state = self.lock();
                    if chunk.end.is_some() {
                        state.last = Some(state.first + state.chunks.len() as u64);
                    }
                    state.chunks.push_back(Arc::new(chunk));
                    state.input = Some(input);
                    self.to_workers.notify_all();
                    continue;
                }
            }
            state = self.wait(&self.to_workers, state);
        }
    }

    /// The next batch to read, `None` once there is none.
    fn claim(&self) -> Option<Claim> {
        let mut state = self.lock();
        loop {
            let index = state.next_claim;
            let chunk;
            (state, chunk) = self.chunk(state, index, |state| state.next_claim == index);
            let Some(chunk) = chunk else {
                if state.stopped || state.last.is_some_and(|last| index > last) {
                    return None;
                }
                continue;
            };
            state.next_claim = index + 1;
            if let Some(start) = chunk.start {
                state.batches.insert(index, Batch { at: index, pieces: VecDeque::new(), end: None });
                let chunk_size = state.chunk_size;
                state.drop_unneeded();
                drop(state);
                self.to_workers.notify_all();
                return Some(Claim { batch: index, start, chunk, chunk_size });
            }
            state.drop_unneeded();
        }
    }

    /// Replaces `chunk`, chunk `index`, with the next one for the reading of `batch`, which
    /// released the input before offset `released`; false when the batch was dropped.
    fn next_chunk(&self, batch: u64, index: u64, chunk: &mut Arc<Chunk>, released: u64) -> bool {
        let mut state = self.lock();
        if batch == state.head {
            state.passed(released);
        }
        let (mut state, next) = self.chunk(state, index + 1, |state| state.batches.contains_key(&batch));
        let Some(next) = next else { return false };
        *chunk = next;
        if let Some(reading) = state.batches.get_mut(&batch) {
            reading.at = index + 1;
        }
        state.drop_unneeded();
        let head = batch == state.head;
        drop(state);
        // The window moved.
        if head {
            self.to_workers.notify_all();
        }
        true
    }

    /// Hands over the games of `batch` in `piece`, which takes an emptied piece's place; false
    /// when the batch was dropped or the reader stopped. Waits while the batch is the head and
    /// the caller has not taken the games before.
    fn hand_over(&self, batch: u64, piece: &mut P) -> bool {
        let mut state = self.lock();
        let spare = state.spare_pieces.pop();
        let Some(reading) = state.batches.get_mut(&batch) else { return false };
        reading.pieces.push_back(std::mem::replace(piece, spare.unwrap_or_default()));
        if batch == state.head {
            self.to_iterator.notify_all();
        }
        loop {
            let waiting = match state.batches.get(&batch) {
                _ if state.stopped => return false,
                None => return false,
                Some(reading) => reading.pieces.len(),
            };
            if batch != state.head || waiting < 2 {
                return true;
            }
            state = self.wait(&self.to_workers, state);
        }
    }

    /// `batch` is read: the last of its games in `piece` (which takes an emptied piece's
    /// place), the batch starting where it ends (`None`: the input ended), and how many games
    /// its reader counted.
    fn finish(&self, batch: u64, piece: &mut P, next: Option<u64>, count: u64) {
        let mut state = self.lock();
        let spare = if piece.games() > 0 { state.spare_pieces.pop() } else { None };
        let Some(reading) = state.batches.get_mut(&batch) else { return };
        if piece.games() > 0 {
            reading.pieces.push_back(std::mem::replace(piece, spare.unwrap_or_default()));
        }
        reading.end = Some((next, count));
        state.drop_unneeded();
        let head = batch == state.head;
        drop(state);
        if head {
            self.to_iterator.notify_all();
        }
    }
}

impl<P: Piece> State<P> {
    /// The end of the chunks that may be read: the window from the chunk the head batch has
    /// come to (its own reading is never held back).
    fn window_end(&self) -> u64 {
        self.batches.get(&self.head).map_or(self.head, |head| head.at) + self.window
    }

    /// The head batch's reading has gone past `offset` without ending: no game of one reader
    /// starts where the batches between them start (its reading checked every game start).
    fn passed(&mut self, offset: u64) {
        let (head, chunk) = (self.head, offset / self.chunk_size as u64);
        self.next_claim = self.next_claim.max(chunk);
        let spare = &mut self.spare_pieces;
        self.batches.retain(|&index, batch| {
            let kept = index <= head || index >= chunk;
            if !kept {
                spare_pieces(spare, batch);
            }
            kept
        });
    }

    /// The head batch ended where batch `next` starts: its games come next, the batches before
    /// it are dropped.
    fn go_to(&mut self, next: u64) {
        self.head = next;
        let kept = self.batches.split_off(&next);
        for mut batch in std::mem::replace(&mut self.batches, kept).into_values() {
            spare_pieces(&mut self.spare_pieces, &mut batch);
        }
        self.next_claim = self.next_claim.max(next);
        self.drop_unneeded();
    }

    /// Drops the chunks no batch may need: those before the next claim and before the chunk
    /// each batch being read has come to. Their buffers are kept for the next chunks, unless a
    /// reading still holds them.
    fn drop_unneeded(&mut self) {
        let reading = self.batches.values().filter(|batch| batch.end.is_none()).map(|batch| batch.at);
        let needed = reading.fold(self.next_claim, u64::min);
        while self.first < needed {
            let Some(chunk) = self.chunks.pop_front() else { break };
            self.first += 1;
            if let (Ok(chunk), true) = (Arc::try_unwrap(chunk), (self.spare.len() as u64) < self.window) {
                self.spare.push(chunk.bytes);
            }
        }
    }
}

/// Empties the pieces of `batch`, dropped, into `spare`.
fn spare_pieces<P: Piece>(spare: &mut Vec<P>, batch: &mut Batch<P>) {
    for mut piece in batch.pieces.drain(..) {
        piece.clear();
        spare.push(piece);
    }
}

#[cfg(test)]
mod tests;
