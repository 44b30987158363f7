//! The Rust engine client (`chesscore_core::engine`) against Stockfish and against the fake
//! engines of `c_tests/fake_engine.c`: searches, MultiPV, streaming and `stop`, and every fault
//! ending in its error within the timeout with the process gone.

use chesscore_test_support as common;

use std::path::Path;
use std::time::{Duration, Instant};

use chesscore_core::engine::protocol::{parse_line, position_command};
use chesscore_core::engine::{
    Engine, EngineCommand, EngineError, EngineLine, EnginePosition, Limits, ProtocolError, Score, UnsupportedVariant,
};
use chesscore_core::variant::{Variant, VariantPosition};
use chesscore_core::{Game, Move, Position, Uci, UciCastling};

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

/// Crazyhouse after 1. e4 d5 2. exd5 Qxd5: each side holds a pawn.
const HOUSE: &str = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3";

fn uci_line(pos: &VariantPosition, moves: &[Move]) -> Vec<String> {
    let mut at = *pos;
    moves
        .iter()
        .map(|&mv| {
            let text = at.uci(mv).to_string();
            at.play(mv).unwrap();
            text
        })
        .collect()
}

/// The lines the engine received, without the handshake's `uci` and the final `quit`.
fn received(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap();
    text.lines().filter(|l| !matches!(*l, "uci" | "quit")).map(str::to_string).collect()
}

fn fresh_log(name: &str) -> std::path::PathBuf {
    let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&log);
    log
}

#[test]
fn a_variant_engine_is_refused_a_variant_it_does_not_list_and_nothing_is_sent() {
    let log = fresh_log("engine_variant_refused.log");
    let mut engine = Engine::start(&logged("variant", &log)).unwrap();
    for variant in [Variant::Horde, Variant::RacingKings, Variant::Antichess] {
        let error = engine.analyse_position(&VariantPosition::new(variant), &depth(1), Some(3)).unwrap_err();
        let EngineError::UnsupportedVariant(refused) = error else { panic!("{variant}: {error:?}") };
        assert_eq!(refused, UnsupportedVariant { variant: variant.uci_name(), declared: true });
        assert_eq!(
            error_text(refused),
            format!(
                "the engine does not play the variant `{}`: its UCI_Variant option does not list it",
                variant.uci_name()
            )
        );
    }
    // Refused before the MultiPV change: the engine heard nothing and goes on.
    engine.is_ready().unwrap();
    // A variant the caller set counts as set; a variant's start is a FEN, never `startpos`.
    engine.set_option("UCI_Variant", Some("atomic")).unwrap();
    let analysis = engine.analyse_position(&VariantPosition::new(Variant::Atomic), &depth(1), None).unwrap();
    assert_eq!(analysis.lines[0].pv.len(), 2);
    drop(engine);
    assert_eq!(
        received(&log),
        [
            "isready",
            "setoption name UCI_Variant value atomic",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "go depth 1"
        ]
    );
}

fn error_text(error: UnsupportedVariant) -> String {
    EngineError::UnsupportedVariant(error).to_string()
}

#[test]
fn an_engine_without_uci_variant_plays_chess_only() {
    let log = fresh_log("engine_no_variant.log");
    let mut engine = Engine::start(&logged("good", &log)).unwrap();
    for variant in [Variant::Crazyhouse, Variant::ThreeCheck, Variant::Atomic] {
        let error = engine.analyse_position(&VariantPosition::new(variant), &depth(1), None).unwrap_err();
        let EngineError::UnsupportedVariant(refused) = error else { panic!("{variant}: {error:?}") };
        assert_eq!(refused, UnsupportedVariant { variant: variant.uci_name(), declared: false });
        assert!(error_text(refused).ends_with("it declares no UCI_Variant option"));
    }
    // Chess through the variant type needs no option: the same commands as a chess position.
    let chess = VariantPosition::new(Variant::Chess);
    let analysis = engine.analyse_position(&chess, &depth(1), None).unwrap();
    assert_eq!(uci_line(&chess, &analysis.best_move.into_iter().collect::<Vec<_>>()), ["e2e4"]);
    let analysis = engine.analyse_position(&Position::startpos(), &depth(1), None).unwrap();
    assert!(analysis.best_move.is_some());
    drop(engine);
    assert_eq!(received(&log), ["position startpos", "go depth 1", "position startpos", "go depth 1"]);
}

#[test]
fn a_variant_engine_is_told_the_variant_only_when_it_changes() {
    let log = fresh_log("engine_variant.log");
    let mut engine = Engine::start(&logged("variant", &log)).unwrap();
    // Its default is chess: a chess search sends no setoption.
    engine.analyse_position(&Position::startpos(), &depth(1), None).unwrap();

    // Crazyhouse from its start, four moves played: a drop as best move and in the pv.
    let start = VariantPosition::new(Variant::Crazyhouse);
    let mut game = Vec::new();
    let mut pos = start;
    for text in ["e2e4", "d7d5", "e4d5", "d8d5"] {
        let mv = pos.parse_uci(text).unwrap();
        pos.play(mv).unwrap();
        game.push(mv);
    }
    assert_eq!(pos.to_fen(), HOUSE);
    let analysis = engine.analyse(&start, game.iter().copied(), &depth(1), Some(2)).unwrap();
    let best = analysis.best_move.unwrap();
    assert_eq!((best.drop_piece(), pos.uci(best).to_string()), (Some(chesscore_core::PieceKind::Pawn), "P@e6".into()));
    let ponder = analysis.ponder_move.unwrap();
    assert_eq!(pos.make_move(best).uci(ponder).to_string(), "P@e3");
    assert_eq!(uci_line(&pos, &analysis.lines[0].pv), ["P@e6", "P@e3", "d2e3"]);
    assert_eq!(analysis.lines[0].illegal_move, None);
    // Black holds no knight: the drop ends its line, as an illegal chess move does.
    assert_eq!(uci_line(&pos, &analysis.lines[1].pv), ["b1c3"]);
    assert_eq!(analysis.lines[1].illegal_move.as_deref(), Some("N@d4"));

    // Again in crazyhouse, a drop among the moves sent: no second setoption.
    let house = VariantPosition::from_fen(Variant::Crazyhouse, HOUSE).unwrap();
    let pawn_drop = house.parse_uci("P@e6").unwrap();
    let limits = Limits { searchmoves: vec![house.make_move(pawn_drop).parse_uci("P@e3").unwrap()], ..depth(1) };
    let mut search = engine.search(&house, [pawn_drop], &limits, Some(2)).unwrap();
    assert_eq!(search.position().to_fen(), "rnb1kbnr/ppp1pppp/4P3/3q4/8/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 1 3");
    let first = search.next().unwrap().unwrap();
    assert_eq!(uci_line(search.position(), &first.pv), ["P@e3", "d2e3"]);
    let analysis = search.finish().unwrap();
    let black = house.make_move(pawn_drop);
    assert_eq!(uci_line(&black, &analysis.best_move.into_iter().collect::<Vec<_>>()), ["P@e3"]);
    // The pocket is empty after the first drop: the second one is cut off.
    assert_eq!(uci_line(&black, &analysis.lines[1].pv), ["P@e3"]);
    assert_eq!(analysis.lines[1].illegal_move.as_deref(), Some("P@e3"));

    // Three-check read in lichess's form goes out in python-chess's, which Fairy-Stockfish reads.
    let checks =
        VariantPosition::from_fen(Variant::ThreeCheck, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+1")
            .unwrap();
    engine.analyse_position(&checks, &depth(1), None).unwrap();
    // Back to chess for a chess position.
    engine.analyse_position(&Position::startpos(), &depth(1), None).unwrap();
    drop(engine);
    assert_eq!(
        received(&log),
        [
            "position startpos",
            "go depth 1",
            "setoption name UCI_Variant value crazyhouse",
            "setoption name MultiPV value 2",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 moves e2e4 d7d5 e4d5 d8d5",
            "go depth 1",
            &format!("position fen {HOUSE} moves P@e6"),
            "go depth 1 searchmoves P@e3",
            "setoption name UCI_Variant value 3check",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1+2 0 1",
            "go depth 1",
            "setoption name UCI_Variant value chess",
            "position startpos",
            "go depth 1",
        ]
    );
}

#[test]
fn drops_are_read_only_where_the_variant_has_them() {
    let house = VariantPosition::from_fen(Variant::Crazyhouse, HOUSE).unwrap();
    let Ok(EngineLine::BestMove { best: Some(best), ponder: None }) = parse_line("bestmove P@e6 ponder P@e6", &house)
    else {
        panic!()
    };
    assert_eq!(house.uci(best).to_string(), "P@e6");
    // No knight in the pocket, a pawn on the back rank, an occupied square; chess has no drops.
    for illegal in ["N@f3", "P@a8", "P@e1", "P@d5", "p@e6", "K@e6"] {
        assert!(
            matches!(parse_line(&format!("bestmove {illegal}"), &house), Err(ProtocolError::IllegalBestMove(_))),
            "{illegal}"
        );
    }
    let chess = Position::startpos();
    assert_eq!(parse_line("bestmove P@e4", &chess), Err(ProtocolError::IllegalBestMove("P@e4".into())));
    let Ok(EngineLine::Info(info)) = parse_line("info depth 2 pv P@e6 P@a1 e7e6 score cp 3", &house) else { panic!() };
    assert_eq!((uci_line(&house, &info.pv), info.illegal_move.as_deref()), (vec!["P@e6".to_string()], Some("P@a1")));
    assert_eq!(info.score, Some(Score::Cp(3)));

    // Promoted pieces and pockets as python-chess writes them; a drop among the moves.
    let promoted =
        VariantPosition::from_fen(Variant::Crazyhouse, "r3k2r/8/8/8/8/8/8/R3K1Q~R[NPp] w KQkq - 0 1").unwrap();
    let knight = promoted.parse_uci("N@f3").unwrap();
    assert_eq!(
        position_command(&promoted, [knight], false),
        "position fen r3k2r/8/8/8/8/8/8/R3K1Q~R[NPp] w KQkq - 0 1 moves N@f3"
    );
    assert_eq!(promoted.uci_variant(), "crazyhouse");

    // Chess960 through the variant type: the chess position's commands and castling.
    let fen = "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let chess960 = VariantPosition::from_fen(Variant::Chess960, fen).unwrap();
    let position = Position::from_fen_chess960(fen).unwrap();
    let castle = chess960.read_move("e1h1").unwrap();
    assert_eq!(Some(castle), position.read_move("e1h1").ok());
    assert_eq!(chess960.read_move("e1g1"), position.read_move("e1g1"));
    assert_eq!(position_command(&chess960, [castle], true), position_command(&position, [castle], true));
    assert_eq!(chess960.uci_variant(), "chess");
}

/// Fairy-Stockfish's reading of the `position` commands sent for random variant games.
const FAIRY_READS: &str = r#"
import sys, pyffish
bad = 0
for line in open(sys.argv[1]):
    variant, command, expected = line.rstrip("\n").split("\t")
    words = command.split(" ")
    fen_end = words.index("moves") if "moves" in words else len(words)
    fen, moves = " ".join(words[2:fen_end]), words[fen_end + 1:]
    if not pyffish.validate_fen(fen, variant):
        print("refused", variant, fen); bad += 1; continue
    got, want = pyffish.get_fen(variant, fen, moves).split(" "), expected.split(" ")
    # Placement with pockets and promoted pieces, turn, castling, three-check's counters: the
    # clocks and the en passant square follow each program's own conventions.
    keep = [0, 1, 2] + ([4] if variant == "3check" else [])
    if [got[i] for i in keep] != [want[i] for i in keep]:
        print("differs", variant, command, "->", " ".join(got), "expected", expected); bad += 1
print("checked", sum(1 for _ in open(sys.argv[1])), "bad", bad)
sys.exit(1 if bad else 0)
"#;

#[test]
fn fairy_stockfish_reads_the_variant_positions_sent() {
    let suite = "engine: fairy_stockfish_reads_the_variant_positions_sent";
    let Some(python) = common::python(suite) else { return };
    let python = python.to_str().unwrap();
    if !common::tool(python, &["-c", "import pyffish"], suite, "pip install pyffish") {
        return;
    }
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = String::new();
    let variants = [
        Variant::Atomic,
        Variant::Antichess,
        Variant::Crazyhouse,
        Variant::KingOfTheHill,
        Variant::ThreeCheck,
        Variant::Horde,
        Variant::RacingKings,
    ];
    for variant in variants {
        for _ in 0..40 {
            // A random game, sent from a random ply of it: its FEN carries pockets, promoted
            // pieces and counted checks, its moves drops.
            let mut pos = VariantPosition::new(variant);
            let mut game = vec![pos];
            let mut moves = Vec::new();
            while moves.len() < 80 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                pos.play(mv).unwrap();
                moves.push(mv);
                game.push(pos);
            }
            let from = rng.below(moves.len() + 1);
            let command = position_command(&game[from], moves[from..].iter().copied(), false);
            cases.push_str(&format!("{}\t{command}\t{}\n", variant.uci_name(), pos.to_fen()));
        }
    }
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fairy_reads.tsv");
    std::fs::write(&file, cases).unwrap();
    let out = std::process::Command::new(python).args(["-c", FAIRY_READS]).arg(&file).output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(report.contains("checked 280 bad 0"), "{report}");
}
