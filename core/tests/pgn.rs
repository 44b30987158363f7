//! The PGN reader and writer on files of our own (`tests/data/pgn`): every construct of the
//! format, broken inputs with the exact games recovered, size limits, chunk boundaries,
//! truncation, the visitor API and round trips.

use chesscore_test_support as common;

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use chesscore_core::pgn::{
    split_points, Decompressed, Flow, NodeSan, ParallelReader, PgnError, PgnErrorKind, PgnReader, PgnWarning,
    PgnWarningKind, ReaderOptions, Visitor, WriteOptions,
};
use chesscore_core::{Game, Move, Outcome, Position, San, SanError, Uci};

fn data(name: &str) -> PathBuf {
    common::data("pgn").join(name)
}

/// Every PGN file we test with: ours, and the third-party ones when present.
fn all_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let shared = common::shared_testdata("pgn reader: the lichess and TWIC excerpts").map(|dir| dir.join("pgn"));
    for dir in std::iter::once(data("")).chain(shared) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 5);
    files
}

/// The movetext as the writer puts it on one line.
fn movetext(record: &Game) -> String {
    let mut out = String::new();
    record.write_pgn(&mut out, &WriteOptions { line_width: 0, ..WriteOptions::default() }).unwrap();
    out.split_once("\n\n").unwrap().1.trim_end().to_string()
}

/// One line per game: the whole export for a game read, the message for a broken one.
fn summary(results: &[Result<Game, PgnError>]) -> Vec<String> {
    results
        .iter()
        .map(|r| match r {
            Ok(record) => record.to_pgn(),
            Err(e) => format!("error: {e}"),
        })
        .collect()
}

fn read_all(bytes: &[u8]) -> Vec<Result<Game, PgnError>> {
    PgnReader::from_bytes(bytes).collect()
}

#[test]
fn every_construct_of_the_format() {
    let results: Vec<Game> = PgnReader::open(data("format.pgn")).unwrap().map(Result::unwrap).collect();
    let expected: &[(&str, &str)] = &[
        ("Escapes \"quoted\" and \\ backslash", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 1-0"),
        (
            "Annotations",
            "{ Before the first move } 1. e4 $1 $1 e5 $6 ( 1... c5 { Sicilian } 2. Nf3 ( 2. c3 { Alapin } ) \
             ( { before } 2. Nc3 ) 2... d6 ) 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 4. Ba4 $14 Nf6 $18 5. O-O \
             { rest of the line } 5... Be7 { multi\nline comment } 6. Re1 $10 $32 { one } { two } *",
        ),
        (
            "",
            "1. d4 -- 2. c4 -- 3. Nc3 -- 4. e4 -- 5. e5 f5 6. exf6 gxf6 7. Bd3 h5 8. Qf3 h4 9. Bd2 h3 \
             10. O-O-O hxg2 11. Nge2 gxh1=Q 12. Rxh1 Kf7 *",
        ),
        ("From a FEN, black to move", "50... Kd5 51. e4+ Kxe4 1/2-1/2"),
        ("Chess960, Shredder castling", "1. O-O O-O-O 2. Kh1 *"),
        ("No result, tags right after", "1. e4 e5 *"),
        ("After a game without result", "1. d4 d5 { a comment on the result's line } 1/2-1/2"),
        ("", "1. f4 *"),
        ("", "1. g4 *"),
        ("SetUp 0 with a FEN: the FEN counts", "50... Ke4 *"),
        ("", "1. O-O-O Ke7 *"),
        ("", "1. O-O *"),
        ("Escape line inside movetext", "1. e4 e5 2. Nf3 $255 Nc6 $13 3. d4 $16 exd4 $15 *"),
        ("Empty", "*"),
        ("Last, nothing after the tags", "*"),
    ];
    assert_eq!(results.len(), expected.len());
    for (record, (event, text)) in results.iter().zip(expected) {
        assert_eq!(record.tag("Event").unwrap_or(""), *event);
        assert_eq!(movetext(record), *text, "{event}");
    }
    // Tags: two on a line, a repeated name replacing the value in place, unescaped quotes.
    let tags: Vec<(&str, &str)> = results[0].tags().iter().collect();
    assert_eq!(tags.len(), 8);
    assert_eq!(tags[1], ("Site", "Two tags on a line"));
    assert_eq!(results[0].tag("Annotator"), Some("unescaped \"quotes\" kept"));
    assert_eq!(results[0].result(), Some(Outcome::WhiteWins));
    // Suffix annotations as NAGs, glued or not; comments before a variation's first move.
    let tree = results[1].tree();
    let e4 = tree.mainline().next().unwrap();
    assert_eq!(tree.nags(e4).collect::<Vec<_>>(), [1, 1]);
    assert_eq!(tree.move_count(), 16);
    assert_eq!(results[1].moves().len(), 11);
    // Null moves in every spelling.
    assert_eq!(results[2].moves().filter(|m| m.is_null()).count(), 4);
    // The only tag: the result, from the termination marker.
    assert_eq!(results[2].tags().iter().map(|(name, _)| name).collect::<Vec<_>>(), ["Result"]);
    // Start positions: FEN, Chess960 by tag and by castling rights.
    assert_eq!(results[3].start().to_fen(), "8/8/8/4k3/8/8/4P3/4K3 b - - 0 50");
    assert_eq!(results[3].position().to_fen(), "8/8/8/8/4k3/8/8/4K3 w - - 0 52");
    assert!(results[4].start().is_chess960());
    assert_eq!(results[4].position().to_fen(), "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3R1K b - - 3 2");
    assert_eq!(Uci::from_move(results[4].start(), results[4].moves().next().unwrap()).to_string(), "e1g1");
    assert!(!results[10].start().is_chess960());
    assert!(results[11].start().is_chess960());
    assert_eq!(results[11].position().to_fen(), "rkr5/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1");
    assert_eq!(results[13].result(), Some(Outcome::Ongoing));
    assert_eq!(results[14].result(), None);
}

#[test]
fn crlf_and_byte_order_mark_change_nothing() {
    let plain: Vec<_> = PgnReader::open(data("format.pgn")).unwrap().collect();
    let crlf: Vec<_> = PgnReader::open(data("format_crlf_bom.pgn")).unwrap().collect();
    assert_eq!(summary(&plain), summary(&crlf));
}

/// What a game of the broken file must come out as.
enum Want {
    Game(&'static str, &'static str),
    Broken { game: u64, line: u64, column: u64, ply: u32, kind: PgnErrorKind, text: &'static str },
}

fn broken(game: u64, line: u64, column: u64, ply: u32, kind: PgnErrorKind, text: &'static str) -> Want {
    Want::Broken { game, line, column, ply, kind, text }
}

#[test]
fn broken_games_are_reported_and_skipped() {
    use PgnErrorKind::*;
    let at = |line, column, offset| chesscore_core::pgn::Location { line, column, offset };
    let results: Vec<_> = PgnReader::open(data("broken.pgn")).unwrap().collect();
    let wanted = [
        Want::Game("Good 1", "1. e4 e5 1-0"),
        broken(2, 7, 7, 2, UnterminatedComment, ""),
        Want::Game("Good 2", "1. d4 d5 0-1"),
        broken(4, 15, 24, 4, UnclosedVariation { opened: at(15, 7, 161) }, ""),
        Want::Game("Good 3", "1. c4 c5 *"),
        broken(6, 23, 10, 3, UnmatchedParen, ")"),
        Want::Game("Good 4", "1. Nf3 Nf6 *"),
        broken(8, 29, 1, 0, BadTag { reason: "expected '\"]' to close the tag value" }, "[Event \"Bad tag"),
        Want::Game("Good 5", "1. b3 e5 *"),
        broken(10, 40, 47, 9, Move(SanError::Illegal), "Bxe5"),
        Want::Game("Good 6", "1. g3 d5 *"),
        broken(12, 46, 1, 1, Move(SanError::Syntax), "\0\u{1}\u{2}\u{fffd}\u{fffd}"),
        Want::Game("Good 7", "1. f4 e5 *"),
        // Read as Windows-1252 (strict reading refuses them: see below).
        Want::Game("Invalid UTF-8 in a comment", "{ caf\u{e9} } 1. e4 *"),
        Want::Game("Invalid UTF-8 in a tag \u{ff}", "1. e4 *"),
        Want::Game("Good 8", "1. a3 a6 *"),
        broken(17, 67, 1, 1, VariationWithoutMove, "("),
        broken(18, 71, 7, 2, InvalidNag, "$300"),
        broken(19, 75, 7, 2, UnexpectedChar('}'), "}"),
        broken(20, 80, 4, 1, Move(SanError::Ambiguous), "Rd1"),
        broken(
            21,
            83,
            1,
            0,
            InvalidFen(chesscore_core::FenError::MissingKing { color: chesscore_core::Color::White, offset: 0 }),
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ),
        broken(22, 88, 1, 0, UnsupportedVariant("Crazyhouse".to_string()), ""),
        Want::Game("Good 9", "1. e4 e5 2. Nf3 Nc6 *"),
        broken(24, 98, 13, 3, Move(SanError::Syntax), "Nf"),
    ];
    assert_eq!(results.len(), wanted.len(), "{:#?}", summary(&results));
    for (i, (result, want)) in results.iter().zip(&wanted).enumerate() {
        match (result, want) {
            (Ok(record), Want::Game(event, text)) => {
                assert_eq!(record.tag("Event"), Some(*event), "game {}", i + 1);
                assert_eq!(movetext(record), *text, "game {}", i + 1);
            }
            (Err(e), Want::Broken { game, line, column, ply, kind, text }) => {
                assert_eq!(
                    (e.game, e.location.line, e.location.column, e.ply, &e.kind, e.text.as_str()),
                    (*game, *line, *column, *ply, kind, *text),
                    "{e}"
                );
            }
            (other, _) => panic!("game {}: unexpected {:?}", i + 1, other.as_ref().map(Game::to_pgn)),
        }
    }
    // The partial game of a broken one: tags and the main line before the bad move.
    let illegal = results[9].as_ref().unwrap_err().partial.as_deref().unwrap();
    assert_eq!(illegal.tag("Event"), Some("Illegal move mid-game"));
    assert_eq!(illegal.moves().len(), 8);
    assert_eq!(
        illegal.san_moves().map(|s| s.to_string()).collect::<Vec<_>>(),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]
    );
    let message = results[9].as_ref().unwrap_err().to_string();
    assert_eq!(message, "game 10, line 40, column 47: illegal move \"Bxe5\" at ply 9");
    let strict = ReaderOptions { strict: true, ..ReaderOptions::default() };
    let results: Vec<_> = PgnReader::open(data("broken.pgn")).unwrap().with_options(strict).collect();
    let utf8 = |i: usize| results[i].as_ref().map_err(|e| (e.game, e.location.line, e.location.column, &e.kind));
    assert_eq!(utf8(13).unwrap_err(), (14, 55, 1, &InvalidUtf8));
    assert_eq!(utf8(14).unwrap_err(), (15, 57, 1, &InvalidUtf8));
}

/// A NUL in a tag value or comment breaks the game (C strings would cut the text short); with
/// `lossy_utf8` it becomes U+FFFD, like an invalid byte.
#[test]
fn nul_bytes_in_text_break_the_game_or_are_replaced() {
    let pgn = b"[White \"BA\0D\"]\n\n1. e4 *\n\n[White \"ok\"]\n\n1. e4 {x\0y} e5 *\n\n1. d4 *\n";
    let games = read_all(pgn);
    assert_eq!(games.len(), 3);
    for (game, ply) in games[..2].iter().zip([0, 2]) {
        let error = game.as_ref().unwrap_err();
        assert_eq!((&error.kind, error.ply), (&PgnErrorKind::NulByte, ply), "{error}");
    }
    assert!(games[2].is_ok());
    let options = ReaderOptions { lossy_utf8: true, ..ReaderOptions::default() };
    let lossy: Vec<Game> = PgnReader::from_bytes(&pgn[..]).with_options(options).map(Result::unwrap).collect();
    assert_eq!(lossy[0].tag("White"), Some("BA\u{fffd}D"));
    let after_e4 = lossy[1].tree().mainline().next().unwrap();
    assert_eq!(lossy[1].tree().comments(after_e4).collect::<Vec<_>>(), ["x\u{fffd}y"]);
}

#[test]
fn lossy_utf8_keeps_the_games() {
    let options = ReaderOptions { lossy_utf8: true, ..ReaderOptions::default() };
    let games: Vec<_> = PgnReader::open(data("broken.pgn")).unwrap().with_options(options).collect();
    let comment = games.iter().flatten().find(|g| g.tag("Event") == Some("Invalid UTF-8 in a comment")).unwrap();
    assert_eq!(comment.tree().comments(comment.tree().root()).collect::<Vec<_>>(), ["caf\u{fffd}"]);
    assert!(games.iter().flatten().any(|g| g.tag("Event") == Some("Invalid UTF-8 in a tag \u{fffd}")));
}

/// Headers only: every game's tags, start position and result, its movetext skipped unread
/// (so a bad move breaks nothing), a bad `FEN` tag still an error; the same games in the same
/// order as a full reading of every test file.
#[test]
fn headers_only_reads_tags_start_and_result() {
    let pgn = "[White \"a\"]\n[FEN \"8/8/8/4k3/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O {x} (1. Kd1) Kd4 1-0\n\n\
               [White \"b\"]\n\n1. e5 e4 0-1\n\n[FEN \"8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n[White \"c\"]\n\n*\n";
    let options = ReaderOptions { headers_only: true, ..ReaderOptions::default() };
    let games: Vec<_> = PgnReader::from_bytes(pgn).with_options(options).collect();
    assert_eq!(games.len(), 4);
    let [Ok(a), Ok(b), Err(bad_fen), Ok(c)] = &games[..] else { panic!("{games:?}") };
    assert_eq!(
        (a.tag("White"), a.start().to_fen().as_str(), a.result()),
        (Some("a"), "8/8/8/4k3/8/8/8/4K2R w K - 0 1", Some(Outcome::WhiteWins))
    );
    assert_eq!((b.tag("White"), b.result(), b.moves().len()), (Some("b"), Some(Outcome::BlackWins), 0));
    assert!(matches!(bad_fen.kind, PgnErrorKind::InvalidFen(_)), "{bad_fen}");
    assert_eq!((c.tag("White"), c.result(), *c.start()), (Some("c"), Some(Outcome::Ongoing), Position::startpos()));
    assert_eq!(a.tree().move_count() + a.tree().comments(a.tree().root()).count(), 0);

    for file in all_files() {
        let full: Vec<_> = PgnReader::open(&file).unwrap().map(|g| g.map(|g| g.tags().clone())).collect();
        let headers: Vec<_> =
            PgnReader::open(&file).unwrap().with_options(options).map(|g| g.map(|g| g.tags().clone())).collect();
        assert_eq!(headers.len(), full.len(), "{}", file.display());
        for (h, f) in headers.iter().zip(&full) {
            if let Ok(f) = f {
                assert_eq!(h.as_ref().ok(), Some(f), "{}", file.display());
            }
        }
    }
}

/// A reader that hands out at most `n` bytes per call, as a pipe or a C callback might.
struct Chunks<'a> {
    bytes: &'a [u8],
    n: usize,
}

impl Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.bytes.len()).min(self.n);
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

#[test]
fn chunk_boundaries_change_nothing() {
    for path in all_files() {
        let bytes = std::fs::read(&path).unwrap();
        let whole = summary(&read_all(&bytes));
        for n in [1, 7, 4096] {
            let chunked: Vec<_> = PgnReader::new(Chunks { bytes: &bytes, n }).collect();
            assert_eq!(summary(&chunked), whole, "{} in chunks of {n}", path.display());
        }
    }
}

/// Every file compressed with gzip and Zstandard, opened as a file and read from a stream in
/// small chunks: the same games as the plain file (without the `zstd` feature, a Zstandard
/// file is refused with a message that says so). The decoders stream: the 20 MB of a large
/// file never sit in memory (see `gigabyte_lines_in_bounded_memory` for the reader's bound).
#[test]
fn compressed_files_read_as_the_plain_ones() {
    use std::io::Write;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compressed_pgn");
    std::fs::create_dir_all(&dir).unwrap();
    for path in all_files() {
        let bytes = std::fs::read(&path).unwrap();
        let whole = summary(&read_all(&bytes));
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gzip.write_all(&bytes).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        for (suffix, packed) in
            [("gz", gzip.finish().unwrap()), ("zst", zstd::stream::encode_all(&bytes[..], 1).unwrap())]
        {
            let file = dir.join(format!("{name}.{suffix}"));
            std::fs::write(&file, &packed).unwrap();
            let opened: Vec<_> = PgnReader::open(&file).unwrap().collect();
            if suffix == "zst" && !cfg!(feature = "zstd") {
                let refused = summary(&opened);
                assert!(refused.len() == 1 && refused[0].contains("without its `zstd` feature"), "{refused:?}");
                continue;
            }
            assert_eq!(summary(&opened), whole, "{}", file.display());
            let streamed: Vec<_> = PgnReader::new(Decompressed::new(Chunks { bytes: &packed, n: 7 })).collect();
            assert_eq!(summary(&streamed), whole, "{} in chunks of 7", file.display());
        }
    }
}

/// What a reading gave, game by game: warnings with their places, errors with their offsets,
/// partial games of broken ones included.
fn full_summary(results: &[Result<Game, PgnError>]) -> Vec<String> {
    results
        .iter()
        .map(|r| match r {
            Ok(record) => format!("{}warnings {:?}", record.to_pgn(), record.warnings()),
            Err(e) => format!(
                "error: {e} {:?} ply {} partial {:?}",
                e.location,
                e.ply,
                e.partial.as_ref().map(|p| (p.to_pgn(), p.warnings()))
            ),
        })
        .collect()
}

/// Several threads read every file, and many copies of each one after the other (many
/// batches): the same games, errors and partial games, in the same order, as one reader.
#[test]
fn parallel_reading_gives_what_one_reader_gives() {
    for path in all_files() {
        let bytes = std::fs::read(&path).unwrap();
        // Enough copies of the broken games that some batches end right after one.
        let many = if path.ends_with("broken.pgn") { 400 } else { 40 };
        for copies in [1, many] {
            let input = bytes.repeat(copies);
            let serial = full_summary(&read_all(&input));
            for threads in [1, 2, 3] {
                let parallel: Vec<_> =
                    ParallelReader::records(io::Cursor::new(input.clone()), threads, ReaderOptions::default())
                        .collect();
                same_games(
                    &full_summary(&parallel),
                    &serial,
                    &format!("{} x{copies}, {threads} threads", path.display()),
                );
            }
        }
    }
    // A visitor per worker: the same outputs as one visitor reading alone.
    let bytes = std::fs::read(data("broken.pgn")).unwrap().repeat(30);
    let plies = |results: Vec<Result<usize, PgnError>>| -> Vec<String> {
        results.into_iter().map(|r| r.map_or_else(|e| e.to_string(), |n| n.to_string())).collect()
    };
    let mut alone = CountPlies(0);
    let mut reader = PgnReader::from_bytes(&bytes[..]);
    let serial = plies(std::iter::from_fn(|| reader.read_game(&mut alone).transpose()).collect());
    let parallel = ParallelReader::visiting(io::Cursor::new(bytes), 2, ReaderOptions::default(), || CountPlies(0));
    assert_eq!(plies(parallel.collect()), serial);
}

/// The records of several threads are built in the caller's thread from what the threads
/// recorded of each game: field for field (positions of the main line, moves as written, the
/// tree, warnings, partial games of broken ones) those one reader builds.
#[test]
fn parallel_records_are_those_of_one_reader_field_for_field() {
    // Every node of the tree, in the order of its nodes, beside what the record's Debug shows
    // (tags, positions, result, warnings).
    let fields = |record: &Game| {
        let tree = record.tree();
        let nodes: Vec<String> = (0..=tree.move_count())
            .map(|i| {
                let node = tree.node_id(i).unwrap();
                format!(
                    "{i}: {:?} {:?} {:?} {} {:?} {:?} {:?} {:?}",
                    tree.parent(node),
                    tree.mv(node),
                    tree.written_san(node),
                    tree.ply(node),
                    tree.children(node).collect::<Vec<_>>(),
                    tree.comments_before(node).collect::<Vec<_>>(),
                    tree.comments(node).collect::<Vec<_>>(),
                    tree.nags(node).collect::<Vec<_>>()
                )
            })
            .collect();
        format!("{record:?} {nodes:?}")
    };
    let debug = |results: Vec<Result<Game, PgnError>>| -> Vec<String> {
        results
            .iter()
            .map(|r| match r {
                Ok(record) => fields(record),
                Err(e) => format!("{e:?} {:?}", e.partial.as_deref().map(fields)),
            })
            .collect()
    };
    for path in all_files() {
        let bytes = std::fs::read(&path).unwrap();
        let serial = debug(read_all(&bytes));
        for (threads, chunk) in [(1, 256 * 1024), (2, 1000)] {
            let input = io::Cursor::new(bytes.clone());
            let parallel = ParallelReader::records(input, threads, ReaderOptions::default()).with_chunk_size(chunk);
            same_games(&debug(parallel.collect()), &serial, &format!("{}, {threads} threads", path.display()));
        }
    }
}

/// The first game where two readings differ, if any.
fn same_games(got: &[String], want: &[String], what: &str) {
    if let Some(i) = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)) {
        panic!(
            "{what}: {} games against {}; game {i} is\n{:?}\ninstead of\n{:?}",
            got.len(),
            want.len(),
            got.get(i),
            want.get(i)
        );
    }
}

/// Counts the moves of each game.
struct CountPlies(usize);

impl Visitor for CountPlies {
    type Output = usize;
    fn begin_game(&mut self) {
        self.0 = 0;
    }
    fn san(&mut self, _: &str, _: Move, _: &Position, _: &Position) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
    fn end_game(&mut self, _: Option<Outcome>) -> usize {
        self.0
    }
}

/// A read error: the games whole before it, then the error with the partial game it cut
/// short, then the end, as one reader gives them.
#[test]
fn parallel_reading_ends_at_a_read_error() {
    let bytes: &'static [u8] = std::fs::read(data("format.pgn")).unwrap().repeat(200).leak();
    for fail_at in [0, 1, 999, bytes.len() / 3, bytes.len() / 2 + 77, bytes.len() - 1] {
        let serial = full_summary(&PgnReader::new(FailingRead { bytes, n: 4096, fail_at }).collect::<Vec<_>>());
        assert!(serial.last().unwrap().contains("disk on fire"), "fail at {fail_at}");
        for (threads, chunk) in [(2, 256 * 1024), (2, 1000), (3, 64)] {
            let failing = FailingRead { bytes, n: 4096, fail_at };
            let parallel: Vec<_> =
                ParallelReader::records(failing, threads, ReaderOptions::default()).with_chunk_size(chunk).collect();
            same_games(&full_summary(&parallel), &serial, &format!("fail at {fail_at}, {threads} threads, {chunk}"));
        }
    }
}

/// Every event a visitor hears of, as text: tags, start position, moves, NAGs, comments,
/// variations (read), warnings with their places, the result.
#[derive(Default)]
struct Trace(String);

impl Visitor for Trace {
    type Output = String;
    fn begin_game(&mut self) {
        self.0.clear();
    }
    fn tag(&mut self, name: &str, value: &str) {
        self.0 += &format!("[{name} {value:?}]");
    }
    fn begin_movetext(&mut self, start: &Position) {
        self.0 += &format!(" from {} |", start.to_fen());
    }
    fn san(&mut self, san: &str, _: Move, _: &Position, _: &Position) -> Flow {
        self.0 += &format!(" {san}");
        Flow::Continue
    }
    fn nag(&mut self, nag: u8) {
        self.0 += &format!(" ${nag}");
    }
    fn comment(&mut self, text: &str) {
        self.0 += &format!(" {{{text}}}");
    }
    fn begin_variation(&mut self) -> Flow {
        self.0 += " (";
        Flow::Continue
    }
    fn end_variation(&mut self) {
        self.0 += " )";
    }
    fn warning(&mut self, warning: PgnWarning) {
        self.0 += &format!(" warning {warning:?}");
    }
    fn end_game(&mut self, result: Option<Outcome>) -> String {
        format!("{} result {result:?}", std::mem::take(&mut self.0))
    }
}

/// A visitor's outputs, errors with their places.
fn traces(results: impl Iterator<Item = Result<String, PgnError>>) -> Vec<String> {
    results.map(|r| r.unwrap_or_else(|e| format!("error: {e} {:?} ply {}", e.location, e.ply))).collect()
}

/// Reads `bytes` with 2, 3 and 4 threads in chunks of each size in `chunks` (so that batches
/// start and meet everywhere), as records and through a visitor: the same items as one reader.
fn parallel_reads_as_one(bytes: &[u8], chunks: &[usize], options: ReaderOptions, what: &str) {
    let serial = full_summary(&PgnReader::from_bytes(bytes).with_options(options).collect::<Vec<_>>());
    let mut reader = PgnReader::from_bytes(bytes).with_options(options);
    let mut visitor = Trace::default();
    let traced = traces(std::iter::from_fn(|| reader.read_game(&mut visitor).transpose()));
    for &chunk in chunks {
        for threads in [2, 3, 4] {
            let what = format!("{what}, {threads} threads, chunks of {chunk}");
            let input = || io::Cursor::new(bytes.to_vec());
            let records: Vec<_> = ParallelReader::records(input(), threads, options).with_chunk_size(chunk).collect();
            same_games(&full_summary(&records), &serial, &what);
            let visited = ParallelReader::visiting(input(), threads, options, Trace::default).with_chunk_size(chunk);
            same_games(&traces(visited), &traced, &format!("{what}, visited"));
        }
    }
}

/// Every file, in chunks small enough that batches start and meet in all its places.
#[test]
fn parallel_reading_in_small_chunks_gives_what_one_reader_gives() {
    for path in all_files() {
        let bytes = std::fs::read(&path).unwrap();
        let copies = if bytes.len() < 10_000 { 5 } else { 1 };
        let what = path.display().to_string();
        parallel_reads_as_one(&bytes.repeat(copies), &[64, 100, 333, 4096], ReaderOptions::default(), &what);
    }
}

/// Where a guess that a batch starts is wrong, or a batch ends in an unusual way: the games
/// still come as one reader reads them, wherever the chunks end.
#[test]
fn parallel_reading_past_wrong_guesses_and_odd_boundaries() {
    let traps = [
        // Comments holding a blank line and a tag line, or a clock command at a line's start.
        "[Event \"a\"]\n\n1. e4 { a comment\n\n[Event \"x\"]\n\n} e5 2. Nf3 *\n\n",
        "[Event \"b\"]\n[Site \"c\"]\n\n1. e4 {\n[%clk 0:01:00]\n} 1... e5 {\n\n[Round \"y\"] } *\n\n",
        // Games without tags, and tags with no blank line before them.
        "1. e4 *\n1. d4 *\n1. c4 e5 *\n[Event \"d\"]\n1. Nf3 *\n",
        // A game without a result ends where the next tags begin.
        "[Event \"e\"]\n\n1. e4 e5\n[Event \"f\"]\n\n1. d4 1-0\n",
        // Escape lines and remarks between games, and in a tag section.
        "%escaped\n; a remark\n[Event \"g\"]\n%more\n[Site \"h\"]\n\n1. e4 0-1\n; after\n\n",
        // Broken games: an illegal move, a bad tag, a comment running into the next tags, an
        // unclosed variation, a stray brace.
        "[Event \"i\"]\n\n1. e4 Ke3 2. d4 *\n\n[Event \"j\n\n1. e4 *\n\n",
        "[Event \"k\"]\n\n1. e4 { never closed\n[Event \"l\"]\n\n1. d4 (1. c4 *\n\n1. e4 } e5 *\n\n",
        // Text that is not UTF-8 (a warning with its place), a variation, NAGs, a result glued.
        "[Event \"caf\u{e9}\"]\n\n1. e4 $1 (1. d4 {\u{e9}} d5) 1... e5!? 2. Nf3*\n\n",
        // A line with `[` and a letter inside movetext, and tags after a blank line and a remark.
        "1. e4 {x}\n[Event \"m\"]\n\n[Site \"n\"]\n;r\n\n1. e4 1/2-1/2\n\n",
        // Games starting on the line of the result before them, with errors and warnings
        // placed by their columns.
        "1. e4 * [Event \"o\"] 1. d4 Ke3 * 1. c4 {caf\u{e9}} *\n\n",
    ];
    let latin1 = |text: &str| text.chars().map(|c| c as u32 as u8).collect::<Vec<u8>>();
    let text: String = traps.concat();
    let mut inputs = vec![
        ("traps".to_string(), latin1(&text.repeat(4))),
        ("traps, CRLF".to_string(), latin1(&text.replace('\n', "\r\n").repeat(4))),
        ("traps, byte order mark".to_string(), [&b"\xEF\xBB\xBF"[..], &latin1(&text)].concat()),
        ("no line end at the end".to_string(), latin1(&format!("{text}[Event \"z\"]\n\n1. e4 e5"))),
        ("nothing".to_string(), Vec::new()),
        ("blanks".to_string(), b"\n\n  \n".to_vec()),
        // No line anywhere that could start a batch: one thread reads it all.
        ("no tags".to_string(), b"1. e4 e5 2. Nf3 *\n\n1. d4 {\n[%clk 0:00:01]\n} Ke3 *\n".repeat(40)),
    ];
    for (i, trap) in traps.iter().enumerate() {
        inputs.push((format!("trap {i} alone"), latin1(&trap.repeat(3))));
    }
    let chunks: Vec<usize> = (1..=48).chain([61, 64, 97, 128, 256, 1000]).collect();
    for (what, bytes) in &inputs {
        parallel_reads_as_one(bytes, &chunks, ReaderOptions::default(), what);
        let headers_only = ReaderOptions { headers_only: true, ..ReaderOptions::default() };
        parallel_reads_as_one(bytes, &[1, 7, 30, 64], headers_only, &format!("{what}, headers only"));
    }
}

/// A panic in a reading thread goes on in the caller's thread.
#[test]
fn a_panic_in_a_reading_thread_reaches_the_caller() {
    struct Panics;
    impl Visitor for Panics {
        type Output = ();
        fn tag(&mut self, _: &str, value: &str) {
            assert_ne!(value, "boom", "a visitor panics");
        }
        fn end_game(&mut self, _: Option<Outcome>) {}
    }
    let pgn = "[Event \"a\"]\n\n1. e4 *\n\n".repeat(500) + "[Event \"boom\"]\n\n1. e4 *\n";
    let reading = std::panic::catch_unwind(|| {
        ParallelReader::visiting(io::Cursor::new(pgn), 2, ReaderOptions::default(), || Panics)
            .with_chunk_size(100)
            .count()
    });
    let panic = reading.unwrap_err();
    assert!(panic.downcast_ref::<String>().is_some_and(|message| message.contains("a visitor panics")));
}

/// Dropping the reader before the end stops its threads, which let go of the input.
#[test]
fn dropping_a_parallel_reader_stops_its_threads() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    /// Games without end; tells when it is dropped.
    struct Endless(Arc<AtomicBool>, usize);
    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let game = b"[Event \"e\"]\n\n1. e4 e5 *\n\n";
            for b in buf.iter_mut() {
                *b = game[self.1 % game.len()];
                self.1 += 1;
            }
            Ok(buf.len())
        }
    }
    impl Drop for Endless {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let dropped = Arc::new(AtomicBool::new(false));
    let mut reader = ParallelReader::records(Endless(dropped.clone(), 0), 3, ReaderOptions::default());
    assert_eq!(reader.by_ref().take(10_000).filter(Result::is_ok).count(), 10_000);
    drop(reader);
    let waited = std::time::Instant::now();
    while !dropped.load(Ordering::SeqCst) {
        assert!(waited.elapsed().as_secs() < 30, "the threads still hold the input");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

#[test]
fn truncation_anywhere_loses_only_the_cut_game() {
    for name in ["format.pgn", "broken.pgn"] {
        let bytes = std::fs::read(data(name)).unwrap();
        let whole = summary(&read_all(&bytes));
        let mut offsets = Vec::new();
        let mut reader = PgnReader::from_bytes(&bytes[..]);
        while reader.next_game().transpose().is_some() {
            offsets.push(reader.bytes_read());
        }
        for cut in 0..bytes.len() {
            let part = summary(&read_all(&bytes[..cut]));
            // Games that ended (and were followed by whitespace) before the cut are intact.
            let complete = offsets.iter().filter(|&&end| end < cut as u64).count().saturating_sub(1);
            assert_eq!(part[..complete], whole[..complete], "{name} cut at {cut}");
        }
    }
}

/// Hands out `n` bytes per call, then fails: a disk or network error after `fail_at` bytes.
struct FailingRead<'a> {
    bytes: &'a [u8],
    n: usize,
    fail_at: usize,
}

impl Read for FailingRead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.fail_at == 0 {
            return Err(io::Error::other("disk on fire"));
        }
        let n = buf.len().min(self.bytes.len()).min(self.n).min(self.fail_at);
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.fail_at -= n;
        Ok(n)
    }
}

/// A read error after any number of bytes: every game complete before it comes whole, the game
/// it cuts short (if any) comes as the read error with its moves so far, and then the input has
/// ended for good (the reader once went on with the bytes it had, cut game included).
#[test]
fn a_read_error_ends_the_input_after_the_games_before_it() {
    for (name, step) in [("format.pgn", 1), ("broken.pgn", 1), ("dev_edge_cases.pgn", 1), ("dev_generated.pgn", 37)] {
        let bytes = std::fs::read(data(name)).unwrap();
        let whole = read_all(&bytes);
        let mut ends = Vec::new();
        let mut reader = PgnReader::from_bytes(&bytes[..]);
        while reader.next_game().transpose().is_some() {
            ends.push(reader.bytes_read());
        }
        for fail_at in (0..bytes.len()).step_by(step) {
            let mut reader = PgnReader::new(FailingRead { bytes: &bytes, n: 1 + fail_at % 5, fail_at });
            let mut got = Vec::new();
            let error = loop {
                match reader.next_game() {
                    Ok(Some(record)) => got.push(Ok(record)),
                    Ok(None) => panic!("{name} failing at {fail_at}: the end came before the read error"),
                    Err(e) if matches!(e.kind, PgnErrorKind::Io { .. }) => break e,
                    Err(e) => got.push(Err(e)),
                }
            };
            for _ in 0..3 {
                assert!(reader.next_game().unwrap().is_none(), "{name} failing at {fail_at}: more after the error");
            }
            let ctx = format!("{name} failing at {fail_at}");
            assert_eq!(summary(&got), summary(&whole[..got.len()]), "{ctx}");
            // A game is known to be whole once what follows it on its line is read: a comment
            // there would belong to it.
            let whole_before = |end: u64| {
                let rest = &bytes[end as usize..];
                let blanks = rest.iter().take_while(|b| matches!(b, b' ' | b'\t' | b'\r')).count();
                (end as usize + blanks) < fail_at
            };
            for (i, (game, &end)) in whole.iter().zip(&ends).enumerate() {
                if game.is_ok() && whole_before(end) {
                    assert!(i < got.len(), "{ctx}: game {} was whole before the error", i + 1);
                }
            }
            // The cut game is the next one: what the error holds of it is the start of it.
            if let (Some(partial), Some(Ok(full))) = (&error.partial, whole.get(got.len())) {
                let (moves, whole): (Vec<_>, Vec<_>) = (partial.moves().collect(), full.moves().collect());
                assert!(whole.starts_with(&moves), "{ctx}");
            }
        }
    }
}

#[test]
fn round_trip_every_file() {
    for path in all_files() {
        let first: Vec<Game> = PgnReader::open(&path).unwrap().flatten().collect();
        let mut text = String::new();
        for record in &first {
            record.write_pgn(&mut text, &WriteOptions::default()).unwrap();
            text.push('\n');
        }
        for line in text.lines() {
            // Only a comment longer than a line may exceed the width.
            assert!(line.chars().count() <= 80 || line.contains("{ "), "{}: {line}", path.display());
        }
        let second: Vec<Game> = read_all(text.as_bytes()).into_iter().map(Result::unwrap).collect();
        assert_eq!(second.len(), first.len(), "{}", path.display());
        for (a, b) in first.iter().zip(&second) {
            assert!(a.moves().eq(b.moves()), "{}", path.display());
            assert_eq!(a.start(), b.start());
            assert_eq!(a.position(), b.position());
            assert_eq!(a.tree().move_count(), b.tree().move_count());
            assert_eq!(movetext(a), movetext(b), "{}", path.display());
            assert_eq!(a.to_pgn(), b.to_pgn());
        }
    }
}

#[test]
fn writer_special_cases() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 0 30").unwrap();
    let mut game = Game::new(pos);
    for san in ["Kd7", "O-O", "Ke6"] {
        game.push_san(san).unwrap();
    }
    assert_eq!(
        game.to_pgn(),
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"*\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 30\"]\n\n30... Kd7 31. O-O Ke6 *\n"
    );
    let mut record = game;
    let root = record.tree().root();
    let nodes: Vec<_> = record.tree().mainline().collect();
    record.tree_mut().add_nag(root, 146);
    record.tree_mut().add_comment(root, "");
    record.tree_mut().add_comment(nodes[0], "a } brace");
    record.tree_mut().add_comment(nodes[1], "two\nlines");
    let san = |text: &str, pos: &Position| text.parse::<San>().and_then(|san| san.to_move(pos));
    assert!(san("Ke8", &record.node_position(root)).is_err());
    let kf7 = san("Kf7", record.start()).unwrap();
    let variation = record.add_variation(nodes[0], &[kf7]).unwrap();
    record.tree_mut().add_comment_before(variation, "instead");
    assert!(record.add_variation(nodes[0], &[Move::NULL, kf7]).is_err());
    assert!(record.add_variation(root, &[kf7]).is_err());
    record.tags_mut().insert("White", "Quote \" and \\");
    record.set_result(Some(Outcome::Draw));
    let text = record.to_pgn();
    assert!(text.contains("[White \"Quote \\\" and \\\\\"]\n"), "{text}");
    assert!(text.ends_with(
        "\n\n$146 { } 30... Kd7 ; a } brace\n( { instead } 30... Kf7 ) 31. O-O { two\nlines } 31... Ke6 1/2-1/2\n"
    ));
    let back = PgnReader::from_bytes(text.as_bytes()).next_game().unwrap().unwrap();
    assert_eq!(back.to_pgn(), text);
    assert_eq!(back.tag("White"), Some("Quote \" and \\"));
    // Chess960 without tags: the writer adds Variant and FEN.
    let mut game960 =
        Game::new(Position::from_fen_chess960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1").unwrap());
    game960.push_san("O-O").unwrap();
    let text = game960.to_pgn();
    assert!(
        text.contains(
            "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1\"]"
        ),
        "{text}"
    );
    let back = PgnReader::from_bytes(text.as_bytes()).next_game().unwrap().unwrap();
    assert!(back.moves().eq(game960.moves()));
    assert!(back.start().is_chess960());

    // A `;` comment right after the tags is the game's first comment, so that a comment
    // holding `}`, which the writer gives as a `;` comment, reads back (found by fuzzing).
    let text = "[Event \"x\"]\n\n; before { the } first move\n1. e4 ; after } it\n*\n";
    let record = PgnReader::from_bytes(text).next_game().unwrap().unwrap();
    let tree = record.tree();
    assert_eq!(tree.comments(tree.root()).collect::<Vec<_>>(), ["before { the } first move"]);
    let written = record.to_pgn();
    assert!(written.contains("\n\n; before { the } first move\n1. e4 ; after } it\n*\n"), "{written}");
    let back = PgnReader::from_bytes(written.as_bytes()).next_game().unwrap().unwrap();
    assert_eq!(back.to_pgn(), written);

    // Line ends in comments read as LF, CRs before them dropped however many: "\r\r\n" once
    // read as "\r\n", which read again as "\n" (found by fuzzing).
    let text = "1. e4 { one\r\r\ntwo\r\nthree\rfour } *\n";
    let record = PgnReader::from_bytes(text).next_game().unwrap().unwrap();
    let e4 = record.tree().mainline().next().unwrap();
    assert_eq!(record.tree().comments(e4).collect::<Vec<_>>(), ["one\ntwo\nthree\rfour"]);
    let written = record.to_pgn();
    assert_eq!(PgnReader::from_bytes(written.as_bytes()).next_game().unwrap().unwrap().to_pgn(), written);

    // A comment line starting with `[` is written after a space, so that it cannot join the
    // text after the comment into what reads as a tag pair line (found by fuzzing).
    let text = "1. e4 { one\n[Date \"x }\n1... e5 { y\"]\nz } *\n";
    let record = PgnReader::from_bytes(text).next_game().unwrap().unwrap();
    let written = record.to_pgn();
    assert!(written.contains("{ one\n [Date \"x } 1... e5 { y\"]\nz } *"), "{written}");
    let back = PgnReader::from_bytes(written.as_bytes()).next_game().unwrap().unwrap();
    assert!(back.moves().eq(record.moves()));
    assert_eq!(back.to_pgn(), written);

    // SetUp and FEN come from the start position, once each, whatever the tags held (a
    // SetUp without FEN, a FEN tag in another spelling); found by the pgn fuzz target.
    for tags in ["[SetUp \"1\"]\n[Variant \"Chess960\"]", "[FEN \"4k3/8/8/8/8/8/8/4K2R b K -\"]\n[SetUp \"1\"]"] {
        let record = PgnReader::from_bytes(format!("{tags}\n\n*\n")).next_game().unwrap().unwrap();
        let text = record.to_pgn();
        assert_eq!(text.matches("[SetUp ").count(), 1, "{text}");
        assert_eq!(text.matches("[FEN ").count(), 1, "{text}");
        let back = PgnReader::from_bytes(text.as_bytes()).next_game().unwrap().unwrap();
        assert_eq!(back.start(), record.start());
        assert_eq!(back.to_pgn(), text);
    }
}

/// Counts events, and can ask for tags only or the main line only.
#[derive(Default)]
struct Counter {
    tags_only: bool,
    variations: bool,
    tags: usize,
    moves: usize,
    comments: usize,
    nags: usize,
    variation_starts: usize,
}

impl Visitor for Counter {
    type Output = (usize, Option<Outcome>);

    fn begin_game(&mut self) {
        self.moves = 0;
    }
    fn tag(&mut self, _: &str, _: &str) {
        self.tags += 1;
    }
    fn end_tags(&mut self) -> Flow {
        if self.tags_only {
            Flow::Skip
        } else {
            Flow::Continue
        }
    }
    fn san(&mut self, san: &str, mv: Move, before: &Position, after: &Position) -> Flow {
        assert_eq!(before.make_move_checked(mv), Some(*after), "{san}");
        self.moves += 1;
        Flow::Continue
    }
    fn nag(&mut self, _: u8) {
        self.nags += 1;
    }
    fn comment(&mut self, _: &str) {
        self.comments += 1;
    }
    fn begin_variation(&mut self) -> Flow {
        self.variation_starts += 1;
        if self.variations {
            Flow::Continue
        } else {
            Flow::Skip
        }
    }
    fn end_game(&mut self, result: Option<Outcome>) -> Self::Output {
        (self.moves, result)
    }
}

/// `make_move` for a legal move or a null move.
trait MakeChecked {
    fn make_move_checked(&self, mv: Move) -> Option<Position>;
}

impl MakeChecked for Position {
    fn make_move_checked(&self, mv: Move) -> Option<Position> {
        let mut next = *self;
        if mv.is_null() {
            next.play_null().then_some(next)
        } else {
            next.play(mv).ok().map(|_| next)
        }
    }
}

#[test]
fn visitors_do_only_the_work_asked() {
    let bytes = std::fs::read(data("format.pgn")).unwrap();
    let mut reader = PgnReader::from_bytes(&bytes[..]);
    let mut all = Counter { variations: true, ..Counter::default() };
    let mut games = Vec::new();
    while let Some(out) = reader.read_game(&mut all).unwrap() {
        games.push(out);
    }
    assert_eq!(games.len(), 15);
    assert_eq!(games[1], (16, Some(Outcome::Ongoing)));
    assert_eq!((all.comments, all.nags, all.variation_starts), (9, 15, 3));

    let mut main = Counter::default();
    let mut reader = PgnReader::from_bytes(&bytes[..]);
    assert_eq!(reader.read_game(&mut main).unwrap(), Some((12, Some(Outcome::WhiteWins))));
    assert_eq!(reader.read_game(&mut main).unwrap(), Some((11, Some(Outcome::Ongoing))));
    assert_eq!(main.variation_starts, 1);

    // Tags only: the movetext is not read, so a game with an illegal move is no error.
    let bytes = std::fs::read(data("broken.pgn")).unwrap();
    let mut reader = PgnReader::from_bytes(&bytes[..]);
    let mut tags = Counter { tags_only: true, ..Counter::default() };
    let mut outcomes = Vec::new();
    loop {
        match reader.read_game(&mut tags) {
            Ok(Some(out)) => outcomes.push(Ok(out)),
            Ok(None) => break,
            Err(e) => outcomes.push(Err(e.game)),
        }
    }
    assert_eq!(tags.moves, 0);
    assert!(outcomes.contains(&Ok((0, Some(Outcome::Ongoing)))));
    // Only tag pairs themselves can break a game read for its tags (game 15's tag that is not
    // UTF-8 is read as Windows-1252).
    assert_eq!(outcomes.iter().filter(|o| o.is_err()).collect::<Vec<_>>(), [&Err(8)]);
    assert_eq!(reader.games_read(), outcomes.len() as u64);
}

#[test]
fn skip_game_and_iteration() {
    let bytes = std::fs::read(data("format.pgn")).unwrap();
    let mut reader = PgnReader::from_bytes(&bytes[..]);
    assert!(reader.skip_game().unwrap());
    assert_eq!(reader.next_game().unwrap().unwrap().tag("Event"), Some("Annotations"));
    assert_eq!(reader.count(), 13);
}

/// Skipping a game (as the parallel reader's threads and headers-only reading do) ends where
/// reading it ends, at the same line and column, in every file and in a file of every one of
/// them after the other (where the buffer's ends fall elsewhere).
#[test]
fn skipping_ends_where_reading_ends() {
    let mut files: Vec<Vec<u8>> = all_files().iter().map(|path| std::fs::read(path).unwrap()).collect();
    // A result inside a variation ends the game (found by fuzzing: skipping went on to the next
    // result at depth 0).
    files.push(b"[Event \"a\"]\n\n1. e4 (1. d4 (1. c4 * {after}\n\n1. d4 d5 (2. c4 1-0) *\n1. e4 *".to_vec());
    // A comment on the result's line that breaks the game (a NUL) takes no more than the rest of
    // that line's comments with it (found by fuzzing: reading skipped the next game).
    let nul = b"1. d4 d5 1/2-1/2 {a \0 b} {c}\n{d} 1. f4 * ; e\0\n{f} 1. g4 *\n1. h4 *";
    let games: Vec<_> = PgnReader::from_bytes(&nul[..]).collect();
    let moves: Vec<_> = games
        .iter()
        .map(|g| g.as_ref().map(|r| r.to_pgn().lines().last().unwrap().to_string()).map_err(|e| e.to_string()))
        .collect();
    assert!(matches!(&games[0], Err(e) if matches!(e.kind, PgnErrorKind::NulByte)), "{moves:?}");
    assert!(matches!(&games[1], Err(e) if matches!(e.kind, PgnErrorKind::NulByte)), "{moves:?}");
    assert_eq!(moves[2..], [Ok("{ f } 1. g4 *".to_string()), Ok("1. h4 *".to_string())]);
    files.push(nul.to_vec());
    // A `;` comment on the result's line ends it, read or skipped (found by fuzzing: skipping
    // went on to the next line's comments); the comment on the next line is the next game's.
    let remark = b"1. e4 *;after\n{next} 1. d4 *; x\n\n1. c4 * ;y";
    let games: Vec<_> = PgnReader::from_bytes(&remark[..]).map(|g| g.unwrap().to_pgn()).collect();
    assert!(games[1].contains("{ next } 1. d4"), "{games:?}");
    files.push(remark.to_vec());
    for bytes in files.iter().chain([&files.concat()]) {
        let mut skipping = PgnReader::from_bytes(&bytes[..]);
        let mut reading = PgnReader::from_bytes(&bytes[..]);
        let mut compared = 0;
        loop {
            let skipped = skipping.skip_game();
            let read = reading.next_game();
            assert_eq!(matches!(skipped, Ok(true) | Err(_)), matches!(read, Ok(Some(_)) | Err(_)));
            // A broken game's rest is skipped as the next one is read.
            if let (Ok(skipped), Ok(read)) = (skipped, read) {
                assert_eq!(
                    (skipping.bytes_read(), skipping.location(), skipping.games_read()),
                    (reading.bytes_read(), reading.location(), reading.games_read())
                );
                compared += 1;
                if !skipped || read.is_none() {
                    break;
                }
            }
        }
        assert!(compared > 1);
    }
}

/// `count` games, the first holding `body` after `1. e4`, each one followed by a good game.
fn around(body: &str) -> String {
    format!("[Event \"Big\"]\n\n1. e4 {body} *\n\n[Event \"After\"]\n\n1. d4 *\n")
}

fn events(results: &[Result<Game, PgnError>]) -> Vec<String> {
    results
        .iter()
        .map(|r| match r {
            Ok(g) => g.tag("Event").unwrap_or("").to_string(),
            Err(e) => format!("{:?}", e.kind),
        })
        .collect()
}

/// Writes `text` to a temporary file and reads it back through the file reader.
fn read_file(text: &[u8], options: ReaderOptions) -> Vec<Result<Game, PgnError>> {
    let path = std::env::temp_dir().join(format!("chesscore-pgn-test-{}-{}.pgn", std::process::id(), text.len()));
    std::fs::write(&path, text).unwrap();
    let results = PgnReader::open(&path).unwrap().with_options(options).collect();
    std::fs::remove_file(path).unwrap();
    results
}

/// Quiet knight moves that give no check, so that lines can go on for ever.
fn knight_moves(pos: &Position) -> Vec<Move> {
    let quiet = |m: &Move| {
        pos.kind_at(m.from()) == Some(chesscore_core::PieceKind::Knight)
            && pos.kind_at(m.to()).is_none()
            && !pos.make_move(*m).in_check()
    };
    pos.legal_moves().iter().copied().filter(quiet).collect()
}

#[test]
fn deep_variations_do_not_recurse() {
    let depth = 100_000;
    // Each variation replaces the last move of the one around it and adds a move, so the tree
    // is as deep as the parentheses: `Nf3 Nf6 ( Nc6 Nc3 ( Na3 Nb8 ( ...`.
    let mut body = String::new();
    let mut pos = Position::startpos();
    let first = knight_moves(&pos)[0];
    let san = |pos: &Position, mv| San::from_move(pos, mv).unwrap();
    body.push_str(&format!("{} ", san(&pos, first)));
    pos.play(first).unwrap();
    for _ in 0..depth {
        let moves = knight_moves(&pos);
        let (played, instead) = (moves[0], moves[1]);
        body.push_str(&format!("{} ( {} ", san(&pos, played), san(&pos, instead)));
        pos.play(instead).unwrap();
    }
    let last = knight_moves(&pos)[0];
    body.push_str(&format!("{} ", san(&pos, last)));
    body.push_str(&") ".repeat(depth));
    let text = format!("[Event \"Big\"]\n\n1. {body}*\n\n[Event \"After\"]\n\n1. d4 *\n");
    let results = read_file(text.as_bytes(), ReaderOptions::default());
    assert_eq!(events(&results), ["TooDeep { limit: 10000 }", "After"]);

    let options = ReaderOptions { max_depth: depth, ..ReaderOptions::default() };
    let results = read_file(text.as_bytes(), options);
    assert_eq!(events(&results), ["Big", "After"]);
    let record = results[0].as_ref().unwrap();
    assert_eq!(record.tree().move_count(), 2 * depth + 2);
    assert_eq!(record.moves().len(), 2);
    let mut deepest = chesscore_core::pgn::NodeId::ROOT;
    while let Some(next) = record.tree().children(deepest).last() {
        deepest = next;
    }
    assert_eq!(record.tree().ply(deepest), depth as u32 + 2);
    assert_eq!(record.node_position(deepest), pos.make_move(last));
    // Writing and reading back hold the whole depth, again without recursion.
    let written = record.to_pgn();
    let back = PgnReader::from_bytes(written.as_bytes()).with_options(options).next_game().unwrap().unwrap();
    assert_eq!(back.tree().move_count(), 2 * depth + 2);
    assert_eq!(back.to_pgn(), written);

    // As many alternatives to one move, each nested in the one before.
    let text = around(&format!("{}{}", "( 1. d4 ".repeat(depth), ") ".repeat(depth)));
    let results = read_file(text.as_bytes(), options);
    assert_eq!(events(&results), ["Big", "After"]);
    assert_eq!(results[0].as_ref().unwrap().tree().children(chesscore_core::pgn::NodeId::ROOT).count(), depth + 1);

    // Parentheses alone: a variation needs a move to replace.
    let text = around(&format!("{}{}", "(".repeat(depth), ")".repeat(depth)));
    let results = read_file(text.as_bytes(), ReaderOptions::default());
    assert_eq!(events(&results), ["VariationWithoutMove", "After"]);
}

#[test]
fn huge_comment_is_refused_then_skipped() {
    let text = around(&format!("{{{}}}", "x".repeat(3 << 20)));
    let results = read_file(text.as_bytes(), ReaderOptions::default());
    assert_eq!(events(&results), ["CommentTooLong { limit: 1048576 }", "After"]);
    let options = ReaderOptions { max_comment_len: 4 << 20, ..ReaderOptions::default() };
    let results = read_file(text.as_bytes(), options);
    assert_eq!(events(&results), ["Big", "After"]);
    let record = results[0].as_ref().unwrap();
    let e4 = record.tree().mainline().next().unwrap();
    assert_eq!(record.tree().comments(e4).next().unwrap().len(), 3 << 20);
    // The same with `;`, and a comment that is never closed.
    let text = around(&format!("; {}\n", "y".repeat(3 << 20)));
    assert_eq!(
        events(&read_file(text.as_bytes(), ReaderOptions::default())),
        ["CommentTooLong { limit: 1048576 }", "After"]
    );
    let text = around(&format!("{{ {}", "z ".repeat(50_000)));
    assert_eq!(events(&read_file(text.as_bytes(), ReaderOptions::default())), ["UnterminatedComment", "After"]);
}

#[test]
fn very_long_lines() {
    // A game of 200,000 plies on one line of about 2 MB.
    let body = "Nf6 Ng1 Ng8 Nf3 ".repeat(50_000);
    let text = format!("[Event \"Big\"]\n\n1. Nf3 {body}Nf6 *\n\n[Event \"After\"]\n\n1. d4 *\n");
    let results = read_file(text.as_bytes(), ReaderOptions::default());
    assert_eq!(events(&results), ["Big", "After"]);
    assert_eq!(results[0].as_ref().unwrap().moves().len(), 200_002);
    // A token of 10 MB, and a tag line of 10 MB, without a line end.
    let text = around(&"a".repeat(10 << 20));
    assert_eq!(events(&read_file(text.as_bytes(), ReaderOptions::default())), ["TokenTooLong { limit: 255 }", "After"]);
    let text = format!("[Event \"{}\"]\n\n1. e4 *\n\n[Event \"After\"]\n\n1. d4 *\n", "b".repeat(10 << 20));
    assert_eq!(events(&read_file(text.as_bytes(), ReaderOptions::default())), ["TagTooLong { limit: 65536 }", "After"]);
}

/// `head`, then `len` copies of `fill` without a line end, then `tail`, made up as it is read.
struct Generated {
    parts: [(Vec<u8>, u64); 3],
    part: usize,
    at: u64,
}

impl Generated {
    fn new(head: &str, fill: u8, len: u64, tail: &str) -> Generated {
        let parts = [(head.into(), 1), (vec![fill; 1 << 16], len >> 16), (tail.into(), 1)];
        Generated { parts, part: 0, at: 0 }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.part < 3 {
            let (chunk, times) = &self.parts[self.part];
            let total = chunk.len() as u64 * times;
            if self.at < total {
                let offset = (self.at % chunk.len() as u64) as usize;
                let n = (chunk.len() - offset).min(buf.len());
                buf[..n].copy_from_slice(&chunk[offset..offset + n]);
                self.at += n as u64;
                return Ok(n);
            }
            self.part += 1;
            self.at = 0;
        }
        Ok(0)
    }
}

/// Peak resident memory of this process, in KiB (Linux).
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn gigabyte_lines_in_bounded_memory() {
    const GIB: u64 = 1 << 30;
    let before = peak_rss_kib();
    let after = "\n\n[Event \"After\"]\n\n1. d4 *\n";
    // One token, one comment and one tag value of 1 GiB each, no line end anywhere: each is
    // refused at its limit, the rest of its game skipped, and the next game read.
    let cases = [
        ("[Event \"Big\"]\n\n1. e4 ", b'a', " *", "TokenTooLong { limit: 255 }"),
        ("[Event \"Big\"]\n\n1. e4 {", b'c', "} *", "CommentTooLong { limit: 1048576 }"),
        ("[Event \"", b't', "\"]\n\n1. e4 *", "TagTooLong { limit: 65536 }"),
    ];
    for (head, fill, end, error) in cases {
        let input = Generated::new(head, fill, GIB, &format!("{end}{after}"));
        let mut reader = PgnReader::new(input);
        let results: Vec<_> = reader.by_ref().collect();
        assert_eq!(events(&results), [error, "After"]);
        assert!(reader.bytes_read() > GIB);
    }
    // Well under the input: the buffers stay near their limits (the test binary's other tests
    // run meanwhile and take their share).
    let grown = peak_rss_kib().saturating_sub(before);
    assert!(grown < 256 << 10, "peak memory grew by {grown} KiB");
}

#[test]
fn io_errors_stop_the_reader() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            let text = b"1. e4 e5 *\n\n";
            let n = text.len().min(buf.len());
            buf[..n].copy_from_slice(&text[..n]);
            self.0 -= 1;
            Ok(n)
        }
    }
    // The game read before the error comes first, then the error, then the end, for good.
    let mut reader = PgnReader::new(Failing(1));
    assert_eq!(reader.next_game().unwrap().unwrap().moves().len(), 2);
    let error = reader.next_game().unwrap_err();
    assert!(matches!(error.kind, PgnErrorKind::Io { .. }), "{error}");
    assert_eq!(error.to_string(), "game 2, line 3, column 1: read error: disk on fire");
    for _ in 0..3 {
        assert!(reader.next_game().unwrap().is_none());
    }
}

#[test]
fn open_missing_file() {
    assert!(PgnReader::open(Path::new("/nonexistent/games.pgn")).is_err());
}

/// Reads tags only, keeping each game's result token.
struct TagsOnly;

impl Visitor for TagsOnly {
    type Output = Option<Outcome>;

    fn end_tags(&mut self) -> Flow {
        Flow::Skip
    }

    fn end_game(&mut self, result: Option<Outcome>) -> Option<Outcome> {
        result
    }
}

#[test]
fn skipping_movetext_finds_the_same_games() {
    for path in all_files().into_iter().filter(|p| !p.ends_with("broken.pgn")) {
        let bytes = std::fs::read(&path).unwrap();
        let full: Vec<Option<Outcome>> = read_all(&bytes)
            .iter()
            .map(|r| r.as_ref().map_or_else(|e| e.partial.as_ref().unwrap().result(), |g| g.result()))
            .collect();
        for n in [1, 4096] {
            let mut reader = PgnReader::new(Chunks { bytes: &bytes, n });
            let mut skipped = Vec::new();
            while let Some(result) = reader.read_game(&mut TagsOnly).unwrap() {
                skipped.push(result);
            }
            // A broken game's result is not read, so compare where the full read has one.
            assert_eq!(skipped.len(), full.len(), "{}", path.display());
            for (i, (a, b)) in skipped.iter().zip(&full).enumerate() {
                assert!(b.is_none() || a == b, "{} game {}", path.display(), i + 1);
            }
        }
    }
}

#[test]
fn comments_after_the_result_belong_to_the_game_however_it_is_read() {
    // A comment on the result's line, after a whole game, a game skipped and a broken one.
    let pgn = "[Event \"a\"]\n\n1. e4 e5 1-0 {after a} ; and more\n\n\
               [Event \"b\"]\n\n1. d4 Kd7 2. c4 0-1 { after b }\n\n[Event \"c\"]\n\n1. c4 *\n";
    let whole: Vec<_> = PgnReader::from_bytes(pgn).collect();
    assert_eq!(events(&whole), ["a", "Move(Illegal)", "c"]);
    let a = whole[0].as_ref().unwrap();
    let end = a.tree().mainline().last().unwrap();
    assert_eq!(a.tree().comments(end).collect::<Vec<_>>(), ["after a", "and more"]);
    let options = ReaderOptions { headers_only: true, ..ReaderOptions::default() };
    let headers: Vec<_> = PgnReader::from_bytes(pgn).with_options(options).collect();
    assert_eq!(events(&headers), ["a", "b", "c"]);
    let mut reader = PgnReader::from_bytes(pgn);
    assert!(reader.skip_game().unwrap());
    assert_eq!(reader.next_game().unwrap_err().game, 2);
    assert_eq!(reader.next_game().unwrap().unwrap().tag("Event"), Some("c"));
    assert!(!reader.skip_game().unwrap());
}

/// A game as [`reading`] tells it: its main line as UCI, its result token and its NAGs in
/// order.
type Reading = (String, Option<Outcome>, Vec<u8>);

/// Each game of `pgn` as [`Reading`] tells it, or the error.
fn reading(pgn: &[u8], strict: bool) -> Vec<Result<Reading, PgnErrorKind>> {
    let options = ReaderOptions { strict, ..ReaderOptions::default() };
    PgnReader::from_bytes(pgn)
        .with_options(options)
        .map(|game| {
            let game = game.map_err(|e| e.kind)?;
            let tree = game.tree();
            let line = &game;
            let uci: Vec<String> = line
                .moves()
                .enumerate()
                .map(|(ply, mv)| Uci::from_move(line.position_at(ply).unwrap(), mv).to_string())
                .collect();
            let nags = tree.mainline().flat_map(|node| tree.nags(node)).collect();
            Ok((uci.join(" "), game.result(), nags))
        })
        .collect()
}

/// What real files hold, read by default; strict reading refuses what the PGN standard does
/// not allow, saying what it found, and reads what it does allow the same way.
#[test]
fn real_world_syntax_read_leniently_refused_strictly() {
    let ok = |uci: &str, result: Option<Outcome>, nags: &[u8]| Ok((uci.to_string(), result, nags.to_vec()));
    let castles = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 d2d3 e8g8";
    let mate = "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7";
    let standard: &[(&str, Vec<_>)] = &[
        // Periods are tokens; a move number takes any number of them, spaced or not.
        ("1. e4 e5 2 . Nf3 Nc6 3 ... Bb5 *", vec![ok("e2e4 e7e5 g1f3 b8c6 f1b5", Some(Outcome::Ongoing), &[])]),
        (
            "1.     e4     ...     e5 2.Nf3 . Nc6 3 .a3 ...a6 *",
            vec![ok("e2e4 e7e5 g1f3 b8c6 a2a3 a7a6", Some(Outcome::Ongoing), &[])],
        ),
        // `*` is a token too, glued to a move or not.
        (
            "1. e4 Nc6*\n\n1. d4 *",
            vec![ok("e2e4 b8c6", Some(Outcome::Ongoing), &[]), ok("d2d4", Some(Outcome::Ongoing), &[])],
        ),
        // Long algebraic.
        (
            "1. e2-e4 d7-d5 2. e4d5 Qd8xd5 3. Nb1-c3 *",
            vec![ok("e2e4 d7d5 e4d5 d8d5 b1c3", Some(Outcome::Ongoing), &[])],
        ),
        // Evaluation symbols standing alone are NAGs.
        (
            "1. e4 += e5 = 2. Nf3 +- Nc6 -+ 3. Bb5 =+ a6 \u{221e} 4. Ba4 =/\u{221e} +/= *",
            vec![ok("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4", Some(Outcome::Ongoing), &[14, 10, 18, 19, 15, 13, 44, 14])],
        ),
    ];
    for (pgn, want) in standard {
        assert_eq!(&reading(pgn.as_bytes(), false), want, "{pgn}");
        assert_eq!(&reading(pgn.as_bytes(), true), want, "strict: {pgn}");
    }
    let non_standard: &[(&str, Vec<_>, &str)] = &[
        (
            "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\"]\n\n2. exd6e.p. Kd7 *\n\n[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\"]\n\n2. exd6 e.p. Kd7 *",
            vec![ok("e5d6 e8d7", Some(Outcome::Ongoing), &[]), ok("e5d6 e8d7", Some(Outcome::Ongoing), &[])],
            "en passant mark e.p. or ep",
        ),
        (
            "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\"]\n\n2. exd6ep+ *",
            vec![ok("e5d6", Some(Outcome::Ongoing), &[])],
            "en passant mark e.p. or ep",
        ),
        (
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7++ 1-0",
            vec![ok(mate, Some(Outcome::WhiteWins), &[])],
            "check sign ++",
        ),
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O\u{2011}O Nf6 5. d3 0\u{2013}0\u{2020} *",
            vec![ok(castles, Some(Outcome::Ongoing), &[])],
            "Unicode dash or dagger in a move",
        ),
        ("1. e4 e5 \u{bd}-\u{bd}", vec![ok("e2e4 e7e5", Some(Outcome::Draw), &[])], "result not written 1-0, 0-1, 1/2-1/2 or *"),
        (
            "1. e4 1/2\u{2013}1/2\n\n1. d4 1\u{2013}0\n\n1. c4 0\u{2013}1",
            vec![
                ok("e2e4", Some(Outcome::Draw), &[]),
                ok("d2d4", Some(Outcome::WhiteWins), &[]),
                ok("c2c4", Some(Outcome::BlackWins), &[]),
            ],
            "result not written 1-0, 0-1, 1/2-1/2 or *",
        ),
    ];
    for (pgn, want, what) in non_standard {
        assert_eq!(&reading(pgn.as_bytes(), false), want, "{pgn}");
        // Skipped unread, the movetext still ends at its result.
        let headers_only = ReaderOptions { headers_only: true, ..ReaderOptions::default() };
        let results: Vec<_> =
            PgnReader::from_bytes(pgn).with_options(headers_only).map(|g| g.unwrap().result()).collect();
        assert_eq!(results, want.iter().map(|game| game.as_ref().unwrap().1).collect::<Vec<_>>(), "{pgn}");
        let strict = reading(pgn.as_bytes(), true);
        assert_eq!(strict[0], Err(PgnErrorKind::NonStandard { what }), "strict: {pgn}");
    }
    let message = PgnReader::from_bytes("1. e4 e5 \u{bd}-\u{bd}")
        .with_options(ReaderOptions { strict: true, ..ReaderOptions::default() })
        .next_game()
        .unwrap_err()
        .to_string();
    assert_eq!(message, "game 1, line 1, column 10: not standard PGN: result not written 1-0, 0-1, 1/2-1/2 or * \"\u{bd}-\u{bd}\" at ply 3");
}

/// A tag section, a blank line and another tag section beginning again with a tag already
/// read are two games, the first without moves; its start position does not carry into the
/// next game. A missing `Result` tag is the termination marker's.
#[test]
fn tag_sections_apart_are_games_apart() {
    let pgn = "[Event \"Tags only\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n\n\
               [Event \"Next\"] [Site \"here\"]\n[Round \"1\"]\n\n1. e4 e5 1-0\n";
    let games: Vec<Game> = PgnReader::from_bytes(pgn).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("Tags only"));
    assert_eq!(games[0].moves().len(), 0);
    assert_eq!(games[0].start().to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(games[0].result(), None);
    assert_eq!(games[1].tags().iter().map(|(name, _)| name).collect::<Vec<_>>(), ["Event", "Site", "Round", "Result"]);
    assert_eq!(games[1].start(), &Position::startpos());
    assert_eq!(games[1].moves().len(), 2);
    assert_eq!(games[1].tag("Result"), Some("1-0"));
    assert_eq!(games[1].result(), Some(Outcome::WhiteWins));
    assert!(games[1].to_pgn().contains("[Result \"1-0\"]\n"));
    // A `%` escape line is no blank line: the section goes on past it, unless a blank follows.
    let pgn = "[Event \"One\"]\n% remark\n[Site \"here\"]\n\n1. e4 *\n\n[Event \"Two\"]\n%\n\n[Event \"Three\"]\n\n*\n";
    let games: Vec<Game> = PgnReader::from_bytes(pgn).map(Result::unwrap).collect();
    let events: Vec<_> = games.iter().map(|game| (game.tag("Event"), game.tag("Site"))).collect();
    assert_eq!(events, [(Some("One"), Some("here")), (Some("Two"), None), (Some("Three"), None)]);
}

/// ChessBase writes a blank line inside the tag section of one game: after a blank line, a tag
/// pair whose name the game has not had yet continues its tags (python-chess reads such files
/// the same way), while a repeated name (`Event`, as in exports of games without moves) starts
/// the next game.
#[test]
fn a_blank_line_inside_a_tag_section_continues_it_unless_a_tag_repeats() {
    let pgn = "[Event \"ChessBase\"]\n\n[Site \"Hamburg\"]\n[White \"A\"]\n\n[Black \"B\"]\n\n1. e4 e5 1/2-1/2\n\n\
               [Event \"Round 1\"]\n[Site \"s\"]\n\n[Event \"Round 2\"]\n[Site \"s\"]\n\n\
               [Event \"Round 3\"]\n\n[Site \"t\"]\n\n[Event \"Round 4\"]\n[Event \"Twice\"]\n\n1. d4 *\n";
    let games: Vec<Game> = PgnReader::from_bytes(pgn).map(Result::unwrap).collect();
    let read: Vec<(Option<&str>, Option<&str>, usize)> =
        games.iter().map(|g| (g.tag("Event"), g.tag("Site"), g.moves().len())).collect();
    assert_eq!(
        read,
        [
            (Some("ChessBase"), Some("Hamburg"), 2),
            (Some("Round 1"), Some("s"), 0),
            (Some("Round 2"), Some("s"), 0),
            (Some("Round 3"), Some("t"), 0),
            (Some("Twice"), None, 1),
        ]
    );
    assert_eq!((games[0].tag("White"), games[0].tag("Black")), (Some("A"), Some("B")));
    // Headers only, the games are the same.
    let headers_only = ReaderOptions { headers_only: true, ..ReaderOptions::default() };
    let events: Vec<Option<String>> = PgnReader::from_bytes(pgn)
        .with_options(headers_only)
        .map(|g| g.unwrap().tag("Event").map(str::to_string))
        .collect();
    assert_eq!(events, read.iter().map(|(event, _, _)| event.map(str::to_string)).collect::<Vec<_>>());
}

/// Lenient reading cuts a variation at a move that cannot be played there, keeps the game and
/// its main line, and warns once; strict reading refuses the game.
#[test]
fn a_bad_move_in_a_variation_cuts_the_variation_not_the_game() {
    let pgn = "[Event \"Cut\"]\n\n1. d4 (1. e4 e5 2. Qxh7 (2. Nf3) Nc6 {skipped}) (1. c4 Zz9) 1... d5 {kept}\n\
               (1... Nf6 2. c4 (2. Bxh8) e6) 2. c4 0-1\n\n[Event \"Next\"]\n\n1. e4 *\n";
    let games: Vec<Game> = PgnReader::from_bytes(pgn).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    let game = &games[0];
    assert_eq!(game.moves().count(), 3);
    assert_eq!(game.warnings().len(), 1);
    let warning = game.warnings()[0];
    assert_eq!((warning.kind, warning.location.line, warning.location.column), (PgnWarningKind::VariationCut, 3, 20));
    assert_eq!(game.tag("Result"), Some("0-1"));
    let written = game.to_pgn();
    assert!(
        written.ends_with("\n\n1. d4 ( 1. e4 e5 ) ( 1. c4 ) 1... d5 { kept } ( 1... Nf6 2. c4 e6 ) 2. c4 0-1\n"),
        "{written}"
    );
    // The written game reads back as it is, without a warning.
    let again = PgnReader::from_bytes(written.as_str()).next_game().unwrap().unwrap();
    assert!(again.warnings().is_empty() && again.to_pgn() == written);
    // Strict reading refuses it, and reads on.
    let strict = ReaderOptions { strict: true, ..ReaderOptions::default() };
    let mut reader = PgnReader::from_bytes(pgn).with_options(strict);
    assert!(matches!(reader.next_game().unwrap_err().kind, PgnErrorKind::Move(_)));
    assert!(reader.next_game().is_ok());
    // A bad move in the main line still breaks the game.
    assert!(PgnReader::from_bytes("1. e4 (1. d4) Qxh7 *").next_game().is_err());
}

/// Text that is not UTF-8 is decoded as Windows-1252, with one warning per game, which a
/// visitor hears of; strict reading refuses the game.
#[test]
fn windows_1252_text_is_decoded_with_a_warning() {
    let pgn = b"[White \"M\xfcller\"]\n[Black \"Ok\"]\n\n1. e4 {caf\xe9 \x80 \x93quoted\x94} e5 {\xb1} *\n\n\
                [White \"Clean\"]\n\n1. d4 { fine } 1/2-1/2 ; \xbd\n";
    let games: Vec<Game> = PgnReader::from_bytes(&pgn[..]).map(Result::unwrap).collect();
    assert_eq!(games[0].tag("White"), Some("M\u{fc}ller"));
    let tree = games[0].tree();
    let comments: Vec<&str> = tree.mainline().flat_map(|node| tree.comments(node)).collect();
    assert_eq!(comments, ["caf\u{e9} \u{20ac} \u{201c}quoted\u{201d}", "\u{b1}"]);
    assert_eq!(games[0].warnings().len(), 1);
    let warning = games[0].warnings()[0];
    assert_eq!((warning.kind, warning.location.line, warning.location.column), (PgnWarningKind::Windows1252, 1, 1));
    assert_eq!(warning.to_string(), "line 1, column 1: text that is not UTF-8 read as Windows-1252");
    // The comment after the result, on the second game's own.
    assert_eq!(games[1].warnings().len(), 1);
    assert_eq!(games[1].warnings()[0].location.line, 8);
    assert_eq!(games[1].tree().comments(games[1].tree().mainline().last().unwrap()).last(), Some("\u{bd}"));

    // The warnings of each game, numbered by the visitor.
    struct Warnings(Vec<(u64, PgnWarningKind)>, u64);
    impl Visitor for Warnings {
        type Output = ();
        fn begin_game(&mut self) {
            self.1 += 1;
        }
        fn warning(&mut self, warning: PgnWarning) {
            self.0.push((self.1, warning.kind));
        }
        fn end_game(&mut self, _: Option<Outcome>) {}
    }
    let mut visitor = Warnings(Vec::new(), 0);
    let mut reader = PgnReader::from_bytes(&pgn[..]);
    while reader.read_game(&mut visitor).unwrap().is_some() {}
    assert_eq!(visitor.0, [(1, PgnWarningKind::Windows1252), (2, PgnWarningKind::Windows1252)]);

    let strict = ReaderOptions { strict: true, ..ReaderOptions::default() };
    let errors: Vec<_> = PgnReader::from_bytes(&pgn[..]).with_options(strict).map(|g| g.unwrap_err().kind).collect();
    assert_eq!(errors, [PgnErrorKind::InvalidUtf8, PgnErrorKind::InvalidUtf8]);
    // A clean game has no warning.
    assert!(PgnReader::from_bytes("1. e4 {caf\u{e9}} *").next_game().unwrap().unwrap().warnings().is_empty());
}

/// Lichess and engine commands in comments read as values per move, the rest of the text
/// kept, and written back in the same form.
#[test]
fn comment_commands_are_typed_and_written_back() {
    use chesscore_core::pgn::{Annotations, Arrow, Eval, Highlight, MarkColor, Score};
    use chesscore_core::Square;
    let pgn = "[Event \"Rated\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval #-4,22] [%clk 0:02:59.5] } \
               2. Nf3 { [%csl Ga4,Rb5][%cal Ge2e4] Good [%emt 0:00:05] } { [%clk 0:02:58] } 2... Nc6 { plain } *\n";
    let record = PgnReader::from_bytes(pgn).next_game().unwrap().unwrap();
    let tree = record.tree();
    let nodes: Vec<_> = tree.mainline().collect();
    let sq = |name: &str| name.parse::<Square>().unwrap();
    assert_eq!(
        tree.annotations(nodes[0]),
        Annotations {
            clock: Some(180.0),
            eval: Some(Eval { score: Score::Centipawns(17), depth: None }),
            ..Annotations::default()
        }
    );
    let black = tree.annotations(nodes[1]);
    assert_eq!((black.clock, black.eval), (Some(179.5), Some(Eval { score: Score::Mate(-4), depth: Some(22) })));
    let third = tree.annotations(nodes[2]);
    assert_eq!((third.clock, third.elapsed), (Some(178.0), Some(5.0)));
    assert_eq!(
        third.highlights,
        [
            Highlight { color: MarkColor::Green, square: sq("a4") },
            Highlight { color: MarkColor::Red, square: sq("b5") }
        ]
    );
    assert_eq!(third.arrows, [Arrow { color: MarkColor::Green, from: sq("e2"), to: sq("e4") }]);
    assert_eq!(tree.comment_text(nodes[2]), "Good");
    assert!(tree.annotations(nodes[3]).is_empty());
    assert_eq!(tree.comment_text(nodes[3]), "plain");

    // Written as read; set again from their values, the lichess form comes back.
    let written = record.to_pgn();
    let back = PgnReader::from_bytes(&written).next_game().unwrap().unwrap();
    assert_eq!(back.to_pgn(), written);
    let mut rebuilt = record.clone();
    for &node in &nodes[..2] {
        let annotations = rebuilt.tree().annotations(node);
        rebuilt.tree_mut().set_annotations(node, &annotations);
    }
    assert_eq!(rebuilt.to_pgn(), written);
    // Changed values replace the commands; the text stays, and the comments become one.
    let changed = Annotations { clock: Some(3723.25), ..third };
    rebuilt.tree_mut().set_annotations(nodes[2], &changed);
    assert_eq!(
        rebuilt.tree().comments(nodes[2]).collect::<Vec<_>>(),
        ["Good [%clk 1:02:03.25] [%emt 0:00:05] [%csl Ga4,Rb5][%cal Ge2e4]"]
    );
    rebuilt.tree_mut().set_annotations(nodes[2], &Annotations::default());
    assert_eq!(rebuilt.tree().comments(nodes[2]).collect::<Vec<_>>(), ["Good"]);
    rebuilt.tree_mut().set_annotations(nodes[0], &Annotations::default());
    assert_eq!(rebuilt.tree().comments(nodes[0]).count(), 0);
}

/// Every game of the lichess-style test files: each move's commands (in one comment), set again
/// from the values read, give back the same PGN; and the PGN written reads back to the same
/// values.
#[test]
fn lichess_files_round_trip_with_their_annotations() {
    let Some(shared) = common::shared_testdata("pgn: lichess annotations round trip") else { return };
    let (mut commands, mut games) = (0, 0);
    for name in ["lichess_db_100k.pgn", "dev_generated.pgn"] {
        for record in PgnReader::open(shared.join("pgn").join(name)).unwrap().flatten() {
            let written = record.to_pgn();
            let back = PgnReader::from_bytes(&written).next_game().unwrap().unwrap();
            let mut rebuilt = record.clone();
            let nodes: Vec<_> = record.tree().mainline().collect();
            for (&node, back_node) in nodes.iter().zip(back.tree().mainline()) {
                let annotations = record.tree().annotations(node);
                assert_eq!(back.tree().annotations(back_node), annotations);
                // (`set_annotations` makes the comments of a move one.)
                if !annotations.is_empty() && record.tree().comments(node).count() == 1 {
                    commands += 1;
                    rebuilt.tree_mut().set_annotations(node, &annotations);
                }
            }
            assert_eq!(rebuilt.to_pgn(), written, "{name}: {:?}", record.tag("Site"));
            games += 1;
        }
    }
    assert!(games > 50 && commands > 2500, "{games} games, {commands} moves with commands");
}

#[test]
fn san_of_record_moves_is_as_written_or_made_for_moves_added() {
    let pgn = "1. e2-e4 (1. d4 d5) 1... e5 2. Ng1f3 *\n";
    let mut record = PgnReader::from_bytes(pgn).next_game().unwrap().unwrap();
    record.push_san("Nc6").unwrap();
    record.push(Move::NULL).unwrap();
    let sans: Vec<String> = record.mainline_san().map(|san| san.as_str().to_owned()).collect();
    assert_eq!(sans, ["e2-e4", "e5", "Ng1f3", "Nc6", "--"]);
    assert!(matches!(record.mainline_san().next(), Some(NodeSan::Written("e2-e4"))));
    // Any node: the variation's moves as written, a move added to it made, none for the root.
    let tree = record.tree();
    let root = tree.root();
    let d4 = tree.children(tree.root()).nth(1).unwrap();
    let d5 = tree.main_child(d4).unwrap();
    let c5 = "c5".parse::<San>().unwrap().to_move(&record.node_position(d4)).unwrap();
    let added = record.add_variation(d5, &[c5]).unwrap();
    let san = |node| record.try_san(node).unwrap().map(|san| san.as_str().to_owned());
    assert_eq!((san(d4), san(d5), san(added)), (Some("d4".into()), Some("d5".into()), Some("c5".into())));
    assert!(matches!(record.try_san(added).unwrap(), Some(NodeSan::Made(_))));
    assert_eq!(san(root), None);
}

/// The export of each game read whole, and the kind of each broken one: what a piece read
/// apart must give (error messages count lines from the piece's start).
fn games_of(bytes: &[u8]) -> Vec<String> {
    read_all(bytes)
        .iter()
        .map(|r| match r {
            Ok(record) => record.to_pgn(),
            Err(e) => format!("error: {:?}", std::mem::discriminant(&e.kind)),
        })
        .collect()
}

#[test]
fn pieces_cut_at_split_points_hold_every_game_once() {
    for path in all_files() {
        let bytes = std::fs::read(&path).unwrap();
        let whole = games_of(&bytes);
        for parts in [1, 2, 3, 7, 64, 100_000] {
            let cuts = split_points(&bytes[..], bytes.len() as u64, parts).unwrap();
            assert_eq!(cuts[0], 0);
            assert!(cuts.len() <= parts && cuts.windows(2).all(|w| w[0] < w[1]), "{path:?} {parts}: {cuts:?}");
            let ends = cuts.iter().skip(1).map(|&c| c as usize).chain([bytes.len()]);
            let mut pieces = Vec::new();
            for (&start, end) in cuts.iter().zip(ends) {
                let piece = games_of(&bytes[start as usize..end]);
                assert!(!piece.is_empty(), "{path:?} {parts}: an empty piece at {start}");
                pieces.extend(piece);
            }
            assert_eq!(pieces, whole, "{path:?} in {parts} pieces");
        }
        // About equal pieces when the games are small next to them.
        if whole.len() >= 40 {
            let cuts = split_points(&bytes[..], bytes.len() as u64, 4).unwrap();
            assert_eq!(cuts.len(), 4, "{path:?}");
            let sizes: Vec<u64> = cuts.windows(2).map(|w| w[1] - w[0]).collect();
            assert!(sizes.iter().all(|&s| s.abs_diff(bytes.len() as u64 / 4) < bytes.len() as u64 / 8), "{sizes:?}");
        }
    }
    assert_eq!(split_points(&b""[..], 0, 4).unwrap(), [0]);
}

/// Every PGN the writer gives reads back: control characters in tag values and comments (an
/// engine's `id name` with NUL or ESC, a name pasted with a tab) are written as spaces, line
/// ends in tag values as spaces too, and the games read back, leniently and strictly.
#[test]
fn control_characters_are_written_so_that_the_game_reads_back() {
    let controls: String = (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32).collect();
    let text = format!("a{controls}\u{2028}\u{2029}\u{feff}\"\\z");
    let mut record = Game::new(Position::startpos());
    record.push("e2e4".parse::<Uci>().unwrap().to_move(&Position::startpos()).unwrap()).unwrap();
    record.set_tag("White", &text).unwrap();
    record.set_tag("Black", "\0").unwrap();
    let tree = record.tree_mut();
    let node = tree.node_id(1).unwrap();
    tree.add_comment(node, &text);
    let pgn = record.to_pgn();
    let spaced = |keep_newline: bool| {
        text.chars().map(|c| if c.is_control() && !(keep_newline && c == '\n') { ' ' } else { c }).collect::<String>()
    };
    for strict in [false, true] {
        let options = ReaderOptions { strict, ..ReaderOptions::default() };
        let games: Vec<_> = PgnReader::from_bytes(pgn.as_bytes()).with_options(options).collect();
        assert_eq!(games.len(), 1, "{pgn:?}");
        let game = games[0].as_ref().unwrap_or_else(|e| panic!("{e}: {pgn:?}"));
        assert_eq!(game.tag("White"), Some(spaced(false).as_str()));
        assert_eq!(game.tag("Black"), Some(" "));
        let after_e4 = game.tree().mainline().next().unwrap();
        let comments: Vec<_> = game.tree().comments(after_e4).collect();
        assert_eq!(comments.len(), 1);
        assert_eq!(comments[0].trim(), spaced(true).trim());
        assert!(game.warnings().is_empty(), "{:?}", game.warnings());
    }
    // Written again, the game is written the same: a control character at either end of a
    // comment, which the reader trims once it is a space, is not written as one.
    for comment in ["\u{1}%clk 0:01:00]", "x\u{7}", "\u{1b}\n\u{1b}", "\u{0}"] {
        let mut record = Game::new(Position::startpos());
        record.push("e2e4".parse::<Uci>().unwrap().to_move(&Position::startpos()).unwrap()).unwrap();
        let tree = record.tree_mut();
        let node = tree.node_id(1).unwrap();
        tree.add_comment(node, comment);
        let once = record.to_pgn();
        let read = PgnReader::from_bytes(once.as_bytes()).next_game().unwrap().unwrap();
        assert_eq!(read.to_pgn(), once, "{comment:?}");
    }
}

/// A huge thread count reads with at most `MAX_THREADS` threads: ten million would take minutes
/// to start (and a thread each is never needed).
#[test]
fn thread_counts_are_capped() {
    use chesscore_core::pgn::MAX_THREADS;
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let pgn = std::fs::read(data("dev_generated.pgn")).unwrap();
        let games = ParallelReader::records(io::Cursor::new(pgn), 10_000_000, ReaderOptions::default()).count();
        sender.send(games).unwrap();
    });
    let games = receiver.recv_timeout(std::time::Duration::from_secs(20)).expect("10^7 threads: no games in 20 s");
    let serial = PgnReader::open(data("dev_generated.pgn")).unwrap().count();
    assert_eq!(games, serial);
    assert!((2..=1024).contains(&MAX_THREADS));
}
