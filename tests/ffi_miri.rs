//! The C ABI called from Rust, small enough for Miri (`cargo +nightly miri test --test
//! ffi_miri`): handles, text buffers, move arrays, games handing out positions, EPD records and
//! NULL arguments, so that Miri checks every pointer the layer reads or writes.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use chesscore::ffi::*;

const KIWIPETE: &CStr = c"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn parse(fen: &CStr) -> *mut chess_position {
    let mut pos = null_mut();
    assert_eq!(unsafe { chess_fen_parse(fen.as_ptr(), &mut pos) }, chess_error::CHESS_OK);
    pos
}

fn fen_of(pos: *const chess_position) -> String {
    let mut buf = [0 as c_char; CHESS_FEN_MAX];
    let mut len = 0;
    assert_eq!(unsafe { chess_fen_write(pos, buf.as_mut_ptr(), buf.len(), &mut len) }, chess_error::CHESS_OK);
    let text = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap().to_string();
    assert_eq!(text.len(), len);
    text
}

#[test]
fn handles_text_and_moves() {
    unsafe {
        let start = chess_position_new();
        let pos = parse(KIWIPETE);
        assert_eq!(fen_of(pos), KIWIPETE.to_str().unwrap());

        // Text out: size query, short buffer, exact fit.
        let mut len = 0;
        assert_eq!(chess_fen_write(pos, null_mut(), 0, &mut len), chess_error::CHESS_ERR_BUFFER_TOO_SMALL);
        assert_eq!(len, KIWIPETE.to_bytes().len());
        let mut small = [0x7f as c_char; 10];
        let mut untouched = 99;
        assert_eq!(
            chess_fen_write(pos, small.as_mut_ptr(), small.len(), &mut untouched),
            chess_error::CHESS_ERR_BUFFER_TOO_SMALL
        );
        assert_eq!(untouched, len);
        let mut exact = vec![0 as c_char; len + 1];
        assert_eq!(chess_fen_write(pos, exact.as_mut_ptr(), exact.len(), null_mut()), chess_error::CHESS_OK);

        // Move arrays: the total is returned whatever the capacity.
        let mut moves = [0 as chess_move; CHESS_MAX_MOVES];
        assert_eq!(chess_legal_moves(pos, moves.as_mut_ptr(), moves.len()), 48);
        let mut three = [0 as chess_move; 3];
        assert_eq!(chess_legal_moves(pos, three.as_mut_ptr(), three.len()), 48);
        assert_eq!(three[..], moves[..3]);
        assert_eq!(chess_legal_moves(pos, null_mut(), 0), 48);
        assert!(chess_pseudo_legal_moves(pos, moves.as_mut_ptr(), moves.len()) >= 48);

        // Copy-make through handles, as the C perft does.
        let child = chess_position_clone(pos);
        let n = chess_legal_moves(pos, moves.as_mut_ptr(), moves.len());
        let mut nodes = 0;
        for &mv in &moves[..n] {
            chess_position_copy(child, pos);
            chess_position_play_unchecked(child, mv);
            nodes += chess_legal_moves(child, null_mut(), 0);
        }
        assert_eq!(nodes, 2039);
        assert_eq!(chess_perft(pos, 1), 48);

        // UCI and SAN both ways.
        let mut castle = 0;
        assert_eq!(chess_move_from_uci(pos, c"e1g1".as_ptr(), &mut castle), chess_error::CHESS_OK);
        let mut buf = [0 as c_char; 8];
        assert_eq!(chess_move_to_uci(castle, buf.as_mut_ptr(), buf.len(), &mut len), chess_error::CHESS_OK);
        assert_eq!(CStr::from_ptr(buf.as_ptr()), c"e1g1");
        assert_eq!(chess_move_to_san(pos, castle, buf.as_mut_ptr(), buf.len(), &mut len), chess_error::CHESS_OK);
        assert_eq!(CStr::from_ptr(buf.as_ptr()), c"O-O");
        let mut from_san = 0;
        assert_eq!(chess_move_from_san(pos, c"O-O".as_ptr(), &mut from_san), chess_error::CHESS_OK);
        assert_eq!(from_san, castle);
        let mut line = [0 as chess_move; 4];
        let (mut count, mut bad) = (0, 0);
        let code = chess_moves_from_line(
            pos,
            c"O-O h3g2 Qxg2 Rh7".as_ptr(),
            0,
            line.as_mut_ptr(),
            line.len(),
            &mut count,
            &mut bad,
        );
        assert_eq!(code, chess_error::CHESS_OK);
        assert_eq!(count, 4);
        let code =
            chess_moves_from_line(pos, c"O-O O-O O-O".as_ptr(), 0, line.as_mut_ptr(), line.len(), &mut count, &mut bad);
        assert_eq!(code, chess_error::CHESS_ERR_ILLEGAL_MOVE);
        assert_eq!(bad, 2);

        // Checked play leaves the position alone on failure.
        let before = chess_position_zobrist(pos);
        assert_eq!(chess_position_play(pos, 0x0fff), chess_error::CHESS_ERR_INVALID_MOVE);
        assert_eq!(chess_position_zobrist(pos), before);
        assert_eq!(chess_position_play(pos, castle), chess_error::CHESS_OK);
        assert_ne!(chess_position_zobrist(pos), before);

        // Renderings.
        let mut board = [0 as c_char; 128];
        assert_eq!(
            chess_position_board_string(start, board.as_mut_ptr(), board.len(), &mut len),
            chess_error::CHESS_OK
        );
        assert_eq!(len, 71);
        let mut unicode = vec![0 as c_char; 512];
        assert_eq!(
            chess_position_to_unicode(start, unicode.as_mut_ptr(), unicode.len(), &mut len),
            chess_error::CHESS_OK
        );
        assert!(CStr::from_ptr(unicode.as_ptr()).to_str().unwrap().contains('♔'));

        chess_position_free(child);
        chess_position_free(pos);
        chess_position_free(start);
        chess_position_free(null_mut());
    }
}

#[test]
fn null_and_bad_arguments() {
    unsafe {
        let mut pos = null_mut();
        let mut offset = 0;
        assert_eq!(chess_fen_parse(null(), &mut pos), chess_error::CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_fen_parse(KIWIPETE.as_ptr(), null_mut()), chess_error::CHESS_ERR_NULL_POINTER);
        let code = chess_fen_parse_ex(c"8/8/8/8/8/8/8/8 w - - 0 1".as_ptr(), &mut pos, &mut offset);
        assert_eq!(code, chess_error::CHESS_ERR_FEN_MISSING_KING);
        assert!(pos.is_null());
        let code = chess_fen_parse_ex(
            c"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \xc3\xa9".as_ptr(),
            &mut pos,
            &mut offset,
        );
        assert_eq!(code, chess_error::CHESS_ERR_FEN_INVALID_CHARACTER);
        assert_eq!(offset, 55);
        assert_eq!(chess_legal_moves(null(), null_mut(), 0), 0);
        assert_eq!(chess_perft(null(), 3), 0);
        assert!(!chess_position_in_check(null()));
        assert!(chess_position_clone(null()).is_null());
        chess_position_copy(null_mut(), null());
        chess_position_play_unchecked(null_mut(), 0);
        assert!(!CStr::from_ptr(chess_error_message(9999)).to_bytes().is_empty());
        assert!(!CStr::from_ptr(chess_version()).to_bytes().is_empty());
        let start = chess_position_new();
        assert_eq!(chess_position_piece_at(start, 64), chess_piece::CHESS_NO_PIECE);
        assert_eq!(chess_position_pieces(start, 7, 1), 0);
        let mut mv = 0;
        assert_eq!(chess_move_from_uci(start, c"e2e5".as_ptr(), &mut mv), chess_error::CHESS_ERR_ILLEGAL_MOVE);
        assert_eq!(chess_move_from_san(start, c"Nf3\xff".as_ptr(), &mut mv), chess_error::CHESS_ERR_INVALID_TEXT);
        assert_eq!(mv, 0);
        chess_position_free(start);
    }
}

#[test]
fn games_hand_out_their_positions() {
    unsafe {
        let game = chess_game_new(null());
        let start = chess_game_start(game);
        for uci in [c"g1f3", c"g8f6", c"f3g1", c"f6g8", c"g1f3", c"g8f6", c"f3g1", c"f6g8"] {
            assert_eq!(chess_game_push_uci(game, uci.as_ptr(), null_mut()), chess_error::CHESS_OK);
            // A position handed out before a push is not used after it; a fresh one is.
            let current = chess_game_position(game);
            assert_eq!(chess_position_turn(current) as i32 == 0, chess_game_ply_count(game) % 2 == 0);
        }
        assert!(chess_game_is_threefold_repetition(game));
        let fresh = chess_position_new();
        assert_eq!(fen_of(start), fen_of(fresh));
        chess_position_free(fresh);
        let mut moves = [0 as chess_move; 16];
        assert_eq!(chess_game_moves(game, moves.as_mut_ptr(), moves.len()), 8);
        assert_eq!(chess_game_moves(game, null_mut(), 0), 8);
        let mut last = 0;
        assert_eq!(chess_game_pop(game, &mut last), chess_error::CHESS_OK);
        assert_eq!(last, moves[7]);
        let mut san = vec![0 as c_char; 256];
        let mut len = 0;
        assert_eq!(chess_game_san_moves(game, san.as_mut_ptr(), san.len(), &mut len), chess_error::CHESS_OK);
        assert_eq!(CStr::from_ptr(san.as_ptr()), c"Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        let outcome = chess_game_outcome(game);
        assert_eq!(outcome.result, chess_result::CHESS_RESULT_ONGOING);
        // The start position outlives every push and pop.
        for _ in 0..7 {
            assert_eq!(chess_game_pop(game, null_mut()), chess_error::CHESS_OK);
        }
        assert_eq!(chess_game_pop(game, null_mut()), chess_error::CHESS_ERR_EMPTY_HISTORY);
        assert_eq!(chess_position_zobrist(start), chess_position_zobrist(chess_game_position(game)));
        chess_game_free(game);
        chess_game_free(null_mut());
    }
}

#[test]
fn epd_records() {
    unsafe {
        let mut epd = null_mut();
        let line =
            c"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"test \\\"1\\\"\"; acd 12;";
        assert_eq!(chess_epd_parse(line.as_ptr(), &mut epd), chess_error::CHESS_OK);
        assert_eq!(chess_epd_operation_count(epd), 3);
        assert!(chess_epd_has(epd, c"bm".as_ptr()));
        let mut mv = 0;
        assert_eq!(chess_epd_operand_move(epd, c"bm".as_ptr(), 0, &mut mv), chess_error::CHESS_OK);
        let mut depth = 0;
        assert_eq!(chess_epd_operand_integer(epd, c"acd".as_ptr(), 0, &mut depth), chess_error::CHESS_OK);
        assert_eq!(depth, 12);
        let mut buf = [0 as c_char; 32];
        let mut len = 0;
        assert_eq!(
            chess_epd_operand_string(epd, c"id".as_ptr(), 0, buf.as_mut_ptr(), buf.len(), &mut len),
            chess_error::CHESS_OK
        );
        assert_eq!(CStr::from_ptr(buf.as_ptr()), c"test \"1\"");
        let pos = chess_epd_position(epd);
        assert!(chess_position_is_legal(pos, mv));
        let mut text = vec![0 as c_char; 256];
        assert_eq!(chess_epd_write(epd, text.as_mut_ptr(), text.len(), &mut len), chess_error::CHESS_OK);
        assert_eq!(
            chess_epd_operand_integer(epd, c"bm".as_ptr(), 0, &mut depth),
            chess_error::CHESS_ERR_EPD_WRONG_TYPE
        );
        chess_epd_free(epd);
        chess_epd_free(null_mut());
    }
}

#[test]
fn chess960_positions() {
    unsafe {
        let pos = chess_position_new_chess960(0);
        assert!(chess_position_is_chess960(pos));
        assert_eq!(chess_position_chess960_number(pos), 0);
        assert!(chess_position_new_chess960(960).is_null());
        let mut buf = [0 as c_char; CHESS_FEN_MAX];
        let mut len = 0;
        let code = chess_fen_write_ex(pos, 2, 2, buf.as_mut_ptr(), buf.len(), &mut len);
        assert_eq!(code, chess_error::CHESS_OK);
        assert_eq!(CStr::from_ptr(buf.as_ptr()), c"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
        let mut other = null_mut();
        assert_eq!(chess_fen_parse_chess960(buf.as_ptr(), &mut other), chess_error::CHESS_OK);
        assert_eq!(chess_position_zobrist(other), chess_position_zobrist(pos));
        chess_position_free(other);
        chess_position_free(pos);
    }
}
