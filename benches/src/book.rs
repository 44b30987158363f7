//! Book group: Polyglot lookups against python-chess's `MemoryMappedReader.find_all`, and
//! building a book from the PGN corpus against a plain replay of it.
//!
//! * `lookup`: every position of the main lines of the 20 MB corpus (`pgn` group), looked up
//!   in the book built from that corpus (every position of the first 40 plies has entries) and,
//!   when the third-party test files are there, in `performance.bin`. python-chess (the Python
//!   of `$CHESSCORE_PYTHON`, else `python3`, with chess installed) looks up the first
//!   `PYTHON_POSITIONS` of the same positions, given as FENs and made into boards before the
//!   clock starts; both sides' entry counts must agree.
//! * `make`: `BookBuilder::add_pgn` over the corpus (default rules) against the `pgn` group's
//!   plain full replay of it (every main-line move parsed and played, nothing else).
//! * `rss`: the peak resident memory of building from the 20 MB and a 200 MB corpus, each in a
//!   child process of its own.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use chesscore_core::pgn::PgnReader;
use chesscore_core::polyglot::{Book, BookBuilder, BuildOptions};
use chesscore_core::{EnPassantMode, FenWriteOptions, Position};

use crate::harness::{abort, time, Config};
use crate::pgn;

/// Positions python-chess looks up (it takes about 20 µs a lookup).
const PYTHON_POSITIONS: usize = 100_000;

pub fn run(cfg: &Config) {
    match cfg.only.as_deref() {
        None => {
            lookup(cfg);
            make(cfg);
            rss();
        }
        Some("lookup") => lookup(cfg),
        Some("make") => make(cfg),
        Some("rss") => rss(),
        Some(other) => abort(&format!("book: --only expects `lookup`, `make` or `rss`, got `{other}`")),
    }
}

fn corpus(cfg: &Config) -> PathBuf {
    pgn::corpus(pgn::Style::Mixed, if cfg.quick { 4 } else { 20 })
}

fn build(path: &Path) -> Book {
    let mut builder = BookBuilder::new(BuildOptions::default());
    let mut reader = PgnReader::open(path).unwrap_or_else(|e| abort(&format!("{}: {e}", path.display())));
    builder.add_pgn(&mut reader).unwrap_or_else(|e| abort(&format!("book: {e}")));
    builder.build().unwrap_or_else(|e| abort(&format!("book: {e}")))
}

/// Every position of the main lines of the games of `path`.
fn positions(path: &Path) -> Vec<Position> {
    let mut positions = Vec::new();
    for game in PgnReader::open(path).unwrap_or_else(|e| abort(&format!("{}: {e}", path.display()))) {
        let record = game.unwrap_or_else(|e| abort(&format!("book: broken game in the corpus: {e}")));
        let game = &record;
        positions.extend((0..=game.moves().len()).filter_map(|ply| game.position_at(ply).copied()));
    }
    positions
}

/// Our lookups of every position: the entries found, the best time.
fn our_lookups(cfg: &Config, book: &Book, positions: &[Position]) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut found = 0;
    for _ in 0..cfg.reps {
        let (n, t) = time(|| positions.iter().map(|pos| book.lookup(pos).count() as u64).sum::<u64>());
        (found, best) = (n, best.min(t));
    }
    (found, best)
}

/// python-chess's `find_all` of every position: the entries found and the time, or why it did
/// not run.
fn python_lookups(book: &Path, positions: &[Position]) -> Result<(u64, Duration), String> {
    const SCRIPT: &str = r#"
import sys, time
import chess, chess.polyglot
boards = [chess.Board(line.rstrip("\n")) for line in sys.stdin]
with chess.polyglot.MemoryMappedReader(sys.argv[1]) as reader:
    start = time.perf_counter()
    found = sum(1 for board in boards for _ in reader.find_all(board))
    print(found, time.perf_counter() - start)
"#;
    let python = std::env::var_os("CHESSCORE_PYTHON").unwrap_or_else(|| "python3".into());
    let mut child = Command::new(&python)
        .args(["-c", SCRIPT])
        .arg(book)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", python.to_string_lossy()))?;
    let recorded = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, ..FenWriteOptions::default() };
    let fens: String = positions.iter().map(|pos| pos.to_fen_with(&recorded) + "\n").collect();
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(fens.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("failed").to_string());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut fields = text.split_whitespace();
    let found = fields.next().and_then(|f| f.parse().ok()).ok_or("no output")?;
    let seconds: f64 = fields.next().and_then(|f| f.parse().ok()).ok_or("no output")?;
    Ok((found, Duration::from_secs_f64(seconds)))
}

fn lookup(cfg: &Config) {
    let path = corpus(cfg);
    let all = positions(&path);
    let built = build(&path);
    let mut books = vec![("built from the corpus".to_string(), built, None)];
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/polyglot/performance.bin");
    if shared.is_file() {
        let book = Book::open(&shared).unwrap_or_else(|e| abort(&format!("{}: {e}", shared.display())));
        books.push(("performance.bin".to_string(), book, Some(shared)));
    }
    let sample = &all[..all.len().min(PYTHON_POSITIONS)];
    println!();
    println!("== book lookup (every position of {} main lines: {} positions) ==", path.display(), all.len());
    println!(
        "{:<22}  {:>10}  {:>10}  {:>12}  {:>12}  {:>10}",
        "book", "positions", "entries", "chesscore/s", "python/s", "ratio"
    );
    println!("{}", "-".repeat(86));
    let scratch = std::env::temp_dir().join("chesscore-bench-book.bin");
    for (name, book, file) in &books {
        let (found_all, t_all) = our_lookups(cfg, book, &all);
        let rate_all = all.len() as f64 / t_all.as_secs_f64();
        println!("{name:<22}  {:>10}  {found_all:>10}  {rate_all:>12.0}  {:>12}  {:>10}", all.len(), "", "");
        let (found, t) = our_lookups(cfg, book, sample);
        let file = match file {
            Some(file) => file.clone(),
            None => {
                book.save(&scratch).unwrap_or_else(|e| abort(&format!("{}: {e}", scratch.display())));
                scratch.clone()
            }
        };
        let ours = sample.len() as f64 / t.as_secs_f64();
        match python_lookups(&file, sample) {
            Ok((theirs_found, theirs_t)) => {
                if theirs_found != found {
                    abort(&format!("book: python-chess found {theirs_found} entries, chesscore {found}"));
                }
                let theirs = sample.len() as f64 / theirs_t.as_secs_f64();
                println!(
                    "{name:<22}  {:>10}  {found:>10}  {ours:>12.0}  {theirs:>12.0}  {:>9.1}x",
                    sample.len(),
                    ours / theirs
                );
            }
            Err(why) => {
                println!("{name:<22}  {:>10}  {found:>10}  {ours:>12.0}  python-chess not run: {why}", sample.len())
            }
        }
    }
}

fn make(cfg: &Config) {
    let path = corpus(cfg);
    let (mut replay, mut build_time) = (Duration::MAX, Duration::MAX);
    let mut entries = 0;
    let mut counts = pgn::Counts::default();
    for _ in 0..cfg.reps {
        let (c, t) = time(|| pgn::chesscore_impl::replay(&path));
        (counts, replay) = (c, replay.min(t));
        let (book, t) = time(|| build(&path));
        (entries, build_time) = (book.len(), build_time.min(t));
    }
    println!();
    println!("== book make ({}: {} games, {} plies) ==", path.display(), counts.games, counts.plies);
    println!("{:<34}  {:>8}  {:>10}", "", "best s", "entries");
    println!("{}", "-".repeat(56));
    println!("{:<34}  {:>8.3}  {:>10}", "plain full replay", replay.as_secs_f64(), "");
    println!("{:<34}  {:>8.3}  {entries:>10}", "book make (default rules)", build_time.as_secs_f64());
    println!("make / replay: {:.2}", build_time.as_secs_f64() / replay.as_secs_f64());
}

/// The hidden command-line flag of the child process [`rss`] starts.
pub const RSS_CHILD_FLAG: &str = "--book-rss-child";

/// Peak memory of building a book from a 20 MB and a 200 MB corpus, each in a fresh process.
fn rss() {
    let small = pgn::corpus(pgn::Style::Mixed, 20);
    let large = pgn::corpus_repeated(&small, 10);
    let exe = std::env::current_exe().unwrap_or_else(|e| abort(&format!("book: no executable path: {e}")));
    println!();
    println!("== book make peak resident memory (VmHWM of a child process) ==");
    println!("{:<10}  {:>10}  {:>12}", "file", "entries", "peak RSS");
    println!("{}", "-".repeat(36));
    for path in [&small, &large] {
        let megabytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
        let out = Command::new(&exe)
            .arg(RSS_CHILD_FLAG)
            .arg(path)
            .output()
            .unwrap_or_else(|e| abort(&format!("book: cannot run {}: {e}", exe.display())));
        let text = String::from_utf8_lossy(&out.stdout);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !out.status.success() || fields.len() != 2 {
            abort(&format!("book: child failed: {text} {}", String::from_utf8_lossy(&out.stderr)));
        }
        println!("{:<10}  {:>10}  {:>9} kB", format!("{megabytes:.0} MB"), fields[0], fields[1]);
    }
}

/// In the child: builds a book from `path` and prints its entries and VmHWM in kB.
pub fn rss_child(path: &Path) {
    let book = build(path);
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or_else(|| abort("book: no VmHWM in /proc/self/status"));
    println!("{} {peak}", book.len());
}
