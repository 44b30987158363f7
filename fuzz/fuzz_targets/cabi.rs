//! The C ABI driven by a byte program: each step creates, parses, plays, lists, takes back,
//! writes or frees handles in a few slots, as a C caller would, through the exported functions.
//! Checked on the way: generated moves are legal and playable, rejected calls leave their
//! handle unchanged, SAN and FEN written read back, buffer-too-small reports the needed length,
//! and every handle is freed (LeakSanitizer sees the rest).
#![no_main]
// The deprecated functions stay through 1.x, so they are exercised here too.
#![allow(deprecated)]

use std::ffi::{c_char, CString};
use std::ptr;

use chesscore::*;
use libfuzzer_sys::fuzz_target;

const SLOTS: usize = 4;

/// The byte program, read front to back; missing bytes read as 0.
struct Program<'a>(&'a [u8]);

impl Program<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }

    /// A C string of up to 255 bytes taken from the program (it ends at the first NUL).
    fn text(&mut self) -> CString {
        let len = usize::from(self.byte()).min(self.0.len());
        let (text, rest) = self.0.split_at(len);
        self.0 = rest;
        let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
        CString::new(&text[..end]).unwrap()
    }
}

/// Calls a text writer with a `cap` from the program: when it is too small, the reported
/// length must fit the text and a second call with that much room must succeed.
fn write_text(cap: usize, mut write: impl FnMut(*mut c_char, usize, *mut usize) -> chess_error) -> Option<String> {
    let mut buf = vec![0 as c_char; 128];
    let mut len = 0usize;
    let code = write(buf.as_mut_ptr(), cap, &mut len);
    if code == CHESS_ERR_BUFFER_TOO_SMALL {
        assert!(len >= cap && len < buf.len(), "needed length {len} for cap {cap}");
        assert_eq!(write(buf.as_mut_ptr(), len + 1, &mut len), CHESS_OK);
    } else if code != CHESS_OK {
        return None;
    }
    assert_eq!(buf[len], 0, "written text is NUL-terminated");
    let bytes: Vec<u8> = buf[..len].iter().map(|&c| c as u8).collect();
    Some(String::from_utf8(bytes).expect("written text is ASCII"))
}

unsafe fn fen(pos: *const chess_position) -> String {
    write_text(CHESS_FEN_MAX, |buf, cap, len| chess_fen_write(pos, buf, cap, len)).unwrap()
}

unsafe fn legal(pos: *const chess_position) -> Vec<chess_move> {
    let mut moves = [0; CHESS_MAX_MOVES];
    let n = chess_legal_moves(pos, moves.as_mut_ptr(), moves.len());
    assert_eq!(chess_legal_moves(pos, ptr::null_mut(), 0), n);
    moves[..n].to_vec()
}

/// A move of the position picked by a byte: a legal one, or a raw 16-bit value.
unsafe fn pick_move(pos: *const chess_position, p: &mut Program) -> chess_move {
    let selector = p.byte();
    let moves = legal(pos);
    if selector & 0x80 == 0 && !moves.is_empty() {
        moves[usize::from(selector) % moves.len()]
    } else {
        u16::from_le_bytes([p.byte(), p.byte()])
    }
}

/// The position reads back from its FEN (en passant square as recorded, which the Polyglot key
/// counts when a pawn stands beside it, legal capture or not) with the same key.
unsafe fn check(pos: *const chess_position) {
    let recorded = CHESS_FEN_WRITE_EP_AS_RECORDED;
    let written = write_text(CHESS_FEN_MAX, |buf, cap, len| chess_fen_write_with(pos, recorded, buf, cap, len));
    let text = CString::new(written.unwrap()).unwrap();
    let mut again = std::mem::zeroed::<chess_position>();
    // Legal play can reach checks that the strict reading calls impossible in a set-up position.
    let mut flags = CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK;
    if chess_position_is_chess960(pos) {
        flags |= CHESS_FEN_CHESS960;
    }
    let code = chess_fen_parse_with(text.as_ptr(), flags, &mut again, ptr::null_mut());
    assert_eq!(code, CHESS_OK, "{text:?}");
    assert_eq!(chess_position_zobrist(&again), chess_position_zobrist(pos), "{text:?}");
}

fuzz_target!(|data: &[u8]| unsafe {
    let mut p = Program(data);
    let mut positions: [*mut chess_position; SLOTS] = [ptr::null_mut(); SLOTS];
    let mut games: [*mut chess_game; 2] = [ptr::null_mut(); 2];
    let mut steps = 0;
    while !p.0.is_empty() && steps < 64 {
        steps += 1;
        let op = p.byte();
        let slot = usize::from(op >> 4) % SLOTS;
        let pos = positions[slot];
        match op % 16 {
            0 => {
                chess_position_free(pos);
                positions[slot] = chess_position_new();
            }
            1 | 2 => {
                let text = p.text();
                let parse = if op % 16 == 1 { chess_fen_parse } else { chess_fen_parse_chess960 };
                let mut out = ptr::null_mut();
                if parse(text.as_ptr(), &mut out) == CHESS_OK {
                    check(out);
                    chess_position_free(pos);
                    positions[slot] = out;
                } else {
                    assert!(out.is_null(), "a failed parse hands out no handle");
                }
            }
            3 if !pos.is_null() => {
                let mv = pick_move(pos, &mut p);
                let before = (fen(pos), chess_position_zobrist(pos));
                let legal_move = chess_position_is_legal(pos, mv);
                let code = chess_position_play(pos, mv);
                assert_eq!(code == CHESS_OK, legal_move, "move {mv:#06x}");
                if legal_move {
                    check(pos);
                } else {
                    assert_eq!((fen(pos), chess_position_zobrist(pos)), before, "a rejected move changed the position");
                }
            }
            4 if !pos.is_null() => {
                let mv = pick_move(pos, &mut p);
                let cap = usize::from(p.byte() % 12);
                let san = write_text(cap, |buf, cap, len| chess_move_to_san(pos, mv, buf, cap, len));
                if mv == CHESS_MOVE_NONE {
                    assert_eq!(san.as_deref(), Some("--"));
                } else if let Some(san) = san {
                    assert!(chess_position_is_legal(pos, mv));
                    let text = CString::new(san).unwrap();
                    let mut back = 0;
                    assert_eq!(
                        chess_move_from_san_with(pos, text.as_ptr(), CHESS_SAN_STRICT, &mut back),
                        CHESS_OK,
                        "{text:?}"
                    );
                    assert_eq!(back, mv);
                }
                let flags = if chess_position_is_chess960(pos) { CHESS_UCI_KING_TAKES_ROOK } else { 0 };
                if let Some(uci) = write_text(cap, |buf, cap, len| chess_move_to_uci_with(mv, flags, buf, cap, len)) {
                    let text = CString::new(uci).unwrap();
                    let mut back = 0;
                    if chess_position_is_legal(pos, mv) {
                        assert_eq!(chess_move_from_uci(pos, text.as_ptr(), &mut back), CHESS_OK, "{text:?}");
                        assert_eq!(back, mv);
                    }
                }
            }
            5 if !pos.is_null() => {
                let text = p.text();
                let mut mv = 0xffff;
                if chess_move_from_san(pos, text.as_ptr(), &mut mv) == CHESS_OK {
                    assert!(chess_position_is_legal(pos, mv), "{text:?}");
                }
                if chess_move_from_uci(pos, text.as_ptr(), &mut mv) == CHESS_OK {
                    assert!(mv == 0 || chess_position_is_legal(pos, mv), "{text:?}");
                }
                let mut moves = [0; 8];
                let (mut count, mut bad) = (0, usize::MAX);
                let code =
                    chess_moves_from_line(pos, text.as_ptr(), 0, moves.as_mut_ptr(), moves.len(), &mut count, &mut bad);
                if code == CHESS_OK {
                    let copy = chess_position_clone(pos);
                    for &mv in &moves[..count.min(moves.len())] {
                        assert_eq!(chess_position_play(copy, mv), CHESS_OK, "{text:?}");
                    }
                    chess_position_free(copy);
                }
            }
            6 if !pos.is_null() => {
                let other = (slot + 1) % SLOTS;
                if positions[other].is_null() {
                    positions[other] = chess_position_clone(pos);
                } else {
                    chess_position_copy(positions[other], pos);
                }
                assert_eq!(fen(positions[other]), fen(pos));
            }
            7 => {
                chess_position_free(pos);
                positions[slot] = ptr::null_mut();
            }
            8 if !pos.is_null() => {
                let g = &mut games[slot % 2];
                chess_game_free(*g);
                *g = chess_game_new(pos);
                assert_eq!(fen(chess_game_start(*g)), fen(pos));
            }
            9 if !games[slot % 2].is_null() => {
                let game = games[slot % 2];
                let current = chess_game_position(game);
                let mv = pick_move(current, &mut p);
                let plies = chess_game_moves(game, ptr::null_mut(), 0);
                let legal_move = chess_position_is_legal(current, mv);
                assert_eq!(chess_game_push(game, mv) == CHESS_OK, legal_move);
                assert_eq!(chess_game_moves(game, ptr::null_mut(), 0), plies + usize::from(legal_move));
                check(chess_game_position(game));
            }
            10 if !games[slot % 2].is_null() => {
                let game = games[slot % 2];
                let plies = chess_game_moves(game, ptr::null_mut(), 0);
                let mut moves = vec![0; plies];
                assert_eq!(chess_game_moves(game, moves.as_mut_ptr(), plies), plies);
                let mut mv = 0;
                let code = chess_game_pop(game, &mut mv);
                if plies == 0 {
                    assert_eq!(code, CHESS_ERR_EMPTY_HISTORY);
                } else {
                    assert_eq!(code, CHESS_OK);
                    assert_eq!(mv, moves[plies - 1]);
                    // The position after the pop is the start replayed with the moves left.
                    let replay = chess_position_clone(chess_game_start(game));
                    for &m in &moves[..plies - 1] {
                        assert_eq!(chess_position_play(replay, m), CHESS_OK);
                    }
                    assert_eq!(fen(replay), fen(chess_game_position(game)));
                    chess_position_free(replay);
                }
            }
            11 => {
                chess_game_free(games[slot % 2]);
                games[slot % 2] = ptr::null_mut();
            }
            12 if !pos.is_null() => {
                let n = legal(pos).len() as u64;
                assert_eq!(chess_perft(pos, 1), n);
                let mut pseudo = [0; CHESS_MAX_MOVES];
                assert!(chess_pseudo_legal_moves(pos, pseudo.as_mut_ptr(), pseudo.len()) as u64 >= n);
                let cap = usize::from(p.byte() % 80);
                let written = write_text(cap, |buf, cap, len| chess_fen_write(pos, buf, cap, len)).unwrap();
                assert_eq!(written, fen(pos));
            }
            13 => {
                // NULL handles and arguments: an error code, never a crash.
                let mut out = ptr::null_mut();
                assert_eq!(chess_fen_parse(ptr::null(), &mut out), CHESS_ERR_NULL_POINTER);
                assert_eq!(chess_position_play(ptr::null_mut(), 0), CHESS_ERR_NULL_POINTER);
                assert_eq!(chess_legal_moves(ptr::null(), ptr::null_mut(), 0), 0);
                assert_eq!(chess_game_pop(ptr::null_mut(), ptr::null_mut()), CHESS_ERR_NULL_POINTER);
                chess_position_play_unchecked(ptr::null_mut(), 0);
            }
            _ => {}
        }
    }
    for pos in positions {
        chess_position_free(pos);
    }
    for game in games {
        chess_game_free(game);
    }
});
