//! C ABI group: perft through the C API beside the Rust core and shakmaty, in one run.
//!
//! * `leaf`: every leaf move made. `C recursion (ABI)` is `examples/perft.c` (compiled by
//!   build.rs and linked statically): positions by value on the C stack
//!   (`chess_position stack[33]`), `chess_legal_moves`, then one `chess_position_play_into` per
//!   move. `chesscore` is the Rust core's copy-make recursion and `shakmaty` its own, as in the
//!   perft group.
//! * `bulk`: `chess_perft` through the ABI against the core's `Position::perft`.
//!
//! The table's last column is chesscore/peer as everywhere; the summary after it gives the
//! ABI's own ratios next to their targets.

use std::ffi::{c_uint, CString};
use std::hint::black_box;
use std::time::Duration;

use chesscore::{chess_fen_parse_into, chess_perft, chess_position, CHESS_OK};

use crate::harness::{abort, print_table, time, Config, Row, CHESSCORE};
use crate::perft::{chesscore_impl, shakmaty_impl, Kind, Runner, CASES};

extern "C" {
    /// `examples/perft.c`: leaves of `root` at `depth` by the C copy-make recursion.
    fn example_perft(root: *const chess_position, depth: c_uint) -> u64;
}

const C_RECURSION: &str = "C recursion (ABI)";
const CHESS_PERFT: &str = "chess_perft (ABI)";
const SHAKMATY: &str = "shakmaty";

/// A position read by the C API into a `chess_position` held by value.
fn position(fen: &str) -> chess_position {
    let fen = CString::new(fen).unwrap_or_else(|_| abort("FEN with a NUL"));
    let mut pos = std::mem::MaybeUninit::<chess_position>::uninit();
    if unsafe { chess_fen_parse_into(fen.as_ptr(), pos.as_mut_ptr()) } != CHESS_OK {
        abort(&format!("chess_fen_parse_into rejected {fen:?}"));
    }
    // SAFETY: chess_fen_parse_into wrote the position.
    unsafe { pos.assume_init() }
}

fn engines(kind: Kind, fen: &str) -> Vec<(&'static str, Runner)> {
    let pos = position(fen);
    match kind {
        Kind::Leaf => vec![
            (C_RECURSION, Box::new(move |_, depth| unsafe { example_perft(&pos, depth) })),
            (CHESSCORE, chesscore_impl::prepare(fen)),
            (SHAKMATY, shakmaty_impl::prepare(fen)),
        ],
        Kind::Bulk => vec![
            (CHESS_PERFT, Box::new(move |_, depth| unsafe { chess_perft(&pos, depth) })),
            (CHESSCORE, chesscore_impl::prepare(fen)),
        ],
    }
}

pub fn run(cfg: &Config) {
    let kinds: Vec<Kind> = match cfg.only.as_deref() {
        None => vec![Kind::Leaf, Kind::Bulk],
        Some("bulk") => vec![Kind::Bulk],
        Some("leaf") => vec![Kind::Leaf],
        Some(other) => abort(&format!("cabi: --only expects `bulk` or `leaf`, got `{other}`")),
    };
    let mut rows = Vec::new();
    for &kind in &kinds {
        for case in CASES {
            let (depth, expected) = if cfg.quick { case.quick } else { case.full };
            let bench = format!("{} {} d{}", kind.name(), case.name, depth);
            eprintln!("cabi: {bench} ({} reps)", cfg.reps);
            let engines = engines(kind, case.fen);
            let mut best = vec![Duration::MAX; engines.len()];
            // Round-robin inside each repetition, so drifts of a shared machine hit all alike,
            // starting with a different engine each time (the first run of a round is slower).
            for rep in 0..cfg.reps as usize {
                for k in 0..engines.len() {
                    let i = (rep + k) % engines.len();
                    let (name, runner) = &engines[i];
                    let (nodes, t) = time(|| runner(black_box(kind), black_box(depth)));
                    if nodes != expected {
                        abort(&format!("cabi {bench}: {name} counted {nodes} nodes, expected {expected}"));
                    }
                    best[i] = best[i].min(t);
                }
            }
            for ((name, _), best) in engines.iter().zip(best) {
                rows.push(Row { bench: bench.clone(), engine: name, count: expected, best });
            }
        }
    }
    print_table("cabi", "nodes", &rows);
    print_summary(&rows);
}

/// The ABI's throughput over each reference, with the target it should reach.
fn print_summary(rows: &[Row]) {
    let rate = |bench: &str, engine: &str| rows.iter().find(|r| r.bench == bench && r.engine == engine).map(Row::rate);
    let mut benches: Vec<&str> = rows.iter().map(|r| r.bench.as_str()).collect();
    benches.dedup();
    println!();
    println!("C ABI / reference throughput:");
    for bench in benches {
        let pairs: &[(&str, &str, &str)] = if bench.starts_with("leaf") {
            &[(C_RECURSION, CHESSCORE, ">= 0.95"), (C_RECURSION, SHAKMATY, ">= 1.00")]
        } else {
            &[(CHESS_PERFT, CHESSCORE, "~ 1.00")]
        };
        for &(abi, reference, target) in pairs {
            if let (Some(a), Some(r)) = (rate(bench, abi), rate(bench, reference)) {
                println!("  {bench:<20} {abi} / {reference:<10} {:>5.2}  (target {target})", a / r);
            }
        }
    }
}
