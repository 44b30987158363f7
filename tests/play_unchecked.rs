//! `chess_position_play_unchecked` takes any 16-bit value in any position without panicking:
//! a value `can_play_unchecked` refuses leaves the position unchanged (every pseudo-legal move is
//! accepted), any other gives a consistent position every function still handles.
//! `Position::is_pseudo_legal` agrees with the pseudo-legal generator on every value.

use chesscore_test_support as common;

use chesscore::*;
use chesscore_core::{Bitboard, Color, FenOptions, Move, Piece, PieceKind, Position, Square};
use serde_json::Value;

fn positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for (file, chess960) in [("vectors/dev.jsonl", false), ("vectors/dev960.jsonl", true)] {
        for line in common::lines(file).iter().step_by(16) {
            let v: Value = serde_json::from_str(line).unwrap();
            let options = FenOptions { chess960, allow_impossible_check: true, ..FenOptions::default() };
            positions.push(Position::from_fen_with(v["fen"].as_str().unwrap(), &options).unwrap().0);
        }
    }
    positions
}

#[test]
fn is_pseudo_legal_agrees_with_the_generator_on_every_value() {
    let positions = positions();
    for pos in &positions {
        let listed = pos.pseudo_legal_moves();
        for raw in 0..=u16::MAX {
            let asked = Move::from_raw(raw).is_some_and(|mv| pos.is_pseudo_legal(mv));
            let generated = listed.as_slice().iter().any(|mv| mv.raw() == raw);
            assert_eq!(asked, generated, "{} {raw:#06x}", pos.to_fen());
        }
    }
    assert!(positions.len() > 140, "{}", positions.len());
}

/// Every position function still answers after each value (the regression: a non-move panicked
/// inside the library and left a half-updated position that gave CHESS_ERR_INTERNAL after).
#[test]
fn play_unchecked_takes_any_value() {
    let mut changed = 0;
    for start in positions() {
        for raw in 0..=u16::MAX {
            let mut pos = start;
            let handle = &mut pos as *mut Position as *mut chess_position;
            unsafe { chess_position_play_unchecked(handle, raw) };
            // Copy-make agrees, into another position and in place.
            let (mut into, mut in_place) = (Position::startpos(), start);
            let source = &start as *const Position as *const chess_position;
            unsafe {
                chess_position_play_into(source, raw, &mut into as *mut Position as *mut chess_position);
                let same = &mut in_place as *mut Position as *mut chess_position;
                chess_position_play_into(same, raw, same);
            }
            assert!(into == pos && in_place == pos, "{} {raw:#06x}", start.to_fen());
            let mv = Move::from_raw(raw).filter(|mv| !mv.is_null());
            let playable = mv.is_some_and(|mv| start.can_play_unchecked(mv));
            assert!(playable || !mv.is_some_and(|mv| start.is_pseudo_legal(mv)), "{raw:#06x} refused");
            if !playable {
                assert_eq!(pos, start, "{} {raw:#06x}", start.to_fen());
                continue;
            }
            changed += 1;
            assert_consistent(&pos);
            let mut moves = [0; CHESS_MAX_MOVES];
            unsafe {
                chess_legal_moves(handle, moves.as_mut_ptr(), moves.len());
                let mut fen = [0 as std::ffi::c_char; 128];
                assert_eq!(chess_fen_write(handle, fen.as_mut_ptr(), fen.len(), std::ptr::null_mut()), CHESS_OK);
                chess_perft(handle, 2);
            }
        }
    }
    assert!(changed > 3_000, "{changed}");
}

/// The board of each piece kind and colour, the piece on each square and the key agree.
fn assert_consistent(pos: &Position) {
    let mut occupied = Bitboard::EMPTY;
    for color in [Color::White, Color::Black] {
        assert_eq!(pos.pieces_of(color, PieceKind::King).count(), 1, "{pos:?}");
        for kind in PieceKind::ALL {
            for sq in pos.pieces_of(color, kind) {
                assert_eq!(pos.piece_at(sq), Some(Piece::new(color, kind)), "{pos:?} {sq:?}");
            }
            occupied |= pos.pieces_of(color, kind);
        }
    }
    assert_eq!(occupied, pos.occupancy());
    assert_eq!(Square::ALL.iter().filter(|&&sq| pos.piece_at(sq).is_some()).count() as u32, occupied.count());
    assert_eq!(pos.zobrist(), pos.compute_zobrist());
}

/// Long walks of random values, most of them refused, and pseudo-legal moves that leave a king
/// in check: positions stay consistent and every function keeps answering.
#[test]
fn random_walks_of_any_values_stay_consistent() {
    let mut rng = common::Rng(0x5eed_0fda_7a7a);
    let mut accepted = 0;
    for start in positions() {
        let mut pos = start;
        let handle = &mut pos as *mut Position as *mut chess_position;
        for step in 0..4_000 {
            // Half of the values are moves the position lists, so the walk goes far.
            let raw = if step % 2 == 0 {
                rng.next() as u16
            } else {
                let listed = pos.pseudo_legal_moves();
                match listed.as_slice() {
                    [] => rng.next() as u16,
                    moves => moves[rng.below(moves.len())].raw(),
                }
            };
            let before = pos;
            unsafe { chess_position_play_unchecked(handle, raw) };
            if pos != before {
                accepted += 1;
                assert_consistent(&pos);
                unsafe { chess_perft(handle, 1) };
            }
        }
    }
    assert!(accepted > 100_000, "{accepted}");
}
