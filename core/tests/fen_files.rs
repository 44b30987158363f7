//! The malformed and unusual FENs of `tests/data/fen`, and random mutations.

use chesscore_test_support as common;

use chesscore_core::{EnPassantMode, Fen, FenError, FenOptions, FenWriteOptions, Position, FEN_MAX_INPUT};
use serde_json::Value;

/// The error variants a `bad.txt` reason may produce. Precedence is fixed by the reader: the
/// length limit, then any byte that is not printable ASCII, then the fields left to right
/// (syntax), then the position checks.
fn expected_variants(reason: &str) -> &'static [&'static str] {
    match reason {
        "empty" => &["Empty"],
        // A missing space merges two fields: the merged field is then the one in error.
        "fields" => &["FieldCount", "SideToMove", "PieceLetter"],
        "ranks" => &["RankCount", "RankWidth"],
        "width" => &["RankWidth", "EmptySquareCount"],
        "digits" => &["EmptySquareCount"],
        "piece" => &["PieceLetter"],
        "side" => &["SideToMove"],
        "castling" => &["Castling", "BadCastlingRights"],
        "enpassant" => &["EnPassant", "InvalidEnPassant"],
        "clock" => &["HalfmoveClock", "FullmoveNumber"],
        "overflow" => &["HalfmoveClock", "FullmoveNumber"],
        "kings" => &["MissingKing", "TooManyKings"],
        "toomany" => &["TooManyPieces", "TooManyPawns"],
        "pawns" => &["PawnOnBackRank"],
        "check" => &["OppositeCheck", "ImpossibleCheck"],
        "long" => &["TooLong"],
        "nonascii" | "control" => &["InvalidCharacter"],
        "separator" => &["RankCount"],
        other => panic!("unknown reason {other}"),
    }
}

fn variant_name(error: &FenError) -> String {
    let debug = format!("{error:?}");
    debug.split([' ', '{']).next().unwrap().to_string()
}

fn has_bad_byte(fen: &str) -> bool {
    let trimmed = fen.trim_matches([' ', '\t', '\r', '\n']);
    trimmed.bytes().any(|b| !(b.is_ascii_graphic() || b == b' ' || b == b'\t'))
}

fn check_rejected(reason: &str, fen: &str) {
    let error = Position::from_fen(fen).expect_err(&format!("accepted {reason}: {fen:?}"));
    let name = variant_name(&error);
    let allowed: &[&str] = if fen.len() > FEN_MAX_INPUT {
        &["TooLong"]
    } else if has_bad_byte(fen) {
        &["InvalidCharacter"]
    } else {
        expected_variants(reason)
    };
    assert!(allowed.contains(&name.as_str()), "{reason}: {fen:?} gave {error:?}");
    assert!(error.offset() <= fen.len().max(FEN_MAX_INPUT), "{error:?}");
    assert!(!error.to_string().is_empty());
}

#[test]
fn bad_txt_is_rejected_with_the_right_variant() {
    let text = std::fs::read_to_string(common::data("fen/bad.txt")).unwrap();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (reason, fen) = line.split_once('\t').unwrap_or((line, ""));
        check_rejected(reason, fen);
        count += 1;
    }
    assert!(count >= 40, "{count}");
}

#[test]
fn bad_jsonl_is_rejected_with_the_right_variant() {
    for line in common::lines("fen/bad.jsonl") {
        let v: Value = serde_json::from_str(&line).unwrap();
        check_rejected(v["reason"].as_str().unwrap(), v["fen"].as_str().unwrap());
    }
}

/// python-chess accepts all of `good.jsonl`; this reader agrees except where its
/// specification is stricter: fewer than four fields, and the `~` promoted-piece marker.
#[test]
fn good_jsonl_is_accepted_and_canonicalised() {
    for line in common::lines("fen/good.jsonl") {
        let v: Value = serde_json::from_str(&line).unwrap();
        let (kind, fen) = (v["kind"].as_str().unwrap(), v["fen"].as_str().unwrap());
        match kind {
            "missing_fields" => assert!(matches!(Position::from_fen(fen), Err(FenError::FieldCount { .. })), "{fen}"),
            "promoted_tilde" => assert!(matches!(Position::from_fen(fen), Err(FenError::PieceLetter { .. })), "{fen}"),
            _ => {
                let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{kind}: {fen}: {e}"));
                assert_eq!(pos.to_fen(), v["canonical"].as_str().unwrap(), "{kind}: {fen}");
            }
        }
    }
}

#[test]
fn canonical_round_trip_is_byte_exact() {
    let recorded = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, ..Default::default() };
    for line in common::lines("vectors/dev.jsonl").iter().take(500) {
        let v: Value = serde_json::from_str(line).unwrap();
        let canonical = v["fen_canonical"].as_str().unwrap();
        let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
        let (pos, _) = Position::from_fen_with(canonical, &options).unwrap();
        assert_eq!(pos.to_fen(), canonical);
        assert_eq!(pos.to_fen_with(&recorded), canonical);
    }
}

const MUTATION_ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefghAH0912 \t\r\n.~\x00\xff";

/// Random edits of valid FENs never panic, and whatever is accepted writes a FEN that reads
/// back to the same position.
#[test]
fn random_mutations_never_panic() {
    let seeds: Vec<String> = common::lines("vectors/dev.jsonl")
        .iter()
        .take(300)
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["fen"].as_str().unwrap().to_string())
        .collect();
    let mut rng = common::Rng(0x5eed_f00d);
    let mut accepted = 0;
    for round in 0..60_000 {
        let mut bytes = seeds[round % seeds.len()].as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len() + 1);
            let byte = MUTATION_ALPHABET[rng.below(MUTATION_ALPHABET.len())];
            match rng.below(3) {
                0 if at < bytes.len() => bytes[at] = byte,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, byte),
            }
        }
        let Ok(fen) = Fen::parse_bytes(&bytes) else { continue };
        let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
        if let Ok((pos, _)) = fen.validate(&options) {
            accepted += 1;
            let again = Position::from_fen_with(&pos.to_fen(), &options).unwrap().0;
            assert_eq!(again.to_fen(), pos.to_fen());
            assert_eq!(again.zobrist(), again.compute_zobrist());
            let _ = pos.legal_moves();
        }
    }
    assert!(accepted > 1000, "{accepted}");
}
