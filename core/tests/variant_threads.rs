//! Databases mixing chess and lichess variant games read by threads
//! (`ParallelReader::any_records`, `map_any_records`) give the games one reader gives
//! (`PgnReader::next_any_game`), broken ones and their partial games included, in the same
//! order; and what a broken variant game keeps.

use std::io::Cursor;
use std::process::Command;

use chesscore_core::pgn::{ParallelReader, PgnError, PgnErrorKind, PgnReader, ReaderOptions};
use chesscore_core::variant::{AnyGame, Variant};
use chesscore_core::SanError;
use chesscore_test_support as common;

const VARIANTS: [&str; 7] =
    ["atomic", "antichess", "crazyhouse", "kingofthehill", "threecheck", "horde", "racingkings"];

/// Games of every kind, hand-written: chess, Chess960, each variant, and broken ones (a
/// crazyhouse game broken mid-movetext, an unknown variant, a bad variant FEN), a tag line
/// inside a comment (where a thread guesses a game starts) and a variation.
const HOSTILE: &str = "[Event \"chess\"]\n\n1. e4 e5 2. Nf3 {[Event \"fake\"]\n\n} Nc6 (2... d6) 3. Bb5 *\n\n\
    [Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 {drop} Qxa2 5. Q@e9 *\n\n\
    [Variant \"Atomic\"]\n\n1. e4 d5 2. exd5 *\n\n\
    [Variant \"Bughouse\"]\n\n1. e4 *\n\n\
    [Variant \"Antichess\"]\n\n1. e3 b5 2. Bxb5 *\n\n\
    [Variant \"King of the Hill\"]\n\n1. e4 e5 2. Ke2 Ke7 3. Ke3 Ke6 4. Kd3 *\n\n\
    [Variant \"Three-check\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 *\n\n\
    [Variant \"Horde\"]\n\n1. e5 *\n\n\
    [Variant \"Racing Kings\"]\n\n1. Kh3 Ka3 *\n\n\
    [Variant \"Racing Kings\"]\n[FEN \"not a fen\"]\n\n1. Kh3 *\n\n\
    [Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 *\n\n\
    [Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 Nc6 3. N@e5 *\n\n";

/// python-chess's PGN of the generated variant games, when python-chess is at hand.
fn python_chess_games() -> String {
    let Some(python) = common::python("variant games read by threads") else { return String::new() };
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/python_chess_variant_pgn.py");
    let output = Command::new(python).arg(script).args(["--limit", "12"]).args(VARIANTS).output().expect("python");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8 PGN")
}

/// A game or an error as text: the game's PGN, or the error with its partial game's PGN.
fn shown(game: Result<AnyGame, PgnError>) -> String {
    match game {
        Ok(game) => format!("{:?} {}", game.variant(), game.to_pgn()),
        Err(e) => {
            let chess = e.partial.as_ref().map(|game| game.to_pgn());
            let variant = e.variant_partial.as_ref().map(|game| game.to_pgn());
            format!("error {e} chess {chess:?} variant {variant:?}")
        }
    }
}

#[test]
fn threads_read_a_mixed_database_as_one_reader_does() {
    // The generated games between the hand-written ones, so that batches start in both.
    let database = format!("{HOSTILE}{}{HOSTILE}", python_chess_games()).repeat(3);
    let mut reader = PgnReader::from_bytes(database.as_bytes());
    let serial: Vec<String> = std::iter::from_fn(|| reader.next_any_game().transpose()).map(shown).collect();
    let variants = |games: &[String]| {
        VARIANTS
            .iter()
            .filter(|name| {
                games
                    .iter()
                    .any(|g| g.contains(&format!("[Variant \"{}", Variant::from_name(name).unwrap().pgn_name())))
            })
            .count()
    };
    assert_eq!(variants(&serial), VARIANTS.len());
    assert!(serial.iter().filter(|game| game.starts_with("error")).count() >= 3 * 2 * 4);
    for (threads, chunk) in [(1, 1 << 20), (2, 1000), (4, 257), (4, 64 << 10)] {
        let parallel: Vec<String> =
            ParallelReader::any_records(Cursor::new(database.clone()), threads, ReaderOptions::default())
                .with_chunk_size(chunk)
                .map(shown)
                .collect();
        assert_eq!(parallel.len(), serial.len(), "{threads} threads, chunks of {chunk}");
        for (n, (a, b)) in parallel.iter().zip(&serial).enumerate() {
            assert_eq!(a, b, "game {}, {threads} threads, chunks of {chunk}", n + 1);
        }
        let mapped: Vec<String> =
            ParallelReader::map_any_records(Cursor::new(database.clone()), threads, ReaderOptions::default(), |game| {
                shown(Ok(game))
            })
            .with_chunk_size(chunk)
            .map(|game| game.unwrap_or_else(|e| shown(Err(e))))
            .collect();
        assert!(mapped == serial, "mapped: {threads} threads, chunks of {chunk}");
    }
    // Chess-only threads still refuse the variants, as `next_game` does.
    let chess: Vec<_> = ParallelReader::records(Cursor::new(HOSTILE), 2, ReaderOptions::default()).collect();
    let refused =
        chess.iter().filter(|game| matches!(game, Err(e) if matches!(e.kind, PgnErrorKind::UnsupportedVariant(_))));
    assert_eq!(refused.count(), 10);
}

/// A crazyhouse game broken mid-movetext keeps its tags, the moves before the bad one and its
/// comments, as a variant game; an unknown variant and a bad variant FEN are broken games whose
/// partial game holds the tags; the games after them are read.
#[test]
fn a_broken_variant_game_keeps_what_was_read() {
    let mut reader = PgnReader::from_bytes(HOSTILE);
    assert!(reader.next_any_game().unwrap().is_some());
    let zh = reader.next_any_game().expect_err("Q@e9 is no square");
    assert_eq!((zh.game, zh.ply), (2, 9));
    assert!(matches!(zh.kind, PgnErrorKind::Move(SanError::Syntax)), "{zh}");
    assert!(zh.partial.is_none());
    let partial = zh.variant_partial.as_deref().expect("a variant partial game");
    assert_eq!(partial.position().variant(), Variant::Crazyhouse);
    let san: Vec<String> = partial.san_moves().map(|san| san.to_string()).collect();
    assert_eq!(san, ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "@d5", "Qxa2"]);
    assert_eq!(partial.tag("Variant"), Some("Crazyhouse"));
    assert!(partial.to_pgn().contains("{ drop }"), "{}", partial.to_pgn());
    assert_eq!(reader.next_any_game().unwrap().unwrap().variant(), Variant::Atomic);
    let unknown = reader.next_any_game().expect_err("no such variant");
    assert_eq!(unknown.kind, PgnErrorKind::UnsupportedVariant("Bughouse".into()));
    assert_eq!(unknown.game, 4);
    assert!(unknown.variant_partial.is_none());
    assert_eq!(unknown.partial.as_deref().and_then(|game| game.tag("Variant")), Some("Bughouse"));
    for _ in 0..5 {
        assert!(reader.next_any_game().unwrap().is_some());
    }
    let fen = reader.next_any_game().expect_err("a bad racing kings FEN");
    assert!(matches!(fen.kind, PgnErrorKind::InvalidVariantFen(_)), "{fen}");
    assert_eq!(fen.partial.as_deref().and_then(|game| game.tag("FEN")), Some("not a fen"));
    assert_eq!(reader.next_any_game().unwrap().unwrap().variant(), Variant::Chess960);
    let drop = reader.next_any_game().expect_err("no knight in hand");
    let partial = drop.variant_partial.expect("a variant partial game");
    assert_eq!(partial.moves().count(), 4);
    assert!(reader.next_any_game().unwrap().is_none());
}
