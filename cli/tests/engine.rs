//! The `analyse`, `epdtest` and `match` commands with Stockfish: a legal best move, a solved
//! count on the published EPD suites, and a match whose PGN our reader replays.

use chesscore_test_support as common;

use std::path::Path;
use std::process::Command;

use chesscore_core::pgn::PgnReader;
use chesscore_core::polyglot::Book;
use chesscore_core::{Position, Uci};

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// `analyse` with the fake engine, which logs what it receives to `log`.
fn analyse_logged(log: &Path, extra: &[&str]) -> (bool, String) {
    let engine = common::fake_engine().to_str().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chesscore"))
        .args(["analyse", "startpos", "--engine", engine, "--depth", "1"])
        .args(extra)
        .env("FAKE_ENGINE_LOG", log)
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn analyse_options_cannot_smuggle_a_command_into_the_engine() {
    let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_option_injection.log");
    for end in ["\n", "\r", "\u{0b}", "\u{0c}", "\u{1c}", "\u{1d}", "\u{1e}", "\u{85}", "\u{2028}", "\u{2029}"] {
        let _ = std::fs::remove_file(&log);
        let option = format!("Hash=1{end}go infinite");
        let (ok, err) = analyse_logged(&log, &["--option", &option]);
        assert!(!ok && err.contains("line breaks"), "{end:?}: {err}");
        let received = std::fs::read_to_string(&log).unwrap();
        assert!(
            !received.lines().any(|line| line.contains("go infinite") || line.starts_with("setoption")),
            "{end:?}: {received}"
        );
        let option = format!("Hash{end}quit=1");
        let (ok, err) = analyse_logged(&log, &["--option", &option]);
        assert!(!ok && err.contains("line breaks"), "{end:?}: {err}");
    }
    let (ok, err) = analyse_logged(&log, &["--option", "Hash value 2=1"]);
    assert!(!ok && err.contains("`value`"), "{err}");
    let _ = std::fs::remove_file(&log);
    let (ok, err) = analyse_logged(&log, &["--option", "Style=Risky"]);
    assert!(ok, "{err}");
    assert!(std::fs::read_to_string(&log).unwrap().lines().any(|line| line == "setoption name Style value Risky"));
}

/// Whether a live process (not a zombie) has `marker` among its arguments.
fn running_with(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let live = std::fs::read_to_string(entry.path().join("stat"))
            .is_ok_and(|stat| stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')));
        live && cmdline.split(|&b| b == 0).any(|arg| arg == marker.as_bytes())
    })
}

#[test]
fn analyse_ends_every_process_of_an_engine_that_crashed() {
    // A wrapper script whose engine forks a helper that keeps the output open, then dies at `go`.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let script = dir.join("wrapped_forkcrash.sh");
    let marker = format!("marker-{}", std::process::id());
    let fake = common::fake_engine().display().to_string();
    std::fs::write(&script, format!("#!/bin/sh\n'{fake}' forkcrash {marker}\nexit\n")).unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&script).status().unwrap();
    let began = std::time::Instant::now();
    let (ok, _, err) = run(&["analyse", "startpos", "--engine", script.to_str().unwrap(), "--depth", "5"]);
    assert!(!ok && err.contains("exited"), "{err}");
    assert!(began.elapsed() < std::time::Duration::from_secs(5), "{:?}", began.elapsed());
    let waited = std::time::Instant::now();
    while running_with(&marker) && waited.elapsed() < std::time::Duration::from_secs(1) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!running_with(&marker), "a process of the engine is left running");
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
        let line = &game;
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
