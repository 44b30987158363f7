//! Chess960: perft, python-chess vectors (king-takes-rook UCI, Shredder-FEN, Polyglot keys),
//! start position numbering and castling edge cases.

use chesscore_test_support as common;

use std::collections::HashSet;

use chesscore_core::{CastlingNotation, EnPassantMode, FenOptions, FenWriteOptions, Position, Uci};
use serde_json::Value;

fn read960(fen: &str) -> Position {
    let options = FenOptions { chess960: true, allow_impossible_check: true, ..FenOptions::default() };
    Position::from_fen_with(fen, &options).unwrap_or_else(|e| panic!("{fen}: {e}")).0
}

fn shredder(mode: EnPassantMode) -> FenWriteOptions {
    FenWriteOptions { en_passant: mode, castling: CastlingNotation::Shredder }
}

fn read_uci(pos: &Position, text: &str) -> Result<chesscore_core::Move, chesscore_core::UciError> {
    text.parse::<Uci>()?.to_move(pos)
}

fn uci_moves(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|&m| Uci::from_move(pos, m).to_string()).collect();
    moves.sort();
    moves
}

#[test]
fn perft_dev_chess960() {
    let mut nodes = 0;
    for case in common::perft_suite("perft/dev_chess960.epd") {
        let pos = read960(&case.fen);
        for &(depth, expected) in case.counts.iter().filter(|&&(_, n)| n <= 20_000_000) {
            assert_eq!(pos.perft(depth), expected, "{} depth {depth}", case.fen);
            nodes += expected;
        }
    }
    assert!(nodes > 100_000_000, "{nodes}");
}

#[test]
fn dev960_vectors_agree_with_python_chess() {
    let lines = common::lines("vectors/dev960.jsonl");
    assert_eq!(lines.len(), 300);
    for line in &lines {
        let v: Value = serde_json::from_str(line).unwrap();
        let fen = v["fen"].as_str().unwrap();
        let pos = read960(fen);
        assert!(pos.is_chess960());
        let theirs: Vec<String> =
            v["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert_eq!(uci_moves(&pos), theirs, "{fen}");
        assert_eq!(pos.to_fen_with(&shredder(EnPassantMode::AsRecorded)), fen);
        assert_eq!(pos.to_fen_with(&shredder(EnPassantMode::Legal)), v["fen_canonical"].as_str().unwrap());
        assert_eq!(format!("{:016x}", pos.zobrist()), v["zobrist"].as_str().unwrap(), "{fen}");
        assert_eq!(pos.in_check(), v["is_check"].as_bool().unwrap(), "{fen}");
        assert_eq!(pos.is_checkmate(), v["is_checkmate"].as_bool().unwrap(), "{fen}");
        assert_eq!(pos.is_stalemate(), v["is_stalemate"].as_bool().unwrap(), "{fen}");
        for entry in v["moves"].as_array().unwrap() {
            let uci = entry[0].as_str().unwrap();
            let mv = read_uci(&pos, uci).unwrap_or_else(|e| panic!("{uci}: {e} in {fen}"));
            assert_eq!(Uci::from_move(&pos, mv).to_string(), uci);
            let after = pos.make_move(mv);
            assert_eq!(
                after.to_fen_with(&shredder(EnPassantMode::Legal)),
                entry[2].as_str().unwrap(),
                "{uci} in {fen}"
            );
            assert_eq!(format!("{:016x}", after.zobrist()), entry[3].as_str().unwrap(), "{uci} in {fen}");
            assert_eq!(after.zobrist(), after.compute_zobrist());
            // X-FEN (the default in Chess960) reads back to the same position.
            let xfen = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, castling: CastlingNotation::Auto };
            assert_eq!(read960(&after.to_fen_with(&xfen)), after, "{uci} in {fen}");
        }
    }
}

#[test]
fn start_positions_are_numbered_0_to_959() {
    let mut placements = HashSet::new();
    for n in 0..960 {
        let pos = Position::chess960_start(n).unwrap();
        assert_eq!(pos.chess960_number(), Some(n));
        assert_eq!(pos.castling().bits(), 15, "{n}");
        let fen = pos.to_fen();
        let rank = fen.split('/').next().unwrap().to_string();
        // Bishops on opposite colours, king between the rooks.
        let files = |c: char| rank.char_indices().filter(move |&(_, x)| x == c).map(|(i, _)| i).collect::<Vec<_>>();
        let (bishops, rooks, king) = (files('b'), files('r'), files('k')[0]);
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "{fen}");
        assert!(rooks[0] < king && king < rooks[1], "{fen}");
        assert!(placements.insert(rank));
        assert_eq!(read960(&fen), pos, "{fen}");
        assert_eq!(pos.legal_moves().len(), pos.perft(1) as usize);
    }
    assert_eq!(placements.len(), 960);
    assert!(Position::chess960_start(960).is_none());
    let standard = Position::chess960_start(518).unwrap();
    assert_eq!(standard.to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(
        standard.to_fen_with(&shredder(EnPassantMode::Legal)),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert_eq!(
        Position::chess960_start(0).unwrap().to_fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
}

/// Castling corner cases; the expected castling moves are python-chess 1.11.2's.
#[test]
fn castling_edge_cases() {
    let cases: &[(&str, &str, &[&str])] = &[
        // No rights, nothing to castle.
        ("nrbbqrkn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQRKN w - - 0 1", "", &[]),
        // King already on its destination (g1), rook h1 -> f1.
        ("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", &["g1h1"]),
        // ... but another rook stands on the rook's destination.
        ("4k3/8/8/8/8/8/8/5RKR w H - 0 1", "", &[]),
        // Rook already on its destination (d1): king b1 -> c1.
        ("4k3/8/8/8/8/8/8/1K1R4 w D - 0 1", "b1d1", &["b1d1"]),
        // Castling rook between the king and its destination: rook stays on f1, king -> g1.
        ("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1", &["e1f1"]),
        // The rook's own square (a1, b-file neighbour attacked) does not matter: c1 stays, a1 -> d1.
        ("1r2k3/8/8/8/8/8/8/R1K5 w A - 0 1", "c1a1", &["c1a1"]),
        // The castling rook shielded the king's destination and leaves it (a1 rook hits c1).
        ("4k3/8/8/8/8/8/8/r1RK4 w C - 0 1", "", &[]),
        // The rook shields the king now, but the king's path runs into the enemy rook.
        ("4k3/8/8/8/8/8/8/1KR4r w C - 0 1", "", &[]),
        ("4k3/8/8/8/8/8/8/5KRr w G - 0 1", "", &[]),
        // A square the king crosses (d1, c1) is attacked.
        ("3rk3/8/8/8/8/8/8/1K3R2 w F - 0 1", "", &[]),
        ("2r1k3/8/8/8/8/8/8/1K3R2 w F - 0 1", "", &[]),
    ];
    for &(fen, castle, expected) in cases {
        let pos = read960(fen);
        let castles: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.is_castling())
            .map(|&m| Uci::from_move(&pos, m).to_string())
            .collect();
        assert_eq!(castles, expected, "{fen}");
        if !castle.is_empty() && !expected.is_empty() {
            let mv = read_uci(&pos, castle).unwrap();
            let after = pos.make_move(mv);
            assert!(!after.is_attacked(after.king_square(pos.turn()), !pos.turn()), "{fen}");
            assert_eq!(after.castling().bits() & 3, 0);
        }
    }
}
