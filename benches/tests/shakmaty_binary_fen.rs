//! Binary FEN against shakmaty 0.30.1's `PackedSetup::pack_standard`: byte for byte the same
//! encoding of every position of the vector sets (the repository's and, when present, the
//! third-party ones beside the checkout) and of random games, and each reader reads the other's
//! bytes as the same position.
//!
//! Run by `scripts/test.sh` (`cargo test --manifest-path benches/Cargo.toml`), as shakmaty is a
//! dependency of this crate only.

use std::path::{Path, PathBuf};

use chesscore_core::{FenOptions, Position};
use shakmaty::fen::Fen;
use shakmaty::packed::PackedSetup;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Compares the two encodings of `pos` and reads each with the other library.
fn check(pos: &Position, options: &FenOptions) {
    let ours = pos.to_binary_fen();
    let fen = pos.to_fen();
    let setup = Fen::from_ascii(fen.as_bytes()).unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e}")).into_setup();
    let theirs = PackedSetup::pack_standard(&setup).unwrap_or_else(|e| panic!("shakmaty cannot pack {fen}: {e}"));
    assert_eq!(ours.as_bytes(), theirs.as_bytes(), "{fen}");

    let unpacked = PackedSetup::try_from_bytes(ours.as_bytes()).unwrap().unpack_standard().unwrap();
    assert_eq!(unpacked, setup, "{fen}");
    let (back, _) = Position::from_binary_fen_with(theirs.as_bytes(), options).unwrap();
    assert_eq!(back.to_fen(), fen);
}

/// Every FEN-looking string of a file (the positions of a JSON vector set and those after their
/// moves, the lines of an EPD or FEN list).
fn fens_of(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .flat_map(|line| line.split(['"', ';']))
        .filter(|s| s.matches('/').count() == 7 && s.contains(' '))
        .map(|s| s.trim().to_string())
        .collect()
}

/// Checks every position of `files` that reads with `options` (the bad-FEN lists hold others);
/// returns how many.
fn check_files(files: &[PathBuf], options: &FenOptions) -> usize {
    let mut checked = 0;
    for path in files.iter().filter(|p| p.is_file()) {
        for fen in fens_of(path) {
            // EPD lines carry four fields; the position is the same.
            if let Ok((pos, _)) = Position::from_fen_with(&fen, options) {
                check(&pos, options);
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn vector_sets_pack_as_shakmaty_does() {
    let lenient = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
    let chess960 = FenOptions { chess960: true, ..lenient };
    let shared = root().join("../shared/testdata");
    let standard: Vec<PathBuf> = ["tests/data", shared.to_str().unwrap()]
        .iter()
        .flat_map(|dir| {
            let dir = root().join(dir);
            [
                "vectors/dev.jsonl",
                "fen/good.jsonl",
                "perft/cpw6.epd",
                "perft/dev_random.epd",
                "perft/perftsuite.epd",
                "epd/dev_edge_cases.epd",
                "epd/dev_generated.epd",
                "epd/bratko_kopec.epd",
                "epd/win_at_chess.epd",
                "epd/ccr_one_hour.epd",
            ]
            .map(|file| dir.join(file))
        })
        .collect();
    assert!(check_files(&standard, &lenient) > 40_000);
    let fischer: Vec<PathBuf> = [root().join("tests/data"), shared]
        .iter()
        .flat_map(|dir| ["vectors/dev960.jsonl", "perft/dev_chess960.epd"].map(|file| dir.join(file)))
        .collect();
    assert!(check_files(&fischer, &chess960) > 8_000);
}

#[test]
fn random_games_pack_as_shakmaty_does() {
    // xorshift64*, so that a failure replays.
    let mut state = 0x0dd_ba11_u64;
    let mut below = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
    };
    let chess960 = FenOptions { chess960: true, ..FenOptions::default() };
    let mut positions = 0;
    for game in 0..400 {
        let (mut pos, options) = if game % 4 == 3 {
            (Position::chess960_start(below(960) as u32).unwrap(), chess960)
        } else {
            (Position::startpos(), FenOptions::default())
        };
        for _ in 0..250 {
            check(&pos, &options);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[below(moves.len())]);
        }
    }
    assert!(positions > 50_000);
}
