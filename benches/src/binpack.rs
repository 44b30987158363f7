//! Binpack group: read Stockfish training data, `.binpack` against its `.plain` text, both with
//! chesscore's streaming readers, from memory.
//!
//! The data is `tests/data/binpack/generated.binpack` (4,113 entries: 40 games as chains, 400
//! single positions) and the `.plain` text of the same entries; one operation is one entry read
//! into a checked position with its move.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use chesscore_core::binpack::{BinpackReader, PlainReader, TrainingEntry};

use crate::harness::{abort, print_table, time, Config, Row, CHESSCORE};

/// Sums the scores, as a checksum.
fn checksum(entries: impl Iterator<Item = Result<TrainingEntry, chesscore_core::binpack::BinpackError>>) -> u64 {
    entries.map(|e| e.unwrap_or_else(|e| abort(&e.to_string())).score as u64).fold(0, u64::wrapping_add)
}

pub fn run(cfg: &Config) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/binpack/generated.binpack");
    let binpack = std::fs::read(&path).unwrap_or_else(|e| abort(&format!("cannot read {}: {e}", path.display())));
    let entries: Vec<TrainingEntry> = BinpackReader::new(&binpack[..]).map(|e| e.unwrap()).collect();
    let plain: String = entries.iter().map(ToString::to_string).collect();
    let passes = if cfg.quick { 5 } else { 100 };
    let count = entries.len() as u64 * passes;
    let mut rows = Vec::new();
    let formats: [(&'static str, &dyn Fn() -> u64); 2] = [
        (".binpack", &|| checksum(BinpackReader::new(black_box(&binpack[..])))),
        (".plain", &|| checksum(PlainReader::new(black_box(plain.as_bytes())))),
    ];
    let bench = format!("read: {} entries x{passes}", entries.len());
    eprintln!("binpack: {bench} ({} reps)", cfg.reps);
    for (format, read) in formats {
        let mut best = Duration::MAX;
        for _ in 0..cfg.reps {
            let (sum, t) = time(|| (0..passes).map(|_| read()).fold(0, u64::wrapping_add));
            black_box(sum);
            best = best.min(t);
        }
        // The table's ratio column compares with the `chesscore` row: the binpack reader's.
        let engine = if format == ".binpack" { CHESSCORE } else { "chesscore .plain" };
        rows.push(Row { bench: bench.clone(), engine, count, best });
    }
    print_table("binpack (training data read, .binpack vs .plain)", "entries", &rows);
}
