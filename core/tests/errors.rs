//! The error types keep one rule: an error either includes its cause in its message or returns
//! it from `source()`, never both (a caller printing the chain would see it twice), and every
//! message is a non-empty sentence fragment without a trailing period or newline.

use std::error::Error;
use std::io;
use std::time::Duration;

use chesscore_core::engine::protocol::parse_line;
use chesscore_core::engine::{EngineError, ProtocolError, UnsupportedVariant};
use chesscore_core::pgn::PgnReader;
use chesscore_core::polyglot::{Book, BookError};
use chesscore_core::{Epd, Fen, Game, MovesLine, Position, SanOptions, Square, SvgColor, Uci};

fn check(error: &dyn Error) {
    let message = error.to_string();
    assert!(!message.is_empty() && !message.ends_with('.') && !message.contains('\n'), "{message:?}");
    if let Some(source) = error.source() {
        let inner = source.to_string();
        assert!(!message.contains(&inner), "{message:?} repeats its source {inner:?}");
        check(source);
    }
}

#[test]
fn no_error_repeats_its_source() {
    let start = Position::startpos();
    check(&"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".parse::<Fen>().unwrap_err());
    check(&Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err());
    check(&Position::from_fen_file("/nonexistent/file.fen").unwrap_err());
    let dir = std::env::temp_dir();
    check(&Position::from_fen_file(&dir).unwrap_err());
    check(&"e2e9".parse::<Uci>().unwrap_err());
    check(&"e2e5".parse::<Uci>().unwrap().to_move(&start).unwrap_err());
    check(&MovesLine::read_token(&start, "Ke3", &SanOptions::default()).unwrap_err());
    check(&MovesLine::new(&start, "e4 e5 Ke3", &SanOptions::default()).find_map(Result::err).unwrap());
    check(&start.clone().play(chesscore_core::Move::NULL).unwrap_err());
    check(&Epd::parse("8/8/8/8/8/8/8/8 w - -").unwrap_err());
    check(&Epd::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Ke3;").unwrap_err());
    check(&"z9".parse::<Square>().unwrap_err());
    check(&"#12".parse::<SvgColor>().unwrap_err());
    check(&Game::default().set_tag("FEN", "x").unwrap_err());
    for pgn in ["[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n", "[FEN \"8/8 w - - 0 1\"]\n\n1. e4 *\n", "1. e4 { open\n"] {
        let error = PgnReader::from_bytes(pgn.as_bytes()).find_map(Result::err).unwrap();
        check(&error);
        check(&error.kind);
    }
    check(&Book::from_bytes(vec![0; 17]).unwrap_err());
    check(&Book::from_bytes(Vec::new()).unwrap_err());
    check(&BookError::Io(io::Error::new(io::ErrorKind::PermissionDenied, "denied")));
    check(&Book::open("/nonexistent/book.bin").unwrap_err());
    check(&EngineError::NotStarted(io::Error::new(io::ErrorKind::NotFound, "no program")));
    check(&EngineError::Timeout(Duration::from_millis(300)));
    check(&EngineError::from(parse_line("bestmove e2e5", &start).unwrap_err()));
    check(&EngineError::from(UnsupportedVariant { variant: "horde", declared: true }));
    check(&UnsupportedVariant { variant: "3check", declared: false });
    check(&ProtocolError::Malformed("option"));
}
