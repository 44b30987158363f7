//! Variant positions against shakmaty 0.30.1 (its `variant` feature), on random games of every
//! variant: the Zobrist key equal to shakmaty's 64-bit key, and the binary FEN byte for byte what
//! `PackedSetup::pack_variant` writes, each reader reading the other's bytes as the same
//! position. Three-check's counts byte is lichess's (checks received) where shakmaty writes the
//! remaining checks: the comparison translates it.
//!
//! Run by `scripts/test.sh` (`cargo test --manifest-path benches/Cargo.toml`), as shakmaty is a
//! dependency of this crate only.

use chesscore_core::variant::{Variant, VariantPosition};
use shakmaty::fen::Fen;
use shakmaty::packed::PackedSetup;
use shakmaty::variant::{Variant as TheirVariant, VariantPosition as TheirPosition};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, EnPassantMode, Position as _};

/// shakmaty's variant and castling mode for ours.
fn theirs(variant: Variant) -> (TheirVariant, CastlingMode) {
    let theirs = match variant {
        Variant::Chess | Variant::Chess960 => TheirVariant::Chess,
        Variant::Atomic => TheirVariant::Atomic,
        Variant::Antichess => TheirVariant::Antichess,
        Variant::Crazyhouse => TheirVariant::Crazyhouse,
        Variant::KingOfTheHill => TheirVariant::KingOfTheHill,
        Variant::ThreeCheck => TheirVariant::ThreeCheck,
        Variant::Horde => TheirVariant::Horde,
        Variant::RacingKings => TheirVariant::RacingKings,
    };
    let mode = if variant == Variant::Chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    (theirs, mode)
}

/// Compares the encodings and keys of `pos`; false when shakmaty cannot pack the position (a
/// pocket of more than 15 pieces of a kind, which neither encodes).
fn check(pos: &VariantPosition) -> bool {
    let fen = pos.to_fen();
    let (variant, mode) = theirs(pos.variant());
    let setup = Fen::from_ascii(fen.as_bytes()).unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e}")).into_setup();
    // The key hashes the en passant file when a pawn could capture (Polyglot), legal or not:
    // shakmaty gets the square as recorded, which the FEN leaves out when no capture is legal.
    let mut recorded = setup.clone();
    recorded.ep_square = pos.en_passant().map(|sq| shakmaty::Square::new(sq.index() as u32));
    let their_pos = TheirPosition::from_setup(variant, recorded, mode)
        .unwrap_or_else(|e| panic!("shakmaty refuses {fen} in {variant:?}: {e}"));
    let key: Zobrist64 = their_pos.zobrist_hash(EnPassantMode::PseudoLegal);
    assert_eq!(pos.zobrist(), key.0, "{fen} ({variant:?})");

    let Ok(packed) = PackedSetup::pack_variant(&setup, variant) else {
        assert!(pos.to_binary_fen().is_err(), "{fen}");
        return false;
    };
    let ours = pos.to_binary_fen().unwrap();
    let mut expected = packed.as_bytes().to_vec();
    if variant == TheirVariant::ThreeCheck {
        // shakmaty's last byte is the remaining checks (White's low), never both 0; lichess's
        // is the checks received (White's low): those the other side has given.
        let remaining = expected.pop().unwrap();
        expected.push((3 - (remaining >> 4)) | (3 - (remaining & 15)) << 4);
        while expected.last() == Some(&0) {
            expected.pop();
        }
    }
    // Chess960 has a variant byte of its own (2); shakmaty writes Chess960 as chess.
    if pos.variant() != Variant::Chess960 {
        assert_eq!(ours.as_bytes(), expected, "{fen} ({variant:?})");
        let back = VariantPosition::from_binary_fen(&expected).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(back.to_fen(), fen);
    }
    let (mut unpacked, their_variant) = PackedSetup::try_from_bytes(ours.as_bytes()).unwrap().unpack_variant().unwrap();
    assert_eq!(their_variant, variant, "{fen}");
    if variant == TheirVariant::ThreeCheck {
        // Read as shakmaty's remaining checks: compared above, in bytes.
        unpacked.remaining_checks = setup.remaining_checks;
    }
    assert_eq!(unpacked, setup, "{fen}");
    true
}

#[test]
fn random_variant_games_match_shakmaty() {
    let mut rng = 0x5eed_0038_u64;
    let mut next = move || {
        // xorshift64*
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut checked = 0;
    for variant in Variant::ALL {
        for _ in 0..40 {
            let mut pos = VariantPosition::new(variant);
            for _ in 0..150 {
                checked += usize::from(check(&pos));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[(next() % moves.len() as u64) as usize]).unwrap();
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
}
