//! SAN group: write every legal move of every `vectors/dev.jsonl` position as SAN with its
//! check/mate suffix, then read the text back into a move, checking it is the same move.
//!
//! Each engine gets the positions parsed from FEN and its own list of legal moves before
//! timing starts; one operation is one write plus one read.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use crate::harness::{abort, print_table, time, Config, Row};

/// The positions of the dev vectors (`tests/data/vectors/dev.jsonl`).
pub(crate) fn vector_fens() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/vectors/dev.jsonl");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| abort(&format!("san: cannot read {}: {e}", path.display())));
    // Only the `fen` field is needed; the file writes it first, as `{"fen":"..."`.
    text.lines().filter_map(|line| line.strip_prefix("{\"fen\":\"")?.split('"').next().map(str::to_string)).collect()
}

pub fn run(cfg: &Config) {
    let mut fens = vector_fens();
    if cfg.quick {
        fens.truncate(fens.len() / 4);
    }
    let ours = chesscore_impl::prepare(&fens);
    let theirs = shakmaty_impl::prepare(&fens);
    if ours.count() != theirs.count() {
        abort(&format!("san: chesscore has {} moves, shakmaty {}", ours.count(), theirs.count()));
    }
    // Enough passes that one run takes a measurable time.
    let passes = if cfg.quick { 2 } else { 30 };
    let count = ours.count() as u64 * passes;
    let bench = format!("write+read {} moves x{passes}", ours.count());
    eprintln!("san: {bench} ({} reps)", cfg.reps);

    let mut best = [Duration::MAX; 2];
    for _ in 0..cfg.reps {
        let (checksum, t) = time(|| (0..passes).map(|_| ours.run()).sum::<u64>());
        black_box(checksum);
        best[0] = best[0].min(t);
        let (checksum, t) = time(|| (0..passes).map(|_| theirs.run()).sum::<u64>());
        black_box(checksum);
        best[1] = best[1].min(t);
    }
    let rows = [
        Row { bench: bench.clone(), engine: crate::harness::CHESSCORE, count, best: best[0] },
        Row { bench, engine: "shakmaty", count, best: best[1] },
    ];
    print_table("san (write with suffix + read back)", "ops", &rows);
}

mod chesscore_impl {
    use chesscore_core::{FenOptions, Move, Position, San};

    pub struct Data(Vec<(Position, Vec<Move>)>);

    pub fn prepare(fens: &[String]) -> Data {
        let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
        Data(
            fens.iter()
                .map(|fen| {
                    let pos = Position::from_fen_with(fen, &options)
                        .unwrap_or_else(|e| crate::harness::abort(&format!("chesscore rejected {fen}: {e}")))
                        .0;
                    (pos, pos.legal_moves().to_vec())
                })
                .collect(),
        )
    }

    impl Data {
        pub fn count(&self) -> usize {
            self.0.iter().map(|(_, moves)| moves.len()).sum()
        }

        /// Writes and reads back every move; returns the total SAN length as a checksum.
        pub fn run(&self) -> u64 {
            let mut total = 0;
            for (pos, moves) in &self.0 {
                for &mv in moves {
                    let Ok(san) = San::from_move(pos, mv) else {
                        crate::harness::abort("chesscore: no SAN for a legal move")
                    };
                    total += san.len() as u64;
                    if san.as_str().parse::<San>().and_then(|back| back.to_move(pos)) != Ok(mv) {
                        crate::harness::abort(&format!("chesscore: {san} did not read back"));
                    }
                }
            }
            total
        }
    }
}

mod shakmaty_impl {
    use shakmaty::fen::Fen;
    use shakmaty::san::SanPlus;
    use shakmaty::{CastlingMode, Chess, Move, Position, PositionError};

    pub struct Data(Vec<(Chess, Vec<Move>)>);

    pub fn prepare(fens: &[String]) -> Data {
        Data(
            fens.iter()
                .map(|fen| {
                    let pos: Chess = Fen::from_ascii(fen.as_bytes())
                        .ok()
                        .and_then(|f| {
                            f.into_position(CastlingMode::Standard)
                                .or_else(PositionError::ignore_too_much_material)
                                .or_else(PositionError::ignore_impossible_check)
                                .ok()
                        })
                        .unwrap_or_else(|| crate::harness::abort(&format!("shakmaty rejected {fen}")));
                    let moves = pos.legal_moves().to_vec();
                    (pos, moves)
                })
                .collect(),
        )
    }

    impl Data {
        pub fn count(&self) -> usize {
            self.0.iter().map(|(_, moves)| moves.len()).sum()
        }

        pub fn run(&self) -> u64 {
            let mut total = 0;
            let mut buf = Vec::with_capacity(16);
            for (pos, moves) in &self.0 {
                for &m in moves {
                    buf.clear();
                    SanPlus::from_move(pos.clone(), m).append_ascii_to(&mut buf);
                    total += buf.len() as u64;
                    let back = SanPlus::from_ascii(&buf).ok().and_then(|san| san.san.to_move(pos).ok());
                    if back != Some(m) {
                        crate::harness::abort(&format!(
                            "shakmaty: {} did not read back",
                            String::from_utf8_lossy(&buf)
                        ));
                    }
                }
            }
            total
        }
    }
}
