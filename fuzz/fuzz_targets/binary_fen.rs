//! Binary FEN reading: never panics; an error's offset lies within the input (or at its end for
//! the bytes a short input leaves out); anything accepted is a valid position that writes the
//! binary FEN it reads back as, and the FEN the bytes' decoding gives, when read back in its own
//! castling mode (a variant byte can make it Chess960; the writer writes none).
#![no_main]

use chesscore_core::{BinaryFenError, FenOptions, Position, BINARY_FEN_MAX_INPUT, BINARY_FEN_MAX_LEN};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    for chess960 in [false, true] {
        for options in common::fen_readings(chess960) {
            match Position::from_binary_fen_with(data, &options) {
                Ok((pos, _)) => {
                    let packed = pos.to_binary_fen();
                    assert!(packed.len() <= BINARY_FEN_MAX_LEN);
                    let own_mode = FenOptions { chess960: pos.is_chess960(), ..options };
                    let (again, _) = Position::from_binary_fen_with(packed.as_bytes(), &own_mode).expect("reads back");
                    assert_eq!(again.to_fen(), pos.to_fen());
                    assert_eq!(again.to_binary_fen(), packed);
                    common::check_position(&pos);
                }
                Err(BinaryFenError::Position { .. }) => {}
                Err(e) => assert!(e.offset() <= data.len().max(BINARY_FEN_MAX_INPUT), "{e}"),
            }
        }
    }
});
