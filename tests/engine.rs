//! The Rust engine client (`chesscore_core::engine`) against Stockfish and against the fake
//! engines of `c_tests/fake_engine.c`: searches, MultiPV, streaming and `stop`, and every fault
//! ending in its error within the timeout with the process gone.

use chesscore_test_support as common;

use std::path::Path;
use std::time::{Duration, Instant};

use chesscore_core::engine::{Engine, EngineCommand, EngineError, Limits, ProtocolError, Score};
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
    let mut search = engine.search(game.start(), game.moves(), &depth(1), None).unwrap();
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

/// Runs `work` in a thread of its own and fails, rather than hangs, when it takes over `limit`
/// (the thread, and any engine it holds, is then left behind).
fn within<T: Send + 'static>(limit: Duration, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(work()));
    receiver.recv_timeout(limit).unwrap_or_else(|_| panic!("still running after {limit:?}"))
}

/// This process's resident memory, in KiB.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The fake engine started through `sh -c`, with `FAKE_ENGINE_LOG` set to `log`.
fn logged(mode: &str, log: &Path) -> EngineCommand {
    let mut command = EngineCommand::new("/bin/sh");
    command.args = vec![
        "-c".into(),
        "FAKE_ENGINE_LOG=\"$1\" exec \"$0\" \"$2\"".into(),
        common::fake_engine().into(),
        log.into(),
        mode.into(),
    ];
    command.timeout = Duration::from_secs(2);
    command
}

#[test]
fn caller_text_never_reaches_the_engine_as_a_command_of_its_own() {
    let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join("engine_injection.log");
    let _ = std::fs::remove_file(&log);
    let mut engine = Engine::start(&logged("good", &log)).unwrap();
    // Every line end of Java's Scanner, Python's splitlines, JavaScript and .NET, and NUL.
    let ends =
        ["\n", "\r", "\r\n", "\0", "\u{0b}", "\u{0c}", "\u{1c}", "\u{1d}", "\u{1e}", "\u{85}", "\u{2028}", "\u{2029}"];
    for end in ends {
        let value = format!("1{end}go infinite");
        let error = engine.set_option("Hash", Some(&value)).unwrap_err();
        assert!(matches!(error, EngineError::InvalidText(_)), "{end:?}: {error:?}");
        let name = format!("Hash{end}quit");
        assert!(matches!(engine.set_option(&name, Some("1")), Err(EngineError::InvalidText(_))), "{end:?}");
        assert!(matches!(engine.set_option(&name, None), Err(EngineError::InvalidText(_))), "{end:?}");
    }
    for name in ["Hash value 1", "name", ""] {
        assert!(matches!(engine.set_option(name, Some("2")), Err(EngineError::InvalidText(_))), "{name:?}");
    }
    // Refused text sends nothing and leaves the engine working.
    engine.set_option("Style", Some("Risky\tPlay")).unwrap();
    engine.is_ready().unwrap();
    drop(engine);
    let received = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        received.lines().collect::<Vec<_>>(),
        ["uci", "setoption name Style value Risky\tPlay", "isready", "quit"]
    );
}

#[test]
fn no_engine_output_keeps_a_bounded_search_waiting_or_grows_memory() {
    let before = resident_kib();
    // Junk lines as fast as the engine can write them, or one a millisecond, during a search
    // bounded by depth: they hold off nothing, so the search times out with the timeout.
    for mode in ["flood", "trickle"] {
        let (error, took) = within(Duration::from_secs(10), move || {
            let mut engine = Engine::start(&fake(mode, 300)).unwrap();
            let began = Instant::now();
            (engine.analyse_position(&Position::startpos(), &depth(5), None).unwrap_err(), began.elapsed())
        });
        assert!(matches!(error, EngineError::Timeout(_)), "{mode}: {error:?}");
        assert!(took < Duration::from_millis(1000), "{mode}: {took:?}");
    }
    // Lines that look like a search, during a 200 ms search: its time and the timeout bound it.
    let (error, took) = within(Duration::from_secs(10), || {
        let mut engine = Engine::start(&fake("infoflood", 300)).unwrap();
        let limits = Limits { movetime: Some(Duration::from_millis(200)), ..Limits::default() };
        let began = Instant::now();
        (engine.analyse_position(&Position::startpos(), &limits, None).unwrap_err(), began.elapsed())
    });
    assert!(matches!(error, EngineError::Timeout(_)), "infoflood: {error:?}");
    assert!(took < Duration::from_millis(1200), "infoflood: {took:?}");
    // A line that never ends is an error once it passes the limit.
    let error = within(Duration::from_secs(10), || {
        let mut engine = Engine::start(&fake("longline", 5000)).unwrap();
        engine.analyse_position(&Position::startpos(), &depth(5), None).unwrap_err()
    });
    assert!(matches!(error, EngineError::Protocol(ProtocolError::LineTooLong(_))), "longline: {error:?}");
    let grown = resident_kib().saturating_sub(before);
    assert!(grown < 128 * 1024, "memory grew by {grown} KiB");
}

#[test]
fn a_stop_from_another_thread_bounds_an_engine_that_ignores_it() {
    // `hang` sends one info at `go`, then ignores `stop`: the best move is due a timeout after.
    let (error, took) = within(Duration::from_secs(10), || {
        let mut engine = Engine::start(&fake("hang", 300)).unwrap();
        let control = engine.control();
        let limits = Limits { infinite: true, ..Limits::default() };
        let mut search = engine.search(&Position::startpos(), [], &limits, None).unwrap();
        search.next().unwrap().unwrap();
        let began = Instant::now();
        control.stop().unwrap();
        (search.finish().unwrap_err(), began.elapsed())
    });
    assert!(matches!(error, EngineError::Timeout(_)), "{error:?}");
    assert!(took < Duration::from_millis(1000), "{took:?}");
}

/// The ids in the fake engine's `Pids` option: the engine's, then its helper's.
fn pids(engine: &Engine) -> Vec<u32> {
    let option = engine.options().iter().find(|o| o.name == "Pids").expect("the Pids option");
    option.default.as_deref().unwrap().split(' ').map(|id| id.parse().unwrap()).collect()
}

/// Waits up to a second for a process to be dead: gone, or a zombie left to init to reap (a
/// killed grandchild is init's child; our own children are checked with `gone`).
fn ends_soon(pid: u32) -> bool {
    let dead = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map_or(true, |stat| stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')))
    };
    let began = Instant::now();
    while !dead() && began.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(5));
    }
    dead()
}

#[test]
fn every_process_the_engine_started_ends_with_it_and_none_is_waited_for() {
    let wrapped = |mode: &str| {
        let mut command = EngineCommand::new("/bin/sh");
        // `; exit` keeps the shell from replacing itself with the engine: a wrapper script.
        command.args = vec!["-c".into(), "\"$0\" \"$1\"; exit".into(), common::fake_engine().into(), mode.into()];
        command.timeout = Duration::from_millis(300);
        command
    };
    for (command, expected) in [
        (fake("fork", 300), "Timeout"),
        (fake("forkcrash", 300), "Exited"),
        (wrapped("fork"), "Timeout"),
        (wrapped("forkcrash"), "Exited"),
    ] {
        let (error, took, processes, child) = within(Duration::from_secs(10), move || {
            let mut engine = Engine::start(&command).unwrap();
            let processes = pids(&engine);
            let child = engine.pid();
            let began = Instant::now();
            let error = engine.analyse_position(&Position::startpos(), &depth(5), None).unwrap_err();
            drop(engine);
            (error, began.elapsed(), processes, child)
        });
        assert!(format!("{error:?}").starts_with(expected), "{error:?}");
        assert!(took < Duration::from_millis(1500), "{took:?}");
        assert!(gone(child), "the engine process {child} is left");
        for pid in processes {
            assert!(ends_soon(pid), "process {pid} left running");
        }
    }
    // Dropped without a fault: `quit` is ignored, the group is killed.
    let (took, processes) = within(Duration::from_secs(10), move || {
        let engine = Engine::start(&wrapped("fork")).unwrap();
        let processes = pids(&engine);
        let began = Instant::now();
        drop(engine);
        (began.elapsed(), processes)
    });
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert!(processes.into_iter().all(ends_soon));
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
