//! Variant positions: the first byte picks the variant and the moves to play, the rest is read
//! as a FEN. Reading never panics; an accepted position writes a FEN that reads back to the
//! same position; every legal move's SAN and UCI read back as that move; playing legal moves
//! keeps all of this true, and a position without moves has an ending.
#![no_main]

use chesscore_core::variant::{Variant, VariantPosition};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let variant = Variant::ALL[selector as usize % Variant::ALL.len()];
    let Ok(mut pos) = VariantPosition::from_fen(variant, text) else { return };
    let mut choice = selector as usize;
    for _ in 0..8 {
        let fen = pos.to_fen();
        let again = VariantPosition::from_fen(variant, &fen).expect("a written FEN reads back");
        assert_eq!(again.to_fen(), fen);
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), pos.legal_move_count());
        for &mv in moves.iter() {
            let san = pos.san(mv).expect("legal moves have SAN");
            assert_eq!(pos.parse_san(&san), Ok(mv), "{fen} {san}");
            assert_eq!(pos.parse_uci(&pos.uci(mv).to_string()), Ok(mv), "{fen}");
        }
        if moves.is_empty() {
            assert!(pos.termination().is_some(), "{fen}: no moves and no ending");
        }
        let Some(&mv) = moves.get(choice % moves.len().max(1)) else { return };
        pos.play(mv).expect("a legal move plays");
        choice = choice.wrapping_mul(31).wrapping_add(7);
    }
});
