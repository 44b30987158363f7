//! Binary FEN: every position of the vector sets and of random games reads back as the position
//! its FEN describes, within the format's size bounds; malformed bytes fail with their offset.
//! (Byte-for-byte agreement with shakmaty is checked in the benchmark crate, where shakmaty is.)

use chesscore_test_support as common;

use chesscore_core::variant::{
    Variant, VariantBinaryFenError, VariantFenError, VariantPosition, VARIANT_BINARY_FEN_MAX_LEN,
};
use chesscore_core::{
    BinaryFenError, Color, FenError, FenField, FenOptions, PieceKind, Position, Repair, Square, BINARY_FEN_MAX_INPUT,
    BINARY_FEN_MAX_LEN,
};
use serde_json::Value;

/// The position its FEN describes: what a binary FEN must read back as (the en passant square
/// only when the capture is legal).
fn through_fen(pos: &Position, options: &FenOptions) -> Position {
    Position::from_fen_with(&pos.to_fen(), options).unwrap().0
}

fn check_round_trip(pos: &Position, options: &FenOptions) {
    let packed = pos.to_binary_fen();
    let bytes = packed.as_bytes();
    assert!(bytes.len() <= BINARY_FEN_MAX_LEN, "{pos:?}");
    assert_ne!(bytes.last(), Some(&0), "trailing zero for {pos:?}");
    if pos.halfmove_clock() == 0 && pos.fullmove_number() == 1 {
        assert!(bytes.len() <= 24, "{pos:?}: {packed}");
    }
    let (back, _) = Position::from_binary_fen_with(bytes, options).unwrap_or_else(|e| panic!("{pos:?}: {e}"));
    assert_eq!(back, through_fen(pos, options), "{packed}");
    // Zero padding (a fixed-width field) reads the same.
    let mut padded = bytes.to_vec();
    padded.resize(BINARY_FEN_MAX_INPUT, 0);
    assert_eq!(Position::from_binary_fen_with(&padded, options).unwrap().0, back);
}

/// The FENs of a vector file, each position's and those after each of its moves.
fn vector_fens(relative: &str) -> Vec<String> {
    let mut fens = Vec::new();
    for line in common::lines(relative) {
        let v: Value = serde_json::from_str(&line).unwrap();
        fens.push(v["fen"].as_str().unwrap().to_string());
        for m in v["moves"].as_array().into_iter().flatten() {
            fens.push(m[2].as_str().unwrap().to_string());
        }
    }
    fens
}

#[test]
fn vector_positions_round_trip() {
    let lenient = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
    let fens = vector_fens("vectors/dev.jsonl");
    assert!(fens.len() > 40_000);
    for fen in &fens {
        check_round_trip(&Position::from_fen_with(fen, &lenient).unwrap().0, &lenient);
    }
    let chess960 = FenOptions { chess960: true, allow_impossible_check: true, ..FenOptions::default() };
    let fens = vector_fens("vectors/dev960.jsonl");
    assert!(fens.len() > 8_000);
    for fen in &fens {
        check_round_trip(&Position::from_fen_with(fen, &chess960).unwrap().0, &chess960);
    }
}

#[test]
fn random_games_round_trip() {
    let mut rng = common::Rng(0x5eed_b1fe);
    let mut positions = 0;
    for game in 0..300 {
        let (mut pos, options) = if game % 5 == 4 {
            let options = FenOptions { chess960: true, ..FenOptions::default() };
            (Position::chess960_start(rng.below(960) as u32).unwrap(), options)
        } else {
            (Position::startpos(), FenOptions::default())
        };
        for _ in 0..200 {
            check_round_trip(&pos, &options);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(positions > 30_000);
}

#[test]
fn clocks_and_turn() {
    // Black to move at move 1 needs no clocks: the black king's code says whose turn it is.
    let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(pos.to_binary_fen().len(), 24);
    let longest = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295").unwrap();
    let packed = longest.to_binary_fen();
    assert_eq!(packed.len(), 8 + 1 + 5 + 5);
    assert_eq!(Position::from_binary_fen(packed.as_bytes()).unwrap(), longest);
    // Halfmove clock 0 and a later move: the clock is written as a zero before the ply.
    let later = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 2").unwrap();
    assert_eq!(&later.to_binary_fen().as_bytes()[9..], [0, 2]);
    // An even ply with the black king's code 15 still means Black to move.
    let mut bytes = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap().to_binary_fen().as_bytes().to_vec();
    bytes.extend([0, 4]);
    let pos = Position::from_binary_fen(&bytes).unwrap();
    assert_eq!((pos.turn(), pos.fullmove_number()), (Color::Black, 3));
}

#[test]
fn malformed_bytes_fail_with_offsets() {
    let kings = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap().to_binary_fen();
    let with = |tail: &[u8]| {
        let mut bytes = kings.as_bytes().to_vec();
        bytes.extend_from_slice(tail);
        Position::from_binary_fen(&bytes)
    };
    assert_eq!(kings.len(), 9);
    assert_eq!(
        with(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
        Err(BinaryFenError::Counter { field: FenField::HalfmoveClock, offset: 9 })
    );
    assert_eq!(
        with(&[0xff, 0xff, 0xff, 0xff, 0x1f]),
        Err(BinaryFenError::Counter { field: FenField::HalfmoveClock, offset: 9 })
    );
    assert_eq!(
        with(&[0, 0xff, 0xff, 0xff, 0xff, 0x7f]),
        Err(BinaryFenError::Counter { field: FenField::FullmoveNumber, offset: 10 })
    );
    assert_eq!(with(&[0, 0, 1]), Err(BinaryFenError::Variant { variant: 1, offset: 11 }));
    assert_eq!(with(&[0, 0, 0, 0, 5]), Err(BinaryFenError::TrailingBytes { offset: 13 }));
    assert_eq!(with(&[0, 0, 3]).unwrap(), Position::from_binary_fen(kings.as_bytes()).unwrap());
    assert_eq!(
        Position::from_binary_fen(&[0; BINARY_FEN_MAX_INPUT + 1]),
        Err(BinaryFenError::TrailingBytes { offset: BINARY_FEN_MAX_INPUT })
    );

    // No bytes at all: an empty board.
    assert!(matches!(
        Position::from_binary_fen(&[]),
        Err(BinaryFenError::Position { error: FenError::MissingKing { .. } })
    ));
    // The e2 pawn marked as having just advanced two squares.
    let mut e2 = Position::startpos().to_binary_fen().as_bytes().to_vec();
    e2[14] = 0x0c;
    assert_eq!(Position::from_binary_fen(&e2).unwrap_err().offset(), 14);
    // Castling code on a rook away from its corner.
    let rook = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap().to_binary_fen();
    let mut bytes = rook.as_bytes().to_vec();
    bytes[8] = 0xa6 + 7; // a1 rook code 13, e1 king code 10
    assert!(Position::from_binary_fen(&bytes).is_ok());
    let mut moved = bytes.clone();
    moved[0..8].copy_from_slice(&(1u64 << 1 | 1 << 4 | 1 << 60).to_be_bytes());
    assert!(matches!(
        Position::from_binary_fen(&moved),
        Err(BinaryFenError::Position { error: FenError::BadCastlingRights { .. } })
    ));
}

#[test]
fn chess960_castling_rooks() {
    let fen = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1";
    let options = FenOptions { chess960: true, ..FenOptions::default() };
    let pos = Position::from_fen_chess960(fen).unwrap();
    let packed = pos.to_binary_fen();
    assert_eq!(Position::from_binary_fen_with(packed.as_bytes(), &options).unwrap().0, pos);
    // Read as standard chess, inner rooks carry no right.
    assert!(matches!(
        Position::from_binary_fen(packed.as_bytes()),
        Err(BinaryFenError::Position { error: FenError::BadCastlingRights { .. } })
    ));
    // A Chess960 variant byte reads them as Chess960.
    let mut tagged = packed.as_bytes().to_vec();
    tagged.extend([0, 0, 2]);
    assert_eq!(Position::from_binary_fen(&tagged).unwrap(), pos);
}

/// The writer writes no variant byte (as `pack_standard`), so a position read as Chess960 from
/// its variant byte reads back the same only as Chess960.
#[test]
fn chess960_variant_byte_reads_back_as_chess960() {
    // Found by fuzzing: Black's right with the e8 rook and the king on h8, the variant byte 2.
    let bytes = [0x91, 2, 0x24, 0, 0x91, 4, 4, 0x91, 0x5a, 0x1e, 0, 0xe1, 8, 0xe9, 0xbe, 0, 0x7b, 2];
    let lenient = FenOptions { bad_castling: Repair::Drop, ..FenOptions::default() };
    let (pos, _) = Position::from_binary_fen_with(&bytes, &lenient).unwrap();
    assert!(pos.is_chess960());
    assert_eq!(pos.to_fen(), "r3r2k/1q6/2Q2P2/8/P3p2r/2P5/2p5/K3b2r b e - 0 62");
    let packed = pos.to_binary_fen();
    assert_ne!(packed.as_bytes().last(), Some(&2));
    let as_chess960 = FenOptions { chess960: true, ..lenient };
    assert_eq!(Position::from_binary_fen_with(packed.as_bytes(), &as_chess960).unwrap().0, pos);
    let (standard, repairs) = Position::from_binary_fen_with(packed.as_bytes(), &lenient).unwrap();
    assert_eq!(standard.to_fen(), "r3r2k/1q6/2Q2P2/8/P3p2r/2P5/2p5/K3b2r b - - 0 62");
    assert_ne!(repairs.dropped_castling, 0);
}

// ----- variant positions -----

/// Random games of every variant: each position with up to `plies` random legal moves played.
fn variant_positions(seed: u64, games: usize, plies: usize) -> Vec<VariantPosition> {
    let mut rng = common::Rng(seed);
    let mut positions = Vec::new();
    for variant in Variant::ALL {
        for _ in 0..games {
            let mut pos = VariantPosition::new(variant);
            for _ in 0..plies {
                positions.push(pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
    }
    positions
}

/// The encoding of `pos` is short, has no trailing zero, and reads back (also zero-padded) as
/// the position its FEN describes.
fn check_variant_round_trip(pos: &VariantPosition) {
    let packed = pos.to_binary_fen().unwrap_or_else(|e| panic!("{pos:?}: {e}"));
    let bytes = packed.as_bytes();
    assert!(bytes.len() <= VARIANT_BINARY_FEN_MAX_LEN, "{pos:?}");
    assert_ne!(bytes.last(), Some(&0), "trailing zero for {pos:?}");
    let expected = VariantPosition::from_fen(pos.variant(), &pos.to_fen()).unwrap();
    let back = VariantPosition::from_binary_fen(bytes).unwrap_or_else(|e| panic!("{pos:?} ({packed}): {e}"));
    assert_eq!(back, expected, "{packed}");
    assert_eq!(back.to_binary_fen().unwrap(), packed);
    let mut padded = bytes.to_vec();
    padded.resize(VARIANT_BINARY_FEN_MAX_LEN, 0);
    assert_eq!(VariantPosition::from_binary_fen(&padded).unwrap(), back);
}

#[test]
fn variant_random_games_round_trip() {
    let positions = variant_positions(0xb1fe_0038, 40, 150);
    assert!(positions.len() > 20_000, "{}", positions.len());
    let mut pockets = 0;
    let mut promoted = 0;
    let mut checks = 0;
    for pos in &positions {
        check_variant_round_trip(pos);
        pockets += usize::from(Color::ALL.iter().any(|&c| !pos.pocket(c).is_empty()));
        promoted += usize::from(pos.promoted().any());
        checks += usize::from(Color::ALL.iter().any(|&c| pos.remaining_checks(c) < 3));
    }
    // The games reach what the variant bytes carry.
    assert!(pockets > 1_000 && promoted > 10 && checks > 1_000, "{pockets} {promoted} {checks}");
}

#[test]
fn variant_bytes_are_lichess_values() {
    let expected = [0, 2, 7, 6, 1, 4, 5, 8, 9];
    for (variant, byte) in Variant::ALL.into_iter().zip(expected) {
        let mut pos = VariantPosition::new(variant);
        // Two moves, so that chess writes both clocks too.
        for _ in 0..2 {
            pos.play(pos.legal_moves()[0]).unwrap();
        }
        let packed = pos.to_binary_fen().unwrap();
        let bytes = packed.as_bytes();
        let at = 8 + (pos.occupancy().count() as usize).div_ceil(2) + 2;
        assert_eq!(bytes.get(at).copied().unwrap_or(0), byte, "{variant}: {packed}");
        assert_eq!(bytes.len(), at + usize::from(byte != 0), "{variant}: {packed}");
    }
    // From a position (3) reads as chess.
    let mut bytes = Position::startpos().to_binary_fen().as_bytes().to_vec();
    bytes.extend([0, 0, 3]);
    assert_eq!(VariantPosition::from_binary_fen(&bytes).unwrap(), VariantPosition::new(Variant::Chess));
}

/// Variant vectors of scalachess's `BinaryFenTest` ("binary format is stable"), as lichess
/// writes them (the FENs are lichess's: three-check's `+W+B` are the checks given, crazyhouse's
/// ninth row the pockets). Lichess keeps trailing zeros, which are left out here.
#[test]
fn lichess_variant_vectors() {
    let start = "ffff00000000ffff2d844ad200000000111111113e955be3";
    let vectors = [
        (Variant::KingOfTheHill, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", format!("{start}000004")),
        (
            Variant::ThreeCheck,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99 1 +0+1",
            format!("{start}63000501"),
        ),
        (Variant::Antichess, "8/7p/8/8/8/8/3K4/8 b - - 0 1", "00800000000008001a000106".into()),
        (Variant::Atomic, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2 3", format!("{start}020407")),
        (
            Variant::Horde,
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
            "ffff0066ffffffff000000000000000000000000000000000000111111113e955be3000008".into(),
        ),
        (
            Variant::RacingKings,
            "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
            "000000000000ffff793542867b3542a6000009".into(),
        ),
        (
            Variant::Crazyhouse,
            "r~n~b~q~kb~n~r~/pppppppp/8/8/8/8/PPPPPPPP/RN~BQ~KB~NR/ w KQkq - 0 499",
            format!("{start}00e407010000000000ef0000000000002a"),
        ),
        (
            Variant::Crazyhouse,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
            format!("{start}0000010000000000"),
        ),
    ];
    for (variant, fen, hex) in vectors {
        let pos = VariantPosition::from_fen(variant, fen).unwrap();
        let packed = pos.to_binary_fen().unwrap();
        assert_eq!(packed.to_string(), hex.trim_end_matches("00"), "{fen}");
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        assert_eq!(VariantPosition::from_binary_fen(&bytes).unwrap(), pos, "{fen}");
    }
}

#[test]
fn variant_extras_layout() {
    // Three-check: checks received, White's (given by Black) in the low half.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+0 0 2";
    let packed = VariantPosition::from_fen(Variant::ThreeCheck, fen).unwrap().to_binary_fen().unwrap();
    assert_eq!(&packed.as_bytes()[packed.len() - 2..], [5, 3 | 1 << 4]);
    // Crazyhouse: pawn to queen counts, White's in the low half, then the promoted squares.
    let fen = "4k3/8/8/8/8/8/8/Q~3K3[PPPNqrrrbbb] b - - 0 40";
    let packed = VariantPosition::from_fen(Variant::Crazyhouse, fen).unwrap().to_binary_fen().unwrap();
    assert_eq!(&packed.as_bytes()[packed.len() - 14..], [1, 3, 1, 0x30, 0x30, 0x10, 0, 0, 0, 0, 0, 0, 0, 1]);
}

#[test]
fn variant_malformed_bytes_fail_with_offsets() {
    let zh = VariantPosition::new(Variant::Crazyhouse).to_binary_fen().unwrap();
    let variant_at = zh.len() - 1;
    for byte in 10..=255u8 {
        let mut bad = zh.as_bytes().to_vec();
        bad[variant_at] = byte;
        assert_eq!(
            VariantPosition::from_binary_fen(&bad),
            Err(VariantBinaryFenError::UnknownVariant { variant: byte, offset: variant_at })
        );
    }
    // Three-check: 4 checks received by Black, given by White.
    let mut bad = VariantPosition::new(Variant::ThreeCheck).to_binary_fen().unwrap().as_bytes().to_vec();
    bad.push(0x40);
    let err = VariantPosition::from_binary_fen(&bad).unwrap_err();
    assert_eq!(err, VariantBinaryFenError::Checks { color: Color::White, checks: 4, offset: bad.len() - 1 });
    assert_eq!(err.offset(), bad.len() - 1);
    // Crazyhouse: a promoted piece on e4, which is empty, then a byte after the position.
    let mut bad = zh.as_bytes().to_vec();
    bad.extend([0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0]);
    let e4 = VariantPosition::from_binary_fen(&bad).unwrap_err();
    assert_eq!(e4, VariantBinaryFenError::Promoted { square: Square::E4, offset: zh.len() + 5 + 4 });
    let mut bad = zh.as_bytes().to_vec();
    bad.extend([0; 13]);
    bad.push(9);
    let offset = bad.len() - 1;
    assert_eq!(
        VariantPosition::from_binary_fen(&bad),
        Err(VariantBinaryFenError::Binary(BinaryFenError::TrailingBytes { offset }))
    );
    bad.resize(VARIANT_BINARY_FEN_MAX_LEN + 1, 0);
    assert_eq!(VariantPosition::from_binary_fen(&bad).unwrap_err().offset(), VARIANT_BINARY_FEN_MAX_LEN);
    // A position its variant refuses: king of the hill without a black king.
    let bad = [0, 0, 0, 0, 0, 0, 0, 1, 10, 0, 0, 4];
    assert!(matches!(
        VariantPosition::from_binary_fen(&bad),
        Err(VariantBinaryFenError::Position(VariantFenError::Kings { color: Color::Black, .. }))
    ));
    // A chess position keeps chess's errors.
    let no_king = [0, 0, 0, 0, 0, 0, 0, 1, 0];
    assert!(matches!(
        VariantPosition::from_binary_fen(&no_king),
        Err(VariantBinaryFenError::Binary(BinaryFenError::Position { error: FenError::MissingKing { .. } }))
    ));
}

#[test]
fn variant_pocket_overflow_is_refused() {
    let fen = "4k3/8/8/8/8/8/8/4K3[PPPPPPPPPPPPPPPP] w - - 0 40";
    let pos = VariantPosition::from_fen(Variant::Crazyhouse, fen).unwrap();
    assert_eq!(
        pos.to_binary_fen(),
        Err(VariantBinaryFenError::PocketOverflow { color: Color::White, kind: PieceKind::Pawn, count: 16 })
    );
    let fen = "4k3/8/8/8/8/8/8/4K3[PPPPPPPPPPPPPPP] w - - 0 40";
    check_variant_round_trip(&VariantPosition::from_fen(Variant::Crazyhouse, fen).unwrap());
}

/// Garbage, truncations and single-byte changes of valid encodings: never a panic, and whatever
/// reads writes back to bytes that read as a position with the same encoding (an en passant
/// square without a legal capture is not written).
#[test]
fn variant_garbage_and_truncations() {
    let mut rng = common::Rng(0xf022_0038);
    let valid: Vec<Vec<u8>> = variant_positions(0x0bad_f00d, 3, 60)
        .iter()
        .map(|pos| pos.to_binary_fen().unwrap().as_bytes().to_vec())
        .collect();
    let mut read = 0;
    for round in 0..60_000 {
        let bytes: Vec<u8> = match round % 3 {
            0 => (0..rng.below(VARIANT_BINARY_FEN_MAX_LEN + 8)).map(|_| rng.next() as u8).collect(),
            1 => {
                let v = &valid[rng.below(valid.len())];
                v[..rng.below(v.len() + 1)].to_vec()
            }
            _ => {
                let mut v = valid[rng.below(valid.len())].clone();
                let at = rng.below(v.len() + 16);
                v.resize(v.len().max(at + 1), 0);
                v[at] ^= 1 << rng.below(8);
                v
            }
        };
        if let Ok(pos) = VariantPosition::from_binary_fen(&bytes) {
            read += 1;
            if let Ok(again) = pos.to_binary_fen() {
                let back = VariantPosition::from_binary_fen(again.as_bytes()).unwrap();
                assert_eq!(back.to_fen(), pos.to_fen(), "{bytes:02x?}");
                assert_eq!(back.to_binary_fen().unwrap(), again, "{bytes:02x?}");
            }
        }
    }
    assert!(read > 5_000, "{read}");
}
