//! Every reader takes time linear in its input (the README promises it): reading an input eight
//! times as large takes under twelve times as long, with inputs large enough to be well above
//! the timer's noise. Growth is measured, not an absolute time. One test, so that the cases do
//! not run beside each other and disturb the timings.

use std::ffi::c_int;
use std::time::{Duration, Instant};

use chesscore_core::pgn::{Flow, PgnReader, ReaderOptions, Visitor};
use chesscore_core::{Epd, Outcome};

/// glibc moves a block it was asked to enlarge by remapping its pages when the block is large
/// enough to be mapped on its own, and copies it otherwise; the size from which it maps blocks
/// moves up as blocks are freed, so repeated readings would copy where one reading remaps. A
/// fixed threshold keeps every reading as the first.
fn map_large_blocks() {
    const M_MMAP_THRESHOLD: c_int = -3;
    extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    // SAFETY: mallopt only sets an allocator parameter; it is called before any timing.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    }
}

fn elapsed(run: impl FnOnce()) -> Duration {
    let start = Instant::now();
    run();
    start.elapsed()
}

/// Grows `n` from 1,000 until the input is at least `min_bytes`, then compares the best of five
/// readings of that and of eight times that, taken in turns so that both meet the allocator in
/// the same state. The sizes are small (a quarter of a MiB to start with), so that what a
/// reading builds stays near the per-core caches at both sizes: past them the time per item
/// grows with the memory's latency, which is not the reader's doing. A busy machine can slow a
/// reading down, so a ratio over the limit is measured again, up to three times: a reader that
/// is not linear fails every time (a quadratic one by far: 64x).
fn assert_linear(name: &str, min_bytes: usize, make: impl Fn(usize) -> String, read: impl Fn(&str)) {
    let mut n = 1_000;
    while make(n).len() < min_bytes {
        n *= 2;
    }
    let (small, large) = (make(n), make(8 * n));
    let mut ratios = Vec::new();
    for _ in 0..3 {
        let (mut base, mut big) = (Duration::MAX, Duration::MAX);
        for _ in 0..5 {
            base = base.min(elapsed(|| read(&small)));
            big = big.min(elapsed(|| read(&large)));
        }
        let ratio = big.as_secs_f64() / base.as_secs_f64();
        println!("{name}: n = {n}: {base:?}; 8n: {big:?} ({ratio:.1}x)");
        if ratio < 12.0 {
            return;
        }
        ratios.push(ratio);
    }
    panic!("{name}: reading {} items took {ratios:.1?} times as long as reading {n}", 8 * n);
}

/// Replays every move of every game of `pgn`, variations included, keeping nothing.
fn replay_pgn(pgn: &str) {
    struct Replay;
    impl Visitor for Replay {
        type Output = ();
        fn begin_variation(&mut self) -> Flow {
            Flow::Continue
        }
        fn end_game(&mut self, _: Option<Outcome>) {}
    }
    let mut reader = PgnReader::from_bytes(pgn.as_bytes()).with_options(options());
    while reader.read_game(&mut Replay).unwrap().is_some() {}
}

fn options() -> ReaderOptions {
    ReaderOptions {
        max_tag_len: usize::MAX,
        max_comment_len: usize::MAX,
        max_depth: usize::MAX,
        ..ReaderOptions::default()
    }
}

/// Reads every game of `pgn` into records, which must all be whole.
fn read_pgn(pgn: &str) {
    for game in PgnReader::from_bytes(pgn.as_bytes()).with_options(options()) {
        game.unwrap();
    }
}

#[test]
fn readers_take_linear_time() {
    map_large_blocks();
    type MakePgn = fn(usize) -> String;
    let pgn_inputs: [(&str, usize, MakePgn); 6] = [
        ("tags", 256 << 10, |n| {
            (0..n).map(|i| format!("[Tag{i} \"value {i}\"]\n")).collect::<String>() + "\n1. e4 *\n"
        }),
        ("comments", 256 << 10, |n| format!("1. e4 {} e5 *\n", "{ a comment } ".repeat(n))),
        ("NAGs", 256 << 10, |n| format!("1. e4 {} e5 *\n", "$1 ".repeat(n))),
        ("variations", 256 << 10, |n| format!("1. e4 {} e5 *\n", "( 1. d4 d5 ) ".repeat(n))),
        ("nested variations", 256 << 10, |n| format!("1. e4 {}{} *\n", "( 1. d4 ".repeat(n), ")".repeat(n))),
        // Knights out and back: a game as long as wanted, without an irreversible move.
        ("moves", 256 << 10, |n| {
            (0..n).map(|i| format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2)).collect::<String>() + "*\n"
        }),
    ];
    for (what, min_bytes, make) in pgn_inputs {
        assert_linear(&format!("PGN {what}, replayed"), min_bytes, make, replay_pgn);
        assert_linear(&format!("PGN {what}, into records"), min_bytes, make, read_pgn);
    }
    assert_linear(
        "EPD operations",
        256 << 10,
        |n| {
            let ops: String = (0..n).map(|i| format!(" c{i} \"comment {i}\";")).collect();
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -".to_string() + &ops
        },
        |line| assert_eq!(Epd::parse(line).unwrap().operations().len(), line.matches(';').count()),
    );
}
