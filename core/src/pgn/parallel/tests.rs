//! The threads' games against one reader's, and the memory they hold.

use super::*;

/// Copies of a game, without end.
struct Endless(&'static [u8], usize);

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        for b in buf.iter_mut() {
            *b = self.0[self.1 % self.0.len()];
            self.1 += 1;
        }
        Ok(buf.len())
    }
}

/// Each game mapped in the threads is the one the serial reader reads, broken games (and
/// their numbers) included, wherever the batches meet.
#[test]
fn mapped_records_are_the_serial_readers() {
    let pgn = "[Event \"a\"]\n\n1. e4 { c } e5 (1... c5) 2. Nf3 *\n\n1. d4 d5 2. Ke3 *\n\n[Event \"b\"]\n1. c4 1-0\n\n"
        .repeat(300);
    let serial: Vec<Result<String, String>> = PgnReader::from_bytes(pgn.as_bytes())
        .map(|game| game.map(|game| game.to_pgn()).map_err(|e| e.to_string()))
        .collect();
    assert_eq!(serial.len(), 900);
    for (threads, chunk) in [(1, 100_000), (2, 333), (4, 97)] {
        let reader =
            ParallelReader::map_records(io::Cursor::new(pgn.clone()), threads, ReaderOptions::default(), |game| {
                game.to_pgn()
            });
        let mapped: Vec<_> = reader.with_chunk_size(chunk).map(|game| game.map_err(|e| e.to_string())).collect();
        assert!(mapped == serial, "{threads} threads, chunks of {chunk}");
    }
}

/// However far the input goes, with or without lines where batches start, and however
/// slowly the games are taken, the chunks kept and the games waiting stay within the window.
#[test]
fn memory_stays_bounded() {
    for game in [&b"1. e4 e5 2. Nf3 *\n\n"[..], b"[Event \"e\"]\n\n1. e4 e5 2. Nf3 *\n\n"] {
        let (threads, chunk) = (3, 1000);
        let mut reader = ParallelReader::records(Endless(game, 0), threads, ReaderOptions::default());
        reader = reader.with_chunk_size(chunk);
        let window = threads as u64 * CHUNKS_PER_THREAD;
        let most_games = (window as usize + 3) * chunk / game.len();
        for _ in 0..30 {
            assert!(reader.by_ref().take(2000).all(|game| game.is_ok()));
            // Time for the threads to run ahead.
            thread::sleep(std::time::Duration::from_millis(5));
            let Mode::Records(records) = &mut reader.mode else { unreachable!() };
            let state = records.batches().shared.as_ref().unwrap().lock();
            assert!(state.chunks.len() as u64 <= window + 1, "{} chunks kept", state.chunks.len());
            let waiting: usize = state.batches.values().flat_map(|batch| &batch.pieces).map(Piece::games).sum();
            assert!(waiting <= most_games, "{waiting} games waiting");
        }
    }
}
