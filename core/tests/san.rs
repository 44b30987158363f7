//! SAN against python-chess: the SAN of every legal move of every vector position, the round
//! trip through both reading modes, and every case of `san/san_cases.jsonl`.

use chesscore_test_support as common;

use chesscore_core::{FenOptions, Move, Position, San, SanError, SanMode, SanOptions, Uci};
use serde_json::Value;

fn from_uci(pos: &Position, text: &str) -> Move {
    text.parse::<Uci>().unwrap().to_move(pos).unwrap_or_else(|e| panic!("{text}: {e} in {}", pos.to_fen()))
}

/// Reads `text` as SAN: its syntax, then the move it names in `pos`.
fn read(pos: &Position, text: &str, options: &SanOptions) -> Result<Move, SanError> {
    text.parse::<San>()?.to_move_with(pos, options)
}

fn read_lenient(pos: &Position, text: &str) -> Result<Move, SanError> {
    read(pos, text, &SanOptions::default())
}

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
            let mv = from_uci(&pos, uci);
            let san = San::from_move(&pos, mv).unwrap_or_else(|e| panic!("{uci}: {e} in {fen}"));
            assert_eq!(san, expected, "{uci} in {fen}");
            assert_eq!(read(&pos, &san, &lenient), Ok(mv), "lenient {san} in {fen}");
            assert_eq!(read(&pos, &san, &SanOptions::STRICT), Ok(mv), "strict {san} in {fen}");
            // The parts the writer stored name the move too.
            assert_eq!(san.to_move_with(&pos, &SanOptions::STRICT), Ok(mv), "written {san} in {fen}");
            let bare = san.trim_end_matches(['+', '#']);
            let written_bare = San::from_move_without_suffix(&pos, mv).unwrap();
            assert_eq!(written_bare, bare, "{uci} in {fen}");
            assert_eq!(written_bare.to_move(&pos), Ok(mv), "written {bare} in {fen}");
            if bare != &*san {
                assert!(
                    matches!(read(&pos, bare, &SanOptions::STRICT), Err(SanError::NotCanonical { mv: m, .. }) if m == mv),
                    "strict must want the suffix: {bare} in {fen}"
                );
                assert_eq!(read_lenient(&pos, bare), Ok(mv), "lenient without suffix {bare} in {fen}");
            }
            checked += 1;
        }
        // Pseudo-legal moves that are not legal have no SAN.
        let legal = pos.legal_moves();
        for &mv in pos.pseudo_legal_moves().iter().filter(|mv| !legal.contains(mv)) {
            assert!(San::from_move(&pos, mv).is_err(), "{mv:?} is illegal in {fen}");
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
                let zeros = San::from_move(&pos, mv).unwrap().replace('O', "0");
                assert_eq!(read_lenient(&pos, &zeros), Ok(mv));
                continue;
            }
            let piece = pos.piece_at(mv.from()).unwrap().kind;
            let letter =
                if piece == chesscore_core::PieceKind::Pawn { String::new() } else { piece.char_upper().to_string() };
            let promo = mv.promotion().map(|k| k.char_lower().to_string()).unwrap_or_default();
            for sep in ["", "-", "x"] {
                let text = format!("{letter}{}{sep}{}{promo}", mv.from(), mv.to());
                assert_eq!(read_lenient(&pos, &text), Ok(mv), "{text} in {}", v["fen"]);
            }
            let annotated = format!("{}?!", San::from_move(&pos, mv).unwrap());
            assert_eq!(read_lenient(&pos, &annotated), Ok(mv));
            assert!(matches!(read(&pos, &annotated, &SanOptions::STRICT), Err(SanError::NotCanonical { .. })));
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
        let got = read(&pos, input, &lenient);
        let strict_got = read(&pos, input, &strict);
        total += 1;
        if expected != "error" {
            let mv = got.unwrap_or_else(|e| panic!("{ctx}: {e}"));
            assert_eq!(Uci::from_move(&pos, mv).to_string(), expected, "{ctx}");
            if mv != Move::NULL {
                let canonical = v["canonical_san"].as_str().unwrap();
                assert_eq!(San::from_move(&pos, mv).unwrap(), canonical, "{ctx}");
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
                // Lenient reading goes beyond python-chess's parse_san only for annotations
                // and en passant marks, and then reads the move python-chess's PGN reader
                // reads.
                Ok(mv) => {
                    assert!(input.ends_with(['!', '?']) || input.ends_with("e.p."), "{ctx}: accepted as {mv:?}");
                    assert_eq!(
                        Some(Uci::from_move(&pos, mv).to_string().as_str()),
                        v["expected_in_pgn"].as_str(),
                        "{ctx}"
                    );
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
