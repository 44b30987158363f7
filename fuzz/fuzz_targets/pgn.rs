//! The PGN reader on whole files: it ends, never panics, reads the same games and errors from
//! a buffer, from a stream cut into small pieces and with two threads in small chunks, skipping
//! a game (from such a stream) ends where reading it ends, and every game it reads is written
//! back as PGN that reads to the same game (a fixed point of write -> read -> write). Read as
//! any game, the chess games are the same, and each variant game writes PGN that reads back to
//! it.
#![no_main]

use std::io::{self, Read};

use chesscore_core::pgn::{ParallelReader, PgnReader, ReaderOptions, Source};
use chesscore_core::variant::AnyGame;
use chesscore_core::Game;
use libfuzzer_sys::fuzz_target;

/// A stream handing out at most `piece` bytes per read, to cross every buffer boundary.
struct Pieces<'a> {
    data: &'a [u8],
    piece: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.piece.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Everything the reader reports, game by game: a written game, or an error with its location.
fn outcomes<S: Source>(mut reader: PgnReader<S>, limit: usize) -> Vec<Result<Game, String>> {
    let mut out = Vec::new();
    loop {
        assert!(out.len() <= limit, "the reader reported more games than the input can hold");
        match reader.next_game() {
            Ok(Some(game)) => out.push(Ok(game)),
            Ok(None) => return out,
            Err(e) => out.push(Err(e.to_string())),
        }
    }
}

/// Skips and reads game after game in step: after each game both read whole, the two stand at
/// the same place (a broken game's rest is skipped as the next one is read).
fn skipping_ends_where_reading_ends<S: Source>(mut skipping: PgnReader<S>, data: &[u8], limit: usize) {
    let mut reading = PgnReader::from_bytes(data);
    for _ in 0..=limit {
        let skipped = skipping.skip_game();
        let read = reading.next_game();
        assert_eq!(matches!(skipped, Ok(true) | Err(_)), matches!(read, Ok(Some(_)) | Err(_)), "games differ");
        if let (Ok(skipped), Ok(read)) = (skipped, read) {
            assert_eq!(
                (skipping.bytes_read(), skipping.location(), skipping.games_read()),
                (reading.bytes_read(), reading.location(), reading.games_read()),
                "skipping and reading stand apart"
            );
            if !skipped || read.is_none() {
                return;
            }
        }
    }
    panic!("more games than the input can hold");
}

/// What two threads read, the input in chunks of `chunk` bytes (so that batches of games start
/// and meet anywhere).
fn read_in_parallel(data: &[u8], chunk: usize, limit: usize) -> Vec<Result<Game, String>> {
    let reader = ParallelReader::records(io::Cursor::new(data.to_vec()), 2, ReaderOptions::default());
    let out: Vec<_> = reader.with_chunk_size(chunk).take(limit + 1).map(|r| r.map_err(|e| e.to_string())).collect();
    assert!(out.len() <= limit, "the threads reported more games than the input can hold");
    out
}

/// `next_any_game` against `next_game`'s `chess` outcomes, game by game: the same chess games,
/// variant games (which `next_game` refuses) where `next_game` failed, and each variant game
/// written as PGN that reads back to the same game (a fixed point).
fn any_games_agree(data: &[u8], chess: &[Result<Game, String>], limit: usize) {
    let mut reader = PgnReader::from_bytes(data);
    let mut chess = chess.iter();
    for _ in 0..=limit {
        let expected = chess.next();
        match reader.next_any_game() {
            Ok(None) => {
                assert!(expected.is_none(), "next_any_game ended before next_game");
                return;
            }
            Ok(Some(AnyGame::Chess(game))) => {
                assert_eq!(expected.map(summary), Some(Ok(game.to_pgn())), "a chess game read differently");
            }
            Ok(Some(AnyGame::Variant(game))) => {
                assert!(matches!(expected, Some(Err(_))), "next_game read a variant game");
                let pgn = game.to_pgn();
                let read = PgnReader::from_bytes(pgn.as_bytes()).next_any_game();
                let Ok(Some(AnyGame::Variant(read))) = read else { panic!("written variant PGN does not read back: {pgn}") };
                assert!(read.moves().eq(game.moves()), "{pgn}");
                assert_eq!(read.position(), game.position(), "{pgn}");
                assert_eq!(read.to_pgn(), pgn, "writing a variant game is not a fixed point");
            }
            Err(_) => assert!(expected.is_some(), "next_any_game reported more games"),
        }
    }
    panic!("more games than the input can hold");
}

fn summary(outcome: &Result<Game, String>) -> Result<String, String> {
    outcome.as_ref().map(Game::to_pgn).map_err(Clone::clone)
}

fuzz_target!(|data: &[u8]| {
    let Some((&piece, data)) = data.split_first() else { return };
    // A game needs at least a move or a result token, so games are fewer than bytes.
    let limit = data.len() + 1;
    let from_buffer = outcomes(PgnReader::from_bytes(data), limit);
    let stream = Pieces { data, piece: usize::from(piece % 16) + 1 };
    let from_stream = outcomes(PgnReader::new(stream), limit);
    assert_eq!(
        from_buffer.iter().map(summary).collect::<Vec<_>>(),
        from_stream.iter().map(summary).collect::<Vec<_>>(),
        "buffer and stream readings differ"
    );
    skipping_ends_where_reading_ends(PgnReader::new(Pieces { data, piece: usize::from(piece % 16) + 1 }), data, limit);
    // The input in 1 to 128 chunks.
    let parallel = read_in_parallel(data, (data.len() >> (piece % 8)).max(1), limit);
    assert_eq!(
        from_buffer.iter().map(summary).collect::<Vec<_>>(),
        parallel.iter().map(summary).collect::<Vec<_>>(),
        "one reader and two threads read differently"
    );
    any_games_agree(data, &from_buffer, limit);
    for game in from_buffer.into_iter().flatten() {
        let pgn = game.to_pgn();
        let mut again = PgnReader::from_bytes(pgn.as_bytes());
        let read = again.next_game().unwrap_or_else(|e| panic!("written PGN does not read back: {e}\n{pgn}"));
        let read = read.expect("written PGN holds a game");
        assert!(read.moves().eq(game.moves()), "{pgn}");
        assert_eq!(read.position(), game.position(), "{pgn}");
        assert_eq!(read.to_pgn(), pgn, "writing is not a fixed point");
        assert!(matches!(again.next_game(), Ok(None)), "{pgn}");
    }
});
