//! FEN reading: never panics; anything accepted is a valid position whose FEN is a fixed point.
#![no_main]

use chesscore_core::Fen;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(fen) = Fen::parse_bytes(data) else { return };
    for chess960 in [false, true] {
        for options in common::fen_readings(chess960) {
            if let Ok((pos, _)) = fen.validate(&options) {
                let written = pos.to_fen();
                let (again, _) =
                    chesscore_core::Position::from_fen_with(&written, &options).expect("canonical FEN reads back");
                assert_eq!(again.to_fen(), written);
                common::check_position(&pos);
            }
        }
    }
});
