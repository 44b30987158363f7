"""chesscore.engine: python-chess's SimpleEngine shape over the C client, with Stockfish and
with the fake engines of c_tests/fake_engine.c (CHESSCORE_FAKE_ENGINE, CHESSCORE_STOCKFISH:
given by tests/python.rs)."""

import os
import shutil
import time

import pytest

import chesscore
from chesscore.engine import Cp, Limit, Mate, PovScore, SimpleEngine

from conftest import not_run


def engine_path(variable, tool, suite):
    path = os.environ.get(variable) or (shutil.which(tool) if tool == "stockfish" else None)
    if not path and tool == "stockfish" and os.path.exists("/usr/games/stockfish"):
        path = "/usr/games/stockfish"
    if not path:
        not_run(tool, suite, f"{variable} is not set and {tool} is not installed")
    return path


@pytest.fixture
def fake():
    path = engine_path("CHESSCORE_FAKE_ENGINE", "fake_engine", "python: engine faults")
    return lambda mode, timeout=2.0: SimpleEngine.popen_uci([path, mode], timeout=timeout, cwd="/")


@pytest.fixture(scope="module")
def stockfish():
    engine = SimpleEngine.popen_uci(engine_path("CHESSCORE_STOCKFISH", "stockfish", "python: stockfish"))
    engine.configure({"Threads": 1})
    yield engine
    engine.quit()


def test_an_engine_is_neither_copied_nor_pickled(fake):
    import copy
    import pickle

    with fake("good") as engine:
        for make in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="cannot be copied or pickled"):
                make(engine)


def test_fake_engine_results(fake):
    with fake("good") as engine:
        assert engine.id == {"name": "Fake Engine 1.0", "author": "The chesscore tests"}
        assert engine.options["Hash"] == ("Hash", "spin", 16, 1, 1024, [])
        assert engine.options["Style"].var == ["Solid", "Normal", "Risky"]
        assert engine.options["UCI_Chess960"].default is False
        engine.configure({"Hash": 32, "Clear Hash": None, "UCI_Chess960": False})
        engine.ping()
        pos = chesscore.Position()
        lines = engine.analyse(pos, Limit(depth=1), multipv=2)
        assert [line["multipv"] for line in lines] == [1, 2]
        assert lines[0]["score"] == PovScore(Cp(31), chesscore.WHITE)
        assert lines[0]["wdl"].white() == (300, 600, 100) and lines[0]["time"] == 0.01
        assert [m.uci() for m in lines[0]["pv"]] == ["e2e4", "e7e5"]
        assert lines[1]["upperbound"] and len(lines[1]["pv"]) == 1

        game = chesscore.Game()
        game.push_uci("g1f3")
        result = engine.play(game, Limit(time=0.05))
        assert (result.move.uci(), result.ponder.uci()) == ("e7e5", "b1c3")
        assert result.info["score"].white() == Cp(-31) and result.info["score"].relative == Cp(31)

        with engine.analysis(game, Limit(depth=1)) as analysis:
            infos = list(analysis)
        assert len(infos) == 3 and infos[2]["string"] == "all done here"
        assert analysis.wait().move.uci() == "e7e5" and analysis.info["multipv"] == 1


@pytest.mark.parametrize(
    "mode, error",
    [
        ("crash", chesscore.EngineTerminatedError),
        ("hang", chesscore.EngineTimeoutError),
        ("badmove", chesscore.EngineError),
    ],
)
def test_search_faults_raise_within_the_timeout(fake, mode, error):
    engine = fake(mode, timeout=0.3)
    began = time.monotonic()
    with pytest.raises(error):
        engine.play(chesscore.Position(), Limit(depth=3))
    assert time.monotonic() - began < 1.5
    with pytest.raises(chesscore.EngineTerminatedError):
        engine.ping()
    engine.quit()
    engine.quit()
    with pytest.raises(chesscore.EngineTerminatedError):
        engine.ping()


def test_start_faults(fake):
    with pytest.raises(chesscore.EngineNotStartedError):
        SimpleEngine.popen_uci("/nonexistent/engine")
    with pytest.raises(chesscore.EngineTerminatedError):
        fake("exit")
    with pytest.raises(chesscore.EngineTimeoutError):
        fake("silent", timeout=0.2)
    with pytest.raises(TypeError):
        fake("good").analyse("startpos", Limit(depth=1))


def test_stockfish(stockfish):
    assert "Stockfish" in stockfish.id["name"] and "MultiPV" in stockfish.options
    scholar = chesscore.Position.from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    info = stockfish.analyse(scholar, Limit(depth=6))
    assert info["score"].white() == Mate(1) and info["pv"][0].uci() == "f3f7"
    assert stockfish.play(chesscore.Position(), Limit(time=0.05)).move in chesscore.Position().legal_moves()
    with stockfish.analysis(chesscore.Position()) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 5:
                analysis.stop()
    assert analysis.wait().move in chesscore.Position().legal_moves()


def test_a_new_command_stops_an_analysis_left_running(fake):
    """python-chess cancels a running analysis when the next command comes: so do we, in both
    the package's engine and compat's."""
    import chesscore.compat as chess
    import chesscore.compat.engine

    path = engine_path("CHESSCORE_FAKE_ENGINE", "fake_engine", "python: engine faults")
    for popen, board in [
        (lambda: SimpleEngine.popen_uci([path, "good"], timeout=2.0), chesscore.Position()),
        (lambda: chess.engine.SimpleEngine.popen_uci([path, "good"], timeout=2.0), chess.Board()),
    ]:
        with popen() as engine:
            analysis = engine.analysis(board)
            next(iter(analysis))
            began = time.monotonic()
            info = engine.analyse(board, Limit(depth=1))
            assert time.monotonic() - began < 1.0 and info["multipv"] == 1
            # The one stopped gives its best move as after stop().
            assert analysis.wait().move.uci() == "e2e4"
            # Dropped without a reference, before its first info even.
            engine.analysis(board)
            began = time.monotonic()
            assert engine.play(board, Limit(depth=1)).move.uci() == "e2e4"
            engine.analysis(board, multipv=2)
            engine.configure({"Hash": 8})
            engine.ping()
            assert time.monotonic() - began < 2.0


def test_quit_from_another_thread_ends_an_analysis(fake):
    import threading

    for wait in (False, True):
        engine = fake("good")
        analysis = engine.analysis(chesscore.Position())
        next(analysis)
        quitter = threading.Timer(0.05, engine.quit)
        began = time.monotonic()
        quitter.start()
        with pytest.raises(chesscore.EngineTerminatedError):
            if wait:
                analysis.wait()
            else:
                for _ in analysis:
                    pass
        quitter.join()
        assert time.monotonic() - began < 2.0
        with pytest.raises(chesscore.EngineTerminatedError):
            next(analysis)
        with pytest.raises(chesscore.EngineTerminatedError):
            engine.ping()


@pytest.mark.parametrize(
    "limit, error",
    [
        (Limit(depth=2**32), ValueError),
        (Limit(nodes=2**64), ValueError),
        (Limit(depth=-1), ValueError),
        (Limit(nodes=-5), ValueError),
        (Limit(depth=0), ValueError),
        (Limit(mate=2**40), ValueError),
        (Limit(remaining_moves=-1), ValueError),
        (Limit(time=float("inf")), ValueError),
        (Limit(time=float("nan")), ValueError),
        (Limit(time=-0.5), ValueError),
        (Limit(white_clock=5e6), ValueError),
        (Limit(depth=True), TypeError),
        (Limit(depth=2.0), TypeError),
        (Limit(nodes="100"), TypeError),
        (Limit(time="1"), TypeError),
        (Limit(black_inc=False), TypeError),
    ],
)
def test_limits_a_c_field_cannot_hold_are_refused(fake, limit, error):
    with fake("good") as engine:
        for search in (engine.play, engine.analyse, engine.analysis):
            with pytest.raises(error) as raised:
                search(chesscore.Position(), limit)
            assert isinstance(raised.value, chesscore.Error)
        # Nothing was sent: the engine answers as before.
        engine.ping()
        assert engine.play(chesscore.Position(), Limit(depth=2**32 - 1, nodes=2**64 - 1)).move.uci() == "e2e4"


def test_option_text_that_would_start_a_command_is_refused(fake):
    with fake("good") as engine:
        for end in ["\0", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]:
            with pytest.raises(ValueError):
                engine.configure({"Hash": f"1{end}go infinite"})
            with pytest.raises(ValueError):
                engine.configure({f"Hash{end}quit": 1})
        with pytest.raises(ValueError):
            engine.configure({"Hash value 2": 1})
        engine.ping()
    for timeout in (-1, float("nan"), 1e10):
        with pytest.raises(ValueError):
            fake("good", timeout=timeout)
    with pytest.raises(TypeError):
        fake("good", timeout="2")
