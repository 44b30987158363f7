//! `Setup`, where a FEN, the six FEN components, an EPD record and a PGN `FEN` tag meet: each
//! gives the same setup for the same position, and setup, position and FEN text go round.

use chesscore_test_support as common;

use chesscore_core::pgn::PgnReader;
use chesscore_core::{
    CastlingNotation, EnPassantMode, Epd, Fen, FenField, FenOptions, FenWriteOptions, Position, Repair, Setup,
};
use serde_json::Value;

/// The FENs of the dev vectors (each position and the positions after its moves), with whether
/// they are Chess960.
fn vector_fens() -> Vec<(String, bool)> {
    let mut fens = Vec::new();
    for (name, chess960) in [("vectors/dev.jsonl", false), ("vectors/dev960.jsonl", true)] {
        for line in common::lines(name) {
            let v: Value = serde_json::from_str(&line).unwrap();
            fens.push((v["fen"].as_str().unwrap().to_string(), chess960));
            for mv in v["moves"].as_array().unwrap().iter().take(3) {
                fens.push((mv[2].as_str().unwrap().to_string(), chess960));
            }
        }
    }
    fens
}

fn options(chess960: bool) -> FenOptions {
    // A few dev positions have checks no single move could give.
    FenOptions { chess960, allow_impossible_check: true, ..FenOptions::default() }
}

/// FEN -> Setup -> Position -> Setup -> FEN, and the setup's FEN is the position's with the en
/// passant square as recorded and X-FEN castling.
#[test]
fn fen_setup_position_round_trip() {
    let fens = vector_fens();
    let as_setup_writes = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, castling: CastlingNotation::XFen };
    for (text, chess960) in &fens {
        let fen = Fen::parse(text).unwrap();
        let setup = *fen.setup();
        let (pos, repairs) = fen.validate(&options(*chess960)).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(repairs.is_empty());
        assert_eq!(pos.to_setup(), setup, "{text}");
        assert_eq!(Setup::from(&pos), setup);
        assert_eq!(Position::from_setup(setup, &options(*chess960)), Ok((pos, repairs)), "{text}");
        let written = Fen::from(setup).to_string();
        assert_eq!(written, pos.to_fen_with(&as_setup_writes), "{text}");
        assert_eq!(written.parse::<Fen>().unwrap().into_setup(), setup, "{text}");
    }
    assert!(fens.len() > 5000, "{} FENs", fens.len());
    assert_eq!(Position::try_from(Setup::default()), Ok(Position::startpos()));
}

/// The six fields given apart read as the FEN does, field by field.
#[test]
fn components_read_as_the_fen() {
    for (text, chess960) in vector_fens() {
        let fields: Vec<&[u8]> = text.split(' ').map(str::as_bytes).collect();
        let parts: [&[u8]; 6] = fields.try_into().unwrap();
        let from_parts = Fen::from_component_bytes(parts).unwrap();
        let fen = Fen::parse(&text).unwrap();
        assert_eq!(from_parts, fen, "{text}");
        assert_eq!(from_parts.validate(&options(chess960)), fen.validate(&options(chess960)));
    }
    // Errors count in the fields joined by single spaces, as in the FEN.
    for line in common::lines("fen/bad.jsonl") {
        let v: Value = serde_json::from_str(&line).unwrap();
        let text = v["fen"].as_str().unwrap();
        let Ok(parts) = <[&str; 6]>::try_from(text.split(' ').collect::<Vec<_>>()) else { continue };
        if parts.iter().any(|p| p.is_empty() || p.contains('\t')) {
            continue;
        }
        let [placement, side, castling, en_passant, halfmove, fullmove] = parts;
        assert_eq!(
            Position::from_fen_components(placement, side, castling, en_passant, halfmove, fullmove),
            Position::from_fen(text),
            "{text:?}"
        );
    }
}

/// An EPD record's position fields with `hmvc`/`fmvn`, and a PGN `FEN` tag, give the setup
/// the FEN gives.
#[test]
fn epd_and_pgn_fen_tags_give_the_fen_setup() {
    let fens = vector_fens();
    let mut pgn = String::new();
    for (text, chess960) in &fens {
        let setup = *Fen::parse(text).unwrap().setup();
        let fields: Vec<&str> = text.split(' ').collect();
        let line = format!("{} hmvc {}; fmvn {}; id \"x\";", fields[..4].join(" "), fields[4], fields[5]);
        let epd = Epd::parse_with(&line, &options(*chess960)).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(epd.position().to_setup(), setup, "{line}");
        let variant = if *chess960 { "[Variant \"Chess960\"]\n" } else { "" };
        pgn.push_str(&format!("[SetUp \"1\"]\n[FEN \"{text}\"]\n{variant}\n*\n\n"));
    }
    let mut reader = PgnReader::from_bytes(pgn.as_bytes());
    for (text, chess960) in &fens {
        let record = reader.next_game().unwrap().unwrap();
        assert_eq!(record.start().to_setup(), *Fen::parse(text).unwrap().setup(), "{text}");
        assert_eq!(record.start().is_chess960(), *chess960, "{text}");
    }
    assert!(reader.next_game().unwrap().is_none());
}

/// A setup's errors point into the FEN its `Fen` writes: reading that text back gives the same
/// errors, offsets and field ranges.
#[test]
fn setup_errors_point_into_its_fen() {
    let mut texts: Vec<String> = Vec::new();
    for name in ["fen/bad.jsonl", "fen/good.jsonl"] {
        for line in common::lines(name) {
            let v: Value = serde_json::from_str(&line).unwrap();
            texts.push(v["fen"].as_str().unwrap().to_string());
        }
    }
    let mut errors = 0;
    for text in &texts {
        let Ok(fen) = Fen::parse(text) else { continue };
        let made = Fen::from(*fen.setup());
        let reread = Fen::parse(&made.to_string()).unwrap();
        assert_eq!(reread.setup(), made.setup(), "{text:?}");
        for field in [FenField::Input, FenField::Placement, FenField::Castling, FenField::FullmoveNumber] {
            assert_eq!(made.field_range(field), reread.field_range(field), "{text:?}");
        }
        for chess960 in [false, true] {
            for repair in [Repair::Reject, Repair::Drop] {
                let options =
                    FenOptions { chess960, bad_castling: repair, bad_en_passant: repair, ..FenOptions::default() };
                assert_eq!(made.validate(&options), reread.validate(&options), "{text:?}");
                errors += usize::from(made.validate(&options).is_err());
            }
        }
    }
    assert!(errors > 40, "{errors} errors");
}
