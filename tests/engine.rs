//! The Rust engine client (`chesscore_core::engine`) against Stockfish and against the fake
//! engines of `c_tests/fake_engine.c`: searches, MultiPV, streaming and `stop`, and every fault
//! ending in its error within the timeout with the process gone.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use chesscore_core::engine::{Engine, EngineCommand, EngineError, Limits, Score};
use chesscore_core::{Game, Position, Uci, UciCastling};

fn fake(mode: &str, timeout_ms: u64) -> EngineCommand {
    let mut command = EngineCommand::new(common::fake_engine());
    command.args.push(mode.into());
    command.timeout = Duration::from_millis(timeout_ms);
    command
}

/// The process is gone: neither running nor a zombie.
fn gone(pid: u32) -> bool {
    !Path::new(&format!("/proc/{pid}")).exists()
}

fn depth(n: u32) -> Limits {
    Limits { depth: Some(n), ..Limits::default() }
}

#[test]
fn a_good_engine_gives_its_lines_and_best_move() {
    let mut engine = Engine::start(&fake("good", 2000)).unwrap();
    assert_eq!((engine.name(), engine.author()), (Some("Fake Engine 1.0"), Some("The chesscore tests")));
    assert_eq!(engine.options().len(), 5);
    engine.set_option("UCI_Chess960", Some("true")).unwrap();
    assert!(engine.is_chess960());
    engine.set_option("UCI_Chess960", Some("false")).unwrap();
    engine.new_game().unwrap();
    let start = Position::startpos();
    let analysis = engine.analyse_position(&start, &depth(1), Some(2)).unwrap();
    assert_eq!(analysis.best_move, Some("e2e4".parse::<Uci>().and_then(|uci| uci.to_move(&start)).unwrap()));
    assert_eq!(analysis.lines.len(), 2);
    assert_eq!(analysis.lines[0].score, Some(Score::Cp(31)));
    assert_eq!(analysis.lines[1].illegal_move.as_deref(), Some("d2d4"));

    let mut game = Game::default();
    game.push_uci("g1f3").unwrap();
    let mut search = engine.search(game.start(), game.moves().iter().copied(), &depth(1), None).unwrap();
    let first = search.next().unwrap().unwrap();
    assert_eq!((first.score, first.white_score), (Some(Score::Cp(31)), Some(Score::Cp(-31))));
    search.stop().unwrap();
    let analysis = search.finish().unwrap();
    assert_eq!(
        analysis.best_move.map(|m| Uci::from_move_with(m, UciCastling::KingTwoSquares).to_string()).as_deref(),
        Some("e7e5")
    );
    let pid = engine.pid();
    drop(engine);
    assert!(gone(pid));
}

#[test]
fn another_thread_stops_a_search_or_answers_ponderhit() {
    let mut engine = Engine::start(&fake("good", 2000)).unwrap();
    for (limits, command) in
        [(Limits { ponder: true, ..depth(3) }, "ponderhit"), (Limits { infinite: true, ..Limits::default() }, "stop")]
    {
        let control = engine.control();
        let mut search = engine.search(&Position::startpos(), [], &limits, None).unwrap();
        let first = search.next().unwrap().unwrap();
        assert_eq!(first.depth, Some(1));
        let sender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            match command {
                "ponderhit" => control.ponderhit(),
                _ => control.stop(),
            }
        });
        let strings: Vec<_> = search.by_ref().map(|info| info.unwrap().string).collect();
        sender.join().unwrap().unwrap();
        assert_eq!(strings.contains(&Some("ponderhit".into())), command == "ponderhit", "{command}");
        assert!(search.finish().unwrap().best_move.is_some());
    }
    let control = engine.control();
    drop(engine);
    assert!(matches!(control.stop(), Err(EngineError::Exited)));
}

#[test]
fn faults_end_in_their_error_within_the_timeout() {
    let started = Instant::now();
    assert!(matches!(Engine::start(&EngineCommand::new("/nonexistent/engine")), Err(EngineError::NotStarted(_))));
    assert!(matches!(Engine::start(&fake("exit", 2000)), Err(EngineError::Exited)));
    assert!(matches!(Engine::start(&fake("silent", 200)), Err(EngineError::Timeout(_))));
    assert!(matches!(Engine::start(&fake("slow", 200)), Err(EngineError::Timeout(_))));
    assert!(Engine::start(&fake("slow", 3000)).is_ok());
    for (mode, expected) in [("crash", "Exited"), ("hang", "Timeout"), ("badmove", "Protocol")] {
        let mut engine = Engine::start(&fake(mode, 300)).unwrap();
        let pid = engine.pid();
        let began = Instant::now();
        let error = engine.analyse_position(&Position::startpos(), &depth(3), None).unwrap_err();
        assert!(format!("{error:?}").starts_with(expected), "{mode}: {error:?}");
        assert!(began.elapsed() < Duration::from_millis(1500), "{mode}: {:?}", began.elapsed());
        assert!(gone(pid), "{mode}: process {pid} left");
        assert!(matches!(engine.is_ready(), Err(EngineError::Exited)));
    }
    let mut junk = Engine::start(&fake("junk", 2000)).unwrap();
    let analysis = junk.analyse_position(&Position::startpos(), &depth(1), None).unwrap();
    assert_eq!(
        analysis.best_move.map(|m| Uci::from_move_with(m, UciCastling::KingTwoSquares).to_string()).as_deref(),
        Some("e2e4")
    );
    // Ignoring `quit`, a hung engine is killed.
    let hung = Engine::start(&fake("hang", 2000)).unwrap();
    let pid = hung.pid();
    drop(hung);
    assert!(gone(pid));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn stockfish_analyses_and_streams() {
    let Some(stockfish) = common::stockfish("engine: stockfish_analyses_and_streams") else { return };
    let mut engine = Engine::start(&EngineCommand::new(stockfish)).unwrap();
    assert!(engine.name().is_some_and(|n| n.contains("Stockfish")));
    assert!(engine.options().iter().any(|o| o.name == "MultiPV"));
    engine.set_option("Threads", Some("1")).unwrap();
    engine.is_ready().unwrap();
    let pos = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4").unwrap();
    let analysis = engine.analyse_position(&pos, &depth(8), Some(3)).unwrap();
    assert_eq!(
        analysis.best_move.map(|m| Uci::from_move_with(m, UciCastling::KingTwoSquares).to_string()).as_deref(),
        Some("f3f7"),
        "Scholar's mate"
    );
    assert_eq!(analysis.lines.len(), 3);
    assert_eq!(analysis.lines[0].score, Some(Score::Mate(1)));
    assert!(analysis.lines.iter().all(|l| !l.pv.is_empty() && l.illegal_move.is_none()));

    let infinite = Limits { infinite: true, ..Limits::default() };
    let mut search = engine.search(&Position::startpos(), [], &infinite, Some(1)).unwrap();
    let infos: Vec<_> = search.by_ref().take(3).collect::<Result<_, _>>().unwrap();
    assert_eq!(infos.len(), 3);
    search.stop().unwrap();
    let analysis = search.finish().unwrap();
    assert!(analysis.best_move.is_some_and(|m| Position::startpos().is_legal(m)));

    // Chess960 castling goes out and comes back as king-takes-rook.
    engine.set_option("UCI_Chess960", Some("true")).unwrap();
    let pos =
        Position::from_fen_chess960("rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    let castle = "e1h1".parse::<Uci>().and_then(|uci| uci.to_move(&pos)).unwrap();
    let limits = Limits { searchmoves: vec![castle], ..depth(4) };
    let analysis = engine.analyse_position(&pos, &limits, None).unwrap();
    assert_eq!(analysis.best_move, Some(castle));
}
