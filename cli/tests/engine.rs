//! The `analyse`, `epdtest` and `match` commands with Stockfish: a legal best move, a solved
//! count on the published EPD suites, and a match whose PGN our reader replays.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::Command;

use chesscore_core::pgn::PgnReader;
use chesscore_core::polyglot::Book;
use chesscore_core::{Position, Uci};

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn analyse_prints_its_lines_and_a_legal_best_move() {
    let Some(stockfish) = common::stockfish("cli: analyse") else { return };
    let engine = stockfish.to_str().unwrap();
    let (ok, out, err) = run(&["analyse", "startpos", "--depth", "12", "--engine", engine]);
    assert!(ok, "{err}");
    let best = out.lines().last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(best.parse::<Uci>().and_then(|uci| uci.to_move(&Position::startpos())).is_ok(), "{out}");
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("multipv 1 depth 12 score cp ") && first.contains(" pv "), "{out}");

    let mate = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let args = ["analyse", mate, "--engine", engine, "--nodes", "20000", "--multipv", "2", "--threads", "1"];
    let (ok, out, err) = run(&[&args[..], &["--hash", "8", "--option", "Skill Level=20"]].concat());
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("multipv 1 ") && lines[0].contains(" score mate 1 pv f3f7"), "{out}");
    assert!(lines[1].starts_with("multipv 2 "), "{out}");
    assert_eq!(lines[2], "bestmove f3f7");

    // Chess960: X-FEN in, king-takes-rook castling out.
    let fen = "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let (ok, out, err) = run(&["analyse", fen, "--chess960", "--engine", engine, "--depth", "6"]);
    assert!(ok, "{err}");
    let best = out.lines().last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(
        best.parse::<Uci>().and_then(|uci| uci.to_move(&Position::from_fen_chess960(fen).unwrap())).is_ok()
            && best != "e1g1",
        "{out}"
    );

    let (ok, _, err) = run(&["analyse", "startpos", "--engine", "/nonexistent/engine", "--depth", "1"]);
    assert!(!ok && err.contains("cannot start the engine"), "{err}");
    let (ok, _, err) = run(&["analyse", "startpos", "--engine", engine, "--option", "Hash"]);
    assert!(!ok && err.contains("NAME=VALUE"), "{err}");
}

#[test]
fn epdtest_solves_the_published_suites() {
    let Some(stockfish) = common::stockfish("cli: epdtest") else { return };
    let Some(testdata) = common::shared_testdata("cli: epdtest") else { return };
    for (suite, positions, at_least) in [("bratko_kopec.epd", 24, 6), ("win_at_chess.epd", 300, 150)] {
        let file = testdata.join("epd").join(suite);
        let args = ["epdtest", file.to_str().unwrap(), "--engine", stockfish.to_str().unwrap()];
        let (ok, out, err) = run(&[&args[..], &["--movetime", "30", "--threads", "1"]].concat());
        assert!(ok, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), positions + 1, "{out}");
        assert!(lines[0].starts_with(if positions == 24 { "BK.01: expected bm Qd1+, got " } else { "WAC.001: " }));
        let (solved, of) = lines[positions].split_once(" solved of ").unwrap();
        let solved: usize = solved.parse().unwrap();
        assert_eq!(of, positions.to_string());
        assert_eq!(lines.iter().filter(|l| l.ends_with(": ok")).count(), solved);
        assert!(solved >= at_least, "{suite}: {solved} of {positions}");
    }
}

#[test]
fn match_writes_a_pgn_our_reader_replays() {
    let Some(stockfish) = common::stockfish("cli: match") else { return };
    let engine = stockfish.to_str().unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let pgn = dir.join("match.pgn");
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n8/8/8/4k3/8/8/4K3/8 w - -\n")
        .unwrap();
    let args = ["match", "--engine", engine, "--engine", engine, "--games", "4", "--movetime", "10"];
    let (ok, out, err) =
        run(&[&args[..], &["--openings", openings.to_str().unwrap(), "--pgn", pgn.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    let last = out.lines().last().unwrap();
    let score = last.strip_prefix(&format!("{engine}: ")).unwrap();
    let wdl: Vec<u32> = score.split('-').map(|n| n.parse().unwrap()).collect();
    assert_eq!(wdl.iter().sum::<u32>(), 4, "{out}");
    // The bare kings of the second opening are a draw before any move.
    assert!(out.contains("game 3: ") && out.lines().nth(2).unwrap().ends_with("1/2-1/2 (insufficient material)"));

    let text = std::fs::read(&pgn).unwrap();
    let mut games = 0;
    for game in PgnReader::new(text.as_slice()) {
        let game = game.unwrap_or_else(|e| panic!("{e}"));
        assert!(game.tag("Result").is_some_and(|r| r != "*"));
        games += 1;
    }
    assert_eq!(games, 4);
    assert!(String::from_utf8(text).unwrap().contains("[%eval "));

    // Openings drawn from a book: each pair of games starts with its own line of book moves.
    let book = common::root().join("tests/data/polyglot/dev.bin");
    let args =
        ["match", "--engine", engine, "--engine", engine, "--games", "4", "--movetime", "5", "--book-plies", "6"];
    let (ok, _, err) =
        run(&[&args[..], &["--openings", book.to_str().unwrap(), "--pgn", pgn.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    let text = std::fs::read(&pgn).unwrap();
    let reader = Book::from_bytes(std::fs::read(&book).unwrap()).unwrap();
    let mut openings = Vec::new();
    for game in PgnReader::new(text.as_slice()) {
        let game = game.unwrap_or_else(|e| panic!("{e}"));
        let line = game.game();
        assert_eq!(line.start(), &Position::startpos());
        let mut pos = Position::startpos();
        let from_book: Vec<_> = line
            .moves()
            .take(6)
            .take_while(|&mv| {
                let known = reader.lookup(&pos).any(|entry| entry.mv == mv);
                pos.play(mv).unwrap();
                known
            })
            .collect();
        assert!(!from_book.is_empty());
        openings.push(from_book);
    }
    assert_eq!(openings.len(), 4);
    assert!(openings[0] == openings[1] && openings[2] == openings[3]);
    let (ok, _, err) = run(&["match", "--engine", engine, "--engine", engine, "--openings", "missing.bin"]);
    assert!(!ok && err.contains("missing.bin"), "{err}");
    let (ok, _, err) = run(&["match", "--engine", engine, "--games", "1"]);
    assert!(!ok && err.contains("exactly two engines"), "{err}");
    let clock = ["match", "--engine", engine, "--engine", engine, "--games", "1", "--tc", "1+0.05"];
    let (ok, out, err) = run(&[&clock[..], &["--pgn", pgn.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    assert!(out.lines().last().unwrap().starts_with(&format!("{engine}: ")));
    assert!(std::fs::read_to_string(&pgn).unwrap().contains("[%clk 0:00:0"));
}
