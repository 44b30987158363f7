//! The C ABI called from Rust, small enough for Miri (`cargo +nightly miri test --test
//! ffi_miri`): handles, text buffers, move arrays, games handing out positions, EPD records and
//! NULL arguments, so that Miri checks every pointer the layer reads or writes.
// The deprecated functions stay through 1.x, so they are exercised here too.
#![allow(deprecated)]

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use chesscore::*;

const KIWIPETE: &CStr = c"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn parse(fen: &CStr) -> *mut chess_position {
    let mut pos = null_mut();
    assert_eq!(unsafe { chess_fen_parse(fen.as_ptr(), &mut pos) }, CHESS_OK);
    pos
}

fn fen_of(pos: *const chess_position) -> String {
    let mut buf = [0 as c_char; CHESS_FEN_MAX];
    let mut len = 0;
    assert_eq!(unsafe { chess_fen_write(pos, buf.as_mut_ptr(), buf.len(), &mut len) }, CHESS_OK);
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
        assert_eq!(chess_fen_write(pos, null_mut(), 0, &mut len), CHESS_ERR_BUFFER_TOO_SMALL);
        assert_eq!(len, KIWIPETE.to_bytes().len());
        let mut small = [0x7f as c_char; 10];
        let mut untouched = 99;
        assert_eq!(chess_fen_write(pos, small.as_mut_ptr(), small.len(), &mut untouched), CHESS_ERR_BUFFER_TOO_SMALL);
        assert_eq!(untouched, len);
        let mut exact = vec![0 as c_char; len + 1];
        assert_eq!(chess_fen_write(pos, exact.as_mut_ptr(), exact.len(), null_mut()), CHESS_OK);

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
        assert_eq!(chess_move_from_uci(pos, c"e1g1".as_ptr(), &mut castle), CHESS_OK);
        let mut buf = [0 as c_char; 8];
        assert_eq!(chess_move_to_uci(castle, buf.as_mut_ptr(), buf.len(), &mut len), CHESS_OK);
        assert_eq!(CStr::from_ptr(buf.as_ptr()), c"e1g1");
        assert_eq!(chess_move_to_san(pos, castle, buf.as_mut_ptr(), buf.len(), &mut len), CHESS_OK);
        assert_eq!(CStr::from_ptr(buf.as_ptr()), c"O-O");
        let mut from_san = 0;
        assert_eq!(chess_move_from_san(pos, c"O-O".as_ptr(), &mut from_san), CHESS_OK);
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
        assert_eq!(code, CHESS_OK);
        assert_eq!(count, 4);
        let code =
            chess_moves_from_line(pos, c"O-O O-O O-O".as_ptr(), 0, line.as_mut_ptr(), line.len(), &mut count, &mut bad);
        assert_eq!(code, CHESS_ERR_ILLEGAL_MOVE);
        assert_eq!(bad, 2);

        // Checked play leaves the position alone on failure.
        let before = chess_position_zobrist(pos);
        assert_eq!(chess_position_play(pos, 0x0fff), CHESS_ERR_INVALID_MOVE);
        assert_eq!(chess_position_zobrist(pos), before);
        assert_eq!(chess_position_play(pos, castle), CHESS_OK);
        assert_ne!(chess_position_zobrist(pos), before);

        // Renderings.
        let mut board = [0 as c_char; 128];
        assert_eq!(
            chess_position_to_text(start, CHESS_TEXT_BOARD, board.as_mut_ptr(), board.len(), &mut len),
            CHESS_OK
        );
        assert_eq!(len, 71);
        let mut unicode = vec![0 as c_char; 512];
        let code = chess_position_to_text(start, CHESS_TEXT_UNICODE, unicode.as_mut_ptr(), unicode.len(), &mut len);
        assert_eq!(code, CHESS_OK);
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
        assert_eq!(chess_fen_parse(null(), &mut pos), CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_fen_parse(KIWIPETE.as_ptr(), null_mut()), CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_fen_parse(c"8/8/8/8/8/8/8/8 w - - 0 1".as_ptr(), &mut pos), CHESS_ERR_FEN_MISSING_KING);
        assert!(pos.is_null());
        // By value: into a position the caller holds, with the error's offset.
        let mut value = std::mem::MaybeUninit::<chess_position>::uninit();
        let mut info = chess_fen_info {
            size: size_of::<chess_fen_info>(),
            error_offset: 0,
            dropped_castling: 0,
            dropped_en_passant: 0,
        };
        let code = chess_fen_parse_with(
            c"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \xc3\xa9".as_ptr(),
            0,
            value.as_mut_ptr(),
            &mut info,
        );
        assert_eq!(code, CHESS_ERR_FEN_INVALID_CHARACTER);
        assert_eq!(info.error_offset, 55);
        assert_eq!(chess_fen_parse_into(KIWIPETE.as_ptr(), value.as_mut_ptr()), CHESS_OK);
        let mut stack = [value.assume_init_read(); 2];
        assert_eq!(chess_perft(&stack[0], 2), 2039);
        let mut moves = [0; CHESS_MAX_MOVES];
        let n = chess_legal_moves(&stack[0], moves.as_mut_ptr(), moves.len());
        chess_position_play_into(&stack[0], moves[0], &mut stack[1]);
        assert_eq!(chess_legal_moves(&stack[1], null_mut(), 0) > 0, n > 0);
        // In place: one pointer as source and destination, as C passes it.
        let same = &raw mut stack[1];
        chess_position_play_into(same, 0, same);
        chess_position_init(&mut stack[1]);
        assert_eq!(chess_perft(&stack[1], 2), 400);
        assert_eq!(chess_legal_moves(null(), null_mut(), 0), 0);
        assert_eq!(chess_perft(null(), 3), 0);
        assert!(!chess_position_in_check(null()));
        assert!(chess_position_clone(null()).is_null());
        chess_position_copy(null_mut(), null());
        chess_position_play_unchecked(null_mut(), 0);
        assert!(!CStr::from_ptr(chess_error_message(9999)).to_bytes().is_empty());
        assert!(!CStr::from_ptr(chess_version()).to_bytes().is_empty());
        let start = chess_position_new();
        assert_eq!(chess_position_piece_at(start, 64), CHESS_NO_PIECE);
        assert_eq!(chess_position_pieces(start, 7, 1), 0);
        let mut mv = 0;
        assert_eq!(chess_move_from_uci(start, c"e2e5".as_ptr(), &mut mv), CHESS_ERR_ILLEGAL_MOVE);
        assert_eq!(chess_move_from_san(start, c"Nf3\xff".as_ptr(), &mut mv), CHESS_ERR_INVALID_TEXT);
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
            assert_eq!(chess_game_push_uci(game, uci.as_ptr(), null_mut()), CHESS_OK);
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
        assert_eq!(chess_game_pop(game, &mut last), CHESS_OK);
        assert_eq!(last, moves[7]);
        let mut san = vec![0 as c_char; 256];
        let mut len = 0;
        assert_eq!(chess_game_san_moves(game, san.as_mut_ptr(), san.len(), &mut len), CHESS_OK);
        assert_eq!(CStr::from_ptr(san.as_ptr()), c"Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        let outcome = chess_game_outcome(game);
        assert_eq!(outcome.result, CHESS_RESULT_ONGOING);
        // The start position outlives every push and pop.
        for _ in 0..7 {
            assert_eq!(chess_game_pop(game, null_mut()), CHESS_OK);
        }
        assert_eq!(chess_game_pop(game, null_mut()), CHESS_ERR_EMPTY_HISTORY);
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
        assert_eq!(chess_epd_parse(line.as_ptr(), &mut epd), CHESS_OK);
        assert_eq!(chess_epd_operation_count(epd), 3);
        assert!(chess_epd_has(epd, c"bm".as_ptr()));
        let mut mv = 0;
        assert_eq!(chess_epd_operand_move(epd, c"bm".as_ptr(), 0, &mut mv), CHESS_OK);
        let mut depth = 0;
        assert_eq!(chess_epd_operand_integer(epd, c"acd".as_ptr(), 0, &mut depth), CHESS_OK);
        assert_eq!(depth, 12);
        let mut buf = [0 as c_char; 32];
        let mut len = 0;
        assert_eq!(chess_epd_operand_string(epd, c"id".as_ptr(), 0, buf.as_mut_ptr(), buf.len(), &mut len), CHESS_OK);
        assert_eq!(CStr::from_ptr(buf.as_ptr()), c"test \"1\"");
        let pos = chess_epd_position(epd);
        assert!(chess_position_is_legal(pos, mv));
        let mut text = vec![0 as c_char; 256];
        assert_eq!(chess_epd_write(epd, text.as_mut_ptr(), text.len(), &mut len), CHESS_OK);
        assert_eq!(chess_epd_operand_integer(epd, c"bm".as_ptr(), 0, &mut depth), CHESS_ERR_EPD_WRONG_TYPE);
        chess_epd_free(epd);
        chess_epd_free(null_mut());
    }
}

#[test]
fn chess960_positions() {
    unsafe {
        let pos = chess_position_new();
        assert_eq!(chess_position_init_chess960(pos, 0), CHESS_OK);
        assert!(chess_position_is_chess960(pos));
        assert_eq!(chess_position_chess960_number(pos), 0);
        assert_eq!(chess_position_init_chess960(pos, 960), CHESS_ERR_INVALID_ARGUMENT);
        let mut buf = [0 as c_char; CHESS_FEN_MAX];
        let mut len = 0;
        let code = chess_fen_write_with(pos, CHESS_FEN_WRITE_SHREDDER, buf.as_mut_ptr(), buf.len(), &mut len);
        assert_eq!(code, CHESS_OK);
        assert_eq!(CStr::from_ptr(buf.as_ptr()), c"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
        let mut other = null_mut();
        assert_eq!(chess_fen_parse_chess960(buf.as_ptr(), &mut other), CHESS_OK);
        assert_eq!(chess_position_zobrist(other), chess_position_zobrist(pos));
        chess_position_free(other);
        chess_position_free(pos);
    }
}

const PGN: &[u8] =
    b"[Event \"One\"]\n[White \"A \\\"quoted\\\" name\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 $1 1-0\n\n\
[Event \"Broken\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"Three\"]\n\n1. d4 *\n";

fn text(f: impl Fn(*mut c_char, usize, *mut usize) -> chess_error) -> String {
    let mut len = 0;
    assert_eq!(f(null_mut(), 0, &mut len), CHESS_ERR_BUFFER_TOO_SMALL);
    let mut buf = vec![0x7f as c_char; len + 1];
    let mut again = 0;
    assert_eq!(f(buf.as_mut_ptr(), buf.len(), &mut again), CHESS_OK);
    assert_eq!(again, len);
    unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap().to_string()
}

/// Reads every game of `reader`: (Event tag or the error message, main-line ply count).
unsafe fn read_all(reader: *mut chess_pgn_reader) -> Vec<(String, usize)> {
    let mut games = Vec::new();
    loop {
        let mut game = null_mut();
        match chess_pgn_reader_next(reader, &mut game) {
            CHESS_OK => {
                let event = text(|b, c, l| chess_game_tag(game, c"Event".as_ptr(), b, c, l));
                games.push((event, chess_game_ply_count(game)));
                chess_game_free(game);
            }
            CHESS_END => break,
            code => {
                assert!(game.is_null());
                assert_eq!(code, CHESS_ERR_ILLEGAL_MOVE);
                let info = last_error(reader);
                let message = CStr::from_ptr(info.message.as_ptr()).to_str().unwrap().to_string();
                assert_eq!((info.line, info.column, info.code), (8, 13, code), "{message}");
                assert_eq!((info.game, info.ply), (2, 3));
                let mut partial = null_mut();
                assert_eq!(chess_pgn_reader_partial_game(reader, &mut partial), CHESS_OK);
                games.push((message, chess_game_ply_count(partial)));
                chess_game_free(partial);
            }
        }
    }
    // The end is sticky, and clears the error.
    let mut game = null_mut();
    assert_eq!(chess_pgn_reader_next(reader, &mut game), CHESS_END);
    assert_eq!(last_error(reader).line, 0);
    assert_eq!(chess_pgn_reader_partial_game(reader, &mut game), CHESS_END);
    assert!(game.is_null());
    games
}

/// What went wrong in the reader's last call.
unsafe fn last_error(reader: *const chess_pgn_reader) -> chess_pgn_error_info {
    let mut info = std::mem::zeroed::<chess_pgn_error_info>();
    info.size = size_of::<chess_pgn_error_info>();
    assert_eq!(chess_pgn_reader_last_error(reader, &mut info), CHESS_OK);
    info
}

fn expected_games() -> Vec<(String, usize)> {
    vec![
        ("One".to_string(), 3),
        ("game 2, line 8, column 13: illegal move \"Ke3\" at ply 3".to_string(), 2),
        ("Three".to_string(), 1),
    ]
}

#[test]
fn pgn_reader_from_buffer() {
    unsafe {
        let mut reader = null_mut();
        // The buffer is copied: it may go as soon as the reader exists.
        let copy = PGN.to_vec();
        assert_eq!(chess_pgn_reader_from_buffer(copy.as_ptr(), copy.len(), &mut reader), CHESS_OK);
        drop(copy);
        assert_eq!(read_all(reader), expected_games());
        chess_pgn_reader_free(reader);

        assert_eq!(chess_pgn_reader_from_buffer(null(), 0, &mut reader), CHESS_OK);
        assert!(read_all(reader).is_empty());
        chess_pgn_reader_free(reader);
        let untouched = std::ptr::NonNull::<chess_pgn_reader>::dangling().as_ptr();
        reader = untouched;
        assert_eq!(chess_pgn_reader_from_buffer(null(), 1, &mut reader), CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_pgn_reader_from_buffer(PGN.as_ptr(), 1, null_mut()), CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_pgn_reader_open_file(null(), &mut reader), CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_pgn_reader_from_callback(None, null_mut(), &mut reader), CHESS_ERR_NULL_POINTER);
        assert_eq!(reader, untouched);
        let mut game = null_mut();
        assert_eq!(chess_pgn_reader_next(null_mut(), &mut game), CHESS_ERR_NULL_POINTER);
        let mut info = std::mem::zeroed::<chess_pgn_error_info>();
        info.size = size_of::<chess_pgn_error_info>();
        assert_eq!(chess_pgn_reader_last_error(null(), &mut info), CHESS_ERR_NULL_POINTER);
        chess_pgn_reader_free(null_mut());
    }
}

/// A `chess_read_fn` over a byte slice, a few bytes at a time; fails at `fail_at` if set.
struct Trickle {
    data: &'static [u8],
    fail_at: Option<usize>,
    served: usize,
}

unsafe extern "C" fn trickle(user: *mut std::ffi::c_void, buf: *mut u8, cap: usize) -> usize {
    let source = &mut *user.cast::<Trickle>();
    if source.fail_at.is_some_and(|at| source.served >= at) {
        return CHESS_READ_ERROR;
    }
    let n = cap.min(7).min(source.data.len());
    std::ptr::copy_nonoverlapping(source.data.as_ptr(), buf, n);
    source.data = &source.data[n..];
    source.served += n;
    n
}

#[test]
fn pgn_reader_from_callback() {
    unsafe {
        let mut source = Trickle { data: PGN, fail_at: None, served: 0 };
        let mut reader = null_mut();
        let user = std::ptr::addr_of_mut!(source).cast();
        assert_eq!(chess_pgn_reader_from_callback(Some(trickle), user, &mut reader), CHESS_OK);
        assert_eq!(read_all(reader), expected_games());
        chess_pgn_reader_free(reader);

        // A read error ends the reading.
        let mut source = Trickle { data: PGN, fail_at: Some(40), served: 0 };
        let user = std::ptr::addr_of_mut!(source).cast();
        assert_eq!(chess_pgn_reader_from_callback(Some(trickle), user, &mut reader), CHESS_OK);
        let mut game = null_mut();
        assert_eq!(chess_pgn_reader_next(reader, &mut game), CHESS_ERR_IO);
        assert!(game.is_null());
        assert_eq!(chess_pgn_reader_next(reader, &mut game), CHESS_END);
        chess_pgn_reader_free(reader);
    }
}

#[test]
fn pgn_games_tags_and_export() {
    unsafe {
        let mut reader = null_mut();
        assert_eq!(chess_pgn_reader_from_buffer(PGN.as_ptr(), PGN.len(), &mut reader), CHESS_OK);
        let mut game = null_mut();
        assert_eq!(chess_pgn_reader_next(reader, &mut game), CHESS_OK);
        chess_pgn_reader_free(reader); // the game is the caller's
        assert_eq!(chess_game_result(game), CHESS_RESULT_WHITE_WINS);
        assert_eq!(fen_of(chess_game_position(game)), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
        assert_eq!(chess_game_tag_count(game), 3); // the Result tag from the termination marker
        let mut name = [0 as c_char; 8];
        let mut value = [0 as c_char; 32];
        let (mut name_len, mut value_len) = (0, 0);
        let code =
            chess_game_tag_at(game, 1, name.as_mut_ptr(), 8, &mut name_len, value.as_mut_ptr(), 4, &mut value_len);
        assert_eq!((code, name_len, value_len), (CHESS_ERR_BUFFER_TOO_SMALL, 5, 15));
        assert_eq!(name[0], 0); // neither written
        let code =
            chess_game_tag_at(game, 1, name.as_mut_ptr(), 8, &mut name_len, value.as_mut_ptr(), 32, &mut value_len);
        assert_eq!(code, CHESS_OK);
        assert_eq!((CStr::from_ptr(name.as_ptr()), CStr::from_ptr(value.as_ptr())), (c"White", c"A \"quoted\" name"));
        let code = chess_game_tag_at(game, 2, name.as_mut_ptr(), 8, null_mut(), value.as_mut_ptr(), 32, null_mut());
        assert_eq!(code, CHESS_OK);
        assert_eq!((CStr::from_ptr(name.as_ptr()), CStr::from_ptr(value.as_ptr())), (c"Result", c"1-0"));
        let code = chess_game_tag_at(game, 3, name.as_mut_ptr(), 8, null_mut(), value.as_mut_ptr(), 32, null_mut());
        assert_eq!(code, CHESS_ERR_PGN_TAG_NOT_FOUND);
        let code = chess_game_tag(game, c"Black".as_ptr(), value.as_mut_ptr(), 32, null_mut());
        assert_eq!(code, CHESS_ERR_PGN_TAG_NOT_FOUND);

        assert_eq!(chess_game_set_tag(game, c"Black".as_ptr(), c"Café".as_ptr()), CHESS_OK);
        assert_eq!(chess_game_set_tag(game, c"FEN".as_ptr(), c"x".as_ptr()), CHESS_ERR_INVALID_ARGUMENT);
        assert_eq!(chess_game_set_tag(game, c"a b".as_ptr(), c"x".as_ptr()), CHESS_ERR_INVALID_ARGUMENT);
        assert_eq!(chess_game_set_tag(game, null_mut(), c"x".as_ptr()), CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_game_remove_tag(game, c"Event".as_ptr()), CHESS_OK);
        assert_eq!(chess_game_remove_tag(game, c"Event".as_ptr()), CHESS_ERR_PGN_TAG_NOT_FOUND);

        // Pushing and popping keep the annotations of the rest.
        assert_eq!(chess_game_push_san(game, c"Nc6".as_ptr(), null_mut()), CHESS_OK);
        assert_eq!(chess_game_pop(game, null_mut()), CHESS_OK);
        let pgn = text(|b, c, l| chess_game_to_pgn(game, b, c, l));
        assert_eq!(
            pgn,
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A \\\"quoted\\\" name\"]\n\
             [Black \"Café\"]\n[Result \"1-0\"]\n\n1. e4 { best } 1... e5 ( 1... c5 2. Nf3 ) 2. Nf3 $1 1-0\n"
        );
        // Reading the export gives the same game back.
        assert_eq!(chess_pgn_reader_from_buffer(pgn.as_ptr(), pgn.len(), &mut reader), CHESS_OK);
        let mut back = null_mut();
        assert_eq!(chess_pgn_reader_next(reader, &mut back), CHESS_OK);
        assert_eq!(text(|b, c, l| chess_game_to_pgn(back, b, c, l)), pgn);
        assert_eq!(fen_of(chess_game_position(back)), fen_of(chess_game_position(game)));
        chess_game_free(back);
        chess_pgn_reader_free(reader);
        chess_game_free(game);

        // A new game has no tags and writes the roster.
        let game = chess_game_new(null());
        assert_eq!(chess_game_tag_count(game), 0);
        assert_eq!(chess_game_result(game), CHESS_RESULT_ONGOING);
        assert_eq!(chess_game_push_san(game, c"f3".as_ptr(), null_mut()), CHESS_OK);
        assert!(text(|b, c, l| chess_game_to_pgn(game, b, c, l)).ends_with("\n\n1. f3 *\n"));
        chess_game_free(game);
        assert_eq!(chess_game_tag_count(null()), 0);
        assert_eq!(chess_game_to_pgn(null(), null_mut(), 0, null_mut()), CHESS_ERR_NULL_POINTER);
    }
}

#[test]
fn svg_options_and_arrays() {
    unsafe {
        let pos = parse(c"4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let arrows =
            [chess_svg_arrow { from: 4, to: 60, color: 0 }, chess_svg_arrow { from: 3, to: 3, color: 0xff0000ff }];
        let fills = [chess_svg_fill { square: 0, color: 0x00ff0080 }];
        let mut options: chess_svg_options = std::mem::zeroed();
        options.size = size_of::<chess_svg_options>();
        options.flags = CHESS_SVG_FLIPPED | CHESS_SVG_MARK_CHECK;
        options.arrows = arrows.as_ptr();
        options.arrow_count = arrows.len();
        options.fills = fills.as_ptr();
        options.fill_count = fills.len();
        let svg = text(|buf, cap, len| chess_position_to_svg(pos, &options, buf, cap, len));
        assert!(svg.starts_with("<svg ") && svg.matches("<polygon").count() == 1 && svg.contains("fill=\"#00ff00\""));
        // A size too small for this version's struct is not read further.
        let small = chess_svg_options { size: 8, ..options };
        let mut len = 0;
        assert_eq!(chess_position_to_svg(pos, &small, null_mut(), 0, &mut len), CHESS_ERR_INVALID_ARGUMENT);
        let mut color = 0;
        assert_eq!(chess_svg_parse_color(c"#123".as_ptr(), &mut color), CHESS_OK);
        assert_eq!(color, 0x112233ff);
        chess_position_free(pos);
    }
}

#[test]
fn variant_positions() {
    unsafe {
        let mut pos = null_mut();
        let fen = c"rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3";
        assert_eq!(chess_variant_position_new(CHESS_VARIANT_CRAZYHOUSE, fen.as_ptr(), &mut pos), CHESS_OK);
        assert_eq!(text(|b, c, l| chess_variant_position_fen(pos, b, c, l)), fen.to_str().unwrap());

        // A drop read, written and played on a clone; the original copied over it after.
        let copy = chess_variant_position_clone(pos);
        let mut drop = 0;
        assert_eq!(chess_variant_position_parse_uci(copy, c"P@e6".as_ptr(), &mut drop), CHESS_OK);
        assert_eq!(text(|b, c, l| chess_variant_position_san(copy, drop, b, c, l)), "@e6");
        assert_eq!(text(|b, c, l| chess_variant_position_uci(copy, drop, b, c, l)), "P@e6");
        assert_eq!(chess_variant_position_play(copy, drop), CHESS_OK);
        assert_eq!(chess_variant_position_pocket(copy, CHESS_WHITE, CHESS_PAWN), 0);
        chess_variant_position_copy(copy, pos);
        chess_variant_position_copy(copy, copy);
        assert_eq!(chess_variant_position_pocket(copy, CHESS_WHITE, CHESS_PAWN), 1);

        // The move array: the total whatever the capacity.
        let mut moves = [0 as chess_move; CHESS_MAX_VARIANT_MOVES];
        let n = chess_variant_position_legal_moves(pos, moves.as_mut_ptr(), moves.len());
        let mut three = [0 as chess_move; 3];
        assert_eq!(chess_variant_position_legal_moves(pos, three.as_mut_ptr(), three.len()), n);
        assert_eq!(three[..], moves[..3]);
        assert!(moves[..n].contains(&drop));

        let mut setup = std::mem::MaybeUninit::<chess_setup>::uninit();
        assert_eq!(chess_variant_position_setup(pos, setup.as_mut_ptr()), CHESS_OK);
        assert_eq!(setup.assume_init().board[59], CHESS_NO_PIECE);

        // NULL and bad arguments.
        assert_eq!(chess_variant_position_new(9, null(), &mut pos), CHESS_ERR_INVALID_ARGUMENT);
        assert_eq!(chess_variant_position_new(CHESS_VARIANT_ATOMIC, null(), null_mut()), CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_variant_position_fen(null(), null_mut(), 0, null_mut()), CHESS_ERR_NULL_POINTER);
        assert_eq!(chess_variant_position_legal_moves(pos, null_mut(), 3), 0);
        assert!(chess_variant_name(9).is_null());
        assert_eq!(CStr::from_ptr(chess_variant_name(CHESS_VARIANT_HORDE)), c"horde");
        chess_variant_position_free(copy);
        chess_variant_position_free(pos);
        chess_variant_position_free(null_mut());
    }
}
