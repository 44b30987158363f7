//! UCI reading: never panics; a move read is legal, written back the same way, and playing it
//! keeps the position valid.
#![no_main]

use chesscore_core::Uci;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let pos = common::position(selector);
    if let Ok(mv) = text.parse::<Uci>().and_then(|uci| uci.to_move(&pos)) {
        if mv.is_null() {
            assert_eq!(text, "0000");
            return;
        }
        assert!(pos.is_legal(mv));
        assert_eq!(Uci::from_move(&pos, mv).to_move(&pos), Ok(mv));
        assert_eq!(Uci::from_move(&pos, mv).to_string().parse::<Uci>(), Ok(Uci::from_move(&pos, mv)));
        common::check_position(&pos.make_move(mv));
    }
});
