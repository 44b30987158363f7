//! Binary FEN group: pack every position of `vectors/dev.jsonl` (each position and the position
//! after each of its moves) from a position, and unpack the bytes into a checked position,
//! against shakmaty's `PackedSetup`.
//!
//! The positions and bytes are made before timing starts; one operation is one position packed
//! or unpacked. shakmaty packs through its `Setup` (`to_setup`, `pack_standard`) and unpacks
//! through `unpack_standard` and `Chess::from_setup`: the way from a position to bytes and back
//! that its API has. Both accept impossible checks (a few dev positions have them).

use std::hint::black_box;
use std::time::Duration;

use crate::fen::vector_fens;
use crate::harness::{print_table, time, Config, Row, CHESSCORE};

/// What one pass does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Pack,
    Unpack,
}

pub fn run(cfg: &Config) {
    let mut fens = vector_fens();
    if cfg.quick {
        fens.truncate(fens.len() / 4);
    }
    let ours = chesscore_impl::Data::new(&fens);
    let theirs = shakmaty_impl::Data::new(&fens);
    let passes = if cfg.quick { 5 } else { 50 };
    let count = fens.len() as u64 * passes;
    let mut rows = Vec::new();
    for (step, bench) in [(Step::Pack, "pack"), (Step::Unpack, "unpack")] {
        let bench = format!("{bench}: {} positions x{passes}", fens.len());
        eprintln!("binfen: {bench} ({} reps)", cfg.reps);
        let engines: [(&'static str, &dyn Fn() -> u64); 2] =
            [(CHESSCORE, &|| ours.run(step)), ("shakmaty", &|| theirs.run(step))];
        for (engine, run) in engines {
            if !cfg.wants(engine) {
                continue;
            }
            let mut best = Duration::MAX;
            for _ in 0..cfg.reps {
                let (checksum, t) = time(|| (0..passes).map(|_| run()).sum::<u64>());
                black_box(checksum);
                best = best.min(t);
            }
            rows.push(Row { bench: bench.clone(), engine, count, best });
        }
    }
    print_table("binfen (binary FEN of the dev vectors' positions)", "positions", &rows);
}

mod chesscore_impl {
    use std::hint::black_box;

    use chesscore_core::{BinaryFen, FenOptions, Position};

    use super::Step;
    use crate::harness::abort;

    pub struct Data {
        positions: Vec<Position>,
        packed: Vec<BinaryFen>,
        options: FenOptions,
    }

    impl Data {
        pub fn new(fens: &[String]) -> Data {
            let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
            let positions: Vec<Position> = fens
                .iter()
                .map(|fen| Position::from_fen_with(fen, &options).unwrap_or_else(|e| abort(&format!("{fen}: {e}"))).0)
                .collect();
            let packed = positions.iter().map(Position::to_binary_fen).collect();
            Data { positions, packed, options }
        }

        /// One pass; returns the bytes written or the halfmove clocks read as a checksum.
        pub fn run(&self, step: Step) -> u64 {
            match step {
                Step::Pack => self.positions.iter().map(|pos| black_box(pos).to_binary_fen().len() as u64).sum(),
                Step::Unpack => self
                    .packed
                    .iter()
                    .map(|bytes| match Position::from_binary_fen_with(black_box(bytes.as_bytes()), &self.options) {
                        Ok((pos, _)) => u64::from(pos.halfmove_clock()),
                        Err(e) => abort(&format!("chesscore cannot unpack {bytes}: {e}")),
                    })
                    .sum(),
            }
        }
    }
}

mod shakmaty_impl {
    use std::hint::black_box;

    use shakmaty::fen::Fen;
    use shakmaty::packed::PackedSetup;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position, PositionError};

    use super::Step;
    use crate::harness::abort;

    pub struct Data {
        positions: Vec<Chess>,
        packed: Vec<PackedSetup>,
    }

    impl Data {
        pub fn new(fens: &[String]) -> Data {
            let positions: Vec<Chess> = fens
                .iter()
                .map(|fen| {
                    Fen::from_ascii(fen.as_bytes())
                        .ok()
                        .and_then(|f| {
                            f.into_position::<Chess>(CastlingMode::Standard)
                                .or_else(PositionError::ignore_too_much_material)
                                .or_else(PositionError::ignore_impossible_check)
                                .ok()
                        })
                        .unwrap_or_else(|| abort(&format!("shakmaty rejected {fen}")))
                })
                .collect();
            let packed = positions.iter().map(pack).collect();
            Data { positions, packed }
        }

        /// One pass; returns the bytes written or the halfmove clocks read as a checksum.
        pub fn run(&self, step: Step) -> u64 {
            match step {
                Step::Pack => self.positions.iter().map(|pos| pack(black_box(pos)).as_bytes().len() as u64).sum(),
                Step::Unpack => self
                    .packed
                    .iter()
                    .map(|packed| {
                        let bytes = black_box(packed.as_bytes());
                        PackedSetup::try_from_bytes(bytes)
                            .ok()
                            .and_then(|p| p.unpack_standard().ok())
                            .and_then(|setup| {
                                Chess::from_setup(setup, CastlingMode::Standard)
                                    .or_else(PositionError::ignore_too_much_material)
                                    .or_else(PositionError::ignore_impossible_check)
                                    .ok()
                            })
                            .map_or_else(
                                || abort("shakmaty cannot unpack its own bytes"),
                                |pos| u64::from(pos.halfmoves()),
                            )
                    })
                    .sum(),
            }
        }
    }

    fn pack(pos: &Chess) -> PackedSetup {
        PackedSetup::pack_standard(&pos.to_setup(EnPassantMode::Legal)).unwrap_or_else(|e| abort(&e.to_string()))
    }
}
