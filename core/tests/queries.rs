//! Position queries (pseudo-legal moves, checkers, pins, attackers, FEN files) against
//! python-chess's answers in tests/data/core_queries.jsonl (see gen_core_queries.py).

use chesscore_core::{Bitboard, Color, FenError, FenFileError, FenOptions, Position, Square, Uci};
use serde_json::Value;

fn squares(value: &Value) -> Bitboard {
    value.as_array().unwrap().iter().map(|s| s.as_str().unwrap().parse::<Square>().unwrap()).collect()
}

#[test]
fn queries_agree_with_python_chess() {
    let text = include_str!("../../tests/data/core_queries.jsonl");
    let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
    let mut count = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let fen = v["fen"].as_str().unwrap();
        let pos = Position::from_fen_with(fen, &options).unwrap().0;
        let mut pseudo: Vec<String> =
            pos.pseudo_legal_moves().iter().map(|&m| Uci::from_move(&pos, m).to_string()).collect();
        pseudo.sort();
        let expected: Vec<&str> = v["pseudo"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        assert_eq!(pseudo, expected, "{fen}");
        // Every legal move is pseudo-legal, and is_legal agrees with the legal list.
        let legal = pos.legal_moves();
        for &mv in pos.pseudo_legal_moves().iter() {
            assert_eq!(pos.is_legal(mv), legal.contains(&mv), "{fen} {mv:?}");
        }
        assert_eq!(pos.checkers(), squares(&v["checkers"]), "{fen}");
        assert_eq!(pos.in_check(), pos.checkers().any());
        assert_eq!(pos.pinned(), squares(&v["pinned"]), "{fen}");
        for entry in v["attackers"].as_array().unwrap() {
            let sq: Square = entry[0].as_str().unwrap().parse().unwrap();
            assert_eq!(pos.attackers_to(sq, Color::White), squares(&entry[1]), "{fen} {sq}");
            assert_eq!(pos.attackers_to(sq, Color::Black), squares(&entry[2]), "{fen} {sq}");
            assert_eq!(pos.is_attacked(sq, Color::White), !entry[1].as_array().unwrap().is_empty());
        }
        for sq in Square::ALL {
            let moves = pos.legal_moves_from(sq);
            assert!(moves.iter().all(|m| m.from() == sq));
            assert_eq!(moves.len(), legal.iter().filter(|m| m.from() == sq).count(), "{fen} {sq}");
        }
        count += 1;
    }
    assert!(count > 500, "{count}");
}

#[test]
fn fen_file_reading() {
    let dir = std::env::temp_dir().join(format!("chesscore-fen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("position.fen");
    std::fs::write(&path, "\n  \n4k3/8/8/8/8/8/8/4K2R w K - 0 1\nignored\n").unwrap();
    let pos = Position::from_fen_file(&path).unwrap();
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    std::fs::write(&path, "4k3/8/8/8/8/8/8/4K2R w Q - 0 1\n").unwrap();
    assert!(matches!(Position::from_fen_file(&path), Err(FenFileError::Fen(FenError::BadCastlingRights { .. }))));
    std::fs::write(&path, "\n\n").unwrap();
    assert!(matches!(Position::from_fen_file(&path), Err(FenFileError::Fen(FenError::Empty))));
    let missing = dir.join("missing.fen");
    assert!(matches!(Position::from_fen_file(&missing), Err(FenFileError::NotFound(p)) if p == missing));
    std::fs::remove_dir_all(&dir).unwrap();
}
