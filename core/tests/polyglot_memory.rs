//! Building a book streams its input: memory follows the number of distinct (position, move)
//! pairs, not the size of the PGN. (Its own test binary: it counts the heap through the global
//! allocator, which other tests running beside it would disturb.)

use chesscore_test_support as common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};

use chesscore_core::pgn::PgnReader;
use chesscore_core::polyglot::{BookBuilder, BuildOptions};

/// The system allocator, keeping the bytes in use and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// `text` `times` over, read as a stream (never whole in memory).
struct Repeat<'a> {
    text: &'a [u8],
    times: usize,
    at: usize,
}

impl Read for Repeat<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.text.len() {
            if self.times <= 1 {
                return Ok(0);
            }
            self.times -= 1;
            self.at = 0;
        }
        let n = buf.len().min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The entries built from `text` read `times` over, the games read, and the peak heap bytes
/// above what was in use before.
fn build(text: &[u8], times: usize) -> (usize, u64, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut builder = BookBuilder::new(BuildOptions { max_ply: 1000, ..BuildOptions::default() });
    let summary = builder.add_pgn(&mut PgnReader::new(Repeat { text, times, at: 0 })).unwrap();
    let entries = builder.entries().unwrap().len();
    let peak = PEAK.load(Ordering::Relaxed) - base;
    assert!(entries > 1000, "{entries}");
    (entries, summary.games, peak)
}

#[test]
fn building_memory_follows_the_pairs_not_the_input() {
    let text = std::fs::read(common::data("pgn/dev_generated.pgn")).unwrap();
    // Enough games that the builder's batch of recent pairs (a million) fills and is merged.
    let (entries, games, small) = build(&text, 300);
    let (entries_5x, games_5x, large) = build(&text, 1500);
    assert_eq!((entries_5x, games_5x), (entries, games * 5));
    let megabytes = |copies: usize| (text.len() * copies) as f64 / 1e6;
    println!("{:.0} MB of PGN: peak {small} B; {:.0} MB: peak {large} B", megabytes(300), megabytes(1500));
    // The same pairs, so the same tallies; neither the batch nor the reader's buffer grows with
    // the input.
    assert!(
        large < small + small / 4,
        "{small} B for {:.0} MB of PGN, {large} B for five times as much",
        megabytes(300)
    );
}
