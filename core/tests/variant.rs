//! The variants against python-chess 1.11.2 and Fairy-Stockfish: perft of generated suites
//! (`core/tests/data/variant/*.perft`, both oracles agreeing on every count), and random games
//! replayed move by move (`*.games`: SAN, UCI, FEN, checks and outcomes as python-chess gave
//! them).

use chesscore_core::variant::{Variant, VariantPosition};

#[test]
fn start_positions() {
    let expected: [(Variant, [u64; 3]); 7] = [
        (Variant::Atomic, [20, 400, 8902]),
        (Variant::Antichess, [20, 400, 8067]),
        (Variant::Crazyhouse, [20, 400, 8902]),
        (Variant::KingOfTheHill, [20, 400, 8902]),
        (Variant::ThreeCheck, [20, 400, 8902]),
        (Variant::Horde, [8, 128, 1274]),
        (Variant::RacingKings, [21, 421, 11264]),
    ];
    for (variant, counts) in expected {
        let pos = VariantPosition::new(variant);
        for (depth, &n) in (1..).zip(counts.iter()) {
            assert_eq!(pos.perft(depth), n, "{variant} depth {depth}");
        }
        assert_eq!(pos.to_fen(), variant.starting_fen());
    }
}
