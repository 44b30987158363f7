//! Stockfish training data: `.binpack` written byte for byte as the reference implementation
//! writes it (the fixture `binpack/generated.binpack` was built by it from the entries generated
//! here) and read back, `.plain` round trips, chunking, and malformed input with its offsets.

use chesscore_test_support as common;

use std::io::Write;
use std::path::PathBuf;

use chesscore_core::binpack::{
    BinpackError, BinpackErrorKind, BinpackReader, BinpackWriter, PlainReader, TrainingEntry, CHUNK_SIZE,
};
use chesscore_core::{Color, Position, Uci};
use serde_json::Value;

/// The entries of `binpack/generated.binpack`: 40 random games from the start position (one
/// chain each; scores of every size, a result per game), then a single entry for each of the
/// first 400 positions of `vectors/dev.jsonl` whose halfmove clock fits the reference's 8 bits
/// (their first legal move, the ply their fullmove number gives).
fn generated_entries() -> Vec<TrainingEntry> {
    let mut rng = common::Rng(0xb1_9ac4);
    let mut entries = Vec::new();
    for _ in 0..40 {
        let mut pos = Position::startpos();
        let white_result = rng.below(3) as i8 - 1;
        for ply in 0..(20 + rng.below(140)) as u16 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let score = match rng.below(10) {
                0 => rng.below(65536) as u16 as i16,
                1..=3 => rng.below(4001) as i16 - 2000,
                _ => rng.below(201) as i16 - 100,
            };
            let result = if pos.turn() == Color::White { white_result } else { -white_result };
            entries.push(TrainingEntry { position: pos, mv, score, ply, result });
            pos.play_unchecked(mv);
        }
    }
    for line in common::lines("vectors/dev.jsonl").iter().take(400) {
        let v: Value = serde_json::from_str(line).unwrap();
        let Ok(position) = Position::from_fen(v["fen"].as_str().unwrap()) else { continue };
        let Some(&mv) = position.legal_moves().first() else { continue };
        if position.halfmove_clock() > 255 {
            continue;
        }
        let ply = (2 * (position.fullmove_number() - 1) + position.turn().index() as u32) as u16;
        let score = rng.below(1001) as i16 - 500;
        entries.push(TrainingEntry { position, mv, score, ply, result: rng.below(3) as i8 - 1 });
    }
    entries
}

/// The `.plain` text of entries.
fn plain(entries: &[TrainingEntry]) -> String {
    entries.iter().map(ToString::to_string).collect()
}

fn write_binpack(entries: &[TrainingEntry]) -> Vec<u8> {
    let mut writer = BinpackWriter::new(Vec::new());
    for entry in entries {
        writer.write(entry).unwrap();
    }
    writer.finish().unwrap()
}

fn read_binpack(bytes: &[u8]) -> Vec<TrainingEntry> {
    BinpackReader::new(bytes).collect::<Result<_, _>>().unwrap()
}

#[test]
fn writes_and_reads_as_the_reference_does() {
    let entries = generated_entries();
    assert!(entries.len() > 3000, "{}", entries.len());
    let text = plain(&entries);
    // The text the fixture was built from, for building it again (tests/data/README.md).
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("binpack");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("generated.plain"), &text).unwrap();

    let fixture = std::fs::read(common::data("binpack/generated.binpack")).unwrap();
    let ours = write_binpack(&entries);
    assert!(ours == fixture, "the writer's {} bytes differ from the reference's {}", ours.len(), fixture.len());
    assert_eq!(plain(&read_binpack(&fixture)), text);
}

#[test]
fn plain_round_trips() {
    let entries = generated_entries();
    let text = plain(&entries);
    let read: Vec<TrainingEntry> = PlainReader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
    assert_eq!(plain(&read), text);
    assert_eq!(plain(&read_binpack(&write_binpack(&read))), text);
    // Blank lines and CRLF line ends read the same.
    let crlf = text.replace('\n', "\r\n").replace("e\r\n", "e\r\n\r\n");
    let read: Vec<TrainingEntry> = PlainReader::new(crlf.as_bytes()).collect::<Result<_, _>>().unwrap();
    assert_eq!(plain(&read), text);
}

#[test]
fn large_files_have_chunks_of_a_mebibyte() {
    // Unchained entries: the same position each time, 34 bytes each.
    let position = Position::startpos();
    let mv = "e2e4".parse::<Uci>().unwrap().to_move(&position).unwrap();
    let entries: Vec<TrainingEntry> =
        (0..40_000).map(|i| TrainingEntry { position, mv, score: i as i16, ply: 0, result: 0 }).collect();
    let bytes = write_binpack(&entries);
    let mut chunks = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        assert_eq!(&bytes[at..at + 4], b"BINP");
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        chunks.push(size);
        at += 8 + size;
    }
    let per_chunk = CHUNK_SIZE.div_ceil(34) * 34;
    assert_eq!(chunks, [per_chunk, 40_000 * 34 - per_chunk]);
    assert_eq!(read_binpack(&bytes), entries);
}

fn first_error(bytes: &[u8]) -> BinpackError {
    BinpackReader::new(bytes).find_map(Result::err).expect("an error")
}

#[test]
fn malformed_binpack_fails_with_offsets() {
    let fixture = std::fs::read(common::data("binpack/generated.binpack")).unwrap();
    let error = first_error(b"BINQ\x01\0\0\0x");
    assert!(matches!(error.kind, BinpackErrorKind::ChunkHeader) && error.offset == 0);
    let error = first_error(&fixture[..5]);
    assert!(matches!(error.kind, BinpackErrorKind::Truncated) && error.offset == 5, "{error}");
    let error = first_error(&fixture[..100]);
    assert!(matches!(error.kind, BinpackErrorKind::Truncated) && error.offset == 100, "{error}");
    let error = first_error(b"BINP\xff\xff\xff\xff");
    assert!(matches!(error.kind, BinpackErrorKind::ChunkTooLarge { size: u32::MAX }) && error.offset == 4);

    // A chunk holding one stem and the count of zero entries after it.
    let position = Position::startpos();
    let mv = "g1f3".parse::<Uci>().unwrap().to_move(&position).unwrap();
    let single = write_binpack(&[TrainingEntry { position, mv, score: 7, ply: 0, result: 1 }]);
    assert_eq!(single.len(), 8 + 34);
    let with = |at: usize, byte: u8| {
        let mut bytes = single.clone();
        bytes[at] = byte;
        first_error(&bytes)
    };
    // The white king's code made a queen's: no white king.
    let error = with(8 + 10, 0x48);
    assert!(matches!(error.kind, BinpackErrorKind::Position(_)), "{error}");
    // The move's destination made f4: not a knight move.
    let error = with(8 + 25, (29 << 2) as u8);
    assert!(matches!(error.kind, BinpackErrorKind::IllegalMove) && error.offset == 8 + 24, "{error}");
    // Result bits 3.
    let error = with(8 + 28, 0xc0);
    assert!(matches!(error.kind, BinpackErrorKind::Result) && error.offset == 8 + 28, "{error}");
    // A count of entries after the stem with no moves for them.
    let error = with(8 + 33, 1);
    assert!(matches!(error.kind, BinpackErrorKind::Truncated), "{error}");
    // Bytes after the stem that are no stem.
    let mut trailing = single.clone();
    trailing[4] += 3;
    trailing.extend([1, 2, 3]);
    let error = first_error(&trailing);
    assert!(matches!(error.kind, BinpackErrorKind::Truncated) && error.offset == 8 + 37, "{error}");
    // Reading stops at the first error.
    let mut reader = BinpackReader::new(&trailing[..]);
    assert!(reader.next().unwrap().is_ok() && reader.next().unwrap().is_err() && reader.next().is_none());
}

#[test]
fn malformed_plain_fails_with_offsets() {
    let start = "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
    let error = |text: &str| PlainReader::new(text.as_bytes()).find_map(Result::err).expect("an error");
    let e = error(&format!("{start}move e2e4\nscore 1\nply 0\ne\n"));
    assert!(matches!(e.kind, BinpackErrorKind::MissingField { field: "result" }), "{e}");
    let e = error(&format!("{start}move e2e5\nscore 1\nply 0\nresult 0\ne\n"));
    assert!(matches!(e.kind, BinpackErrorKind::Uci(_)) && e.offset == start.len() as u64 + 5, "{e}");
    let e = error(&format!("{start}moves e2e4\n"));
    assert!(matches!(e.kind, BinpackErrorKind::Line) && e.offset == start.len() as u64, "{e}");
    let e = error(&format!("{start}score 40000\n"));
    assert!(matches!(e.kind, BinpackErrorKind::Number { field: "score" }), "{e}");
    let e = error(&format!("{start}result 2\n"));
    assert!(matches!(e.kind, BinpackErrorKind::Result), "{e}");
    let e = error("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\n");
    assert!(matches!(e.kind, BinpackErrorKind::Fen(_)) && e.offset == 4 + 44, "{e}");
    let e = error(&format!("{start}move e2e4\n"));
    assert!(matches!(e.kind, BinpackErrorKind::Truncated), "{e}");
}

#[test]
fn the_writer_refuses_what_binpack_cannot_hold() {
    let write = |entry: TrainingEntry| BinpackWriter::new(Vec::new()).write(&entry).unwrap_err().kind;
    let position = Position::startpos();
    let mv = "e2e4".parse::<Uci>().unwrap().to_move(&position).unwrap();
    let entry = TrainingEntry { position, mv, score: 0, ply: 0, result: 0 };
    assert!(matches!(write(TrainingEntry { result: 2, ..entry }), BinpackErrorKind::Result));
    assert!(matches!(write(TrainingEntry { ply: 16384, ..entry }), BinpackErrorKind::Unrepresentable(_)));
    let other = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert!(matches!(write(TrainingEntry { position: other, ..entry }), BinpackErrorKind::IllegalMove));
    let fischer = Position::from_fen_chess960("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1").unwrap();
    let mv = fischer.legal_moves()[0];
    assert!(matches!(write(TrainingEntry { position: fischer, mv, ..entry }), BinpackErrorKind::Unrepresentable(_)));

    // An output error names where the chunk would have gone.
    #[derive(Debug)]
    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut writer = BinpackWriter::new(Broken);
    writer.write(&entry).unwrap();
    let error = writer.finish().unwrap_err();
    assert!(matches!(error.kind, BinpackErrorKind::Io(_)) && error.offset == 0, "{error}");
}

/// An input of one endless line (`/dev/zero`, a file of one huge line) is an error once the
/// line passes `MAX_PLAIN_LINE`, with no more than that much of it in memory.
#[test]
fn plain_lines_are_bounded() {
    use chesscore_core::binpack::MAX_PLAIN_LINE;
    use std::io::Read;
    // 256 MiB without a line end: the whole of it would be held before the bound.
    let endless = std::io::repeat(b'f').take(256 << 20);
    let mut reader = PlainReader::new(std::io::BufReader::new(endless));
    let error = reader.next().unwrap().unwrap_err();
    assert!(matches!(error.kind, BinpackErrorKind::LineTooLong), "{error}");
    assert_eq!(error.offset, 0);
    assert!(reader.next().is_none());
    // A line of the limit is read.
    let text = format!("fen {}\n", " ".repeat(MAX_PLAIN_LINE - 4));
    let error = PlainReader::new(text.as_bytes()).next().unwrap().unwrap_err();
    assert!(matches!(error.kind, BinpackErrorKind::Fen(_)), "{error}");
    let zeros = std::fs::File::open("/dev/zero").unwrap();
    let error = PlainReader::new(std::io::BufReader::new(zeros)).next().unwrap().unwrap_err();
    assert!(matches!(error.kind, BinpackErrorKind::LineTooLong), "{error}");
}
