//! The PGN inputs of the command line: files or standard input, decompressed, with a progress
//! bar for large files.

use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chesscore_core::pgn::Decompressed;

use crate::input::{input_name, is_stdin};
use crate::output::{io_text, Failure};

/// A PGN input of the command line: a file or standard input ("-"), decompressed when its
/// first bytes say it is gzip or Zstandard, counting the bytes taken from it (for the progress
/// bar, which follows the file, not the text decompressed from it).
pub(crate) struct PgnInput {
    input: Decompressed<Counting>,
    /// The file's size; `None` for standard input.
    pub(super) size: Option<u64>,
    pub(super) consumed: Arc<AtomicU64>,
}

/// A reader counting the bytes it gives (shared with the thread that shows the progress).
struct Counting {
    inner: Box<dyn Read + Send>,
    consumed: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl PgnInput {
    pub(crate) fn open(path: &Path) -> Result<PgnInput, Failure> {
        let consumed = Arc::new(AtomicU64::new(0));
        let (inner, size): (Box<dyn Read + Send>, Option<u64>) = if is_stdin(path) {
            (Box::new(io::stdin()), None)
        } else {
            let name = input_name(path);
            let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {}", io_text(&e)))?;
            let size = file.metadata().ok().map(|m| m.len());
            (Box::new(file), size)
        };
        let counting = Counting { inner, consumed: consumed.clone() };
        Ok(PgnInput { input: Decompressed::threaded(counting), size, consumed })
    }
}

impl Read for PgnInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.input.read(buf)
    }
}

/// Files smaller than this get no progress bar.
const PROGRESS_MIN_BYTES: u64 = 32 << 20;

/// A progress bar on standard error, redrawn at most five times a second.
pub(super) struct Progress {
    total: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    /// A bar for `total` bytes, when standard error is a terminal and the file is large.
    pub(super) fn new(total: Option<u64>) -> Option<Progress> {
        let total = total.filter(|&t| t >= PROGRESS_MIN_BYTES && std::io::stderr().is_terminal())?;
        let now = Instant::now();
        Some(Progress { total, start: now, last: now.checked_sub(Duration::from_secs(1)).unwrap_or(now) })
    }

    pub(super) fn update(&mut self, done: u64) {
        let now = Instant::now();
        if now.duration_since(self.last) < Duration::from_millis(200) {
            return;
        }
        self.last = now;
        let fraction = (done as f64 / self.total as f64).min(1.0);
        let filled = (fraction * 40.0) as usize;
        let rate = done as f64 / 1e6 / now.duration_since(self.start).as_secs_f64().max(1e-3);
        let bar = format!("[{}{}]", "#".repeat(filled), ".".repeat(40 - filled));
        let left = (self.total.saturating_sub(done)) as f64 / 1e6 / rate.max(1e-9);
        let eta = format!("ETA {}:{:02}", (left / 60.0) as u64, (left % 60.0) as u64);
        // Only a help: a failure to show it is no reason to stop.
        let _ = write!(io::stderr(), "\r{bar} {:5.1}% {rate:7.1} MB/s {eta:>10}", fraction * 100.0);
    }

    pub(super) fn finish(&self) {
        let _ = write!(io::stderr(), "\r{}\r", " ".repeat(80));
    }
}
