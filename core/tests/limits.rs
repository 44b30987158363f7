//! Limits and hostile input for the text readers that stand alone (FEN, SAN, UCI, EPD): each
//! gets a clear error quickly, whatever its size or bytes.

use std::time::{Duration, Instant};

use chesscore_core::{
    Epd, Fen, FenError, Move, MovesLine, Position, San, SanError, SanMode, SanOptions, Uci, UciError, FEN_MAX_INPUT,
};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(start.elapsed() < Duration::from_secs(2), "{what} took {:?}", start.elapsed());
    out
}

#[test]
fn fen_length_limit() {
    let padded = format!("{START}{}", " ".repeat(FEN_MAX_INPUT - START.len()));
    assert!(Position::from_fen(&padded).is_ok());
    let over = format!("{padded} ");
    assert_eq!(Position::from_fen(&over), Err(FenError::TooLong { length: FEN_MAX_INPUT + 1 }));
    let huge = "8/".repeat(50_000_000);
    let err = quickly("a 100 MB FEN", || Position::from_fen(&huge)).unwrap_err();
    assert!(matches!(err, FenError::TooLong { .. }));
}

#[test]
fn fen_bytes_that_are_not_text() {
    for bad in [&b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\xff"[..], b"\xc3\x28", b"\0", b"\x1b[31m"] {
        let err = Fen::parse_bytes(bad).unwrap_err();
        assert!(matches!(err, FenError::InvalidCharacter { .. } | FenError::FieldCount { .. }), "{bad:?}: {err:?}");
    }
    // Random bytes: an error or a position, never a panic.
    let mut seed = 0x1234_5678u64;
    for _ in 0..20_000 {
        let len = (seed % 90) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed >> 24) as u8
            })
            .collect();
        let _ = Fen::parse_bytes(&bytes);
    }
}

#[test]
fn san_uci_and_epd_on_long_or_odd_input() {
    let pos = Position::startpos();
    let san = |text: &str, options: &SanOptions| text.parse::<San>()?.to_move_with(&pos, options);
    let uci = |text: &str| text.parse::<Uci>()?.to_move(&pos);
    let long = "N".repeat(10_000_000);
    assert_eq!(quickly("a 10 MB SAN", || san(&long, &SanOptions::default())), Err(SanError::Syntax));
    let strict = SanOptions { mode: SanMode::Strict, allow_null: false };
    assert_eq!(quickly("a 10 MB strict SAN", || san(&long, &strict)), Err(SanError::Syntax));
    assert_eq!(quickly("a 10 MB UCI move", || uci(&long)), Err(UciError::Syntax));
    for odd in ["", " ", "é4", "e4\0", "\u{202e}e4", "Nf3\n", "O-O-O-O", "e8=Q=Q", "exd6e.p."] {
        assert!(san(odd, &SanOptions::default()).is_err(), "{odd:?}");
        assert!(uci(odd).is_err(), "{odd:?}");
    }
    let line = "e4 ".repeat(1_000_000);
    let err = quickly("a line of a million moves", || {
        MovesLine::new(&pos, &line, &SanOptions::default()).collect::<Result<Vec<Move>, _>>()
    })
    .unwrap_err();
    assert_eq!(err.index, 1);
    let epd = format!("{} c0 \"{}\";", &START[..START.len() - 4], "x".repeat(5_000_000));
    let parsed = quickly("an EPD with a 5 MB comment", || Epd::parse(&epd)).unwrap();
    assert_eq!(parsed.string("c0").map(str::len), Some(5_000_000));
    assert!(quickly("an unterminated EPD string", || Epd::parse(&epd[..epd.len() - 2])).is_err());
}

/// `from_fen_file` reads the first non-empty line and nothing after it (it once read the whole
/// file: `/dev/zero` never returned, a 600 MB file with the FEN on line 1 cost 616 MB).
#[cfg(unix)]
#[test]
fn fen_files_are_read_only_as_far_as_their_fen() {
    use chesscore_core::{FenFileError, FEN_FILE_MAX_BLANK};
    use std::io::Write;
    use std::process::Command;

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fen-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A pipe whose writer keeps it open after the FEN line until the reader is done (or ten
    // seconds have passed): reading to the end of it would wait for those ten seconds.
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut pipe = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            pipe.write_all(format!("\n  \n{START}\nnot read\n").as_bytes()).unwrap();
            let _ = wait.recv_timeout(Duration::from_secs(10));
        })
    };
    let read = quickly("a pipe left open after its FEN", || Position::from_fen_file(&fifo));
    assert_eq!(read.unwrap(), Position::startpos());
    done.send(()).unwrap();
    writer.join().unwrap();

    if std::path::Path::new("/dev/zero").exists() {
        let err = quickly("/dev/zero", || Position::from_fen_file("/dev/zero")).unwrap_err();
        assert!(matches!(err, FenFileError::Fen(FenError::TooLong { .. })), "{err:?}");
    }
    let blank = dir.join("blank.fen");
    std::fs::write(&blank, " \n".repeat(FEN_FILE_MAX_BLANK as usize) + START).unwrap();
    assert!(matches!(Position::from_fen_file(&blank), Err(FenFileError::Fen(FenError::Empty))));
    std::fs::write(&blank, "\r\n\t\n".to_string() + START + "\r\n").unwrap();
    assert_eq!(Position::from_fen_file(&blank).unwrap(), Position::startpos());
    std::fs::remove_dir_all(&dir).unwrap();
}
