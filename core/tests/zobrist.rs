//! The incrementally updated Zobrist key always equals the key computed from scratch; variant
//! keys add what the variant adds to the chess key. (Equality with shakmaty's keys is checked in
//! the benchmark crate.)

use chesscore_test_support as common;

use std::collections::{HashMap, HashSet};

use chesscore_core::variant::{Variant, VariantPosition};
use chesscore_core::{attacks, zobrist, Color, EnPassantMode, FenOptions, FenWriteOptions, PieceKind, Position};
use serde_json::Value;

/// The kinds a crazyhouse pocket holds.
const POCKET_KINDS: [PieceKind; 5] =
    [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen];

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

// ----- variant positions -----

/// The Polyglot key of a variant position's board from scratch, with the public tables.
fn polyglot_from_scratch(pos: &VariantPosition) -> u64 {
    let keys = zobrist::polyglot_random();
    let mut key = 0;
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            for sq in pos.pieces_of(color, kind) {
                key ^= keys[64 * (2 * kind.index() + usize::from(color == Color::White)) + sq.index()];
            }
        }
    }
    key ^= (0..4).filter(|bit| pos.castling().bits() & 1 << bit != 0).fold(0, |k, bit| k ^ keys[768 + bit]);
    let pawns = pos.pieces_of(pos.turn(), PieceKind::Pawn);
    if let Some(ep) = pos.en_passant().filter(|&ep| (attacks::pawn_attacks(!pos.turn(), ep) & pawns).any()) {
        key ^= keys[772 + ep.file().index()];
    }
    if pos.turn() == Color::White {
        key ^= keys[780];
    }
    key
}

/// Random games of every variant: the key is the Polyglot key of the board recomputed from
/// scratch plus a part that depends on the pockets, promoted pieces and checks alone, and is
/// zero without them (chess, Chess960 and the variants that have none get the chess key).
#[test]
fn variant_keys_over_random_games() {
    let mut rng = common::Rng(0x2545_0038);
    let mut extras = HashMap::new();
    let mut plies = 0;
    for variant in Variant::ALL {
        for _ in 0..30 {
            let mut pos = VariantPosition::new(variant);
            for _ in 0..150 {
                let extra = pos.zobrist() ^ polyglot_from_scratch(&pos);
                if let Some(chess) = pos.as_chess() {
                    assert_eq!(pos.zobrist(), chess.zobrist(), "{pos:?}");
                }
                let pockets = Color::ALL.map(|c| POCKET_KINDS.map(|k| pos.pocket(c).count(k)));
                let checks = Color::ALL.map(|c| pos.remaining_checks(c));
                let plain = pockets == [[0; 5]; 2] && pos.promoted().is_empty() && checks == [3, 3];
                assert_eq!(extra == 0, plain, "{pos:?}");
                let known = *extras.entry((pockets, pos.promoted().0, checks)).or_insert(extra);
                assert_eq!(known, extra, "{pos:?}");
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]).unwrap();
                plies += 1;
            }
        }
    }
    assert!(plies > 20_000 && extras.len() > 400, "{plies} {}", extras.len());
}

/// Keys tell apart what only the pockets, promoted pieces or checks tell apart.
#[test]
fn variant_keys_differ_with_pockets_promotions_and_checks() {
    let mut keys = HashSet::new();
    for white in 0..=3 {
        for black in 0..=3 {
            let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {white}+{black} 0 1");
            assert!(keys.insert(VariantPosition::from_fen(Variant::ThreeCheck, &fen).unwrap().zobrist()));
        }
    }
    let mut keys = HashSet::new();
    let pockets = ["", "P", "PP", "p", "N", "n", "B", "R", "Q", "q", "PPPPPPPPPPPPPPPP", "PPPPPPPPPPPPPPP"];
    for pocket in pockets {
        for board in ["4k3/8/8/8/8/8/8/Q3K3", "4k3/8/8/8/8/8/8/Q~3K3"] {
            let fen = format!("{board}[{pocket}] w - - 0 40");
            assert!(keys.insert(VariantPosition::from_fen(Variant::Crazyhouse, &fen).unwrap().zobrist()), "{fen}");
        }
    }
}
