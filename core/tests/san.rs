//! SAN against python-chess: the SAN of every legal move of every vector position, the round
//! trip through both reading modes, and every case of `san/san_cases.jsonl`.

#[path = "../../tests/common/mod.rs"]
mod common;

use chesscore_core::{FenOptions, Move, Position, SanError, SanMode, SanOptions};
use serde_json::Value;

fn read_position(v: &Value) -> Position {
    let fen = v["fen"].as_str().unwrap();
    let options = FenOptions {
        chess960: v["chess960"].as_bool().unwrap_or(false),
        allow_impossible_check: true,
        ..FenOptions::default()
    };
    Position::from_fen_with(fen, &options).unwrap_or_else(|e| panic!("{fen}: {e}")).0
}

fn check_vectors(file: &str) -> usize {
    let lenient = SanOptions::default();
    let mut checked = 0;
    for line in common::lines(file) {
        let v: Value = serde_json::from_str(&line).unwrap();
        let pos = read_position(&v);
        let fen = v["fen"].as_str().unwrap();
        for entry in v["moves"].as_array().unwrap() {
            let uci = entry[0].as_str().unwrap();
            let expected = entry[1].as_str().unwrap();
            let mv = pos.parse_uci(uci).unwrap();
            let san = pos.san(mv).unwrap_or_else(|e| panic!("{uci}: {e} in {fen}"));
            assert_eq!(san, expected, "{uci} in {fen}");
            assert_eq!(pos.parse_san_with(&san, &lenient), Ok(mv), "lenient {san} in {fen}");
            assert_eq!(pos.parse_san_with(&san, &SanOptions::STRICT), Ok(mv), "strict {san} in {fen}");
            let bare = san.trim_end_matches(['+', '#']);
            assert_eq!(pos.san_without_suffix(mv).unwrap(), bare, "{uci} in {fen}");
            if bare != &*san {
                assert!(
                    matches!(pos.parse_san_with(bare, &SanOptions::STRICT), Err(SanError::NotCanonical { mv: m, .. }) if m == mv),
                    "strict must want the suffix: {bare} in {fen}"
                );
                assert_eq!(pos.parse_san(bare), Ok(mv), "lenient without suffix {bare} in {fen}");
            }
            checked += 1;
        }
        // Pseudo-legal moves that are not legal have no SAN.
        let legal = pos.legal_moves();
        for &mv in pos.pseudo_legal_moves().iter().filter(|mv| !legal.contains(mv)) {
            assert!(pos.san(mv).is_err(), "{mv:?} is illegal in {fen}");
        }
    }
    checked
}

#[test]
fn dev_vectors_san_matches_python_chess_and_round_trips() {
    let checked = check_vectors("vectors/dev.jsonl");
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn chess960_vectors_san_matches_python_chess_and_round_trips() {
    let checked = check_vectors("vectors/dev960.jsonl");
    assert!(checked > 5_000, "{checked}");
}

/// Over-specified and long-algebraic spellings of every legal move read back as that move.
#[test]
fn lenient_spellings_of_every_move() {
    for line in common::lines("vectors/dev.jsonl").iter().step_by(4) {
        let v: Value = serde_json::from_str(line).unwrap();
        let pos = read_position(&v);
        for &mv in pos.legal_moves().iter() {
            if mv.is_castling() {
                let zeros = pos.san(mv).unwrap().replace('O', "0");
                assert_eq!(pos.parse_san(&zeros), Ok(mv));
                continue;
            }
            let piece = pos.piece_at(mv.from()).unwrap().kind;
            let letter =
                if piece == chesscore_core::PieceKind::Pawn { String::new() } else { piece.char_upper().to_string() };
            let promo = mv.promotion().map(|k| k.char_lower().to_string()).unwrap_or_default();
            for sep in ["", "-", "x"] {
                let text = format!("{letter}{}{sep}{}{promo}", mv.from(), mv.to());
                assert_eq!(pos.parse_san(&text), Ok(mv), "{text} in {}", v["fen"]);
            }
            let annotated = format!("{}?!", pos.san(mv).unwrap());
            assert_eq!(pos.parse_san(&annotated), Ok(mv));
            assert!(matches!(pos.parse_san_with(&annotated, &SanOptions::STRICT), Err(SanError::NotCanonical { .. })));
        }
    }
}

#[test]
fn san_cases_agree_with_python_chess() {
    let lenient = SanOptions { mode: SanMode::Lenient, allow_null: true };
    let strict = SanOptions { mode: SanMode::Strict, allow_null: true };
    let (mut total, mut extra) = (0, 0);
    for line in common::lines("san/san_cases.jsonl") {
        let v: Value = serde_json::from_str(&line).unwrap();
        let pos = read_position(&v);
        let input = v["input"].as_str().unwrap();
        let expected = v["expected"].as_str().unwrap();
        let ctx = format!("{input:?} in {}", v["fen"]);
        let got = pos.parse_san_with(input, &lenient);
        let strict_got = pos.parse_san_with(input, &strict);
        total += 1;
        if expected != "error" {
            let mv = got.unwrap_or_else(|e| panic!("{ctx}: {e}"));
            assert_eq!(mv.to_uci(), expected, "{ctx}");
            if mv != Move::NULL {
                let canonical = v["canonical_san"].as_str().unwrap();
                assert_eq!(pos.san(mv).unwrap(), canonical, "{ctx}");
                if input == canonical {
                    assert_eq!(strict_got, Ok(mv), "{ctx}");
                } else {
                    assert!(matches!(strict_got, Err(SanError::NotCanonical { .. })), "{ctx}: {strict_got:?}");
                }
            }
            continue;
        }
        match v["error_kind"].as_str().unwrap() {
            "illegal" => assert_eq!(got, Err(SanError::Illegal), "{ctx}"),
            "ambiguous" => assert_eq!(got, Err(SanError::Ambiguous), "{ctx}"),
            "invalid" => match got {
                Err(SanError::Syntax) => {}
                // Lenient reading goes beyond python-chess's parse_san only for annotations,
                // and then reads the move python-chess's PGN reader reads.
                Ok(mv) => {
                    assert!(input.ends_with(['!', '?']), "{ctx}: accepted as {mv:?}");
                    assert_eq!(Some(mv.to_uci().as_str()), v["expected_in_pgn"].as_str(), "{ctx}");
                    extra += 1;
                }
                Err(e) => panic!("{ctx}: {e}, python-chess says invalid"),
            },
            kind => panic!("unknown error kind {kind}"),
        }
        if strict_got.is_ok() {
            panic!("{ctx}: strict accepted an input python-chess rejects");
        }
    }
    assert!(total > 2000);
    println!("{total} SAN cases, {extra} accepted only with annotations");
}
