//! Shared pieces for all benchmark groups: configuration, timing, and the
//! result table.

use std::time::{Duration, Instant};

/// Name under which chesscore's own rows are reported; ratios are taken
/// against the row with this engine name in the same benchmark.
pub const CHESSCORE: &str = "chesscore";

#[derive(Clone, Debug)]
pub struct Config {
    /// Repetitions per measurement; the best (shortest) time is kept.
    pub reps: u32,
    /// Group-specific selector (perft: `bulk` or `leaf`).
    pub only: Option<String>,
    /// Lower depths / smaller inputs.
    pub quick: bool,
    /// Engines to run (all when empty).
    pub engines: Vec<String>,
}

impl Config {
    /// True when `engine` was selected (or no engine filter was given).
    pub fn wants(&self, engine: &str) -> bool {
        self.engines.is_empty() || self.engines.iter().any(|e| e == engine)
    }
}

impl Default for Config {
    fn default() -> Self {
        Config { reps: 3, only: None, quick: false, engines: Vec::new() }
    }
}

/// One measured (benchmark, engine) cell.
#[derive(Clone, Debug)]
pub struct Row {
    pub bench: String,
    pub engine: &'static str,
    /// Units of work done per run (nodes, moves, bytes...).
    pub count: u64,
    pub best: Duration,
}

impl Row {
    pub fn rate(&self) -> f64 {
        self.count as f64 / self.best.as_secs_f64()
    }
}

/// Times one run of `f`, returning its result and the elapsed time.
pub fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// Aborts the whole run: used when a result does not match its expected value.
pub fn abort(msg: &str) -> ! {
    eprintln!("chesscore-bench: ABORT: {msg}");
    std::process::exit(1)
}

/// Prints the table for one group. `unit` names what `count` counts
/// (e.g. "nodes"). The last column is chesscore's throughput divided by that
/// row's (> 1 means chesscore is faster).
pub fn print_table(title: &str, unit: &str, rows: &[Row]) {
    let bench_w = rows.iter().map(|r| r.bench.len()).max().unwrap_or(0).max(9);
    let engine_w = rows.iter().map(|r| r.engine.len()).max().unwrap_or(0).max(9);
    let rate_h = format!("M{unit}/s");
    println!();
    println!("== {title} ==");
    println!(
        "{:<bw$}  {:<ew$}  {:>12}  {:>9}  {:>10}  {:>15}",
        "benchmark",
        "engine",
        unit,
        "best s",
        rate_h,
        "chesscore/peer",
        bw = bench_w,
        ew = engine_w
    );
    println!("{}", "-".repeat(bench_w + engine_w + 12 + 9 + 10 + 15 + 10));
    let mut last_bench = None;
    for r in rows {
        if last_bench.is_some() && last_bench != Some(&r.bench) {
            println!();
        }
        last_bench = Some(&r.bench);
        let core = rows.iter().find(|c| c.bench == r.bench && c.engine == CHESSCORE);
        let ratio = match core {
            Some(c) => format!("{:.2}", c.rate() / r.rate()),
            None => "n/a".to_string(),
        };
        println!(
            "{:<bw$}  {:<ew$}  {:>12}  {:>9.3}  {:>10.1}  {:>15}",
            r.bench,
            r.engine,
            r.count,
            r.best.as_secs_f64(),
            r.rate() / 1e6,
            ratio,
            bw = bench_w,
            ew = engine_w
        );
    }
}
