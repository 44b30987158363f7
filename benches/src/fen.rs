//! FEN group: read every FEN of `vectors/dev.jsonl` (each position and the position after each
//! of its moves), syntax only and into a checked position.
//!
//! The texts are loaded before timing starts; one operation is one FEN read. Both engines
//! accept impossible checks, and shakmaty more material than a game can have (a few dev
//! positions have them); each must accept every FEN.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use crate::harness::{abort, print_table, time, Config, Row, CHESSCORE};

/// Every distinct FEN of the dev vectors: the strings of the file that hold eight ranks.
pub(crate) fn vector_fens() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/vectors/dev.jsonl");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| abort(&format!("fen: cannot read {}: {e}", path.display())));
    let mut fens: Vec<String> = text
        .lines()
        .flat_map(|line| line.split('"'))
        .filter(|s| s.matches('/').count() == 7 && s.contains(' '))
        .map(str::to_string)
        .collect();
    fens.sort_unstable();
    fens.dedup();
    fens
}

/// What one pass reads.
#[derive(Clone, Copy)]
enum Step {
    /// The syntax only.
    Syntax,
    /// The syntax, then the position checked.
    Position,
}

pub fn run(cfg: &Config) {
    let mut fens = vector_fens();
    if cfg.quick {
        fens.truncate(fens.len() / 4);
    }
    /// What reads the FENs, counting what it read.
    type Read = fn(&[String], Step) -> u64;
    let passes = if cfg.quick { 2 } else { 20 };
    let count = fens.len() as u64 * passes;
    let mut rows = Vec::new();
    for (step, bench) in [(Step::Syntax, "syntax"), (Step::Position, "position")] {
        let bench = format!("{bench}: {} FENs x{passes}", fens.len());
        eprintln!("fen: {bench} ({} reps)", cfg.reps);
        let engines: [(&'static str, Read); 2] = [(CHESSCORE, chesscore_impl::read), ("shakmaty", shakmaty_impl::read)];
        for (engine, read) in engines {
            if !cfg.wants(engine) {
                continue;
            }
            let mut best = Duration::MAX;
            for _ in 0..cfg.reps {
                let (checksum, t) = time(|| (0..passes).map(|_| read(&fens, step)).sum::<u64>());
                black_box(checksum);
                best = best.min(t);
            }
            rows.push(Row { bench: bench.clone(), engine, count, best });
        }
    }
    print_table("fen (read the dev vectors' FENs)", "FENs", &rows);
}

mod chesscore_impl {
    use std::hint::black_box;

    use chesscore_core::{Fen, FenOptions, Position};

    use super::Step;

    /// Reads every FEN; returns the number of halfmove clocks as a checksum.
    pub fn read(fens: &[String], step: Step) -> u64 {
        let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
        let mut total = 0;
        for fen in fens {
            let fen = black_box(fen.as_str());
            let halfmoves = match step {
                Step::Syntax => Fen::parse(fen).map(|f| f.setup().halfmove_clock).ok(),
                Step::Position => Position::from_fen_with(fen, &options).map(|(pos, _)| pos.halfmove_clock()).ok(),
            };
            let Some(halfmoves) = halfmoves else { crate::harness::abort(&format!("chesscore rejected {fen}")) };
            total += u64::from(halfmoves);
        }
        total
    }
}

mod shakmaty_impl {
    use std::hint::black_box;

    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position, PositionError};

    use super::Step;

    /// Reads every FEN; returns the number of halfmove clocks as a checksum.
    pub fn read(fens: &[String], step: Step) -> u64 {
        let mut total = 0;
        for fen in fens {
            let fen = black_box(fen.as_bytes());
            let halfmoves = Fen::from_ascii(fen).ok().and_then(|f| match step {
                Step::Syntax => Some(f.as_setup().halfmoves),
                Step::Position => f
                    .into_position::<Chess>(CastlingMode::Standard)
                    .or_else(PositionError::ignore_too_much_material)
                    .or_else(PositionError::ignore_impossible_check)
                    .ok()
                    .map(|pos| pos.halfmoves()),
            });
            let Some(halfmoves) = halfmoves else {
                crate::harness::abort(&format!("shakmaty rejected {}", String::from_utf8_lossy(fen)))
            };
            total += u64::from(halfmoves);
        }
        total
    }
}
