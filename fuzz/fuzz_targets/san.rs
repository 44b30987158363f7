//! SAN reading: never panics; a move read is legal and its own SAN reads back to it.
#![no_main]

use chesscore_core::{MovesLine, San, SanMode, SanOptions};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let pos = common::position(selector);
    for mode in [SanMode::Lenient, SanMode::Strict] {
        for allow_null in [false, true] {
            let options = SanOptions { mode, allow_null };
            if let Ok(mv) = text.parse::<San>().and_then(|san| san.to_move_with(&pos, &options)) {
                if mv.is_null() {
                    assert!(allow_null && !pos.in_check());
                    continue;
                }
                assert!(pos.is_legal(mv), "{text} read as an illegal move");
                let san = San::from_move(&pos, mv).unwrap();
                assert_eq!(san.to_move(&pos), Ok(mv));
                assert_eq!(san.as_str().parse::<San>().and_then(|again| again.to_move(&pos)), Ok(mv));
                if mode == SanMode::Strict {
                    assert_eq!(san.as_str(), text);
                }
            }
        }
    }
    if let Ok(moves) = MovesLine::new(&pos, text, &SanOptions::default()).collect::<Result<Vec<_>, _>>() {
        let mut game = chesscore_core::Game::new(pos);
        for mv in moves {
            game.push(mv).expect("a line read is legal move by move");
        }
        common::check_position(game.position());
    }
});
