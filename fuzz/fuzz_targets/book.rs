//! Polyglot books: any bytes are a book or a clear error, never a panic; and arbitrary entries
//! filed under the keys of the seed positions look up to legal moves only, in file order, with
//! the weights asked for, and every choice picks one of them.
#![no_main]

use chesscore_core::polyglot::{merge, Book, BookError, BookMove, Choice, LookupOptions, RawEntry, ENTRY_SIZE};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    match Book::from_bytes(data.to_vec()) {
        Ok(book) => {
            assert!(data.len() % ENTRY_SIZE == 0 && !data.is_empty());
            assert!(book.entries().zip(book.entries().skip(1)).all(|(a, b)| a.key <= b.key));
            assert_eq!(book.as_bytes(), data);
        }
        Err(BookError::Empty) => assert!(data.is_empty()),
        Err(BookError::Length { len }) => assert!(len % 16 != 0 && len == data.len() as u64),
        Err(BookError::Unsorted { entry, key, previous }) => assert!(entry > 0 && key < previous),
        Err(other) => panic!("unexpected {other}"),
    }
    // The first 64 entries' worth of bytes as entries of the seed positions (the key chooses
    // one), so that lookups find them.
    let positions: Vec<_> = (0..=255u8).step_by(37).map(common::position).collect();
    let mut entries: Vec<RawEntry> = data
        .chunks_exact(ENTRY_SIZE)
        .take(64)
        .map(|bytes| {
            let raw = RawEntry::from_bytes(bytes.try_into().unwrap());
            RawEntry { key: positions[(raw.key % positions.len() as u64) as usize].zobrist(), ..raw }
        })
        .collect();
    entries.sort_by_key(|e| e.key);
    let book = Book::from_entries(&entries).expect("sorted entries make a book");
    let min_weight = data.first().map_or(1, |&b| u16::from(b % 4));
    for pos in &positions {
        let legal = pos.legal_moves();
        let options = LookupOptions { min_weight, exclude: &legal.as_slice()[..legal.len().min(2)] };
        let found: Vec<_> = book.lookup_with(pos, options).collect();
        let stored: Vec<&RawEntry> = entries.iter().filter(|e| e.key == pos.zobrist()).collect();
        let mut rest = stored.iter();
        for entry in &found {
            assert!(legal.contains(&entry.mv) && !options.exclude.contains(&entry.mv));
            assert!(entry.weight >= min_weight);
            // In file order: each found entry is a later stored entry naming its move.
            assert!(rest.any(|e| e.mv.to_move(pos) == Some(entry.mv) && e.weight == entry.weight));
            assert_eq!(BookMove::from_move(entry.mv).to_move(pos), Some(entry.mv));
        }
        for (choice, random) in [(Choice::Best, 0), (Choice::Uniform, u64::MAX), (Choice::Weighted, 0x9e37_79b9)] {
            let picked = book.lookup_with(pos, options).choose(choice, random);
            assert!(picked.is_none_or(|p| found.contains(&p)));
            assert_eq!(picked.is_some(), found.iter().any(|e| choice != Choice::Weighted || e.weight > 0));
        }
    }
    let merged = merge(&book, &book).expect("a merge of small books");
    assert!(merged.len() <= book.len());
    Book::from_entries(&merged).expect("a merge is in key order");
});
