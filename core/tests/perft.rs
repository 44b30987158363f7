//! Perft against the published and generated suites of `tests/data/perft`, and the classic
//! suite of the third-party test files when they are present.

use chesscore_test_support as common;

use chesscore_core::{FenOptions, Position};
use common::{perft_suite, perft_suite_at, PerftCase};

/// Reads a suite position. The classic suite holds a few positions no game can reach (two
/// bishops checking along one diagonal); move generation must still count them right.
fn read(fen: &str) -> Position {
    let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
    Position::from_fen_with(fen, &options).unwrap_or_else(|e| panic!("{fen}: {e}")).0
}

/// Runs every depth of every line whose count is at most `limit` nodes.
fn check_suite(cases: Vec<PerftCase>, limit: u64) -> u64 {
    let mut total = 0;
    assert!(!cases.is_empty(), "empty suite");
    for case in cases {
        let pos = read(&case.fen);
        for &(depth, expected) in case.counts.iter().filter(|&&(_, n)| n <= limit) {
            assert_eq!(pos.perft(depth), expected, "{} depth {depth}", case.fen);
            total += expected;
        }
    }
    total
}

#[test]
fn perftsuite_epd() {
    let Some(shared) = common::shared_testdata("perft: perftsuite.epd") else { return };
    let nodes = check_suite(perft_suite_at(&shared.join("perft/perftsuite.epd")), 20_000_000);
    assert!(nodes > 200_000_000, "{nodes}");
}

#[test]
fn dev_random_epd() {
    let nodes = check_suite(perft_suite("perft/dev_random.epd"), 20_000_000);
    assert!(nodes > 400_000_000, "{nodes}");
}

/// The six chessprogramming.org positions (and the mirror of the fourth) at their published
/// depths: start position 6, Kiwipete 5, position 3 at 7, position 4 at 6, 5 and 6 at 5.
#[test]
fn chessprogramming_positions() {
    let depths = [6, 5, 7, 6, 6, 5, 5];
    let cases = perft_suite("perft/cpw6.epd");
    assert_eq!(cases.len(), depths.len());
    for (case, depth) in cases.iter().zip(depths) {
        let expected = case.counts.iter().find(|&&(d, _)| d == depth).expect("depth listed").1;
        let pos = read(&case.fen);
        assert_eq!(pos.perft(depth), expected, "{} depth {depth}", case.fen);
    }
}

#[test]
fn divide_sums_to_perft() {
    for case in perft_suite("perft/cpw6.epd") {
        let pos = read(&case.fen);
        let divide = pos.divide(3);
        assert_eq!(divide.len(), pos.legal_moves().len());
        assert_eq!(divide.map(|(_, n)| n).sum::<u64>(), case.counts[2].1);
    }
}
