//! Differential test against python-chess: every position of `vectors/dev.jsonl` must have the
//! same legal moves, FEN after each move, Polyglot keys and status flags.

use chesscore_test_support as common;

use chesscore_core::{BoardStyle, Diagram, EnPassantMode, FenError, FenOptions, FenWriteOptions, Position, Uci};
use serde_json::Value;

/// python-chess's `str(board)`: squares separated by spaces, `.` for empty.
fn python_board(pos: &Position) -> String {
    Diagram::new(pos, BoardStyle::Plain)
        .to_string()
        .split('\n')
        .map(|row| {
            row.chars().map(|c| if c == ' ' { ".".to_string() } else { c.to_string() }).collect::<Vec<_>>().join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn dev_vectors_agree_with_python_chess() {
    let lines = common::lines("vectors/dev.jsonl");
    assert!(lines.len() > 2000);
    let mut moves_checked = 0;
    let mut impossible_checks = 0;
    for line in &lines {
        let v: Value = serde_json::from_str(line).unwrap();
        let fen = v["fen"].as_str().unwrap();
        // python-chess accepts checks no single move could give (two pawns checking, for
        // instance); the strict default rejects them, the option waives that test.
        let pos = match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(FenError::ImpossibleCheck { .. }) => {
                impossible_checks += 1;
                let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
                Position::from_fen_with(fen, &options).unwrap().0
            }
            Err(e) => panic!("{fen}: {e}"),
        };
        let ctx = || format!("position {fen}");

        let mut ours: Vec<String> = pos.legal_moves().iter().map(|&m| Uci::from_move(&pos, m).to_string()).collect();
        ours.sort();
        let theirs: Vec<String> =
            v["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert_eq!(ours, theirs, "{}", ctx());
        assert_eq!(pos.legal_move_count(), theirs.len(), "{}", ctx());

        assert_eq!(pos.to_fen(), v["fen_canonical"].as_str().unwrap(), "{}", ctx());
        let recorded = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, ..Default::default() };
        assert_eq!(pos.to_fen_with(&recorded), fen, "{}", ctx());
        assert_eq!(format!("{:016x}", pos.zobrist()), v["zobrist"].as_str().unwrap(), "{}", ctx());
        assert_eq!(pos.zobrist(), pos.compute_zobrist(), "{}", ctx());
        assert_eq!(python_board(&pos), v["board"].as_str().unwrap(), "{}", ctx());

        assert_eq!(pos.in_check(), v["is_check"].as_bool().unwrap(), "check {}", ctx());
        assert_eq!(pos.is_checkmate(), v["is_checkmate"].as_bool().unwrap(), "mate {}", ctx());
        assert_eq!(pos.is_stalemate(), v["is_stalemate"].as_bool().unwrap(), "stalemate {}", ctx());
        assert_eq!(
            pos.is_insufficient_material(),
            v["is_insufficient_material"].as_bool().unwrap(),
            "material {}",
            ctx()
        );
        assert_eq!(pos.is_fifty_moves(), v["is_fifty_moves"].as_bool().unwrap(), "fifty {}", ctx());
        assert_eq!(pos.can_claim_fifty_moves(), v["can_claim_fifty_moves"].as_bool().unwrap(), "claim {}", ctx());

        for entry in v["moves"].as_array().unwrap() {
            let uci = entry[0].as_str().unwrap();
            let mv =
                uci.parse::<Uci>().and_then(|u| u.to_move(&pos)).unwrap_or_else(|e| panic!("{uci}: {e} in {}", ctx()));
            assert_eq!(Uci::from_move(&pos, mv).to_string(), uci);
            let after = pos.make_move(mv);
            assert_eq!(after.to_fen(), entry[2].as_str().unwrap(), "{uci} in {}", ctx());
            assert_eq!(format!("{:016x}", after.zobrist()), entry[3].as_str().unwrap(), "{uci} in {}", ctx());
            assert_eq!(after.zobrist(), after.compute_zobrist(), "{uci} in {}", ctx());
            moves_checked += 1;
        }
    }
    assert!(moves_checked > 20_000, "{moves_checked}");
    println!("{} positions, {moves_checked} moves, {impossible_checks} read with allow_impossible_check", lines.len());
}
