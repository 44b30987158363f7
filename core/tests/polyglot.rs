//! Polyglot books against python-chess (`tests/oracle/polyglot_oracle.py`): lookups of the
//! third-party books and of books we build equal `MemoryMappedReader.find_all`, and the books we
//! build equal, byte for byte, the building rules computed from python-chess's reading of the
//! same games. Then determinism, malformed books, move conversion, choices and merging.

use chesscore_test_support as common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chesscore_core::pgn::PgnReader;
use chesscore_core::polyglot::{
    merge, Book, BookBuilder, BookError, BookMove, BuildOptions, Choice, LookupOptions, RawEntry,
};
use chesscore_core::{Color, EnPassantMode, FenOptions, FenWriteOptions, Game, Position, Uci};
use serde_json::Value;

/// The PGN files whose games our reader reads exactly as python-chess does
/// (`pgn_expected.rs`): the generated ones, and the lichess and TWIC excerpts when present.
/// Whether `files` include the third-party games (thousands of them, where the repository's own
/// files hold a few hundred): how many entries and lookups a test can expect.
fn with_third_party_games(files: &[PathBuf]) -> bool {
    files.len() > 2
}

fn pgn_files() -> Vec<PathBuf> {
    let mut files = vec![common::data("pgn/dev_edge_cases.pgn"), common::data("pgn/dev_generated.pgn")];
    if let Some(shared) = common::shared_testdata("polyglot: the lichess and TWIC games") {
        files.extend(["lichess_db_100k.pgn", "twic1599_100k.pgn"].map(|f| shared.join("pgn").join(f)));
    }
    files
}

/// Every position of the main lines of `files` (broken games up to the problem).
fn game_positions(files: &[PathBuf]) -> Vec<Position> {
    let mut positions = Vec::new();
    for file in files {
        for game in PgnReader::open(file).unwrap() {
            let record = game.unwrap_or_else(|e| *e.partial.expect("a partial game"));
            let game = &record;
            positions.extend((0..=game.moves().len()).filter_map(|ply| game.position_at(ply).copied()));
        }
    }
    positions
}

/// The positions of the vector sets, and the line the Lasker trap book covers.
fn vector_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for (file, chess960) in [("vectors/dev.jsonl", false), ("vectors/dev960.jsonl", true)] {
        for line in common::lines(file) {
            let v: Value = serde_json::from_str(&line).unwrap();
            let fen = v["fen"].as_str().unwrap();
            let options = FenOptions { chess960, allow_impossible_check: true, ..FenOptions::default() };
            positions.push(Position::from_fen_with(fen, &options).unwrap().0);
        }
    }
    let mut game = Game::default();
    positions.push(*game.position());
    for san in "d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Ke2 fxg1=N+ Ke1 Qh4+ g3 Qe7".split(' ') {
        game.push_san(san).unwrap();
        positions.push(*game.position());
    }
    positions
}

/// A FEN that python-chess reads into the same position and key: the en passant square as
/// recorded (the key counts it when a pawn stands beside the pushed one, legal or not).
fn fen_for_python(pos: &Position) -> String {
    pos.to_fen_with(&FenWriteOptions { en_passant: EnPassantMode::AsRecorded, ..Default::default() })
}

type Entries = Vec<(String, u16, u32)>;

fn ours(book: &Book, pos: &Position, min_weight: u16) -> Entries {
    book.lookup_with(pos, LookupOptions { min_weight, exclude: &[] })
        .map(|e| (Uci::from_move(pos, e.mv).to_string(), e.weight, e.learn))
        .collect()
}

fn theirs(v: &Value) -> Entries {
    let entry =
        |e: &Value| (e[0].as_str().unwrap().to_string(), e[1].as_u64().unwrap() as u16, e[2].as_u64().unwrap() as u32);
    v.as_array().unwrap().iter().map(entry).collect()
}

/// Compares our lookups of `book_path` in every position with python-chess's; returns the
/// number of positions with entries, or None when python-chess is missing.
fn compare_lookups(book_path: &Path, positions: &[Position], suite: &str) -> Option<usize> {
    let python = common::python(suite)?;
    let book = Book::open(book_path).unwrap();
    let mut oracle = Command::new(python)
        .arg(common::root().join("tests/oracle/polyglot_oracle.py"))
        .arg("lookup")
        .arg(book_path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the python-chess oracle");
    let mut input = oracle.stdin.take().unwrap();
    let queries: String = positions
        .iter()
        .map(|pos| serde_json::json!({"fen": fen_for_python(pos), "chess960": pos.is_chess960()}).to_string() + "\n")
        .collect();
    let writer = std::thread::spawn(move || input.write_all(queries.as_bytes()));
    let answers: Vec<String> = BufReader::new(oracle.stdout.take().unwrap()).lines().map(Result::unwrap).collect();
    writer.join().unwrap().unwrap();
    assert!(oracle.wait().unwrap().success(), "the oracle failed");
    assert_eq!(answers.len(), positions.len());
    let mut found = 0;
    for (pos, answer) in positions.iter().zip(&answers) {
        let v: Value = serde_json::from_str(answer).unwrap();
        let context = format!("{} in {}", fen_for_python(pos), book_path.display());
        assert_eq!(ours(&book, pos, 1), theirs(&v["default"]), "{context}");
        assert_eq!(ours(&book, pos, 0), theirs(&v["all"]), "{context} (minimum weight 0)");
        found += usize::from(!theirs(&v["all"]).is_empty());
    }
    Some(found)
}

#[test]
fn lookups_of_the_third_party_books_equal_python_chess() {
    let Some(shared) = common::shared_testdata("polyglot: lookups of performance.bin and lasker-trap.bin") else {
        return;
    };
    let mut positions = vector_positions();
    positions.extend(game_positions(&pgn_files()));
    let suite = "polyglot: lookups against python-chess";
    let Some(found) = compare_lookups(&shared.join("polyglot/performance.bin"), &positions, suite) else { return };
    assert!(found > 500, "only {found} positions with entries");
    let lasker = compare_lookups(&shared.join("polyglot/lasker-trap.bin"), &positions, suite).unwrap();
    assert!(lasker >= 5, "{lasker}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("polyglot");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn build(files: &[PathBuf], options: BuildOptions) -> Book {
    let mut builder = BookBuilder::new(options);
    for file in files {
        builder.add_pgn(&mut PgnReader::open(file).unwrap()).unwrap();
    }
    builder.build().unwrap()
}

/// The command-line options of `options`, as the oracle (and `chesscore book make`) take them.
fn option_args(options: &BuildOptions) -> Vec<String> {
    let mut args = vec![
        format!("--max-ply={}", options.max_ply),
        format!("--min-games={}", options.min_games),
        format!("--min-score={}", options.min_score),
    ];
    args.extend(options.only.map(|side| if side == Color::White { "--only-white" } else { "--only-black" }.into()));
    args.extend(options.uniform.then(|| "--uniform".into()));
    args.extend(options.chess960.then(|| "--chess960".into()));
    args
}

fn option_sets() -> Vec<BuildOptions> {
    let default = BuildOptions::default();
    vec![
        default,
        BuildOptions { max_ply: 12, min_games: 2, ..default },
        BuildOptions { only: Some(Color::White), min_score: 50, ..default },
        BuildOptions { only: Some(Color::Black), uniform: true, max_ply: 1000, ..default },
        BuildOptions { chess960: true, max_ply: 200, min_score: 30, ..default },
    ]
}

#[test]
fn built_books_equal_the_rules_computed_from_python_chess_reading() {
    let Some(python) = common::python("polyglot: books built against the rules in python-chess") else { return };
    let files = pgn_files();
    for (i, options) in option_sets().into_iter().enumerate() {
        let book = build(&files, options);
        let minimum = if with_third_party_games(&files) { 100 } else { 1 };
        assert!(book.len() >= minimum, "{options:?}: {} entries", book.len());
        let expected = scratch(&format!("oracle-{i}.bin"));
        let status = Command::new(&python)
            .arg(common::root().join("tests/oracle/polyglot_oracle.py"))
            .arg("make")
            .arg(&expected)
            .args(option_args(&options))
            .args(&files)
            .status()
            .unwrap();
        assert!(status.success());
        let expected = Book::open(&expected).unwrap();
        if let Some(at) = book.entries().zip(expected.entries()).position(|(a, b)| a != b) {
            panic!("{options:?}: entry {at}: {:?} here, {:?} by the rules", book.entry(at), expected.entry(at));
        }
        assert_eq!(book.len(), expected.len(), "{options:?}");
    }
}

#[test]
fn python_chess_reads_the_books_we_build_as_we_do() {
    let files = pgn_files();
    let book = build(&files, BuildOptions { chess960: true, ..BuildOptions::default() });
    let path = scratch("built.bin");
    book.save(&path).unwrap();
    let mut positions = game_positions(&files);
    positions.extend(vector_positions());
    let Some(found) = compare_lookups(&path, &positions, "polyglot: python-chess reading our books") else { return };
    let minimum = if with_third_party_games(&files) { 1000 } else { 100 };
    assert!(found >= minimum, "{found}");
}

#[test]
fn building_is_deterministic_and_counts_each_game_once() {
    let files = pgn_files();
    let first = build(&files, BuildOptions::default());
    assert_eq!(first.as_bytes(), build(&files, BuildOptions::default()).as_bytes());
    // The same games twice over: the same pairs, twice the games and scores.
    let twice: Vec<PathBuf> = files.iter().chain(&files).cloned().collect();
    let doubled = build(&twice, BuildOptions::default());
    assert_eq!(doubled.len(), first.len());
    for (a, b) in first.entries().zip(doubled.entries()) {
        assert_eq!((a.key, a.mv, u32::from(a.weight) * 2), (b.key, b.mv, u32::from(b.weight)));
    }
    // Ordered by key, weight descending, move; learn 0.
    for pair in first.entries().collect::<Vec<_>>().windows(2) {
        let order = |e: &RawEntry| (e.key, std::cmp::Reverse(e.weight), e.mv);
        assert!(order(&pair[0]) < order(&pair[1]), "{pair:?}");
        assert_eq!(pair[0].learn, 0);
    }
}

#[test]
fn summary_counts_games_and_skips_what_does_not_count() {
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"*\"]\n\n1. d4 *\n\n1. c4 1/2-1/2\n\n\
               [Result \"0-1\"]\n\n1. e4 Ke7 2. Ke2 0-1\n\n[Result \"1/2-1/2\"]\n[Variant \"Chess960\"]\n\
               [FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 1/2-1/2\n";
    let mut builder = BookBuilder::new(BuildOptions::default());
    let summary = builder.add_pgn(&mut PgnReader::from_bytes(pgn.as_bytes())).unwrap();
    assert_eq!((summary.games, summary.counted, summary.broken), (5, 2, 1));
    let book = builder.build().unwrap();
    let start = Position::startpos();
    // e4 won once (2) and lost once (0): the broken game counts up to Black's illegal `Ke7`.
    assert_eq!(ours(&book, &start, 0), [("e2e4".to_string(), 2, 0)]);
    let after_e4 = start.make_move("e2e4".parse::<Uci>().and_then(|uci| uci.to_move(&start)).unwrap());
    assert_eq!(ours(&book, &after_e4, 0), [("e7e5".to_string(), 0, 0)]);
    let options = BuildOptions { chess960: true, only: Some(Color::White), ..BuildOptions::default() };
    let mut builder = BookBuilder::new(options);
    builder.add_pgn(&mut PgnReader::from_bytes(pgn.as_bytes())).unwrap();
    let chess960 = Position::chess960_start(0).unwrap();
    assert_eq!(ours(&builder.build().unwrap(), &chess960, 0), [("g2g3".to_string(), 1, 0)]);
}

fn entry(pos: &Position, uci: &str, weight: u16) -> RawEntry {
    RawEntry {
        key: pos.zobrist(),
        mv: BookMove::from_move(uci.parse::<Uci>().and_then(|uci| uci.to_move(pos)).unwrap()),
        weight,
        learn: 7,
    }
}

#[test]
fn lookup_converts_castling_and_filters_entries() {
    let standard = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let chess960 = Position::from_fen_chess960("r3k2r/8/8/8/8/8/8/1R2K1R1 w GB - 0 1").unwrap();
    let e1g1_as_stored = RawEntry { mv: BookMove::from_raw(6 | 4 << 6), ..entry(&standard, "e1h1", 4) };
    let illegal = RawEntry { mv: BookMove::from_raw(20 | 4 << 6), ..entry(&standard, "e1h1", 9) };
    let mut entries = [
        entry(&standard, "e1h1", 5),
        entry(&standard, "e1c1", 0),
        illegal,
        e1g1_as_stored,
        entry(&standard, "a1a8", 3),
        entry(&chess960, "e1g1", 2),
        entry(&chess960, "e1b1", 1),
    ];
    entries.sort_by_key(|e| e.key); // stable: each position's entries keep their order
    let book = Book::from_entries(&entries).unwrap();
    let first = book.entries().find(|e| e.key == standard.zobrist()).unwrap();
    assert_eq!(first.mv.to_string(), "e1h1");
    fn ucis(book: &Book, pos: &Position, options: LookupOptions) -> Vec<String> {
        book.lookup_with(pos, options).map(|e| Uci::from_move(pos, e.mv).to_string()).collect()
    }
    let uci = |pos: &Position, options: LookupOptions| ucis(&book, pos, options);
    assert_eq!(uci(&standard, LookupOptions::default()), ["e1g1", "e1g1", "a1a8"]);
    assert_eq!(uci(&standard, LookupOptions { min_weight: 0, exclude: &[] }), ["e1g1", "e1c1", "e1g1", "a1a8"]);
    assert_eq!(uci(&standard, LookupOptions { min_weight: 4, exclude: &[] }), ["e1g1", "e1g1"]);
    let castle = "e1g1".parse::<Uci>().and_then(|uci| uci.to_move(&standard)).unwrap();
    assert_eq!(uci(&standard, LookupOptions { min_weight: 1, exclude: &[castle] }), ["a1a8"]);
    // In Chess960 castling stays king-takes-rook (e1g1 is the king side, with the rook on g1).
    assert_eq!(uci(&chess960, LookupOptions::default()), ["e1g1", "e1b1"]);
    assert!(book.lookup(&chess960).all(|e| e.mv.is_castling() && e.learn == 7));
    assert_eq!(book.lookup(&Position::startpos()).count(), 0);
}

#[test]
fn choices_are_reproducible() {
    let start = Position::startpos();
    let entries: Vec<RawEntry> =
        [("e2e4", 50), ("d2d4", 30), ("c2c4", 20), ("g1f3", 0), ("b1c3", 30)].map(|(m, w)| entry(&start, m, w)).into();
    let book = Book::from_entries(&entries).unwrap();
    let pick = |choice, random| Uci::from_move(&start, book.pick(&start, choice, random).unwrap().mv).to_string();
    assert_eq!(pick(Choice::Best, 0), "e2e4");
    let mut counts = std::collections::BTreeMap::<String, i32>::new();
    let mut uniform = std::collections::BTreeMap::<String, i32>::new();
    for seed in 0..13_000 {
        let random = chesscore_core::polyglot::random_from_seed(seed);
        *counts.entry(pick(Choice::Weighted, random)).or_insert(0) += 1;
        *uniform.entry(pick(Choice::Uniform, random)).or_insert(0) += 1;
        assert_eq!(pick(Choice::Weighted, random), pick(Choice::Weighted, random));
    }
    // Weights 50:30:20:30 (g1f3 has weight 0, so the default lookup leaves it out).
    assert_eq!(counts.len(), 4, "{counts:?}");
    for (uci, share) in [("e2e4", 50), ("d2d4", 30), ("c2c4", 20), ("b1c3", 30)] {
        let expected = 13_000 * share / 130;
        assert!((counts[uci] - expected).abs() < expected / 8, "{uci}: {counts:?}");
        assert!((uniform[uci] - 3_250).abs() < 400, "{uci}: {uniform:?}");
    }
    let equal = Book::from_entries(&[entry(&start, "d2d4", 5), entry(&start, "e2e4", 5)]).unwrap();
    assert_eq!(Uci::from_move(&start, equal.pick(&start, Choice::Best, 99).unwrap().mv).to_string(), "d2d4");
    assert!(book.pick(&Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap(), Choice::Best, 0).is_none());
}

#[test]
fn malformed_books_are_clear_errors() {
    let start = Position::startpos();
    let after = start.make_move("e2e4".parse::<Uci>().and_then(|uci| uci.to_move(&start)).unwrap());
    let mut entries = [entry(&start, "e2e4", 1), entry(&after, "e7e5", 1)];
    entries.sort_by_key(|e| e.key);
    let good = Book::from_entries(&entries).unwrap().as_bytes().to_vec();
    entries.reverse();
    assert!(matches!(Book::from_entries(&entries), Err(BookError::Unsorted { entry: 1, .. })));
    let error = |name: &str, bytes: &[u8]| {
        let path = scratch(name);
        std::fs::write(&path, bytes).unwrap();
        let from_file = Book::open(&path).expect_err("an error").to_string();
        let from_bytes = Book::from_bytes(bytes.to_vec()).expect_err("an error").to_string();
        assert_eq!(from_file, from_bytes);
        from_file
    };
    assert_eq!(error("empty.bin", b""), "the book is empty (0 bytes)");
    let truncated = error("truncated.bin", &good[..good.len() - 3]);
    assert!(truncated.contains("29 bytes, is not a multiple of 16: entry 1 (at byte offset 16) is cut short"));
    let mut unsorted = good[16..].to_vec();
    unsorted.extend(&good[..16]);
    assert!(error("unsorted.bin", &unsorted).contains("entry 1 (at byte offset 16) has key"));
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    assert!(error("garbage.bin", &garbage).contains("not sorted by key"));
    assert!(matches!(Book::open(scratch("")), Err(BookError::NotAFile)));
    let missing = Book::open(scratch("missing.bin")).unwrap_err();
    assert!(matches!(&missing, BookError::Io(e) if e.kind() == std::io::ErrorKind::NotFound), "{missing}");
    assert_eq!(Book::from_bytes(good).unwrap().len(), 2);
}

#[test]
fn merging_sums_the_pairs_of_both_books() {
    let files = pgn_files();
    let white = build(&files, BuildOptions { only: Some(Color::White), ..BuildOptions::default() });
    let black = build(&files, BuildOptions { only: Some(Color::Black), ..BuildOptions::default() });
    let both = build(&files, BuildOptions::default());
    // The two halves hold disjoint pairs: their union is the whole book.
    let union = Book::from_entries(&merge(&white, &black).unwrap()).unwrap();
    assert_eq!(union.as_bytes(), both.as_bytes());
    let doubled = merge(&both, &both).unwrap();
    assert_eq!(doubled.len(), both.len());
    assert!(both.entries().zip(&doubled).all(|(a, b)| (a.key, a.mv, a.weight * 2) == (b.key, b.mv, b.weight)));
}

/// `tests/data/polyglot/dev.bin`, the book the C, C++, Python and command-line tests read, is
/// `chesscore book make --chess960` of the generated PGN files.
#[test]
fn the_committed_test_book_is_a_fresh_build() {
    let files = [common::data("pgn/dev_generated.pgn"), common::data("pgn/dev_edge_cases.pgn")];
    let fresh = build(&files, BuildOptions { chess960: true, ..BuildOptions::default() });
    let committed = std::fs::read(common::data("polyglot/dev.bin")).unwrap();
    assert!(fresh.as_bytes() == committed, "rebuild tests/data/polyglot/dev.bin with `chesscore book make --chess960`");
}

/// A directory of its own under the scratch directory, made afresh.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A FIFO is refused at once, as a directory and a device are: its open does not wait for a
/// writer that never comes.
#[test]
fn what_is_not_a_regular_file_is_refused_at_once() {
    let dir = scratch_dir("fifo");
    let fifo = dir.join("book.bin");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let results = [fifo.as_path(), dir.as_path(), Path::new("/dev/zero")].map(|path| Book::open(path).err());
        sender.send(results.map(|r| matches!(r, Some(BookError::NotAFile)))).unwrap();
    });
    let refused = receiver.recv_timeout(std::time::Duration::from_secs(20)).expect("Book::open waited on a FIFO");
    assert_eq!(refused, [true; 3]);
}

/// An open book is a copy of its file: cut short, rewritten or replaced under it, the book
/// goes on as it was (a mapping would have killed the process with SIGBUS). `save` replaces
/// its file by a rename, so a reader of the old file still reads the old bytes whole.
#[test]
fn a_book_is_not_disturbed_by_its_file_changing() {
    let dir = scratch_dir("changing");
    let path = dir.join("book.bin");
    let built = build(&[common::data("pgn/dev_generated.pgn")], BuildOptions::default());
    built.save(&path).unwrap();
    let book = Book::open(&path).unwrap();
    let start = Position::startpos();
    let before: Vec<_> = book.lookup(&start).collect();
    assert!(!before.is_empty() && book.len() > 500, "{} entries, {} for the start", book.len(), before.len());
    std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(16).unwrap();
    assert_eq!(book.lookup(&start).collect::<Vec<_>>(), before);
    assert_eq!(book.entries().count(), built.len());
    std::fs::write(&path, [0u8; 32]).unwrap();
    assert_eq!(book.as_bytes(), built.as_bytes());

    built.save(&path).unwrap();
    let mut old = std::fs::File::open(&path).unwrap();
    let small = Book::from_entries(&built.entries().take(3).collect::<Vec<_>>()).unwrap();
    small.save(&path).unwrap();
    let mut old_bytes = Vec::new();
    std::io::Read::read_to_end(&mut old, &mut old_bytes).unwrap();
    assert_eq!(old_bytes, built.as_bytes());
    assert_eq!(std::fs::read(&path).unwrap(), small.as_bytes());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["book.bin"]);
}
