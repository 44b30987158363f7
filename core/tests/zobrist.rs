//! The incrementally updated Zobrist key always equals the key computed from scratch.

use chesscore_test_support as common;

use chesscore_core::{EnPassantMode, FenOptions, FenWriteOptions, Position};
use serde_json::Value;

/// Random games from many start positions: after every ply the incremental key matches the
/// scratch key, and writing then reading the FEN (en passant as recorded) gives back an
/// identical position.
#[test]
fn incremental_key_matches_scratch_over_random_games() {
    let mut starts: Vec<Position> = vec![Position::startpos()];
    let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
    for line in common::lines("vectors/dev.jsonl").iter().step_by(10) {
        let v: Value = serde_json::from_str(line).unwrap();
        starts.push(Position::from_fen_with(v["fen"].as_str().unwrap(), &options).unwrap().0);
    }
    let recorded = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, ..Default::default() };
    let mut rng = common::Rng(0x2545_f491);
    let mut plies = 0;
    for start in &starts {
        for _ in 0..3 {
            let mut pos = *start;
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures and double pushes now and then: they touch ep and castling.
                let mv = moves[rng.below(moves.len())];
                pos.play(mv).unwrap();
                plies += 1;
                assert_eq!(pos.zobrist(), pos.compute_zobrist(), "{}", pos.to_fen());
                let again = Position::from_fen_with(&pos.to_fen_with(&recorded), &options).unwrap().0;
                assert_eq!(again, pos, "{}", pos.to_fen());
            }
        }
    }
    assert!(plies > 20_000, "{plies}");
}
