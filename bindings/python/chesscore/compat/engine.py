"""python-chess's ``chess.engine.SimpleEngine`` over ``chesscore.engine``: the same UCI client,
taking a ``chesscore.compat.Board`` (its move stack goes to the engine, for repetitions) and
giving ``chesscore.compat.Move`` objects::

    with chess.engine.SimpleEngine.popen_uci("stockfish") as engine:
        info = engine.analyse(board, chess.engine.Limit(depth=12))
        print(info["score"].white(), engine.play(board, chess.engine.Limit(time=0.1)).move)
"""

from __future__ import annotations

import enum
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from .. import engine as _engine
from ..game import Game as _CoreGame
from ._board import Board
from ._moves import Move
from ._moves import move_of as _move_of

# The values that hold no moves are python-chess's classes as they are.
from ..engine import Cp, EngineError, Limit, Mate, MateGiven, MateGivenType, Option, PovScore, PovWdl, Score, Wdl  # noqa: F401
from ..errors import EngineTerminatedError  # noqa: F401

__all__ = [
    "AnalysisComplete", "AnalysisResult", "BestMove", "Cp", "EngineError", "EngineTerminatedError", "Info",
    "INFO_ALL", "INFO_BASIC", "INFO_CURRLINE", "INFO_NONE", "INFO_PV", "INFO_REFUTATION", "INFO_SCORE",
    "Limit", "Mate", "MateGiven", "MateGivenType", "Option", "PlayResult", "PovScore", "PovWdl", "Score",
    "SimpleAnalysisResult", "SimpleEngine", "Wdl",
]  # fmt: skip


class Info(enum.IntFlag):
    """What of an engine's info lines python-chess parses. Accepted by ``analyse``, ``play``
    and ``analysis``; the info dicts here hold every field the engine sent, whatever asked."""

    NONE = 0
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE, INFO_BASIC, INFO_SCORE, INFO_PV = Info.NONE, Info.BASIC, Info.SCORE, Info.PV
INFO_REFUTATION, INFO_CURRLINE, INFO_ALL = Info.REFUTATION, Info.CURRLINE, Info.ALL


class AnalysisComplete(Exception):
    """``AnalysisResult.get()`` after the search ended."""

InfoDict = Dict[str, Any]


def _game_of(board: Board) -> _CoreGame:
    """The board's game (start position and moves) as a chesscore Game of its own."""
    return board._core_game()


def _moves_of(info: InfoDict, chess960: bool) -> InfoDict:
    """An info dict with its moves as compat Moves."""
    out = dict(info)
    if "pv" in out:
        out["pv"] = [_move_of(move.raw, chess960) for move in out["pv"]]
    if "currmove" in out:
        out["currmove"] = _move_of(out["currmove"].raw, chess960)
    return out


def _move(move: Optional[Any], chess960: bool) -> Optional[Move]:
    return None if move is None else _move_of(move.raw, chess960)


class PlayResult:
    """The engine's ``move`` (None when it has none), its ``ponder`` move and ``info``."""

    def __init__(self, move: Optional[Move], ponder: Optional[Move], info: InfoDict) -> None:
        self.move = move
        self.ponder = ponder
        self.info = info

    def __repr__(self) -> str:
        return f"<PlayResult at {id(self):#x} (move={self.move}, ponder={self.ponder}, info={self.info})>"


class BestMove:
    def __init__(self, move: Optional[Move], ponder: Optional[Move]) -> None:
        self.move = move
        self.ponder = ponder

    def __repr__(self) -> str:
        return f"<BestMove at {id(self):#x} (move={self.move}, ponder={self.ponder})>"


class SimpleEngine:
    """A UCI engine process after the handshake; ``id`` and ``options`` as the engine said."""

    def __init__(self, core: _engine.SimpleEngine) -> None:
        self._core = core
        self.id = core.id
        self.options = core.options

    @classmethod
    def popen_uci(
        cls,
        command: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
        *,
        timeout: float = 10.0,
        cwd: Optional[Union[str, "os.PathLike[str]"]] = None,
    ) -> SimpleEngine:
        return cls(_engine.SimpleEngine.popen_uci(command, timeout=timeout, cwd=cwd))

    def configure(self, options: Dict[str, object]) -> None:
        self._core.configure(options)

    def ping(self) -> None:
        self._core.ping()

    def analyse(self, board: Board, limit: Limit, *, multipv: Optional[int] = None, info: Info = Info.ALL) -> Any:
        """The info dict of the best line, or with ``multipv`` a list of one per line."""
        infos = self._core.analyse(_game_of(board), limit, multipv=multipv)
        if multipv is None:
            return _moves_of(infos, board.chess960)
        return [_moves_of(info, board.chess960) for info in infos]

    def play(self, board: Board, limit: Limit, *, info: Info = Info.NONE) -> PlayResult:
        result = self._core.play(_game_of(board), limit)
        return PlayResult(_move(result.move, board.chess960), _move(result.ponder, board.chess960), _moves_of(result.info, board.chess960))

    def analysis(
        self, board: Board, limit: Optional[Limit] = None, *, multipv: Optional[int] = None, info: Info = Info.ALL
    ) -> AnalysisResult:
        return AnalysisResult(self._core.analysis(_game_of(board), limit, multipv=multipv), board.chess960)

    def quit(self) -> None:
        self._core.quit()

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.id.get('name')!r}>"


class AnalysisResult:
    """A running search: an iterator over its info dicts; ``stop()``, ``wait()``."""

    def __init__(self, core: _engine.AnalysisResult, chess960: bool) -> None:
        self._core = core
        self._chess960 = chess960

    @property
    def info(self) -> InfoDict:
        return _moves_of(self._core.info, self._chess960)

    @property
    def multipv(self) -> List[InfoDict]:
        return [_moves_of(info, self._chess960) for info in self._core.multipv]

    def __iter__(self) -> Iterator[InfoDict]:
        return self

    def __next__(self) -> InfoDict:
        return _moves_of(next(self._core), self._chess960)

    def get(self) -> InfoDict:
        """The next info dict, waiting for it; AnalysisComplete once the search has ended."""
        try:
            return next(self)
        except StopIteration:
            raise AnalysisComplete() from None

    def next(self) -> Optional[InfoDict]:
        """The next info dict, waiting for it; None once the search has ended."""
        return next(self, None)

    def stop(self) -> None:
        self._core.stop()

    def wait(self) -> BestMove:
        best = self._core.wait()
        return BestMove(_move(best.move, self._chess960), _move(best.ponder, self._chess960))

    def __enter__(self) -> AnalysisResult:
        return self

    def __exit__(self, *exc: object) -> None:
        self._core.__exit__(*exc)


SimpleAnalysisResult = AnalysisResult  # python-chess's name for what SimpleEngine.analysis gives
